//! Parallel tool calls: the data reads of one model turn run at the same time (three 4-second
//! reads take 4 seconds, not 12), canvas operations after them run in the order written, and the
//! results go back in the model's order whatever order the reads finish in.

mod common;

use autoui_core::llm::message::ContentBlock;
use autoui_core::tool::ToolResult;
use autoui_core::ports::Clock;
use common::harness::Harness;
use common::mcp::{Behaviour, FakeMcp, spec};
use common::model::{Step, call, text};
use serde_json::json;

fn regions() -> FakeMcp {
    FakeMcp::new()
        .server("Sales", vec![spec("north", "North sales"), spec("south", "South sales"), spec("east", "East sales")])
        .on("sales", "north", Behaviour::Slow(4_000, ToolResult::text("north 10")))
        .on("sales", "south", Behaviour::Slow(1_000, ToolResult::text("south 20")))
        .on("sales", "east", Behaviour::Slow(2_000, ToolResult::text("east 30")))
}

#[test]
fn the_data_reads_of_one_turn_run_together_and_answer_in_the_models_order() {
    let mut harness = Harness::new(
        [
            Step::Reply(vec![
                call("n", "sales_mcp_north", json!({})),
                call("s", "sales_mcp_south", json!({})),
                call("e", "sales_mcp_east", json!({})),
                call("w1", "autoui_webmcp_widget_display", json!({ "name": "stat", "params": { "label": "North", "value": 10 } })),
                call("w2", "autoui_webmcp_widget_display", json!({ "name": "stat", "params": { "label": "South", "value": 20 } })),
            ]),
            Step::Reply(vec![text("Done.")]),
        ],
        regions(),
    );
    let started = harness.clock.now_ms();
    harness.run("sales by region");
    assert_eq!(harness.clock.now_ms() - started, 4_000.0, "the slowest read, not the sum of the three");

    let sent = &harness.model.seen()[1];
    let results: Vec<(String, String)> = sent
        .messages
        .last()
        .expect("results")
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::ToolResult { tool_use_id, .. } => {
                Some((tool_use_id.clone(), sent.result_of(tool_use_id).unwrap_or_default()))
            }
            _ => None,
        })
        .collect();
    let ids: Vec<&str> = results.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["n", "s", "e", "w1", "w2"], "the model's order");
    assert_eq!(results[0].1, "north 10");
    assert_eq!(results[2].1, "east 30");
    let shown: Vec<String> = harness
        .autoui
        .received
        .borrow()
        .iter()
        .filter_map(|(_, args, _)| args["params"]["label"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(shown, ["North", "South"], "canvas operations in the order written");
}
