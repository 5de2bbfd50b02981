//! Ollama's native API: the `/api/chat` body (tools, tool results named after their tool, arguments
//! as objects, `options.num_ctx` and `num_predict`), the NDJSON stream decoded however it is cut,
//! `num_ctx` taken from `/api/show`'s context length (asked once per model) or else the profile, and
//! a key never sent over plain http to another machine before the person agreed; and the context
//! length Ollama reports sizing the agent's run (request budget, result limit, iteration cap) for a
//! model the person gave no window.

mod common;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use autoui_core::agent::buffer::ResultBuffer;
use autoui_core::agent::event::AgentEvent;
use autoui_core::agent::run::RunSummary;
use autoui_core::agent::session::{AgentConfig, AgentDeps, AgentSession, UserTurn};
use autoui_core::agent::stop::StopReason;
use autoui_core::cancel::CancelToken;
use autoui_core::llm::http::HttpChatModel;
use autoui_core::llm::message::{ContentBlock, Message, Role};
use autoui_core::llm::model::{ChatModel, ChatRequest, FinishReason, LlmError, ModelEvent, ModelReply, ToolDef};
use autoui_core::llm::ollama::{self, LineBuffer, StreamDecoder};
use autoui_core::llm::profile::{ModelProfile, UNKNOWN_MODEL};
use autoui_core::ports::HttpRequest;
use autoui_core::settings::{PRESETS, ProviderKind, Settings};
use autoui_core::tool::{ResultPart, ToolResult};
use common::autoui::FakeAutoui;
use common::clock::FakeClock;
use common::mcp::{Behaviour, FakeMcp, spec};
use common::transport::{FakeTransport, Scripted, split};
use common::{Counter, fixture};
use futures::executor::block_on;
use serde_json::{Value, json};

fn settings() -> Settings {
    let mut settings = Settings { first_byte_timeout_s: 0, idle_timeout_s: 0, ..Settings::default() };
    settings.apply_preset(PRESETS.iter().find(|preset| preset.id == "ollama").expect("the Ollama preset"));
    settings
}

fn tools() -> Vec<ToolDef> {
    vec![ToolDef {
        name: "sales_mcp_query_sales".to_owned(),
        description: "Sales for a quarter".to_owned(),
        input_schema: Arc::new(json!({ "type": "object", "properties": { "quarter": { "type": "string" } } })),
    }]
}

fn conversation() -> Vec<Message> {
    vec![
        Message {
            role: Role::User,
            content: vec![
                ContentBlock::Text { text: "Q1 sales please".to_owned() },
                ContentBlock::Image { media_type: "image/png".to_owned(), data: "iVBORw0KGgo=".to_owned() },
            ],
        },
        Message {
            role: Role::Assistant,
            content: vec![
                ContentBlock::Text { text: "Fetching.".to_owned() },
                ContentBlock::ToolUse {
                    id: "call_1".to_owned(),
                    name: "sales_mcp_query_sales".to_owned(),
                    input: json!({ "quarter": "Q1" }),
                },
                ContentBlock::ToolUse { id: "call_2".to_owned(), name: "autoui_webmcp_list_recipes".to_owned(), input: json!({}) },
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
                    content: vec![ResultPart::Text { text: "no such tool".to_owned() }],
                    is_error: true,
                },
            ],
        },
    ]
}

fn body(num_ctx: u32) -> Value {
    let messages = conversation();
    let tools = tools();
    let request = ChatRequest { system: "You build dashboards.", messages: &messages, tools: &tools, max_output_tokens: 4_096 };
    serde_json::from_str(&ollama::request_body(&request, "qwen2.5:7b", num_ctx)).expect("JSON")
}

#[test]
fn the_chat_body_names_each_tool_result_and_sets_the_context_and_output_sizes() {
    let body = body(32_768);
    assert_eq!(body["stream"], true);
    assert_eq!(body["options"], json!({ "num_ctx": 32_768, "num_predict": 4_096 }));
    assert_eq!(body["tools"][0], json!({ "type": "function", "function": {
        "name": "sales_mcp_query_sales", "description": "Sales for a quarter",
        "parameters": { "type": "object", "properties": { "quarter": { "type": "string" } } } } }));
    let messages = body["messages"].as_array().expect("messages");
    assert_eq!(messages[0], json!({ "role": "system", "content": "You build dashboards." }));
    assert_eq!(messages[1], json!({ "role": "user", "content": "Q1 sales please", "images": ["iVBORw0KGgo="] }));
    assert_eq!(messages[2]["content"], "Fetching.");
    assert_eq!(messages[2]["tool_calls"][0], json!({ "function": { "name": "sales_mcp_query_sales", "arguments": { "quarter": "Q1" } } }));
    assert_eq!(messages[3], json!({ "role": "tool", "content": "{\"revenue\":1204000}", "tool_name": "sales_mcp_query_sales" }));
    assert_eq!(messages[4], json!({ "role": "tool", "content": "Error: no such tool", "tool_name": "autoui_webmcp_list_recipes" }));
}

#[test]
fn the_endpoints_sit_under_the_servers_root_whatever_path_was_typed() {
    for base in ["http://box:11434", "http://box:11434/", "http://box:11434/v1", "http://box:11434/api", "http://box:11434/api/chat"] {
        assert_eq!(ollama::chat_endpoint(base), "http://box:11434/api/chat", "{base}");
        assert_eq!(ollama::show_endpoint(base), "http://box:11434/api/show", "{base}");
    }
    assert_eq!(ollama::chat_endpoint(""), "http://localhost:11434/api/chat");
}

#[test]
fn the_context_length_is_read_from_the_models_architecture() {
    assert_eq!(ollama::context_length(&fixture("ollama_show.json")), Some(32_768));
    let unnamed = r#"{"model_info":{"llama.context_length":131072}}"#;
    assert_eq!(ollama::context_length(unnamed), Some(131_072), "any *.context_length without an architecture");
    assert_eq!(ollama::context_length(r#"{"details":{}}"#), None);
    assert_eq!(ollama::context_length("not json"), None);
}

fn decode(stream: &str, chunk: usize) -> (Vec<ModelEvent>, Result<ModelReply, LlmError>) {
    let mut lines = LineBuffer::new(1 << 20);
    let mut decoder = StreamDecoder::new("call_t");
    let mut events = Vec::new();
    for piece in split(stream.as_bytes(), chunk) {
        for line in lines.feed(&piece).expect("short lines") {
            if let Err(error) = decoder.feed(&line, &mut events) {
                return (events, Err(error));
            }
        }
    }
    if let Some(rest) = lines.finish()
        && let Err(error) = decoder.feed(&rest, &mut events)
    {
        return (events, Err(error));
    }
    (events, decoder.finish(10))
}

#[test]
fn a_recorded_stream_with_two_tool_calls_decodes_the_same_however_it_is_cut() {
    let stream = fixture("ollama_chat_tool_calls.ndjson");
    let (events, reply) = decode(&stream, 1);
    assert_eq!(decode(&stream, 4_096), (events.clone(), reply.clone()));
    let reply = reply.expect("reply");
    assert_eq!(reply.finish, FinishReason::ToolUse);
    assert_eq!(reply.usage.input_tokens, 5_120);
    assert_eq!(reply.usage.output_tokens, 48);
    assert_eq!(
        reply.content,
        vec![
            ContentBlock::Text { text: "Reading the data.".to_owned() },
            ContentBlock::ToolUse { id: "call_t_0".to_owned(), name: "sales_mcp_query_sales".to_owned(), input: json!({ "quarter": "Q1" }) },
            ContentBlock::ToolUse { id: "call_t_1".to_owned(), name: "autoui_webmcp_list_recipes".to_owned(), input: json!({}) },
        ]
    );
    assert!(events.contains(&ModelEvent::ToolInputDelta { id: "call_t_0".to_owned(), delta: "{\"quarter\":\"Q1\"}".to_owned() }));
}

#[test]
fn a_reply_cut_by_num_predict_is_reported_as_cut_and_a_broken_stream_as_incomplete() {
    let cut = "{\"message\":{\"role\":\"assistant\",\"content\":\"The dash\"},\"done\":false}\n\
               {\"message\":{\"role\":\"assistant\",\"content\":\"\"},\"done\":true,\"done_reason\":\"length\"}";
    assert_eq!(decode(cut, 7).1.expect("reply").finish, FinishReason::MaxTokens);
    let broken = "{\"message\":{\"role\":\"assistant\",\"content\":\"The dash\"},\"done\":false}\n";
    let error = decode(broken, 7).1.expect_err("no done line");
    assert!(error.to_string().contains("ended before the reply was complete"), "{error}");
    let failed = "{\"error\":\"model runner has unexpectedly stopped\"}\n";
    let error = decode(failed, 3).1.expect_err("an error line");
    assert!(error.is_retryable(), "a server error: {error:?}");
    assert!(error.to_string().contains("runner has unexpectedly stopped"), "{error}");
    let string_arguments = "{\"message\":{\"role\":\"assistant\",\"content\":\"\",\"tool_calls\":[{\"function\":{\"name\":\"t\",\"arguments\":\"{\\\"a\\\":\"}}]},\"done\":true}";
    let reply = decode(string_arguments, 5).1.expect("reply");
    assert_eq!(reply.malformed.len(), 1, "arguments that do not parse are never run");
}

#[test]
fn an_error_answer_reads_as_ollamas_own_words() {
    let error = ollama::parse_error(404, r#"{"error":"model \"qwen9\" not found, try pulling it first"}"#, None);
    assert_eq!(error.to_string(), "Ollama answered 404: model \"qwen9\" not found, try pulling it first");
}

fn ndjson(body: &str) -> Scripted {
    Scripted::Respond {
        status: 200,
        headers: vec![("content-type".to_owned(), "application/x-ndjson".to_owned())],
        chunks: split(body.as_bytes(), 3),
    }
}

fn complete(model: &HttpChatModel, settings: &Settings) -> Result<ModelReply, LlmError> {
    let messages = vec![Message::user_text("hello")];
    let request = ChatRequest { system: "sys", messages: &messages, tools: &[], max_output_tokens: 1_000 };
    let events = RefCell::new(Vec::new());
    let record = |event: ModelEvent| events.borrow_mut().push(event);
    block_on(model.complete(request, settings, CancelToken::new(), &record))
}

fn chat_model(script: Vec<Scripted>) -> (HttpChatModel, Rc<FakeTransport>) {
    let transport = Rc::new(FakeTransport::new(script));
    let model = HttpChatModel::new(transport.clone(), Rc::new(FakeClock::new()), Rc::new(Counter::default()));
    (model, transport)
}

fn sent_num_ctx(transport: &FakeTransport, index: usize) -> Value {
    let request = &transport.requests()[index];
    assert!(request.url.ends_with("/api/chat"), "{}", request.url);
    serde_json::from_str::<Value>(request.body.as_deref().unwrap_or_default()).expect("JSON")["options"]["num_ctx"].clone()
}

#[test]
fn num_ctx_comes_from_api_show_which_is_asked_once_per_model() {
    let stream = fixture("ollama_chat_tool_calls.ndjson");
    let show = Scripted::status(200, &[("content-type", "application/json")], &fixture("ollama_show.json"));
    let (model, transport) = chat_model(vec![show, ndjson(&stream), ndjson(&stream)]);
    let settings = Settings { model: "my-finetune:3b".to_owned(), ..settings() };
    complete(&model, &settings).expect("first reply");
    complete(&model, &settings).expect("second reply");
    let requests = transport.requests();
    assert_eq!(requests.len(), 3, "one /api/show, then two chats");
    assert_eq!(requests[0].url, "http://localhost:11434/api/show");
    assert_eq!(requests[0].body.as_deref(), Some(r#"{"model":"my-finetune:3b"}"#));
    // The model is unknown to the profile table (8,192 tokens): the server's 32,768 wins.
    assert_eq!(sent_num_ctx(&transport, 1), 32_768);
    assert_eq!(sent_num_ctx(&transport, 2), 32_768);
    assert!(requests[1].headers.iter().all(|(name, _)| name != "authorization"), "no key, no header");
}

#[test]
fn without_api_show_the_profile_sizes_the_context_and_a_window_the_person_set_caps_it() {
    let stream = fixture("ollama_chat_tool_calls.ndjson");
    let missing = Scripted::status(404, &[], "404 page not found");
    let (model, transport) = chat_model(vec![missing, ndjson(&stream)]);
    complete(&model, &settings()).expect("reply");
    assert_eq!(sent_num_ctx(&transport, 1), 32_768, "qwen2.5's built-in profile");

    let show = Scripted::status(200, &[], &fixture("ollama_show.json"));
    let (model, transport) = chat_model(vec![show, ndjson(&stream)]);
    let mut settings = settings();
    settings.set_profile(|profile: &mut ModelProfile| profile.context_tokens = 16_384);
    complete(&model, &settings).expect("reply");
    assert_eq!(sent_num_ctx(&transport, 1), 16_384, "the person's window, below the model's 32,768");
}

#[test]
fn a_key_is_not_sent_over_plain_http_to_another_machine_until_the_person_agrees() {
    let stream = fixture("ollama_chat_tool_calls.ndjson");
    let show = Scripted::status(200, &[], &fixture("ollama_show.json"));
    let (model, transport) = chat_model(vec![show, ndjson(&stream)]);
    let mut settings = Settings { provider: ProviderKind::Ollama, first_byte_timeout_s: 0, idle_timeout_s: 0, ..Settings::default() };
    settings.change_base_url("http://gpu-box.lan:11434");
    settings.set_key("proxy-secret");
    let error = complete(&model, &settings).expect_err("refused before sending");
    assert_eq!(error, LlmError::CleartextKey { host: "gpu-box.lan".to_owned() });
    assert!(error.to_string().contains("unencrypted (plain http) to gpu-box.lan"), "{error}");
    assert!(transport.requests().is_empty(), "no request was made");

    settings.allow_cleartext_key();
    complete(&model, &settings).expect("sent once agreed");
    let chat = &transport.requests()[1];
    assert!(chat.headers.contains(&("authorization".to_owned(), "Bearer proxy-secret".to_owned())));
}

/// About 50 KB of order rows.
fn orders_page() -> String {
    let rows: Vec<Value> =
        (0..420).map(|n| json!({ "order": format!("SO-{n:05}"), "region": "North", "amount": n * 37 % 1_000 })).collect();
    Value::Array(rows).to_string()
}

fn line(message: Value, done: bool) -> String {
    let mut line = json!({ "model": "my-finetune:3b", "message": message, "done": done });
    if done {
        line["done_reason"] = json!("stop");
    }
    line.to_string() + "\n"
}

/// The two chat replies of [`page_turn`]: read page 1, then answer.
fn reads_then_answers() -> (Scripted, Scripted) {
    let call = json!({ "role": "assistant", "content": "",
        "tool_calls": [{ "function": { "name": "orders_mcp_fetch_page", "arguments": { "page": 1 } } }] });
    let reads = line(call, false) + &line(json!({ "role": "assistant", "content": "" }), true);
    let answers = line(json!({ "role": "assistant", "content": "Read." }), false)
        + &line(json!({ "role": "assistant", "content": "" }), true);
    (ndjson(&reads), ndjson(&answers))
}

fn show_answer() -> Scripted {
    Scripted::status(200, &[("content-type", "application/json")], &fixture("ollama_show.json"))
}

/// One turn of the agent over Ollama's wire (`script`: what the server answers, in order): the
/// model reads a 50 KB page, then answers. Returns the run's summary and every request sent.
fn page_turn(script: Vec<Scripted>, settings: &Settings) -> (RunSummary, Vec<HttpRequest>) {
    let (model, transport) = chat_model(script);
    let results = Rc::new(ResultBuffer::new());
    let mcp = FakeMcp::new()
        .server("orders", vec![spec("fetch_page", "One page of orders")])
        .on("orders", "fetch_page", Behaviour::Reply(ToolResult::text(orders_page())));
    let deps = AgentDeps {
        model: Rc::new(model),
        local: vec![Rc::new(FakeAutoui::new(results.clone()))],
        remote: Rc::new(mcp),
        clock: Rc::new(FakeClock::new()),
        results,
    };
    let mut session = AgentSession::new(deps, AgentConfig::default());
    let events: RefCell<Vec<AgentEvent>> = RefCell::new(Vec::new());
    let summary = block_on(session.run_sized(UserTurn::text("read the orders"), settings, CancelToken::new(), &events));
    (summary, transport.requests())
}

/// Characters of the page the model was shown in the second chat (the JSON before the truncation marker).
fn page_chars_shown(requests: &[HttpRequest]) -> usize {
    let chat = requests.iter().filter(|request| request.url.ends_with("/api/chat")).nth(1).expect("two chats");
    let body: Value = serde_json::from_str(chat.body.as_deref().unwrap_or_default()).expect("JSON");
    let result = body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|message| message["role"] == "tool")
        .and_then(|message| message["content"].as_str())
        .expect("the tool result is sent")
        .to_owned();
    let data = result.lines().find(|line| line.starts_with('[') && line.contains("SO-")).expect("the rows");
    data.chars().count()
}

#[test]
fn the_context_length_ollama_reports_sizes_the_run_of_a_model_the_person_gave_none() {
    let settings = Settings { model: "my-finetune:3b".to_owned(), ..settings() };
    let (reads, answers) = reads_then_answers();
    let (summary, requests) = page_turn(vec![show_answer(), reads, answers], &settings);
    assert_eq!(requests.len(), 3, "one /api/show, then two chats");
    // 32,768 tokens: a 61,440-byte request budget, results of up to 12,288 characters.
    let limits = ModelProfile { context_tokens: 32_768, ..UNKNOWN_MODEL }.derived();
    assert_eq!((limits.request_budget, limits.result_limit), (61_440, 12_288));
    let shown = page_chars_shown(&requests);
    assert!(shown > 11_000 && shown <= limits.result_limit, "{shown} characters of the page shown");
    assert_eq!(sent_num_ctx_of(&requests[2]), 32_768);
    let reported = summary.reported_context.expect("the run says what sized it");
    assert_eq!((reported.model.as_str(), reported.tokens), ("my-finetune:3b", 32_768));

    // A server that reports nothing (asked again before each chat) leaves the unknown model's limits.
    let missing = || Scripted::status(404, &[], "404 page not found");
    let (reads, answers) = reads_then_answers();
    let (summary, requests) = page_turn(vec![missing(), missing(), reads, missing(), answers], &settings);
    assert_eq!(summary.reported_context, None);
    let shown = page_chars_shown(&requests);
    assert!(shown <= UNKNOWN_MODEL.derived().result_limit && shown > 2_000, "{shown} characters of the page shown");

    // A window the person set wins over the server's.
    let mut custom = settings.clone();
    custom.set_profile(|profile: &mut ModelProfile| profile.context_tokens = 16_384);
    let (reads, answers) = reads_then_answers();
    let (_, requests) = page_turn(vec![show_answer(), reads, answers], &custom);
    let limit = custom.derived_limits().expect("limits").result_limit;
    assert_eq!(limit, 5_734);
    let shown = page_chars_shown(&requests);
    assert!(shown > 5_000 && shown <= limit, "{shown} characters of the page shown");
}

#[test]
fn api_show_is_not_asked_for_the_run_size_before_the_person_agreed_to_send_the_key_in_the_clear() {
    let mut settings = Settings { provider: ProviderKind::Ollama, first_byte_timeout_s: 0, idle_timeout_s: 0, ..Settings::default() };
    settings.model = "my-finetune:3b".to_owned();
    settings.change_base_url("http://gpu-box.lan:11434");
    settings.set_key("proxy-secret");
    let (reads, answers) = reads_then_answers();
    let (summary, requests) = page_turn(vec![show_answer(), reads, answers], &settings);
    assert!(requests.is_empty(), "nothing sent: {requests:?}");
    assert!(matches!(summary.reason, StopReason::ProviderFailed { .. }), "{:?}", summary.reason);
}

fn sent_num_ctx_of(request: &HttpRequest) -> Value {
    serde_json::from_str::<Value>(request.body.as_deref().unwrap_or_default()).expect("JSON")["options"]["num_ctx"].clone()
}
