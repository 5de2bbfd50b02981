//! The legacy HTTP+SSE transport and transport auto-detection: Streamable HTTP first, the legacy
//! transport after a 4xx without a JSON-RPC body, the user's choice honoured, the cached verdict
//! tried first. On the legacy side: the `endpoint` event, answers matched by id from `message`
//! events, server requests answered at the endpoint without holding up the stream (a form left open
//! by a stopped call is taken away), dropped streams reconnected with backoff.

#[path = "fixtures/mcp/support.rs"]
mod support;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::mcp::config::{McpOptions, ServerConfig, TransportChoice, TransportKind};
use autoui_core::mcp::elicit::{ElicitationAnswer, ElicitationRequest, Elicitor};
use autoui_core::mcp::error::McpError;
use autoui_core::mcp::inbound::Notice;
use autoui_core::mcp::session::{Session, SessionPorts};
use autoui_core::ports::Method;
use futures::future::LocalBoxFuture;
use futures::task::LocalSpawnExt;
use serde_json::{Value, json};
use support::{FakeClock, FakeNet, FakeServer, Logged, Reply, rpc_result, text_result};

const URL: &str = "http://127.0.0.1:3001/sse";
const ENDPOINT_1: &str = "http://127.0.0.1:3001/message?sessionId=1";

struct Setup {
    clock: FakeClock,
    net: Rc<FakeNet>,
    session: Rc<Session<FakeNet>>,
    notices: Rc<RefCell<Vec<Notice>>>,
    server: Rc<RefCell<FakeServer>>,
}

type CallScript = Box<dyn FnMut(&Logged, &FakeNet)>;

/// A legacy server at [`URL`]: POSTs to it get 404; the event stream names `/message?sessionId=N`;
/// answers go out as `message` events. `tools/call` goes to `call`, which may answer with `net.emit`.
fn legacy_setup(config: ServerConfig, call: impl FnMut(&Logged, &FakeNet) + 'static) -> Setup {
    let server = Rc::new(RefCell::new(FakeServer::default()));
    let inner = server.clone();
    let call: Rc<RefCell<CallScript>> = Rc::new(RefCell::new(Box::new(call)));
    let net = FakeNet::new(move |request: &Logged, net: &FakeNet| {
        if request.url == URL {
            return Reply::text(404, "Cannot POST /sse");
        }
        if request.rpc() == "tools/call" {
            (call.borrow_mut())(request, net);
        } else if let Some(answer) = inner.borrow_mut().answer(request) {
            net.emit("message", &answer.to_string());
        }
        Reply::accepted()
    });
    let opens = Rc::new(RefCell::new(0));
    net.on_open(move |_, net| {
        *opens.borrow_mut() += 1;
        net.emit(
            "endpoint",
            &format!("/message?sessionId={}", opens.borrow()),
        );
        true
    });
    session_over(net, config, server)
}

fn session_over(net: Rc<FakeNet>, config: ServerConfig, server: Rc<RefCell<FakeServer>>) -> Setup {
    let clock = FakeClock::default();
    let notices = Rc::new(RefCell::new(Vec::new()));
    let sink = notices.clone();
    let ports = SessionPorts {
        http: net.clone(),
        event_sources: net.clone(),
        clock: Rc::new(clock.clone()),
    };
    let session = Rc::new(Session::new(
        config,
        ports,
        McpOptions::default(),
        Rc::new(move |notice| sink.borrow_mut().push(notice)),
    ));
    Setup {
        clock,
        net,
        session,
        notices,
        server,
    }
}

fn connected<T: 'static>(
    setup: &Setup,
    main: impl AsyncFnOnce(Rc<Session<FakeNet>>) -> T + 'static,
) -> T {
    let (session, runner, notices, clock) = (
        setup.session.clone(),
        setup.session.clone(),
        setup.notices.clone(),
        setup.clock.clone(),
    );
    support::simulate(
        &setup.clock,
        move |spawner| {
            spawner
                .spawn_local(async move {
                    let reason = runner.run().await;
                    panic!("the session stopped: {reason}");
                })
                .unwrap()
        },
        async move {
            until(&clock, || notices.borrow().contains(&Notice::Connected)).await;
            main(session).await
        },
    )
}

fn run_error(setup: &Setup) -> McpError {
    let session = setup.session.clone();
    support::simulate(&setup.clock, |_| {}, async move { session.run().await })
}

async fn until(clock: &FakeClock, condition: impl Fn() -> bool) {
    for _ in 0..10_000 {
        if condition() {
            return;
        }
        support::pass_time(clock, 1).await;
    }
    panic!("the condition never became true");
}

fn answer_now(request: &Logged, net: &FakeNet) {
    net.emit(
        "message",
        &rpc_result(request.id(), text_result("legacy answer")).to_string(),
    );
}

#[test]
fn auto_detection_falls_back_to_legacy_sse_after_a_4xx_without_json_rpc() {
    let setup = legacy_setup(ServerConfig::new(URL), answer_now);
    let result = connected(&setup, async |session| {
        session
            .call_tool("echo", json!({}), &CancelToken::new())
            .await
    });
    assert_eq!(result.unwrap().text_content(), "legacy answer");
    assert_eq!(setup.session.transport(), Some(TransportKind::Sse));
    let requests = setup.net.requests();
    assert_eq!(
        (requests[0].url.as_str(), requests[0].rpc()),
        (URL, "initialize"),
        "streamable is tried first"
    );
    assert_eq!(*setup.net.opened.borrow(), [URL]);
    let legacy: Vec<(&str, &str)> = requests[1..]
        .iter()
        .map(|request| (request.url.as_str(), request.rpc()))
        .collect();
    assert_eq!(
        legacy,
        [
            (ENDPOINT_1, "initialize"),
            (ENDPOINT_1, "notifications/initialized"),
            (ENDPOINT_1, "tools/list"),
            (ENDPOINT_1, "tools/call")
        ]
    );
    assert!(
        requests[1..]
            .iter()
            .all(|request| request.header("MCP-Protocol-Version").is_none())
    );
    let names: Vec<String> = setup
        .session
        .facts()
        .tools
        .iter()
        .map(|tool| tool.name.clone())
        .collect();
    assert_eq!(names, ["echo", "get-weather"]);
}

#[test]
fn answers_are_matched_by_id_even_out_of_order() {
    let first: Rc<RefCell<Option<Value>>> = Rc::new(RefCell::new(None));
    let setup = legacy_setup(ServerConfig::new(URL), move |request, net| {
        let text = request.params()["arguments"]["text"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        let held = first.borrow_mut().take();
        match held {
            // Hold the first call; answer the second, then the first.
            None => *first.borrow_mut() = Some(request.id()),
            Some(first_id) => {
                net.emit(
                    "message",
                    &rpc_result(request.id(), text_result(&text)).to_string(),
                );
                net.emit(
                    "message",
                    &rpc_result(first_id, text_result("first")).to_string(),
                );
            }
        }
    });
    let (a, b) = connected(&setup, async |session| {
        let cancel = CancelToken::new();
        futures::join!(
            session.call_tool("echo", json!({"text": "first"}), &cancel),
            session.call_tool("echo", json!({"text": "second"}), &cancel)
        )
    });
    assert_eq!(a.unwrap().text_content(), "first");
    assert_eq!(b.unwrap().text_content(), "second");
}

#[test]
fn server_requests_on_the_stream_are_answered_at_the_endpoint() {
    let setup = legacy_setup(ServerConfig::new(URL), |request, net| {
        net.emit(
            "message",
            &json!({"jsonrpc": "2.0", "id": "p1", "method": "ping"}).to_string(),
        );
        net.emit(
            "message",
            &json!({"jsonrpc": "2.0", "id": "r1", "method": "roots/list"}).to_string(),
        );
        answer_now(request, net);
    });
    connected(&setup, async |session| {
        session
            .call_tool("echo", json!({}), &CancelToken::new())
            .await
            .unwrap()
    });
    let answers: Vec<Logged> = setup
        .net
        .requests()
        .into_iter()
        .filter(Logged::is_response)
        .collect();
    assert_eq!(answers.len(), 2);
    assert!(answers.iter().all(|answer| answer.url == ENDPOINT_1));
    assert_eq!(
        answers[0].body.clone().unwrap(),
        json!({"jsonrpc": "2.0", "id": "p1", "result": {}})
    );
    assert_eq!(answers[1].body.clone().unwrap()["error"]["code"], -32601);
}

/// A person who never answers; notes when the form is taken away.
struct Away {
    withdrawn: Rc<Cell<bool>>,
}

impl Elicitor for Away {
    fn supports_url(&self) -> bool {
        false
    }

    fn elicit(&self, _request: ElicitationRequest) -> LocalBoxFuture<'static, ElicitationAnswer> {
        let card = NoteDrop(self.withdrawn.clone());
        Box::pin(async move {
            let _card = card;
            futures::future::pending().await
        })
    }
}

struct NoteDrop(Rc<Cell<bool>>);

impl Drop for NoteDrop {
    fn drop(&mut self) {
        self.0.set(true);
    }
}

#[test]
fn a_form_left_open_by_a_stopped_call_is_taken_away_and_the_next_call_is_answered() {
    let asked = Rc::new(Cell::new(false));
    let mut setup = legacy_setup(ServerConfig::new(URL), move |request, net| {
        if asked.replace(true) {
            answer_now(request, net);
        } else {
            let question = json!({"jsonrpc": "2.0", "id": "ask-1", "method": "elicitation/create",
                "params": {"message": "Who are you?", "requestedSchema": {"type": "object", "properties": {}}}});
            net.emit("message", &question.to_string());
        }
    });
    let withdrawn = Rc::new(Cell::new(false));
    let Ok(session) = Rc::try_unwrap(setup.session) else { panic!("the session is not shared yet") };
    setup.session = Rc::new(session.with_elicitor(Rc::new(Away { withdrawn: withdrawn.clone() }), "legacy"));
    let clock = setup.clock.clone();
    let (first, second) = connected(&setup, async move |session| {
        let stop = CancelToken::new();
        let stopping = async {
            support::pass_time(&clock, 1_000).await;
            stop.cancel();
        };
        let (first, ()) = futures::join!(session.call_tool("echo", json!({}), &stop), stopping);
        let second = session.call_tool("echo", json!({}), &CancelToken::new()).await;
        (first, second)
    });
    assert_eq!(first.unwrap_err(), McpError::Cancelled);
    assert_eq!(second.unwrap().text_content(), "legacy answer", "the stream is read on");
    assert!(withdrawn.get(), "the form is taken away");
    let answers: Vec<Logged> = setup.net.requests().into_iter().filter(Logged::is_response).collect();
    assert_eq!(answers.len(), 1);
    assert_eq!(answers[0].url, ENDPOINT_1);
    assert_eq!(answers[0].body.clone().unwrap(), json!({"jsonrpc": "2.0", "id": "ask-1", "result": {"action": "cancel"}}));
}

#[test]
fn a_dropped_stream_fails_waiting_calls_then_reconnects_with_backoff_and_shakes_hands_again() {
    let setup = legacy_setup(ServerConfig::new(URL), |_, _| {});
    let (net, clock, notices) = (
        setup.net.clone(),
        setup.clock.clone(),
        setup.notices.clone(),
    );
    let (error, dropped_at, reconnected_at) = connected(&setup, async move |session| {
        let cancel = CancelToken::new();
        let calling = session.call_tool("echo", json!({}), &cancel);
        let dropping = async {
            support::pass_time(&clock, 100).await;
            net.drop_sources();
            clock.now()
        };
        let (error, dropped_at) = futures::join!(calling, dropping);
        until(&clock, || {
            notices
                .borrow()
                .iter()
                .filter(|notice| **notice == Notice::Connected)
                .count()
                == 2
        })
        .await;
        (error.unwrap_err(), dropped_at, clock.now())
    });
    assert_eq!(
        error.to_string(),
        "the server's event stream dropped: it ended"
    );
    assert!(
        setup
            .notices
            .borrow()
            .iter()
            .any(|notice| matches!(notice, Notice::Reconnecting { .. }))
    );
    assert_eq!(setup.net.opened.borrow().len(), 2);
    assert!(
        reconnected_at - dropped_at >= 500.0,
        "the first retry waits the initial backoff"
    );
    assert_eq!(
        setup.server.borrow().sessions_started,
        2,
        "a new stream means a new handshake"
    );
    let last_init = setup
        .net
        .requests()
        .into_iter()
        .rfind(|request| request.rpc() == "initialize")
        .unwrap();
    assert_eq!(last_init.url, "http://127.0.0.1:3001/message?sessionId=2");
}

#[test]
fn a_stream_that_never_names_its_endpoint_times_out_with_a_clear_error() {
    let setup = legacy_setup(
        ServerConfig {
            transport: TransportChoice::Sse,
            ..ServerConfig::new(URL)
        },
        answer_now,
    );
    setup.net.on_open(|_, _| true);
    assert_eq!(
        run_error(&setup).to_string(),
        "http://127.0.0.1:3001/sse did not send the legacy SSE `endpoint` event within 15000 ms"
    );
}

#[test]
fn an_endpoint_on_another_origin_is_refused() {
    let setup = legacy_setup(
        ServerConfig {
            transport: TransportChoice::Sse,
            ..ServerConfig::new(URL)
        },
        answer_now,
    );
    setup.net.on_open(|_, net| {
        net.emit("endpoint", "https://collector.example/steal");
        true
    });
    let error = run_error(&setup);
    assert!(matches!(error, McpError::Endpoint(_)), "{error:?}");
    assert!(setup.net.requests().is_empty(), "nothing is sent there");
}

#[test]
fn with_a_bearer_token_the_stream_is_read_over_http_with_authorization() {
    let server = Rc::new(RefCell::new(FakeServer::default()));
    let inner = server.clone();
    let net = FakeNet::new(
        move |request: &Logged, net: &FakeNet| match request.method {
            Method::Get => {
                let reply = net.live_sse();
                net.feed("event: endpoint\ndata: /message?sessionId=9\n\n");
                reply
            }
            _ => {
                if let Some(answer) = inner.borrow_mut().answer(request) {
                    net.feed(&format!("event: message\ndata: {answer}\n\n"));
                }
                Reply::accepted()
            }
        },
    );
    let config = ServerConfig {
        transport: TransportChoice::Sse,
        bearer_token: Some("s3cret".into()),
        ..ServerConfig::new(URL)
    };
    let setup = session_over(net, config, server);
    connected(&setup, async |_| ());
    assert!(
        setup.net.opened.borrow().is_empty(),
        "EventSource cannot send headers, so it is not used"
    );
    let requests = setup.net.requests();
    assert_eq!(requests[0].method, Method::Get);
    assert_eq!(requests[0].header("Accept"), Some("text/event-stream"));
    assert!(
        requests
            .iter()
            .all(|request| request.header("Authorization") == Some("Bearer s3cret"))
    );
}

// ---------------------------------------------------------------- detection

fn detection(
    config: ServerConfig,
    post: impl Fn() -> Reply + 'static,
    stream_opens: bool,
) -> Setup {
    let net = FakeNet::new(move |_: &Logged, _: &FakeNet| post());
    net.on_open(move |_, _| stream_opens);
    session_over(net, config, Rc::new(RefCell::new(FakeServer::default())))
}

#[test]
fn a_4xx_carrying_a_json_rpc_error_is_the_servers_answer_not_a_reason_to_fall_back() {
    let setup = detection(
        ServerConfig::new(URL),
        || {
            Reply::json(
                400,
                json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "Invalid Request"}}),
            )
        },
        true,
    );
    assert_eq!(
        run_error(&setup).to_string(),
        "server error -32600: Invalid Request"
    );
    assert!(setup.net.opened.borrow().is_empty());
}

#[test]
fn an_authorization_failure_does_not_fall_back() {
    let setup = detection(
        ServerConfig::new(URL),
        || Reply::text(401, "token required"),
        true,
    );
    assert!(matches!(
        run_error(&setup),
        McpError::Http { status: 401, .. }
    ));
    assert!(setup.net.opened.borrow().is_empty());
}

#[test]
fn a_network_failure_does_not_fall_back() {
    let setup = detection(
        ServerConfig::new(URL),
        || Reply::Network("Failed to fetch".into()),
        true,
    );
    assert!(matches!(run_error(&setup), McpError::Unreachable { .. }));
    assert!(setup.net.opened.borrow().is_empty());
}

#[test]
fn a_url_that_is_neither_transport_says_what_each_attempt_got() {
    let setup = detection(
        ServerConfig::new(URL),
        || Reply::text(404, "Not Found"),
        false,
    );
    let message = run_error(&setup).to_string();
    assert!(
        message.starts_with(
            "http://127.0.0.1:3001/sse is neither a Streamable HTTP endpoint (HTTP 404"
        ),
        "{message}"
    );
    assert!(
        message.contains("nor a legacy SSE endpoint (")
            && message.contains("the event stream failed"),
        "{message}"
    );
}

#[test]
fn the_users_choice_of_streamable_never_falls_back() {
    let config = ServerConfig {
        transport: TransportChoice::Streamable,
        ..ServerConfig::new(URL)
    };
    let setup = detection(config, || Reply::text(404, "Not Found"), true);
    assert!(matches!(
        run_error(&setup),
        McpError::Http { status: 404, .. }
    ));
    assert!(setup.net.opened.borrow().is_empty());
}

#[test]
fn the_users_choice_of_sse_never_posts_to_the_url() {
    let config = ServerConfig {
        transport: TransportChoice::Sse,
        ..ServerConfig::new(URL)
    };
    let setup = legacy_setup(config, answer_now);
    connected(&setup, async |_| ());
    assert!(
        setup
            .net
            .requests()
            .iter()
            .all(|request| request.url != URL)
    );
}

#[test]
fn a_cached_legacy_verdict_opens_the_stream_first() {
    let config = ServerConfig {
        detected: Some(TransportKind::Sse),
        ..ServerConfig::new(URL)
    };
    let setup = legacy_setup(config, answer_now);
    connected(&setup, async |_| ());
    assert!(
        setup
            .net
            .requests()
            .iter()
            .all(|request| request.url != URL),
        "no streamable probe"
    );
}

#[test]
fn a_cached_legacy_verdict_that_no_longer_holds_falls_through_to_streamable() {
    let server = Rc::new(RefCell::new(FakeServer::default()));
    let inner = server.clone();
    let net =
        FakeNet::new(move |request: &Logged, _: &FakeNet| inner.borrow_mut().streamable(request));
    net.on_open(|_, _| false);
    let config = ServerConfig {
        detected: Some(TransportKind::Sse),
        ..ServerConfig::new(URL)
    };
    let setup = session_over(net, config, server);
    connected(&setup, async |_| ());
    assert_eq!(setup.session.transport(), Some(TransportKind::Streamable));
}
