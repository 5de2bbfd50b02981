//! What a tool result reads as for a map: its `structuredContent` when present, else its first
//! text content parsed as JSON, else that text as a string.

use serde_json::Value;

use crate::tool::{ResultPart, ToolResult};

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
