//! The hub of MCP servers: several servers at once, each with its own state (connecting, connected
//! with N tools, failed with the reason), latency of the last call, progress, the transport verdict
//! to persist, removal with `DELETE`, and the `RemoteServers` view the dispatcher calls through.
//! Its events fold into exactly what it reports.

#[path = "fixtures/mcp/support.rs"]
mod support;

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::ids::ServerId;
use autoui_core::mcp::config::{McpOptions, ServerConfig, TransportChoice, TransportKind};
use autoui_core::mcp::oauth::flow::Grant;
use autoui_core::mcp::hub::{
    CallOutcome, HubError, HubEvent, McpHub, ServerSnapshot, ServerStatus, fold,
};
use autoui_core::ports::Method;
use autoui_core::remote::{RemoteCallError, RemoteServers, RemoteStatus};
use futures::task::LocalSpawnExt;
use serde_json::json;
use support::{FakeClock, FakeNet, FakeServer, Logged, Reply, rpc_result, text_result, tool};

const STREAMABLE: &str = "http://127.0.0.1:3001/mcp";
const LEGACY: &str = "http://127.0.0.1:8000/sse";
const DOWN: &str = "http://127.0.0.1:9999/mcp";

/// One network with a Streamable HTTP server, a legacy server and a dead host.
struct World {
    clock: FakeClock,
    net: Rc<FakeNet>,
    hub: McpHub<FakeNet>,
    events: Rc<RefCell<Vec<HubEvent>>>,
    streamable: Rc<RefCell<FakeServer>>,
    down: Rc<RefCell<bool>>,
}

fn world() -> World {
    let streamable = Rc::new(RefCell::new(FakeServer::default()));
    let legacy = Rc::new(RefCell::new(FakeServer {
        pages: vec![vec![tool("forecast")]],
        instructions: None,
        ..FakeServer::default()
    }));
    let down = Rc::new(RefCell::new(true));
    let (streamable_in, legacy_in, down_in) = (streamable.clone(), legacy.clone(), down.clone());
    let net = FakeNet::new(move |request: &Logged, net: &FakeNet| {
        if request.url.starts_with("http://127.0.0.1:9999") {
            return match *down_in.borrow() {
                true => Reply::Network("Failed to fetch".into()),
                false => streamable_in.borrow_mut().streamable(request),
            };
        }
        if request.url.starts_with("http://127.0.0.1:8000") {
            if request.url == LEGACY {
                return Reply::text(404, "Cannot POST /sse");
            }
            if let Some(answer) = legacy_in.borrow_mut().answer(request) {
                net.emit("message", &answer.to_string());
            }
            return Reply::accepted();
        }
        match (request.method, request.params()["name"].as_str()) {
            (Method::Post, Some("slow")) => net.live_sse(),
            (Method::Post, Some("broken")) => Reply::result(
                request.id(),
                json!({"content": [{"type": "text", "text": "no such city"}], "isError": true}),
            ),
            (Method::Post, Some(_)) if request.rpc() == "tools/call" => {
                Reply::result(request.id(), text_result("ok"))
            }
            (Method::Get, _) => net.live_sse(),
            _ => streamable_in.borrow_mut().streamable(request),
        }
    });
    net.on_open(|_, net| {
        net.emit("endpoint", "/message?sessionId=1");
        true
    });
    let clock = FakeClock::default();
    let hub = McpHub::new(
        autoui_core::mcp::session::SessionPorts {
            http: net.clone(),
            event_sources: net.clone(),
            clock: Rc::new(clock.clone()),
        },
        McpOptions::default(),
    );
    let events = Rc::new(RefCell::new(Vec::new()));
    let sink = events.clone();
    hub.subscribe(move |event| sink.borrow_mut().push(event.clone()));
    World {
        clock,
        net,
        hub,
        events,
        streamable,
        down,
    }
}

impl World {
    fn run<T: 'static>(
        &self,
        main: impl AsyncFnOnce(McpHub<FakeNet>, FakeClock) -> T + 'static,
    ) -> T {
        let runner = self.hub.run();
        let (hub, clock) = (self.hub.clone(), self.clock.clone());
        support::simulate(
            &self.clock,
            move |spawner| spawner.spawn_local(runner).unwrap(),
            main(hub, clock),
        )
    }

    fn snapshot(&self, id: &ServerId) -> ServerSnapshot {
        self.hub
            .snapshots()
            .into_iter()
            .find(|snapshot| &snapshot.id == id)
            .unwrap()
    }
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

fn settled(hub: &McpHub<FakeNet>) -> bool {
    hub.snapshots().iter().all(|snapshot| {
        matches!(
            snapshot.status,
            ServerStatus::Connected { .. } | ServerStatus::Failed { .. }
        )
    })
}

fn named(url: &str, name: &str) -> ServerConfig {
    ServerConfig {
        name: Some(name.into()),
        ..ServerConfig::new(url)
    }
}

#[test]
fn several_servers_connect_at_once_each_with_its_own_state() {
    let world = world();
    let (a, b, c) = (
        world.hub.add_server(ServerConfig::new(STREAMABLE)).unwrap(),
        world.hub.add_server(named(LEGACY, "Weather")).unwrap(),
        world.hub.add_server(ServerConfig::new(DOWN)).unwrap(),
    );
    assert_eq!(
        (a.as_str(), b.as_str(), c.as_str()),
        ("127_0_0_1", "weather", "127_0_0_1_2")
    );
    world.run(async |hub, clock| until(&clock, || settled(&hub)).await);

    let a = world.snapshot(&a);
    assert_eq!(a.status, ServerStatus::Connected { tools: 2 });
    assert_eq!(
        a.name, "fake-server",
        "without a user name, the server's own name is shown"
    );
    assert_eq!(a.transport, Some(TransportKind::Streamable));
    assert_eq!(
        a.instructions.as_deref(),
        Some("Prefer get-weather for forecasts.")
    );

    let b = world.snapshot(&b);
    assert_eq!(b.status, ServerStatus::Connected { tools: 1 });
    assert_eq!(b.name, "Weather");
    assert_eq!(b.transport, Some(TransportKind::Sse));

    let ServerStatus::Failed { reason } = world.snapshot(&c).status else {
        panic!("the dead host should fail")
    };
    assert!(
        reason.contains("unreachable or missing CORS headers"),
        "{reason}"
    );

    let views = world.hub.servers();
    assert_eq!(views.len(), 3);
    assert_eq!(views[0].status, RemoteStatus::Connected);
    assert_eq!(
        views[0]
            .tools
            .iter()
            .map(|tool| tool.name.as_str())
            .collect::<Vec<_>>(),
        ["echo", "get-weather"]
    );
    assert_eq!(views[1].tools[0].name, "forecast");
    assert!(matches!(views[2].status, RemoteStatus::Failed(_)));
}

#[test]
fn folding_the_events_rebuilds_exactly_what_the_hub_reports() {
    let world = world();
    world.hub.add_server(ServerConfig::new(STREAMABLE)).unwrap();
    world.hub.add_server(named(LEGACY, "Weather")).unwrap();
    world.hub.add_server(ServerConfig::new(DOWN)).unwrap();
    let streamable = world.streamable.clone();
    let net = world.net.clone();
    world.run(async move |hub, clock| {
        until(&clock, || settled(&hub)).await;
        let id = ServerId::sanitize("127.0.0.1");
        hub.call_tool(&id, "echo", json!({}), CancelToken::new())
            .await
            .unwrap();
        streamable.borrow_mut().pages =
            vec![vec![tool("echo"), tool("get-weather"), tool("new-one")]];
        net.feed("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n");
        until(&clock, || hub.snapshots()[0].tools.len() == 3).await;
    });
    let mut panel = Vec::new();
    for event in world.events.borrow().iter() {
        fold(&mut panel, event);
    }
    assert_eq!(panel, world.hub.snapshots());
    assert_eq!(panel[0].status, ServerStatus::Connected { tools: 3 });
}

#[test]
fn a_call_reports_its_progress_and_its_latency() {
    let world = world();
    let id = world.hub.add_server(ServerConfig::new(STREAMABLE)).unwrap();
    let net = world.net.clone();
    let result = world.run(async move |hub, clock| {
        until(&clock, || settled(&hub)).await;
        let calling = hub.call_tool(&id, "slow", json!({}), CancelToken::new());
        let server = async {
            until(&clock, || net.streams.borrow().len() == 2).await;
            net.feed(
                "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":2,\"progress\":40,\"total\":100,\"message\":\"fetching\"}}\n\n",
            );
            support::pass_time(&clock, 250).await;
            net.feed(&format!("data: {}\n\n", rpc_result(json!(2), text_result("slow result"))));
        };
        futures::join!(calling, server).0
    });
    assert_eq!(result.unwrap().text_content(), "slow result");
    let events = world.events.borrow();
    let server = ServerId::sanitize("127.0.0.1");
    assert!(events.contains(&HubEvent::Progress {
        server: server.clone(),
        tool: "slow".into(),
        progress: 40.0,
        total: Some(100.0),
        message: Some("fetching".into()),
    }));
    let Some(HubEvent::CallFinished {
        latency_ms,
        outcome,
        tool,
        ..
    }) = events
        .iter()
        .find(|event| matches!(event, HubEvent::CallFinished { .. }))
    else {
        panic!("no CallFinished event")
    };
    assert_eq!((tool.as_str(), outcome), ("slow", &CallOutcome::Ok));
    assert!((250.0..260.0).contains(latency_ms), "{latency_ms}");
    assert_eq!(world.snapshot(&server).last_call_ms, Some(*latency_ms));
}

#[test]
fn a_tool_error_is_a_result_for_the_model_and_an_error_outcome_for_the_console() {
    let world = world();
    let id = world.hub.add_server(ServerConfig::new(STREAMABLE)).unwrap();
    let result = world.run(async move |hub, clock| {
        until(&clock, || settled(&hub)).await;
        hub.call_tool(&id, "broken", json!({}), CancelToken::new())
            .await
    });
    let result = result.unwrap();
    assert!(result.is_error);
    assert_eq!(result.text_content(), "no such city");
    assert!(world.events.borrow().iter().any(|event| matches!(
        event,
        HubEvent::CallFinished {
            outcome: CallOutcome::ToolError,
            ..
        }
    )));
}

#[test]
fn calls_to_servers_that_cannot_take_them_say_why() {
    let world = world();
    let up = world.hub.add_server(ServerConfig::new(STREAMABLE)).unwrap();
    let down = world.hub.add_server(ServerConfig::new(DOWN)).unwrap();
    // Nothing has run yet, so the first server is still connecting.
    let connecting = futures::executor::block_on(world.hub.call_tool(
        &up,
        "echo",
        json!({}),
        CancelToken::new(),
    ));
    let (failed, unknown) = world.run(async move |hub, clock| {
        until(&clock, || settled(&hub)).await;
        let failed = hub
            .call_tool(&down, "echo", json!({}), CancelToken::new())
            .await;
        let unknown = hub
            .call_tool(
                &ServerId::sanitize("nowhere"),
                "echo",
                json!({}),
                CancelToken::new(),
            )
            .await;
        (failed, unknown)
    });
    assert!(
        matches!(connecting, Err(RemoteCallError::NotConnected { ref reason, .. }) if reason.contains("still connecting")),
        "{connecting:?}"
    );
    assert!(
        matches!(failed, Err(RemoteCallError::NotConnected { ref reason, .. }) if reason.contains("missing CORS headers")),
        "{failed:?}"
    );
    assert_eq!(
        unknown,
        Err(RemoteCallError::UnknownServer(ServerId::sanitize(
            "nowhere"
        )))
    );
}

#[test]
fn a_server_whose_connection_dropped_is_unavailable_with_the_reason_while_it_reconnects() {
    let world = world();
    let id = world.hub.add_server(named(LEGACY, "weather")).unwrap();
    let net = world.net.clone();
    let (views, call) = world.run(async move |hub, clock| {
        until(&clock, || settled(&hub)).await;
        // The server is gone: its stream ends and every new one fails.
        net.on_open(|_, _| false);
        net.drop_sources();
        until(&clock, || {
            hub.snapshots()
                .iter()
                .any(|snapshot| matches!(snapshot.status, ServerStatus::Reconnecting { .. }))
        })
        .await;
        let call = hub
            .call_tool(&id, "forecast", json!({}), CancelToken::new())
            .await;
        (hub.servers(), call)
    });
    let expected = "it is reconnecting (the server's event stream dropped: it ended)";
    assert_eq!(views[0].status, RemoteStatus::Failed(expected.to_owned()));
    assert!(
        matches!(call, Err(RemoteCallError::NotConnected { ref reason, .. }) if reason == expected),
        "{call:?}"
    );
}

#[test]
fn a_stopped_call_is_reported_as_cancelled() {
    let world = world();
    let id = world.hub.add_server(ServerConfig::new(STREAMABLE)).unwrap();
    let outcome = world.run(async move |hub, clock| {
        until(&clock, || settled(&hub)).await;
        let stop = CancelToken::new();
        let pressed = stop.clone();
        let calling = hub.call_tool(&id, "slow", json!({}), stop);
        let pressing = async {
            support::pass_time(&clock, 100).await;
            pressed.cancel();
        };
        futures::join!(calling, pressing).0
    });
    assert_eq!(outcome, Err(RemoteCallError::Cancelled));
    assert!(
        world
            .net
            .rpc_log()
            .contains(&"notifications/cancelled".to_owned())
    );
}

#[test]
fn the_detected_transport_is_reported_so_the_app_can_persist_it() {
    let world = world();
    let id = world
        .hub
        .add_server(ServerConfig {
            bearer_token: None,
            ..named(LEGACY, "Weather")
        })
        .unwrap();
    world.run(async |hub, clock| until(&clock, || settled(&hub)).await);
    let detected = world.events.borrow().iter().find_map(|event| match event {
        HubEvent::TransportDetected { config, .. } => Some(config.clone()),
        _ => None,
    });
    let detected = detected.expect("a TransportDetected event");
    assert_eq!(detected.detected, Some(TransportKind::Sse));
    assert_eq!(world.hub.configs(), std::slice::from_ref(&detected));
    assert_eq!(world.snapshot(&id).config, detected);
    let stored = serde_json::to_value(&detected).unwrap();
    assert_eq!(
        stored,
        json!({"url": LEGACY, "name": "Weather", "transport": "auto", "detected": "sse"})
    );
}

#[test]
fn a_chosen_transport_is_not_overwritten_by_a_verdict() {
    let world = world();
    world
        .hub
        .add_server(ServerConfig {
            transport: TransportChoice::Streamable,
            ..ServerConfig::new(STREAMABLE)
        })
        .unwrap();
    world.run(async |hub, clock| until(&clock, || settled(&hub)).await);
    assert!(
        !world
            .events
            .borrow()
            .iter()
            .any(|event| matches!(event, HubEvent::TransportDetected { .. }))
    );
    assert_eq!(world.hub.configs()[0].detected, None);
}

#[test]
fn configs_load_from_what_older_versions_stored_and_never_print_the_token() {
    let config: ServerConfig = serde_json::from_str(
        r#"{"url":"https://mcp.example.com/mcp","bearer_token":"tok-secret"}"#,
    )
    .unwrap();
    assert_eq!(config.transport, TransportChoice::Auto);
    assert_eq!(config.authorization().as_deref(), Some("Bearer tok-secret"));
    let printed = format!("{config:?}");
    assert!(
        !printed.contains("tok-secret") && printed.contains("<redacted>"),
        "{printed}"
    );
}

#[test]
fn an_oauth_grant_is_kept_in_the_config_announced_for_saving_and_never_printed() {
    let world = world();
    let id = world.hub.add_server(ServerConfig::new(STREAMABLE)).unwrap();
    world.run(async |hub, clock| until(&clock, || settled(&hub)).await);
    let grant: Grant = serde_json::from_value(json!({
        "issuer": "https://as.example.com", "token_endpoint": "https://as.example.com/token",
        "resource": STREAMABLE, "credentials": {"client_id": "app", "client_secret": "cs-secret"},
        "requested_scopes": ["read"], "token_auth": "none",
        "tokens": {"access_token": "at-secret", "refresh_token": "rt-secret", "expires_at_unix_ms": 1.0e12}
    }))
    .unwrap();
    world.hub.update_config(&id, |config| config.oauth_grant = Some(grant.clone()));
    let announced = world.events.borrow().iter().rev().find_map(|event| match event {
        HubEvent::ConfigChanged { config, .. } => Some(config.clone()),
        _ => None,
    });
    assert_eq!(announced.and_then(|config| config.oauth_grant), Some(grant.clone()), "listeners hear it, to save it");
    let stored: ServerConfig = serde_json::from_value(serde_json::to_value(&world.hub.configs()[0]).unwrap()).unwrap();
    assert_eq!(stored.oauth_grant.as_ref(), Some(&grant), "it survives the store's round trip");
    let printed = format!("{:?}", world.hub.configs()[0]);
    for secret in ["at-secret", "rt-secret", "cs-secret"] {
        assert!(!printed.contains(secret), "{printed}");
    }
    assert!(printed.contains("https://as.example.com"), "the issuer is not a secret: {printed}");
}

#[test]
fn removing_a_server_deletes_its_session_and_forgets_it() {
    let world = world();
    let id = world.hub.add_server(ServerConfig::new(STREAMABLE)).unwrap();
    let removed = world.run(async move |hub, clock| {
        until(&clock, || settled(&hub)).await;
        hub.remove_server(&id).await
    });
    assert!(removed);
    let delete = world
        .net
        .requests()
        .into_iter()
        .find(|request| request.method == Method::Delete)
        .expect("a DELETE");
    assert_eq!(delete.header("Mcp-Session-Id"), Some("session-1"));
    assert!(world.hub.servers().is_empty());
    assert!(matches!(
        world.events.borrow().last(),
        Some(HubEvent::Removed { .. })
    ));
}

#[test]
fn a_failed_server_connects_when_asked_again() {
    let world = world();
    let id = world.hub.add_server(ServerConfig::new(DOWN)).unwrap();
    let down = world.down.clone();
    let status = world.run(async move |hub, clock| {
        until(&clock, || settled(&hub)).await;
        *down.borrow_mut() = false;
        assert!(hub.reconnect(&id));
        until(&clock, || {
            matches!(hub.snapshots()[0].status, ServerStatus::Connected { .. })
        })
        .await;
        hub.snapshots()[0].status.clone()
    });
    assert_eq!(status, ServerStatus::Connected { tools: 2 });
}

#[test]
fn bad_and_duplicate_urls_are_refused_with_a_reason() {
    let world = world();
    let first = world.hub.add_server(ServerConfig::new(STREAMABLE)).unwrap();
    assert_eq!(
        world.hub.add_server(ServerConfig::new(STREAMABLE)),
        Err(HubError::AlreadyAdded {
            url: STREAMABLE.into(),
            server: first
        })
    );
    let bad = world
        .hub
        .add_server(ServerConfig::new("localhost:3001"))
        .unwrap_err();
    assert_eq!(
        bad.to_string(),
        "invalid server URL: \"localhost:3001\" is not an absolute http(s) URL"
    );
}

#[test]
fn servers_added_without_a_name_are_known_to_the_model_by_their_own_names_not_their_host() {
    let world = world();
    let first = world.hub.add_server(ServerConfig::new(STREAMABLE)).unwrap();
    let second = world.hub.add_server(ServerConfig::new(LEGACY)).unwrap();
    let named = world.hub.add_server(named(DOWN, "Weather")).unwrap();
    let result = world.run(async |hub, clock| {
        until(&clock, || settled(&hub)).await;
        hub.call_tool(&ServerId::sanitize("fake_server"), "echo", json!({}), CancelToken::new()).await
    });
    assert!(result.is_ok(), "the model's name reaches the server: {result:?}");
    let views = world.hub.servers();
    let ids: Vec<&str> = views.iter().map(|view| view.id.as_str()).collect();
    assert_eq!(ids, ["fake_server", "fake_server_2", "weather"], "serverInfo names them, told apart by a suffix");
    assert_eq!(world.snapshot(&first).tool_prefix.as_str(), "fake_server");
    assert_eq!(world.snapshot(&second).tool_prefix.as_str(), "fake_server_2");
    assert_eq!(world.snapshot(&named).tool_prefix, named, "a name the user gave stays");
    assert!(world.snapshot(&first).last_call_ms.is_some(), "the call is reported on the server's own row");
}

#[test]
fn a_servers_log_messages_reach_the_hubs_listeners_as_text() {
    let world = world();
    let id = world.hub.add_server(ServerConfig::new(STREAMABLE)).unwrap();
    let net = world.net.clone();
    world.run(async move |hub, clock| {
        until(&clock, || settled(&hub)).await;
        net.feed(
            "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"warning\",\"logger\":\"db\",\"data\":\"slow query\"}}\n\n",
        );
        net.feed(
            "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":{\"rows\":3}}}\n\n",
        );
        support::pass_time(&clock, 10).await;
    });
    let logs: Vec<HubEvent> =
        world.events.borrow().iter().filter(|event| matches!(event, HubEvent::ServerLog { .. })).cloned().collect();
    assert_eq!(
        logs,
        [
            HubEvent::ServerLog {
                server: id.clone(),
                level: "warning".into(),
                logger: Some("db".into()),
                message: "slow query".into()
            },
            HubEvent::ServerLog { server: id, level: "info".into(), logger: None, message: "{\"rows\":3}".into() },
        ]
    );
}
