"""A slow MCP server for autoui's cancellation tests, built on the official `mcp` SDK.

`wait_for_cancel` never answers on its own (it gives up after ten minutes); every
`notifications/cancelled` the server receives is recorded with its `requestId` and `reason`, and
`cancellations` returns the record, so a test can prove that Stop or a timeout reached the server.

Usage: slow_server.py --transport streamable|sse --port PORT
  streamable: Streamable HTTP at /mcp
  sse:        legacy HTTP+SSE, event stream at /sse, messages POSTed to /messages/
"""

import argparse
from typing import Any

import anyio
import mcp_types as types
import uvicorn
from mcp.server.lowlevel import Server
from mcp.server.sse import SseServerTransport
from starlette.applications import Starlette
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route

CANCELLATIONS: list[dict[str, Any]] = []

TOOLS = [
    types.Tool(
        name="wait_for_cancel",
        description="Runs until the client cancels it.",
        input_schema={"type": "object", "properties": {}},
    ),
    types.Tool(
        name="cancellations",
        description="Every notifications/cancelled received so far: requestId and reason.",
        input_schema={"type": "object", "properties": {}},
    ),
]


async def list_tools(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name == "wait_for_cancel":
        await anyio.sleep(600)
        return types.CallToolResult(content=[types.TextContent(type="text", text="nobody cancelled")])
    if params.name == "cancellations":
        return types.CallToolResult(content=[], structured_content={"cancellations": CANCELLATIONS})
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"unknown tool {params.name!r}")], is_error=True)


async def record_cancellations(ctx: Any, call_next: Any) -> Any:
    """Context middleware: sees every inbound message, including `notifications/cancelled`."""
    if ctx.method == "notifications/cancelled":
        params = dict(ctx.params or {})
        CANCELLATIONS.append({"requestId": params.get("requestId"), "reason": params.get("reason")})
    return await call_next(ctx)


server = Server(
    "autoui-slow-server",
    version="1.0.0",
    title="Slow tools (test server)",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
)
server.middleware.append(record_cancellations)


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
