//! The first request the app itself sends to an LLM (Anthropic wire format) when a person types a
//! message on a fresh page: its system prompt in characters and its tool definitions in bytes, as
//! received by the scripted LLM server. This checks the native `context` bench's figure in the real app.

use autoui_e2e::llm::{Reply, ScriptedLlm};
use autoui_e2e::page::Page;
use serde_json::Value;

use crate::BenchError;
use crate::session::Session;

#[derive(Clone, Debug, PartialEq)]
pub struct FirstRequest {
    pub system_chars: usize,
    pub tools_bytes: usize,
    pub tools: Vec<String>,
    pub body_bytes: usize,
}

pub async fn measure(session: &Session) -> Result<FirstRequest, BenchError> {
    let llm = ScriptedLlm::start(|_request: &Value, _index| Reply::text("Noted.")).await;
    let page = Page::new(session.client().clone(), session.base_url().to_owned());
    page.configure_llm("anthropic", &llm.base_url()).await;
    page.say("Build me a sales dashboard from the sample data")
        .await;
    page.wait_for_runs(1).await;
    let requests = llm.requests();
    llm.stop().await;
    let first = requests
        .first()
        .ok_or_else(|| BenchError::Missing("the app sent no request to the LLM".to_owned()))?;
    Ok(read(first))
}

/// The figures of one Anthropic request body.
pub fn read(body: &Value) -> FirstRequest {
    let system_chars = match &body["system"] {
        Value::String(text) => text.chars().count(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|block| block["text"].as_str())
            .map(|text| text.chars().count())
            .sum(),
        _ => 0,
    };
    let tools = body["tools"].as_array().cloned().unwrap_or_default();
    FirstRequest {
        system_chars,
        tools_bytes: body["tools"].to_string().len(),
        tools: tools
            .iter()
            .filter_map(|tool| tool["name"].as_str().map(str::to_owned))
            .collect(),
        body_bytes: body.to_string().len(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_prompt_is_counted_in_characters_whether_sent_as_text_or_as_blocks() {
        let text = read(&json!({ "system": "Été", "tools": [] }));
        let blocks = read(
            &json!({ "system": [{ "type": "text", "text": "Été" }, { "type": "text", "text": "!" }], "tools": [] }),
        );
        assert_eq!(text.system_chars, 3);
        assert_eq!(blocks.system_chars, 4);
    }

    #[test]
    fn tool_definitions_are_counted_in_bytes_of_compact_json_with_their_names() {
        let request = read(
            &json!({ "system": "", "tools": [{ "name": "widget_display", "description": "é" }] }),
        );
        assert_eq!(request.tools, ["widget_display"]);
        assert_eq!(
            request.tools_bytes,
            r#"[{"description":"é","name":"widget_display"}]"#.len()
        );
    }
}
