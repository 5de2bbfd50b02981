//! Context economy: long results are truncated for the model with a recall marker while the buffer
//! keeps them whole; JSON is minified and cut exactly as the server wrote it; results and large call
//! inputs older than the last two iterations are compressed (an input's marker names its widget);
//! recall reads them back.

mod common;

use autoui_core::agent::context::truncate;
use autoui_core::agent::event::AgentEvent;
use autoui_core::agent::frame::framed;
use autoui_core::agent::session::AgentConfig;
use autoui_core::ids::ServerId;
use autoui_core::llm::message::ContentBlock;
use autoui_core::tool::{ResultPart, ToolResult};
use common::harness::Harness;
use common::mcp::{Behaviour, FakeMcp, spec};
use common::model::{Step, call, text};
use serde_json::{Value, json};

/// A plain-text result of `size` characters that is not JSON.
fn log_text(size: usize) -> String {
    let line = "2026-01-05T10:00:00Z GET /api/orders 200 12ms\n";
    line.repeat(size / line.len() + 1).chars().take(size).collect()
}

fn logs_server(result: ToolResult) -> FakeMcp {
    FakeMcp::new().server("logs", vec![spec("tail", "Recent request logs")]).on(
        "logs",
        "tail",
        Behaviour::Reply(result),
    )
}

fn tail(id: &str) -> Step {
    Step::Reply(vec![call(id, "logs_mcp_tail", json!({}))])
}

#[test]
fn a_long_result_is_cut_for_the_model_with_a_recall_marker_and_kept_whole_in_the_buffer() {
    let full = log_text(50_000);
    let mut harness =
        Harness::new([tail("t1"), Step::Reply(vec![text("ok")])], logs_server(ToolResult::text(full.clone())));
    harness.run("show logs");

    let shown = harness.model.seen()[1].result_of("t1").expect("result sent");
    let (kept, marker) = shown.split_once("\n… [truncated").expect("a truncation marker");
    assert_eq!(kept, &full[..10_000]);
    assert!(marker.contains("10000 of 50000 characters"), "{marker}");
    assert!(marker.contains("recall('t1')"), "{marker}");
    assert_eq!(harness.results.get("t1").as_deref(), Some(full.as_str()));

    let record = harness
        .events()
        .into_iter()
        .find_map(|event| match event {
            AgentEvent::ToolCallFinished { record } => Some(record),
            _ => None,
        })
        .expect("recorded");
    assert!(record.truncated);
    assert_eq!(record.result_bytes, 50_000);
}

#[test]
fn the_result_limit_comes_from_settings() {
    let mut harness =
        Harness::new([tail("t1"), Step::Reply(vec![text("ok")])], logs_server(ToolResult::text(log_text(2_000))));
    harness.settings.result_limit = 500;
    harness.run("show logs");
    let shown = harness.model.seen()[1].result_of("t1").expect("result sent");
    assert!(shown.contains("showing 500 of 2000 characters"), "{shown}");
}

#[test]
fn a_result_within_the_limit_is_untouched() {
    let mut harness =
        Harness::new([tail("t1"), Step::Reply(vec![text("ok")])], logs_server(ToolResult::text(log_text(9_999))));
    harness.run("show logs");
    assert_eq!(harness.model.seen()[1].result_of("t1"), Some(log_text(9_999)));
}

#[test]
fn a_json_array_is_cut_at_whole_items_and_stays_valid_json() {
    let rows: Vec<Value> =
        (0..2_000).map(|n| json!({ "id": n, "name": format!("customer {n}"), "city": "Lyon" })).collect();
    let text = Value::Array(rows.clone()).to_string();
    let shown = truncate(&text, 10_000, "t9").expect("too long");
    let (json_part, marker) = shown.split_once("\n… [truncated").expect("marker");
    let kept: Vec<Value> = serde_json::from_str(json_part).expect("valid JSON");
    assert!(!kept.is_empty() && kept.len() < rows.len());
    assert_eq!(kept[..], rows[..kept.len()]);
    assert!(json_part.chars().count() <= 10_000);
    assert!(marker.contains(&format!("showing {} of 2000 items", kept.len())), "{marker}");
    assert!(marker.contains("recall('t9')"));
}

#[test]
fn an_objects_largest_array_is_cut_and_its_other_fields_survive() {
    let rows: Vec<Value> = (0..1_000).map(|n| json!({ "month": n, "revenue": n * 1_000 })).collect();
    let text = json!({ "total": 1_000, "unit": "EUR", "rows": rows }).to_string();
    let shown = truncate(&text, 5_000, "t2").expect("too long");
    let (json_part, _) = shown.split_once("\n… [truncated").expect("marker");
    let kept: Value = serde_json::from_str(json_part).expect("valid JSON");
    assert_eq!(kept["total"], 1_000);
    assert_eq!(kept["unit"], "EUR");
    let kept_rows = kept["rows"].as_array().expect("rows");
    assert_eq!(kept_rows[..], rows[..kept_rows.len()]);
}

#[test]
fn truncation_counts_characters_not_bytes() {
    let text = "é".repeat(30);
    let shown = truncate(&text, 10, "t").expect("too long");
    assert!(shown.starts_with(&"é".repeat(10)));
    assert!(shown.contains("showing 10 of 30 characters"));
}

/// Four iterations, each reading a 5,000-character result, then a final answer.
fn four_reads() -> Vec<Step> {
    let mut steps: Vec<Step> = (1..=4).map(|n| tail(&format!("t{n}"))).collect();
    steps.push(Step::Reply(vec![text("done")]));
    steps
}

#[test]
fn results_older_than_the_last_two_iterations_are_compressed_to_a_preview_with_a_recall_marker() {
    let full = log_text(5_000);
    let mut harness = Harness::new(four_reads(), logs_server(ToolResult::text(full.clone())));
    harness.run("read the logs four times");

    let last = &harness.model.seen()[4];
    for old in ["t1", "t2"] {
        let shown = last.result_of(old).expect("still answered");
        let (preview, marker) = shown.split_once("… [compressed: ").expect("compressed");
        assert_eq!(preview, &full[..200]);
        assert_eq!(marker, format!("5000 characters; recall('{old}') returns the full result]"));
    }
    for recent in ["t3", "t4"] {
        assert_eq!(last.result_of(recent), Some(full.clone()), "{recent} is kept whole");
    }
    // After two iterations both results are whole; after the third, the first is compressed, once.
    let seen = harness.model.seen();
    assert_eq!(seen[2].result_of("t1"), Some(full.clone()));
    assert!(seen[3].result_of("t1").expect("sent").contains("[compressed"));
    assert_eq!(seen[3].result_of("t2"), Some(full));
    assert_eq!(last.result_of("t1"), seen[3].result_of("t1"));
}

#[test]
fn compression_can_be_turned_off() {
    let full = log_text(5_000);
    let config = AgentConfig { compress_history: false, ..AgentConfig::default() };
    let mut harness = Harness::build(four_reads(), logs_server(ToolResult::text(full.clone())), config, Vec::new());
    harness.run("read the logs four times");
    assert_eq!(harness.model.seen()[4].result_of("t1"), Some(full));
}

#[test]
fn short_results_are_not_compressed() {
    let mut harness = Harness::new(four_reads(), logs_server(ToolResult::text("12 requests".to_owned())));
    harness.run("read the logs four times");
    assert_eq!(harness.model.seen()[4].result_of("t1").as_deref(), Some("12 requests"));
}

#[test]
fn compressed_results_drop_their_images() {
    let result = ToolResult {
        content: vec![
            ResultPart::Text { text: "a chart".to_owned() },
            ResultPart::Image { media_type: "image/png".to_owned(), data: "iVBORw0KGgo".repeat(1_000) },
        ],
        is_error: false,
        structured: None,
    };
    let mut harness = Harness::new(four_reads(), logs_server(result));
    harness.run("read the logs four times");
    let last = &harness.model.seen()[4];
    let images_of = |id: &str| {
        last.messages
            .iter()
            .flat_map(|message| &message.content)
            .filter_map(|block| match block {
                ContentBlock::ToolResult { tool_use_id, content, .. } if tool_use_id == id => {
                    Some(content.iter().filter(|part| matches!(part, ResultPart::Image { .. })).count())
                }
                _ => None,
            })
            .sum::<usize>()
    };
    assert_eq!(images_of("t1"), 0);
    assert_eq!(images_of("t4"), 1);
    assert!(last.result_of("t1").expect("sent").contains("images omitted"));
}

#[test]
fn recall_returns_the_full_untruncated_result_and_slices_of_it_without_cutting_them_again() {
    let full = log_text(50_000);
    let mut harness = Harness::new(
        [
            tail("t1"),
            Step::Reply(vec![call(
                "r1",
                "autoui_webmcp_recall",
                json!({ "id": "t1", "offset": 10_000, "length": 5_000 }),
            )]),
            Step::Reply(vec![call("r2", "autoui_webmcp_recall", json!({ "id": "t1" }))]),
            Step::Reply(vec![text("read it all")]),
        ],
        logs_server(ToolResult::text(full.clone())),
    );
    harness.run("read everything");
    let seen = harness.model.seen();
    // What recall reads of a remote result is under its server's frame line.
    let recallable = framed(&ServerId::sanitize("logs"), &full);
    assert_eq!(seen[2].result_of("r1").as_deref(), Some(&recallable[10_000..15_000]));
    // recall pages results itself, so its answer is not truncated again.
    assert_eq!(seen[3].result_of("r2"), Some(recallable));
}

#[test]
fn results_stay_recallable_in_later_turns_of_the_conversation() {
    let full = log_text(20_000);
    let mut harness = Harness::new(
        [
            tail("t1"),
            Step::Reply(vec![text("first turn done")]),
            Step::Reply(vec![call("r1", "autoui_webmcp_recall", json!({ "id": "t1", "offset": 15_000 }))]),
            Step::Reply(vec![text("second turn done")]),
        ],
        logs_server(ToolResult::text(full.clone())),
    );
    harness.run("read the logs");
    harness.run("what was at the end?");
    let recallable = framed(&ServerId::sanitize("logs"), &full);
    assert_eq!(harness.model.seen()[3].result_of("r1").as_deref(), Some(&recallable[15_000..]));
}

#[test]
fn a_pretty_printed_json_result_is_sent_minified_and_whole_when_that_fits() {
    let rows: Vec<Value> =
        (0..60).map(|n| json!({ "id": n, "name": format!("customer {n}"), "city": "Lyon" })).collect();
    let pretty = serde_json::to_string_pretty(&rows).expect("JSON");
    let mut harness =
        Harness::new([tail("t1"), Step::Reply(vec![text("ok")])], logs_server(ToolResult::text(pretty.clone())));
    // Too long as the server wrote it, short enough minified.
    harness.settings.result_limit = pretty.chars().count() - 1;
    harness.run("show logs");

    let shown = harness.model.seen()[1].result_of("t1").expect("sent");
    assert!(!shown.contains('\n') && !shown.contains("[truncated"), "{shown}");
    assert_eq!(serde_json::from_str::<Value>(&shown).expect("JSON"), Value::Array(rows));
    assert_eq!(harness.results.get("t1").as_deref(), Some(pretty.as_str()), "recall returns what the server sent");
    let truncated = harness.events().into_iter().find_map(|event| match event {
        AgentEvent::ToolCallFinished { record } => Some(record.truncated),
        _ => None,
    });
    assert_eq!(truncated, Some(false));
}

#[test]
fn json_is_cut_exactly_as_the_server_wrote_it_keeping_key_order_and_number_spelling() {
    let row = r#"{"zone":"Nord","id":123456789012345678901234,"ratio":1.50,"note":"a, \"quoted\" ] word"}"#;
    let text = format!("[{}]", vec![row; 400].join(","));
    let shown = truncate(&text, 2_000, "t3").expect("too long");
    let (json_part, marker) = shown.split_once("\n… [truncated").expect("marker");
    assert!(json_part.starts_with(&format!("[{row},{row},")), "{json_part}");
    assert!(json_part.ends_with(&format!("{row}]")));
    let kept = json_part.matches("\"zone\"").count();
    assert!(marker.contains(&format!("showing {kept} of 400 items")), "{marker}");
}

/// Shows a 100-row table, then three small iterations, then recalls the table's input.
fn table_then_three_reads() -> Vec<Step> {
    let rows: Vec<Value> = (0..100).map(|n| json!({ "order": n, "customer": format!("Customer {n}") })).collect();
    let mut steps = vec![Step::Reply(vec![call(
        "show1",
        "autoui_webmcp_widget_display",
        json!({ "name": "data-table", "params": { "columns": ["order", "customer"], "rows": rows } }),
    )])];
    steps.extend((2..=4).map(|n| tail(&format!("t{n}"))));
    steps.push(Step::Reply(vec![call("r1", "autoui_webmcp_recall", json!({ "id": "show1:input" }))]));
    steps.push(Step::Reply(vec![text("done")]));
    steps
}

fn input_of(request: &common::model::SeenRequest, id: &str) -> Option<Value> {
    request.messages.iter().flat_map(|message| &message.content).find_map(|block| match block {
        ContentBlock::ToolUse { id: call, input, .. } if call == id => Some(input.clone()),
        _ => None,
    })
}

#[test]
fn an_old_large_call_input_is_replaced_by_a_marker_naming_its_widget_and_recall_returns_it() {
    let mut harness = Harness::new(table_then_three_reads(), logs_server(ToolResult::text("12 requests".to_owned())));
    harness.run("show the orders");
    let seen = harness.model.seen();
    let original = input_of(&seen[1], "show1").expect("sent");
    assert_eq!(original["params"]["rows"].as_array().map(Vec::len), Some(100), "whole while recent");

    let old = input_of(&seen[4], "show1").expect("still sent");
    assert_eq!(old["name"], "data-table", "small fields stay");
    let marker = old["params"].as_str().expect("params replaced by a marker");
    assert!(marker.starts_with("[compressed: "), "{marker}");
    assert!(marker.contains("widget w_1 holds this data"), "{marker}");
    assert!(marker.contains("recall('show1:input') returns the full input"), "{marker}");
    assert!(old.to_string().len() < 400);

    let recalled = seen[5].result_of("r1").expect("recalled");
    assert_eq!(serde_json::from_str::<Value>(&recalled).expect("JSON"), original);
    assert_eq!(harness.autoui.canvas.widgets()[0].1["rows"].as_array().map(Vec::len), Some(100));
    assert_eq!(input_of(&seen[4], "t2"), Some(json!({})), "small inputs are never rewritten");
}

#[test]
fn a_failed_display_keeps_no_widget_in_its_compressed_input() {
    let rows: Vec<Value> = (0..100).map(|n| json!({ "order": n })).collect();
    let mut steps = vec![Step::Reply(vec![call(
        "bad",
        "autoui_webmcp_widget_display",
        json!({ "name": "data-table", "params": { "columns": rows } }),
    )])];
    steps.extend((2..=4).map(|n| tail(&format!("t{n}"))));
    steps.push(Step::Reply(vec![text("done")]));
    let mut harness = Harness::new(steps, logs_server(ToolResult::text("12 requests".to_owned())));
    harness.run("show the orders");
    let old = input_of(&harness.model.seen()[4], "bad").expect("sent");
    let marker = old["params"].as_str().expect("compressed");
    assert!(!marker.contains("widget"), "{marker}");
    assert!(marker.contains("recall('bad:input')"), "{marker}");
}
