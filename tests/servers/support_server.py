"""A support desk MCP server for autoui's end-to-end tests, built on the official `mcp` SDK.

Its tickets carry what customers really type into web forms: `<script>` tags, `<img onerror>`
handlers and `javascript:` links, each of which would set `window.__autoui_pwned` if a page ever
ran it. The hostile-data scenario shows them in widgets and checks that the flag stays unset.
One ticket is harmless and links to an https page, so a test can tell safe links from dropped ones.

Usage: support_server.py --transport streamable|sse --port PORT
  streamable: Streamable HTTP at /mcp
  sse:        legacy HTTP+SSE, event stream at /sse, messages POSTed to /messages/
"""

import json
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from serving import serve

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


if __name__ == "__main__":
    serve(server, __doc__)
