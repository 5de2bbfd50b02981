"""A support desk MCP server for autoui's end-to-end tests, built on the official `mcp` SDK.

Its tickets carry what customers really type into web forms: `<script>` tags, `<img onerror>`
handlers and `javascript:` links, each of which would set `window.__autoui_pwned` if a page ever
ran it. The hostile-data scenario shows them in widgets and checks that the flag stays unset.
One ticket is harmless and links to an https page, so a test can tell safe links from dropped ones.

Usage: support_server.py --transport streamable|sse --port PORT
  streamable: Streamable HTTP at /mcp
  sse:        legacy HTTP+SSE, event stream at /sse, messages POSTed to /messages/
"""

import argparse
import json
from typing import Any

import mcp_types as types
import uvicorn
from mcp.server.lowlevel import Server
from mcp.server.sse import SseServerTransport
from starlette.applications import Starlette
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route

SCRIPT = "<script>window.__autoui_pwned = 'script'</script>"
IMAGE = "<img src=x onerror=\"window.__autoui_pwned = 'img'\">"
LINK = "javascript:window.__autoui_pwned = 'link'"

TICKETS: list[dict[str, Any]] = [
    {
        "id": 4101,
        "customer": f"Mallory {SCRIPT}",
        "subject": f"Refund not received {IMAGE}",
        "message": f"See [my receipt]({LINK}) and <b>hurry</b> {SCRIPT}",
        "link": LINK,
        "status": "open",
    },
    {
        "id": 4102,
        "customer": f"Trudy {IMAGE}",
        "subject": f"<a href=\"{LINK}\">Click to win</a>",
        "message": f"{IMAGE} my order never arrived",
        "link": "  JaVaScRiPt:window.__autoui_pwned = 'mixed-case'",
        "status": "pending",
    },
    {
        "id": 4103,
        "customer": "Alice Martin",
        "subject": "Invoice address change",
        "message": "Please update my invoice address.",
        "link": "https://support.example.com/tickets/4103",
        "status": "closed",
    },
]

TOOLS = [
    types.Tool(
        name="list_tickets",
        title="List support tickets",
        description="The support desk's latest tickets, as customers wrote them.",
        input_schema={
            "type": "object",
            "properties": {"status": {"type": "string", "enum": ["open", "pending", "closed"]}},
        },
    ),
]


async def list_tools(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name != "list_tickets":
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=f"unknown tool {params.name!r}")], is_error=True
        )
    wanted = (params.arguments or {}).get("status")
    tickets = [ticket for ticket in TICKETS if wanted in (None, ticket["status"])]
    body = {"tickets": tickets}
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(body))], structured_content=body
    )


server = Server(
    "autoui-support-server",
    version="1.0.0",
    title="Support desk (test server)",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
)


def sse_app() -> Starlette:
    transport = SseServerTransport("/messages/")

    async def handle_sse(request: Request) -> Response:
        async with transport.connect_sse(request.scope, request.receive, request._send) as streams:
            await server.run(streams[0], streams[1], server.create_initialization_options())
        return Response()

    return Starlette(
        routes=[
            Route("/sse", endpoint=handle_sse, methods=["GET"]),
            Mount("/messages/", app=transport.handle_post_message),
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--transport", choices=["streamable", "sse"], required=True)
    parser.add_argument("--port", type=int, required=True)
    options = parser.parse_args()
    inner = server.streamable_http_app() if options.transport == "streamable" else sse_app()
    app = CORSMiddleware(
        inner,
        allow_origins=["*"],
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=["*"],
        expose_headers=["Mcp-Session-Id", "MCP-Protocol-Version"],
    )
    uvicorn.run(app, host="127.0.0.1", port=options.port, log_level="warning")


if __name__ == "__main__":
    main()
