//! Resolving the legacy transport's `endpoint` event against the SSE URL, refusing other origins.

use fluent_uri::{Uri, UriRef};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EndpointError {
    #[error("\"{0}\" is not an absolute http(s) URL")]
    BadBase(String),
    #[error("the endpoint event \"{0}\" is not a URL")]
    BadEndpoint(String),
    /// Following it would send our requests (and bearer token) to a host the user never chose.
    #[error(
        "the endpoint event points to another origin ({endpoint}) than the server URL ({base})"
    )]
    OtherOrigin { endpoint: String, base: String },
}

/// Resolves `endpoint` (usually a path such as `/message?sessionId=…`) against `base`, the SSE URL.
pub fn resolve(base: &str, endpoint: &str) -> Result<String, EndpointError> {
    let base_without_fragment = base.split('#').next().unwrap_or(base);
    let base_uri =
        Uri::parse(base_without_fragment).map_err(|_| EndpointError::BadBase(base.to_owned()))?;
    let base_origin =
        origin(base_without_fragment).ok_or_else(|| EndpointError::BadBase(base.to_owned()))?;
    let reference = UriRef::parse(endpoint.trim())
        .map_err(|_| EndpointError::BadEndpoint(endpoint.to_owned()))?;
    let resolved = reference
        .resolve_against(&base_uri)
        .map_err(|_| EndpointError::BadEndpoint(endpoint.to_owned()))?;
    let resolved = resolved.to_string();
    if origin(&resolved).as_deref() != Some(base_origin.as_str()) {
        return Err(EndpointError::OtherOrigin {
            endpoint: resolved,
            base: base.to_owned(),
        });
    }
    Ok(resolved)
}

/// Checks that `url` is an absolute http(s) URL and returns its host, from which a server id is derived.
pub fn server_host(url: &str) -> Result<String, EndpointError> {
    let uri = Uri::parse(url.trim()).map_err(|_| EndpointError::BadBase(url.to_owned()))?;
    origin(url.trim()).ok_or_else(|| EndpointError::BadBase(url.to_owned()))?;
    let host = uri
        .authority()
        .map(|authority| authority.host().to_owned())
        .unwrap_or_default();
    if host.is_empty() {
        return Err(EndpointError::BadBase(url.to_owned()));
    }
    Ok(host)
}

/// `scheme://authority`, lower-cased, for http(s) URLs only.
fn origin(url: &str) -> Option<String> {
    let uri = Uri::parse(url).ok()?;
    let scheme = uri.scheme().as_str().to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = uri.authority()?;
    Some(format!(
        "{scheme}://{}",
        authority.as_str().to_ascii_lowercase()
    ))
}
