"""An MCP server whose data changes on every call, for autoui's live-dashboard bench (PyPI `mcp`,
low-level API): `readings` returns `count` sensor rows as structured content, each call with the
next reading number and new values, so a bound table shows something new after every refresh.

Usage: live_server.py --transport streamable|sse --port PORT
  streamable: Streamable HTTP at /mcp
  sse:        legacy HTTP+SSE, event stream at /sse, messages POSTed to /messages/
"""

import itertools
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from serving import serve

COLUMNS = ["sensor", "reading", "value", "ok"]
MAX_ROWS = 10_000
calls = itertools.count(1)

TOOLS = [
    types.Tool(
        name="readings",
        title="Sensor readings",
        description="The latest reading of `count` sensors (new values on every call).",
        input_schema={
            "type": "object",
            "properties": {"count": {"type": "integer", "minimum": 1, "maximum": MAX_ROWS}},
            "required": ["count"],
        },
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
]


def readings(count: int) -> dict[str, Any]:
    reading = next(calls)
    rows = [
        {"sensor": f"Sensor {i}", "reading": reading, "value": (i * 7919 + reading * 104729) % 100_000 / 100, "ok": (i + reading) % 7 != 0}
        for i in range(count)
    ]
    return {"columns": COLUMNS, "rows": rows}


async def list_tools(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    count = (params.arguments or {}).get("count")
    if params.name != "readings":
        return types.CallToolResult(content=[types.TextContent(type="text", text=f"unknown tool {params.name!r}")], is_error=True)
    if not isinstance(count, int) or not 1 <= count <= MAX_ROWS:
        return types.CallToolResult(content=[types.TextContent(type="text", text=f"count must be 1 to {MAX_ROWS}, got {count!r}")], is_error=True)
    return types.CallToolResult(content=[], structured_content=readings(count))


server = Server(
    "autoui-live-server",
    version="1.0.0",
    title="Sensor readings (test server)",
    instructions="readings returns fresh values on every call.",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
)


if __name__ == "__main__":
    serve(server, __doc__)
