//! MCP Apps in the agent loop: a view is placed as soon as the model starts writing a call of a
//! tool that has one (so the page can pass the arguments on as they stream in), gets the complete
//! input when the call runs, then the result; a view whose call never ran hears why.

mod common;

use std::sync::Arc;

use autoui_core::canvas::op::Op;
use autoui_core::llm::message::ContentBlock;
use autoui_core::mcp::apps::tool_ui::ToolUi;
use autoui_core::tool::{ToolResult, ToolSpec};
use autoui_core::widget_kind::WidgetKind;
use common::harness::Harness;
use common::mcp::{Behaviour, FakeMcp, spec};
use common::model::{Step, call, text};
use serde_json::{Value, json};

const VIEW: &str = "ui://forecast/view.html";

fn forecast_server(behaviour: Behaviour) -> FakeMcp {
    let mut tool: ToolSpec = spec("forecast", "The weather to come");
    tool.ui = Some(ToolUi { resource_uri: Some(VIEW.to_owned()), model: true, app: true });
    FakeMcp::new().server("Weather", vec![tool]).on("weather", "forecast", behaviour)
}

/// The data of each op on the canvas, in order: `("add" | "update", data)`.
fn canvas_history(harness: &Harness) -> Vec<(&'static str, Value)> {
    harness
        .autoui
        .canvas
        .log()
        .into_iter()
        .filter_map(|(op, _)| match op {
            Op::Add { kind: WidgetKind::McpApp, data, .. } => Some(("add", Arc::unwrap_or_clone(data))),
            Op::Update { data, .. } => Some(("update", Arc::unwrap_or_clone(data))),
            _ => None,
        })
        .collect()
}

#[test]
fn the_view_is_placed_while_the_call_is_written_then_gets_its_input_and_result() {
    let forecast = ToolResult { structured: Some(json!({"high": 21})), ..ToolResult::text("21 degrees") };
    let mut harness = Harness::new(
        [
            Step::Reply(vec![call("t1", "weather_mcp_forecast", json!({"city": "Paris", "days": 3}))]),
            Step::Reply(vec![text("Here it is.")]),
        ],
        forecast_server(Behaviour::Reply(forecast)),
    );
    harness.run("Weather in Paris?");
    let history = canvas_history(&harness);
    let steps: Vec<&str> = history.iter().map(|(step, _)| *step).collect();
    assert_eq!(steps, ["add", "update", "update"], "{history:?}");
    let (_, placed) = &history[0];
    assert_eq!((placed["server"].as_str(), placed["uri"].as_str(), placed["call_id"].as_str()), (Some("weather"), Some(VIEW), Some("t1")));
    assert!(placed.get("input").is_none(), "placed before the arguments were complete: {placed}");
    assert_eq!(history[1].1["input"], json!({"city": "Paris", "days": 3}));
    assert!(history[1].1.get("result").is_none(), "the input comes before the result");
    assert_eq!(history[2].1["result"]["structuredContent"], json!({"high": 21}));
    let widgets = harness.autoui.canvas.widgets();
    assert_eq!(widgets.len(), 1, "one view, not a second one when the call ran");
    let seen = harness.model.seen();
    let result = seen[1].result_of("t1").unwrap();
    assert!(result.contains("21 degrees") && result.contains("interactive view is shown on the canvas"), "{result}");
}

#[test]
fn a_view_whose_call_never_ran_hears_why() {
    let mut harness = Harness::new(
        [
            // Arguments that do not parse: the call is answered with an error and never runs.
            Step::Compute(Box::new(|_| {
                vec![ContentBlock::ToolUse { id: "t1".into(), name: "weather_mcp_forecast".into(), input: json!("not an object") }]
            })),
            Step::Reply(vec![text("Sorry.")]),
        ],
        forecast_server(Behaviour::Reply(ToolResult::text("never"))),
    );
    harness.run("Weather?");
    let widgets = harness.autoui.canvas.widgets();
    assert_eq!(widgets.len(), 1);
    let cancelled = widgets[0].1["cancelled"].as_str().unwrap_or_default();
    assert!(cancelled.contains("arguments must be a JSON object"), "{}", widgets[0].1);
    assert!(harness.mcp.calls().is_empty());
}
