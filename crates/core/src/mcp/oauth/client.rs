//! Who this client is to an authorization server, and getting a `client_id` in the specification's
//! order: pre-registered credentials, a Client ID Metadata Document, dynamic client registration
//! (RFC 7591), else a message asking the person for a client_id or a token.

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::cancel::CancelToken;
use crate::mcp::oauth::discovery::ServerMetadata;
use crate::mcp::oauth::error::{OAuthError, Step};
use crate::ports::{HttpRequest, HttpTransport, Method};

const REGISTRATION_LIMIT: usize = 64 * 1024;

/// How this client presents itself.
#[derive(Clone, Debug, PartialEq)]
pub struct ClientIdentity {
    pub client_name: String,
    /// Where authorization servers send the person back (with `code` and `state`).
    pub redirect_uri: String,
    /// The https URL of this client's Client ID Metadata Document, when it serves one.
    pub metadata_document_url: Option<String>,
    /// Credentials the person entered for this server.
    pub preregistered: Option<Credentials>,
}

/// A `client_id` (and secret, for a confidential client). `Debug` hides the secret.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Credentials {
    pub client_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// The `token_endpoint_auth_method` the registration settled on, when it said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth_method: Option<String>,
}

impl Credentials {
    pub fn public(client_id: impl Into<String>) -> Credentials {
        Credentials { client_id: client_id.into(), client_secret: None, auth_method: None }
    }
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret.as_ref().map(|_| "<redacted>"))
            .field("auth_method", &self.auth_method)
            .finish()
    }
}

/// How the client authenticates at the token endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenAuth {
    /// A public client: `client_id` in the form.
    None,
    /// `Authorization: Basic` with the url-encoded id and secret (RFC 6749 §2.3.1).
    Basic,
    /// `client_id` and `client_secret` in the form.
    Post,
}

impl TokenAuth {
    /// The registration's own choice, else what the server supports (RFC 8414's default is Basic).
    pub fn choose(credentials: &Credentials, server: &ServerMetadata) -> TokenAuth {
        if credentials.client_secret.is_none() {
            return TokenAuth::None;
        }
        match credentials.auth_method.as_deref() {
            Some("client_secret_post") => return TokenAuth::Post,
            Some("client_secret_basic") => return TokenAuth::Basic,
            Some("none") => return TokenAuth::None,
            _ => {}
        }
        let supported = server.token_endpoint_auth_methods_supported.as_deref().unwrap_or_default();
        let supports = |method: &str| supported.iter().any(|m| m == method);
        if supports("client_secret_post") && !supports("client_secret_basic") { TokenAuth::Post } else { TokenAuth::Basic }
    }
}

/// A `client_id` for `server`: the person's, this client's metadata document, or a new registration.
pub async fn obtain_client(
    http: &dyn HttpTransport,
    identity: &ClientIdentity,
    server: &ServerMetadata,
) -> Result<Credentials, OAuthError> {
    if let Some(credentials) = &identity.preregistered {
        return Ok(credentials.clone());
    }
    if let (true, Some(url)) = (server.client_id_metadata_document_supported, &identity.metadata_document_url) {
        return Ok(Credentials::public(url.clone()));
    }
    let Some(endpoint) = &server.registration_endpoint else {
        return Err(OAuthError::new(
            Step::Registration,
            &server.issuer,
            "this authorization server offers neither dynamic client registration nor (for this app's address) \
             client ID metadata documents: enter a client_id registered with it (and its secret, for a \
             confidential client) in Servers, or a bearer token",
        ));
    };
    register(http, identity, endpoint).await
}

/// Dynamic client registration (RFC 7591) as a public browser client.
async fn register(http: &dyn HttpTransport, identity: &ClientIdentity, endpoint: &str) -> Result<Credentials, OAuthError> {
    let body = json!({
        "client_name": identity.client_name,
        "redirect_uris": [identity.redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
        "application_type": "web",
    });
    let request = HttpRequest::new(Method::Post, endpoint).header("Accept", "application/json").json_body(body.to_string());
    let response = http
        .send(request, CancelToken::new())
        .await
        .map_err(|error| OAuthError::from_http(Step::Registration, endpoint, error))?;
    let status = response.status;
    let text = response
        .text(REGISTRATION_LIMIT)
        .await
        .map_err(|error| OAuthError::from_http(Step::Registration, endpoint, error))?;
    if !(200..300).contains(&status) {
        return Err(OAuthError::new(
            Step::Registration,
            endpoint,
            format!("the server refused to register this client (HTTP {status}{})", oauth_error_text(&text)),
        ));
    }
    #[derive(Deserialize)]
    struct Registered {
        client_id: String,
        #[serde(default)]
        client_secret: Option<String>,
        #[serde(default)]
        token_endpoint_auth_method: Option<String>,
    }
    let registered: Registered = serde_json::from_str(&text).map_err(|error| {
        OAuthError::new(Step::Registration, endpoint, format!("the registration answer has no client_id ({error})"))
    })?;
    Ok(Credentials {
        client_id: registered.client_id,
        client_secret: registered.client_secret,
        auth_method: registered.token_endpoint_auth_method,
    })
}

/// The URL of the app's Client ID Metadata Document (`oauth/client.json`, which
/// `scripts/oauth-client.sh` writes at build time for the deployment at `public_url`), when the page
/// runs at that deployment: the document names only that deployment's callback page, so a copy of
/// the app elsewhere (local development, a preview) registers itself instead.
pub fn metadata_document_url(public_url: Option<&str>, redirect_uri: &str) -> Option<String> {
    let public = public_url.filter(|url| url.starts_with("https://") && url.ends_with('/'))?;
    (redirect_uri == format!("{public}oauth/callback.html")).then(|| format!("{public}oauth/client.json"))
}

/// `: <error>: <error_description>` from an OAuth error body, or nothing.
pub fn oauth_error_text(body: &str) -> String {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(body) else { return String::new() };
    let field = |name: &str| value.get(name).and_then(|v| v.as_str()).map(str::to_owned);
    match (field("error"), field("error_description")) {
        (Some(error), Some(description)) => format!(": {error}: {description}"),
        (Some(error), None) => format!(": {error}"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(method: Option<&str>) -> Credentials {
        Credentials { client_id: "id".into(), client_secret: Some("s".into()), auth_method: method.map(Into::into) }
    }

    fn server(methods: Option<&[&str]>) -> ServerMetadata {
        ServerMetadata {
            token_endpoint_auth_methods_supported: methods.map(|m| m.iter().map(|s| s.to_string()).collect()),
            ..ServerMetadata::default()
        }
    }

    #[test]
    fn token_auth_follows_the_registration_then_the_server_then_basic() {
        assert_eq!(TokenAuth::choose(&Credentials::public("id"), &server(Some(&["client_secret_basic"]))), TokenAuth::None);
        assert_eq!(TokenAuth::choose(&secret(Some("client_secret_post")), &server(None)), TokenAuth::Post);
        assert_eq!(TokenAuth::choose(&secret(None), &server(Some(&["client_secret_post"]))), TokenAuth::Post);
        assert_eq!(TokenAuth::choose(&secret(None), &server(Some(&["client_secret_basic", "client_secret_post"]))), TokenAuth::Basic);
        assert_eq!(TokenAuth::choose(&secret(None), &server(None)), TokenAuth::Basic);
    }

    #[test]
    fn the_secret_never_shows_in_debug_output() {
        let text = format!("{:?}", secret(None));
        assert!(text.contains("<redacted>") && !text.contains("\"s\""), "{text}");
    }

    #[test]
    fn the_metadata_document_is_used_only_at_the_deployment_it_names() {
        let public = Some("https://dash.example.com/autoui/");
        assert_eq!(
            metadata_document_url(public, "https://dash.example.com/autoui/oauth/callback.html").as_deref(),
            Some("https://dash.example.com/autoui/oauth/client.json")
        );
        assert_eq!(metadata_document_url(public, "http://127.0.0.1:8080/oauth/callback.html"), None, "another copy of the app");
        assert_eq!(metadata_document_url(None, "https://dash.example.com/autoui/oauth/callback.html"), None, "none configured");
        assert_eq!(metadata_document_url(Some("http://dash.example.com/"), "http://dash.example.com/oauth/callback.html"), None, "https only");
    }

    #[test]
    fn oauth_error_bodies_are_quoted_briefly() {
        assert_eq!(oauth_error_text(r#"{"error":"invalid_client_metadata","error_description":"bad uri"}"#), ": invalid_client_metadata: bad uri");
        assert_eq!(oauth_error_text("<html>"), "");
    }
}
