//! MCP Apps on the connection: the client advertises the `io.modelcontextprotocol/ui` extension,
//! reads a tool's view from either `_meta` key and only from `ui://`, keeps app-only tools from
//! the model while a view of the same server may call them (and nothing else), and fetches each
//! view once per server, again after `notifications/resources/list_changed`.

#[path = "fixtures/mcp/support.rs"]
mod support;

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::approval::ApprovalChoice;
use autoui_core::cancel::CancelToken;
use autoui_core::dispatch::catalog::Catalog;
use autoui_core::ids::ServerId;
use autoui_core::mcp::config::{McpOptions, ServerConfig, TransportChoice};
use autoui_core::mcp::hub::{McpHub, ServerStatus};
use autoui_core::mcp::session::SessionPorts;
use autoui_core::ports::Method;
use autoui_core::remote::RemoteServers;
use futures::task::LocalSpawnExt;
use serde_json::{Value, json};
use support::{FakeClock, FakeNet, FakeServer, Logged, Reply, rpc_result, text_result, tool};

const URL: &str = "http://127.0.0.1:3001/mcp";
const TIME_VIEW: &str = "ui://basic/mcp-app.html";

fn with_meta(name: &str, meta: Value) -> Value {
    let mut tool = tool(name);
    tool["_meta"] = meta;
    tool
}

/// The tools of an MCP Apps server, as the example servers describe theirs.
fn app_tools() -> Vec<Value> {
    vec![
        with_meta("get-time", json!({"ui": {"resourceUri": TIME_VIEW}, "ui/resourceUri": TIME_VIEW})),
        with_meta("old-style", json!({"ui/resourceUri": "ui://basic/old.html"})),
        with_meta("poll-stats", json!({"ui": {"visibility": ["app"]}})),
        with_meta("model-only", json!({"ui": {"visibility": ["model"]}})),
        with_meta("web-view", json!({"ui": {"resourceUri": "https://evil.example/view.html"}})),
    ]
}

struct World {
    clock: FakeClock,
    net: Rc<FakeNet>,
    hub: McpHub<FakeNet>,
    /// What the next read of the time view answers.
    html: Rc<RefCell<String>>,
}

fn world() -> World {
    let server = Rc::new(RefCell::new(FakeServer {
        pages: vec![app_tools()],
        offers: json!({"resources": {"listChanged": true}}),
        ..FakeServer::default()
    }));
    let html = Rc::new(RefCell::new("<p>version 1</p>".to_owned()));
    let current = html.clone();
    let net = FakeNet::new(move |request: &Logged, net: &FakeNet| {
        if request.method == Method::Get {
            return net.live_sse();
        }
        let answer = match request.rpc() {
            "resources/list" => json!({"resources": [{"uri": TIME_VIEW, "name": "time view", "mimeType": "text/html;profile=mcp-app",
                "_meta": {"ui": {"csp": {"connectDomains": ["https://api.example.com"]}}}}]}),
            "resources/templates/list" => json!({"resourceTemplates": []}),
            "resources/read" => {
                let uri = request.params()["uri"].as_str().unwrap().to_owned();
                json!({"contents": [{"uri": uri, "mimeType": "text/html;profile=mcp-app", "text": current.borrow().clone()}]})
            }
            "tools/call" => text_result(&format!("called {}", request.params()["name"].as_str().unwrap())),
            _ => return server.borrow_mut().streamable(request),
        };
        Reply::json(200, rpc_result(request.id(), answer))
    });
    let clock = FakeClock::default();
    let ports = SessionPorts { http: net.clone(), event_sources: net.clone(), clock: Rc::new(clock.clone()) };
    let hub = McpHub::new(ports, McpOptions::default());
    World { clock, net, hub, html }
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

impl World {
    /// Adds the server, waits until it connected and both views were prefetched, then runs `main`
    /// with the name the model knows it by.
    fn connected<T: 'static>(&self, main: impl AsyncFnOnce(McpHub<FakeNet>, ServerId) -> T + 'static) -> T {
        let runner = self.hub.run();
        let hub = self.hub.clone();
        let clock = self.clock.clone();
        let net = self.net.clone();
        support::simulate(&self.clock, move |spawner| spawner.spawn_local(runner).unwrap(), async move {
            let config = ServerConfig { transport: TransportChoice::Streamable, ..ServerConfig::new(URL) };
            let id = hub.add_server(config).unwrap();
            let reads = || net.rpc_log().iter().filter(|method| *method == "resources/read").count();
            until(&clock, || {
                let connected = hub.snapshots().iter().any(|s| s.id == id && matches!(s.status, ServerStatus::Connected { .. }));
                connected && reads() == 2
            })
            .await;
            let prefix = hub.snapshots().into_iter().find(|s| s.id == id).unwrap().tool_prefix;
            main(hub, prefix).await
        })
    }

    fn reads(&self) -> usize {
        self.net.rpc_log().iter().filter(|method| *method == "resources/read").count()
    }
}

#[test]
fn initialize_advertises_the_ui_extension() {
    let world = world();
    world.connected(async |_, _| ());
    let init = world.net.requests().into_iter().find(|request| request.rpc() == "initialize").unwrap();
    assert_eq!(
        init.params()["capabilities"]["extensions"],
        json!({"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}})
    );
}

#[test]
fn views_are_read_from_either_key_and_only_from_ui_uris() {
    let world = world();
    let snapshot = world.connected(async |hub, _| hub.snapshots().remove(0));
    let view_of = |name: &str| snapshot.tools.iter().find(|tool| tool.name == name).unwrap().view_uri().map(str::to_owned);
    assert_eq!(view_of("get-time").as_deref(), Some(TIME_VIEW));
    assert_eq!(view_of("old-style").as_deref(), Some("ui://basic/old.html"));
    assert_eq!(view_of("web-view"), None, "a web page is never a view");
    assert_eq!(view_of("poll-stats"), None);
    assert!(
        snapshot.unreadable_tools.iter().any(|note| note.contains("web-view") && note.contains("must be a ui:// resource")),
        "{:?}",
        snapshot.unreadable_tools
    );
}

#[test]
fn app_only_tools_are_never_offered_to_the_model() {
    let world = world();
    world.connected(async |_, _| ());
    let catalog = Catalog::build(&[], &world.hub.servers());
    let server = catalog.servers().iter().find(|server| !server.tools.is_empty()).unwrap();
    let offered: Vec<&str> = server.tools.iter().map(|tool| tool.real.as_str()).collect();
    assert_eq!(offered, ["get-time", "old-style", "model-only", "web-view"]);
}

#[test]
fn a_view_calls_only_its_own_servers_tools_that_views_may_call() {
    let world = world();
    let (app_only, both, model_only, unknown, other_server) = world.connected(async |hub, id| {
        let call = |tool: &'static str, server: ServerId| {
            let hub = hub.clone();
            async move { hub.call_from_view(&server, tool, json!({}), CancelToken::new()).await }
        };
        (
            call("poll-stats", id.clone()).await,
            call("get-time", id.clone()).await,
            call("model-only", id.clone()).await,
            call("delete-everything", id.clone()).await,
            call("get-time", ServerId::sanitize("another")).await,
        )
    });
    assert_eq!(app_only.unwrap().text_content(), "called poll-stats");
    assert_eq!(both.unwrap().text_content(), "called get-time");
    assert!(model_only.unwrap_err().contains("may not call \"model-only\""));
    assert!(unknown.unwrap_err().contains("may not call \"delete-everything\""));
    assert!(other_server.unwrap_err().contains("no MCP server \"another\""));
    let called: Vec<String> = world
        .net
        .requests()
        .into_iter()
        .filter(|request| request.rpc() == "tools/call")
        .map(|request| request.params()["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(called, ["poll-stats", "get-time"], "refused calls never reach the server");
}

#[test]
fn a_views_lists_go_to_its_own_server_with_its_cursor_and_come_back_as_sent() {
    let world = world();
    let (resources, templates, prompts, other_server) = world.connected(async |hub, id| {
        (
            hub.list_for_view(&id, "resources/list", Some("page-2".into()), CancelToken::new()).await,
            hub.list_for_view(&id, "resources/templates/list", None, CancelToken::new()).await,
            hub.list_for_view(&id, "prompts/list", None, CancelToken::new()).await,
            hub.list_for_view(&ServerId::sanitize("another"), "resources/list", None, CancelToken::new()).await,
        )
    });
    let resources = resources.unwrap();
    assert_eq!(resources["resources"][0]["uri"], TIME_VIEW);
    assert_eq!(resources["resources"][0]["_meta"]["ui"]["csp"]["connectDomains"][0], "https://api.example.com", "as the server sent it");
    assert_eq!(templates.unwrap(), json!({"resourceTemplates": []}));
    assert!(prompts.unwrap_err().contains("offers no prompts"), "the server declared none");
    assert!(other_server.unwrap_err().contains("no MCP server \"another\""));
    let paged = world.net.requests().into_iter().rfind(|request| request.rpc() == "resources/list").unwrap();
    assert_eq!(paged.params()["cursor"], "page-2", "the view's cursor is forwarded");
}

#[test]
fn a_tool_the_person_set_to_never_is_refused_to_its_view_too() {
    let world = world();
    let refused = world.connected(async |hub, id| {
        hub.update_approvals(&id, |rules| rules.set_tool("poll-stats", Some(ApprovalChoice::Never)));
        hub.call_from_view(&id, "poll-stats", json!({}), CancelToken::new()).await
    });
    assert!(refused.unwrap_err().contains("you set it to never run"));
    assert!(world.net.requests().iter().all(|request| request.rpc() != "tools/call"), "never reaches the server");
}

#[test]
fn views_are_prefetched_once_cached_by_uri_and_read_again_after_resources_change() {
    let world = world();
    let (net, clock, html) = (world.net.clone(), world.clock.clone(), world.html.clone());
    let (first, second, changed) = world.connected(async move |hub, id| {
        let first = hub.view(&id, TIME_VIEW, CancelToken::new()).await.unwrap();
        let second = hub.view(&id, TIME_VIEW, CancelToken::new()).await.unwrap();
        *html.borrow_mut() = "<p>version 2</p>".to_owned();
        until(&clock, || !net.streams.borrow().is_empty()).await;
        net.feed("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\"}\n\n");
        support::pass_time(&clock, 5).await;
        let changed = hub.view(&id, TIME_VIEW, CancelToken::new()).await.unwrap();
        (first, second, changed)
    });
    assert_eq!(first.html, "<p>version 1</p>");
    assert!(Rc::ptr_eq(&first, &second), "the second show uses the cache");
    assert_eq!(
        first.meta.csp.connect_domains,
        ["https://api.example.com"],
        "the listed resource's _meta stands in for the content's"
    );
    assert_eq!(changed.html, "<p>version 2</p>");
    assert_eq!(world.reads(), 3, "two prefetched at connect, one after the change");
}
