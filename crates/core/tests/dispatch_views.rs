//! MCP Apps in dispatch: a tool that comes with a view is called as usual, its result goes to the
//! model with the new `mcp-app` widget's id, and the view (server, tool, `ui://` URI, input and
//! result) is placed on the canvas; app-only tools are neither offered nor callable by the model.

mod common;

use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::dispatch::{Dispatcher, Executed};
use autoui_core::ids::CallId;
use autoui_core::mcp::apps::tool_ui::ToolUi;
use autoui_core::tool::{LocalServer, ToolResult, ToolSpec};
use autoui_core::widget_kind::WidgetKind;
use common::autoui::FakeAutoui;
use common::clock::FakeClock;
use common::mcp::{Behaviour, FakeMcp, spec};
use futures::executor::block_on;
use serde_json::{Value, json};
use std::future::Future;

const VIEW: &str = "ui://get-time/mcp-app.html";

fn with_ui(mut tool: ToolSpec, resource_uri: Option<&str>, model: bool) -> ToolSpec {
    tool.ui = Some(ToolUi { resource_uri: resource_uri.map(str::to_owned), model, app: true });
    tool
}

struct Setup {
    dispatcher: Dispatcher,
    mcp: Rc<FakeMcp>,
    autoui: Rc<FakeAutoui>,
}

fn setup(time: Behaviour) -> Setup {
    let mcp = FakeMcp::new()
        .server(
            "Clock",
            vec![
                with_ui(spec("get-time", "The current time"), Some(VIEW), true),
                with_ui(spec("poll-stats", "For the view only"), None, false),
            ],
        )
        .on("clock", "get-time", time);
    let clock = FakeClock::new();
    let mcp = Rc::new(mcp.with_clock(Rc::new(clock.clone())));
    let autoui = Rc::new(FakeAutoui::new(Rc::new(autoui_core::agent::buffer::ResultBuffer::new())));
    let local: Vec<Rc<dyn LocalServer>> = vec![autoui.clone()];
    Setup { dispatcher: Dispatcher::new(local, mcp.clone(), Rc::new(clock), 60_000), mcp, autoui }
}

impl Setup {
    fn call(&mut self, name: &str, args: Value) -> Executed {
        let catalog = self.dispatcher.catalog();
        let prepared = self.dispatcher.prepare(&catalog, CallId::new("c1"), name, args);
        block_on(self.dispatcher.execute(&catalog, prepared, &CancelToken::new()))
    }
}

#[test]
fn calling_a_tool_with_a_view_places_the_view_and_tells_the_model_its_id() {
    let time = ToolResult { structured: Some(json!({"time": "05:20"})), ..ToolResult::text("2026-12-02T05:20:00Z") };
    let mut setup = setup(Behaviour::Reply(time));
    let executed = setup.call("clock_mcp_get-time", json!({"zone": "UTC"}));
    assert!(!executed.result.is_error, "{}", executed.text);
    assert!(executed.text.contains("2026-12-02T05:20:00Z"), "the data reaches the model: {}", executed.text);
    assert!(executed.text.contains("interactive view is shown on the canvas") && executed.text.contains("\"id\":\"w_1\""), "{}", executed.text);
    let widgets = setup.autoui.canvas.widgets();
    assert_eq!(widgets.len(), 1);
    let (kind, data) = &widgets[0];
    assert_eq!(*kind, WidgetKind::McpApp);
    assert_eq!(data["server"], "clock");
    assert_eq!(data["tool"], "get-time");
    assert_eq!(data["uri"], VIEW);
    assert_eq!(data["input"], json!({"zone": "UTC"}));
    assert_eq!(data["call_id"], "c1");
    assert_eq!(data["result"]["content"][0], json!({"type": "text", "text": "2026-12-02T05:20:00Z"}));
    assert_eq!(data["result"]["structuredContent"], json!({"time": "05:20"}));
    assert_eq!(setup.mcp.calls().len(), 1);
}

#[test]
fn a_failed_call_gives_its_view_the_error_result() {
    let mut setup = setup(Behaviour::Reply(ToolResult::error("clock broken")));
    let executed = setup.call("clock_mcp_get-time", json!({}));
    assert!(executed.result.is_error);
    let widgets = setup.autoui.canvas.widgets();
    assert_eq!(widgets.len(), 1, "the view was placed when the call started");
    assert_eq!(widgets[0].1["result"]["isError"], true);
    assert_eq!(widgets[0].1["result"]["content"][0]["text"], "clock broken");
}

#[test]
fn the_view_is_placed_with_its_input_while_the_call_runs_then_gets_the_result() {
    let Setup { mut dispatcher, autoui, .. } = setup(Behaviour::Slow(5_000, ToolResult::text("late")));
    let catalog = dispatcher.catalog();
    let prepared = dispatcher.prepare(&catalog, CallId::new("c1"), "clock_mcp_get-time", json!({"zone": "UTC"}));
    let cancel = CancelToken::new();
    let mut running = Box::pin(dispatcher.execute(&catalog, prepared, &cancel));
    let waker = futures::task::noop_waker();
    assert!(running.as_mut().poll(&mut std::task::Context::from_waker(&waker)).is_pending(), "the tool is still running");
    let widgets = autoui.canvas.widgets();
    assert_eq!(widgets.len(), 1, "the view is there before the result");
    assert_eq!(widgets[0].1["input"], json!({"zone": "UTC"}));
    assert!(widgets[0].1.get("result").is_none(), "{}", widgets[0].1);
    drop(running);
}

#[test]
fn a_stopped_call_tells_its_view_why_it_has_no_result() {
    let Setup { mut dispatcher, autoui, .. } = setup(Behaviour::Hang);
    let catalog = dispatcher.catalog();
    let prepared = dispatcher.prepare(&catalog, CallId::new("c1"), "clock_mcp_get-time", json!({}));
    let cancel = CancelToken::new();
    let stop = cancel.clone();
    let executed = block_on(async {
        let running = dispatcher.execute(&catalog, prepared, &cancel);
        let stopping = async move { stop.cancel() };
        futures::join!(running, stopping).0
    });
    assert!(executed.result.is_error, "{}", executed.text);
    let widgets = autoui.canvas.widgets();
    assert_eq!(widgets.len(), 1);
    assert_eq!(widgets[0].1["cancelled"], "cancelled by the user", "{}", widgets[0].1);
    assert!(widgets[0].1.get("result").is_none());
    assert!(executed.text.contains("interactive view is shown on the canvas"), "{}", executed.text);
}

#[test]
fn app_only_tools_are_neither_offered_nor_callable_by_the_model() {
    let mut setup = setup(Behaviour::Reply(ToolResult::text("now")));
    let catalog = setup.dispatcher.catalog();
    let names: Vec<String> = catalog.servers().iter().flat_map(|s| s.tools.iter().map(|t| t.exposed.clone())).collect();
    assert!(names.iter().any(|name| name == "clock_mcp_get-time"), "{names:?}");
    assert!(!names.iter().any(|name| name.contains("poll")), "{names:?}");
    let executed = setup.call("clock_mcp_poll-stats", json!({}));
    assert!(executed.result.is_error, "{}", executed.text);
    assert!(setup.mcp.calls().is_empty(), "the call never reaches the server");
}

#[test]
fn the_model_shows_an_earlier_calls_view_again_by_the_calls_id() {
    let mut setup = setup(Behaviour::Reply(ToolResult::text("2026-12-02T05:20:00Z")));
    setup.call("clock_mcp_get-time", json!({"zone": "UTC"}));
    let again = setup.call(
        "autoui_webmcp_widget_display",
        json!({"name": "mcp-app", "params": {"call_id": "c1", "title": "Clock again"}}),
    );
    assert!(!again.result.is_error, "{}", again.text);
    let widgets = setup.autoui.canvas.widgets();
    assert_eq!(widgets.len(), 2, "a second view of the same call");
    let (kind, data) = &widgets[1];
    assert_eq!(*kind, WidgetKind::McpApp);
    assert_eq!((data["uri"].as_str(), data["title"].as_str()), (Some(VIEW), Some("Clock again")));
    assert_eq!(data["input"], json!({"zone": "UTC"}));
    assert_eq!(data["result"]["content"][0]["text"], "2026-12-02T05:20:00Z");
    assert_eq!(setup.mcp.calls().len(), 1, "the server is not called again");

    let unknown = setup.call("autoui_webmcp_widget_display", json!({"name": "mcp-app", "params": {"call_id": "nope"}}));
    assert!(unknown.result.is_error);
    assert!(unknown.text.contains("no call \"nope\"") && unknown.text.contains("calls with views: c1"), "{}", unknown.text);
}

#[test]
fn the_earlier_calls_views_survive_a_reload_with_the_conversation_and_go_with_a_reset() {
    let mut before = setup(Behaviour::Reply(ToolResult::text("2026-12-02T05:20:00Z")));
    before.call("clock_mcp_get-time", json!({"zone": "UTC"}));
    let stored = before.dispatcher.views();
    // A reload: a new dispatcher continues the stored conversation.
    let mut after = setup(Behaviour::Reply(ToolResult::text("never called")));
    after.dispatcher.restore_views(stored);
    let again = after.call("autoui_webmcp_widget_display", json!({"name": "mcp-app", "params": {"call_id": "c1"}}));
    assert!(!again.result.is_error, "{}", again.text);
    let widgets = after.autoui.canvas.widgets();
    assert_eq!(widgets[0].1["result"]["content"][0]["text"], "2026-12-02T05:20:00Z");
    assert!(after.mcp.calls().is_empty());
    after.dispatcher.reset();
    let forgotten = after.call("autoui_webmcp_widget_display", json!({"name": "mcp-app", "params": {"call_id": "c1"}}));
    assert!(forgotten.result.is_error && forgotten.text.contains("calls with views: none"), "{}", forgotten.text);
}
