//! The dispatcher, step by step as in the seed: pseudo-tools answered locally, lazy activation on the
//! first real call, routing to MCP or local servers, every error as a clear tool result, and the
//! per-call record (elapsed time from the clock, guided flag, sizes, data provenance).

mod common;

use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::dispatch::record::CallOutcome;
use autoui_core::dispatch::{Dispatcher, Executed};
use autoui_core::ids::{CallId, ServerId};
use autoui_core::remote::RemoteStatus;
use autoui_core::tool::{DataSource, LocalServer, Origin, ToolResult};
use autoui_core::tool_name::Protocol;
use common::autoui::{FakeAutoui, FakeSamples};
use common::clock::FakeClock;
use common::mcp::{Behaviour, FakeMcp, spec};
use futures::executor::block_on;
use serde_json::{Value, json};

struct Setup {
    dispatcher: Dispatcher,
    mcp: Rc<FakeMcp>,
    autoui: Rc<FakeAutoui>,
    clock: FakeClock,
}

fn setup(mcp: FakeMcp) -> Setup {
    setup_with_timeout(mcp, 60_000)
}

fn setup_with_timeout(mcp: FakeMcp, timeout_ms: u32) -> Setup {
    let clock = FakeClock::new();
    let mcp = Rc::new(mcp.with_clock(Rc::new(clock.clone())));
    let results = Rc::new(autoui_core::agent::buffer::ResultBuffer::new());
    let autoui = Rc::new(FakeAutoui::new(results));
    let local: Vec<Rc<dyn LocalServer>> = vec![autoui.clone(), Rc::new(FakeSamples)];
    let dispatcher = Dispatcher::new(local, mcp.clone(), Rc::new(clock.clone()), timeout_ms);
    Setup { dispatcher, mcp, autoui, clock }
}

fn weather() -> FakeMcp {
    FakeMcp::new()
        .server(
            "My Weather",
            vec![
                spec("get_forecast", "Forecast for a city, by day"),
                spec("get_alerts", "Weather alerts for a region"),
                spec("search_recipes", "Find weather dashboard recipes"),
            ],
        )
        .on("my_weather", "get_forecast", Behaviour::Reply(ToolResult::json(json!({ "temp": 18 }))))
        .on("my_weather", "get_alerts", Behaviour::Fail("upstream returned 503".to_owned()))
        .on("my_weather", "search_recipes", Behaviour::Reply(ToolResult::json(json!([]))))
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
fn the_model_first_sees_only_the_discovery_set() {
    let setup = setup(weather());
    assert_eq!(
        setup.offered(),
        [
            "autoui_webmcp_search_recipes",
            "autoui_webmcp_list_recipes",
            "autoui_webmcp_get_recipe",
            "autoui_webmcp_widget_display",
            "autoui_webmcp_canvas",
            "autoui_webmcp_recall",
            "samples_webmcp_search_tools",
            "samples_webmcp_list_tools",
            "my_weather_mcp_search_recipes",
            "my_weather_mcp_search_tools",
            "my_weather_mcp_list_tools",
        ]
    );
}

#[test]
fn a_server_whose_tools_are_all_offered_gets_no_pseudo_tools_yet_they_still_answer() {
    let mut setup = setup(weather());
    assert!(!setup.offered().iter().any(|name| name.starts_with("autoui_webmcp_") && name.ends_with("_tools")));
    let executed = setup.call("p1", "autoui_webmcp_list_tools", json!({}));
    assert!(!executed.result.is_error);
    assert!(executed.text.contains("autoui_webmcp_widget_display"), "{}", executed.text);
}

#[test]
fn list_tools_answers_from_the_known_tool_list_without_calling_or_activating_the_server() {
    let mut setup = setup(weather());
    let executed = setup.call("p1", "my_weather_mcp_list_tools", json!({}));
    let listed: Vec<Value> = serde_json::from_str(&executed.text).expect("JSON list");
    let names: Vec<&str> = listed.iter().filter_map(|tool| tool["name"].as_str()).collect();
    assert_eq!(names, ["my_weather_mcp_get_forecast", "my_weather_mcp_get_alerts", "my_weather_mcp_search_recipes"]);
    assert!(listed[0]["inputSchema"].is_object());
    assert!(setup.mcp.calls().is_empty());
    assert!(executed.activation.is_none());
    assert!(setup.dispatcher.activated().is_empty());
    assert!(!setup.offered().contains(&"my_weather_mcp_get_forecast".to_owned()));
}

#[test]
fn search_tools_ranks_name_matches_first_and_says_so_when_nothing_matches() {
    let mut setup = setup(weather());
    let executed = setup.call("p1", "my_weather_mcp_search_tools", json!({ "query": "alerts region" }));
    let found: Vec<Value> = serde_json::from_str(&executed.text).expect("JSON list");
    assert_eq!(found[0]["name"], "my_weather_mcp_get_alerts");
    assert_eq!(found.len(), 1);

    let nothing = setup.call("p2", "my_weather_mcp_search_tools", json!({ "query": "stock prices" }));
    assert!(!nothing.result.is_error);
    assert_eq!(
        nothing.text.as_ref(),
        "No tool of the My Weather server matches \"stock prices\". Call my_weather_mcp_list_tools to see all 3 tools."
    );
    assert!(setup.mcp.calls().is_empty());
}

#[test]
fn the_first_real_call_activates_the_server_once_and_its_tools_are_offered_afterwards() {
    let mut setup = setup(weather());
    let first = setup.call("c1", "my_weather_mcp_search_recipes", json!({ "query": "forecast" }));
    let activation = first.activation.expect("activated");
    assert_eq!(activation.server, ServerId::sanitize("my_weather"));
    assert_eq!(activation.protocol, Protocol::Mcp);
    assert_eq!(activation.tools, ["my_weather_mcp_get_forecast", "my_weather_mcp_get_alerts"]);
    let offered = setup.offered();
    assert!(offered.ends_with(&["my_weather_mcp_get_forecast".to_owned(), "my_weather_mcp_get_alerts".to_owned()]));

    let second = setup.call("c2", "my_weather_mcp_get_forecast", json!({ "city": "Paris" }));
    assert!(second.activation.is_none(), "activation is one-shot");
    assert_eq!(setup.dispatcher.activated(), [(ServerId::sanitize("my_weather"), Protocol::Mcp)]);
}

#[test]
fn a_call_to_a_not_yet_offered_tool_still_works_and_activates_its_server() {
    let mut setup = setup(weather());
    let executed = setup.call("c1", "my_weather_mcp_get_forecast", json!({ "city": "Lyon" }));
    assert_eq!(executed.text.as_ref(), r#"{"temp":18}"#);
    assert!(executed.activation.is_some());
    assert_eq!(setup.mcp.calls()[0].args, json!({ "city": "Lyon" }));
}

#[test]
fn mcp_calls_are_routed_by_server_and_real_tool_name() {
    let mcp = weather().server("Backup Weather", vec![spec("get_forecast", "Another forecast")]).on(
        "backup_weather",
        "get_forecast",
        Behaviour::Reply(ToolResult::text("backup says 20")),
    );
    let mut setup = setup(mcp);
    let executed = setup.call("c1", "backup_weather_mcp_get_forecast", json!({}));
    assert_eq!(executed.text.as_ref(), "backup says 20");
    assert_eq!(setup.mcp.calls()[0].server, "backup_weather");
}

#[test]
fn local_calls_carry_the_call_id_and_the_most_recent_data_source() {
    let mut setup = setup(weather());
    setup.call("c1", "autoui_webmcp_list_recipes", json!({}));
    setup.call("c2", "my_weather_mcp_get_forecast", json!({}));
    setup.call(
        "c3",
        "autoui_webmcp_widget_display",
        json!({ "name": "stat", "params": { "label": "Paris", "value": 18 } }),
    );
    setup.call("c4", "samples_webmcp_monthly_sales", json!({}));
    setup.call(
        "c5",
        "autoui_webmcp_widget_display",
        json!({ "name": "stat", "params": { "label": "North", "value": 120 } }),
    );
    let origins: Vec<Origin> = setup.autoui.received.borrow().iter().map(|(_, _, origin)| origin.clone()).collect();
    let weather_source = DataSource { server: ServerId::sanitize("my_weather"), tool: "get_forecast".to_owned() };
    let samples_source = DataSource { server: ServerId::sanitize("samples"), tool: "monthly_sales".to_owned() };
    assert_eq!(
        origins,
        vec![
            Origin::Agent { call_id: CallId::new("c1"), source: None },
            Origin::Agent { call_id: CallId::new("c3"), source: Some(weather_source) },
            Origin::Agent { call_id: CallId::new("c5"), source: Some(samples_source) },
        ]
    );
}

#[test]
fn an_unknown_name_format_is_an_error_that_suggests_the_canonical_name() {
    let mut setup = setup(weather());
    let executed = setup.call("c1", "widget_display", json!({}));
    assert!(executed.result.is_error);
    assert_eq!(
        error_text(&executed),
        "Error: unknown tool name format \"widget_display\": expected {server}_{mcp|webmcp}_{tool}; did you mean autoui_webmcp_widget_display?"
    );
    assert!(executed.record.target.is_none());
}

#[test]
fn an_unknown_server_is_an_error_listing_the_known_ones() {
    let mut setup = setup(weather());
    let executed = setup.call("c1", "stocks_mcp_get_quote", json!({}));
    assert_eq!(
        error_text(&executed),
        "Error: no mcp server \"stocks\"; servers: autoui (webmcp), samples (webmcp), my_weather (mcp)"
    );
}

#[test]
fn an_unknown_tool_on_a_known_server_points_to_search_tools() {
    let mut setup = setup(weather());
    let executed = setup.call("c1", "my_weather_mcp_get_humidity", json!({}));
    assert_eq!(
        error_text(&executed),
        "Error: server \"my_weather\" has no tool \"get_humidity\"; call my_weather_mcp_search_tools to find the right one"
    );
    assert!(setup.mcp.calls().is_empty());
}

#[test]
fn a_server_that_is_not_connected_is_named_with_its_reason() {
    let mcp = FakeMcp::new().server_with_status(
        "files",
        vec![spec("read_file", "Read a file")],
        RemoteStatus::Failed("HTTP 401 from https://files.example/mcp".to_owned()),
    );
    let mut setup = setup(mcp);
    assert!(!setup.offered().iter().any(|name| name.starts_with("files_")), "no tools of a failed server");
    let executed = setup.call("c1", "files_mcp_read_file", json!({}));
    assert_eq!(
        error_text(&executed),
        "Error: server \"files\" is not connected: HTTP 401 from https://files.example/mcp"
    );
    assert!(setup.mcp.calls().is_empty());
}

#[test]
fn a_tool_that_fails_answers_error_with_its_message() {
    let mut setup = setup(weather());
    let executed = setup.call("c1", "my_weather_mcp_get_alerts", json!({}));
    assert_eq!(error_text(&executed), "Error: upstream returned 503");
}

#[test]
fn a_tool_error_result_reaches_the_model_unchanged_and_flagged() {
    let mut setup = setup(weather());
    let executed =
        setup.call("c1", "autoui_webmcp_widget_display", json!({ "name": "stat-card", "params": { "label": "x" } }));
    assert!(executed.result.is_error);
    let error: Value = serde_json::from_str(&executed.text).expect("JSON error");
    assert_eq!(error["error"], "Validation failed");
    assert!(error["expected_schema"].is_object());
}

#[test]
fn a_silent_server_times_out_after_the_configured_time_with_a_clear_error() {
    let mcp = FakeMcp::new().server("slow", vec![spec("crunch", "Slow")]).on("slow", "crunch", Behaviour::Hang);
    let mut setup = setup_with_timeout(mcp, 5_000);
    let executed = setup.call("c1", "slow_mcp_crunch", json!({}));
    assert_eq!(error_text(&executed), "Error: no answer after 5 s (timeout)");
    assert_eq!(executed.record.elapsed_ms, 5_000);
    assert_eq!(setup.mcp.stopped(), 0, "a timeout is not a Stop");
}

#[test]
fn the_default_timeout_is_sixty_seconds() {
    let mcp = FakeMcp::new().server("slow", vec![spec("crunch", "Slow")]).on("slow", "crunch", Behaviour::Hang);
    let mut setup = setup(mcp);
    assert_eq!(error_text(&setup.call("c1", "slow_mcp_crunch", json!({}))), "Error: no answer after 60 s (timeout)");
}

/// A server whose session times its calls itself (and stops that clock while the server waits on the
/// person's answer to a form) gets no other timer: not the 60 s default, nor one of its own length,
/// which would cut a form the person takes their time over short.
#[test]
fn a_server_that_times_its_calls_out_itself_is_left_to_its_own_timeout() {
    let mcp = FakeMcp::new().server("slow", vec![spec("crunch", "Slow")]).with_call_timeout(120_000).on(
        "slow",
        "crunch",
        Behaviour::Slow(300_000, ToolResult::text("done after 5 minutes")),
    );
    let mut setup = setup(mcp);
    let executed = setup.call("c1", "slow_mcp_crunch", json!({}));
    assert_eq!(executed.text.as_ref(), "done after 5 minutes", "no timer here cuts it short");
    assert_eq!(setup.clock.slept(), [300_000], "only the server's own answer was waited for");
}

#[test]
fn elapsed_time_comes_from_the_clock() {
    let mcp = FakeMcp::new().server("slow", vec![spec("crunch", "Slow")]).on(
        "slow",
        "crunch",
        Behaviour::Slow(1_234, ToolResult::text("done")),
    );
    let mut setup = setup(mcp);
    let executed = setup.call("c1", "slow_mcp_crunch", json!({}));
    assert_eq!(executed.text.as_ref(), "done");
    assert_eq!(executed.record.elapsed_ms, 1_234);
    assert!(setup.clock.slept().contains(&60_000), "the timeout was armed");
}

#[test]
fn arguments_must_be_an_object_but_null_and_a_json_string_are_accepted() {
    let mut setup = setup(weather());
    let from_null = setup.call("c1", "my_weather_mcp_get_forecast", Value::Null);
    assert!(!from_null.result.is_error);
    let from_string = setup.call("c2", "my_weather_mcp_get_forecast", json!("{\"city\":\"Nice\"}"));
    assert!(!from_string.result.is_error);
    assert_eq!(setup.mcp.calls()[1].args, json!({ "city": "Nice" }));
    let from_array = setup.call("c3", "my_weather_mcp_get_forecast", json!([1, 2]));
    assert_eq!(error_text(&from_array), "Error: arguments must be a JSON object, not an array");
}

#[test]
fn calls_after_a_discovery_call_in_the_run_are_guided() {
    let mut setup = setup(weather());
    assert!(!setup.call("c1", "my_weather_mcp_get_forecast", json!({})).record.guided);
    assert!(!setup.call("c2", "my_weather_mcp_search_tools", json!({ "query": "alerts" })).record.guided);
    assert!(setup.call("c3", "my_weather_mcp_get_forecast", json!({})).record.guided);
    setup.dispatcher.begin_run();
    assert!(!setup.call("c4", "my_weather_mcp_get_forecast", json!({})).record.guided, "a new run starts unguided");
    setup.call("c5", "autoui_webmcp_search_recipes", json!({ "query": "chart" }));
    assert!(setup.call("c6", "my_weather_mcp_get_forecast", json!({})).record.guided);
}

#[test]
fn the_record_holds_the_full_result_its_size_and_the_target() {
    let mut setup = setup(weather());
    let executed = setup.call("c1", "my_weather_mcp_get_forecast", json!({ "city": "Paris" }));
    let record = executed.record;
    assert_eq!(record.id, CallId::new("c1"));
    assert_eq!(record.name, "my_weather_mcp_get_forecast");
    assert_eq!(*record.args, json!({ "city": "Paris" }));
    assert_eq!(record.result_bytes, 11);
    let target = record.target.expect("routed");
    assert_eq!(
        (target.server.as_str(), target.protocol, target.tool.as_str()),
        ("my_weather", Protocol::Mcp, "get_forecast")
    );
    assert_eq!(record.outcome, CallOutcome::Succeeded { result: executed.text.clone() });
    let copied = serde_json::to_value(&setup.call("c2", "my_weather_mcp_get_alerts", json!({})).record)
        .expect("records serialise for \"copy as JSON\"");
    assert_eq!(copied["outcome"]["status"], "failed");
}
