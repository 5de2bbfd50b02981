"""How autoui's Python test servers are served: `serve(server, doc)` parses `--transport
streamable|sse --port PORT` and runs the MCP server on 127.0.0.1 behind Starlette's CORS middleware,
which lets any origin in and exposes the MCP session headers.
  streamable: Streamable HTTP at /mcp
  sse:        legacy HTTP+SSE, event stream at /sse, messages POSTed to /messages/
`serve_app(app, doc)` does the same for a plain Starlette app (the Ollama-like server), with `--port PORT`.
"""

import argparse

import uvicorn
from mcp.server.lowlevel import Server
from mcp.server.sse import SseServerTransport
from starlette.applications import Starlette
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route


def sse_app(server: Server) -> Starlette:
    transport = SseServerTransport("/messages/")

    async def handle_sse(request: Request) -> Response:
        async with transport.connect_sse(request.scope, request.receive, request._send) as streams:
            await server.run(streams[0], streams[1], server.create_initialization_options())
        return Response()

    return Starlette(
        routes=[
            Route("/sse", endpoint=handle_sse, methods=["GET"]),
            Mount("/messages/", app=transport.handle_post_message),
        ]
    )


def serve(server: Server, doc: str) -> None:
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--transport", choices=["streamable", "sse"], required=True)
    parser.add_argument("--port", type=int, required=True)
    options = parser.parse_args()
    inner = server.streamable_http_app() if options.transport == "streamable" else sse_app(server)
    on_loopback(inner, options.port)


def serve_app(app: Starlette, doc: str) -> None:
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    on_loopback(app, parser.parse_args().port)


def on_loopback(inner: Starlette, port: int) -> None:
    app = CORSMiddleware(
        inner,
        allow_origins=["*"],
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=["*"],
        expose_headers=["Mcp-Session-Id", "MCP-Protocol-Version"],
    )
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
