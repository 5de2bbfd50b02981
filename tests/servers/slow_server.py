"""A slow MCP server for autoui's cancellation tests, built on the official `mcp` SDK.

`wait_for_cancel` never answers on its own (it gives up after ten minutes); every
`notifications/cancelled` the server receives is recorded with its `requestId` and `reason`, and
`cancellations` returns the record, so a test can prove that Stop or a timeout reached the server.

Usage: slow_server.py --transport streamable|sse --port PORT
  streamable: Streamable HTTP at /mcp
  sse:        legacy HTTP+SSE, event stream at /sse, messages POSTed to /messages/
"""

from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server

from serving import serve

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


if __name__ == "__main__":
    serve(server, __doc__)
