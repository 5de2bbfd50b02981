"""An Ollama-like server for autoui's end-to-end tests: `/api/show` and a scripted `/api/chat` that
streams NDJSON and builds the samples' sales dashboard, step by step, from the conversation it is sent.

Like Ollama, it reads at most `options.num_ctx` tokens of prompt (DEFAULT_CONTEXT when the request
sets none) and cuts the rest from the start: the system prompt and the tool definitions go first. A
model whose instructions were cut off answers in text and calls nothing, so a client that does not
set `num_ctx` never gets its dashboard. Tokens are counted as 4 characters each.

GET /requests returns every request received (path, JSON body and the chat's authorization
header), for the test's assertions.

Usage: ollama_server.py --port PORT
"""

import json
import sys
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from serving import serve_app

MODEL = "qwen2.5:7b"
MODEL_CONTEXT = 32768
DEFAULT_CONTEXT = 2048
CHARS_PER_TOKEN = 4

LIST = "samples_webmcp_list_recipes"
RECIPE = "samples_webmcp_get_recipe"
DISPLAY = "autoui_webmcp_widget_display"
DONE = "Here is your sales dashboard."

received: list[dict[str, Any]] = []


def exchanges(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every tool call of the conversation with its result: a `tool` message answers the oldest
    unanswered call of its `tool_name`."""
    calls: list[dict[str, Any]] = []
    for message in messages:
        if message.get("role") == "assistant":
            for call in message.get("tool_calls") or []:
                function = call.get("function", {})
                calls.append({"name": function.get("name"), "args": function.get("arguments"), "result": None})
        elif message.get("role") == "tool":
            for call in calls:
                if call["result"] is None and call["name"] == message.get("tool_name"):
                    call["result"] = message.get("content", "")
                    break
    return calls


def succeeded(call: dict[str, Any]) -> bool:
    return call["result"] is not None and not call["result"].startswith("Error")


def as_json(text: str) -> Any:
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return None


def tool_named_by_recipe(recipe: Any) -> str | None:
    body = recipe.get("recipe", "") if isinstance(recipe, dict) else ""
    start = body.find('"tool": "')
    if start < 0:
        return None
    start += len('"tool": "')
    return body[start:body.find('"', start)]


def dashboard_calls(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    totals = data["totals"]
    lines = data.get("by_product_line", [])

    def widget(name: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return DISPLAY, {"name": name, "params": params}

    return [
        widget("stat-card", {"label": "Revenue", "value": str(totals["revenue"]), "unit": "€"}),
        widget("stat-card", {"label": "Gross margin", "value": str(totals["margin"]), "unit": "€"}),
        widget("stat-card", {"label": "Units sold", "value": str(totals["units"])}),
        widget("chart-rich", {"title": "Monthly revenue by region", "type": "line", "labels": data["months"],
                              "data": data["series_by_region"]}),
        widget("chart-rich", {"title": "Revenue by product line", "type": "donut",
                              "labels": [line["product_line"] for line in lines],
                              "data": [{"label": "Revenue", "values": [line["revenue"] for line in lines]}]}),
        widget("data-table", {"title": "Sales by region", "columns": [
            {"key": "region", "label": "Region"}, {"key": "revenue", "label": "Revenue (€)", "type": "number"},
            {"key": "units", "label": "Units", "type": "number"}], "rows": data["by_region"]}),
    ]


def next_step(messages: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]] | str:
    """The flow's next step (tool calls, or the closing text), latest step first: results of early
    steps are compressed by the app after two iterations."""
    calls = exchanges(messages)
    if any(call["name"] == DISPLAY and succeeded(call) for call in calls):
        return DONE
    for call in reversed(calls):
        if call["name"].startswith("samples_webmcp_") and call["name"] not in (LIST, RECIPE) and succeeded(call):
            data = as_json(call["result"])
            return dashboard_calls(data) if isinstance(data, dict) and "totals" in data else "the data did not parse"
    recipes = [call for call in calls if call["name"] == RECIPE and succeeded(call)]
    if recipes:
        tool = tool_named_by_recipe(as_json(recipes[-1]["result"]))
        return [(tool, {})] if tool else "the recipe names no tool"
    listed = [call for call in calls if call["name"] == LIST and succeeded(call)]
    if not listed:
        return [(LIST, {})]
    names = [recipe.get("name", "") for recipe in (as_json(listed[-1]["result"]) or {}).get("recipes", [])]
    return [(RECIPE, {"name": next((name for name in names if "sales" in name), "sales")})]


def segments(body: dict[str, Any]) -> list[tuple[str, str]]:
    """The prompt as the model reads it, in order: system messages and tools first (as Ollama's
    templates render them), then the conversation."""
    messages = body.get("messages", [])
    system = [("system", m.get("content", "")) for m in messages if m.get("role") == "system"]
    tools = [("tool:" + t["function"]["name"], json.dumps(t)) for t in body.get("tools", [])]
    rest = [("message", json.dumps(m)) for m in messages if m.get("role") != "system"]
    return system + tools + rest


def visible(body: dict[str, Any]) -> tuple[set[str], int, int]:
    """The segments left after cutting the prompt to the context from its start, the prompt's
    tokens and the context's."""
    context = (body.get("options") or {}).get("num_ctx") or DEFAULT_CONTEXT
    parts = segments(body)
    tokens = sum(len(text) for _, text in parts) // CHARS_PER_TOKEN
    room = context * CHARS_PER_TOKEN
    kept: set[str] = set()
    for kind, text in reversed(parts):
        room -= len(text)
        if room < 0:
            break
        kept.add(kind)
    return kept, tokens, context


def line(message: dict[str, Any], done: bool = False, **extra: Any) -> bytes:
    payload = {"model": MODEL, "created_at": "2026-12-01T00:00:00Z", "message": {"role": "assistant", **message},
               "done": done, **extra}
    return (json.dumps(payload) + "\n").encode()


async def chat(request: Request) -> Response:
    body = await request.json()
    received.append({"path": "/api/chat", "body": body, "authorization": request.headers.get("authorization")})
    if body.get("model") != MODEL:
        return JSONResponse({"error": f"model \"{body.get('model')}\" not found, try pulling it first"}, 404)
    kept, tokens, context = visible(body)
    step = next_step(body.get("messages", []))
    if "system" not in kept:
        print(f"truncating input prompt limit={context} prompt={tokens}", file=sys.stderr)
        step = "I am not sure what you would like me to do, and I see no tools to use."
    elif not isinstance(step, str):
        missing = [name for name, _ in step if "tool:" + name not in kept]
        if missing:
            step = f"I cannot call {missing[0]}: it is not among my tools."

    def stream():
        if isinstance(step, str):
            words = step.split(" ")
            for index, word in enumerate(words):
                yield line({"content": word + (" " if index < len(words) - 1 else "")})
        else:
            calls = [{"function": {"name": name, "arguments": args}} for name, args in step]
            yield line({"content": "", "tool_calls": calls})
        yield line({"content": ""}, True, done_reason="stop", prompt_eval_count=min(tokens, context), eval_count=42)

    return StreamingResponse(stream(), media_type="application/x-ndjson")


async def show(request: Request) -> Response:
    body = await request.json()
    received.append({"path": "/api/show", "body": body})
    if body.get("model", body.get("name")) != MODEL:
        return JSONResponse({"error": f"model '{body.get('model')}' not found"}, 404)
    return JSONResponse({
        "modelfile": f"FROM {MODEL}",
        "details": {"format": "gguf", "family": "qwen2", "parameter_size": "7.6B"},
        "model_info": {"general.architecture": "qwen2", "qwen2.context_length": MODEL_CONTEXT},
        "capabilities": ["completion", "tools"],
    })


async def requests(_request: Request) -> Response:
    return JSONResponse(received)


app = Starlette(routes=[
    Route("/api/chat", chat, methods=["POST"]),
    Route("/api/show", show, methods=["POST"]),
    Route("/requests", requests, methods=["GET"]),
])


if __name__ == "__main__":
    serve_app(app, __doc__)
