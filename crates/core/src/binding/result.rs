//! What a tool result reads as for a map: its `structuredContent` when present, else its first
//! text content parsed as JSON, else that text as a string. An answer the MCP client cut at its cap
//! is not read at all: [`cut_sizes`] finds it.

use serde_json::Value;

use crate::tool::{ResultPart, ToolResult};

/// How `mcp::cut` begins the note of an answer it cut (`CutAnswer::note`), and the words around the
/// cap after it (`tests/binding_errors.rs` holds them to that note).
const CUT_NOTE_START: &str = "[result cut: the server sent ";
const CUT_NOTE_CAP_START: &str = ", more than the ";
const CUT_NOTE_CAP_END: &str = " this client keeps of one result";

/// The sizes the note of a cut answer states, as people read them ("2.4 MB").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutSizes {
    pub sent: String,
    pub cap: String,
}

/// The sizes of `result` when it is what the MCP client kept of an answer larger than its cap: a note,
/// then the start of the answer's text, its JSON cut anywhere, which no map can read.
pub fn cut_sizes(result: &ToolResult) -> Option<CutSizes> {
    if result.structured.is_some() {
        return None;
    }
    let ResultPart::Text { text } = result.content.first()? else { return None };
    let note = text.split_once('\n').map_or(text.as_str(), |(note, _)| note);
    let (sent, after) = note.strip_prefix(CUT_NOTE_START)?.split_once(CUT_NOTE_CAP_START)?;
    let (cap, _) = after.split_once(CUT_NOTE_CAP_END)?;
    Some(CutSizes { sent: sent.to_owned(), cap: cap.to_owned() })
}

pub fn result_json(result: &ToolResult) -> Value {
    if let Some(structured) = &result.structured {
        return structured.clone();
    }
    text_json(result)
}

/// [`result_json`] of a result no longer needed: its `structuredContent` is moved rather than copied
/// (a refresh of a 1,000-row table).
pub fn into_result_json(result: ToolResult) -> Value {
    match result.structured {
        Some(structured) => structured,
        None => text_json(&result),
    }
}

fn text_json(result: &ToolResult) -> Value {
    let first_text = result.content.iter().find_map(|part| match part {
        ResultPart::Text { text } => Some(text.as_str()),
        ResultPart::Image { .. } => None,
    });
    match first_text {
        Some(text) => serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.to_owned())),
        None => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn texts(texts: &[&str]) -> ToolResult {
        ToolResult {
            content: texts.iter().map(|text| ResultPart::Text { text: (*text).to_owned() }).collect(),
            is_error: false,
            structured: None,
        }
    }

    #[test]
    fn structured_content_comes_first() {
        let result = ToolResult { structured: Some(json!({"time": "12:00"})), ..texts(&["{\"other\": 1}"]) };
        assert_eq!(result_json(&result), json!({"time": "12:00"}));
    }

    #[test]
    fn else_the_first_text_is_parsed_as_json() {
        assert_eq!(result_json(&texts(&["[1, 2]", "{\"b\": 2}"])), json!([1, 2]));
        let image_first = ToolResult {
            content: vec![
                ResultPart::Image { media_type: "image/png".into(), data: "AA==".into() },
                ResultPart::Text { text: "42".into() },
            ],
            is_error: false,
            structured: None,
        };
        assert_eq!(result_json(&image_first), json!(42));
    }

    #[test]
    fn else_the_text_is_a_string() {
        assert_eq!(result_json(&texts(&["The time is 12:00"])), json!("The time is 12:00"));
        assert_eq!(result_json(&texts(&[])), Value::Null);
    }
}
