//! The OpenAI-compatible chat-completions wire format (OpenAI, Ollama, LM Studio, vLLM, llama.cpp,
//! OpenRouter): request building and the decoding of example streams with tool-call deltas.

mod common;

use std::sync::Arc;

use autoui_core::llm::message::{ContentBlock, Message, Role};
use autoui_core::llm::model::{ChatRequest, FinishReason, LlmError, ModelEvent, ModelReply, ToolDef, Usage};
use autoui_core::llm::openai::{self, StreamDecoder};
use autoui_core::mcp::sse::SseParser;
use autoui_core::settings::{ProviderKind, Settings};
use autoui_core::tool::ResultPart;
use common::fixture;
use common::transport::split;
use serde_json::{Value, json};

fn settings(base_url: &str, key: &str) -> Settings {
    Settings {
        provider: ProviderKind::OpenAi,
        model: "gpt-4.1-mini".to_owned(),
        base_url: base_url.to_owned(),
        api_key: key.to_owned(),
        ..Settings::default()
    }
}

fn tool() -> Vec<ToolDef> {
    vec![ToolDef {
        name: "sales_mcp_query_sales".to_owned(),
        description: "Sales for a quarter".to_owned(),
        input_schema: Arc::new(json!({ "type": "object", "properties": { "quarter": { "type": "string" } } })),
    }]
}

fn conversation() -> Vec<Message> {
    vec![
        Message::user_text("Q1 sales please"),
        Message {
            role: Role::Assistant,
            content: vec![
                ContentBlock::Text { text: "Fetching.".to_owned() },
                ContentBlock::ToolUse {
                    id: "call_1".to_owned(),
                    name: "sales_mcp_query_sales".to_owned(),
                    input: json!({ "quarter": "Q1" }),
                },
                ContentBlock::ToolUse {
                    id: "call_2".to_owned(),
                    name: "autoui_webmcp_list_recipes".to_owned(),
                    input: json!({}),
                },
            ],
        },
        Message {
            role: Role::User,
            content: vec![
                ContentBlock::ToolResult {
                    tool_use_id: "call_1".to_owned(),
                    content: vec![ResultPart::Text { text: "{\"revenue\":1204000}".to_owned() }],
                    is_error: false,
                },
                ContentBlock::ToolResult {
                    tool_use_id: "call_2".to_owned(),
                    content: vec![ResultPart::Text { text: "server unreachable".to_owned() }],
                    is_error: true,
                },
                ContentBlock::Text { text: "and make it a chart".to_owned() },
                ContentBlock::Image { media_type: "image/jpeg".to_owned(), data: "/9j/4AAQ".to_owned() },
            ],
        },
    ]
}

fn body_for(settings: &Settings) -> (String, Vec<(String, String)>, Value) {
    let messages = conversation();
    let tools = tool();
    let request =
        ChatRequest { system: "You build dashboards.", messages: &messages, tools: &tools, max_output_tokens: 1_000 };
    let http = openai::build_request(&request, settings).expect("built");
    let body = serde_json::from_str(http.body.as_deref().expect("body")).expect("JSON");
    (http.url, http.headers, body)
}

#[test]
fn openai_gets_a_bearer_key_and_the_chat_completions_endpoint() {
    let (url, headers, body) = body_for(&settings("https://api.openai.com/v1", "sk-proj-x"));
    assert_eq!(url, "https://api.openai.com/v1/chat/completions");
    assert!(headers.contains(&("authorization".to_owned(), "Bearer sk-proj-x".to_owned())));
    assert_eq!(body["model"], "gpt-4.1-mini");
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"], json!({ "include_usage": true }));
}

#[test]
fn a_local_server_needs_no_key_and_gets_no_authorization_header() {
    let (url, headers, _) = body_for(&settings("http://localhost:11434/v1/", ""));
    assert_eq!(url, "http://localhost:11434/v1/chat/completions");
    assert!(!headers.iter().any(|(name, _)| name.eq_ignore_ascii_case("authorization")));
}

#[test]
fn hosted_services_without_a_key_are_refused_before_sending() {
    let request = ChatRequest { system: "", messages: &[], tools: &[], max_output_tokens: 10 };
    let error = openai::build_request(&request, &settings("https://openrouter.ai/api/v1", "")).expect_err("no key");
    assert_eq!(error.to_string(), "no API key is set for OpenRouter: add one in settings");
}

#[test]
fn messages_translate_to_system_assistant_tool_calls_and_tool_messages_in_order() {
    let (_, _, body) = body_for(&settings("https://api.openai.com/v1", "k"));
    let messages = body["messages"].as_array().expect("messages");
    let roles: Vec<&str> = messages.iter().filter_map(|message| message["role"].as_str()).collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool", "tool", "user"]);
    assert_eq!(messages[0]["content"], "You build dashboards.");
    assert_eq!(
        messages[2]["tool_calls"][0],
        json!({ "id": "call_1", "type": "function", "function": { "name": "sales_mcp_query_sales", "arguments": "{\"quarter\":\"Q1\"}" } })
    );
    assert_eq!(messages[2]["content"], "Fetching.");
    assert_eq!(messages[3], json!({ "role": "tool", "tool_call_id": "call_1", "content": "{\"revenue\":1204000}" }));
    assert_eq!(messages[4]["content"], "Error: server unreachable", "errors are marked as such");
    assert_eq!(
        messages[5]["content"],
        json!([
            { "type": "text", "text": "and make it a chart" },
            { "type": "image_url", "image_url": { "url": "data:image/jpeg;base64,/9j/4AAQ" } }
        ])
    );
    assert_eq!(
        body["tools"][0],
        json!({ "type": "function", "function": { "name": "sales_mcp_query_sales", "description": "Sales for a quarter", "parameters": { "type": "object", "properties": { "quarter": { "type": "string" } } } } })
    );
}

#[test]
fn images_in_tool_results_become_a_note_since_tool_messages_carry_only_text() {
    let messages = vec![
        Message {
            role: Role::Assistant,
            content: vec![ContentBlock::ToolUse {
                id: "c".to_owned(),
                name: "x_mcp_shot".to_owned(),
                input: json!({}),
            }],
        },
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult {
                tool_use_id: "c".to_owned(),
                content: vec![ResultPart::Image { media_type: "image/png".to_owned(), data: "AAAA".to_owned() }],
                is_error: false,
            }],
        },
    ];
    let request = ChatRequest { system: "", messages: &messages, tools: &[], max_output_tokens: 10 };
    let body: Value = serde_json::from_str(&openai::request_body(&request, "m")).expect("JSON");
    assert_eq!(body["messages"][1]["content"], "[image omitted: this provider takes no images in tool results]");
    assert!(body.get("tools").is_none(), "no tools key when there are none");
}

fn decode(stream: &str, chunk: usize) -> (Vec<ModelEvent>, Result<ModelReply, LlmError>) {
    let mut parser = SseParser::new(1 << 20);
    let mut decoder = StreamDecoder::new("https://api.openai.com/v1", "call_gen");
    let mut events = Vec::new();
    for piece in split(stream.as_bytes(), chunk) {
        for event in parser.feed(&piece).expect("valid SSE") {
            if let Err(error) = decoder.feed(&event.data, &mut events) {
                return (events, Err(error));
            }
        }
    }
    (events, decoder.finish(100))
}

#[test]
fn parallel_tool_calls_streamed_as_argument_deltas_decode_whatever_the_cuts() {
    let stream = fixture("openai_tool_calls.sse");
    for chunk in [1, 3, 17, stream.len()] {
        let (events, reply) = decode(&stream, chunk);
        let reply = reply.expect("reply");
        assert_eq!(
            reply.content,
            vec![
                ContentBlock::ToolUse {
                    id: "call_Rk1aQ0mF3".to_owned(),
                    name: "sales_mcp_query_sales".to_owned(),
                    input: json!({ "quarter": "Q1" })
                },
                ContentBlock::ToolUse {
                    id: "call_Vb7pLq2x".to_owned(),
                    name: "autoui_webmcp_get_recipe".to_owned(),
                    input: json!({ "name": "stat-card" })
                },
            ],
            "chunk size {chunk}"
        );
        assert_eq!(reply.finish, FinishReason::ToolUse);
        let first: String = events
            .iter()
            .filter_map(|event| match event {
                ModelEvent::ToolInputDelta { id, delta } if id == "call_Rk1aQ0mF3" => Some(delta.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(first, "{\"quarter\": \"Q1\"}");
        assert_eq!(events.iter().filter(|event| matches!(event, ModelEvent::ToolUseStarted { .. })).count(), 2);
    }
}

#[test]
fn the_final_usage_chunk_separates_cached_prompt_tokens() {
    let (_, reply) = decode(&fixture("openai_tool_calls.sse"), 50);
    assert_eq!(
        reply.expect("reply").usage,
        Usage { input_tokens: 819, output_tokens: 52, cache_creation_input_tokens: 0, cache_read_input_tokens: 1_024 }
    );
}

#[test]
fn streamed_text_ends_with_stop() {
    let (events, reply) = decode(&fixture("openai_text.sse"), 6);
    let reply = reply.expect("reply");
    assert_eq!(reply.content, vec![ContentBlock::Text { text: "Your dashboard is ready.".to_owned() }]);
    assert_eq!(reply.finish, FinishReason::EndTurn);
    assert_eq!(
        events,
        vec![ModelEvent::TextDelta("Your dashboard".to_owned()), ModelEvent::TextDelta(" is ready.".to_owned())]
    );
}

#[test]
fn an_ollama_stream_with_a_whole_tool_call_in_one_chunk_decodes_too() {
    let (_, reply) = decode(&fixture("ollama_tool_call.sse"), 8);
    let reply = reply.expect("reply");
    assert_eq!(
        reply.content,
        vec![
            ContentBlock::Text { text: "Let me look.".to_owned() },
            ContentBlock::ToolUse {
                id: "call_x2mq9k1v".to_owned(),
                name: "autoui_webmcp_search_recipes".to_owned(),
                input: json!({ "query": "table" })
            },
        ]
    );
    assert_eq!(reply.usage.input_tokens, 612);
}

#[test]
fn calls_without_an_index_or_id_still_get_separate_ids() {
    let mut decoder = StreamDecoder::new("http://localhost:8080/v1", "call_gen");
    let mut events = Vec::new();
    for data in [
        r#"{"choices":[{"delta":{"tool_calls":[{"function":{"name":"a_mcp_x","arguments":"{}"}}]}}]}"#,
        r#"{"choices":[{"delta":{"tool_calls":[{"id":"real_2","function":{"name":"a_mcp_y","arguments":"{\"k\":1}"}}]},"finish_reason":"tool_calls"}]}"#,
        "[DONE]",
    ] {
        decoder.feed(data, &mut events).expect("decoded");
    }
    let reply = decoder.finish(0).expect("reply");
    let ids: Vec<&str> = reply
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::ToolUse { id, .. } => Some(id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(ids, ["call_gen_0", "real_2"]);
}

#[test]
fn a_stream_that_ends_without_finish_or_done_is_an_error() {
    let stream = fixture("openai_text.sse");
    let cut = &stream[..stream.find("\"finish_reason\":\"stop\"").expect("shape") - 120];
    let (_, reply) = decode(cut, 10);
    assert!(matches!(reply, Err(LlmError::Stream { .. })), "{reply:?}");
}

#[test]
fn a_cut_off_tool_call_is_reported_as_malformed() {
    let mut decoder = StreamDecoder::new("https://api.openai.com/v1", "g");
    let mut events = Vec::new();
    decoder
        .feed(r#"{"choices":[{"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"autoui_webmcp_widget_display","arguments":"{\"name\": \"data-"}}]}}]}"#, &mut events)
        .expect("decoded");
    decoder.feed(r#"{"choices":[{"delta":{},"finish_reason":"length"}]}"#, &mut events).expect("decoded");
    let reply = decoder.finish(0).expect("reply");
    assert_eq!(reply.finish, FinishReason::MaxTokens);
    assert_eq!(reply.malformed[0].raw, "{\"name\": \"data-");
}

#[test]
fn a_whole_json_completion_decodes_like_a_stream() {
    let mut decoder = StreamDecoder::new("http://localhost:1234/v1", "g");
    let mut events = Vec::new();
    decoder.feed(&fixture("openai_completion.json"), &mut events).expect("decoded");
    decoder.feed("[DONE]", &mut events).expect("decoded");
    let reply = decoder.finish(0).expect("reply");
    assert_eq!(
        reply.content,
        vec![ContentBlock::ToolUse {
            id: "call_abc123".to_owned(),
            name: "autoui_webmcp_list_recipes".to_owned(),
            input: json!({})
        }]
    );
}

#[test]
fn error_bodies_give_each_servers_own_message() {
    let openai_key = openai::parse_error("https://api.openai.com/v1", 401, &fixture("openai_error_401.json"), None);
    assert!(openai_key.to_string().starts_with("OpenAI answered 401: Incorrect API key provided"), "{openai_key}");
    let ollama = openai::parse_error("http://localhost:11434/v1", 404, &fixture("ollama_error_404.json"), None);
    assert_eq!(ollama.to_string(), "Ollama answered 404: model \"llama3.3\" not found, try pulling it first");
    let llamacpp = openai::parse_error("http://127.0.0.1:8080/v1", 400, &fixture("llamacpp_error_plain.json"), None);
    assert_eq!(
        llamacpp.to_string(),
        "the server at http://127.0.0.1:8080/v1 answered 400: the request exceeds the available context size, try increasing it"
    );
}

#[test]
fn insufficient_quota_reads_as_an_account_out_of_credit_not_a_rate_limit() {
    let body = r#"{"error": {"message": "You exceeded your current quota, please check your plan and billing details.", "type": "insufficient_quota", "param": null, "code": "insufficient_quota"}}"#;
    let error = openai::parse_error("https://api.openai.com/v1", 429, body, None);
    assert_eq!(
        error,
        LlmError::OutOfCredit {
            provider: "OpenAI".to_owned(),
            message: "You exceeded your current quota, please check your plan and billing details.".to_owned()
        }
    );
    let rate_limit = r#"{"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}}"#;
    let rate_limited = openai::parse_error("https://api.openai.com/v1", 429, rate_limit, None);
    assert!(rate_limited.is_retryable(), "{rate_limited:?}");

    let mut decoder = StreamDecoder::new("http://127.0.0.1:4000/v1", "g");
    let relayed = decoder
        .feed(r#"{"error":{"message":"quota exceeded","type":"insufficient_quota"}}"#, &mut Vec::new())
        .expect_err("error chunk");
    assert!(matches!(&relayed, LlmError::OutOfCredit { message, .. } if message == "quota exceeded"), "{relayed:?}");
    assert!(!relayed.is_retryable());
}

#[test]
fn an_error_chunk_inside_the_stream_keeps_its_status() {
    let mut decoder = StreamDecoder::new("https://openrouter.ai/api/v1", "g");
    let error = decoder
        .feed(r#"{"error":{"code":429,"message":"Rate limit exceeded: free-models-per-min"}}"#, &mut Vec::new())
        .expect_err("error chunk");
    assert_eq!(error.to_string(), "OpenRouter answered 429: Rate limit exceeded: free-models-per-min");
    assert!(error.is_retryable());
}
