//! Request size per iteration of a scripted 10-iteration session whose MCP results are 50 KB each:
//! with compression of old results, without it (truncation on in both), and with neither. Run with
//! `cargo bench -p autoui-core --bench context`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

use autoui_core::agent::session::AgentConfig;
use autoui_core::tool::ToolResult;
use common::harness::Harness;
use common::mcp::{Behaviour, FakeMcp, spec};
use common::model::{Step, call, text};
use serde_json::{Value, json};

const ITERATIONS: usize = 10;
const RESULT_BYTES: usize = 50_000;

/// A page of order rows, about `RESULT_BYTES` of JSON.
fn page(number: usize) -> Value {
    let mut rows = Vec::new();
    let mut size = 2;
    while size < RESULT_BYTES {
        let region = ["North", "South", "East", "West"][rows.len() % 4];
        let row = json!({
            "order": format!("{number}-{}", rows.len()),
            "customer": format!("Customer {}", rows.len() * 7 % 311),
            "region": region,
            "amount": (rows.len() * 37 % 1_000) as f64 + 0.5,
            "status": "shipped"
        });
        size += row.to_string().len() + 1;
        rows.push(row);
    }
    Value::Array(rows)
}

/// Nine iterations that each read a page and show a widget, then a final answer.
fn script() -> Vec<Step> {
    let mut steps: Vec<Step> = (1..ITERATIONS)
        .map(|n| {
            Step::Reply(vec![
                call(&format!("read{n}"), "orders_mcp_fetch_page", json!({ "page": n })),
                call(
                    &format!("show{n}"),
                    "autoui_webmcp_widget_display",
                    json!({ "name": "stat-card", "params": { "label": format!("Page {n}"), "value": n * 100 } }),
                ),
            ])
        })
        .collect();
    steps.push(Step::Reply(vec![text("All pages are on the canvas.")]));
    steps
}

fn session(compress: bool, truncate: bool) -> (Vec<usize>, f64) {
    let mcp = FakeMcp::new().server("orders", vec![spec("fetch_page", "One page of orders")]).on_args(
        "orders",
        "fetch_page",
        |args| {
            let number = args.get("page").and_then(Value::as_u64).unwrap_or(0) as usize;
            Behaviour::Reply(ToolResult::text(page(number).to_string()))
        },
    );
    let config = AgentConfig { compress_history: compress, ..AgentConfig::default() };
    let mut harness = Harness::build(script(), mcp, config, Vec::new());
    if !truncate {
        harness.settings.result_limit = usize::MAX;
    }
    let started = Instant::now();
    harness.run("Show me every page of orders");
    let elapsed_ms = started.elapsed().as_secs_f64() * 1_000.0;
    (harness.model.seen().iter().map(|request| request.anthropic_bytes).collect(), elapsed_ms)
}

fn main() {
    let (compressed, compressed_ms) = session(true, true);
    let (full, full_ms) = session(false, true);
    let (raw, _) = session(false, false);
    println!(
        "request body per iteration (Anthropic wire), {ITERATIONS} iterations, MCP results of {RESULT_BYTES} bytes"
    );
    println!(
        "{:>9} {:>12} {:>16} {:>8} {:>22}",
        "iteration", "compressed", "not compressed", "saved", "no truncation either"
    );
    let row = |label: String, with: usize, without: usize, raw: usize| {
        let saved = 100.0 * (1.0 - with as f64 / without as f64);
        println!("{label:>9} {with:>10} B {without:>14} B {saved:>7.1}% {raw:>20} B");
    };
    for (iteration, ((with, without), raw)) in compressed.iter().zip(&full).zip(&raw).enumerate() {
        row((iteration + 1).to_string(), *with, *without, *raw);
    }
    row("total".to_owned(), compressed.iter().sum(), full.iter().sum(), raw.iter().sum());
    println!(
        "whole scripted session (engine and fakes): {compressed_ms:.1} ms compressed, {full_ms:.1} ms not compressed"
    );
}
