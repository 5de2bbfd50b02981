"""How autoui's Python test servers are served: `serve(server, doc)` parses `--transport
streamable|sse --port PORT` and runs the MCP server on 127.0.0.1 behind Starlette's CORS middleware,
which lets any origin in and exposes the MCP session headers.
  streamable: Streamable HTTP at /mcp
  sse:        legacy HTTP+SSE, event stream at /sse, messages POSTed to /messages/
`serve_app(app, doc)` does the same for a plain Starlette app (the Ollama-like server), with `--port PORT`.
Every server records the method, path and Authorization header of each request it gets, and serves
that list at GET /received, for the tests' assertions (which requests carried a token).
MCP_EXTRA_HOSTS (comma-separated names, e.g. `cities.lan.test`) adds host names the Streamable HTTP
endpoint accepts besides loopback's (the SDK's DNS-rebinding check), for a test that maps such a name
to 127.0.0.1 in the browser.
"""

import argparse
import os

import uvicorn
from mcp.server.lowlevel import Server
from mcp.server.sse import SseServerTransport
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
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


def security() -> TransportSecuritySettings | None:
    """The SDK's loopback-only Host check, widened to MCP_EXTRA_HOSTS; `None` (the SDK's own) without it."""
    extra = [name.strip() for name in os.environ.get("MCP_EXTRA_HOSTS", "").split(",") if name.strip()]
    if not extra:
        return None
    loopback = ["127.0.0.1", "localhost", "[::1]"]
    return TransportSecuritySettings(
        allowed_hosts=[f"{name}:*" for name in loopback + extra],
        allowed_origins=[f"http://{name}:*" for name in loopback],
    )


def serve(server: Server, doc: str) -> None:
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--transport", choices=["streamable", "sse"], required=True)
    parser.add_argument("--port", type=int, required=True)
    options = parser.parse_args()
    inner = server.streamable_http_app(transport_security=security()) if options.transport == "streamable" else sse_app(server)
    on_loopback(inner, options.port)


def serve_app(app: Starlette, doc: str) -> None:
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    on_loopback(app, parser.parse_args().port)


class Recorder:
    """ASGI middleware keeping what each request was and whether it carried a token."""

    def __init__(self, app) -> None:
        self.app = app
        self.received: list[dict[str, str | None]] = []

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            if scope["path"] == "/received":
                await JSONResponse(self.received)(scope, receive, send)
                return
            authorization = dict(scope["headers"]).get(b"authorization")
            self.received.append(
                {
                    "method": scope["method"],
                    "path": scope["path"],
                    "authorization": authorization.decode() if authorization else None,
                }
            )
        await self.app(scope, receive, send)


def on_loopback(inner: Starlette, port: int) -> None:
    app = CORSMiddleware(
        inner,
        allow_origins=["*"],
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=["*"],
        expose_headers=["Mcp-Session-Id", "MCP-Protocol-Version", "WWW-Authenticate"],
    )
    uvicorn.run(Recorder(app), host="127.0.0.1", port=port, log_level="warning")
