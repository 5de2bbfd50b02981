//! Where a bound widget's MCP server lives, in the form a share link or an exported file may carry
//! it: only `http(s)` URLs, without userinfo (`user:pass@`), fragment or any query parameter whose
//! name looks like a credential. Whatever else a document says is ignored, without an error: a
//! dashboard whose server URL cannot be read still opens, and "Connect" asks for the URL instead.
//! A URL is read through [`shareable`] where it is used (the needed servers' list, an export), not
//! when a document is opened: opening a link is in the first load, those are not.

use fluent_uri::IriRef;

use crate::weburl::{self, Target};

/// Longest server URL read or written, in characters.
pub const MAX_URL_CHARS: usize = 2_048;

/// Query parameter names (lower-cased, as substrings) that may hold a secret.
const SECRET_WORDS: [&str; 12] =
    ["key", "token", "secret", "auth", "pass", "pwd", "sig", "code", "session", "cred", "jwt", "bearer"];

/// `raw` as a URL safe to share, or `None` when it is not an absolute `http(s)` URL with a host.
/// (The chat's link filter, `weburl`, reads it first: its parser is already in the first load.)
pub fn shareable(raw: &str) -> Option<String> {
    if raw.len() > MAX_URL_CHARS {
        return None;
    }
    let parsed = weburl::parse(raw).ok()?;
    let Target::Web { host } = parsed.target else { return None };
    let iri = IriRef::parse(parsed.url.as_str()).ok()?;
    let scheme = iri.scheme()?.as_str().to_ascii_lowercase();
    let mut url = format!("{scheme}://{host}");
    if let Some(port) = iri.authority()?.port().filter(|port| !port.as_str().is_empty()) {
        url.push(':');
        url.push_str(port.as_str());
    }
    url.push_str(iri.path().as_str());
    let kept: Vec<&str> = iri
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
    let iri = IriRef::parse(url).ok()?;
    let authority = iri.authority()?;
    Some(match authority.port().filter(|port| !port.as_str().is_empty()) {
        Some(port) => format!("{}:{}", authority.host(), port.as_str()),
        None => authority.host().to_owned(),
    })
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
