//! The request budget: a request that would be larger than the budget is compressed further, least
//! useful first (the second most recent results, then the newest data results cut harder, never below
//! a floor), and only then; errors and recall answers are never cut; a raised result limit raises the
//! budget; the tool_use/tool_result pairing stays valid for both providers; recall gets everything back.

mod common;

use autoui_core::agent::budget::MIN_SHOWN_CHARS;
use autoui_core::agent::frame::{framed, is_frame_line};
use autoui_core::agent::session::AgentConfig;
use autoui_core::ids::ServerId;
use autoui_core::llm::message::{ContentBlock, Role};
use autoui_core::llm::model::ChatRequest;
use autoui_core::llm::profile::UNKNOWN_MODEL;
use autoui_core::llm::{anthropic, openai};
use autoui_core::tool::{ResultPart, ToolResult};
use common::harness::Harness;
use common::mcp::{Behaviour, FakeMcp, spec};
use common::model::{SeenRequest, Step, call, text};
use serde_json::{Value, json};

/// About 50 KB of order rows, as a JSON array.
fn page(number: u64) -> String {
    let rows: Vec<Value> = (0..560)
        .map(|row| {
            let region = ["North", "South", "East", "West"][row % 4];
            json!({ "order": format!("{number}-{row}"), "customer": format!("Customer {}", row * 7 % 311),
                    "region": region, "amount": row * 37 % 1_000, "status": "shipped" })
        })
        .collect();
    Value::Array(rows).to_string()
}

fn orders() -> FakeMcp {
    FakeMcp::new().server("orders", vec![spec("fetch_page", "One page of orders")]).on_args(
        "orders",
        "fetch_page",
        |args| Behaviour::Reply(ToolResult::text(page(args.get("page").and_then(Value::as_u64).unwrap_or(0)))),
    )
}

fn read(n: u64) -> ContentBlock {
    call(&format!("read{n}"), "orders_mcp_fetch_page", json!({ "page": n }))
}

/// `count` iterations that each read a page, then a final answer.
fn reads(count: u64) -> Vec<Step> {
    let mut steps: Vec<Step> = (1..=count).map(|n| Step::Reply(vec![read(n)])).collect();
    steps.push(Step::Reply(vec![text("done")]));
    steps
}

fn harness(steps: Vec<Step>, budget: Option<usize>, result_limit: usize) -> Harness {
    let config = AgentConfig { request_budget: budget, ..AgentConfig::default() };
    let mut harness = Harness::build(steps, orders(), config, Vec::new());
    harness.settings.result_limit = result_limit;
    harness
}

fn bytes(request: &SeenRequest) -> usize {
    request.anthropic_body.len()
}

#[test]
fn a_request_over_budget_compresses_the_second_most_recent_results_and_keeps_the_newest_at_its_limit() {
    let mut unbounded = harness(reads(2), None, 10_000);
    unbounded.run("read two pages");
    let third = &unbounded.model.seen()[2];
    assert!(bytes(third) > 25_000, "two results at the limit do not fit: {}", bytes(third));
    assert!(!third.result_of("read1").expect("sent").contains("[compressed"));

    let mut budgeted = harness(reads(2), Some(25_000), 10_000);
    budgeted.run("read two pages");
    let third = &budgeted.model.seen()[2];
    assert!(bytes(third) <= 25_000, "{}", bytes(third));
    let older = third.result_of("read1").expect("sent");
    assert!(older.contains("… [compressed: ") && older.contains("recall('read1') returns the full result"), "{older}");
    let newest = third.result_of("read2").expect("sent");
    assert!(newest.contains("… [truncated: showing ") && newest.contains(" items (9"), "cut at its limit: {newest}");
}

#[test]
fn the_newest_data_result_is_cut_harder_when_the_rest_leaves_no_room_and_recall_still_returns_it_whole() {
    let mut harness = harness(vec![Step::Reply(vec![read(1)]), Step::Reply(vec![text("done")])], Some(6_000), 2_000);
    harness.run("read a page");
    let second = &harness.model.seen()[1];
    assert!(bytes(second) <= 6_000, "{}", bytes(second));
    let shown = second.result_of("read1").expect("sent");
    let (json_part, marker) = shown.split_once("\n… [truncated: showing ").expect("a truncation marker");
    let kept: Vec<Value> = serde_json::from_str(json_part).expect("still valid JSON");
    assert!(json_part.chars().count() < 2_000 && json_part.chars().count() > MIN_SHOWN_CHARS / 2, "{json_part}");
    assert!(marker.starts_with(&format!("{} of 560 items", kept.len())), "{marker}");
    assert!(marker.contains("recall('read1') returns it"), "{marker}");
    assert_eq!(harness.results.get("read1").as_deref(), Some(page(1).as_str()));
    let first = second.messages.iter().flat_map(|message| &message.content).find_map(|block| match block {
        ContentBlock::ToolResult { tool_use_id, content, .. } if tool_use_id == "read1" => content.first(),
        _ => None,
    });
    assert!(
        matches!(first, Some(ResultPart::Text { text }) if is_frame_line(text) && text.contains("\"orders\"")),
        "cut harder, still named as the server's data: {first:?}"
    );
}

#[test]
fn the_budget_never_cuts_a_result_below_its_floor_even_when_it_cannot_be_met() {
    let mut harness = harness(vec![Step::Reply(vec![read(1)]), Step::Reply(vec![text("done")])], Some(1_000), 1_500);
    harness.run("read a page");
    let shown = harness.model.seen()[1].result_of("read1").expect("sent");
    let (json_part, _) = shown.split_once("\n… [truncated").expect("marker");
    let chars = json_part.chars().count();
    assert!(chars <= MIN_SHOWN_CHARS && chars > MIN_SHOWN_CHARS - 120, "{chars} characters shown");
}

#[test]
fn errors_and_recall_answers_in_the_newest_turn_are_never_cut_by_the_budget() {
    let failure = format!("Error: upstream says {}", "no such page; ".repeat(100));
    let mcp = orders().server("broken", vec![spec("load", "Load")]).on(
        "broken",
        "load",
        Behaviour::Fail(failure.trim_start_matches("Error: ").to_owned()),
    );
    let config = AgentConfig { request_budget: Some(1_000), ..AgentConfig::default() };
    let steps = vec![
        Step::Reply(vec![read(1)]),
        Step::Reply(vec![
            call("r1", "autoui_webmcp_recall", json!({ "id": "read1", "length": 5_000 })),
            call("b1", "broken_mcp_load", json!({})),
        ]),
        Step::Reply(vec![text("done")]),
    ];
    let mut harness = Harness::build(steps, mcp, config, Vec::new());
    harness.settings.result_limit = 1_500;
    harness.run("read and recall");
    let last = &harness.model.seen()[2];
    let recallable = framed(&ServerId::sanitize("orders"), &page(1));
    assert_eq!(last.result_of("r1").as_deref(), Some(&recallable[..5_000]), "the recall answer is whole");
    assert_eq!(last.result_of("b1").map(|error| error.chars().count()), Some(failure.chars().count()));
}

#[test]
fn a_user_who_raises_the_result_limit_gets_results_that_long_despite_the_budget() {
    let mut harness = harness(vec![Step::Reply(vec![read(1)]), Step::Reply(vec![text("done")])], Some(25_000), 30_000);
    harness.run("read a page");
    let shown = harness.model.seen()[1].result_of("read1").expect("sent");
    let (json_part, _) = shown.split_once("\n… [truncated").expect("marker");
    assert!(json_part.chars().count() > 29_000, "{} characters shown", json_part.chars().count());
}

/// The request budget and result limit of an 8,192-token window (2,048 output tokens), as derived.
fn small_window() -> (usize, usize) {
    let limits = UNKNOWN_MODEL.derived();
    assert_eq!((limits.request_budget, limits.result_limit), (12_288, 2_457));
    (limits.request_budget, limits.result_limit)
}

/// Checks both wire formats of `request`: every tool_use answered by a tool_result in the next message.
fn assert_pairs_valid(request: &SeenRequest) {
    let chat = ChatRequest { system: &request.system, messages: &request.messages, tools: &[], max_output_tokens: 1_000 };
    let body: Value = serde_json::from_str(&anthropic::request_body(&chat, "claude-sonnet-4-5")).expect("JSON");
    assert_eq!(body["messages"][0]["role"], "user", "the conversation opens with the person");
    for (uses, results) in anthropic_pairs(&body) {
        assert_eq!(uses, results, "each tool_use is answered in the next message");
    }
    let answered: Vec<String> = request
        .messages
        .iter()
        .flat_map(|message| &message.content)
        .filter_map(|block| match block {
            ContentBlock::ToolResult { tool_use_id, .. } => Some(tool_use_id.clone()),
            _ => None,
        })
        .collect();
    let body: Value = serde_json::from_str(&openai::request_body(&chat, "gpt-4o")).expect("JSON");
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let mut calls = 0;
    for (position, message) in messages.iter().enumerate() {
        let Some(tool_calls) = message["tool_calls"].as_array() else { continue };
        for (offset, tool_call) in tool_calls.iter().enumerate() {
            calls += 1;
            let answer = &messages[position + 1 + offset];
            assert_eq!((answer["role"].as_str(), &answer["tool_call_id"]), (Some("tool"), &tool_call["id"]));
        }
    }
    assert_eq!(calls, answered.len(), "no tool result without its call");
}

#[test]
fn an_8k_window_run_of_thirteen_iterations_with_50_kb_results_stays_within_budget_at_every_request() {
    let (budget, result_limit) = small_window();
    // Two pages per iteration, thirteen iterations, then page 1 is recalled, then the answer.
    let mut steps: Vec<Step> = (1..=13).map(|n| Step::Reply(vec![read(2 * n - 1), read(2 * n)])).collect();
    steps.push(Step::Reply(vec![call("again", "autoui_webmcp_recall", json!({ "id": "read1", "length": 1_500 }))]));
    steps.push(Step::Reply(vec![text("done")]));
    let mut harness = harness(steps, Some(budget), result_limit);
    harness.settings.max_iterations = 20;
    let ask = "Read every page of orders";
    harness.run(ask);
    let seen = harness.model.seen();
    assert_eq!(seen.len(), 15, "every step ran");
    for (position, request) in seen.iter().enumerate() {
        assert!(bytes(request) <= budget, "request {} is {} B, over {budget}", position + 1, bytes(request));
        assert_pairs_valid(request);
        let asked = request.messages.iter().flat_map(|message| &message.content).any(|block| {
            matches!(block, ContentBlock::Text { text } if text == ask)
        });
        assert!(asked, "request {} carries the person's message whole", position + 1);
    }

    // Request 14 answers iteration 13: its two results are shown at the result limit.
    let fourteenth = &seen[13];
    for id in ["read25", "read26"] {
        let shown = fourteenth.result_of(id).expect("the newest results are sent");
        assert!(shown.contains("… [truncated: showing ") && !shown.contains("[compressed"), "{id}: {shown}");
    }
    // The oldest steps were left out, and a note says how to get each one back.
    assert!(fourteenth.result_of("read1").is_none(), "page 1's step is left out");
    let note = fourteenth.messages[0]
        .content
        .iter()
        .find_map(|block| match block {
            ContentBlock::Text { text } if text.contains("Left out of this request") => Some(text.clone()),
            _ => None,
        })
        .expect("a note opens the conversation");
    assert!(note.contains(r#"recall('read1'): orders_mcp_fetch_page {"page":1}"#), "{note}");

    // The model follows the note: recall returns page 1 as the server sent it, under its frame line.
    let recalled = seen[14].result_of("again").expect("the recall answer is sent");
    assert!(recalled.starts_with(&framed(&ServerId::sanitize("orders"), &page(1))[..1_500]), "{recalled}");
    assert_eq!(harness.results.get("read1").as_deref(), Some(page(1).as_str()));
    // The session keeps every step: only the requests leave them out.
    let kept = harness.session.messages().iter().flat_map(|message| &message.content);
    assert_eq!(kept.filter(|block| matches!(block, ContentBlock::ToolUse { .. })).count(), 27);
}

#[test]
fn old_previews_go_down_to_their_recall_marker_before_any_step_is_left_out() {
    let (budget, result_limit) = small_window();
    let mut harness = harness(reads(9), Some(budget), result_limit);
    harness.run("read nine pages");
    // By the tenth request the old steps' previews no longer fit.
    let last = &harness.model.seen()[9];
    assert!(bytes(last) <= budget, "{} B", bytes(last));
    let left_out = last.messages.iter().flat_map(|message| &message.content).any(|block| {
        matches!(block, ContentBlock::Text { text } if text.contains("Left out of this request"))
    });
    assert!(!left_out, "every step is still in the request");
    let oldest = last.result_of("read1").expect("page 1's step is sent");
    assert!(
        oldest.starts_with("[compressed: ") && oldest.ends_with("recall('read1') returns the full result]"),
        "only the marker is left: {oldest}"
    );
}

/// Each assistant turn's tool_use ids, and the tool_result ids of the message right after it.
fn anthropic_pairs(body: &Value) -> Vec<(Vec<String>, Vec<String>)> {
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let ids = |message: &Value, kind: &str, key: &str| -> Vec<String> {
        message["content"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|block| block["type"] == kind)
            .filter_map(|block| block[key].as_str().map(str::to_owned))
            .collect()
    };
    messages
        .windows(2)
        .filter(|pair| pair[0]["role"] == "assistant" && !ids(&pair[0], "tool_use", "id").is_empty())
        .map(|pair| (ids(&pair[0], "tool_use", "id"), ids(&pair[1], "tool_result", "tool_use_id")))
        .collect()
}

#[test]
fn a_compressed_conversation_pairs_every_tool_use_with_its_result_for_both_providers() {
    let rows: Vec<Value> = (0..300).map(|n| json!({ "order": n, "customer": format!("Customer {n}") })).collect();
    let mut steps = vec![
        Step::Reply(vec![read(1)]),
        Step::Reply(vec![call(
            "show1",
            "autoui_webmcp_widget_display",
            json!({ "name": "data-table", "params": { "columns": ["order", "customer"], "rows": rows } }),
        )]),
    ];
    steps.extend((2..=4).map(|n| Step::Reply(vec![read(n)])));
    steps.push(Step::Reply(vec![text("done")]));
    let mut harness = harness(steps, Some(25_000), 10_000);
    harness.run("read and show");
    let last = harness.model.seen().pop().expect("requests");
    let request = ChatRequest { system: &last.system, messages: &last.messages, tools: &[], max_output_tokens: 1_000 };

    let body: Value = serde_json::from_str(&anthropic::request_body(&request, "claude-sonnet-4-5")).expect("JSON");
    let pairs = anthropic_pairs(&body);
    assert_eq!(pairs.len(), 5);
    for (uses, results) in pairs {
        assert_eq!(uses, results, "each tool_use is answered in the next message");
    }
    let inputs: Vec<&Value> = body["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|message| message["content"].as_array())
        .flatten()
        .filter(|block| block["type"] == "tool_use")
        .map(|block| &block["input"])
        .collect();
    assert!(inputs.iter().all(|input| input.is_object()), "Anthropic takes object inputs only");

    let body: Value = serde_json::from_str(&openai::request_body(&request, "gpt-4o")).expect("JSON");
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    for (position, message) in messages.iter().enumerate() {
        let Some(calls) = message["tool_calls"].as_array() else { continue };
        for (offset, tool_call) in calls.iter().enumerate() {
            let answer = &messages[position + 1 + offset];
            assert_eq!((answer["role"].as_str(), &answer["tool_call_id"]), (Some("tool"), &tool_call["id"]));
            let arguments = tool_call["function"]["arguments"].as_str().expect("arguments text");
            assert!(serde_json::from_str::<Value>(arguments).is_ok_and(|value| value.is_object()), "{arguments}");
        }
    }
    assert!(last.messages.iter().any(|message| message.role == Role::Assistant));
}

#[test]
fn every_request_of_a_ten_iteration_session_with_50_kb_results_stays_within_25_kb() {
    let mut harness = harness(reads(9), Some(25_000), 10_000);
    harness.run("read nine pages");
    let seen = harness.model.seen();
    assert_eq!(seen.len(), 10);
    for (position, request) in seen.iter().enumerate() {
        assert!(bytes(request) <= 25_000, "request {} is {} B", position + 1, bytes(request));
    }
    let newest = seen[9].result_of("read9").expect("sent");
    assert!(newest.chars().count() > 8_000, "the newest page is still mostly shown: {}", newest.chars().count());
}
