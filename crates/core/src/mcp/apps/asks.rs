//! What a view asks of the person and the model (`ui/open-link`, `ui/message`,
//! `ui/update-model-context`, `ui/download-file`), read from its request into plain values the page
//! can show in a question before doing anything.

use base64::Engine;
use serde_json::Value;

use crate::weburl;

/// Display modes this host offers a view; `ui/request-display-mode` never gets another.
pub const DISPLAY_MODES: &[&str] = &["inline", "fullscreen"];

/// A link the view wants opened: the URL as the browser will open it and the host the person is
/// shown before agreeing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub url: String,
    pub host: String,
}

/// `ui/open-link {url}`: only an `http(s)` URL (never `javascript:`, `data:` or a relative path).
pub fn link(params: &Value) -> Result<Link, String> {
    let raw = params.get("url").and_then(Value::as_str).ok_or("ui/open-link needs a url")?;
    let host = weburl::web_host(raw).ok_or_else(|| format!("\"{raw}\" is not a web address (http or https)"))?;
    let url = weburl::normalised_web(raw).ok_or_else(|| format!("\"{raw}\" is not a web address (http or https)"))?;
    Ok(Link { url, host })
}

/// The text of MCP content blocks (`ui/message`, `ui/update-model-context`): text blocks as they
/// are, other blocks named by their type so the model knows something was left out.
pub fn content_text(content: Option<&Value>) -> String {
    let Some(Value::Array(blocks)) = content else { return String::new() };
    blocks
        .iter()
        .map(|block| match (block.get("type").and_then(Value::as_str), block.get("text").and_then(Value::as_str)) {
            (Some("text"), Some(text)) => text.trim().to_owned(),
            (kind, _) => format!("[{} content left out]", kind.unwrap_or("unknown")),
        })
        .filter(|text| !text.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `ui/update-model-context {content?, structuredContent?}` as one text for the model.
pub fn model_context(params: &Value) -> String {
    let mut text = content_text(params.get("content"));
    if let Some(structured) = params.get("structuredContent").filter(|value| !value.is_null()) {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&structured.to_string());
    }
    text
}

/// One file of `ui/download-file`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Download {
    pub name: String,
    pub mime_type: String,
    pub bytes: Vec<u8>,
}

/// The embedded resources of `ui/download-file {contents}`. Links (`resource_link`) are refused:
/// the host would fetch an address the view chose, outside the view's policy.
pub fn downloads(params: &Value) -> Result<Vec<Download>, String> {
    let Some(Value::Array(contents)) = params.get("contents") else {
        return Err("ui/download-file needs contents".to_owned());
    };
    if contents.is_empty() {
        return Err("ui/download-file has nothing to download".to_owned());
    }
    contents
        .iter()
        .map(|item| {
            if item.get("type").and_then(Value::as_str) != Some("resource") {
                return Err("only embedded resources can be downloaded, not links".to_owned());
            }
            let resource = item.get("resource").ok_or("a download without its resource")?;
            let uri = resource.get("uri").and_then(Value::as_str).unwrap_or("download");
            let bytes = match (resource.get("text").and_then(Value::as_str), resource.get("blob").and_then(Value::as_str)) {
                (Some(text), _) => text.as_bytes().to_vec(),
                (None, Some(blob)) => base64::engine::general_purpose::STANDARD
                    .decode(blob)
                    .map_err(|error| format!("the download {uri} is not valid base64: {error}"))?,
                (None, None) => return Err(format!("the download {uri} has neither text nor blob")),
            };
            Ok(Download {
                name: file_name(uri),
                mime_type: resource.get("mimeType").and_then(Value::as_str).unwrap_or("application/octet-stream").to_owned(),
                bytes,
            })
        })
        .collect()
}

/// The last path segment of `uri`, with only characters safe in a file name.
fn file_name(uri: &str) -> String {
    let last = uri.trim_end_matches('/').rsplit(['/', ':']).next().unwrap_or_default();
    let safe: String = last
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_'))
        .collect::<String>()
        .trim_start_matches('.')
        .to_owned();
    if safe.is_empty() { "download".to_owned() } else { safe }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_web_links_open_and_the_host_is_named() {
        let link = link(&json!({"url": "https://Example.org/a?b=1"})).expect("a web link");
        assert_eq!(link.host, "example.org");
        assert_eq!(link.url, "https://example.org/a?b=1");
        for bad in ["javascript:alert(1)", "data:text/html,x", "/relative", "file:///etc/passwd"] {
            assert!(super::link(&json!({"url": bad})).is_err(), "{bad} must not open");
        }
        assert!(super::link(&json!({})).is_err());
    }

    #[test]
    fn content_blocks_become_text_and_what_is_not_text_is_named() {
        let content = json!([{"type": "text", "text": " Hi "}, {"type": "image", "data": "xx"}]);
        assert_eq!(content_text(Some(&content)), "Hi\n[image content left out]");
        assert_eq!(
            model_context(&json!({"content": [{"type": "text", "text": "Budget"}], "structuredContent": {"total": 5}})),
            "Budget\n{\"total\":5}"
        );
        assert_eq!(model_context(&json!({})), "");
    }

    #[test]
    fn embedded_files_download_under_a_safe_name_and_links_are_refused() {
        let files = downloads(&json!({"contents": [
            {"type": "resource", "resource": {"uri": "file:///x/../report.csv", "mimeType": "text/csv", "text": "a,b"}},
            {"type": "resource", "resource": {"uri": "ui://app/..", "blob": "aGk="}},
        ]}))
        .expect("two files");
        assert_eq!(files[0], Download { name: "report.csv".into(), mime_type: "text/csv".into(), bytes: b"a,b".to_vec() });
        assert_eq!((files[1].name.as_str(), files[1].bytes.as_slice()), ("download", b"hi".as_slice()));
        assert!(downloads(&json!({"contents": [{"type": "resource_link", "uri": "https://x.org/f"}]})).is_err());
        assert!(downloads(&json!({"contents": []})).is_err());
        assert!(downloads(&json!({"contents": [{"type": "resource", "resource": {"uri": "a", "blob": "!!"}}]})).is_err());
    }
}
