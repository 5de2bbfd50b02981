//! The one URL parser behind every link and image filter: a string is read the way a browser would
//! (outer spaces and control characters, inner tabs and newlines ignored), then must be a single
//! RFC 3987 IRI (`fluent-uri`), so `/\host`, quotes and spaces never pass as one URL.

use fluent_uri::IriRef;

/// What a string points at, once it parsed as one URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `http(s)://host/...`, with the host lower-cased.
    Web { host: String },
    Mail,
    Tel,
    /// A `data:image/...` URL.
    DataImage,
    /// `/path` on this site.
    SamePath,
    /// `#fragment` in this page.
    Fragment,
    /// `page.html` or `images/a.png`: relative to whatever page shows it.
    Relative,
}

/// Why a string is not a URL we follow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    Empty,
    /// Spaces, quotes, backslashes or other characters no single URL holds.
    NotOneUrl,
    /// `//host/...`: another site without a scheme.
    ProtocolRelative,
    /// A scheme we never follow (`javascript`, `data` other than images, `vbscript`...).
    Scheme(String),
    /// `http(s):` without a host.
    NoHost,
}

/// A parsed URL: the text as a browser would read it, and where it points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub url: String,
    pub target: Target,
}

/// Reads `raw` as one URL.
pub fn parse(raw: &str) -> Result<Parsed, Refusal> {
    let url = browser_form(raw);
    if url.is_empty() {
        return Err(Refusal::Empty);
    }
    // Browsers take spaces and quotes in a data URL's payload (inline SVG), and it fetches nothing.
    if url.get(..11).is_some_and(|start| start.eq_ignore_ascii_case("data:image/")) {
        return Ok(Parsed { url, target: Target::DataImage });
    }
    let Ok(iri) = IriRef::parse(url.as_str()) else {
        // Name the scheme when there is one, so `data:text/html,<script>` reads as a scheme refusal.
        return Err(match scheme_of(&url) {
            Some(scheme) if !matches!(scheme.as_str(), "http" | "https" | "mailto" | "tel") => Refusal::Scheme(scheme),
            _ => Refusal::NotOneUrl,
        });
    };
    let target = match iri.scheme().map(|scheme| scheme.as_str().to_ascii_lowercase()) {
        Some(scheme) if scheme == "http" || scheme == "https" => {
            let host = iri.authority().map(|authority| authority.host().to_ascii_lowercase()).unwrap_or_default();
            if host.is_empty() {
                return Err(Refusal::NoHost);
            }
            // RFC 3986 lets a registered name hold sub-delimiters (`'`, `&`, `(`...); no real host does,
            // and a quote in a host could end an attribute the URL is written into.
            if !host.starts_with('[') && !host.chars().all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '_' | '~' | '%')) {
                return Err(Refusal::NotOneUrl);
            }
            Target::Web { host }
        }
        Some(scheme) if scheme == "mailto" => Target::Mail,
        Some(scheme) if scheme == "tel" => Target::Tel,
        Some(scheme) => return Err(Refusal::Scheme(scheme)),
        None if iri.has_authority() => return Err(Refusal::ProtocolRelative),
        None if iri.path().as_str().starts_with('/') => Target::SamePath,
        None if iri.path().as_str().is_empty() && iri.has_fragment() => Target::Fragment,
        None => Target::Relative,
    };
    // A quote is legal in a path or query (`/wiki/O'Brien`) but ends a single-quoted attribute the URL
    // might be written into; `%27` reads the same to servers (and browsers encode it in queries).
    let url = url.replace('\'', "%27");
    Ok(Parsed { url, target })
}

/// The host of an `http(s)` URL, for showing where a link or image goes.
pub fn web_host(raw: &str) -> Option<String> {
    match parse(raw) {
        Ok(Parsed { target: Target::Web { host }, .. }) => Some(host),
        _ => None,
    }
}

/// `scheme://host[:port]`, lower-cased, of an `http(s)` URL: what a browser's same-origin rule compares.
pub fn origin(raw: &str) -> Option<String> {
    let parsed = parse(raw).ok()?;
    let Target::Web { .. } = parsed.target else { return None };
    let iri = IriRef::parse(parsed.url.as_str()).ok()?;
    let scheme = iri.scheme()?.as_str().to_ascii_lowercase();
    Some(format!("{scheme}://{}", iri.authority()?.as_str().to_ascii_lowercase()))
}

/// Whether `host` (as [`web_host`] gives it) is this machine: `localhost`, a `*.localhost` name,
/// an address in 127.0.0.0/8, or `[::1]`. Traffic to it never crosses a network.
pub fn is_loopback_host(host: &str) -> bool {
    let host = host.trim_end_matches('.');
    host == "localhost"
        || host.ends_with(".localhost")
        || host == "[::1]"
        || host.strip_prefix("127.").is_some_and(|rest| {
            let parts: Vec<&str> = rest.split('.').collect();
            parts.len() == 3 && parts.iter().all(|part| part.parse::<u8>().is_ok())
        })
}

/// The host of a plain `http` URL that is not this machine: what is sent there crosses the network
/// unencrypted. `None` for https, loopback hosts and anything that is not a web URL.
pub fn cleartext_remote_host(raw: &str) -> Option<String> {
    let url = browser_form(raw);
    let plain = url.get(..7).is_some_and(|scheme| scheme.eq_ignore_ascii_case("http://"));
    web_host(&url).filter(|host| plain && !is_loopback_host(host))
}

/// The normalised form of an `http(s)` URL (case of scheme and host, percent-encoding, dot
/// segments), so two spellings of one address compare equal; `None` for anything else.
pub fn normalised_web(raw: &str) -> Option<String> {
    let parsed = parse(raw).ok()?;
    if !matches!(parsed.target, Target::Web { .. }) {
        return None;
    }
    IriRef::parse(parsed.url.as_str()).ok().map(|iri| iri.normalize().as_str().to_owned())
}

/// What a browser's URL parser reads: without leading and trailing spaces and C0 controls, and
/// without the tabs and newlines it ignores anywhere (so `java\tscript:` is `javascript:`).
fn browser_form(raw: &str) -> String {
    raw.trim_matches(|c: char| c <= ' ').chars().filter(|c| !matches!(c, '\t' | '\n' | '\r')).collect()
}

/// The lower-cased scheme of `url` per the URL grammar, if it starts with one.
fn scheme_of(url: &str) -> Option<String> {
    let (scheme, _) = url.split_once(':')?;
    let mut chars = scheme.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then(|| scheme.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(raw: &str) -> Result<Target, Refusal> {
        parse(raw).map(|parsed| parsed.target)
    }

    #[test]
    fn web_mail_data_image_and_site_paths_parse() {
        assert_eq!(target("HTTPS://CDN.Example.org/a.png"), Ok(Target::Web { host: "cdn.example.org".into() }));
        assert_eq!(target("https://de.wikipedia.org/wiki/Müller"), Ok(Target::Web { host: "de.wikipedia.org".into() }));
        assert_eq!(target("mailto:ada@example.org"), Ok(Target::Mail));
        assert_eq!(target("data:image/png;base64,iVBORw0KGgo="), Ok(Target::DataImage));
        assert_eq!(target("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'%3E"), Ok(Target::DataImage));
        assert_eq!(target("/dossiers/42"), Ok(Target::SamePath));
        assert_eq!(target("#top"), Ok(Target::Fragment));
        assert_eq!(target("images/a.png"), Ok(Target::Relative));
    }

    #[test]
    fn backslash_hosts_quotes_and_spaces_are_not_one_url() {
        assert_eq!(target("/\\evil.example/x"), Err(Refusal::NotOneUrl));
        assert_eq!(target("\\\\evil.example/x"), Err(Refusal::NotOneUrl));
        assert_eq!(target("https://x/a.png\" onerror=\"alert(1)"), Err(Refusal::NotOneUrl));
        assert_eq!(target("https://x/a b.png"), Err(Refusal::NotOneUrl));
        assert_eq!(target("//evil.example/x"), Err(Refusal::ProtocolRelative));
    }

    #[test]
    fn script_schemes_are_named_even_when_hidden_or_malformed() {
        assert_eq!(target(" Java\tScript:alert(1)"), Err(Refusal::Scheme("javascript".into())));
        assert_eq!(target("data:text/html,<script>"), Err(Refusal::Scheme("data".into())));
        assert_eq!(target("vbscript:msgbox"), Err(Refusal::Scheme("vbscript".into())));
        assert_eq!(target("https:///nohost.png"), Err(Refusal::NoHost));
        // Found by `scripts/fuzz.sh url`: sub-delimiters are legal in an RFC 3986 host, not in a real one.
        assert_eq!(target("http://kn'nn&kk/"), Err(Refusal::NotOneUrl));
        assert_eq!(target("https://example.org/wiki/Conan_O'Brien"), Ok(Target::Web { host: "example.org".into() }));
        assert_eq!(parse("http://t.example/?q=':!").unwrap().url, "http://t.example/?q=%27:!", "a second fuzz input");
    }

    #[test]
    fn spellings_of_one_address_normalise_alike() {
        assert_eq!(normalised_web("HTTPS://Img.Example.org/a/./b.png"), normalised_web("https://img.example.org/a/b.png"));
        assert_eq!(normalised_web("/a.png"), None);
    }

    #[test]
    fn plain_http_to_another_machine_is_cleartext_and_loopback_is_not() {
        assert_eq!(cleartext_remote_host("http://192.168.1.20:11434"), Some("192.168.1.20".to_owned()));
        assert_eq!(cleartext_remote_host("HTTP://gpu-box.lan:8000/v1"), Some("gpu-box.lan".to_owned()));
        for local in ["http://localhost:11434", "http://127.0.0.1:1234/v1", "http://127.8.0.1", "http://[::1]:8080", "http://app.localhost"] {
            assert_eq!(cleartext_remote_host(local), None, "{local}");
        }
        assert_eq!(cleartext_remote_host("https://192.168.1.20"), None, "encrypted");
        assert_eq!(cleartext_remote_host("http://localhost.evil.example"), Some("localhost.evil.example".to_owned()));
        assert_eq!(cleartext_remote_host("http://127.0.0.1.evil.example"), Some("127.0.0.1.evil.example".to_owned()));
    }
}
