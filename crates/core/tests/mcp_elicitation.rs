//! Elicitation (2025-11-25, form mode): the form read from `requestedSchema` (every field kind,
//! defaults pre-filled, refused input with its reason, malformed schemas refused by name), the
//! capability declared only with someone to ask, and `elicitation/create` during a call answered
//! with what the person chose (accept with checked values, decline, cancel, or an error for a
//! schema that cannot be shown). The time the person takes does not count against the call's
//! timeout; Stop still ends the call at once and takes the form away (the server hears "cancel"),
//! and so does the server cancelling its question (it hears nothing back).

#[path = "fixtures/mcp/support.rs"]
mod support;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::mcp::config::{McpOptions, ServerConfig, TransportChoice};
use autoui_core::mcp::elicit::form::{Choice, FieldKind, Form, FormError};
use autoui_core::mcp::elicit::{AcceptDefaults, ElicitationAnswer, ElicitationKind, ElicitationRequest, Elicitor};
use autoui_core::mcp::inbound::Notice;
use autoui_core::mcp::session::{Session, SessionPorts};
use futures::future::LocalBoxFuture;
use futures::task::LocalSpawnExt;
use serde_json::{Map, Value, json};
use support::{FakeClock, FakeNet, FakeServer, Logged, Reply, rpc_result, text_result};

const URL: &str = "http://127.0.0.1:3001/mcp";

fn values(value: Value) -> Map<String, Value> {
    value.as_object().unwrap().clone()
}

/// The schema of the suite's `elicitation-sep1034-client-defaults` scenario.
fn sep1034_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "User name", "default": "John Doe"},
            "age": {"type": "integer", "description": "User age", "default": 30},
            "score": {"type": "number", "description": "User score", "default": 95.5},
            "status": {"type": "string", "enum": ["active", "inactive", "pending"], "default": "active"},
            "verified": {"type": "boolean", "description": "Verification status", "default": true}
        },
        "required": []
    })
}

#[test]
fn a_form_starts_with_every_default_of_its_schema() {
    let form = Form::from_schema(&sep1034_schema()).unwrap();
    assert_eq!(
        Value::Object(form.prefilled()),
        json!({"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": true})
    );
    assert_eq!(form.check(&form.prefilled()), Ok(form.prefilled()));
}

fn every_kind_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "email": {"type": "string", "title": "Email", "format": "email"},
            "nick": {"type": "string", "minLength": 2, "maxLength": 5},
            "when": {"type": "string", "format": "date"},
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "ratio": {"type": "number", "minimum": 0.5},
            "ok": {"type": "boolean"},
            "colour": {"type": "string", "oneOf": [{"const": "r", "title": "Red"}, {"const": "g", "title": "Green"}]},
            "size": {"type": "string", "enum": ["s", "l"], "enumNames": ["Small", "Large"]},
            "tags": {"type": "array", "items": {"anyOf": [{"const": "a", "title": "Alpha"}, {"const": "b", "title": "Beta"}]}, "maxItems": 1},
            "days": {"type": "array", "items": {"type": "string", "enum": ["mon", "tue"]}, "minItems": 1, "default": ["mon"]}
        },
        "required": ["email", "age"]
    })
}

#[test]
fn every_field_kind_is_read_with_its_bounds_and_titled_options() {
    let form = Form::from_schema(&every_kind_schema()).unwrap();
    let names: Vec<&str> = form.fields.iter().map(|field| field.name.as_str()).collect();
    assert_eq!(names, ["age", "email", "colour", "days", "nick", "ok", "ratio", "size", "tags", "when"]);
    let kind = |name: &str| &form.fields.iter().find(|field| field.name == name).unwrap().kind;
    assert_eq!(form.fields[1].label, "Email");
    assert!(form.fields[1].required);
    assert!(matches!(kind("nick"), FieldKind::Text { min_length: Some(2), max_length: Some(5), .. }));
    assert!(matches!(kind("age"), FieldKind::Number { integer: true, minimum: Some(0.0), maximum: Some(150.0), .. }));
    let red_green = vec![
        Choice { value: "r".into(), label: "Red".into() },
        Choice { value: "g".into(), label: "Green".into() },
    ];
    assert_eq!(kind("colour"), &FieldKind::Choice { options: red_green, default: None });
    let FieldKind::Choice { options, .. } = kind("size") else { panic!("size is a choice") };
    assert_eq!(options[1].label, "Large");
    let FieldKind::MultiChoice { options, max_items, .. } = kind("tags") else { panic!("tags is a multi-choice") };
    assert_eq!((options[0].label.as_str(), *max_items), ("Alpha", Some(1)));
    assert_eq!(Value::Object(form.prefilled()), json!({"days": ["mon"]}));
}

#[test]
fn invalid_input_is_refused_field_by_field_with_the_reason() {
    let form = Form::from_schema(&every_kind_schema()).unwrap();
    let entered = values(json!({
        "email": "not-an-address",
        "nick": "x",
        "when": "2026-13-01",
        "ratio": 0.1,
        "ok": "yes",
        "colour": "blue",
        "tags": ["a", "b"],
        "days": []
    }));
    let problems: Vec<String> = form.check(&entered).unwrap_err().iter().map(ToString::to_string).collect();
    assert_eq!(
        problems,
        [
            "age: required",
            "Email: must be an email address",
            "colour: \"blue\" is not one of the options",
            "days: choose at least 1",
            "nick: must be at least 2 characters",
            "ok: must be yes or no",
            "ratio: must be at least 0.5",
            "tags: choose at most 1",
            "when: must be a date (YYYY-MM-DD)",
        ]
    );
    let fixed = values(json!({"email": "ada@example.org", "age": 36, "when": "2026-12-01", "extra": 1}));
    assert_eq!(
        form.check(&fixed),
        Ok(values(json!({"email": "ada@example.org", "age": 36, "when": "2026-12-01"}))),
        "valid values pass, and keys the form does not have are not sent"
    );
    let age = &form.fields[0];
    assert_eq!(age.parse_input("3.5"), Err("\"3.5\" is not a whole number".to_owned()));
    assert_eq!(age.parse_input(" 42 "), Ok(Some(json!(42))));
    assert_eq!(age.parse_input(""), Ok(None));
}

#[test]
fn a_schema_that_is_no_flat_form_is_refused_by_field_name() {
    let nested = json!({"type": "object", "properties": {"address": {"type": "object"}}});
    assert_eq!(
        Form::from_schema(&nested),
        Err(FormError::BadField {
            field: "address".into(),
            reason: "type \"object\" is not a form field type".into()
        })
    );
    let untyped = json!({"type": "object", "properties": {"x": {}}});
    assert_eq!(Form::from_schema(&untyped).unwrap_err().to_string(), "field \"x\": it has no \"type\"");
    assert_eq!(Form::from_schema(&json!([1])), Err(FormError::NotAnObject));
}

/// An elicitor that answers with a fixed answer and remembers what it was asked.
struct Scripted {
    answer: ElicitationAnswer,
    asked: RefCell<Vec<ElicitationRequest>>,
}

impl Elicitor for Scripted {
    fn supports_url(&self) -> bool {
        false
    }

    fn elicit(&self, request: ElicitationRequest) -> LocalBoxFuture<'static, ElicitationAnswer> {
        self.asked.borrow_mut().push(request);
        let answer = self.answer.clone();
        Box::pin(async move { answer })
    }
}

/// A person who answers after `after_ms` of (virtual) time, unless the form is taken away first.
struct Slow {
    clock: FakeClock,
    after_ms: u32,
    answer: ElicitationAnswer,
    withdrawn: Rc<Cell<bool>>,
}

impl Elicitor for Slow {
    fn supports_url(&self) -> bool {
        false
    }

    fn elicit(&self, _request: ElicitationRequest) -> LocalBoxFuture<'static, ElicitationAnswer> {
        let (clock, after_ms, answer) = (self.clock.clone(), self.after_ms, self.answer.clone());
        let card = Card { withdrawn: self.withdrawn.clone(), answered: false };
        Box::pin(async move {
            let mut card = card;
            support::pass_time(&clock, after_ms).await;
            card.answered = true;
            answer
        })
    }
}

/// The form as the page shows it: dropped before it was answered, it was taken away.
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

fn slow(clock: &FakeClock, after_ms: u32) -> Rc<Slow> {
    let answer = ElicitationAnswer::Accept(values(json!({"name": "Ada"})));
    Rc::new(Slow { clock: clock.clone(), after_ms, answer, withdrawn: Rc::default() })
}

/// What the server does after asking, on the call's stream.
#[derive(Clone, Copy)]
enum Then {
    /// Answers the call once it hears back from the client, as a real server waits for the answer.
    AnswersOnceAnswered,
    /// Never answers the call.
    Hangs,
    /// Cancels its question 1 s in (`notifications/cancelled`) and answers the call 20 s in.
    CancelsItsQuestion,
}

struct Run {
    net: Rc<FakeNet>,
    notices: Rc<RefCell<Vec<Notice>>>,
    result: Result<String, String>,
    /// How long the call took, in virtual milliseconds.
    took_ms: f64,
}

/// Connects with `elicitor` (if any) to a server whose `tools/call` first asks for `schema`, then
/// answers with the text of what it got back.
fn call_asking(elicitor: Option<Rc<dyn Elicitor>>, schema: Value) -> Run {
    call_asking_then(&FakeClock::default(), elicitor, schema, Then::AnswersOnceAnswered, None)
}

/// [`call_asking`] with what the server does after asking, and Stop pressed `stop_after_ms` into the call.
fn call_asking_then(
    clock: &FakeClock,
    elicitor: Option<Rc<dyn Elicitor>>,
    schema: Value,
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
            net.feed(&event(json!({"jsonrpc": "2.0", "id": "ask-1", "method": "elicitation/create",
                   "params": {"message": "Who are you?", "requestedSchema": schema}})));
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
    let session = Rc::new(match elicitor {
        Some(elicitor) => session.with_elicitor(elicitor, "people"),
        None => session,
    });
    let runner = session.clone();
    let connected = notices.clone();
    let waiting_clock = clock.clone();
    let server_net = net.clone();
    let (result, took_ms) = support::simulate(
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
            let started_at = waiting_clock.now();
            let stop = CancelToken::new();
            let calling = async {
                let result = session.call_tool("register", json!({}), &stop).await;
                let text = result.map(|result| result.text_content()).map_err(|error| error.to_string());
                (text, waiting_clock.now() - started_at)
            };
            let server_goes_on = async {
                if let Then::CancelsItsQuestion = then {
                    support::pass_time(&waiting_clock, 1_000).await;
                    server_net.feed(&event(json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": "ask-1", "reason": "no longer needed"}})));
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
            futures::join!(calling, server_goes_on, person_stops).0
        },
    );
    Run { net, notices, result, took_ms }
}

fn event(message: Value) -> String {
    format!("event: message\ndata: {message}\n\n")
}

fn answer_to_the_server(run: &Run) -> Value {
    run.net.requests().into_iter().find(|request| request.is_response()).unwrap().body.unwrap()
}

#[test]
fn with_someone_to_ask_the_client_declares_form_elicitation_and_without_nothing() {
    let scripted = Rc::new(Scripted { answer: ElicitationAnswer::Decline, asked: RefCell::default() });
    let with = call_asking(Some(scripted), sep1034_schema());
    assert_eq!(with.net.requests()[0].params()["capabilities"]["elicitation"], json!({"form": {}}));
    let without = call_asking(None, sep1034_schema());
    assert_eq!(without.net.requests()[0].params()["capabilities"].get("elicitation"), None);
    assert_eq!(answer_to_the_server(&without)["error"]["code"], -32601, "an undeclared request is refused");
}

#[test]
fn an_elicitation_during_a_call_is_put_to_the_person_and_their_values_sent_back() {
    let entered = values(json!({"name": "Ada", "age": 36, "status": "pending", "verified": false, "score": 1}));
    let scripted = Rc::new(Scripted { answer: ElicitationAnswer::Accept(entered.clone()), asked: RefCell::default() });
    let run = call_asking(Some(scripted.clone()), sep1034_schema());
    assert_eq!(run.result.as_deref(), Ok("done"));
    let asked = scripted.asked.borrow();
    assert_eq!(asked[0].server, "people");
    assert_eq!(asked[0].message, "Who are you?");
    assert!(matches!(&asked[0].kind, ElicitationKind::Form(form) if form.fields.len() == 5));
    let answer = answer_to_the_server(&run);
    assert_eq!(answer["id"], "ask-1");
    assert_eq!(answer["result"], json!({"action": "accept", "content": entered}));
}

#[test]
fn an_unattended_client_accepts_with_the_defaults() {
    let run = call_asking(Some(Rc::new(AcceptDefaults)), sep1034_schema());
    assert_eq!(
        answer_to_the_server(&run)["result"],
        json!({"action": "accept", "content": {"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": true}})
    );
}

#[test]
fn decline_and_cancel_are_sent_without_content_and_invalid_values_never_leave() {
    for (answer, action) in [
        (ElicitationAnswer::Decline, "decline"),
        (ElicitationAnswer::Cancel, "cancel"),
        (ElicitationAnswer::Accept(values(json!({"age": "old"}))), "decline"),
    ] {
        let scripted = Rc::new(Scripted { answer, asked: RefCell::default() });
        let run = call_asking(Some(scripted), sep1034_schema());
        assert_eq!(answer_to_the_server(&run)["result"], json!({"action": action}));
        assert_eq!(run.result.as_deref(), Ok("done"), "the call goes on either way");
    }
}

#[test]
fn a_schema_that_cannot_be_shown_is_refused_to_the_server_and_reported() {
    let scripted = Rc::new(Scripted { answer: ElicitationAnswer::Decline, asked: RefCell::default() });
    let bad = json!({"type": "object", "properties": {"where": {"type": "object"}}});
    let run = call_asking(Some(scripted.clone()), bad);
    assert!(scripted.asked.borrow().is_empty(), "nobody is asked");
    let answer = answer_to_the_server(&run);
    assert_eq!(answer["error"]["code"], -32602);
    let reason = "the requested schema cannot be shown as a form: field \"where\": type \"object\" is not a form field type";
    assert_eq!(answer["error"]["message"], reason);
    assert!(run.notices.borrow().contains(&Notice::ElicitationRefused { reason: reason.to_owned() }));
}

/// An elicitor that handles URL mode and answers like `Scripted`.
struct OpensUrls(Scripted);

impl Elicitor for OpensUrls {
    fn supports_url(&self) -> bool {
        true
    }

    fn elicit(&self, request: ElicitationRequest) -> LocalBoxFuture<'static, ElicitationAnswer> {
        self.0.elicit(request)
    }
}

#[test]
fn url_mode_is_declared_only_by_an_elicitor_that_opens_urls_and_names_the_host_to_show() {
    let params = json!({"mode": "url", "message": "Sign the form", "url": "https://forms.example.org/sign?id=7", "elicitationId": "e-1"});
    let asked = autoui_core::mcp::elicit::read_request("people", Some(params.clone()), true).unwrap();
    assert_eq!(
        asked.kind,
        ElicitationKind::Url {
            url: "https://forms.example.org/sign?id=7".to_owned(),
            host: "forms.example.org".to_owned(),
            elicitation_id: "e-1".to_owned()
        }
    );
    let refused = autoui_core::mcp::elicit::read_request("people", Some(params), false).unwrap_err();
    assert_eq!(refused.to_string(), "elicitation mode \"url\" is not supported by this client");
    for bad in ["javascript:alert(1)", "file:///etc/passwd", "not a url"] {
        let params = json!({"mode": "url", "message": "Open", "url": bad, "elicitationId": "e-2"});
        let refused = autoui_core::mcp::elicit::read_request("people", Some(params), true);
        assert!(refused.is_err(), "{bad} is never offered to open");
    }

    let opener = Rc::new(OpensUrls(Scripted { answer: ElicitationAnswer::Accept(Map::new()), asked: RefCell::default() }));
    let run = call_asking(Some(opener), sep1034_schema());
    assert_eq!(run.net.requests()[0].params()["capabilities"]["elicitation"], json!({"form": {}, "url": {}}));
}

#[test]
fn a_person_may_take_longer_than_the_call_timeout_and_the_call_still_gets_the_servers_answer() {
    let clock = FakeClock::default();
    let person = slow(&clock, 300_000);
    let run = call_asking_then(&clock, Some(person), sep1034_schema(), Then::AnswersOnceAnswered, None);
    assert_eq!(run.result.as_deref(), Ok("done"), "the 120 s timeout does not run while the form is open");
    assert!(run.took_ms >= 300_000.0, "{}", run.took_ms);
    assert_eq!(answer_to_the_server(&run)["result"]["action"], "accept");
}

#[test]
fn the_call_timeout_starts_over_once_the_person_answered() {
    let clock = FakeClock::default();
    let person = slow(&clock, 300_000);
    let run = call_asking_then(&clock, Some(person), sep1034_schema(), Then::Hangs, None);
    assert_eq!(run.result, Err("no answer within 120000 ms".to_owned()));
    assert_eq!(run.took_ms, 420_000.0);
}

#[test]
fn stop_while_a_form_is_open_ends_the_call_at_once_takes_the_form_away_and_tells_the_server() {
    let clock = FakeClock::default();
    let person = slow(&clock, 300_000);
    let run = call_asking_then(&clock, Some(person.clone()), sep1034_schema(), Then::Hangs, Some(5_000));
    assert_eq!(run.result, Err("cancelled".to_owned()));
    assert_eq!(run.took_ms, 5_000.0);
    assert!(person.withdrawn.get(), "the form is taken away");
    let answer = answer_to_the_server(&run);
    assert_eq!((&answer["id"], &answer["result"]), (&json!("ask-1"), &json!({"action": "cancel"})));
    let cancelled = run.net.requests().into_iter().find(|request| request.rpc() == "notifications/cancelled").unwrap();
    assert_eq!(cancelled.params()["requestId"], run.net.requests().iter().find(|request| request.rpc() == "tools/call").unwrap().id());
}

#[test]
fn a_question_the_server_cancels_is_taken_away_and_never_answered() {
    let clock = FakeClock::default();
    let person = slow(&clock, 10_000);
    let run = call_asking_then(&clock, Some(person.clone()), sep1034_schema(), Then::CancelsItsQuestion, None);
    assert!(person.withdrawn.get(), "the form is taken away");
    assert!(!run.net.requests().iter().any(Logged::is_response), "the specification says not to answer it");
    assert_eq!(run.result.as_deref(), Ok("done"), "the call's stream was read on");
}
