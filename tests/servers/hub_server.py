"""An MCP server of 3,000 tools for autoui's end-to-end tests: an automation hub, like real servers
with hundreds or thousands of tools, built on the official `mcp` SDK (low-level API).

Every tool `step_NNNN` has a description and an input schema of a realistic size; `step_0042`
returns the hub's run counts by region (the data of the test's dashboard), the others an
acknowledgement. `tools/list` is paged (500 tools per page).

Usage: hub_server.py --transport streamable|sse --port PORT
"""

import json
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from serving import serve

TOOL_COUNT = 3000
PAGE_SIZE = 500
DATA_TOOL = "step_0042"
RUNS = {"North": 1280, "South": 940, "East": 610, "West": 1125}


def tool(number: int) -> types.Tool:
    return types.Tool(
        name=f"step_{number:04d}",
        description=f"Automation step {number}: runs workflow action {number} on a record of the hub and "
        "returns its outcome, with the run id and timing.",
        input_schema={
            "type": "object",
            "properties": {
                "record_id": {"type": "string", "description": "The record to run the step on"},
                "dry_run": {"type": "boolean", "description": "Report what would happen without doing it"},
                "region": {"type": "string", "enum": list(RUNS)},
            },
        },
    )


TOOLS = [tool(number) for number in range(TOOL_COUNT)]


async def list_tools(_ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    start = int(params.cursor) if params and params.cursor else 0
    end = start + PAGE_SIZE
    return types.ListToolsResult(tools=TOOLS[start:end], next_cursor=str(end) if end < len(TOOLS) else None)


async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name == DATA_TOOL:
        body = {"runs_by_region": [{"region": region, "runs": runs} for region, runs in RUNS.items()]}
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(body))])
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"{params.name}: done")])


server = Server("autoui-hub-server", version="1.0.0", title="Automation hub (test server)",
                on_list_tools=list_tools, on_call_tool=call_tool)


if __name__ == "__main__":
    serve(server, __doc__)
