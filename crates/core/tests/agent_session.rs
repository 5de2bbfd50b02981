//! A full session, scripted end to end: discovery -> recipe -> MCP data call -> several widgets ->
//! a canvas update -> final text. The canvas must receive exactly the widgets built from the MCP data.

mod common;

use autoui_core::agent::event::AgentEvent;
use autoui_core::agent::stop::StopReason;
use autoui_core::canvas::op::Op;
use autoui_core::dispatch::record::CallOutcome;
use autoui_core::ids::{CallId, ServerId};
use autoui_core::tool::{DataSource, Origin, ToolResult};
use autoui_core::tool_name::Protocol;
use autoui_core::widget_kind::WidgetKind;
use common::harness::Harness;
use common::mcp::{Behaviour, FakeMcp, spec};
use common::model::{Step, call, text};
use serde_json::{Value, json};

fn sales_result() -> Value {
    json!({
        "quarter": "Q1",
        "revenue": 1_204_000,
        "orders": 3_412,
        "by_month": [
            { "month": "Jan", "revenue": 380_000 },
            { "month": "Feb", "revenue": 402_000 },
            { "month": "Mar", "revenue": 422_000 }
        ]
    })
}

fn sales_server() -> FakeMcp {
    FakeMcp::new()
        .server(
            "Sales Data",
            vec![
                spec("browse_skills", "Browse the dashboards this server knows how to build"),
                spec("get_skill", "Read one skill"),
                spec("query_sales", "Sales figures for a quarter"),
                spec("export_csv", "Export a table as CSV"),
            ],
        )
        .on(
            "sales_data",
            "browse_skills",
            Behaviour::Reply(ToolResult::json(
                json!([{ "name": "quarterly-dashboard", "description": "KPIs and trend" }]),
            )),
        )
        .on(
            "sales_data",
            "get_skill",
            Behaviour::Reply(ToolResult::text(
                "# quarterly-dashboard\n1. call query_sales({quarter})\n2. show revenue and orders as stat-card\n\
                 3. show by_month as chart-rich and data-table",
            )),
        )
        .on("sales_data", "query_sales", Behaviour::Reply(ToolResult::json(sales_result())))
}

/// The model's script. Widget params are computed from the MCP result it received, and the update
/// uses the id that widget_display returned, as a real model would.
fn script() -> Vec<Step> {
    vec![
        Step::Reply(vec![
            text("Looking for a recipe."),
            call("t1", "sales_data_mcp_list_recipes", json!({})),
            call("t2", "autoui_webmcp_search_recipes", json!({ "query": "stat" })),
        ]),
        Step::Reply(vec![call("t3", "sales_data_mcp_get_recipe", json!({ "name": "quarterly-dashboard" }))]),
        Step::Reply(vec![call("t4", "sales_data_mcp_query_sales", json!({ "quarter": "Q1" }))]),
        Step::Compute(Box::new(|request| {
            let data = request.json_result_of("t4").expect("the sales result reached the model");
            let months = data["by_month"].clone();
            vec![
                call(
                    "t5",
                    "autoui_webmcp_widget_display",
                    json!({ "name": "stat-card", "params": { "label": "Revenue", "value": data["revenue"] } }),
                ),
                call(
                    "t6",
                    "autoui_webmcp_widget_display",
                    json!({ "name": "stat-card", "params": { "label": "Orders", "value": data["orders"] } }),
                ),
                call(
                    "t7",
                    "autoui_webmcp_widget_display",
                    json!({ "name": "chart-rich", "params": { "type": "line", "data": months } }),
                ),
                call(
                    "t8",
                    "autoui_webmcp_widget_display",
                    json!({ "name": "data-table", "params": { "columns": ["month", "revenue"], "rows": months } }),
                ),
            ]
        })),
        Step::Compute(Box::new(|request| {
            let shown = request.json_result_of("t5").expect("widget_display answered");
            let id = shown["id"].as_str().expect("widget_display returned an id").to_owned();
            vec![call(
                "t9",
                "autoui_webmcp_canvas",
                json!({ "action": "update", "id": id, "params": { "data": { "trend": "up" } } }),
            )]
        })),
        Step::Reply(vec![text("Your Q1 dashboard is ready: revenue, orders and the monthly trend.")]),
    ]
}

#[test]
fn a_scripted_session_builds_exactly_the_dashboard_from_the_mcp_data() {
    let mut harness = Harness::new(script(), sales_server());
    let summary = harness.run("Build me a Q1 sales dashboard");

    assert_eq!(summary.reason, StopReason::Completed);
    assert_eq!(summary.iterations, 6);
    assert_eq!(summary.text, "Your Q1 dashboard is ready: revenue, orders and the monthly trend.");
    assert_eq!(harness.model.remaining(), 0);

    let months = sales_result()["by_month"].clone();
    assert_eq!(
        harness.autoui.canvas.widgets(),
        vec![
            (WidgetKind::StatCard, json!({ "label": "Revenue", "value": 1_204_000, "trend": "up" })),
            (WidgetKind::StatCard, json!({ "label": "Orders", "value": 3_412 })),
            (WidgetKind::ChartRich, json!({ "type": "line", "data": months })),
            (WidgetKind::DataTable, json!({ "columns": ["month", "revenue"], "rows": months })),
        ]
    );

    let log = harness.autoui.canvas.log();
    let kinds: Vec<&str> = log
        .iter()
        .map(|(op, _)| match op {
            Op::Add { .. } => "add",
            Op::Update { .. } => "update",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["add", "add", "add", "add", "update"]);
    let source = Some(DataSource { server: ServerId::sanitize("sales_data"), tool: "query_sales".to_owned() });
    for ((_, origin), call_id) in log.iter().zip(["t5", "t6", "t7", "t8", "t9"]) {
        assert_eq!(origin, &Origin::Agent { call_id: CallId::new(call_id), source: source.clone() });
    }
}

#[test]
fn canonical_recipe_names_reach_the_servers_real_tools_and_data_arrives_with_the_models_arguments() {
    let mut harness = Harness::new(script(), sales_server());
    harness.run("Build me a Q1 sales dashboard");
    let calls: Vec<(String, Value)> = harness.mcp.calls().into_iter().map(|call| (call.tool, call.args)).collect();
    assert_eq!(
        calls,
        vec![
            ("browse_skills".to_owned(), json!({})),
            ("get_skill".to_owned(), json!({ "name": "quarterly-dashboard" })),
            ("query_sales".to_owned(), json!({ "quarter": "Q1" })),
        ]
    );
}

#[test]
fn the_data_server_is_activated_by_its_first_real_call_and_its_tools_are_offered_from_the_next_request() {
    let mut harness = Harness::new(script(), sales_server());
    harness.run("Build me a Q1 sales dashboard");
    let seen = harness.model.seen();

    let first = &seen[0].tools;
    assert!(first.contains(&"sales_data_mcp_list_recipes".to_owned()));
    assert!(first.contains(&"sales_data_mcp_search_tools".to_owned()));
    assert!(first.contains(&"autoui_webmcp_widget_display".to_owned()));
    assert!(!first.iter().any(|name| name == "sales_data_mcp_query_sales"), "{first:?}");

    assert!(seen[1].tools.contains(&"sales_data_mcp_query_sales".to_owned()));
    assert!(seen[1].tools.contains(&"sales_data_mcp_export_csv".to_owned()));
    assert_eq!(seen[1].tools[..first.len()], first[..], "activation only appends to the tool list");

    let activations: Vec<(String, Protocol, Vec<String>)> = harness
        .events()
        .into_iter()
        .filter_map(|event| match event {
            AgentEvent::ServerActivated { server, protocol, tools } => Some((server.to_string(), protocol, tools)),
            _ => None,
        })
        .collect();
    assert_eq!(
        activations,
        vec![
            (
                "sales_data".to_owned(),
                Protocol::Mcp,
                vec!["sales_data_mcp_query_sales".to_owned(), "sales_data_mcp_export_csv".to_owned()]
            ),
            ("autoui".to_owned(), Protocol::WebMcp, vec![]),
        ]
    );
}

#[test]
fn every_call_is_reported_with_its_record_and_calls_after_a_discovery_call_are_guided() {
    let mut harness = Harness::new(script(), sales_server());
    let summary = harness.run("Build me a Q1 sales dashboard");
    let finished: Vec<_> = harness
        .events()
        .into_iter()
        .filter_map(|event| match event {
            AgentEvent::ToolCallFinished { record } => Some(record),
            _ => None,
        })
        .collect();
    assert_eq!(finished, summary.calls);
    let ids: Vec<&str> = finished.iter().map(|record| record.id.as_str()).collect();
    assert_eq!(ids, ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9"]);
    assert!(!finished[0].guided, "nothing was discovered before the first call");
    assert!(finished[1..].iter().all(|record| record.guided));
    assert!(finished.iter().all(|record| matches!(record.outcome, CallOutcome::Succeeded { .. })));
    let query = &finished[3];
    let target = query.target.as_ref().expect("routed");
    assert_eq!(
        (target.server.as_str(), target.protocol, target.tool.as_str()),
        ("sales_data", Protocol::Mcp, "query_sales")
    );
    assert_eq!(query.result_bytes, sales_result().to_string().len());
}
