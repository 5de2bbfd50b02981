//! Why the model stopped, as the person sees it: a reply cut by the output limit stops with an offer
//! to continue; a tool call cut off mid-JSON never runs, its error names the limit, and the next
//! request asks for more output once (up to what the model allows); a refusal and a content filter
//! are reported as such; a paused turn goes on by itself; a reply with nothing in it says so; a
//! failure in the middle of a reply keeps what streamed. Driven through the real HTTP model and wire
//! decoders over a scripted transport.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::agent::buffer::ResultBuffer;
use autoui_core::agent::event::AgentEvent;
use autoui_core::agent::run::RunSummary;
use autoui_core::agent::session::{AgentConfig, AgentDeps, AgentSession, UserTurn};
use autoui_core::agent::stop::StopReason;
use autoui_core::cancel::CancelToken;
use autoui_core::llm::http::HttpChatModel;
use autoui_core::llm::message::{ContentBlock, Role};
use autoui_core::ports::HttpRequest;
use autoui_core::settings::{ProviderKind, Settings, TokenParam};
use autoui_core::tool::LocalServer;
use common::autoui::FakeAutoui;
use common::clock::FakeClock;
use common::mcp::FakeMcp;
use common::transport::{FakeTransport, Scripted};
use common::{Counter, fixture};
use futures::executor::block_on;
use serde_json::Value;

struct Run {
    summary: RunSummary,
    requests: Vec<HttpRequest>,
    autoui: Rc<FakeAutoui>,
    session: AgentSession,
}

fn run(settings: &Settings, fixtures: &[&str]) -> Run {
    run_streams(settings, fixtures.iter().map(|name| fixture(name)).collect())
}

/// A run over event streams given as text.
fn run_streams(settings: &Settings, streams: Vec<String>) -> Run {
    let transport = Rc::new(FakeTransport::new(streams.iter().map(|body| Scripted::sse(body, 11))));
    let clock = FakeClock::new();
    let results = Rc::new(ResultBuffer::new());
    let autoui = Rc::new(FakeAutoui::new(results.clone()));
    let local: Vec<Rc<dyn LocalServer>> = vec![autoui.clone()];
    let deps = AgentDeps {
        model: Rc::new(HttpChatModel::new(transport.clone(), Rc::new(clock.clone()), Rc::new(Counter::default()))),
        local,
        remote: Rc::new(FakeMcp::new()),
        clock: Rc::new(clock),
        results,
    };
    let mut session = AgentSession::new(deps, AgentConfig::default());
    let events = RefCell::new(Vec::<AgentEvent>::new());
    let summary = block_on(session.run(UserTurn::text("a dashboard"), settings, CancelToken::new(), &events));
    Run { summary, requests: transport.requests(), autoui, session }
}

fn anthropic(model: &str) -> Settings {
    Settings { api_key: "sk-ant-test".to_owned(), model: model.to_owned(), ..Settings::default() }
}

fn openai(base_url: &str) -> Settings {
    Settings {
        provider: ProviderKind::OpenAi,
        base_url: base_url.to_owned(),
        model: "gpt-4.1-mini".to_owned(),
        api_key: "sk-test".to_owned(),
        ..Settings::default()
    }
}

fn body(request: &HttpRequest) -> Value {
    serde_json::from_str(request.body.as_deref().expect("body")).expect("JSON")
}

fn first_result_text(request: &HttpRequest) -> String {
    let body = body(request);
    let messages = body["messages"].as_array().expect("messages").clone();
    messages
        .iter()
        .flat_map(|message| message["content"].as_array().cloned().unwrap_or_default())
        .find(|block| block["type"] == "tool_result")
        .and_then(|block| block["content"][0]["text"].as_str().map(str::to_owned))
        .or_else(|| {
            messages.iter().find(|message| message["role"] == "tool").and_then(|m| m["content"].as_str().map(str::to_owned))
        })
        .expect("a tool result")
}

#[test]
fn a_reply_cut_by_the_output_limit_stops_with_an_offer_to_continue() {
    let run = run(&anthropic("claude-sonnet-4-5"), &["anthropic_max_tokens_text.sse"]);
    assert_eq!(run.summary.reason, StopReason::OutputCut { limit: 8_192 });
    assert!(run.summary.reason.describe().contains("Press Continue"), "{}", run.summary.reason.describe());
    assert_eq!(body(&run.requests[0])["max_tokens"], 8_192, "the profile's output limit is asked for");
    let kept = run.session.messages().last().expect("the partial reply");
    assert!(matches!(&kept.content[..], [ContentBlock::Text { text }] if text.ends_with("North sold")));
}

#[test]
fn a_tool_call_cut_mid_json_never_runs_and_the_next_request_asks_for_more_output_once() {
    let run = run(&anthropic("claude-sonnet-4-5"), &["anthropic_max_tokens.sse", "anthropic_text.sse"]);
    assert_eq!(run.summary.reason, StopReason::Completed);
    assert!(run.autoui.received.borrow().is_empty(), "the cut-off call never reached the server");
    let error = first_result_text(&run.requests[1]);
    assert!(error.contains("cut off by the output token limit (8192 tokens)"), "{error}");
    assert!(error.contains("your next reply may be up to 16384 tokens long"), "{error}");
    assert_eq!(body(&run.requests[1])["max_tokens"], 16_384, "doubled, within the model's 64,000");
}

#[test]
fn a_model_already_at_its_ceiling_is_not_promised_more_output() {
    let run = run(&anthropic("claude-3-5-sonnet-latest"), &["anthropic_max_tokens.sse", "anthropic_text.sse"]);
    let error = first_result_text(&run.requests[1]);
    assert!(error.contains("(8192 tokens)") && !error.contains("next reply"), "{error}");
    assert_eq!(body(&run.requests[1])["max_tokens"], 8_192);
}

#[test]
fn an_openai_reply_cut_by_length_in_a_tool_call_is_an_error_for_the_model() {
    let run = run(&openai("https://api.openai.com/v1"), &["openai_length_tool_call.sse", "openai_text.sse"]);
    assert_eq!(run.summary.reason, StopReason::Completed);
    assert!(run.autoui.received.borrow().is_empty());
    let error = first_result_text(&run.requests[1]);
    assert!(error.contains("cut off by the output token limit"), "{error}");
    assert_eq!(body(&run.requests[1])["max_completion_tokens"], 16_384);
}

#[test]
fn a_refusal_and_a_content_filter_are_reported_as_such() {
    let refused = run(&anthropic("claude-sonnet-4-5"), &["anthropic_refusal.sse"]);
    assert_eq!(refused.summary.reason, StopReason::Refused);
    assert!(refused.summary.reason.describe().contains("declined"));
    let filtered = run(&openai("https://api.openai.com/v1"), &["openai_content_filter.sse"]);
    assert_eq!(filtered.summary.reason, StopReason::Filtered);
    assert!(filtered.summary.reason.describe().contains("content filter"));
}

#[test]
fn a_paused_turn_is_continued_with_the_reply_so_far() {
    let run = run(&anthropic("claude-sonnet-4-5"), &["anthropic_pause_turn.sse", "anthropic_text.sse"]);
    assert_eq!(run.summary.reason, StopReason::Completed);
    assert_eq!(run.requests.len(), 2, "the paused turn was sent again");
    let second = body(&run.requests[1]);
    let last = second["messages"].as_array().and_then(|messages| messages.last()).expect("a message").clone();
    assert_eq!(last["role"], "assistant", "the model resumes its own reply");
    assert_eq!(last["content"][0]["text"], "Looking at the data first.");
}

#[test]
fn openai_compatible_requests_carry_the_output_limit_in_the_field_the_endpoint_wants() {
    let hosted = run(&openai("https://api.openai.com/v1"), &["openai_text.sse"]);
    let body_hosted = body(&hosted.requests[0]);
    assert_eq!(body_hosted["max_completion_tokens"], 8_192);
    assert!(body_hosted.get("max_tokens").is_none());
    let local = run(&openai("http://localhost:11434/v1"), &["openai_text.sse"]);
    assert_eq!(body(&local.requests[0])["max_tokens"], 8_192);
    let chosen = Settings { token_param: TokenParam::MaxCompletionTokens, ..openai("http://localhost:8000/v1") };
    let mut custom = chosen.clone();
    custom.set_profile(|profile| profile.output_tokens = 3_000);
    let forced = run(&custom, &["openai_text.sse"]);
    assert_eq!(body(&forced.requests[0])["max_completion_tokens"], 3_000, "the person's field and limit");
}

/// Anthropic events, each `(type, data)`, as the stream carries them.
fn anthropic_stream(events: &[(&str, &str)]) -> String {
    events.iter().map(|(kind, data)| format!("event: {kind}\ndata: {data}\n\n")).collect()
}

const MESSAGE_START: &str = r#"{"type":"message_start","message":{"id":"msg_01","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5-20250929","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":900,"output_tokens":1}}}"#;

#[test]
fn an_anthropic_reply_with_no_content_after_a_tool_result_ends_with_a_note() {
    let empty = anthropic_stream(&[
        ("message_start", MESSAGE_START),
        ("message_delta", r#"{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":2}}"#),
        ("message_stop", r#"{"type":"message_stop"}"#),
    ]);
    let run = run_streams(&anthropic("claude-sonnet-4-5"), vec![fixture("anthropic_tool_use.sse"), empty]);
    assert_eq!(run.summary.reason, StopReason::EmptyReply);
    assert!(run.summary.reason.describe().contains("without saying anything"), "{}", run.summary.reason.describe());
    let messages = run.session.messages();
    assert_eq!(messages.len(), 3, "the person's message, the call, its result: no empty reply");
    assert!(matches!(messages[2].content[0], ContentBlock::ToolResult { .. }));
}

#[test]
fn an_openai_reply_that_stops_with_no_content_ends_with_a_note() {
    let chunk = |delta: &str, finish: &str| {
        format!(
            r#"data: {{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1754550010,"model":"gpt-4.1-mini","choices":[{{"index":0,"delta":{delta},"finish_reason":{finish}}}]}}"#
        ) + "\n\n"
    };
    let empty = chunk(r#"{"role":"assistant","content":""}"#, "null") + &chunk("{}", r#""stop""#) + "data: [DONE]\n\n";
    let run = run_streams(&openai("https://api.openai.com/v1"), vec![empty]);
    assert_eq!(run.summary.reason, StopReason::EmptyReply);
    assert_eq!(run.session.messages().len(), 1, "only the person's message");
}

#[test]
fn an_overloaded_error_in_the_middle_of_a_reply_keeps_the_text_that_streamed() {
    let cut = anthropic_stream(&[
        ("message_start", MESSAGE_START),
        ("content_block_start", r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#),
        ("content_block_delta", r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Here is the "}}"#),
        ("content_block_delta", r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"first part"}}"#),
        ("error", r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#),
    ]);
    let run = run_streams(&anthropic("claude-sonnet-4-5"), vec![cut]);
    let StopReason::ProviderFailed { message, .. } = &run.summary.reason else { panic!("{:?}", run.summary.reason) };
    assert!(message.contains("Overloaded"), "{message}");
    assert_eq!(run.requests.len(), 1, "text was shown, so the request is not repeated");
    let kept = run.session.messages().last().expect("the partial reply");
    assert_eq!(kept.role, Role::Assistant);
    assert_eq!(kept.content, vec![ContentBlock::Text { text: "Here is the first part".to_owned() }]);
}
