"""An MCP server with an image resource, for autoui's end-to-end tests (PyPI `mcp`, low-level API).

- The resource `pictures://logo.png` is a small PNG sent as a base64 `blob` (`image/png`): an image
  a widget may show, since the server sent it.
- The resource `pictures://about.txt` is text, and the tool `palette` returns the logo's colours.

Usage: picture_server.py --transport streamable|sse --port PORT
  streamable: Streamable HTTP at /mcp
  sse:        legacy HTTP+SSE, event stream at /sse, messages POSTed to /messages/
"""

import base64
import struct
import zlib
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server

from serving import serve

LOGO_URI = "pictures://logo.png"
ABOUT_URI = "pictures://about.txt"


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A plain-colour RGB PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


LOGO = base64.b64encode(png(16, 16, (22, 163, 74))).decode()

TOOLS = [
    types.Tool(
        name="palette",
        title="Palette",
        description="The colours of the logo.",
        input_schema={"type": "object", "properties": {}},
        annotations=types.ToolAnnotations(read_only_hint=True),
    ),
]


async def list_tools(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name != "palette":
        return types.CallToolResult(content=[types.TextContent(type="text", text=f"unknown tool {params.name!r}")], is_error=True)
    return types.CallToolResult(content=[types.TextContent(type="text", text='{"green": "#16a34a"}')])


async def list_resources(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
    return types.ListResourcesResult(
        resources=[
            types.Resource(uri=LOGO_URI, name="logo", title="The logo", mime_type="image/png"),
            types.Resource(uri=ABOUT_URI, name="about", title="About", mime_type="text/plain"),
        ]
    )


async def read_resource(_ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    uri = str(params.uri)
    if uri == LOGO_URI:
        return types.ReadResourceResult(contents=[types.BlobResourceContents(uri=LOGO_URI, mime_type="image/png", blob=LOGO)])
    if uri == ABOUT_URI:
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=ABOUT_URI, mime_type="text/plain", text="A green square.")])
    raise ValueError(f"no resource {uri}")


server = Server(
    "autoui-picture-server",
    version="1.0.0",
    title="Pictures (test server)",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    on_list_resources=list_resources,
    on_read_resource=read_resource,
)


if __name__ == "__main__":
    serve(server, __doc__)
