//! Resources and prompts through the hub: listed (every page) only when the server declares them,
//! and again when it says a list changed, an unreadable entry skipped with a note naming it while
//! the others stay, `resources/read` text kept, blobs summarised with their type and size, a read
//! over the cap refused before or after asking, `prompts/get` filled with the person's arguments,
//! and `logging/setLevel` on the person's choice and again on every connection.

#[path = "fixtures/mcp/support.rs"]
mod support;

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::dispatch::catalog::Catalog;
use autoui_core::ids::ServerId;
use autoui_core::mcp::config::{McpOptions, ServerConfig, TransportChoice};
use autoui_core::mcp::hub::{HubEvent, McpHub, ServerSnapshot, ServerStatus};
use autoui_core::mcp::model::content::{Content, ContentBlock};
use autoui_core::mcp::model::initialize::InitializeResult;
use autoui_core::mcp::model::notify::LogLevel;
use autoui_core::mcp::model::prompt::PromptRole;
use autoui_core::mcp::session::SessionPorts;
use autoui_core::ports::Method;
use autoui_core::remote::{RemoteCallError, RemoteServers};
use autoui_core::tool::ResultPart;
use futures::task::LocalSpawnExt;
use serde_json::{Value, json};
use support::{FakeClock, FakeNet, FakeServer, Logged, Reply, rpc_result};

const URL: &str = "http://127.0.0.1:3001/mcp";

fn resource(index: usize) -> Value {
    json!({"uri": format!("test://static/resource/{index}"), "name": format!("Resource {index}"), "mimeType": "text/plain"})
}

/// What the fake server answers to the resource and prompt methods.
fn offers(request: &Logged) -> Option<Value> {
    let params = request.params();
    let result = match request.rpc() {
        "resources/list" => match params["cursor"].as_str() {
            None => json!({"resources": [resource(1), {"name": "no uri"}, resource(2)], "nextCursor": "2"}),
            Some("2") => json!({"resources": [
                resource(3),
                {"uri": "test://big", "name": "Big", "size": 10_000_000},
                {"uri": "test://lies", "name": "Small, it says", "size": 10},
                {"uri": "test://image", "name": "Logo"},
            ]}),
            Some(other) => panic!("unexpected cursor {other}"),
        },
        "resources/templates/list" => json!({"resourceTemplates": [
            {"uriTemplate": "test://dynamic/resource/{id}", "name": "Dynamic", "description": "Any resource by id"},
            {"name": "no template"},
        ]}),
        "resources/read" => match params["uri"].as_str().unwrap() {
            "test://static/resource/1" => {
                json!({"contents": [{"uri": "test://static/resource/1", "mimeType": "text/plain", "text": "Hello, resource 1"}]})
            }
            "test://lies" => json!({"contents": [{"uri": "test://lies", "text": "x".repeat(5_000)}]}),
            "test://image" => json!({"contents": [
                {"uri": "test://image", "mimeType": "image/png", "blob": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="},
                {"uri": "test://image#caption", "text": "the logo"},
                {"uri": "test://image#odd"},
            ]}),
            _ => return Some(json!({"jsonrpc": "2.0", "id": request.id(), "error": {"code": -32002, "message": "Resource not found"}})),
        },
        "logging/setLevel" => json!({}),
        "prompts/list" => json!({"prompts": [
            {"name": "simple_prompt", "description": "A prompt without arguments"},
            {"name": "complex_prompt", "arguments": [
                {"name": "temperature", "description": "Temperature setting", "required": true},
                {"name": "style", "required": false},
            ]},
            {"description": "nameless"},
        ]}),
        "prompts/get" => match params["name"].as_str().unwrap() {
            "complex_prompt" => json!({"messages": [
                {"role": "user", "content": {"type": "text", "text": format!("temperature={}", params["arguments"]["temperature"].as_str().unwrap())}},
                {"role": "assistant", "content": {"type": "text", "text": "Understood."}},
            ]}),
            _ => return Some(json!({"jsonrpc": "2.0", "id": request.id(), "error": {"code": -32602, "message": "Unknown prompt"}})),
        },
        _ => return None,
    };
    Some(rpc_result(request.id(), result))
}

struct World {
    clock: FakeClock,
    net: Rc<FakeNet>,
    hub: McpHub<FakeNet>,
    /// How many times the hub published the server's offers (once per connection, after `Connected`,
    /// and once per burst of `list_changed` notifications).
    listed: Rc<Cell<usize>>,
}

fn world(declared: Value, options: McpOptions) -> World {
    let server = Rc::new(RefCell::new(FakeServer { list_changed: false, offers: declared, ..FakeServer::default() }));
    let net = FakeNet::new(move |request: &Logged, _: &FakeNet| match offers(request) {
        Some(answer) => Reply::json(200, answer),
        None => server.borrow_mut().streamable(request),
    });
    world_over(net, options)
}

/// A hub over `net`, counting how often it publishes the server's offers.
fn world_over(net: Rc<FakeNet>, options: McpOptions) -> World {
    let clock = FakeClock::default();
    let ports = SessionPorts { http: net.clone(), event_sources: net.clone(), clock: Rc::new(clock.clone()) };
    let hub = McpHub::new(ports, options);
    let listed = Rc::new(Cell::new(0));
    let counter = listed.clone();
    hub.subscribe(move |event| {
        if matches!(event, HubEvent::OffersChanged { .. }) {
            counter.set(counter.get() + 1);
        }
    });
    World { clock, net, hub, listed }
}

impl World {
    /// Adds the server, waits until it connected and its offers were listed, then runs `main` with
    /// the name the model knows it by.
    fn connected<T: 'static>(&self, main: impl AsyncFnOnce(McpHub<FakeNet>, ServerId) -> T + 'static) -> T {
        let runner = self.hub.run();
        let hub = self.hub.clone();
        let clock = self.clock.clone();
        let listed = self.listed.clone();
        support::simulate(&self.clock, move |spawner| spawner.spawn_local(runner).unwrap(), async move {
            let config = ServerConfig { transport: TransportChoice::Streamable, ..ServerConfig::new(URL) };
            let id = hub.add_server(config).unwrap();
            while !matches!(snapshot(&hub, &id).status, ServerStatus::Connected { .. }) || listed.get() == 0 {
                support::pass_time(&clock, 1).await;
            }
            // What the model calls it: named after its own serverInfo.
            let prefix = snapshot(&hub, &id).tool_prefix;
            main(hub, prefix).await
        })
    }
}

fn snapshot(hub: &McpHub<FakeNet>, id: &ServerId) -> ServerSnapshot {
    hub.snapshots().into_iter().find(|snapshot| &snapshot.id == id || &snapshot.tool_prefix == id).unwrap()
}

fn declared() -> Value {
    json!({"resources": {}, "prompts": {}})
}

#[test]
fn every_page_of_resources_and_templates_is_listed_and_an_unreadable_entry_is_skipped_by_name() {
    let world = world(declared(), McpOptions::default());
    let snapshot = world.connected(async |hub, id| snapshot(&hub, &id));
    let uris: Vec<&str> = snapshot.offers.resources.iter().map(|resource| resource.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "test://static/resource/1",
            "test://static/resource/2",
            "test://static/resource/3",
            "test://big",
            "test://lies",
            "test://image"
        ]
    );
    assert_eq!(snapshot.offers.resources[3].size, Some(10_000_000));
    assert_eq!(snapshot.offers.resource_templates.len(), 1);
    assert_eq!(snapshot.offers.resource_templates[0].uri_template, "test://dynamic/resource/{id}");
    let prompts: Vec<&str> = snapshot.offers.prompts.iter().map(|prompt| prompt.name.as_str()).collect();
    assert_eq!(prompts, ["simple_prompt", "complex_prompt"]);
    assert!(snapshot.offers.prompts[1].arguments[0].required);
    assert!(!snapshot.offers.prompts[1].arguments[1].required);
    assert_eq!(snapshot.offers.unreadable.len(), 3, "{:?}", snapshot.offers.unreadable);
    assert_eq!(snapshot.offers.unreadable[0], "resources/list page 1, resource 2: missing field `uri`");
    assert!(snapshot.offers.unreadable[1].starts_with("resources/templates/list page 1, resource template 2: missing field"));
    assert!(snapshot.offers.unreadable[2].starts_with("prompts/list page 1, prompt 3: missing field `name`"));
    // The model sees them through the hub's view of the server.
    let view = world.hub.servers().into_iter().next().unwrap();
    assert_eq!(view.resources.len(), 6);
    assert_eq!(view.resource_templates.len(), 1);
}

#[test]
fn a_server_that_declares_no_resources_or_prompts_is_never_asked_for_them() {
    let world = world(json!({}), McpOptions::default());
    let (snapshot, read) = world.connected(async |hub, id| {
        let read = hub.read_resource(&id, "test://static/resource/1", CancelToken::new()).await;
        (snapshot(&hub, &id), read)
    });
    assert!(snapshot.offers.resources.is_empty() && snapshot.offers.prompts.is_empty());
    let asked = world.net.rpc_log();
    assert!(!asked.iter().any(|method| method.starts_with("resources/") || method.starts_with("prompts/")), "{asked:?}");
    let error = read.unwrap_err();
    assert!(error.to_string().contains("this server offers no resources"), "{error}");
}

#[test]
fn a_text_resource_is_read_whole() {
    let world = world(declared(), McpOptions::default());
    let read = world.connected(async |hub, id| hub.read_resource(&id, "test://static/resource/1", CancelToken::new()).await);
    let result = read.unwrap();
    assert!(!result.is_error);
    assert_eq!(result.text_content(), "Hello, resource 1");
}

#[test]
fn a_blob_is_summarised_with_its_type_and_size_and_never_dumped() {
    let world = world(declared(), McpOptions::default());
    let read = world.connected(async |hub, id| hub.read_resource(&id, "test://image", CancelToken::new()).await);
    let read = read.unwrap();
    let text = read.text_content();
    // An image blob comes as the image itself (which the model can look at), never as base64 text.
    assert!(text.contains("[resource <test://image> image/png, an image of about 70 bytes from the server"), "{text}");
    assert!(read.content.iter().any(|part| matches!(part, ResultPart::Image { media_type, .. } if media_type == "image/png")));
    assert!(!text.contains("iVBORw0KGgo"), "the base64 data is not given to the model as text: {text}");
    assert!(text.contains("[resource <test://image#caption>]\nthe logo"), "{text}");
    assert!(text.contains("[part 3 of resource <test://image> could not be read"), "{text}");
}

#[test]
fn a_resource_declared_larger_than_the_cap_is_refused_without_asking_the_server() {
    let world = world(declared(), McpOptions::default());
    let read = world.connected(async |hub, id| hub.read_resource(&id, "test://big", CancelToken::new()).await);
    let error = read.unwrap_err().to_string();
    assert_eq!(
        error,
        "reading <test://big> from fake_server failed: the resource <test://big> is 10.0 MB of text, more than the \
         4.2 MB this client reads at once; read a smaller resource or a narrower one from the server's templates"
    );
    let reads = world.net.requests().into_iter().filter(|request| request.rpc() == "resources/read").count();
    assert_eq!(reads, 0);
}

#[test]
fn a_resource_whose_text_turns_out_larger_than_the_cap_is_refused_clearly() {
    let world = world(declared(), McpOptions { max_resource_bytes: 4_000, ..McpOptions::default() });
    let (big, small) = world.connected(async |hub, id| {
        let big = hub.read_resource(&id, "test://lies", CancelToken::new()).await;
        let small = hub.read_resource(&id, "test://static/resource/1", CancelToken::new()).await;
        (big, small)
    });
    let error = big.unwrap_err().to_string();
    // Cut as it streams in, so the size known is the whole answer's (its 5.0 kB of text and the envelope).
    assert!(error.contains("the resource <test://lies> is 5.1 kB of text, more than the 4.0 kB"), "{error}");
    assert_eq!(small.unwrap().text_content(), "Hello, resource 1", "the session goes on");
}

#[test]
fn an_unknown_resource_is_the_servers_error() {
    let world = world(declared(), McpOptions::default());
    let read = world.connected(async |hub, id| hub.read_resource(&id, "test://nothing", CancelToken::new()).await);
    assert_eq!(
        read.unwrap_err(),
        RemoteCallError::Failed(
            "reading <test://nothing> from fake_server failed: server error -32002: Resource not found".to_owned()
        )
    );
}

#[test]
fn a_prompt_is_filled_with_its_arguments_and_a_failing_one_says_why() {
    let world = world(declared(), McpOptions::default());
    let (filled, failed) = world.connected(async |hub, id| {
        let arguments = BTreeMap::from([("temperature".to_owned(), "0.7".to_owned())]);
        let filled = hub.get_prompt(&id, "complex_prompt", arguments, CancelToken::new()).await;
        let failed = hub.get_prompt(&id, "missing", BTreeMap::new(), CancelToken::new()).await;
        (filled, failed)
    });
    let messages = filled.unwrap().messages;
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0].role, PromptRole::User);
    assert_eq!(messages[0].content, Content::Known(ContentBlock::Text { text: "temperature=0.7".to_owned() }));
    assert_eq!(messages[1].role, PromptRole::Assistant);
    assert_eq!(
        failed.unwrap_err(),
        "the prompt \"missing\" of fake_server failed: server error -32602: Unknown prompt"
    );
}

#[test]
fn a_chosen_log_level_is_sent_now_kept_in_the_config_and_sent_again_on_reconnecting() {
    let world = world(json!({"logging": {}}), McpOptions::default());
    let clock = world.clock.clone();
    let listed = world.listed.clone();
    let (logging, config) = world.connected(async move |hub, server| {
        let id = snapshot(&hub, &server).id;
        hub.set_log_level(&id, LogLevel::Warning).await.unwrap();
        hub.reconnect(&id);
        assert_eq!(snapshot(&hub, &id).status, ServerStatus::Connecting);
        // The level is asked for once the offers of the new connection are listed.
        while listed.get() < 2 {
            support::pass_time(&clock, 1).await;
        }
        support::pass_time(&clock, 1).await;
        (snapshot(&hub, &id).offers.logging, snapshot(&hub, &id).config)
    });
    assert!(logging);
    assert_eq!(config.log_level, Some(LogLevel::Warning));
    let levels: Vec<Value> = world
        .net
        .requests()
        .into_iter()
        .filter(|request| request.rpc() == "logging/setLevel")
        .map(|request| request.params())
        .collect();
    assert_eq!(levels, [json!({"level": "warning"}), json!({"level": "warning"})], "once now, once on reconnecting");
}

#[test]
fn a_server_that_declares_no_logging_is_not_asked_for_a_level() {
    let world = world(json!({}), McpOptions::default());
    let outcome = world.connected(async |hub, server| {
        let id = snapshot(&hub, &server).id;
        hub.set_log_level(&id, LogLevel::Debug).await
    });
    let error = outcome.unwrap_err();
    assert!(error.ends_with("did not take log level debug: this server offers no logging"), "{error}");
    assert!(!world.net.rpc_log().iter().any(|method| method == "logging/setLevel"));
}

/// A server that declares resource subscriptions (or not) and keeps its listening stream open.
fn subscribing_world(subscribe: bool) -> World {
    let declared = json!({"resources": {"subscribe": subscribe}});
    let server = Rc::new(RefCell::new(FakeServer { list_changed: false, offers: declared, ..FakeServer::default() }));
    let net = FakeNet::new(move |request: &Logged, net: &FakeNet| {
        if request.method == Method::Get {
            return net.live_sse();
        }
        match (request.rpc(), offers(request)) {
            ("resources/subscribe", _) => Reply::json(200, rpc_result(request.id(), json!({}))),
            (_, Some(answer)) => Reply::json(200, answer),
            _ => server.borrow_mut().streamable(request),
        }
    });
    world_over(net, McpOptions::default())
}

fn subscribed_uris(net: &FakeNet) -> Vec<String> {
    net.requests()
        .iter()
        .filter(|request| request.body.is_some() && request.rpc() == "resources/subscribe")
        .map(|request| request.params()["uri"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn a_subscribed_resource_that_changes_is_announced_and_subscribed_to_again_after_a_reconnection() {
    let world = subscribing_world(true);
    let updates = Rc::new(RefCell::new(Vec::new()));
    let heard = updates.clone();
    world.hub.subscribe(move |event| {
        if let HubEvent::ResourceUpdated { server, uri } = event {
            heard.borrow_mut().push((server.to_string(), uri.clone()));
        }
    });
    let (net, clock) = (world.net.clone(), world.clock.clone());
    let id = world.connected(async move |hub, prefix| {
        hub.subscribe_resource(&prefix, "test://static/resource/1").await.unwrap();
        // Asking twice sends nothing more.
        hub.subscribe_resource(&prefix, "test://static/resource/1").await.unwrap();
        while net.streams.borrow().is_empty() {
            support::pass_time(&clock, 1).await;
        }
        net.feed("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{\"uri\":\"test://static/resource/1\"}}\n\n");
        // A notification without a uri names nothing: it is dropped.
        net.feed("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/updated\",\"params\":{}}\n\n");
        while updates.borrow().is_empty() {
            support::pass_time(&clock, 1).await;
        }
        let id = snapshot(&hub, &prefix).id;
        assert_eq!(updates.borrow().as_slice(), [(id.to_string(), "test://static/resource/1".to_owned())]);
        assert_eq!(subscribed_uris(&net), ["test://static/resource/1"]);

        // A new session knows nothing of the old one's subscriptions: the hub asks again.
        assert!(hub.reconnect(&id));
        while subscribed_uris(&net).len() < 2 {
            support::pass_time(&clock, 1).await;
        }
        id
    });
    assert_eq!(subscribed_uris(&world.net), ["test://static/resource/1", "test://static/resource/1"], "{id}");
}

#[test]
fn a_server_that_offers_no_subscriptions_is_never_asked_and_the_refusal_says_so() {
    let world = subscribing_world(false);
    let refused = world.connected(async |hub, prefix| hub.subscribe_resource(&prefix, "test://static/resource/1").await);
    let error = refused.unwrap_err();
    assert!(error.contains("offers no resource subscriptions"), "{error}");
    assert!(subscribed_uris(&world.net).is_empty());
}

/// A server that announces changes of its resources and prompts, keeps its listening stream open,
/// and has none of them until `grown` is set, then one of each.
fn growing_world(grown: Rc<Cell<bool>>) -> World {
    let declared = json!({"resources": {"listChanged": true}, "prompts": {"listChanged": true}});
    let server = Rc::new(RefCell::new(FakeServer { list_changed: false, offers: declared, ..FakeServer::default() }));
    let net = FakeNet::new(move |request: &Logged, net: &FakeNet| {
        if request.method == Method::Get {
            return net.live_sse();
        }
        let result = match (request.rpc(), grown.get()) {
            ("resources/list", false) => json!({"resources": []}),
            ("resources/list", true) => json!({"resources": [resource(1)]}),
            ("resources/templates/list", _) => json!({"resourceTemplates": []}),
            ("prompts/list", false) => json!({"prompts": []}),
            ("prompts/list", true) => json!({"prompts": [{"name": "added_prompt"}]}),
            _ => return server.borrow_mut().streamable(request),
        };
        Reply::json(200, rpc_result(request.id(), result))
    });
    world_over(net, McpOptions::default())
}

/// Whether the model is offered the server's resource pseudo-tools (`list_resources`, `read_resource`).
fn readable(hub: &McpHub<FakeNet>) -> bool {
    Catalog::build(&[], &hub.servers()).servers()[0].has_resources()
}

fn asked(net: &FakeNet, method: &str) -> usize {
    net.requests().iter().filter(|request| request.rpc() == method).count()
}

#[test]
fn a_resource_and_a_prompt_added_later_are_listed_again_when_the_server_says_its_lists_changed() {
    let grown = Rc::new(Cell::new(false));
    let world = growing_world(grown.clone());
    let (net, clock) = (world.net.clone(), world.clock.clone());
    let (before, after, readable_before) = world.connected(async move |hub, prefix| {
        let before = snapshot(&hub, &prefix).offers;
        let readable_before = readable(&hub);
        grown.set(true);
        while net.streams.borrow().is_empty() {
            support::pass_time(&clock, 1).await;
        }
        net.feed("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\"}\n\n");
        support::pass_time(&clock, 5).await;
        net.feed("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/prompts/list_changed\"}\n\n");
        support::pass_time(&clock, 5).await;
        (before, snapshot(&hub, &prefix).offers, readable_before)
    });
    assert!(before.resources.is_empty() && before.prompts.is_empty(), "{before:?}");
    assert!(!readable_before);
    let uris: Vec<&str> = after.resources.iter().map(|resource| resource.uri.as_str()).collect();
    assert_eq!(uris, ["test://static/resource/1"]);
    let prompts: Vec<&str> = after.prompts.iter().map(|prompt| prompt.name.as_str()).collect();
    assert_eq!(prompts, ["added_prompt"]);
    assert_eq!(world.listed.get(), 3, "published on connecting, then once per notification");
    // Each notification lists its own offers again, every page, and nothing else.
    assert_eq!(asked(&world.net, "resources/list"), 2);
    assert_eq!(asked(&world.net, "resources/templates/list"), 2);
    assert_eq!(asked(&world.net, "prompts/list"), 2);
    assert_eq!(asked(&world.net, "tools/list"), 1);
    // The model sees them too: the server now has resources to list and read.
    assert!(readable(&world.hub));
    assert_eq!(world.hub.servers()[0].resources.len(), 1);
}

#[test]
fn a_server_announcing_only_prompt_changes_is_listened_to() {
    let hello = |capabilities: Value| -> InitializeResult {
        serde_json::from_value(json!({"protocolVersion": "2025-06-18", "capabilities": capabilities})).unwrap()
    };
    assert!(hello(json!({"prompts": {"listChanged": true}})).announces_list_changes());
    assert!(!hello(json!({"prompts": {}, "resources": {"listChanged": false}})).announces_list_changes());
}
