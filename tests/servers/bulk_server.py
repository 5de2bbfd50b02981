"""An MCP server with very large results, for autoui's bench (PyPI `mcp`, low-level API).

- `rows` returns `count` rows (up to 300,000) as one JSON text block, about 100 bytes a row:
  200,000 rows make a result of about 20 MB, which the client must cut as it streams in without
  blocking the page (issue 15, item 9).

Usage: bulk_server.py --transport streamable|sse --port PORT
  streamable: Streamable HTTP at /mcp
  sse:        legacy HTTP+SSE, event stream at /sse, messages POSTed to /messages/
"""

import json
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from serving import serve

MAX_ROWS = 300_000

TOOLS = [
    types.Tool(
        name="rows",
        title="Many rows",
        description="`count` rows of a cities table as a JSON array (about 100 bytes a row).",
        input_schema={
            "type": "object",
            "properties": {"count": {"type": "integer", "minimum": 1, "maximum": MAX_ROWS}},
            "required": ["count"],
        },
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
]


def rows(count: int) -> str:
    return json.dumps(
        [
            {"id": i, "city": f"City {i:06d}", "country": f"Country {i % 97:02d}", "population": (i * 7919) % 9_000_000, "area_km2": round((i * 104729) % 100_000 / 100, 2)}
            for i in range(count)
        ]
    )


async def list_tools(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    count = (params.arguments or {}).get("count")
    if params.name != "rows":
        return types.CallToolResult(content=[types.TextContent(type="text", text=f"unknown tool {params.name!r}")], is_error=True)
    if not isinstance(count, int) or not 1 <= count <= MAX_ROWS:
        return types.CallToolResult(content=[types.TextContent(type="text", text=f"count must be 1 to {MAX_ROWS}, got {count!r}")], is_error=True)
    return types.CallToolResult(content=[types.TextContent(type="text", text=rows(count))])


server = Server(
    "autoui-bulk-server",
    version="1.0.0",
    title="Many rows (test server)",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
)


if __name__ == "__main__":
    serve(server, __doc__)
