//! LLM timeouts: a reply that does not start within the first-byte limit, or a stream silent for
//! longer than the idle limit, is given up on and retried per the retry policy, then reported with
//! a clear error; a stall after text reached the person is not retried (it would repeat the text);
//! Stop still aborts at once. Time is virtual (`FakeClock`), so the limits cost nothing to test.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::llm::http::HttpChatModel;
use autoui_core::llm::message::{ContentBlock, Message};
use autoui_core::llm::model::{ChatModel, ChatRequest, LlmError, ModelEvent, ModelReply};
use autoui_core::ports::Clock;
use autoui_core::settings::Settings;
use common::clock::FakeClock;
use common::transport::{FakeTransport, Scripted, split};
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

fn settings() -> Settings {
    Settings { api_key: "sk-ant-test".to_owned(), first_byte_timeout_s: 30, idle_timeout_s: 5, ..Settings::default() }
}

fn complete(setup: &Setup, cancel: CancelToken) -> (Vec<ModelEvent>, Result<ModelReply, LlmError>) {
    let events = RefCell::new(Vec::new());
    let messages = vec![Message::user_text("hello")];
    let request = ChatRequest { system: "sys", messages: &messages, tools: &[], max_output_tokens: 100 };
    let record = |event: ModelEvent| events.borrow_mut().push(event);
    let reply = block_on(setup.model.complete(request, &settings(), cancel, &record));
    (events.into_inner(), reply)
}

/// The stream's first event (`message_start`, which shows nothing), then silence.
fn started_then_silent() -> Scripted {
    let text = fixture("anthropic_text.sse");
    let first = text.split("\n\n").next().expect("an event").to_owned() + "\n\n";
    Scripted::StreamThenHang { chunks: split(first.as_bytes(), 64) }
}

fn retries(events: &[ModelEvent]) -> usize {
    events.iter().filter(|event| matches!(event, ModelEvent::RetryScheduled { .. })).count()
}

#[test]
fn a_stream_that_stalls_before_any_text_is_retried_and_completes() {
    let setup = setup([started_then_silent(), Scripted::sse(&fixture("anthropic_text.sse"), 16)]);
    let (events, reply) = complete(&setup, CancelToken::new());
    let reply = reply.expect("the retry answered");
    assert_eq!(reply.content, vec![ContentBlock::Text { text: "Your dashboard is ready.".to_owned() }]);
    assert_eq!(retries(&events), 1);
    assert!(setup.clock.slept().contains(&5_000), "the idle limit was armed: {:?}", setup.clock.slept());
    assert_eq!(setup.transport.requests().len(), 2);
}

#[test]
fn a_provider_that_never_answers_times_out_after_each_retry_with_a_clear_error() {
    let setup = setup([Scripted::Hang, Scripted::Hang, Scripted::Hang, Scripted::Hang]);
    let (events, reply) = complete(&setup, CancelToken::new());
    let error = reply.expect_err("no answer");
    assert_eq!(error.to_string(), "Anthropic sent nothing for 30 s before the reply started (the limit set in settings)");
    assert_eq!(retries(&events), 3, "the retry policy's three retries");
    assert_eq!(setup.transport.requests().len(), 4);
}

#[test]
fn a_stall_after_text_was_shown_is_reported_without_a_retry() {
    let text = fixture("anthropic_text.sse");
    let shown: String = text.split("\n\n").take(3).map(|event| format!("{event}\n\n")).collect();
    let setup = setup([Scripted::StreamThenHang { chunks: split(shown.as_bytes(), 32) }]);
    let (events, reply) = complete(&setup, CancelToken::new());
    assert!(events.iter().any(|event| matches!(event, ModelEvent::TextDelta(_))));
    assert_eq!(
        reply.expect_err("stalled").to_string(),
        "Anthropic sent nothing for 5 s in the middle of the reply (the limit set in settings)"
    );
    assert_eq!(retries(&events), 0);
}

#[test]
fn stop_aborts_a_request_that_waits_for_its_first_byte_at_once() {
    let setup = setup([Scripted::Hang]);
    let cancel = CancelToken::new();
    let events = RefCell::new(Vec::new());
    let messages = vec![Message::user_text("hello")];
    let request = ChatRequest { system: "sys", messages: &messages, tools: &[], max_output_tokens: 100 };
    let record = |event: ModelEvent| events.borrow_mut().push(event);
    let settings = settings();
    let press_stop = async {
        yield_now().await;
        cancel.cancel();
    };
    let (reply, ()) = block_on(futures::future::join(setup.model.complete(request, &settings, cancel.clone(), &record), press_stop));
    assert_eq!(reply, Err(LlmError::Cancelled));
    assert!(setup.clock.now_ms() < 30_000.0, "Stop did not wait for the limit");
    assert_eq!(setup.transport.requests().len(), 1, "no retry after Stop");
}
