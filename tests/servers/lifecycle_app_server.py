"""An MCP Apps server whose view reports what the host tells it, for autoui's end-to-end tests of
the view's lifecycle, built on the official `mcp` SDK. The model's tool `show-notes` (arguments
`note`, `count`, and `wait_s`, seconds it takes to answer) comes with the view
`ui://lifecycle/notes.html`. The view lists every notification the host sends it, in order, in
`#events` (as JSON: method and arguments), asks its server's resources, resource templates and
prompts through the host once initialized (`#lists`), and answers `ui/resource-teardown`. Its
buttons ask the host for what a view may ask: `#context` (`ui/update-model-context`),
`#fullscreen` and `#inline` (`ui/request-display-mode`, the answer in `#mode`; the container's
width the host gives, at first and as it changes, in `#width`) and `#download`
(`ui/download-file` of `notes.txt`, the outcome in `#download-result`); `#slow` calls `show-notes`
through the host with `wait_s` 1 (the answer in `#slow-result`); `#close` asks to be closed
(`ui/notifications/request-teardown`).

Usage: lifecycle_app_server.py --transport streamable|sse --port PORT
"""

import json
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server

from serving import serve

MIME = "text/html;profile=mcp-app"
VIEW_URI = "ui://lifecycle/notes.html"
README_URI = "notes://readme"

VIEW_HTML = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Notes</title></head>
<body>
<button id="context" type="button">Tell the model</button>
<button id="fullscreen" type="button">Fullscreen</button>
<button id="inline" type="button">Inline</button>
<button id="download" type="button">Download</button>
<button id="slow" type="button">Slow call</button>
<button id="close" type="button">Close</button>
<pre id="events">[]</pre>
<pre id="slow-result"></pre>
<pre id="lists">waiting</pre>
<pre id="mode"></pre>
<pre id="width"></pre>
<pre id="download-result"></pre>
<script>
const pending = new Map();
const events = [];
let nextId = 1;
function show(id, value) { document.getElementById(id).textContent = typeof value === "string" ? value : JSON.stringify(value); }
window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  const message = event.data || {};
  if (message.id !== undefined && pending.has(message.id) && !message.method) {
    pending.get(message.id)(message);
    pending.delete(message.id);
    return;
  }
  if (message.method === "ui/resource-teardown") {
    events.push({ method: message.method });
    show("events", events);
    setTimeout(() => window.parent.postMessage({ jsonrpc: "2.0", id: message.id, result: {} }, "*"), 100);
    return;
  }
  const width = ((message.params || {}).containerDimensions || {}).width;
  if (message.method === "ui/notifications/host-context-changed" && width) show("width", String(width));
  if (message.method === "ui/notifications/host-context-changed" && (message.params || {}).displayMode) {
    events.push({ method: message.method, displayMode: message.params.displayMode });
    show("events", events);
  }
  if (message.method && message.method.startsWith("ui/notifications/tool-")) {
    const params = message.params || {};
    events.push({ method: message.method, arguments: params.arguments, reason: params.reason, structured: params.structuredContent });
    show("events", events);
  }
});
function rpc(method, params) {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    window.parent.postMessage({ jsonrpc: "2.0", id, method, params }, "*");
  });
}
function notify(method, params) { window.parent.postMessage({ jsonrpc: "2.0", method, params }, "*"); }
(async () => {
  const hello = await rpc("ui/initialize", { appInfo: { name: "notes", version: "1" }, appCapabilities: {}, protocolVersion: "2026-01-26" });
  const known = ((hello.result?.hostContext || {}).containerDimensions || {}).width;
  if (known && !document.getElementById("width").textContent) show("width", String(known));
  notify("ui/notifications/initialized", {});
  const resources = await rpc("resources/list", {});
  const templates = await rpc("resources/templates/list", {});
  const prompts = await rpc("prompts/list", {});
  show("lists", {
    resources: (resources.result?.resources || []).map((r) => r.uri),
    templates: (templates.result?.resourceTemplates || []).map((t) => t.uriTemplate),
    prompts: (prompts.result?.prompts || []).map((p) => p.name),
  });
})();
document.getElementById("context").addEventListener("click", async () => {
  await rpc("ui/update-model-context", { content: [{ type: "text", text: "The person picked 3 notes" }], structuredContent: { picked: 3 } });
});
for (const mode of ["fullscreen", "inline"]) {
  document.getElementById(mode).addEventListener("click", async () => {
    const answer = await rpc("ui/request-display-mode", { mode });
    show("mode", answer.result ? answer.result.mode : "refused");
  });
}
document.getElementById("close").addEventListener("click", () => notify("ui/notifications/request-teardown", {}));
document.getElementById("slow").addEventListener("click", async () => {
  show("slow-result", "calling");
  const answer = await rpc("tools/call", { name: "show-notes", arguments: { note: "slow", count: 1, wait_s: 1 } });
  show("slow-result", answer.error ? "refused" : "answered");
});
document.getElementById("download").addEventListener("click", async () => {
  const answer = await rpc("ui/download-file", { contents: [{ type: "resource", resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "note one\\nnote two" } }] });
  show("download-result", answer.error ? "refused" : answer.result && answer.result.isError ? "declined" : "saved");
});
</script>
</body></html>
"""

TOOLS = [
    types.Tool(
        name="show-notes",
        description="Shows the notes view.",
        input_schema={
            "type": "object",
            "properties": {"note": {"type": "string"}, "count": {"type": "integer"}, "wait_s": {"type": "number"}},
        },
        _meta={"ui": {"resourceUri": VIEW_URI}, "ui/resourceUri": VIEW_URI},
    ),
]


async def list_tools(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    arguments = params.arguments or {}
    if params.name != "show-notes":
        return types.CallToolResult(content=[types.TextContent(type="text", text=f"unknown tool {params.name!r}")], is_error=True)
    await anyio.sleep(float(arguments.get("wait_s", 0)))
    body = {"notes": int(arguments.get("count", 0)), "first": arguments.get("note", "")}
    return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(body))], structured_content=body)


async def list_resources(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
    return types.ListResourcesResult(
        resources=[
            types.Resource(uri=VIEW_URI, name="notes view", mime_type=MIME),
            types.Resource(uri=README_URI, name="readme", mime_type="text/plain"),
        ]
    )


async def list_resource_templates(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListResourceTemplatesResult:
    return types.ListResourceTemplatesResult(resource_templates=[types.ResourceTemplate(uri_template="notes://{name}", name="a note")])


async def read_resource(_ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    uri = str(params.uri)
    if uri == VIEW_URI:
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type=MIME, text=VIEW_HTML)])
    if uri == README_URI:
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=uri, mime_type="text/plain", text="Notes.")])
    raise ValueError(f"no resource {uri}")


async def list_prompts(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
    return types.ListPromptsResult(prompts=[types.Prompt(name="summarise-notes", description="Summarise the notes.")])


async def get_prompt(_ctx: Any, params: types.GetPromptRequestParams) -> types.GetPromptResult:
    message = types.PromptMessage(role="user", content=types.TextContent(type="text", text="Summarise the notes."))
    return types.GetPromptResult(messages=[message])


server = Server(
    "autoui-lifecycle-app-server",
    version="1.0.0",
    title="Notes app (test server)",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    on_list_resources=list_resources,
    on_list_resource_templates=list_resource_templates,
    on_read_resource=read_resource,
    on_list_prompts=list_prompts,
    on_get_prompt=get_prompt,
)


if __name__ == "__main__":
    serve(server, __doc__)
