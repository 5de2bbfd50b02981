//! The HTTP chat model over the transport port: streams decoded as they arrive, transient failures
//! (429, 5xx, 529) retried with backoff honouring `retry-after` at most three times, other failures
//! (an account out of quota among them, even as a 429) surfaced with the provider's message, and
//! Stop aborting the request in flight.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::llm::http::HttpChatModel;
use autoui_core::llm::message::{ContentBlock, Message};
use autoui_core::llm::model::{ChatModel, ChatRequest, LlmError, ModelEvent, ModelReply};
use autoui_core::llm::retry::RetryPolicy;
use autoui_core::settings::{ProviderKind, Settings};
use common::clock::FakeClock;
use common::transport::{FakeTransport, Scripted};
use common::{Counter, fixture, yield_now};
use futures::executor::block_on;

struct Setup {
    model: HttpChatModel,
    transport: Rc<FakeTransport>,
    clock: FakeClock,
}

fn setup(script: impl IntoIterator<Item = Scripted>) -> Setup {
    let transport = Rc::new(FakeTransport::new(script));
    let clock = FakeClock::new();
    let model = HttpChatModel::new(transport.clone(), Rc::new(clock.clone()), Rc::new(Counter::default()));
    Setup { model, transport, clock }
}

/// Without the first-byte and idle limits, whose timers would show among the backoff sleeps these
/// tests count (`llm_timeouts.rs` tests the limits).
fn untimed() -> Settings {
    Settings { first_byte_timeout_s: 0, idle_timeout_s: 0, ..Settings::default() }
}

fn anthropic() -> Settings {
    Settings { api_key: "sk-ant-test".to_owned(), ..untimed() }
}

fn ollama() -> Settings {
    Settings {
        provider: ProviderKind::OpenAi,
        base_url: "http://localhost:11434/v1".to_owned(),
        model: "qwen3:4b".to_owned(),
        ..untimed()
    }
}

fn openai() -> Settings {
    Settings {
        provider: ProviderKind::OpenAi,
        base_url: "https://api.openai.com/v1".to_owned(),
        model: "gpt-4.1-mini".to_owned(),
        api_key: "sk-test".to_owned(),
        ..untimed()
    }
}

/// OpenAI's answer to a key whose account has no credit left.
const INSUFFICIENT_QUOTA: &str = r#"{"error": {"message": "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.", "type": "insufficient_quota", "param": null, "code": "insufficient_quota"}}"#;

fn complete(
    setup: &Setup,
    settings: &Settings,
    cancel: CancelToken,
) -> (Vec<ModelEvent>, Result<ModelReply, LlmError>) {
    let events = RefCell::new(Vec::new());
    let messages = vec![Message::user_text("hello")];
    let request = ChatRequest { system: "sys", messages: &messages, tools: &[], max_output_tokens: 100 };
    let record = |event: ModelEvent| events.borrow_mut().push(event);
    let reply = block_on(setup.model.complete(request, settings, cancel, &record));
    (events.into_inner(), reply)
}

fn retries(events: &[ModelEvent]) -> Vec<(u32, u32)> {
    events
        .iter()
        .filter_map(|event| match event {
            ModelEvent::RetryScheduled { attempt, delay_ms, .. } => Some((*attempt, *delay_ms)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_stream_cut_into_single_bytes_decodes_to_the_full_reply() {
    let setup = setup([Scripted::sse(&fixture("anthropic_tool_use.sse"), 1)]);
    let (events, reply) = complete(&setup, &anthropic(), CancelToken::new());
    let reply = reply.expect("reply");
    assert_eq!(reply.content.len(), 2);
    assert!(events.iter().any(|event| matches!(event, ModelEvent::ToolUseStarted { .. })));
    let sent = setup.transport.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(reply.request_bytes, sent[0].body.as_ref().map_or(0, String::len));
}

#[test]
fn a_rate_limit_is_retried_after_the_time_the_server_asks_for() {
    let setup = setup([
        Scripted::status(429, &[("retry-after", "7")], &fixture("anthropic_error_429.json")),
        Scripted::sse(&fixture("anthropic_text.sse"), 32),
    ]);
    let (events, reply) = complete(&setup, &anthropic(), CancelToken::new());
    assert!(reply.is_ok());
    assert_eq!(retries(&events), [(1, 7_000)]);
    assert_eq!(setup.clock.slept(), [7_000]);
    assert_eq!(setup.transport.requests().len(), 2);
    let reason = events
        .iter()
        .find_map(|event| match event {
            ModelEvent::RetryScheduled { reason, .. } => Some(reason.clone()),
            _ => None,
        })
        .expect("a retry");
    assert!(reason.contains("429") && reason.contains("rate limit"), "{reason}");
}

#[test]
fn overload_is_retried_three_times_with_growing_backoff_then_reported() {
    let overloaded = || Scripted::status(529, &[], &fixture("anthropic_error_529.json"));
    let setup = setup([
        overloaded(),
        overloaded(),
        overloaded(),
        overloaded(),
        Scripted::sse(&fixture("anthropic_text.sse"), 8),
    ]);
    let (events, reply) = complete(&setup, &anthropic(), CancelToken::new());
    assert_eq!(reply.expect_err("gave up").to_string(), "Anthropic answered 529: Overloaded");
    let delays: Vec<u32> = retries(&events).into_iter().map(|(_, delay)| delay).collect();
    assert_eq!(delays.len(), 3);
    assert!(delays[0] >= 500 && delays[0] <= 1_000, "{delays:?}");
    assert!(delays[1] >= 1_000 && delays[1] <= 2_000, "{delays:?}");
    assert!(delays[2] >= 2_000 && delays[2] <= 4_000, "{delays:?}");
    assert_eq!(setup.transport.requests().len(), 4, "one attempt and three retries");
}

#[test]
fn server_errors_are_retried_but_client_errors_are_not() {
    let setup =
        setup([Scripted::status(503, &[], "upstream connect error"), Scripted::sse(&fixture("anthropic_text.sse"), 8)]);
    assert!(complete(&setup, &anthropic(), CancelToken::new()).1.is_ok());

    let rejected = self::setup([Scripted::status(401, &[], &fixture("anthropic_error_401.json"))]);
    let (events, reply) = complete(&rejected, &anthropic(), CancelToken::new());
    assert_eq!(reply.expect_err("bad key").to_string(), "Anthropic answered 401: invalid x-api-key");
    assert!(retries(&events).is_empty());
    assert_eq!(rejected.transport.requests().len(), 1);
}

#[test]
fn an_overload_error_inside_a_stream_is_retried_when_nothing_was_shown_yet() {
    let setup = setup([
        Scripted::sse(&fixture("anthropic_overloaded.sse"), 16),
        Scripted::sse(&fixture("anthropic_text.sse"), 16),
    ]);
    let (events, reply) = complete(&setup, &anthropic(), CancelToken::new());
    assert!(reply.is_ok());
    assert_eq!(retries(&events).len(), 1);
}

#[test]
fn a_retry_after_longer_than_a_minute_is_not_waited_for() {
    let setup = setup([Scripted::status(429, &[("retry-after", "3600")], &fixture("anthropic_error_429.json"))]);
    let (events, reply) = complete(&setup, &anthropic(), CancelToken::new());
    assert!(matches!(reply, Err(LlmError::Api { status: 429, .. })));
    assert!(retries(&events).is_empty());
    assert!(setup.clock.slept().is_empty());
}

#[test]
fn a_rate_limit_asking_for_two_minutes_says_so_and_not_that_it_was_waited_out() {
    let setup = setup([
        Scripted::status(429, &[("retry-after", "120")], &fixture("anthropic_error_429.json")),
        Scripted::sse(&fixture("anthropic_text.sse"), 8),
    ]);
    let (events, reply) = complete(&setup, &anthropic(), CancelToken::new());
    let error = reply.expect_err("no wait over the cap");
    assert!(retries(&events).is_empty() && setup.clock.slept().is_empty());
    assert_eq!(setup.transport.requests().len(), 1);
    let advice = error.advice().expect("advice for a 429");
    assert_eq!(advice, "The provider is limiting requests and asked to wait about 2 minutes: press Retry after that.");
    assert!(!advice.contains("after waiting"), "{advice}");
}

#[test]
fn an_account_out_of_quota_is_told_to_check_its_billing_after_one_request() {
    let no_quota = || Scripted::status(429, &[], INSUFFICIENT_QUOTA);
    let setup = setup([no_quota(), no_quota(), no_quota(), no_quota()]);
    let (events, reply) = complete(&setup, &openai(), CancelToken::new());
    let error = reply.expect_err("no quota");
    assert_eq!(setup.transport.requests().len(), 1, "waiting does not bring credit back");
    assert!(retries(&events).is_empty() && setup.clock.slept().is_empty());
    assert!(!error.is_retryable());
    let message = error.to_string();
    assert!(message.starts_with("OpenAI refused the request because the account has no credit or quota left: "), "{message}");
    assert!(message.contains("You exceeded your current quota, please check your plan and billing details."), "{message}");
    let advice = error.advice().expect("advice");
    assert!(advice.contains("plan and billing") && !advice.contains("wait"), "{advice}");
}

#[test]
fn an_unreachable_local_server_says_how_to_fix_cors_and_is_not_retried() {
    let setup = setup([Scripted::NetworkError("TypeError: Failed to fetch".to_owned())]);
    let (_, reply) = complete(&setup, &ollama(), CancelToken::new());
    let message = reply.expect_err("unreachable").to_string();
    assert!(
        message.starts_with(
            "could not reach Ollama at http://localhost:11434/v1/chat/completions: TypeError: Failed to fetch"
        ),
        "{message}"
    );
    assert!(message.contains("OLLAMA_ORIGINS"), "{message}");
    assert_eq!(setup.transport.requests().len(), 1);
}

#[test]
fn stop_aborts_the_request_in_flight() {
    let setup = setup([Scripted::Hang]);
    let cancel = CancelToken::new();
    let stopper = cancel.clone();
    let reply = block_on(async {
        let messages = vec![Message::user_text("hello")];
        let request = ChatRequest { system: "", messages: &messages, tools: &[], max_output_tokens: 10 };
        let settings = anthropic();
        let ignore = |_: ModelEvent| {};
        let call = setup.model.complete(request, &settings, cancel, &ignore);
        let stop = async {
            yield_now().await;
            stopper.cancel();
        };
        futures::join!(call, stop).0
    });
    assert_eq!(reply, Err(LlmError::Cancelled));
    assert_eq!(setup.transport.aborted(), 1, "the transport saw the abort");
}

#[test]
fn stop_while_the_reply_streams_ends_the_call() {
    let stream = fixture("anthropic_text.sse");
    let partial = &stream[..stream.find("event: content_block_stop").expect("shape")];
    let setup = setup([Scripted::StreamThenHang { chunks: vec![partial.as_bytes().to_vec()] }]);
    let cancel = CancelToken::new();
    let stopper = cancel.clone();
    let events = RefCell::new(Vec::new());
    let reply = block_on(async {
        let messages = vec![Message::user_text("hello")];
        let request = ChatRequest { system: "", messages: &messages, tools: &[], max_output_tokens: 10 };
        let settings = anthropic();
        let record = |event: ModelEvent| events.borrow_mut().push(event);
        let call = setup.model.complete(request, &settings, cancel, &record);
        let stop = async {
            yield_now().await;
            stopper.cancel();
        };
        futures::join!(call, stop).0
    });
    assert_eq!(reply, Err(LlmError::Cancelled));
    assert_eq!(
        events.into_inner(),
        vec![ModelEvent::TextDelta("Your dashboard ".to_owned()), ModelEvent::TextDelta("is ready.".to_owned())]
    );
}

#[test]
fn a_server_that_ignores_streaming_and_sends_one_json_reply_still_works() {
    let setup =
        setup([Scripted::status(200, &[("content-type", "application/json")], &fixture("openai_completion.json"))]);
    let (_, reply) = complete(&setup, &ollama(), CancelToken::new());
    let reply = reply.expect("reply");
    assert!(matches!(&reply.content[0], ContentBlock::ToolUse { name, .. } if name == "autoui_webmcp_list_recipes"));
}

#[test]
fn the_openai_wire_is_chosen_from_settings() {
    let setup = setup([Scripted::sse(&fixture("openai_text.sse"), 5)]);
    let (_, reply) = complete(&setup, &ollama(), CancelToken::new());
    assert_eq!(reply.expect("reply").content, vec![ContentBlock::Text { text: "Your dashboard is ready.".to_owned() }]);
    assert_eq!(setup.transport.requests()[0].url, "http://localhost:11434/v1/chat/completions");
}

#[test]
fn the_retry_policy_can_be_tuned() {
    let overloaded = || Scripted::status(529, &[], &fixture("anthropic_error_529.json"));
    let mut setup = setup([overloaded(), overloaded(), overloaded()]);
    setup.model =
        HttpChatModel::new(setup.transport.clone(), Rc::new(setup.clock.clone()), Rc::new(Counter::default()))
            .with_policy(RetryPolicy { max_retries: 1, base_delay_ms: 100, max_delay_ms: 1_000 });
    let (events, reply) = complete(&setup, &anthropic(), CancelToken::new());
    assert!(reply.is_err());
    assert_eq!(retries(&events).len(), 1);
    assert_eq!(setup.transport.requests().len(), 2);
    assert!(setup.clock.slept()[0] <= 100);
}

#[test]
fn the_model_measures_exactly_the_body_it_sends_for_each_provider() {
    let messages = vec![
        Message::user_text("show the orders"),
        Message {
            role: autoui_core::llm::message::Role::Assistant,
            content: vec![ContentBlock::ToolUse {
                id: "t1".to_owned(),
                name: "orders_mcp_fetch".to_owned(),
                input: serde_json::json!({ "query": "\"quoted\" é" }),
            }],
        },
    ];
    let request = ChatRequest { system: "sys", messages: &messages, tools: &[], max_output_tokens: 100 };
    for (settings, stream) in [(anthropic(), "anthropic_text.sse"), (ollama(), "openai_text.sse")] {
        let setup = setup([Scripted::sse(&fixture(stream), 64)]);
        let measured = setup.model.request_bytes(&request, &settings);
        block_on(setup.model.complete(request, &settings, CancelToken::new(), &|_| {})).expect("reply");
        let sent = setup.transport.requests();
        assert_eq!(measured, sent[0].body.as_ref().map_or(0, String::len), "{:?}", settings.provider);
    }
}
