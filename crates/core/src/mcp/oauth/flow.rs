//! The authorization code flow with PKCE: the authorization URL (with `state` and the RFC 8707
//! `resource`), the callback's checks (state, RFC 9207 `iss`), the token request and refresh.

use std::rc::Rc;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};

use crate::cancel::CancelToken;
use crate::mcp::oauth::challenge::{Challenge, split_scopes};
use crate::mcp::oauth::client::{ClientIdentity, Credentials, TokenAuth, obtain_client, oauth_error_text};
use crate::mcp::oauth::discovery::{Discovered, discover};
use crate::mcp::oauth::error::{CANCELLED, OAuthError, Step};
use crate::mcp::oauth::pkce::{Pkce, random_string};
use crate::ports::{Clock, HttpRequest, HttpTransport, Method, Random};

const TOKEN_LIMIT: usize = 64 * 1024;

/// Takes the person to the authorization URL and back. The browser opens a popup; the conformance
/// runner requests the URL and reads `Location`.
pub trait Authorizer {
    /// Resolves with the full URL the authorization server redirected to (the redirect URI with
    /// `code` and `state`), or `Err` with why not (starting with [`CANCELLED`] when the person gave up).
    fn authorize(&self, url: String) -> LocalBoxFuture<'_, Result<String, String>>;
}

#[derive(Clone)]
pub struct OAuthPorts {
    pub http: Rc<dyn HttpTransport>,
    pub random: Rc<dyn Random>,
    pub clock: Rc<dyn Clock>,
    pub authorizer: Rc<dyn Authorizer>,
}

/// Tokens as issued. `Debug` hides them.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct Tokens {
    pub access_token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at_unix_ms: Option<f64>,
    /// The granted scopes, when the server said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens")
            .field("refresh_token", &self.refresh_token.as_ref().map(|_| "<redacted>"))
            .field("expires_at_unix_ms", &self.expires_at_unix_ms)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

/// What a sign-in leaves: enough to send, refresh and (later) step up, bound to one issuer and one
/// resource.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Grant {
    pub issuer: String,
    pub token_endpoint: String,
    /// Where "Sign out" revokes the tokens (RFC 7009), when the server offers it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revocation_endpoint: Option<String>,
    pub resource: String,
    pub credentials: Credentials,
    /// The scopes asked for (the challenge's, or the metadata's).
    pub requested_scopes: Vec<String>,
    pub tokens: Tokens,
    pub token_auth: TokenAuth,
}

impl Grant {
    /// Whether the access token expires within `margin_ms` (tokens without an expiry never do).
    pub fn expires_within(&self, now_unix_ms: f64, margin_ms: f64) -> bool {
        self.tokens.expires_at_unix_ms.is_some_and(|at| at - now_unix_ms <= margin_ms)
    }
}

/// The scopes to ask for: the challenge's, else the resource metadata's `scopes_supported`, else
/// none; plus `offline_access` when the authorization server lists it (to get a refresh token), and
/// on a step-up, the scopes asked for before.
pub fn choose_scopes(challenge: Option<&Challenge>, discovered: &Discovered, previous: &[String]) -> Vec<String> {
    let mut scopes: Vec<String> = previous.to_vec();
    let wanted = challenge
        .map(Challenge::scopes)
        .filter(|scopes| !scopes.is_empty())
        .or_else(|| discovered.resource_metadata.as_ref().and_then(|m| m.scopes_supported.clone()))
        .unwrap_or_default();
    let offers_offline = discovered.server.scopes_supported.as_deref().unwrap_or_default().iter().any(|s| s == "offline_access");
    for scope in wanted.into_iter().chain(offers_offline.then(|| "offline_access".to_owned())) {
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    scopes
}

/// The URL the person is sent to.
pub fn authorization_url(
    discovered: &Discovered,
    credentials: &Credentials,
    redirect_uri: &str,
    scopes: &[String],
    pkce: &Pkce,
    state: &str,
) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    query
        .append_pair("response_type", "code")
        .append_pair("client_id", &credentials.client_id)
        .append_pair("redirect_uri", redirect_uri)
        .append_pair("code_challenge", &pkce.challenge)
        .append_pair("code_challenge_method", "S256")
        .append_pair("state", state)
        .append_pair("resource", &discovered.resource);
    if !scopes.is_empty() {
        query.append_pair("scope", &scopes.join(" "));
    }
    let endpoint = &discovered.server.authorization_endpoint;
    let separator = if endpoint.contains('?') { '&' } else { '?' };
    format!("{endpoint}{separator}{}", query.finish())
}

/// The `code` from the callback URL, after checking `state` and, when present or promised, `iss`.
pub fn read_callback(callback: &str, expected_state: &str, discovered: &Discovered) -> Result<String, OAuthError> {
    let server = &discovered.server;
    check_callback(callback, expected_state, &server.issuer, server.authorization_response_iss_parameter_supported, &server.authorization_endpoint)
}

fn check_callback(callback: &str, expected_state: &str, issuer: &str, iss_promised: bool, endpoint: &str) -> Result<String, OAuthError> {
    let fail = |detail: String| OAuthError::new(Step::Authorization, endpoint, detail);
    let query = callback.split('#').next().unwrap_or_default().split_once('?').map_or("", |(_, query)| query);
    let field = |name: &str| form_urlencoded::parse(query.as_bytes()).find(|(key, _)| key == name).map(|(_, v)| v.into_owned());
    if field("state").as_deref() != Some(expected_state) {
        return Err(fail(
            "the answer's state does not match this sign-in's; it was ignored (it may be forged, or from an older sign-in)".into(),
        ));
    }
    if let Some(error) = field("error") {
        let description = field("error_description").map(|d| format!(": {d}")).unwrap_or_default();
        let prefix = if error == "access_denied" { CANCELLED } else { "the authorization server refused" };
        return Err(fail(format!("{prefix} ({error}{description})")));
    }
    match field("iss") {
        Some(iss) if iss != issuer => {
            return Err(fail(format!("the answer comes from issuer {iss}, not {issuer} (RFC 9207); it was ignored")));
        }
        None if iss_promised => {
            return Err(fail("the answer lacks the iss parameter its server promised (RFC 9207); it was ignored".into()));
        }
        _ => {}
    }
    field("code").filter(|code| !code.is_empty()).ok_or_else(|| fail("the answer carries no code".into()))
}

/// A sign-in waiting for the authorization server's answer: the URL the person is sent to and what
/// the token request then needs. It survives a full-page redirect (the page stores it for the
/// moment it is away); `Debug` hides the PKCE verifier and the state.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingSignIn {
    pub server_url: String,
    pub authorization_url: String,
    state: String,
    verifier: String,
    redirect_uri: String,
    issuer: String,
    iss_promised: bool,
    authorization_endpoint: String,
    token_endpoint: String,
    revocation_endpoint: Option<String>,
    resource: String,
    credentials: Credentials,
    token_auth: TokenAuth,
    scopes: Vec<String>,
}

impl std::fmt::Debug for PendingSignIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingSignIn")
            .field("server_url", &self.server_url)
            .field("issuer", &self.issuer)
            .field("scopes", &self.scopes)
            .finish_non_exhaustive()
    }
}

/// The whole sign-in for `server_url`, which answered with `challenge`: [`begin_sign_in`], the
/// person's authorization through `ports.authorizer`, [`finish_sign_in`]. `previous` (same server)
/// is reused on a step-up.
pub async fn sign_in(
    ports: &OAuthPorts,
    identity: &ClientIdentity,
    server_url: &str,
    challenge: Option<&Challenge>,
    previous: Option<&Grant>,
) -> Result<Grant, OAuthError> {
    let pending = begin_sign_in(ports, identity, server_url, challenge, previous).await?;
    let callback = ports
        .authorizer
        .authorize(pending.authorization_url.clone())
        .await
        .map_err(|why| OAuthError::new(Step::Authorization, &pending.authorization_endpoint, why))?;
    finish_sign_in(ports, &pending, &callback).await
}

/// Discovery, a client_id, the scopes, PKCE and `state`: everything up to sending the person to
/// the authorization server.
pub async fn begin_sign_in(
    ports: &OAuthPorts,
    identity: &ClientIdentity,
    server_url: &str,
    challenge: Option<&Challenge>,
    previous: Option<&Grant>,
) -> Result<PendingSignIn, OAuthError> {
    let discovered = discover(ports.http.as_ref(), server_url, challenge).await?;
    let credentials = match previous.filter(|grant| grant.issuer == discovered.server.issuer) {
        Some(grant) => grant.credentials.clone(),
        None => obtain_client(ports.http.as_ref(), identity, &discovered.server).await?,
    };
    let token_auth = TokenAuth::choose(&credentials, &discovered.server);
    let scopes = choose_scopes(challenge, &discovered, previous.map_or(&[][..], |grant| &grant.requested_scopes));
    let pkce = Pkce::new(ports.random.as_ref());
    let state = random_string(ports.random.as_ref(), 2);
    let authorization_url = authorization_url(&discovered, &credentials, &identity.redirect_uri, &scopes, &pkce, &state);
    let server = discovered.server;
    Ok(PendingSignIn {
        server_url: server_url.to_owned(),
        authorization_url,
        state,
        verifier: pkce.verifier,
        redirect_uri: identity.redirect_uri.clone(),
        issuer: server.issuer,
        iss_promised: server.authorization_response_iss_parameter_supported,
        authorization_endpoint: server.authorization_endpoint,
        token_endpoint: server.token_endpoint,
        revocation_endpoint: server.revocation_endpoint,
        resource: discovered.resource,
        credentials,
        token_auth,
        scopes,
    })
}

/// The authorization server's answer (`callback`, the redirect URI it sent the person to) checked
/// against `pending`, and its code exchanged for tokens.
pub async fn finish_sign_in(ports: &OAuthPorts, pending: &PendingSignIn, callback: &str) -> Result<Grant, OAuthError> {
    let code = check_callback(callback, &pending.state, &pending.issuer, pending.iss_promised, &pending.authorization_endpoint)?;
    let form = vec![
        ("grant_type", "authorization_code".to_owned()),
        ("code", code),
        ("redirect_uri", pending.redirect_uri.clone()),
        ("code_verifier", pending.verifier.clone()),
        ("resource", pending.resource.clone()),
    ];
    let endpoint = &pending.token_endpoint;
    let tokens = request_tokens(ports, Step::Token, endpoint, &pending.credentials, pending.token_auth, form, None)
        .await
        .map_err(|failure| failure.error)?;
    Ok(Grant {
        issuer: pending.issuer.clone(),
        token_endpoint: endpoint.clone(),
        revocation_endpoint: pending.revocation_endpoint.clone(),
        resource: pending.resource.clone(),
        credentials: pending.credentials.clone(),
        requested_scopes: pending.scopes.clone(),
        tokens,
        token_auth: pending.token_auth,
    })
}

/// Why a refresh gave no new token, which decides whether the grant is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefreshError {
    /// The authorization server refused the refresh token or this client (`invalid_grant`, or a
    /// 400/401 with `invalid_client` or `unauthorized_client`): only a new sign-in helps.
    Refused(OAuthError),
    /// Anything else (no answer, a 5xx or 429, an answer without a token): the grant may still be
    /// good, and a later try may work.
    Unavailable(OAuthError),
}

/// A new access token from the grant's refresh token; a rotated refresh token replaces the old one.
pub async fn refresh(ports: &OAuthPorts, grant: &Grant) -> Result<Grant, RefreshError> {
    let Some(refresh_token) = grant.tokens.refresh_token.clone() else {
        let error = OAuthError::new(Step::Refresh, &grant.token_endpoint, "no refresh token was issued; sign in again");
        return Err(RefreshError::Refused(error));
    };
    let form = vec![
        ("grant_type", "refresh_token".to_owned()),
        ("refresh_token", refresh_token.clone()),
        ("resource", grant.resource.clone()),
    ];
    let tokens =
        request_tokens(ports, Step::Refresh, &grant.token_endpoint, &grant.credentials, grant.token_auth, form, Some(refresh_token))
            .await
            .map_err(|failure| {
                if failure.grant_refused {
                    return RefreshError::Refused(failure.error);
                }
                let OAuthError { step, url, detail } = failure.error;
                RefreshError::Unavailable(OAuthError::new(step, url, format!("{detail}; you are still signed in: try again")))
            })?;
    Ok(Grant { tokens, ..grant.clone() })
}

/// Revokes the grant's refresh token (which ends its access tokens too at most servers), else its
/// access token (RFC 7009). The caller forgets the grant whatever the answer.
pub async fn revoke(ports: &OAuthPorts, grant: &Grant) -> Result<(), OAuthError> {
    let Some(endpoint) = &grant.revocation_endpoint else { return Ok(()) };
    let (token, hint) = match &grant.tokens.refresh_token {
        Some(refresh_token) => (refresh_token.clone(), "refresh_token"),
        None => (grant.tokens.access_token.clone(), "access_token"),
    };
    let form = vec![("token", token), ("token_type_hint", hint.to_owned())];
    let request = form_request(endpoint, &grant.credentials, grant.token_auth, form);
    let response = ports.http.send(request, CancelToken::new()).await.map_err(|error| OAuthError::from_http(Step::Revocation, endpoint, error))?;
    let status = response.status;
    if (200..300).contains(&status) {
        return Ok(());
    }
    let text = response.text(TOKEN_LIMIT).await.unwrap_or_default();
    Err(OAuthError::new(Step::Revocation, endpoint, format!("HTTP {status}{}", oauth_error_text(&text))))
}

/// A form POST authenticated as the client (`auth`), for the token and revocation endpoints.
fn form_request(endpoint: &str, credentials: &Credentials, auth: TokenAuth, mut form: Vec<(&'static str, String)>) -> HttpRequest {
    let mut request = HttpRequest::new(Method::Post, endpoint)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .header("Accept", "application/json");
    match auth {
        TokenAuth::None => form.push(("client_id", credentials.client_id.clone())),
        TokenAuth::Post => {
            form.push(("client_id", credentials.client_id.clone()));
            form.push(("client_secret", credentials.client_secret.clone().unwrap_or_default()));
        }
        TokenAuth::Basic => {
            let encode = |text: &str| form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>();
            let pair = format!(
                "{}:{}",
                encode(&credentials.client_id),
                encode(credentials.client_secret.as_deref().unwrap_or_default())
            );
            request = request.header("Authorization", format!("Basic {}", STANDARD.encode(pair)));
        }
    }
    let mut body = form_urlencoded::Serializer::new(String::new());
    for (name, value) in &form {
        body.append_pair(name, value);
    }
    request.body = Some(body.finish());
    request
}

/// A token request that gave no tokens.
struct TokenFailure {
    error: OAuthError,
    /// The answer refuses the grant or the client itself, so that trying again cannot help.
    grant_refused: bool,
}

impl From<OAuthError> for TokenFailure {
    fn from(error: OAuthError) -> TokenFailure {
        TokenFailure { error, grant_refused: false }
    }
}

/// Whether a token endpoint's error answer (RFC 6749 §5.2) refuses the grant or the client.
fn refuses_grant(status: u16, body: &str) -> bool {
    let code = serde_json::from_str::<serde_json::Value>(body).ok().and_then(|value| value.get("error")?.as_str().map(str::to_owned));
    match code.as_deref() {
        Some("invalid_grant") => true,
        Some("invalid_client" | "unauthorized_client") => matches!(status, 400 | 401),
        _ => false,
    }
}

async fn request_tokens(
    ports: &OAuthPorts,
    step: Step,
    endpoint: &str,
    credentials: &Credentials,
    auth: TokenAuth,
    form: Vec<(&'static str, String)>,
    kept_refresh_token: Option<String>,
) -> Result<Tokens, TokenFailure> {
    let request = form_request(endpoint, credentials, auth, form);
    let response = ports.http.send(request, CancelToken::new()).await.map_err(|error| OAuthError::from_http(step, endpoint, error))?;
    let status = response.status;
    let text = response.text(TOKEN_LIMIT).await.map_err(|error| OAuthError::from_http(step, endpoint, error))?;
    if !(200..300).contains(&status) {
        return Err(TokenFailure {
            error: OAuthError::new(step, endpoint, format!("HTTP {status}{}", oauth_error_text(&text))),
            grant_refused: refuses_grant(status, &text),
        });
    }
    #[derive(Deserialize)]
    struct Issued {
        access_token: String,
        #[serde(default)]
        token_type: Option<String>,
        #[serde(default)]
        expires_in: Option<f64>,
        #[serde(default)]
        refresh_token: Option<String>,
        #[serde(default)]
        scope: Option<String>,
    }
    let issued: Issued = serde_json::from_str(&text)
        .map_err(|error| OAuthError::new(step, endpoint, format!("the answer has no access_token ({error})")))?;
    if let Some(kind) = issued.token_type.as_deref().filter(|kind| !kind.eq_ignore_ascii_case("bearer")) {
        let detail = format!("the token is of type {kind}; this client sends Bearer tokens only");
        return Err(OAuthError::new(step, endpoint, detail).into());
    }
    Ok(Tokens {
        access_token: issued.access_token,
        refresh_token: issued.refresh_token.or(kept_refresh_token),
        expires_at_unix_ms: issued.expires_in.map(|seconds| ports.clock.unix_ms() + seconds * 1_000.0),
        scope: issued.scope.filter(|scope| !split_scopes(scope).is_empty()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::oauth::discovery::{ResourceMetadata, ServerMetadata};

    fn discovered(iss_supported: bool) -> Discovered {
        Discovered {
            resource: "https://mcp.example.com/mcp".into(),
            resource_metadata: Some(ResourceMetadata { scopes_supported: Some(vec!["read".into()]), ..ResourceMetadata::default() }),
            server: ServerMetadata {
                issuer: "https://auth.example.com".into(),
                authorization_endpoint: "https://auth.example.com/authorize".into(),
                authorization_response_iss_parameter_supported: iss_supported,
                ..ServerMetadata::default()
            },
            default_endpoints: false,
        }
    }

    const CALLBACK: &str = "https://app.example.com/oauth/callback.html";

    #[test]
    fn the_callback_gives_its_code_only_with_the_right_state_and_issuer() {
        let ok = format!("{CALLBACK}?code=c1&state=s1&iss=https%3A%2F%2Fauth.example.com");
        assert_eq!(read_callback(&ok, "s1", &discovered(true)).unwrap(), "c1");
        let other_issuer = format!("{CALLBACK}?code=c1&state=s1&iss=https%3A%2F%2Fevil.example.com");
        let error = read_callback(&other_issuer, "s1", &discovered(false)).unwrap_err();
        assert!(error.to_string().contains("issuer https://evil.example.com"), "{error}");
        let missing_iss = format!("{CALLBACK}?code=c1&state=s1");
        assert!(read_callback(&missing_iss, "s1", &discovered(true)).unwrap_err().to_string().contains("lacks the iss"));
        assert_eq!(read_callback(&missing_iss, "s1", &discovered(false)).unwrap(), "c1");
        let wrong_state = format!("{CALLBACK}?code=c1&state=s2");
        assert!(read_callback(&wrong_state, "s1", &discovered(false)).unwrap_err().to_string().contains("state does not match"));
    }

    #[test]
    fn a_refusal_by_the_person_reads_as_cancelled_and_a_server_error_names_itself() {
        let denied = format!("{CALLBACK}?error=access_denied&error_description=User+said+no&state=s1");
        let error = read_callback(&denied, "s1", &discovered(false)).unwrap_err();
        assert!(error.is_cancelled_by_person(), "{error}");
        assert!(error.to_string().contains("User said no"));
        let broken = format!("{CALLBACK}?error=server_error&state=s1");
        let error = read_callback(&broken, "s1", &discovered(false)).unwrap_err();
        assert!(!error.is_cancelled_by_person());
        assert!(error.to_string().contains("refused (server_error)"), "{error}");
    }

    #[test]
    fn only_an_answer_refusing_the_grant_or_the_client_ends_a_grant() {
        assert!(refuses_grant(400, r#"{"error":"invalid_grant","error_description":"revoked"}"#));
        assert!(refuses_grant(401, r#"{"error":"invalid_client"}"#));
        assert!(refuses_grant(400, r#"{"error":"unauthorized_client"}"#));
        assert!(!refuses_grant(500, r#"{"error":"invalid_client"}"#), "a failing server says nothing about the client");
        assert!(!refuses_grant(503, "Service Unavailable"));
        assert!(!refuses_grant(429, r#"{"error":"slow_down"}"#));
        assert!(!refuses_grant(400, r#"{"error":"invalid_request"}"#));
    }

    #[test]
    fn scopes_come_from_the_challenge_then_scopes_supported_plus_offline_access_when_offered() {
        let mut found = discovered(false);
        let challenge = Challenge { scope: Some("write".into()), ..Challenge::default() };
        assert_eq!(choose_scopes(Some(&challenge), &found, &[]), ["write"]);
        assert_eq!(choose_scopes(None, &found, &[]), ["read"]);
        assert_eq!(choose_scopes(Some(&challenge), &found, &["read".into()]), ["read", "write"]);
        found.server.scopes_supported = Some(vec!["read".into(), "offline_access".into()]);
        assert_eq!(choose_scopes(None, &found, &[]), ["read", "offline_access"]);
        found.resource_metadata = None;
        found.server.scopes_supported = None;
        assert!(choose_scopes(None, &found, &[]).is_empty());
    }
}
