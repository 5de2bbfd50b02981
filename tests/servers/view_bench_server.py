"""An MCP Apps server for autoui's benchmark (`scripts/bench.sh`), built on the official `mcp` SDK.
`painted` comes with a small view (a heading and a 50-row table) that reports its first painted
frame with `ui/notifications/size-changed`; `size-storm` comes with a view that, once loaded, sends
200 `size-changed` notifications over about 1.2 s, just under the host's rate limit so every one
arrives (heights from 100 to 1,000 px), then the log message "storm done".

Usage: view_bench_server.py --transport streamable|sse --port PORT
"""

from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from serving import serve

MIME = "text/html;profile=mcp-app"
PAINTED_URI = "ui://bench/painted.html"
STORM_URI = "ui://bench/storm.html"

ROWS = "".join(f"<tr><td>Row {n}</td><td>{n * 37 % 101}</td></tr>" for n in range(50))

PAINTED_HTML = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Painted</title>
<style>body{{font:14px sans-serif;margin:8px}}td{{padding:2px 6px}}</style></head>
<body><h1>Quarterly figures</h1><table>{ROWS}</table>
<script>
requestAnimationFrame(() => setTimeout(() => window.parent.postMessage(
  {{ jsonrpc: "2.0", method: "ui/notifications/size-changed", params: {{ height: document.body.scrollHeight }} }}, "*")));
</script></body></html>
"""

STORM_HTML = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Storm</title></head>
<body><p>Resizing…</p>
<script>
let sent = 0;
const timer = setInterval(() => {
  const height = 100 + (sent++ * 97) % 900;
  window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/size-changed", params: { height } }, "*");
  if (sent >= 200) {
    clearInterval(timer);
    window.parent.postMessage({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "storm done" } }, "*");
  }
}, 6);
</script></body></html>
"""

VIEWS = {PAINTED_URI: PAINTED_HTML, STORM_URI: STORM_HTML}


def view_tool(name: str, uri: str) -> types.Tool:
    return types.Tool(
        name=name,
        description=f"Shows the {name} view.",
        input_schema={"type": "object", "properties": {}},
        annotations={"readOnlyHint": True},
        _meta={"ui": {"resourceUri": uri}, "ui/resourceUri": uri},
    )


async def list_tools(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[view_tool("painted", PAINTED_URI), view_tool("size-storm", STORM_URI)])


async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"{params.name} shown")])


async def list_resources(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
    return types.ListResourcesResult(resources=[types.Resource(uri=uri, name=uri, mime_type=MIME) for uri in VIEWS])


async def read_resource(_ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    uri = str(params.uri)
    if uri not in VIEWS:
        raise ValueError(f"no resource {uri}")
    return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=MIME, text=VIEWS[uri])])


server = Server(
    "autoui-view-bench-server",
    version="1.0.0",
    title="View bench (test server)",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    on_list_resources=list_resources,
    on_read_resource=read_resource,
)


if __name__ == "__main__":
    serve(server, __doc__)
