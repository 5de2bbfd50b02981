"""An MCP server that is an OAuth protected resource, for autoui's sign-in tests, built on the
official `mcp` SDK: its auth settings publish the protected-resource metadata and answer 401 with a
`WWW-Authenticate` challenge naming it.
- Without PROTECTED_ISSUER, only the token in PROTECTED_TOKEN (default `autoui-test-token`) is
  accepted, and the authorization server it names is this server's `/issuer`, where nothing answers.
- With PROTECTED_ISSUER (a real authorization server, e.g. tests/oauth-server), it accepts that
  issuer's JWT access tokens whose audience is this server's URL (RFC 8707), signed with a key of the
  issuer's JWKS, unexpired and with the scope `notes:read`.

`whoami` says who the accepted token was issued to.

Usage: protected_server.py --transport streamable --port PORT   (Streamable HTTP at /mcp)
"""

import os
import sys
from typing import Any

import anyio
import jwt
import mcp_types as types
from mcp.server.auth.middleware.auth_context import get_access_token
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


class IssuerJwt(TokenVerifier):
    """The issuer's JWT access tokens for `resource`, checked against the issuer's published keys."""

    def __init__(self, issuer: str, resource: str) -> None:
        self.issuer = issuer
        self.resource = resource
        self.keys = jwt.PyJWKClient(f"{issuer}/jwks")

    async def verify_token(self, token: str) -> AccessToken | None:
        try:
            key = await anyio.to_thread.run_sync(self.keys.get_signing_key_from_jwt, token)
            claims = jwt.decode(token, key.key, algorithms=["RS256"], audience=self.resource, issuer=self.issuer)
        except jwt.PyJWTError:
            return None
        scopes = claims.get("scope", "").split()
        subject = f"{claims.get('sub')} via {claims.get('client_id')}"
        return AccessToken(token=token, client_id=subject, scopes=scopes, expires_at=claims.get("exp"))


async def list_tools(_ctx: Any, _params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    tool = types.Tool(name="whoami", description="The client the token was issued to.", input_schema={"type": "object", "properties": {}})
    return types.ListToolsResult(tools=[tool])


async def call_tool(_ctx: Any, _params: types.CallToolRequestParams) -> types.CallToolResult:
    token = get_access_token()
    who = token.client_id if token else "nobody"
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"signed in as {who}")])


server = Server("autoui-protected-server", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


def main() -> None:
    port = int(sys.argv[sys.argv.index("--port") + 1])
    origin = f"http://127.0.0.1:{port}"
    resource = f"{origin}/mcp"
    issuer = os.environ.get("PROTECTED_ISSUER")
    verifier = IssuerJwt(issuer, resource) if issuer else OneToken()
    auth = AuthSettings(
        issuer_url=issuer or f"{origin}/issuer",
        resource_server_url=resource,
        required_scopes=[SCOPE],
        validate_token_resource=False,  # IssuerJwt checks the audience itself
    )
    on_loopback(server.streamable_http_app(auth=auth, token_verifier=verifier), port)


if __name__ == "__main__":
    main()
