"""An MCP server whose data changes, for autoui's live dashboards (PyPI `mcp`, low-level API).

- `readings` returns `count` sensor rows as structured content, each call with the next reading
  number and new values, so a bound table shows something new after every refresh (the bench).
- The resource `live://counter` (`{"count": N}`) offers subscriptions: once a client subscribes,
  the count goes up every second and each subscriber gets `notifications/resources/updated`; until
  then it stays 0, so a widget that shows a new count was told by the server.

Usage: live_server.py --transport streamable|sse --port PORT
  streamable: Streamable HTTP at /mcp
  sse:        legacy HTTP+SSE, event stream at /sse, messages POSTed to /messages/
"""

import asyncio
import itertools
import json
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.session import ServerSession

from serving import serve

COLUMNS = ["sensor", "reading", "value", "ok"]
MAX_ROWS = 10_000
calls = itertools.count(1)
COUNTER_URI = "live://counter"
counter = {"count": 0}
subscribers: set[ServerSession] = set()
ticking: list[asyncio.Task] = []

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


async def list_resources(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
    resource = types.Resource(uri=COUNTER_URI, name="counter", title="A counter", mime_type="application/json")
    return types.ListResourcesResult(resources=[resource])


async def read_resource(_ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    if str(params.uri) != COUNTER_URI:
        raise ValueError(f"no resource {params.uri}")
    text = json.dumps(counter)
    return types.ReadResourceResult(contents=[types.TextResourceContents(uri=COUNTER_URI, mime_type="application/json", text=text)])


async def tick() -> None:
    while True:
        await asyncio.sleep(1)
        counter["count"] += 1
        for session in list(subscribers):
            try:
                await session.send_resource_updated(COUNTER_URI)
            except Exception:  # the client went away
                subscribers.discard(session)


async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
    if str(params.uri) != COUNTER_URI:
        raise ValueError(f"no resource {params.uri}")
    subscribers.add(ctx.session)
    if not ticking:
        ticking.append(asyncio.create_task(tick()))
    return types.EmptyResult()


async def unsubscribe(ctx: Any, _params: types.UnsubscribeRequestParams) -> types.EmptyResult:
    subscribers.discard(ctx.session)
    return types.EmptyResult()


server = Server(
    "autoui-live-server",
    version="1.0.0",
    title="Sensor readings (test server)",
    instructions="readings returns fresh values on every call; live://counter counts up while subscribed.",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    on_list_resources=list_resources,
    on_read_resource=read_resource,
    on_subscribe_resource=subscribe,
    on_unsubscribe_resource=unsubscribe,
)


if __name__ == "__main__":
    serve(server, __doc__)
