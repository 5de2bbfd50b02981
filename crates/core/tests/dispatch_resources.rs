//! A remote server's resources reach the model through two pseudo-tools, offered only for servers
//! that have resources: `{server}_mcp_list_resources` (answered from the known list, templates
//! included) and `{server}_mcp_read_resource({uri})` (read from the server, its result truncated
//! and recallable like any tool result).

mod common;

use std::rc::Rc;

use autoui_core::agent::frame::is_frame_line;
use autoui_core::cancel::CancelToken;
use autoui_core::dispatch::record::CallOutcome;
use autoui_core::dispatch::{Dispatcher, Executed};
use autoui_core::ids::{CallId, ServerId};
use autoui_core::remote::RemoteStatus;
use autoui_core::llm::message::ContentBlock;
use autoui_core::tool::{DataSource, LocalServer, Origin, ResultPart};
use common::autoui::FakeAutoui;
use common::clock::FakeClock;
use common::harness::Harness;
use common::mcp::{FakeMcp, RemoteCall, spec};
use common::model::{Step, call, text};
use futures::executor::block_on;
use serde_json::{Value, json};

const ORDERS: &str = r#"{"orders":[{"id":1,"total":12.5},{"id":2,"total":40}]}"#;

/// A weather server with tools only, and a store server with two resources and a template.
fn servers() -> FakeMcp {
    FakeMcp::new()
        .server("Weather", vec![spec("get_forecast", "Forecast for a city")])
        .server("Store", vec![spec("get_stock", "Stock levels")])
        .resource("Store", "store://orders/today", "Today's orders", ORDERS)
        .resource("Store", "store://catalog", "Catalog", "[]")
        .resource_template("Store", "store://orders/{date}", "Orders of a day")
}

struct Setup {
    dispatcher: Dispatcher,
    mcp: Rc<FakeMcp>,
    autoui: Rc<FakeAutoui>,
}

fn setup(mcp: FakeMcp) -> Setup {
    let clock = FakeClock::new();
    let mcp = Rc::new(mcp.with_clock(Rc::new(clock.clone())));
    let autoui = Rc::new(FakeAutoui::new(Rc::new(autoui_core::agent::buffer::ResultBuffer::new())));
    let local: Vec<Rc<dyn LocalServer>> = vec![autoui.clone()];
    Setup { dispatcher: Dispatcher::new(local, mcp.clone(), Rc::new(clock), 60_000), mcp, autoui }
}

impl Setup {
    fn call(&mut self, id: &str, name: &str, args: Value) -> Executed {
        let catalog = self.dispatcher.catalog();
        let prepared = self.dispatcher.prepare(&catalog, CallId::new(id), name, args);
        block_on(self.dispatcher.execute(&catalog, prepared, &CancelToken::new()))
    }

    fn offered(&self) -> Vec<String> {
        self.dispatcher.tool_defs(&self.dispatcher.catalog()).into_iter().map(|tool| tool.name).collect()
    }
}

fn error_text(executed: &Executed) -> &str {
    match &executed.record.outcome {
        CallOutcome::Failed { error } => error,
        other => panic!("expected a failure, got {other:?}"),
    }
}

#[test]
fn only_a_server_with_resources_offers_the_resource_tools() {
    let setup = setup(servers());
    let offered = setup.offered();
    assert!(offered.contains(&"store_mcp_list_resources".to_owned()), "{offered:?}");
    assert!(offered.contains(&"store_mcp_read_resource".to_owned()), "{offered:?}");
    assert!(!offered.iter().any(|name| name.starts_with("weather_mcp_") && name.contains("resource")), "{offered:?}");
    let defs = setup.dispatcher.tool_defs(&setup.dispatcher.catalog());
    let read = defs.iter().find(|def| def.name == "store_mcp_read_resource").unwrap();
    assert_eq!(read.input_schema["required"], json!(["uri"]));
    let list = defs.iter().find(|def| def.name == "store_mcp_list_resources").unwrap();
    assert!(list.description.contains("2 resources and 1 resource templates"), "{}", list.description);
}

#[test]
fn list_resources_answers_from_the_known_list_with_the_templates_and_how_to_fill_them() {
    let mut setup = setup(servers());
    let executed = setup.call("c1", "store_mcp_list_resources", json!({}));
    let listed: Value = serde_json::from_str(&executed.text).unwrap();
    assert_eq!(listed["resources"][0]["uri"], "store://orders/today");
    assert_eq!(listed["resources"][0]["name"], "Today's orders");
    assert_eq!(listed["resources"][0]["mimeType"], "application/json");
    assert_eq!(listed["resources"][1]["uri"], "store://catalog");
    assert_eq!(listed["templates"][0]["uriTemplate"], "store://orders/{date}");
    assert!(listed["howToUseTemplates"].as_str().unwrap().contains("store_mcp_read_resource"));
    assert!(setup.mcp.calls().is_empty(), "nothing is asked of the server");
}

#[test]
fn read_resource_reads_from_the_server_and_names_it_as_the_data_source() {
    let mut setup = setup(servers());
    let executed = setup.call("c1", "store_mcp_read_resource", json!({ "uri": "store://orders/today" }));
    assert_eq!(&*executed.text, ORDERS);
    assert!(!executed.result.is_error);
    assert_eq!(
        setup.mcp.calls(),
        [RemoteCall { server: "store".into(), tool: "resources/read".into(), args: json!({ "uri": "store://orders/today" }) }]
    );
    let target = executed.record.target.unwrap();
    assert_eq!((target.server.as_str(), target.tool.as_str()), ("store", "read_resource"));
    // A widget shown next names the store as its data's source.
    setup.call("c2", "autoui_webmcp_widget_display", json!({ "name": "stat", "params": { "label": "Orders", "value": 2 } }));
    let origin = setup.autoui.received.borrow().last().map(|(_, _, origin)| origin.clone()).unwrap();
    assert_eq!(
        origin,
        Origin::Agent {
            call_id: CallId::new("c2"),
            source: Some(DataSource { server: ServerId::sanitize("store"), tool: "read_resource".into() })
        }
    );
}

#[test]
fn a_read_without_a_uri_says_what_is_missing_and_asks_nothing() {
    let mut setup = setup(servers());
    let executed = setup.call("c1", "store_mcp_read_resource", json!({ "path": "orders" }));
    assert_eq!(
        error_text(&executed),
        "Error: read_resource needs the resource's uri, as in {\"uri\": \"...\"}; store_mcp_list_resources lists them"
    );
    assert!(setup.mcp.calls().is_empty());
}

#[test]
fn the_servers_refusal_reaches_the_model_as_an_error() {
    let mut setup = setup(servers());
    let executed = setup.call("c1", "store_mcp_read_resource", json!({ "uri": "store://nothing" }));
    assert_eq!(
        error_text(&executed),
        "Error: reading <store://nothing> from store failed: server error -32002: Resource not found"
    );
}

#[test]
fn a_server_without_resources_has_no_read_resource() {
    let mut setup = setup(servers());
    let executed = setup.call("c1", "weather_mcp_read_resource", json!({ "uri": "weather://x" }));
    assert_eq!(
        error_text(&executed),
        "Error: server \"weather\" has no tool \"read_resource\"; call weather_mcp_search_tools to find the right one"
    );
    assert!(setup.mcp.calls().is_empty());
}

#[test]
fn a_server_still_connecting_is_not_read() {
    let mcp = servers();
    mcp.set_server("Store", vec![spec("get_stock", "Stock levels")], RemoteStatus::Connecting);
    let mut setup = setup(mcp);
    assert!(!setup.offered().iter().any(|name| name.starts_with("store_mcp_")));
    let executed = setup.call("c1", "store_mcp_read_resource", json!({ "uri": "store://orders/today" }));
    assert_eq!(error_text(&executed), "Error: server \"store\" is not connected: still connecting");
    assert!(setup.mcp.calls().is_empty());
}

#[test]
fn a_long_resource_is_cut_for_the_model_with_a_recall_marker_and_kept_whole() {
    let rows: Vec<Value> = (0..2_000).map(|n| json!({ "id": n, "sku": format!("SKU-{n:05}") })).collect();
    let full = Value::Array(rows).to_string();
    let mcp = FakeMcp::new().server("Store", Vec::new()).resource("Store", "store://stock", "Stock", &full);
    let read = Step::Reply(vec![call("r1", "store_mcp_read_resource", json!({ "uri": "store://stock" }))]);
    let mut harness = Harness::new([read, Step::Reply(vec![text("ok")])], mcp);
    harness.run("show the stock");
    let seen = harness.model.seen();
    let parts = seen[1]
        .messages
        .iter()
        .flat_map(|message| &message.content)
        .find_map(|block| match block {
            ContentBlock::ToolResult { tool_use_id, content, .. } if tool_use_id == "r1" => Some(content.clone()),
            _ => None,
        })
        .expect("the result reached the model");
    let ResultPart::Text { text: first } = &parts[0] else { panic!("a text frame first") };
    assert!(is_frame_line(first) && first.contains("\"store\""), "framed as the server's data: {first}");
    let shown = seen[1].result_of("r1").expect("result sent");
    let (_, marker) = shown.split_once("\n… [truncated").expect("a truncation marker");
    assert!(marker.contains("of 2000 items"), "{marker}");
    assert!(marker.contains("recall('r1')"), "{marker}");
    assert_eq!(harness.results.get("r1").as_deref(), Some(full.as_str()));
}

#[test]
fn a_server_with_many_resources_is_listed_a_page_at_a_time() {
    let mut mcp = FakeMcp::new().server("Store", Vec::new());
    for n in 0..120 {
        mcp = mcp.resource("Store", &format!("store://item/{n}"), &format!("Item {n}"), "{}");
    }
    let mut setup = setup(mcp);
    let first: Value = serde_json::from_str(&setup.call("c1", "store_mcp_list_resources", json!({})).text).unwrap();
    assert_eq!(first["count"], 120);
    assert_eq!(first["resources"].as_array().unwrap().len(), 50);
    assert_eq!(first["next"], "call store_mcp_list_resources({\"offset\": 50}) for the next page");
    let last: Value =
        serde_json::from_str(&setup.call("c2", "store_mcp_list_resources", json!({ "offset": 100 })).text).unwrap();
    assert_eq!(last["resources"][0]["uri"], "store://item/100");
    assert_eq!(last["resources"].as_array().unwrap().len(), 20);
    assert!(last.get("next").is_none());
}

#[test]
fn the_system_prompt_counts_a_servers_resources_and_names_the_resource_tools() {
    let mut harness = Harness::new([Step::Reply(vec![text("ok")])], servers());
    harness.run("hello");
    let system = harness.model.seen()[0].system.clone();
    assert!(system.contains("- store (mcp, 1 tool, 3 resources)"), "{system}");
    assert!(system.contains("- weather (mcp, 1 tool)"), "{system}");
    assert!(system.contains("_list_resources() and _read_resource(uri)"), "{system}");
}
