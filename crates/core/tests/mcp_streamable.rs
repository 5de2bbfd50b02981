//! A Streamable HTTP session, against a scripted server: the handshake (versions, honest
//! capabilities, session id echoed, `MCP-Protocol-Version` after init), `tools/list` through every
//! cursor, JSON and SSE answers (cut at every byte), server requests (`ping`, unknown methods),
//! timeouts and cancellation with `notifications/cancelled`, session expiry (404, or 400 naming the
//! session; one renewal for calls that find it together; a call whose session ends before its answer
//! is not sent again), the listening stream with `list_changed` and `Last-Event-ID` resumption (read
//! on while a question it carried waits on the person), and errors that say what to do.

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
use autoui_core::ports::{Clock, HttpError, HttpRequest, HttpResponse, HttpTransport, Method};
use autoui_core::tool::ResultPart;
use futures::FutureExt;
use futures::future::LocalBoxFuture;
use futures::task::LocalSpawnExt;
use serde_json::{Value, json};
use support::{FakeClock, FakeNet, FakeServer, Logged, Reply, rpc_result, text_result, tool};

const URL: &str = "http://127.0.0.1:3001/mcp";

struct Setup<H = FakeNet> {
    clock: FakeClock,
    net: Rc<FakeNet>,
    session: Rc<Session<H>>,
    notices: Rc<RefCell<Vec<Notice>>>,
}

fn setup_with(
    config: ServerConfig,
    options: McpOptions,
    script: impl FnMut(&Logged, &FakeNet) -> Reply + 'static,
) -> Setup {
    setup_over(config, options, script, |net, _| net.clone())
}

/// A setup whose session reaches the scripted network through `http`.
fn setup_over<H: HttpTransport + 'static>(
    config: ServerConfig,
    options: McpOptions,
    script: impl FnMut(&Logged, &FakeNet) -> Reply + 'static,
    http: impl FnOnce(&Rc<FakeNet>, &FakeClock) -> Rc<H>,
) -> Setup<H> {
    let clock = FakeClock::default();
    let net = FakeNet::new(script);
    let notices = Rc::new(RefCell::new(Vec::new()));
    let sink = notices.clone();
    let ports = SessionPorts {
        http: http(&net, &clock),
        event_sources: net.clone(),
        clock: Rc::new(clock.clone()),
    };
    let session = Rc::new(Session::new(
        config,
        ports,
        options,
        Rc::new(move |notice| sink.borrow_mut().push(notice)),
    ));
    Setup {
        clock,
        net,
        session,
        notices,
    }
}

fn streamable_config() -> ServerConfig {
    ServerConfig {
        transport: TransportChoice::Streamable,
        ..ServerConfig::new(URL)
    }
}

/// A server that answers MCP requests and hands `tools/call` to `call`.
fn server_with(
    server: FakeServer,
    mut call: impl FnMut(&Logged, &FakeNet) -> Reply + 'static,
) -> impl FnMut(&Logged, &FakeNet) -> Reply {
    let server = Rc::new(RefCell::new(server));
    move |request, net| match request.rpc() {
        "tools/call" => call(request, net),
        _ => server.borrow_mut().streamable(request),
    }
}

/// The scripted network with every answer `latency_ms` late, so that requests sent together are
/// all out before the first answer comes back.
struct Slow {
    net: Rc<FakeNet>,
    clock: FakeClock,
    latency_ms: u32,
}

impl HttpTransport for Slow {
    fn send(&self, request: HttpRequest, cancel: CancelToken) -> LocalBoxFuture<'_, Result<HttpResponse, HttpError>> {
        let answer = self.net.send(request, cancel);
        let latency = self.clock.sleep(self.latency_ms);
        async move {
            latency.await;
            answer.await
        }
        .boxed_local()
    }
}

/// Runs the session in the background and `main` once it has connected.
fn connected<H: HttpTransport + 'static, T: 'static>(
    setup: &Setup<H>,
    main: impl AsyncFnOnce(Rc<Session<H>>) -> T + 'static,
) -> T {
    let session = setup.session.clone();
    let runner = setup.session.clone();
    let notices = setup.notices.clone();
    let clock = setup.clock.clone();
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

async fn until(clock: &FakeClock, condition: impl Fn() -> bool) {
    for _ in 0..10_000 {
        if condition() {
            return;
        }
        support::pass_time(clock, 1).await;
    }
    panic!("the condition never became true");
}

fn call(
    setup: &Setup,
    tool: &'static str,
    args: Value,
) -> Result<autoui_core::tool::ToolResult, McpError> {
    connected(setup, async move |session| {
        session.call_tool(tool, args, &CancelToken::new()).await
    })
}

#[test]
fn the_handshake_declares_honest_capabilities_then_sends_initialized_and_lists_tools() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(FakeServer::default(), |_, _| Reply::Hang),
    );
    connected(&setup, async |_| ());
    let requests = setup.net.requests();
    assert_eq!(
        setup.net.rpc_log()[..3],
        ["initialize", "notifications/initialized", "tools/list"]
    );
    let init = &requests[0];
    assert_eq!(init.method, Method::Post);
    assert_eq!(init.url, URL);
    assert_eq!(
        init.header("Accept"),
        Some("application/json, text/event-stream")
    );
    assert_eq!(init.header("Content-Type"), Some("application/json"));
    assert_eq!(init.header("Mcp-Session-Id"), None);
    assert_eq!(init.header("MCP-Protocol-Version"), None);
    let params = init.params();
    assert_eq!(params["protocolVersion"], "2025-11-25");
    assert_eq!(
        params["capabilities"],
        json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}}),
        "no roots, sampling or elicitation: we implement none; MCP Apps views we do show"
    );
    assert_eq!(params["clientInfo"]["name"], "autoui");
    let facts = setup.session.facts();
    let names: Vec<&str> = facts.tools.iter().map(|tool| tool.name.as_str()).collect();
    assert_eq!(names, ["echo", "get-weather"]);
    assert_eq!(
        facts.hello.unwrap().instructions.as_deref(),
        Some("Prefer get-weather for forecasts.")
    );
    assert_eq!(setup.session.transport(), Some(TransportKind::Streamable));
}

#[test]
fn every_request_after_initialize_echoes_the_session_id_and_the_negotiated_version() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(FakeServer::default(), |request, _| {
            Reply::result(request.id(), text_result("hi"))
        }),
    );
    call(&setup, "echo", json!({"text": "hi"})).unwrap();
    let after_init: Vec<Logged> = setup.net.requests().into_iter().skip(1).collect();
    assert!(after_init.len() >= 3);
    for request in after_init {
        assert_eq!(
            request.header("Mcp-Session-Id"),
            Some("session-1"),
            "{} {}",
            request.method.as_str(),
            request.rpc()
        );
        assert_eq!(
            request.header("MCP-Protocol-Version"),
            Some("2025-06-18"),
            "{}",
            request.rpc()
        );
    }
}

#[test]
fn tools_list_follows_every_cursor_and_keeps_the_order() {
    let server = FakeServer {
        pages: vec![
            vec![tool("a"), tool("b")],
            vec![tool("c")],
            vec![tool("d"), tool("e")],
        ],
        ..FakeServer::default()
    };
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(server, |_, _| Reply::Hang),
    );
    connected(&setup, async |_| ());
    let names: Vec<String> = setup
        .session
        .facts()
        .tools
        .iter()
        .map(|tool| tool.name.clone())
        .collect();
    assert_eq!(names, ["a", "b", "c", "d", "e"]);
    let cursors: Vec<Value> = setup
        .net
        .requests()
        .iter()
        .filter(|request| request.rpc() == "tools/list")
        .map(|request| request.params()["cursor"].clone())
        .collect();
    assert_eq!(cursors, [Value::Null, json!("page-2"), json!("page-3")]);
}

#[test]
fn a_cursor_that_comes_back_is_an_error_instead_of_an_endless_loop() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        |request: &Logged, _: &FakeNet| match request.rpc() {
            "tools/list" => Reply::result(
                request.id(),
                json!({"tools": [tool("a")], "nextCursor": "same"}),
            ),
            _ => FakeServer::default()
                .streamable(request)
                .with_header("Mcp-Session-Id", "s"),
        },
    );
    let error = support::simulate(&setup.clock, |_| {}, {
        let session = setup.session.clone();
        async move { session.run().await }
    });
    assert_eq!(
        error.to_string(),
        "invalid message from the server: tools/list returned cursor \"same\" twice"
    );
}

#[test]
fn a_malformed_tool_is_reported_and_the_others_kept() {
    let server = FakeServer {
        pages: vec![vec![
            tool("good"),
            json!({"description": "no name"}),
            tool("good"),
            tool("fine"),
        ]],
        ..FakeServer::default()
    };
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(server, |_, _| Reply::Hang),
    );
    connected(&setup, async |_| ());
    let facts = setup.session.facts();
    let names: Vec<&str> = facts.tools.iter().map(|tool| tool.name.as_str()).collect();
    assert_eq!(names, ["good", "fine"]);
    assert_eq!(facts.unreadable_tools.len(), 2);
    assert!(
        facts.unreadable_tools[0].contains("tool 2: missing field `name`"),
        "{:?}",
        facts.unreadable_tools
    );
    assert!(
        facts.unreadable_tools[1].contains("\"good\" is listed twice"),
        "{:?}",
        facts.unreadable_tools
    );
}

/// The answer to the first call (id 2, after `initialize` 0 and `tools/list` 1) as one SSE body:
/// a progress notification, a server `ping`, then the result.
fn sse_answer_body() -> Vec<u8> {
    let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress",
        "params": {"progressToken": 2, "progress": 1, "total": 2, "message": "half way"}});
    let ping = json!({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"});
    let result = rpc_result(json!(2), text_result("r\u{e9}sultat"));
    format!(": hello\r\nevent: message\r\ndata: {progress}\r\n\r\nid: e1\ndata: {ping}\n\ndata: {result}\n\n").into_bytes()
}

#[test]
fn an_sse_answer_gives_the_same_outcome_wherever_its_bytes_are_cut() {
    let body = sse_answer_body();
    for cut in 0..=body.len() {
        let chunks = vec![body[..cut].to_vec(), body[cut..].to_vec()];
        let setup = setup_with(
            streamable_config(),
            McpOptions::default(),
            server_with(FakeServer::default(), move |_, _| {
                Reply::sse_chunks(chunks.clone())
            }),
        );
        let result = call(&setup, "echo", json!({})).unwrap();
        assert_eq!(result.text_content(), "r\u{e9}sultat", "cut at {cut}");
        let progress: Vec<Notice> = setup
            .notices
            .borrow()
            .iter()
            .filter(|notice| matches!(notice, Notice::Progress { .. }))
            .cloned()
            .collect();
        assert_eq!(
            progress,
            [Notice::Progress {
                tool: "echo".into(),
                progress: 1.0,
                total: Some(2.0),
                message: Some("half way".into())
            }],
            "cut at {cut}"
        );
        let pong = setup
            .net
            .requests()
            .into_iter()
            .find(|request| request.is_response())
            .expect("ping answered");
        assert_eq!(
            pong.body.unwrap(),
            json!({"jsonrpc": "2.0", "id": "srv-1", "result": {}}),
            "cut at {cut}"
        );
    }
}

#[test]
fn the_call_asks_for_progress_with_its_own_request_id() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(FakeServer::default(), |request, _| {
            Reply::result(request.id(), text_result("ok"))
        }),
    );
    call(&setup, "echo", json!({"text": "x"})).unwrap();
    let call = setup
        .net
        .requests()
        .into_iter()
        .find(|request| request.rpc() == "tools/call")
        .unwrap();
    assert_eq!(
        call.params(),
        json!({"name": "echo", "arguments": {"text": "x"}, "_meta": {"progressToken": call.id()}})
    );
}

#[test]
fn a_server_request_for_an_unknown_method_is_refused_with_minus_32601() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(FakeServer::default(), |request, _| {
            Reply::sse(&[
                json!({"jsonrpc": "2.0", "id": 77, "method": "sampling/createMessage", "params": {}}),
                rpc_result(request.id(), text_result("done")),
            ])
        }),
    );
    call(&setup, "echo", json!({})).unwrap();
    let refusal = setup
        .net
        .requests()
        .into_iter()
        .find(|request| request.is_response())
        .unwrap()
        .body
        .unwrap();
    assert_eq!(refusal["id"], 77);
    assert_eq!(refusal["error"]["code"], -32601);
    assert!(
        refusal["error"]["message"]
            .as_str()
            .unwrap()
            .contains("sampling/createMessage")
    );
}

#[test]
fn is_error_results_are_results_and_protocol_errors_are_errors() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(FakeServer::default(), |request, _| {
            match request.params()["name"].as_str() {
                Some("echo") => Reply::result(
                    request.id(),
                    json!({"content": [{"type": "text", "text": "bad city"}], "isError": true}),
                ),
                _ => Reply::json(
                    200,
                    json!({"jsonrpc": "2.0", "id": request.id(), "error": {"code": -32602, "message": "Unknown tool: nope"}}),
                ),
            }
        }),
    );
    let (tool_error, protocol_error) = connected(&setup, async |session| {
        let tool_error = session
            .call_tool("echo", json!({}), &CancelToken::new())
            .await;
        let protocol_error = session
            .call_tool("nope", json!({}), &CancelToken::new())
            .await;
        (tool_error, protocol_error)
    });
    let tool_error = tool_error.unwrap();
    assert!(tool_error.is_error);
    assert_eq!(
        tool_error.content,
        [ResultPart::Text {
            text: "bad city".into()
        }]
    );
    assert_eq!(
        protocol_error.unwrap_err().to_string(),
        "server error -32602: Unknown tool: nope"
    );
}

#[test]
fn an_expired_session_is_renewed_once_and_the_call_retried() {
    let server = Rc::new(RefCell::new(FakeServer::default()));
    let calls = Rc::new(RefCell::new(0));
    let (server_in, calls_in) = (server.clone(), calls.clone());
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        move |request: &Logged, _: &FakeNet| {
            match request.rpc() {
                "tools/call" => {
                    *calls_in.borrow_mut() += 1;
                    // The first session is forgotten by the server; the second works.
                    match request.header("Mcp-Session-Id") {
                        Some("session-2") => {
                            Reply::result(request.id(), text_result("after renewal"))
                        }
                        _ => Reply::text(404, "Session not found"),
                    }
                }
                _ => server_in.borrow_mut().streamable(request),
            }
        },
    );
    let result = call(&setup, "echo", json!({})).unwrap();
    assert_eq!(result.text_content(), "after renewal");
    assert_eq!(*calls.borrow(), 2);
    assert_eq!(server.borrow().sessions_started, 2);
    let second_init = setup
        .net
        .requests()
        .into_iter()
        .filter(|request| request.rpc() == "initialize")
        .nth(1)
        .unwrap();
    assert_eq!(
        second_init.header("Mcp-Session-Id"),
        None,
        "re-initialising goes without the dead session id"
    );
}

#[test]
fn a_session_that_expires_again_right_away_is_an_error_not_a_loop() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(FakeServer::default(), |_, _| {
            Reply::text(404, "Session not found")
        }),
    );
    let error = call(&setup, "echo", json!({})).unwrap_err();
    assert_eq!(error, McpError::SessionExpired);
    let inits = setup
        .net
        .rpc_log()
        .iter()
        .filter(|method| *method == "initialize")
        .count();
    assert_eq!(inits, 2);
}

/// What server-everything and the TS SDK examples answer a session id they do not know (after a restart).
fn no_valid_session() -> Reply {
    Reply::json(
        400,
        json!({"jsonrpc": "2.0", "error": {"code": -32000, "message": "Bad Request: No valid session ID provided"}, "id": null}),
    )
}

#[test]
fn a_restarted_server_answering_400_about_the_session_gets_a_renewed_session() {
    let server = Rc::new(RefCell::new(FakeServer::default()));
    let inner = server.clone();
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        move |request: &Logged, _: &FakeNet| match (request.rpc(), request.header("Mcp-Session-Id")) {
            ("tools/call", Some("session-2")) => Reply::result(request.id(), text_result("after restart")),
            ("tools/call", _) => no_valid_session(),
            _ => inner.borrow_mut().streamable(request),
        },
    );
    let result = call(&setup, "echo", json!({}));
    assert_eq!(result.unwrap().text_content(), "after restart");
    assert_eq!(server.borrow().sessions_started, 2);
}

#[test]
fn a_400_that_is_not_about_the_session_stays_an_error() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(FakeServer::default(), |request, _| {
            Reply::json(
                400,
                json!({"jsonrpc": "2.0", "id": request.id(), "error": {"code": -32602, "message": "Invalid arguments for tool echo"}}),
            )
        }),
    );
    let error = call(&setup, "echo", json!({})).unwrap_err();
    assert_eq!(error.to_string(), "server error -32602: Invalid arguments for tool echo");
    let rpc_log = setup.net.rpc_log();
    let inits = rpc_log.iter().filter(|method| *method == "initialize").count();
    assert_eq!(inits, 1, "no renewal: {rpc_log:?}");
}

#[test]
fn two_calls_that_find_the_session_expired_together_share_one_renewal() {
    let server = Rc::new(RefCell::new(FakeServer::default()));
    let inner = server.clone();
    let setup = setup_over(
        streamable_config(),
        McpOptions::default(),
        move |request: &Logged, _: &FakeNet| match (request.rpc(), request.header("Mcp-Session-Id")) {
            ("tools/call", Some("session-1")) => Reply::text(404, "Session not found"),
            ("tools/call", Some(_)) => {
                Reply::result(request.id(), text_result(&request.params()["arguments"]["n"].to_string()))
            }
            ("tools/call", None) => no_valid_session(),
            _ => inner.borrow_mut().streamable(request),
        },
        |net, clock| Rc::new(Slow { net: net.clone(), clock: clock.clone(), latency_ms: 10 }),
    );
    let (first, second) = connected(&setup, async |session| {
        let never = CancelToken::new();
        futures::join!(
            session.call_tool("echo", json!({"n": 1}), &never),
            session.call_tool("echo", json!({"n": 2}), &never),
        )
    });
    let expired = setup
        .net
        .requests()
        .iter()
        .filter(|request| request.rpc() == "tools/call" && request.header("Mcp-Session-Id") == Some("session-1"))
        .count();
    assert_eq!(expired, 2, "both calls were answered 404");
    assert_eq!(first.unwrap().text_content(), "1");
    assert_eq!(second.unwrap().text_content(), "2");
    assert_eq!(server.borrow().sessions_started, 2, "one initialize to connect, one to renew");
}

#[test]
fn a_call_whose_session_ends_before_its_answer_is_not_sent_again() {
    let server = Rc::new(RefCell::new(FakeServer {
        list_changed: false,
        ..FakeServer::default()
    }));
    let inner = server.clone();
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        move |request: &Logged, _: &FakeNet| match (request.method, request.rpc()) {
            // The server took the call, numbered its stream, then restarted.
            (Method::Post, "tools/call") if request.params()["arguments"]["order"] == "pay" => {
                Reply::sse_chunks(vec![b"id: call-1\ndata:\n\n".to_vec()])
            }
            (Method::Post, "tools/call") => match request.header("Mcp-Session-Id") {
                Some("session-2") => Reply::result(request.id(), text_result("later call")),
                _ => Reply::text(404, "Session not found"),
            },
            (Method::Get, _) if request.header("Last-Event-ID").is_some() => {
                Reply::text(404, "Session not found")
            }
            _ => inner.borrow_mut().streamable(request),
        },
    );
    let (paid, later) = connected(&setup, async |session| {
        let paid = session
            .call_tool("echo", json!({"order": "pay"}), &CancelToken::new())
            .await;
        let later = session
            .call_tool("echo", json!({"order": "look"}), &CancelToken::new())
            .await;
        (paid, later)
    });
    let payments = setup
        .net
        .requests()
        .iter()
        .filter(|request| request.params()["arguments"]["order"] == "pay")
        .count();
    assert_eq!(payments, 1, "the call went to the server once");
    let error = paid.unwrap_err();
    assert_eq!(error, McpError::SessionEndedBeforeAnswer);
    assert_eq!(
        error.to_string(),
        "the server ended the session before answering, so the request was not sent again: it may have been carried out"
    );
    assert_eq!(later.unwrap().text_content(), "later call", "the next call renews the session");
    assert_eq!(server.borrow().sessions_started, 2);
}

#[test]
fn a_call_that_takes_too_long_is_cancelled_on_the_server_and_aborted() {
    let options = McpOptions {
        call_timeout_ms: 5_000,
        ..McpOptions::default()
    };
    let setup = setup_with(
        streamable_config(),
        options,
        server_with(FakeServer::default(), |_, _| Reply::Hang),
    );
    let (error, elapsed) = connected(&setup, {
        let clock = setup.clock.clone();
        async move |session| {
            let started = clock.now();
            let error = session
                .call_tool("echo", json!({}), &CancelToken::new())
                .await
                .unwrap_err();
            (error, clock.now() - started)
        }
    });
    assert_eq!(error.to_string(), "no answer within 5000 ms");
    assert_eq!(elapsed, 5_000.0);
    assert_eq!(setup.net.aborted.get(), 1, "the fetch is aborted");
    let requests = setup.net.requests();
    let call = requests
        .iter()
        .find(|request| request.rpc() == "tools/call")
        .unwrap();
    let cancelled = requests
        .iter()
        .find(|request| request.rpc() == "notifications/cancelled")
        .unwrap();
    assert_eq!(cancelled.params()["requestId"], call.id());
    assert_eq!(cancelled.params()["reason"], "no answer within 5000 ms");
}

#[test]
fn stop_cancels_the_call_tells_the_server_and_aborts_the_fetch() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(FakeServer::default(), |_, _| Reply::Hang),
    );
    let clock = setup.clock.clone();
    let error = connected(&setup, async move |session| {
        let stop = CancelToken::new();
        let pressed = stop.clone();
        let calling = session.call_tool("echo", json!({}), &stop);
        let pressing = async {
            support::pass_time(&clock, 300).await;
            pressed.cancel();
        };
        futures::join!(calling, pressing).0.unwrap_err()
    });
    assert_eq!(error, McpError::Cancelled);
    assert_eq!(setup.net.aborted.get(), 1);
    let cancelled = setup
        .net
        .requests()
        .into_iter()
        .find(|request| request.rpc() == "notifications/cancelled")
        .unwrap();
    assert_eq!(cancelled.params()["reason"], "cancelled by the user");
}

#[test]
fn a_call_already_cancelled_sends_nothing() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(FakeServer::default(), |_, _| Reply::Hang),
    );
    let error = connected(&setup, async |session| {
        let stop = CancelToken::new();
        stop.cancel();
        session
            .call_tool("echo", json!({}), &stop)
            .await
            .unwrap_err()
    });
    assert_eq!(error, McpError::Cancelled);
    assert!(
        !setup
            .net
            .rpc_log()
            .iter()
            .any(|method| method == "tools/call")
    );
}

/// A server whose GET stream the test feeds; its tool list grows when asked.
fn listening_setup(options: McpOptions) -> (Setup, Rc<RefCell<FakeServer>>) {
    let server = Rc::new(RefCell::new(FakeServer::default()));
    let inner = server.clone();
    let setup = setup_with(
        streamable_config(),
        options,
        move |request: &Logged, net: &FakeNet| match request.method {
            Method::Get => net.live_sse(),
            _ => inner.borrow_mut().streamable(request),
        },
    );
    (setup, server)
}

#[test]
fn list_changed_on_the_listening_stream_lists_the_tools_again() {
    let (setup, server) = listening_setup(McpOptions::default());
    let (net, clock, notices) = (
        setup.net.clone(),
        setup.clock.clone(),
        setup.notices.clone(),
    );
    connected(&setup, async move |_| {
        until(&clock, || !net.streams.borrow().is_empty()).await;
        server.borrow_mut().pages = vec![vec![tool("echo")], vec![tool("brand-new")]];
        net.feed("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n");
        until(&clock, || notices.borrow().contains(&Notice::ToolsChanged)).await;
    });
    let names: Vec<String> = setup
        .session
        .facts()
        .tools
        .iter()
        .map(|tool| tool.name.clone())
        .collect();
    assert_eq!(names, ["echo", "brand-new"]);
    let get = setup
        .net
        .requests()
        .into_iter()
        .find(|request| request.method == Method::Get)
        .unwrap();
    assert_eq!(get.header("Accept"), Some("text/event-stream"));
    assert_eq!(get.header("Mcp-Session-Id"), Some("session-1"));
}

#[test]
fn a_server_that_forgets_every_new_session_at_once_is_backed_off_then_reported_not_looped() {
    let server = Rc::new(RefCell::new(FakeServer::default()));
    let inner = server.clone();
    // Answers take a moment, so a loop of renewals would let time pass rather than hang the test.
    let setup = setup_over(
        streamable_config(),
        McpOptions::default(),
        move |request: &Logged, _: &FakeNet| match request.method {
            Method::Get => Reply::text(404, "Session not found"),
            _ => inner.borrow_mut().streamable(request),
        },
        |net, clock| Rc::new(Slow { net: net.clone(), clock: clock.clone(), latency_ms: 10 }),
    );
    let (runner, clock) = (setup.session.clone(), setup.clock.clone());
    let started = clock.now();
    let reason = support::simulate(&setup.clock, |_| {}, async move { runner.run().await });
    assert!(matches!(reason, McpError::SessionExpired), "{reason}");
    let renewals = server.borrow().sessions_started - 1;
    let backoff = McpOptions::default().backoff;
    assert_eq!(renewals, backoff.max_attempts as usize + 1, "each quick expiry renewed once, then given up");
    let waited: u32 = (0..backoff.max_attempts).map(|attempt| backoff.delay_ms(attempt, None)).sum();
    assert!(setup.clock.now() - started >= f64::from(waited), "backed off between renewals");
}

#[test]
fn a_ping_on_the_listening_stream_is_answered() {
    let (setup, _) = listening_setup(McpOptions::default());
    let (net, clock) = (setup.net.clone(), setup.clock.clone());
    connected(&setup, async move |_| {
        until(&clock, || !net.streams.borrow().is_empty()).await;
        net.feed("data: {\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\n\n");
        until(&clock, || net.rpc_log().contains(&"response".to_owned())).await;
    });
    let pong = setup
        .net
        .requests()
        .into_iter()
        .find(|request| request.is_response())
        .unwrap();
    assert_eq!(
        pong.body.unwrap(),
        json!({"jsonrpc": "2.0", "id": 5, "result": {}})
    );
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
fn a_question_on_the_listening_stream_does_not_hold_the_stream_up_and_the_server_may_take_it_back() {
    let (mut setup, server) = listening_setup(McpOptions::default());
    let withdrawn = Rc::new(Cell::new(false));
    let Ok(session) = Rc::try_unwrap(setup.session) else { panic!("the session is not shared yet") };
    setup.session = Rc::new(session.with_elicitor(Rc::new(Away { withdrawn: withdrawn.clone() }), "people"));
    let (net, clock, notices, taken_away) =
        (setup.net.clone(), setup.clock.clone(), setup.notices.clone(), withdrawn.clone());
    connected(&setup, async move |_| {
        until(&clock, || !net.streams.borrow().is_empty()).await;
        let question = json!({"jsonrpc": "2.0", "id": "ask-1", "method": "elicitation/create",
            "params": {"message": "Who are you?", "requestedSchema": {"type": "object", "properties": {}}}});
        net.feed(&format!("data: {question}\n\n"));
        server.borrow_mut().pages = vec![vec![tool("echo")], vec![tool("brand-new")]];
        net.feed("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n");
        until(&clock, || notices.borrow().contains(&Notice::ToolsChanged)).await;
        net.feed("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"ask-1\"}}\n\n");
        until(&clock, || taken_away.get()).await;
    });
    assert!(!setup.net.requests().iter().any(Logged::is_response), "a question the server cancelled is not answered");
}

#[test]
fn a_dropped_listening_stream_reconnects_after_the_servers_retry_delay_with_last_event_id() {
    let (setup, _) = listening_setup(McpOptions::default());
    let (net, clock) = (setup.net.clone(), setup.clock.clone());
    let (dropped_at, reopened_at) = connected(&setup, async move |_| {
        until(&clock, || net.streams.borrow().len() == 1).await;
        net.feed("retry: 1500\nid: ev-7\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n");
        support::pass_time(&clock, 1).await;
        net.end_streams();
        let dropped_at = clock.now();
        until(&clock, || {
            net.requests()
                .iter()
                .filter(|request| request.method == Method::Get)
                .count()
                == 2
        })
        .await;
        (dropped_at, clock.now())
    });
    let gets: Vec<Logged> = setup
        .net
        .requests()
        .into_iter()
        .filter(|request| request.method == Method::Get)
        .collect();
    assert_eq!(gets[0].header("Last-Event-ID"), None);
    assert_eq!(gets[1].header("Last-Event-ID"), Some("ev-7"));
    let waited = reopened_at - dropped_at;
    assert!((1_500.0..1_502.0).contains(&waited), "waited {waited} ms");
}

#[test]
fn a_server_without_a_listening_stream_is_fine() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(FakeServer::default(), |request, _| {
            Reply::result(request.id(), text_result("ok"))
        }),
    );
    // FakeServer answers GET with 405.
    let result = connected(&setup, {
        let clock = setup.clock.clone();
        async move |session| {
            support::pass_time(&clock, 60_000).await;
            session
                .call_tool("echo", json!({}), &CancelToken::new())
                .await
        }
    });
    assert_eq!(result.unwrap().text_content(), "ok");
    assert_eq!(
        setup
            .net
            .requests()
            .iter()
            .filter(|request| request.method == Method::Get)
            .count(),
        1
    );
}

#[test]
fn an_answer_stream_that_drops_early_is_resumed_with_last_event_id() {
    let server = Rc::new(RefCell::new(FakeServer {
        list_changed: false,
        ..FakeServer::default()
    }));
    let inner = server.clone();
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        move |request: &Logged, _: &FakeNet| match (request.method, request.rpc()) {
            (Method::Post, "tools/call") => {
                Reply::sse_chunks(vec![b"id: call-1\ndata:\n\n".to_vec()])
            }
            (Method::Get, _) if request.header("Last-Event-ID") == Some("call-1") => {
                Reply::sse(&[rpc_result(json!(2), text_result("resumed"))])
            }
            _ => inner.borrow_mut().streamable(request),
        },
    );
    let result = call(&setup, "echo", json!({})).unwrap();
    assert_eq!(result.text_content(), "resumed");
}

#[test]
fn an_answer_stream_that_ends_without_ids_is_an_error() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(FakeServer::default(), |_, _| {
            Reply::sse_chunks(vec![b": nothing\n\n".to_vec()])
        }),
    );
    assert_eq!(
        call(&setup, "echo", json!({})).unwrap_err(),
        McpError::StreamEnded
    );
}

#[test]
fn an_unsupported_protocol_version_is_refused_by_name() {
    let server = FakeServer {
        protocol: "2023-01-01".into(),
        ..FakeServer::default()
    };
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(server, |_, _| Reply::Hang),
    );
    let error = support::simulate(&setup.clock, |_| {}, {
        let session = setup.session.clone();
        async move { session.run().await }
    });
    assert_eq!(
        error.to_string(),
        "the server speaks MCP protocol 2023-01-01, which this client does not support (it supports 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)"
    );
}

fn run_error(script: impl FnMut(&Logged, &FakeNet) -> Reply + 'static) -> String {
    let setup = setup_with(streamable_config(), McpOptions::default(), script);
    let session = setup.session.clone();
    support::simulate(&setup.clock, |_| {}, async move { session.run().await }).to_string()
}

#[test]
fn a_failure_without_status_names_the_cors_headers_the_server_must_send() {
    let message = run_error(|_, _| Reply::Network("TypeError: Failed to fetch".into()));
    assert!(message.starts_with("http://127.0.0.1:3001/mcp is unreachable or missing CORS headers (TypeError: Failed to fetch)"), "{message}");
    for needed in [
        "Access-Control-Allow-Origin",
        "Access-Control-Allow-Methods: GET, POST, DELETE, OPTIONS",
        "Access-Control-Allow-Headers: Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID",
        "Access-Control-Expose-Headers: Mcp-Session-Id",
    ] {
        assert!(message.contains(needed), "{needed} missing from: {message}");
    }
}

#[test]
fn a_failure_the_browser_diagnosed_says_what_to_change_for_that_cause_only() {
    use autoui_core::ports::Unanswered;
    let down = run_error(|_, _| Reply::Unanswered(Unanswered::Down));
    assert!(down.starts_with("http://127.0.0.1:3001/mcp: nothing answers there"), "{down}");
    assert!(down.contains("Start the server or correct the URL") && !down.contains("Access-Control"), "{down}");

    let origin = "http://127.0.0.1:8080".to_owned();
    let no_origin = run_error(move |_, _| Reply::Unanswered(Unanswered::NoAllowOrigin { origin: origin.clone() }));
    assert!(no_origin.contains("have no Access-Control-Allow-Origin for http://127.0.0.1:8080"), "{no_origin}");
    assert!(no_origin.contains("Access-Control-Allow-Origin: http://127.0.0.1:8080 (or *)"), "{no_origin}");
    assert!(no_origin.contains("Access-Control-Expose-Headers: Mcp-Session-Id"), "{no_origin}");

    let preflight = run_error(|_, _| Reply::Unanswered(Unanswered::PreflightRefused));
    assert!(preflight.contains("refuses the preflight (OPTIONS)"), "{preflight}");
    assert!(
        preflight.contains(
            "Access-Control-Allow-Headers: Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID"
        ),
        "{preflight}"
    );

    let mixed = run_error(|_, _| Reply::Unanswered(Unanswered::MixedContent));
    assert!(mixed.contains("mixed content") && mixed.contains("over https"), "{mixed}");
}

#[test]
fn http_errors_quote_the_server_and_say_what_to_do() {
    assert_eq!(
        run_error(|_, _| Reply::text(500, "database is down")),
        "HTTP 500 from http://127.0.0.1:3001/mcp: database is down"
    );
    let unauthorized = run_error(|_, _| Reply::text(401, ""));
    assert!(
        unauthorized.contains("HTTP 401") && unauthorized.contains("set the server's bearer token"),
        "{unauthorized}"
    );
}

#[test]
fn a_missing_session_header_points_at_expose_headers() {
    let server = FakeServer {
        sessions: false,
        ..FakeServer::default()
    };
    let inner = Rc::new(RefCell::new(server));
    let message = run_error(move |request, _| match request.rpc() {
        "tools/list" => Reply::text(400, "Bad Request: No valid session ID provided"),
        _ => inner.borrow_mut().streamable(request),
    });
    assert!(
        message.contains("No valid session ID provided"),
        "{message}"
    );
    assert!(
        message.contains("Access-Control-Expose-Headers"),
        "{message}"
    );
}

#[test]
fn the_bearer_token_goes_with_every_request() {
    let config = ServerConfig {
        bearer_token: Some("tok-123".into()),
        ..streamable_config()
    };
    let setup = setup_with(
        config,
        McpOptions::default(),
        server_with(FakeServer::default(), |_, _| Reply::Hang),
    );
    connected(&setup, async |_| ());
    for request in setup.net.requests() {
        assert_eq!(request.header("Authorization"), Some("Bearer tok-123"));
    }
}

#[test]
fn closing_deletes_the_session_on_the_server() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(FakeServer::default(), |_, _| Reply::Hang),
    );
    connected(&setup, async |session| session.close().await);
    let delete = setup
        .net
        .requests()
        .into_iter()
        .find(|request| request.method == Method::Delete)
        .expect("a DELETE");
    assert_eq!(delete.url, URL);
    assert_eq!(delete.header("Mcp-Session-Id"), Some("session-1"));
}

#[test]
fn a_server_that_stops_answering_after_connecting_is_reported_as_down_not_as_cors() {
    let setup = setup_with(
        streamable_config(),
        McpOptions::default(),
        server_with(FakeServer::default(), |_, _| Reply::Network("TypeError: Failed to fetch".into())),
    );
    let error = call(&setup, "echo", json!({"message": "hi"})).unwrap_err();
    let message = error.to_string();
    assert!(matches!(error, McpError::Lost { .. }), "{error:?}");
    assert!(message.contains("stopped answering") && message.contains("Reconnect"), "{message}");
    assert!(!message.contains("Access-Control"), "no CORS advice for a server that worked: {message}");
}
