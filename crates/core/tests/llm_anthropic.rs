//! The Anthropic Messages wire format: the request the browser sends (headers for direct browser
//! access, prompt caching, content blocks in the API's shapes) and the decoding of example streams,
//! including a tool call whose JSON arrives in many pieces cut anywhere.

mod common;

use std::sync::Arc;

use autoui_core::llm::anthropic::{self, StreamDecoder};
use autoui_core::llm::message::{ContentBlock, Message, Role};
use autoui_core::llm::model::{ChatRequest, FinishReason, LlmError, ModelEvent, ModelReply, ToolDef, Usage};
use autoui_core::mcp::sse::SseParser;
use autoui_core::ports::Method;
use autoui_core::settings::Settings;
use autoui_core::tool::ResultPart;
use common::fixture;
use common::transport::split;
use serde_json::{Value, json};

fn tools() -> Vec<ToolDef> {
    ["autoui_webmcp_search_recipes", "autoui_webmcp_widget_display"]
        .iter()
        .map(|name| ToolDef {
            name: (*name).to_owned(),
            description: format!("{name} description"),
            input_schema: Arc::new(json!({ "type": "object", "properties": {} })),
        })
        .collect()
}

fn conversation() -> Vec<Message> {
    vec![
        Message {
            role: Role::User,
            content: vec![
                ContentBlock::Text { text: "What is in this picture?".to_owned() },
                ContentBlock::Image { media_type: "image/png".to_owned(), data: "iVBORw0KGgo=".to_owned() },
            ],
        },
        Message {
            role: Role::Assistant,
            content: vec![
                ContentBlock::Text { text: String::new() },
                ContentBlock::ToolUse {
                    id: "toolu_1".to_owned(),
                    name: "autoui_webmcp_search_recipes".to_owned(),
                    input: json!({ "query": "kpi" }),
                },
            ],
        },
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult {
                tool_use_id: "toolu_1".to_owned(),
                content: vec![ResultPart::Text { text: "Error: nothing found".to_owned() }],
                is_error: true,
            }],
        },
        Message::user_text("try stat-card"),
    ]
}

fn settings() -> Settings {
    Settings { api_key: "sk-ant-test".to_owned(), model: "claude-sonnet-4-5".to_owned(), ..Settings::default() }
}

fn body(messages: &[Message], tools: &[ToolDef]) -> Value {
    let request = ChatRequest { system: "You build dashboards.", messages, tools, max_output_tokens: 4_096 };
    let http = anthropic::build_request(&request, &settings()).expect("built");
    serde_json::from_str(http.body.as_deref().expect("a body")).expect("JSON body")
}

#[test]
fn the_request_goes_straight_to_the_api_with_the_browser_access_headers() {
    let messages = conversation();
    let tools = tools();
    let request =
        ChatRequest { system: "You build dashboards.", messages: &messages, tools: &tools, max_output_tokens: 4_096 };
    let http = anthropic::build_request(&request, &settings()).expect("built");
    assert_eq!(http.method, Method::Post);
    assert_eq!(http.url, "https://api.anthropic.com/v1/messages");
    let header = |name: &str| {
        http.headers.iter().find(|(key, _)| key.eq_ignore_ascii_case(name)).map(|(_, value)| value.as_str())
    };
    assert_eq!(header("x-api-key"), Some("sk-ant-test"));
    assert_eq!(header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(header("anthropic-dangerous-direct-browser-access"), Some("true"));
    assert_eq!(header("content-type"), Some("application/json"));
}

#[test]
fn a_missing_key_is_reported_before_anything_is_sent() {
    let request = ChatRequest { system: "", messages: &[], tools: &[], max_output_tokens: 10 };
    let error = anthropic::build_request(&request, &Settings::default()).expect_err("no key");
    assert_eq!(error, LlmError::MissingKey { provider: "Anthropic".to_owned() });
    assert_eq!(error.to_string(), "no API key is set for Anthropic: add one in settings");
}

#[test]
fn the_body_streams_and_caches_the_system_prompt_the_tools_and_the_conversation_prefix() {
    let body = body(&conversation(), &tools());
    assert_eq!(body["model"], "claude-sonnet-4-5");
    assert_eq!(body["stream"], true);
    assert_eq!(body["max_tokens"], 4_096);
    assert_eq!(
        body["system"],
        json!([{ "type": "text", "text": "You build dashboards.", "cache_control": { "type": "ephemeral" } }])
    );
    assert!(body["tools"][0].get("cache_control").is_none());
    assert_eq!(
        body["tools"][1]["cache_control"],
        json!({ "type": "ephemeral" }),
        "the last tool closes the cached prefix"
    );
    assert_eq!(body["tools"][1]["input_schema"], json!({ "type": "object", "properties": {} }));
    let last_message = body["messages"].as_array().and_then(|messages| messages.last()).expect("messages");
    let last_block = last_message["content"].as_array().and_then(|blocks| blocks.last()).expect("blocks");
    assert_eq!(last_block["cache_control"], json!({ "type": "ephemeral" }));
}

#[test]
fn blocks_take_the_apis_shapes_and_consecutive_user_messages_are_merged() {
    let body = body(&conversation(), &tools());
    let messages = body["messages"].as_array().expect("messages");
    assert_eq!(messages.len(), 3, "the tool result and the next user text share one user turn");
    assert_eq!(
        messages[0]["content"][1],
        json!({ "type": "image", "source": { "type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo=" } })
    );
    assert_eq!(
        messages[1]["content"],
        json!([{ "type": "tool_use", "id": "toolu_1", "name": "autoui_webmcp_search_recipes", "input": { "query": "kpi" } }]),
        "the empty text block is dropped"
    );
    assert_eq!(messages[2]["role"], "user");
    assert_eq!(
        messages[2]["content"][0],
        json!({ "type": "tool_result", "tool_use_id": "toolu_1", "content": [{ "type": "text", "text": "Error: nothing found" }], "is_error": true })
    );
    assert_eq!(messages[2]["content"][1]["text"], "try stat-card");
}

#[test]
fn the_base_url_may_name_a_proxy_with_or_without_v1() {
    assert_eq!(anthropic::endpoint("https://llm.internal/anthropic/"), "https://llm.internal/anthropic/v1/messages");
    assert_eq!(anthropic::endpoint("https://llm.internal/v1"), "https://llm.internal/v1/messages");
    assert_eq!(anthropic::endpoint(""), "https://api.anthropic.com/v1/messages");
}

/// Decodes a recorded stream fed in `chunk`-byte pieces, as the network may cut it.
fn decode(stream: &str, chunk: usize) -> (Vec<ModelEvent>, Result<ModelReply, LlmError>) {
    let mut parser = SseParser::new(1 << 20);
    let mut decoder = StreamDecoder::new();
    let mut events = Vec::new();
    for piece in split(stream.as_bytes(), chunk) {
        for event in parser.feed(&piece).expect("valid SSE") {
            if let Err(error) = decoder.feed(&event.data, &mut events) {
                return (events, Err(error));
            }
        }
    }
    (events, decoder.finish(stream.len()))
}

#[test]
fn a_tool_call_split_across_many_chunks_decodes_to_its_full_input_whatever_the_cuts() {
    let stream = fixture("anthropic_tool_use.sse");
    for chunk in [1, 2, 3, 7, 64, stream.len()] {
        let (events, reply) = decode(&stream, chunk);
        let reply = reply.expect("complete reply");
        assert_eq!(
            reply.content,
            vec![
                ContentBlock::Text { text: "Here is the revenue card.".to_owned() },
                ContentBlock::ToolUse {
                    id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6".to_owned(),
                    name: "autoui_webmcp_widget_display".to_owned(),
                    input: json!({ "name": "stat-card", "params": { "label": "Revenue", "value": "€1.2M", "trend": "up" } }),
                },
            ],
            "chunk size {chunk}"
        );
        assert_eq!(reply.finish, FinishReason::ToolUse);
        assert!(reply.malformed.is_empty());
        let deltas: String = events
            .iter()
            .filter_map(|event| match event {
                ModelEvent::ToolInputDelta { id, delta } if id == "toolu_01T1x1fJ34qAmk2tNTrN7Up6" => {
                    Some(delta.as_str())
                }
                _ => None,
            })
            .collect();
        assert_eq!(serde_json::from_str::<Value>(&deltas).ok(), Some(reply_input(&reply)));
    }
}

fn reply_input(reply: &ModelReply) -> Value {
    reply
        .content
        .iter()
        .find_map(|block| match block {
            ContentBlock::ToolUse { input, .. } => Some(input.clone()),
            _ => None,
        })
        .expect("a tool call")
}

#[test]
fn events_arrive_in_stream_order_text_first_then_the_announced_call_and_its_pieces() {
    let (events, _) = decode(&fixture("anthropic_tool_use.sse"), 5);
    assert_eq!(events[0], ModelEvent::TextDelta("Here is the revenue ".to_owned()));
    assert_eq!(events[1], ModelEvent::TextDelta("card.".to_owned()));
    assert_eq!(
        events[2],
        ModelEvent::ToolUseStarted {
            id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6".to_owned(),
            name: "autoui_webmcp_widget_display".to_owned()
        }
    );
    assert!(events[3..].iter().all(|event| matches!(event, ModelEvent::ToolInputDelta { .. })));
}

#[test]
fn usage_counts_input_output_and_cache_tokens() {
    let (_, reply) = decode(&fixture("anthropic_tool_use.sse"), 40);
    assert_eq!(
        reply.expect("reply").usage,
        Usage {
            input_tokens: 472,
            output_tokens: 89,
            cache_creation_input_tokens: 1_210,
            cache_read_input_tokens: 3_400
        }
    );
}

#[test]
fn a_plain_text_reply_ends_the_turn() {
    let (_, reply) = decode(&fixture("anthropic_text.sse"), 9);
    let reply = reply.expect("reply");
    assert_eq!(reply.content, vec![ContentBlock::Text { text: "Your dashboard is ready.".to_owned() }]);
    assert_eq!(reply.finish, FinishReason::EndTurn);
}

#[test]
fn a_tool_call_cut_by_the_token_limit_is_reported_as_malformed_with_its_raw_text() {
    let (_, reply) = decode(&fixture("anthropic_max_tokens.sse"), 13);
    let reply = reply.expect("reply");
    assert_eq!(reply.finish, FinishReason::MaxTokens);
    assert_eq!(reply.malformed.len(), 1);
    assert_eq!(reply.malformed[0].id, "toolu_01CutOff");
    assert!(reply.malformed[0].raw.starts_with("{\"name\": \"data-table\""));
    assert_eq!(reply_input(&reply), json!({}), "the conversation keeps a valid object");
}

#[test]
fn an_overloaded_error_inside_the_stream_is_a_retryable_529() {
    let (_, reply) = decode(&fixture("anthropic_overloaded.sse"), 11);
    let error = reply.expect_err("overloaded");
    assert_eq!(
        error,
        LlmError::Api {
            provider: "Anthropic".to_owned(),
            status: 529,
            message: "Overloaded".to_owned(),
            retry_after_ms: None
        }
    );
    assert!(error.is_retryable());
}

#[test]
fn a_stream_cut_before_the_message_ends_is_an_error_not_a_silent_partial_reply() {
    let stream = fixture("anthropic_text.sse");
    let cut = &stream[..stream.find("event: message_delta").expect("fixture shape")];
    let (_, reply) = decode(cut, 16);
    assert!(matches!(reply, Err(LlmError::Stream { .. })), "{reply:?}");
}

#[test]
fn error_bodies_give_the_providers_own_message() {
    let bad_key = anthropic::parse_error(401, &fixture("anthropic_error_401.json"), None);
    assert_eq!(bad_key.to_string(), "Anthropic answered 401: invalid x-api-key");
    assert!(!bad_key.is_retryable());
    let bad_model = anthropic::parse_error(404, &fixture("anthropic_error_404_model.json"), None);
    assert_eq!(bad_model.to_string(), "Anthropic answered 404: model: claude-sonet-4-5");
    let not_json = anthropic::parse_error(502, "<html>Bad gateway</html>", None);
    assert_eq!(not_json.to_string(), "Anthropic answered 502: <html>Bad gateway</html>");
    assert!(not_json.is_retryable());
}
