//! Finding the authorization server of an MCP server: protected-resource metadata (RFC 9728), then
//! the authorization server's metadata (RFC 8414 / OpenID Connect Discovery) in the order of the
//! 2025-11-25 revision, with the 2025-03-26 fallbacks (metadata at the MCP server's origin, then
//! the default `/authorize`, `/token`, `/register` endpoints) for a server that publishes no
//! metadata: one that fails to give it stops discovery with that URL and why.

use fluent_uri::Uri;
use serde::Deserialize;

use crate::cancel::CancelToken;
use crate::mcp::oauth::challenge::Challenge;
use crate::mcp::oauth::error::{OAuthError, Step};
use crate::ports::{HttpRequest, HttpTransport, Method};

/// Metadata documents are small; a larger answer is not one.
const METADATA_LIMIT: usize = 256 * 1024;

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct ResourceMetadata {
    #[serde(default)]
    pub resource: Option<String>,
    #[serde(default)]
    pub authorization_servers: Vec<String>,
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct ServerMetadata {
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    #[serde(default)]
    pub registration_endpoint: Option<String>,
    #[serde(default)]
    pub revocation_endpoint: Option<String>,
    #[serde(default)]
    pub scopes_supported: Option<Vec<String>>,
    #[serde(default)]
    pub code_challenge_methods_supported: Option<Vec<String>>,
    #[serde(default)]
    pub token_endpoint_auth_methods_supported: Option<Vec<String>>,
    #[serde(default)]
    pub client_id_metadata_document_supported: bool,
    #[serde(default)]
    pub authorization_response_iss_parameter_supported: bool,
}

/// Everything discovery learned about authorizing at one MCP server.
#[derive(Clone, Debug, PartialEq)]
pub struct Discovered {
    /// The RFC 8707 `resource` to ask tokens for.
    pub resource: String,
    /// `None` for a 2025-03-26 server without protected-resource metadata.
    pub resource_metadata: Option<ResourceMetadata>,
    pub server: ServerMetadata,
    /// The server published no metadata: its endpoints are the 2025-03-26 defaults.
    pub default_endpoints: bool,
}

/// `scheme://authority` and the path of an absolute http(s) URL (query and fragment dropped).
pub fn origin_and_path(url: &str) -> Option<(String, String)> {
    let uri = Uri::parse(url.trim()).ok()?;
    let scheme = uri.scheme().as_str().to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = uri.authority()?.as_str().to_ascii_lowercase();
    if authority.is_empty() {
        return None;
    }
    Some((format!("{scheme}://{authority}"), uri.path().as_str().to_owned()))
}

/// The MCP server URL as a `resource` (RFC 8707): no fragment, no trailing slash.
pub fn canonical_resource(server_url: &str) -> String {
    let without_fragment = server_url.trim().split('#').next().unwrap_or_default();
    match origin_and_path(without_fragment) {
        Some((origin, path)) => {
            let query = without_fragment.split_once('?').map(|(_, query)| format!("?{query}")).unwrap_or_default();
            format!("{origin}{}{query}", path.trim_end_matches('/'))
        }
        None => without_fragment.to_owned(),
    }
}

/// Where to look for the protected-resource metadata: the challenge's URL alone when it gives one
/// (the 2025-11-25 revision probes the well-knowns only without it), else the path form then the
/// root well-known (RFC 9728 §3.1).
pub fn resource_metadata_urls(server_url: &str, challenge: Option<&Challenge>) -> Vec<String> {
    if let Some(url) = challenge.and_then(|challenge| challenge.resource_metadata.clone()) {
        return vec![url];
    }
    let Some((origin, path)) = origin_and_path(server_url) else { return Vec::new() };
    let path = path.trim_end_matches('/');
    let root = format!("{origin}/.well-known/oauth-protected-resource");
    if path.is_empty() { vec![root] } else { vec![format!("{root}{path}"), root] }
}

/// Where an issuer's metadata may be, in the 2025-11-25 order.
pub fn server_metadata_urls(issuer: &str) -> Vec<String> {
    let Some((origin, path)) = origin_and_path(issuer) else { return Vec::new() };
    let path = path.trim_end_matches('/');
    if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    }
}

/// Whether `advertised` (the metadata's `resource`) covers `server_url`: same origin, and the
/// server's path at or under the advertised one. Anything else could hand our token to a stranger.
pub fn resource_covers(advertised: &str, server_url: &str) -> bool {
    let (Some((origin_a, path_a)), Some((origin_s, path_s))) = (origin_and_path(advertised), origin_and_path(server_url))
    else {
        return false;
    };
    let path_a = path_a.trim_end_matches('/');
    let path_s = path_s.trim_end_matches('/');
    origin_a == origin_s && (path_s == path_a || path_s.starts_with(&format!("{path_a}/")))
}

/// PKCE S256 is required: metadata that does not list it ends the flow.
pub fn require_s256(server: &ServerMetadata, metadata_url: &str) -> Result<(), OAuthError> {
    let methods = server.code_challenge_methods_supported.as_deref().unwrap_or_default();
    if methods.iter().any(|method| method == "S256") {
        return Ok(());
    }
    let found = if server.code_challenge_methods_supported.is_none() {
        "it lists no code_challenge_methods_supported".to_owned()
    } else {
        format!("its code_challenge_methods_supported is {methods:?}")
    };
    Err(OAuthError::new(
        Step::Discovery,
        metadata_url,
        format!("the authorization server does not support PKCE with S256 ({found}); MCP clients must not authorize without it"),
    ))
}

/// Runs discovery for `server_url` after it answered 401 with `challenge` (if any).
pub async fn discover(
    http: &dyn HttpTransport,
    server_url: &str,
    challenge: Option<&Challenge>,
) -> Result<Discovered, OAuthError> {
    let Some(resource_metadata) = find_resource_metadata(http, server_url, challenge).await? else {
        return discover_2025_03_26(http, server_url).await;
    };
    let resource = match resource_metadata.resource.as_deref() {
        Some(advertised) if !resource_covers(advertised, server_url) => {
            return Err(OAuthError::new(
                Step::Discovery,
                server_url,
                format!(
                    "the protected-resource metadata is for {advertised}, not for this server; refusing to \
                     authorize (a token for it could reach another server)"
                ),
            ));
        }
        Some(advertised) => advertised.to_owned(),
        None => canonical_resource(server_url),
    };
    let Some(issuer) = resource_metadata.authorization_servers.first().cloned() else {
        return Err(OAuthError::new(
            Step::Discovery,
            server_url,
            "the protected-resource metadata lists no authorization_servers",
        ));
    };
    let (server, metadata_url) = fetch_server_metadata(http, &issuer).await?;
    require_s256(&server, &metadata_url)?;
    Ok(Discovered { resource, resource_metadata: Some(resource_metadata), server, default_endpoints: false })
}

/// The protected-resource metadata, or `None` when the server publishes none (every place looked
/// at answered 404 or 410), which makes it a 2025-03-26 server. Any other failure ends discovery:
/// guessing endpoints then would only move the error to a URL nobody advertised.
async fn find_resource_metadata(
    http: &dyn HttpTransport,
    server_url: &str,
    challenge: Option<&Challenge>,
) -> Result<Option<ResourceMetadata>, OAuthError> {
    let urls = resource_metadata_urls(server_url, challenge);
    let found = first_published(http, &urls).await.map_err(|(url, why)| {
        OAuthError::new(Step::Discovery, url, format!("the protected-resource metadata could not be read ({why})"))
    })?;
    Ok(found.map(|(metadata, _)| metadata))
}

/// A 2025-03-26 server: no protected-resource metadata, its own origin is the authorization server.
async fn discover_2025_03_26(http: &dyn HttpTransport, server_url: &str) -> Result<Discovered, OAuthError> {
    let Some((origin, _)) = origin_and_path(server_url) else {
        return Err(OAuthError::new(Step::Discovery, server_url, "not an absolute http(s) URL"));
    };
    let resource = canonical_resource(server_url);
    let found = first_published::<ServerMetadata>(http, &server_metadata_urls(&origin)).await.map_err(|(url, why)| {
        OAuthError::new(Step::Discovery, url, format!("the authorization server metadata could not be read ({why})"))
    })?;
    if let Some((server, url)) = found {
        // No issuer was advertised to compare with; the 2025-03-26 revision makes the server's own
        // origin the authorization server, so its issuer must be there.
        if origin_and_path(&server.issuer).is_none_or(|(issuer_origin, _)| issuer_origin != origin) {
            return Err(OAuthError::new(
                Step::Discovery,
                url,
                format!(
                    "the metadata names the issuer {}, which is not at {origin}, this server's own origin; refusing it",
                    server.issuer
                ),
            ));
        }
        require_s256(&server, &url)?;
        return Ok(Discovered { resource, resource_metadata: None, server, default_endpoints: false });
    }
    let server = ServerMetadata {
        issuer: origin.clone(),
        authorization_endpoint: format!("{origin}/authorize"),
        token_endpoint: format!("{origin}/token"),
        registration_endpoint: Some(format!("{origin}/register")),
        ..ServerMetadata::default()
    };
    Ok(Discovered { resource, resource_metadata: None, server, default_endpoints: true })
}

/// The issuer's metadata and the URL it came from, refused unless it names that very issuer
/// (RFC 8414 §3.3): another server's metadata would also make the RFC 9207 `iss` check vouch for it.
async fn fetch_server_metadata(
    http: &dyn HttpTransport,
    issuer: &str,
) -> Result<(ServerMetadata, String), OAuthError> {
    let urls = server_metadata_urls(issuer);
    if urls.is_empty() {
        return Err(OAuthError::new(Step::Discovery, issuer, "the authorization server is not an absolute http(s) URL"));
    }
    let mut tried = Vec::new();
    for url in urls {
        match fetch_json::<ServerMetadata>(http, &url).await {
            Ok(server) if !same_issuer(&server.issuer, issuer) => {
                return Err(OAuthError::new(
                    Step::Discovery,
                    url,
                    format!(
                        "the metadata names the issuer {}, not {issuer}, the authorization server it was fetched for \
                         (RFC 8414 §3.3); refusing it",
                        server.issuer
                    ),
                ));
            }
            Ok(server) => return Ok((server, url)),
            Err(unread) => tried.push(format!("{url}: {}", unread.why)),
        }
    }
    Err(OAuthError::new(
        Step::Discovery,
        issuer,
        format!("no authorization server metadata found ({})", tried.join("; ")),
    ))
}

/// Whether two issuer identifiers name the same server: equal up to the case of the scheme and
/// host and a trailing slash (some servers publish `https://a.example/` for `https://a.example`).
fn same_issuer(found: &str, expected: &str) -> bool {
    origin_and_path(found).is_some() && canonical_resource(found) == canonical_resource(expected)
}

/// The first of `urls` that serves the document, with its URL; `Ok(None)` when each answered 404 or
/// 410 (there is none). When none serves it and one failed otherwise (no answer, another status,
/// not the JSON expected), `Err` gives the first such URL and why.
async fn first_published<T: serde::de::DeserializeOwned>(
    http: &dyn HttpTransport,
    urls: &[String],
) -> Result<Option<(T, String)>, (String, String)> {
    let mut failure = None;
    for url in urls {
        match fetch_json::<T>(http, url).await {
            Ok(document) => return Ok(Some((document, url.clone()))),
            Err(unread) if unread.absent => {}
            Err(unread) => {
                failure.get_or_insert((url.clone(), unread.why));
            }
        }
    }
    failure.map_or(Ok(None), Err)
}

/// Why a metadata document could not be used.
struct Unread {
    /// In a few words.
    why: String,
    /// The server has no such document (404 or 410), as opposed to one it failed to give.
    absent: bool,
}

/// GETs `url` and reads it as JSON.
async fn fetch_json<T: serde::de::DeserializeOwned>(http: &dyn HttpTransport, url: &str) -> Result<T, Unread> {
    let failed = |why: String| Unread { why, absent: false };
    let request = HttpRequest::new(Method::Get, url).header("Accept", "application/json");
    let response = http.send(request, CancelToken::new()).await.map_err(|error| match error {
        crate::ports::HttpError::Network(detail) => {
            failed(format!("no HTTP answer ({detail}; from a browser: missing Access-Control-Allow-Origin?)"))
        }
        other => failed(other.to_string()),
    })?;
    let status = response.status;
    if !(200..300).contains(&status) {
        return Err(Unread { why: format!("HTTP {status}"), absent: matches!(status, 404 | 410) });
    }
    let text = response.text(METADATA_LIMIT).await.map_err(|error| failed(error.to_string()))?;
    serde_json::from_str(&text).map_err(|error| failed(format!("not the expected metadata JSON ({error})")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protected_resource_metadata_is_looked_for_at_the_path_form_then_the_root() {
        assert_eq!(
            resource_metadata_urls("https://example.com/public/mcp?x=1", None),
            [
                "https://example.com/.well-known/oauth-protected-resource/public/mcp",
                "https://example.com/.well-known/oauth-protected-resource"
            ]
        );
        assert_eq!(resource_metadata_urls("https://example.com/", None), ["https://example.com/.well-known/oauth-protected-resource"]);
        let challenge = Challenge { resource_metadata: Some("https://example.com/custom.json".into()), ..Challenge::default() };
        assert_eq!(resource_metadata_urls("https://example.com/mcp", Some(&challenge)), ["https://example.com/custom.json"]);
    }

    #[test]
    fn issuer_metadata_follows_the_2025_11_25_order_with_and_without_a_path() {
        assert_eq!(
            server_metadata_urls("https://auth.example.com/tenant1/"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration"
            ]
        );
        assert_eq!(
            server_metadata_urls("https://auth.example.com"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration"
            ]
        );
        assert!(server_metadata_urls("not a url").is_empty());
    }

    #[test]
    fn a_resource_covers_its_own_url_and_urls_under_it_but_not_other_hosts_or_siblings() {
        assert!(resource_covers("https://example.com/mcp", "https://example.com/mcp"));
        assert!(resource_covers("https://example.com", "https://example.com/mcp"));
        assert!(resource_covers("https://Example.com/mcp/", "https://example.com/mcp"));
        assert!(!resource_covers("https://evil.example.com/mcp", "https://example.com/mcp"));
        assert!(!resource_covers("https://example.com/mc", "https://example.com/mcp"));
        assert!(!resource_covers("http://example.com/mcp", "https://example.com/mcp"));
    }

    #[test]
    fn the_canonical_resource_drops_the_fragment_and_trailing_slash_and_lowercases_the_host() {
        assert_eq!(canonical_resource("HTTPS://Example.COM/mcp/#top"), "https://example.com/mcp");
        assert_eq!(canonical_resource("https://example.com/mcp?tenant=a"), "https://example.com/mcp?tenant=a");
    }

    #[test]
    fn metadata_without_s256_is_refused_with_the_reason() {
        let mut server = ServerMetadata { issuer: "https://a.example".into(), ..ServerMetadata::default() };
        let missing = require_s256(&server, "https://a.example/.well-known/oauth-authorization-server").unwrap_err();
        assert_eq!(missing.step, Step::Discovery);
        assert!(missing.to_string().contains("lists no code_challenge_methods_supported"), "{missing}");
        server.code_challenge_methods_supported = Some(vec!["plain".into()]);
        let plain = require_s256(&server, "u").unwrap_err();
        assert!(plain.to_string().contains("[\"plain\"]"), "{plain}");
        server.code_challenge_methods_supported = Some(vec!["plain".into(), "S256".into()]);
        assert!(require_s256(&server, "u").is_ok());
    }
}
