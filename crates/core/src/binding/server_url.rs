//! Where a bound widget's MCP server lives, in the form a share link or an exported file may carry
//! it: only `http(s)` URLs, without userinfo (`user:pass@`), fragment or any query parameter whose
//! name looks like a credential. Whatever else a document says is ignored, without an error: a
//! dashboard whose server URL cannot be read still opens, and "Connect" asks for the URL instead.

use fluent_uri::Uri;
use serde::{Deserialize, Deserializer};

/// Longest server URL read or written, in characters.
pub const MAX_URL_CHARS: usize = 2_048;

/// Query parameter names (lower-cased, as substrings) that may hold a secret.
const SECRET_WORDS: [&str; 12] =
    ["key", "token", "secret", "auth", "pass", "pwd", "sig", "code", "session", "cred", "jwt", "bearer"];

/// `raw` as a URL safe to share, or `None` when it is not an absolute `http(s)` URL with a host.
pub fn shareable(raw: &str) -> Option<String> {
    let raw = raw.trim();
    if raw.len() > MAX_URL_CHARS {
        return None;
    }
    let uri = Uri::parse(raw).ok()?;
    let scheme = uri.scheme().as_str().to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = uri.authority()?;
    let host = authority.host();
    if host.is_empty() {
        return None;
    }
    let mut url = format!("{scheme}://{}", host.to_ascii_lowercase());
    if let Some(port) = authority.port().filter(|port| !port.as_str().is_empty()) {
        url.push(':');
        url.push_str(port.as_str());
    }
    url.push_str(uri.path().as_str());
    let kept: Vec<&str> = uri
        .query()
        .map(|query| query.as_str().split('&').filter(|pair| !pair.is_empty() && !holds_secret(pair)).collect())
        .unwrap_or_default();
    if !kept.is_empty() {
        url.push('?');
        url.push_str(&kept.join("&"));
    }
    Some(url)
}

fn holds_secret(pair: &str) -> bool {
    let key = pair.split_once('=').map_or(pair, |(key, _)| key);
    let key: String = form_urlencoded::parse(key.as_bytes()).map(|(key, _)| key.to_ascii_lowercase()).collect();
    SECRET_WORDS.iter().any(|word| key.contains(word))
}

/// `host[:port]` of a URL [`shareable`] returned: what the person sees before connecting to it.
pub fn host(url: &str) -> Option<String> {
    let uri = Uri::parse(url).ok()?;
    let authority = uri.authority()?;
    Some(match authority.port().filter(|port| !port.as_str().is_empty()) {
        Some(port) => format!("{}:{}", authority.host(), port.as_str()),
        None => authority.host().to_owned(),
    })
}

/// Serde reader for a stored or shared server URL: anything [`shareable`] refuses reads as `None`,
/// never as an error (which would drop the whole binding).
pub(crate) fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let value = serde_json::Value::deserialize(deserializer)?;
    Ok(value.as_str().and_then(shareable))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_never_leave_with_the_url() {
        assert_eq!(shareable("https://mcp.example.org/mcp").as_deref(), Some("https://mcp.example.org/mcp"));
        assert_eq!(shareable(" HTTP://User:Pa55@Example.org:8443/mcp#frag ").as_deref(), Some("http://example.org:8443/mcp"));
        assert_eq!(
            shareable("https://x.org/mcp?region=eu&api_key=1&Token=2&X-Amz-Signature=3&code=4&auth=5&limit=10").as_deref(),
            Some("https://x.org/mcp?region=eu&limit=10")
        );
        assert_eq!(shareable("https://x.org/mcp?access%5Ftoken=1").as_deref(), Some("https://x.org/mcp"), "an encoded name too");
        assert_eq!(host("http://127.0.0.1:3001/mcp").as_deref(), Some("127.0.0.1:3001"));
        assert_eq!(host("https://mcp.example.org/mcp").as_deref(), Some("mcp.example.org"));
    }

    #[test]
    fn only_absolute_web_urls_are_read() {
        for hostile in [
            "javascript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "file:///etc/passwd",
            "/mcp",
            "//evil.example/mcp",
            "http://",
            "https://exa mple.org/mcp",
            "ftp://example.org/mcp",
            "",
        ] {
            assert_eq!(shareable(hostile), None, "{hostile}");
        }
        let long = format!("https://example.org/{}", "a".repeat(MAX_URL_CHARS));
        assert_eq!(shareable(&long), None, "over-long");
    }
}
