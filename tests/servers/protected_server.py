"""An MCP server that is an OAuth protected resource, for autoui's sign-in tests, built on the
official `mcp` SDK: its auth settings publish the protected-resource metadata and answer 401 with a
`WWW-Authenticate` challenge naming it; only the token in PROTECTED_TOKEN (default
`autoui-test-token`) is accepted. The authorization server it names (PROTECTED_ISSUER, default
this server's `/issuer`, where nothing answers) is for the end-to-end tier to supply.

`whoami` says which client the accepted token was issued to.

Usage: protected_server.py --transport streamable --port PORT   (Streamable HTTP at /mcp)
"""

import os
import sys
from typing import Any

import mcp_types as types
from mcp.server.auth.provider import AccessToken, TokenVerifier
from mcp.server.auth.settings import AuthSettings
from mcp.server.lowlevel import Server

from serving import on_loopback

TOKEN = os.environ.get("PROTECTED_TOKEN", "autoui-test-token")
SCOPE = "notes:read"


class OneToken(TokenVerifier):
    async def verify_token(self, token: str) -> AccessToken | None:
        if token != TOKEN:
            return None
        return AccessToken(token=token, client_id="autoui-test", scopes=[SCOPE], expires_at=None)


async def list_tools(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    tool = types.Tool(name="whoami", description="The client the token was issued to.", input_schema={"type": "object", "properties": {}})
    return types.ListToolsResult(tools=[tool])


async def call_tool(_ctx: Any, _params: types.CallToolRequestParams) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text="signed in as autoui-test")])


server = Server("autoui-protected-server", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


def main() -> None:
    port = int(sys.argv[sys.argv.index("--port") + 1])
    origin = f"http://127.0.0.1:{port}"
    auth = AuthSettings(
        issuer_url=os.environ.get("PROTECTED_ISSUER", f"{origin}/issuer"),
        resource_server_url=f"{origin}/mcp",
        required_scopes=[SCOPE],
        validate_token_resource=False,  # OneToken accepts only its own token anyway
    )
    on_loopback(server.streamable_http_app(auth=auth, token_verifier=OneToken()), port)


if __name__ == "__main__":
    main()
