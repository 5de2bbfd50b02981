"""A notes MCP server for autoui's tool-approval test, built on the official `mcp` SDK.

`list_notes` is marked `readOnlyHint: true`; `delete_note` is marked `destructiveHint: true`, so the
client asks the person before it runs. Every `tools/call` the server receives is recorded, and
`list_notes` returns that record with the notes, so a test can prove a declined call never arrived.

Usage: notes_server.py --transport streamable|sse --port PORT
  streamable: Streamable HTTP at /mcp
  sse:        legacy HTTP+SSE, event stream at /sse, messages POSTed to /messages/
"""

import json
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from serving import serve

NOTES: dict[int, str] = {1: "Buy milk", 2: "Call the plumber", 3: "Renew the passport"}
CALLS: list[dict[str, Any]] = []

TOOLS = [
    types.Tool(
        name="list_notes",
        description="Every note, and every tool call this server received.",
        input_schema={"type": "object", "properties": {}},
        annotations={"readOnlyHint": True},
    ),
    types.Tool(
        name="delete_note",
        description="Deletes a note for good.",
        input_schema={
            "type": "object",
            "properties": {"id": {"type": "integer", "minimum": 1}},
            "required": ["id"],
        },
        annotations={"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True},
    ),
]


def answer(body: dict[str, Any], is_error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=json.dumps(body))], structured_content=body, is_error=is_error
    )


async def list_tools(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    arguments = params.arguments or {}
    CALLS.append({"tool": params.name, "arguments": arguments})
    if params.name == "list_notes":
        notes = [{"id": key, "text": text} for key, text in sorted(NOTES.items())]
        return answer({"notes": notes, "calls": CALLS[:-1]})
    if params.name == "delete_note":
        removed = NOTES.pop(int(arguments.get("id", 0)), None)
        if removed is None:
            return answer({"error": f"no note {arguments.get('id')!r}"}, is_error=True)
        return answer({"deleted": removed})
    return answer({"error": f"unknown tool {params.name!r}"}, is_error=True)


server = Server(
    "autoui-notes-server",
    version="1.0.0",
    title="Notes (test server)",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
)


if __name__ == "__main__":
    serve(server, __doc__)
