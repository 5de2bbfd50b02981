"""A small MCP server for autoui's browser tests, built on the official `mcp` SDK (low-level API).

It serves a fixed table of cities through tools that return structured content only (an empty
`content` list), pages its `tools/list` answer (two tools per page, so clients must follow
`nextCursor`), and answers a lookup of a missing row with an error result (`isError: true`).
Browsers reach it through Starlette's CORS middleware, which exposes `Mcp-Session-Id`.

Usage: table_server.py --transport streamable|sse --port PORT
  streamable: Streamable HTTP at /mcp
  sse:        legacy HTTP+SSE, event stream at /sse, messages POSTed to /messages/
"""

from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from serving import serve

COLUMNS = ["id", "city", "country", "population", "area_km2"]
ROWS: list[dict[str, Any]] = [
    {"id": 1, "city": "Lyon", "country": "France", "population": 522250, "area_km2": 47.87},
    {"id": 2, "city": "Porto", "country": "Portugal", "population": 231800, "area_km2": 41.42},
    {"id": 3, "city": "Leipzig", "country": "Germany", "population": 616093, "area_km2": 297.8},
    {"id": 4, "city": "Bologna", "country": "Italy", "population": 387971, "area_km2": 140.9},
    {"id": 5, "city": "Ghent", "country": "Belgium", "population": 265086, "area_km2": 156.2},
]
NUMERIC_COLUMNS = ["population", "area_km2"]
PAGE_SIZE = 2

TOOLS = [
    types.Tool(
        name="list_rows",
        title="List rows",
        description="Rows of the cities table, largest population first.",
        input_schema={
            "type": "object",
            "properties": {
                "min_population": {"type": "integer", "description": "Keep cities with at least this population"},
                "limit": {"type": "integer", "minimum": 1, "description": "Return at most this many rows"},
            },
        },
        output_schema={
            "type": "object",
            "properties": {"columns": {"type": "array"}, "rows": {"type": "array"}},
            "required": ["columns", "rows"],
        },
    ),
    types.Tool(
        name="get_row",
        title="Get a row",
        description="One city by its id.",
        input_schema={
            "type": "object",
            "properties": {"id": {"type": "integer", "description": "The row id"}},
            "required": ["id"],
        },
    ),
    types.Tool(
        name="count_rows",
        title="Count rows",
        description="How many cities have at least `min_population` inhabitants.",
        input_schema={
            "type": "object",
            "properties": {"min_population": {"type": "integer"}},
        },
    ),
    types.Tool(
        name="sum_column",
        title="Sum a column",
        description="The total of a numeric column over the whole table.",
        input_schema={
            "type": "object",
            "properties": {"column": {"type": "string", "enum": NUMERIC_COLUMNS}},
            "required": ["column"],
        },
    ),
    types.Tool(
        name="describe_table",
        title="Describe the table",
        description="The table's columns and row count.",
        input_schema={"type": "object", "properties": {}},
    ),
]


def structured(value: dict[str, Any]) -> types.CallToolResult:
    """A result with structured content only: clients must not rely on a text block."""
    return types.CallToolResult(content=[], structured_content=value)


def error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)


def call(name: str, args: dict[str, Any]) -> types.CallToolResult:
    if name == "list_rows":
        rows = [row for row in ROWS if row["population"] >= args.get("min_population", 0)]
        rows.sort(key=lambda row: row["population"], reverse=True)
        limit = args.get("limit")
        return structured({"columns": COLUMNS, "rows": rows[:limit] if limit else rows})
    if name == "get_row":
        wanted = args.get("id")
        for row in ROWS:
            if row["id"] == wanted:
                return structured(row)
        return error(f"no row with id {wanted}; ids run from 1 to {len(ROWS)}")
    if name == "count_rows":
        minimum = args.get("min_population", 0)
        return structured({"count": sum(1 for row in ROWS if row["population"] >= minimum)})
    if name == "sum_column":
        column = args.get("column")
        if column not in NUMERIC_COLUMNS:
            return error(f"cannot sum column {column!r}; numeric columns: {', '.join(NUMERIC_COLUMNS)}")
        return structured({"column": column, "sum": sum(row[column] for row in ROWS)})
    if name == "describe_table":
        return structured({"columns": COLUMNS, "rows": len(ROWS)})
    return error(f"unknown tool {name!r}")


async def list_tools(_ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    start = int(params.cursor) if params and params.cursor else 0
    end = start + PAGE_SIZE
    return types.ListToolsResult(tools=TOOLS[start:end], next_cursor=str(end) if end < len(TOOLS) else None)


async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    return call(params.name, params.arguments or {})


server = Server(
    "autoui-table-server",
    version="1.0.0",
    title="Cities table (test server)",
    instructions="A fixed table of five cities; list_rows returns them as structured rows.",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
)


if __name__ == "__main__":
    serve(server, __doc__)
