//! Which of the page's MCP servers a request is for, so that a server's OAuth token goes to that
//! server only, also when several share an origin (a gateway).

use crate::mcp::oauth::discovery::origin_and_path;

/// The server of `servers` (each with its MCP URL, `url_of`) that a request to `url` is for: the
/// one at exactly that URL; else, for a URL a server named itself at run time (a legacy server's
/// message endpoint), the one server on that origin. With several servers there, such a URL is
/// nobody's: it goes out without any of their tokens rather than perhaps with another's.
pub fn server_for_request<'a, T>(servers: &'a [T], url_of: impl Fn(&T) -> &str, url: &str) -> Option<&'a T> {
    let url = url.trim();
    if let Some(exact) = servers.iter().find(|server| url_of(server).trim() == url) {
        return Some(exact);
    }
    let origin_of = |url: &str| origin_and_path(url).map(|(origin, _)| origin);
    let origin = origin_of(url)?;
    let mut on_origin = servers.iter().filter(|server| origin_of(url_of(server)).as_ref() == Some(&origin));
    match (on_origin.next(), on_origin.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}
