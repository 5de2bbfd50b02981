//! Sampling (`sampling/createMessage`): declared only with a sampler; a request during a call is
//! shown to the person with the model and a cost estimate, goes to the model only once approved
//! (as edited), and is refused to the server when declined, malformed or when no key is set. A
//! request the server cancels, or whose call is stopped, is taken away before it reaches the model.

#[path = "fixtures/mcp/support.rs"]
mod support;

#[path = "common/model.rs"]
#[allow(dead_code)]
mod model;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::llm::message::{ContentBlock, Role};
use autoui_core::llm::model::ChatModel;
use autoui_core::mcp::config::{McpOptions, ServerConfig, TransportChoice};
use autoui_core::mcp::inbound::Notice;
use autoui_core::mcp::sampling::{ModelSampler, Sampler, SamplingRequest, SamplingReview, SamplingReviewer};
use autoui_core::mcp::session::{Session, SessionPorts};
use autoui_core::settings::Settings;
use futures::future::LocalBoxFuture;
use futures::task::LocalSpawnExt;
use model::{ScriptedModel, Step, text};
use serde_json::{Value, json};
use support::{FakeClock, FakeNet, FakeServer, Logged, Reply, rpc_result, text_result};

const URL: &str = "http://127.0.0.1:3001/mcp";

/// server-everything's `trigger-sampling-request`, as it asks.
fn everything_params() -> Value {
    json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": "Resource trigger-sampling-request context: name a colour"}}],
        "systemPrompt": "You are a helpful test server.",
        "maxTokens": 100,
        "temperature": 0.7,
        "modelPreferences": {"hints": [{"name": "claude-3-haiku"}]}
    })
}

/// What the person does with the review: approve as is, approve an edit, or decline.
enum Choice {
    Approve,
    Edit(&'static str),
    Decline,
}

struct Person {
    choice: Choice,
    seen: RefCell<Vec<SamplingReview>>,
}

impl SamplingReviewer for Person {
    fn review(&self, review: SamplingReview) -> LocalBoxFuture<'static, Option<SamplingRequest>> {
        self.seen.borrow_mut().push(review.clone());
        let answer = match self.choice {
            Choice::Approve => Some(review.request),
            Choice::Edit(text) => Some(review.request.with_last_user_text(text)),
            Choice::Decline => None,
        };
        Box::pin(async move { answer })
    }
}

fn settings_with_key() -> Settings {
    Settings { api_key: "sk-test".to_owned(), ..Settings::default() }
}

/// A person who approves the request as it is after `after_ms` of (virtual) time, unless it is
/// taken away first.
struct Slow {
    clock: FakeClock,
    after_ms: u32,
    withdrawn: Rc<Cell<bool>>,
}

impl SamplingReviewer for Slow {
    fn review(&self, review: SamplingReview) -> LocalBoxFuture<'static, Option<SamplingRequest>> {
        let (clock, after_ms) = (self.clock.clone(), self.after_ms);
        let card = Card { withdrawn: self.withdrawn.clone(), answered: false };
        Box::pin(async move {
            let mut card = card;
            support::pass_time(&clock, after_ms).await;
            card.answered = true;
            Some(review.request)
        })
    }
}

/// The review as the page shows it: dropped before it was answered, it was taken away.
struct Card {
    withdrawn: Rc<Cell<bool>>,
    answered: bool,
}

impl Drop for Card {
    fn drop(&mut self) {
        if !self.answered {
            self.withdrawn.set(true);
        }
    }
}

/// What the server does after asking, on the call's stream.
#[derive(Clone, Copy)]
enum Then {
    /// Answers the call once it hears back from the client, as a real server waits for the answer.
    AnswersOnceAnswered,
    /// Never answers the call.
    Hangs,
    /// Cancels its request 1 s in (`notifications/cancelled`) and answers the call 20 s in.
    CancelsItsRequest,
}

struct Run {
    net: Rc<FakeNet>,
    notices: Rc<RefCell<Vec<Notice>>>,
    result: Result<String, String>,
}

/// Connects with `sampler` (if any) to a server whose `tools/call` first sends `sampling/createMessage`
/// with `params`, then answers "done".
fn call_sampling(sampler: Option<Rc<dyn Sampler>>, params: Value) -> Run {
    call_sampling_then(&FakeClock::default(), sampler, params, Then::AnswersOnceAnswered, None)
}

/// [`call_sampling`] with what the server does after asking, and Stop pressed `stop_after_ms` into the call.
fn call_sampling_then(
    clock: &FakeClock,
    sampler: Option<Rc<dyn Sampler>>,
    params: Value,
    then: Then,
    stop_after_ms: Option<u32>,
) -> Run {
    let clock = clock.clone();
    let server = Rc::new(RefCell::new(FakeServer { list_changed: false, ..FakeServer::default() }));
    let call_id = Rc::new(RefCell::new(Value::Null));
    let asked_in = call_id.clone();
    let net = FakeNet::new(move |request: &Logged, net: &FakeNet| match request.rpc() {
        "tools/call" => {
            *asked_in.borrow_mut() = request.id();
            let reply = net.live_sse();
            net.feed(&event(json!({"jsonrpc": "2.0", "id": "sample-1", "method": "sampling/createMessage", "params": params})));
            reply
        }
        _ if request.is_response() => {
            if let Then::AnswersOnceAnswered = then {
                net.feed(&event(rpc_result(asked_in.borrow().clone(), text_result("done"))));
            }
            Reply::accepted()
        }
        _ => server.borrow_mut().streamable(request),
    });
    let notices = Rc::new(RefCell::new(Vec::new()));
    let sink = notices.clone();
    let ports = SessionPorts { http: net.clone(), event_sources: net.clone(), clock: Rc::new(clock.clone()) };
    let config = ServerConfig { transport: TransportChoice::Streamable, ..ServerConfig::new(URL) };
    let session = Session::new(config, ports, McpOptions::default(), Rc::new(move |notice| sink.borrow_mut().push(notice)));
    let session = Rc::new(match sampler {
        Some(sampler) => session.with_sampler(sampler, "everything"),
        None => session,
    });
    let runner = session.clone();
    let connected = notices.clone();
    let waiting_clock = clock.clone();
    let server_net = net.clone();
    let result = support::simulate(
        &clock,
        move |spawner| {
            spawner
                .spawn_local(async move {
                    let reason = runner.run().await;
                    panic!("the session stopped: {reason}");
                })
                .unwrap()
        },
        async move {
            while !connected.borrow().contains(&Notice::Connected) {
                support::pass_time(&waiting_clock, 1).await;
            }
            let stop = CancelToken::new();
            let calling = session.call_tool("trigger-sampling-request", json!({}), &stop);
            let server_goes_on = async {
                if let Then::CancelsItsRequest = then {
                    support::pass_time(&waiting_clock, 1_000).await;
                    server_net.feed(&event(json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": "sample-1", "reason": "no longer needed"}})));
                    support::pass_time(&waiting_clock, 19_000).await;
                    server_net.feed(&event(rpc_result(call_id.borrow().clone(), text_result("done"))));
                }
            };
            let person_stops = async {
                if let Some(ms) = stop_after_ms {
                    support::pass_time(&waiting_clock, ms).await;
                    stop.cancel();
                }
            };
            let result = futures::join!(calling, server_goes_on, person_stops).0;
            result.map(|result| result.text_content()).map_err(|error| error.to_string())
        },
    );
    Run { net, notices, result }
}

fn event(message: Value) -> String {
    format!("event: message\ndata: {message}\n\n")
}

fn answer_to_the_server(run: &Run) -> Value {
    run.net.requests().into_iter().find(|request| request.is_response()).unwrap().body.unwrap()
}

fn sampler(model: Rc<ScriptedModel>, settings: Settings, person: Rc<Person>) -> Rc<dyn Sampler> {
    Rc::new(ModelSampler { model: model as Rc<dyn ChatModel>, settings: Rc::new(move || settings.clone()), reviewer: person })
}

#[test]
fn with_a_sampler_the_client_declares_sampling_and_without_refuses_it() {
    let model = Rc::new(ScriptedModel::new([]));
    let person = Rc::new(Person { choice: Choice::Decline, seen: RefCell::default() });
    let with = call_sampling(Some(sampler(model, settings_with_key(), person)), everything_params());
    assert_eq!(with.net.requests()[0].params()["capabilities"]["sampling"], json!({}));
    let without = call_sampling(None, everything_params());
    assert_eq!(without.net.requests()[0].params()["capabilities"].get("sampling"), None);
    assert_eq!(answer_to_the_server(&without)["error"]["code"], -32601);
}

#[test]
fn an_approved_request_shows_model_and_cost_then_goes_to_the_model_and_its_answer_to_the_server() {
    let model = Rc::new(ScriptedModel::new([Step::Reply(vec![text("Teal.")])]));
    let person = Rc::new(Person { choice: Choice::Approve, seen: RefCell::default() });
    let run = call_sampling(Some(sampler(model.clone(), settings_with_key(), person.clone())), everything_params());
    assert_eq!(run.result.as_deref(), Ok("done"));

    let seen = person.seen.borrow();
    let review = &seen[0];
    assert_eq!(review.request.server, "everything");
    assert_eq!(review.request.system_prompt.as_deref(), Some("You are a helpful test server."));
    assert_eq!(review.request.last_user_text(), "Resource trigger-sampling-request context: name a colour");
    assert_eq!(review.request.model_hints, vec!["claude-3-haiku".to_owned()]);
    assert_eq!(review.model, Settings::default().model, "the person's model answers, not the hinted one");
    assert_eq!(review.provider, "Anthropic");
    assert_eq!(review.estimate.max_output_tokens, 100);
    assert!(review.estimate.input_tokens > 10 && review.estimate.input_tokens < 40, "{:?}", review.estimate);
    assert!(review.estimate.usd.is_some_and(|usd| usd > 0.0 && usd < 0.01), "{:?}", review.estimate);
    assert!(review.estimate.describe().starts_with("about "), "{}", review.estimate.describe());

    let sent = model.seen();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].system, "You are a helpful test server.");
    assert!(sent[0].tools.is_empty(), "a sampled completion offers no tools");
    let answer = answer_to_the_server(&run);
    assert_eq!(answer["id"], "sample-1");
    assert_eq!(answer["result"]["role"], "assistant");
    assert_eq!(answer["result"]["content"], json!({"type": "text", "text": "Teal."}));
    assert_eq!(answer["result"]["model"], Settings::default().model);
    assert_eq!(answer["result"]["stopReason"], "endTurn");
}

#[test]
fn the_persons_edit_is_what_the_model_is_asked() {
    let model = Rc::new(ScriptedModel::new([Step::Reply(vec![text("Blue.")])]));
    let person = Rc::new(Person { choice: Choice::Edit("name a calm colour"), seen: RefCell::default() });
    call_sampling(Some(sampler(model.clone(), settings_with_key(), person)), everything_params());
    let sent = model.seen();
    assert_eq!(sent[0].last_user_text(), "name a calm colour");
    assert_eq!(sent[0].messages[0].role, Role::User);
}

#[test]
fn a_declined_request_never_reaches_the_model_and_the_server_hears_the_user_rejected_it() {
    let model = Rc::new(ScriptedModel::new([]));
    let person = Rc::new(Person { choice: Choice::Decline, seen: RefCell::default() });
    let run = call_sampling(Some(sampler(model.clone(), settings_with_key(), person)), everything_params());
    assert!(model.seen().is_empty());
    let answer = answer_to_the_server(&run);
    assert_eq!(answer["error"]["code"], -1);
    assert_eq!(answer["error"]["message"], "User rejected sampling request");
    assert_eq!(run.result.as_deref(), Ok("done"), "the call goes on");
    assert!(!run.notices.borrow().iter().any(|notice| matches!(notice, Notice::SamplingRefused { .. })));
}

#[test]
fn without_a_key_the_server_gets_a_clear_error_and_nobody_is_asked() {
    let model = Rc::new(ScriptedModel::new([]));
    let person = Rc::new(Person { choice: Choice::Approve, seen: RefCell::default() });
    let run = call_sampling(Some(sampler(model.clone(), Settings::default(), person.clone())), everything_params());
    assert!(person.seen.borrow().is_empty());
    assert!(model.seen().is_empty());
    let answer = answer_to_the_server(&run);
    let reason = "no API key is set for Anthropic in this client, so it cannot sample: the person must add one in its settings";
    assert_eq!(answer["error"]["message"], reason);
    assert!(run.notices.borrow().contains(&Notice::SamplingRefused { reason: reason.to_owned() }));
}

#[test]
fn malformed_and_unsupported_requests_are_refused_as_invalid_params() {
    for (params, reason) in [
        (json!({"messages": []}), "malformed sampling request: missing field `maxTokens`"),
        (json!({"messages": [], "maxTokens": 5}), "malformed sampling request: no messages"),
        (
            json!({"messages": [{"role": "user", "content": {"type": "audio", "data": "AA==", "mimeType": "audio/wav"}}], "maxTokens": 5}),
            "the sampling request holds audio or tool content, which this client cannot send to a model",
        ),
    ] {
        let model = Rc::new(ScriptedModel::new([]));
        let person = Rc::new(Person { choice: Choice::Approve, seen: RefCell::default() });
        let run = call_sampling(Some(sampler(model, settings_with_key(), person.clone())), params);
        assert!(person.seen.borrow().is_empty());
        let answer = answer_to_the_server(&run);
        assert_eq!(answer["error"]["code"], -32602);
        assert_eq!(answer["error"]["message"], reason);
    }
}

#[test]
fn images_in_a_request_reach_the_model_and_count_in_the_estimate() {
    let model = Rc::new(ScriptedModel::new([Step::Reply(vec![text("A dot.")])]));
    let person = Rc::new(Person { choice: Choice::Approve, seen: RefCell::default() });
    let params = json!({
        "messages": [{"role": "user", "content": [
            {"type": "text", "text": "What is this?"},
            {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
        ]}],
        "maxTokens": 20
    });
    call_sampling(Some(sampler(model.clone(), settings_with_key(), person.clone())), params);
    assert!(person.seen.borrow()[0].estimate.input_tokens >= 1_600);
    let sent = model.seen();
    assert!(sent[0].messages[0].content.iter().any(|block| matches!(block, ContentBlock::Image { media_type, .. } if media_type == "image/png")));
}

#[test]
fn a_request_the_server_cancels_is_taken_away_before_it_reaches_the_model_and_never_answered() {
    let clock = FakeClock::default();
    let model = Rc::new(ScriptedModel::new([Step::Reply(vec![text("Teal.")])]));
    let person = Rc::new(Slow { clock: clock.clone(), after_ms: 10_000, withdrawn: Rc::default() });
    let sampler = sampler_reviewed_by(model.clone(), person.clone());
    let run = call_sampling_then(&clock, Some(sampler), everything_params(), Then::CancelsItsRequest, None);
    assert!(person.withdrawn.get(), "the review is taken away");
    assert!(model.seen().is_empty(), "nothing is sent to the model");
    assert!(!run.net.requests().iter().any(Logged::is_response), "the specification says not to answer it");
    assert_eq!(run.result.as_deref(), Ok("done"), "the call's stream was read on");
}

#[test]
fn stop_while_a_request_is_reviewed_takes_it_away_and_the_server_hears_it_was_withdrawn() {
    let clock = FakeClock::default();
    let model = Rc::new(ScriptedModel::new([Step::Reply(vec![text("Teal.")])]));
    let person = Rc::new(Slow { clock: clock.clone(), after_ms: 300_000, withdrawn: Rc::default() });
    let sampler = sampler_reviewed_by(model.clone(), person.clone());
    let run = call_sampling_then(&clock, Some(sampler), everything_params(), Then::Hangs, Some(5_000));
    assert_eq!(run.result, Err("cancelled".to_owned()));
    assert!(person.withdrawn.get(), "the review is taken away");
    assert!(model.seen().is_empty(), "nothing is sent to the model");
    let answer = answer_to_the_server(&run);
    assert_eq!(answer["id"], "sample-1");
    assert_eq!(answer["error"]["message"], "the request was withdrawn: the call it was asked during has ended");
}

fn sampler_reviewed_by(model: Rc<ScriptedModel>, person: Rc<Slow>) -> Rc<dyn Sampler> {
    let settings = settings_with_key();
    Rc::new(ModelSampler { model: model as Rc<dyn ChatModel>, settings: Rc::new(move || settings.clone()), reviewer: person })
}
