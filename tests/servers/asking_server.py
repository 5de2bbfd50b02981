"""An MCP server that asks its client badly, for autoui's end-to-end tests, on the official `mcp` SDK.

`ask_for_address` sends `elicitation/create` with a requested schema no flat form can show (an
object inside the form, which the specification does not allow), and returns what the client
answered: the client's error message when it refused the request, or its answer otherwise.

Usage: asking_server.py --transport streamable|sse --port PORT
  streamable: Streamable HTTP at /mcp
  sse:        legacy HTTP+SSE, event stream at /sse, messages POSTed to /messages/
"""

from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from serving import serve

MALFORMED_SCHEMA = {
    "type": "object",
    "properties": {
        "address": {
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        }
    },
}

TOOLS = [
    types.Tool(
        name="ask_for_address",
        description="Asks the person for their postal address (with a schema no form can show).",
        input_schema={"type": "object", "properties": {}},
    ),
]


async def list_tools(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name != "ask_for_address":
        return types.CallToolResult(content=[types.TextContent(type="text", text=f"unknown tool {params.name!r}")], is_error=True)
    try:
        answer = await ctx.session.elicit_form("Where do you live?", MALFORMED_SCHEMA, ctx.request_id)
        text = f"the client answered: {answer.action}"
    except MCPError as error:
        text = f"the client refused the question: {error.error.message}"
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)])


server = Server(
    "autoui-asking-server",
    version="1.0.0",
    title="Asks badly (test server)",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
)


if __name__ == "__main__":
    serve(server, __doc__)
