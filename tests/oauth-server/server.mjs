// A real OAuth 2.1 authorization server for autoui's end-to-end sign-in scenario: npm oidc-provider
// on 127.0.0.1:PORT (the issuer is that origin) with dynamic client registration, PKCE S256 (the
// library's default and only method), resource indicators (RFC 8707: the one resource OAUTH_RESOURCE
// gets JWT access tokens with itself as audience and the scope `notes:read`), refresh tokens with
// rotation, and CORS for the app's origin OAUTH_APP_ORIGIN on the endpoints a browser app fetches.
// Its own development login and consent pages take any login and password.
//
// Environment:
//   PORT                 the port (loopback only)
//   OAUTH_RESOURCE       the protected MCP server's URL, e.g. http://127.0.0.1:4000/mcp
//   OAUTH_APP_ORIGIN     the app's origin, allowed by CORS on registration (the library itself allows
//                        a public client's redirect origins on token and revocation)
//   OAUTH_ACCESS_TTL     access token lifetime in seconds (default 3600)
//   OAUTH_MODE           `normal` (default); `no-token-cors`: the token endpoint answers without
//                        CORS headers; `refuse-registration`: registration needs an initial access
//                        token the app does not have, so it is refused
// Test control (loopback only): POST /test/revoke-refresh-tokens revokes every refresh token issued
// so far, as a person revoking the app's access at the provider would.
import Provider, { errors } from "oidc-provider";

const port = Number(process.env.PORT);
const resource = process.env.OAUTH_RESOURCE;
const appOrigin = process.env.OAUTH_APP_ORIGIN;
const accessTtl = Number(process.env.OAUTH_ACCESS_TTL || 3600);
const mode = process.env.OAUTH_MODE || "normal";
if (!port || !resource || !appOrigin) {
  console.error("PORT, OAUTH_RESOURCE and OAUTH_APP_ORIGIN are required");
  process.exit(2);
}
const issuer = `http://127.0.0.1:${port}`;
const SCOPE = "notes:read";

const provider = new Provider(issuer, {
  features: {
    devInteractions: { enabled: true },
    registration: { enabled: true, initialAccessToken: mode === "refuse-registration" },
    revocation: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo(_ctx, indicator) {
        if (indicator !== resource) throw new errors.InvalidTarget();
        return { scope: SCOPE, audience: resource, accessTokenTTL: accessTtl, accessTokenFormat: "jwt", jwt: { sign: { alg: "RS256" } } };
      },
    },
  },
  scopes: ["openid", "offline_access", SCOPE],
  // Every client allowed the refresh_token grant gets one, without asking for offline_access.
  issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
  rotateRefreshToken: true,
  clientBasedCORS(ctx, origin, client) {
    if (mode === "no-token-cors" && ctx.oidc.route === "token") return false;
    return client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin);
  },
  ttl: { RefreshToken: 24 * 3600, Grant: 24 * 3600, Session: 24 * 3600, Interaction: 3600 },
});

const refreshTokens = new Set();
provider.on("refresh_token.saved", (token) => refreshTokens.add(token));

provider.use(async (ctx, next) => {
  if (ctx.path === "/test/revoke-refresh-tokens" && ctx.method === "POST") {
    const count = refreshTokens.size;
    await Promise.all([...refreshTokens].map((token) => token.destroy()));
    refreshTokens.clear();
    ctx.body = { revoked: count };
    return;
  }
  // oidc-provider sends no CORS headers from its registration endpoint; a browser app registers there.
  if (ctx.path === "/reg" && ctx.get("origin") === appOrigin) {
    ctx.set("Access-Control-Allow-Origin", appOrigin);
    ctx.set("Vary", "Origin");
    if (ctx.method === "OPTIONS") {
      ctx.set("Access-Control-Allow-Methods", "POST");
      ctx.set("Access-Control-Allow-Headers", "content-type, authorization");
      ctx.status = 204;
      return;
    }
  }
  await next();
});

provider.listen(port, "127.0.0.1", () => {
  console.log(`oidc-provider (${mode}) at ${issuer}, resource ${resource}, access tokens for ${accessTtl} s`);
});
