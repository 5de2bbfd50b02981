//! Cancellation that reaches the server: when Stop or the call timeout ends a `tools/call`, the
//! `notifications/cancelled` POST (request id and reason) completes even though the caller drops
//! the call at once (the dispatcher does), over both transports; the timeout is the server's own
//! (per server, default 120 s) and the dispatcher's timer stays behind it.

#[path = "fixtures/mcp/support.rs"]
mod support;

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::ids::ServerId;
use autoui_core::mcp::config::{McpOptions, ServerConfig, TransportChoice};
use autoui_core::mcp::error::McpError;
use autoui_core::mcp::hub::McpHub;
use autoui_core::mcp::inbound::Notice;
use autoui_core::mcp::session::{Session, SessionPorts};
use autoui_core::ports::{Clock, HttpError, HttpRequest, HttpResponse, HttpTransport};
use autoui_core::remote::{RemoteCallError, RemoteServers};
use futures::future::LocalBoxFuture;
use futures::task::LocalSpawnExt;
use serde_json::{Value, json};
use support::{FakeClock, FakeNet, FakeServer, Logged, Reply};

const URL: &str = "http://127.0.0.1:3001/mcp";

/// The network with some latency: a request counts as delivered only once its exchange
/// completes, so a POST whose future is dropped on the way never arrives.
struct Latency {
    net: Rc<FakeNet>,
    clock: FakeClock,
    delivered: RefCell<Vec<Value>>,
}

impl HttpTransport for Latency {
    fn send(&self, request: HttpRequest, cancel: CancelToken) -> LocalBoxFuture<'_, Result<HttpResponse, HttpError>> {
        let body: Option<Value> = request.body.as_deref().and_then(|body| serde_json::from_str(body).ok());
        Box::pin(async move {
            self.clock.sleep(20).await;
            let response = self.net.send(request, cancel).await;
            if let (Ok(_), Some(body)) = (&response, body) {
                self.delivered.borrow_mut().push(body);
            }
            response
        })
    }
}

fn hanging_server() -> Rc<FakeNet> {
    let server = Rc::new(RefCell::new(FakeServer { list_changed: false, ..FakeServer::default() }));
    FakeNet::new(move |request: &Logged, _: &FakeNet| match request.rpc() {
        "tools/call" => Reply::Hang,
        _ => server.borrow_mut().streamable(request),
    })
}

struct Setup {
    clock: FakeClock,
    http: Rc<Latency>,
}

impl Setup {
    fn new() -> Setup {
        let clock = FakeClock::default();
        let http = Rc::new(Latency { net: hanging_server(), clock: clock.clone(), delivered: RefCell::default() });
        Setup { clock, http }
    }

    fn ports(&self) -> SessionPorts<Latency> {
        SessionPorts { http: self.http.clone(), event_sources: self.http.net.clone(), clock: Rc::new(self.clock.clone()) }
    }

    fn cancellations(&self) -> Vec<Value> {
        let delivered = self.http.delivered.borrow();
        let sent = delivered.iter().filter(|body| body["method"] == "notifications/cancelled");
        sent.map(|body| body["params"].clone()).collect()
    }

    /// The id of the (first) `tools/call` sent.
    fn call_id(&self) -> Value {
        self.http.net.requests().into_iter().find(|request| request.rpc() == "tools/call").unwrap().id()
    }
}

/// Runs `session` and, once connected, `main`; then lets a second of virtual time pass.
fn with_session<T: 'static>(
    setup: &Setup,
    config: ServerConfig,
    main: impl AsyncFnOnce(Rc<Session<Latency>>) -> T + 'static,
) -> T {
    let notices = Rc::new(RefCell::new(Vec::new()));
    let sink = notices.clone();
    let session = Rc::new(Session::new(
        config,
        setup.ports(),
        McpOptions::default(),
        Rc::new(move |notice| sink.borrow_mut().push(notice)),
    ));
    let runner = session.clone();
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
            while !notices.borrow().contains(&Notice::Connected) {
                support::pass_time(&clock, 1).await;
            }
            let output = main(session).await;
            support::pass_time(&clock, 1_000).await;
            output
        },
    )
}

fn streamable() -> ServerConfig {
    ServerConfig { transport: TransportChoice::Streamable, ..ServerConfig::new(URL) }
}

#[test]
fn stop_reaches_the_server_even_when_the_caller_drops_the_call_at_once() {
    let setup = Setup::new();
    let clock = setup.clock.clone();
    let outcome = with_session(&setup, streamable(), async move |session| {
        let stop = CancelToken::new();
        let pressed = stop.clone();
        // What the dispatcher does with Stop: race the call and drop it the moment Stop fires.
        let calling = stop.run(session.call_tool("echo", json!({}), &stop));
        let pressing = async {
            support::pass_time(&clock, 300).await;
            pressed.cancel();
        };
        futures::join!(calling, pressing).0.map(|result| result.map(|_| ()))
    });
    assert!(matches!(outcome, None | Some(Err(McpError::Cancelled))), "the call ended with Stop: {outcome:?}");
    assert_eq!(setup.cancellations(), [json!({"requestId": setup.call_id(), "reason": "cancelled by the user"})]);
}

#[test]
fn a_timeout_reaches_the_server_with_its_reason_and_a_server_can_set_its_own() {
    let setup = Setup::new();
    let config = ServerConfig { call_timeout_s: Some(7), ..streamable() };
    let clock = setup.clock.clone();
    let (error, elapsed) = with_session(&setup, config, async move |session| {
        let started = clock.now();
        let error = session.call_tool("echo", json!({}), &CancelToken::new()).await.unwrap_err();
        (error, clock.now() - started)
    });
    assert_eq!(error, McpError::Timeout { ms: 7_000 });
    assert!((7_000.0..7_100.0).contains(&elapsed), "took {elapsed} ms");
    assert_eq!(setup.cancellations(), [json!({"requestId": setup.call_id(), "reason": "no answer within 7000 ms"})]);
}

#[test]
fn the_hub_reports_a_timeout_as_the_servers_own_with_what_happened_and_states_it_to_the_dispatcher() {
    let setup = Setup::new();
    let hub = McpHub::new(setup.ports(), McpOptions { call_timeout_ms: 3_000, ..McpOptions::default() });
    let id = hub.add_server(streamable()).unwrap();
    let runner = hub.run();
    let caller = hub.clone();
    let clock = setup.clock.clone();
    let outcome = support::simulate(
        &setup.clock,
        move |spawner| spawner.spawn_local(runner).unwrap(),
        async move {
            while caller.snapshots()[0].tools.is_empty() {
                support::pass_time(&clock, 1).await;
            }
            let id = ServerId::sanitize(caller.snapshots()[0].id.as_str());
            let result = caller.call_tool(&id, "echo", json!({}), CancelToken::new()).await;
            support::pass_time(&clock, 1_000).await;
            result.map(|_| ())
        },
    );
    assert_eq!(hub.call_timeout_ms(&id), Some(3_000), "the dispatcher's timer waits for this one");
    let error = outcome.unwrap_err();
    assert!(matches!(error, RemoteCallError::TimedOut { seconds: 3, .. }));
    assert_eq!(
        error.to_string(),
        "MCP server \"127_0_0_1\" gave no answer within 3 s (its call timeout, set in Servers), so the call was cancelled on the server"
    );
    assert_eq!(setup.cancellations().len(), 1);
}
