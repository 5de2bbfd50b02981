//! Request size per iteration of a scripted 10-iteration session whose MCP results are 50 KB each, on
//! the real autoui and samples servers: with the request budget, with compression by age only,
//! without compression (truncation on), and with neither; what the last request is made of; the
//! first request's prompt and tool JSON; and a session that shows a 1,000-row table (old call inputs
//! compressed). Run with `cargo bench -p autoui-core --bench context`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use autoui_core::agent::buffer::ResultBuffer;
use autoui_core::agent::event::AgentEvent;
use autoui_core::agent::session::{AgentConfig, AgentDeps, AgentSession, UserTurn};
use autoui_core::autoui::AutoUi;
use autoui_core::cancel::CancelToken;
use autoui_core::samples::Samples;
use autoui_core::settings::Settings;
use autoui_core::tool::ToolResult;
use common::Counter;
use common::canvas::RecordingCanvas;
use common::clock::FakeClock;
use common::mcp::{Behaviour, FakeMcp, spec};
use common::model::{ScriptedModel, SeenRequest, Step, call, text};
use futures::executor::block_on;
use serde_json::{Value, json};

const ITERATIONS: usize = 10;
const RESULT_BYTES: usize = 50_000;
const BUDGET: usize = 25_000;

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

fn read(n: usize) -> serde_json::Value {
    json!({ "page": n })
}

/// Nine iterations that each read a page and show a KPI, then a final answer.
fn pages_script() -> Vec<Step> {
    let mut steps: Vec<Step> = (1..ITERATIONS)
        .map(|n| {
            Step::Reply(vec![
                call(&format!("read{n}"), "orders_mcp_fetch_page", read(n)),
                call(
                    &format!("show{n}"),
                    "autoui_webmcp_widget_display",
                    json!({ "name": "stat-card", "params": { "label": format!("Page {n}"), "value": (n * 100).to_string() } }),
                ),
            ])
        })
        .collect();
    steps.push(Step::Reply(vec![text("All pages are on the canvas.")]));
    steps
}

/// Reads a page, shows 1,000 of its rows as a table, then four iterations that each show a KPI.
fn table_script() -> Vec<Step> {
    let rows: Vec<Value> =
        page(1).as_array().map(|rows| rows.iter().take(1_000).cloned().collect()).unwrap_or_default();
    let mut steps = vec![
        Step::Reply(vec![call("read1", "orders_mcp_fetch_page", read(1))]),
        Step::Reply(vec![call(
            "table",
            "autoui_webmcp_widget_display",
            json!({ "name": "data-table", "params": { "title": "Orders", "rows": rows } }),
        )]),
    ];
    steps.extend((1..=4).map(|n| {
        Step::Reply(vec![call(
            &format!("kpi{n}"),
            "autoui_webmcp_widget_display",
            json!({ "name": "stat-card", "params": { "label": format!("KPI {n}"), "value": format!("{n}") } }),
        )])
    }));
    steps.push(Step::Reply(vec![text("Done.")]));
    steps
}

/// Runs `steps` on the real autoui and samples servers plus an `orders` MCP server; returns every
/// request and how long the session took.
fn session(steps: Vec<Step>, config: AgentConfig, result_limit: usize) -> (Vec<SeenRequest>, f64) {
    let mcp = FakeMcp::new().server("orders", vec![spec("fetch_page", "One page of orders")]).on_args(
        "orders",
        "fetch_page",
        |args| {
            let number = args.get("page").and_then(Value::as_u64).unwrap_or(0) as usize;
            Behaviour::Reply(ToolResult::text(page(number).to_string()))
        },
    );
    let results = Rc::new(ResultBuffer::new());
    let ui = AutoUi::new(Rc::new(RecordingCanvas::default()), results.clone(), Rc::new(Counter::default()));
    let model = Rc::new(ScriptedModel::new(steps));
    let deps = AgentDeps {
        model: model.clone(),
        local: vec![Rc::new(ui), Rc::new(Samples::default())],
        remote: Rc::new(mcp),
        clock: Rc::new(FakeClock::new()),
        results,
    };
    let mut agent = AgentSession::new(deps, config);
    let settings = Settings { api_key: "bench-key".to_owned(), result_limit, ..Settings::default() };
    let events: RefCell<Vec<AgentEvent>> = RefCell::new(Vec::new());
    let started = Instant::now();
    block_on(agent.run(UserTurn::text("Show me every page of orders"), &settings, CancelToken::new(), &events));
    (model.seen(), started.elapsed().as_secs_f64() * 1_000.0)
}

fn sizes(requests: &[SeenRequest]) -> Vec<usize> {
    requests.iter().map(|request| request.anthropic_body.len()).collect()
}

fn age_only() -> AgentConfig {
    AgentConfig { request_budget: None, ..AgentConfig::default() }
}

fn uncompressed() -> AgentConfig {
    AgentConfig { compress_history: false, ..AgentConfig::default() }
}

fn print_sizes() {
    let limit = Settings::default().result_limit;
    let (budget, budget_ms) = session(pages_script(), AgentConfig::default(), limit);
    let (age, _) = session(pages_script(), age_only(), limit);
    let (full, full_ms) = session(pages_script(), uncompressed(), limit);
    let (raw, _) = session(pages_script(), uncompressed(), usize::MAX);
    println!(
        "request body per iteration (Anthropic wire), {ITERATIONS} iterations, MCP results of {RESULT_BYTES} bytes, \
         results truncated to {limit} characters, budget {BUDGET} B"
    );
    println!(
        "{:>9} {:>10} {:>10} {:>15} {:>8} {:>21}",
        "iteration", "budget", "age only", "not compressed", "saved", "no truncation either"
    );
    let row = |label: String, sizes: [usize; 4]| {
        let [budget, age, full, raw] = sizes;
        let saved = 100.0 * (1.0 - budget as f64 / full as f64);
        println!("{label:>9} {budget:>8} B {age:>8} B {full:>13} B {saved:>7.1}% {raw:>19} B");
    };
    let columns = [sizes(&budget), sizes(&age), sizes(&full), sizes(&raw)];
    for iteration in 0..columns[0].len() {
        row((iteration + 1).to_string(), columns.each_ref().map(|column| column[iteration]));
    }
    row("total".to_owned(), columns.each_ref().map(|column| column.iter().sum()));
    let last = columns[0].last().copied().unwrap_or(0);
    let verdict = if last <= BUDGET { "within" } else { "OVER" };
    println!("request {ITERATIONS} with the budget: {last} B, {verdict} the {BUDGET} B budget");
    println!(
        "whole scripted session (engine and fakes): {budget_ms:.1} ms with the budget, {full_ms:.1} ms not compressed"
    );
    if let (Some(budget), Some(age)) = (budget.last(), age.last()) {
        print_breakdown(&format!("request {ITERATIONS} with the budget"), budget);
        print_breakdown(&format!("request {ITERATIONS} compressed by age only"), age);
    }
}

/// What one Anthropic request body is made of, part by part.
fn print_breakdown(title: &str, request: &SeenRequest) {
    let body: Value = serde_json::from_str(&request.anthropic_body).unwrap_or(Value::Null);
    let size = |value: &Value| value.to_string().len();
    println!("\n{title}: {} B", request.anthropic_body.len());
    let system_chars = request.system.chars().count();
    println!("{:>8} B  system prompt ({system_chars} characters)", size(&body["system"]));
    let tools = body["tools"].as_array().map_or(0, Vec::len);
    println!("{:>8} B  tools ({tools} definitions)", size(&body["tools"]));
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    for (position, message) in messages.iter().enumerate() {
        let blocks: Vec<String> =
            message["content"].as_array().map(|blocks| blocks.iter().map(describe_block).collect()).unwrap_or_default();
        let role = message["role"].as_str().unwrap_or("?");
        println!("{:>8} B  message {} ({role}): {}", size(message), position + 1, blocks.join(", "));
    }
    let parts = size(&body["system"]) + size(&body["tools"]) + size(&body["messages"]);
    println!("{:>8} B  envelope (model, max_tokens, stream, keys)", request.anthropic_body.len() - parts);
}

fn describe_block(block: &Value) -> String {
    let bytes = block.to_string().len();
    match block["type"].as_str() {
        Some("tool_use") => format!("tool_use {} {bytes} B", block["id"].as_str().unwrap_or("?")),
        Some("tool_result") => format!("tool_result {} {bytes} B", block["tool_use_id"].as_str().unwrap_or("?")),
        Some(kind) => format!("{kind} {bytes} B"),
        None => format!("? {bytes} B"),
    }
}

fn print_first_request() {
    let (requests, _) = session(pages_script(), AgentConfig::default(), Settings::default().result_limit);
    let Some(request) = requests.first() else { return };
    let body: Value = serde_json::from_str(&request.anthropic_body).unwrap_or(Value::Null);
    let tools = body["tools"].as_array().cloned().unwrap_or_default();
    let chars = request.system.chars().count();
    println!(
        "\nfirst request (autoui, samples and one MCP server, nothing activated): {} B",
        request.anthropic_body.len()
    );
    println!("system prompt: {chars} characters (about {} tokens at 4 characters a token)", chars.div_ceil(4));
    println!("tool JSON: {} B for {} discovery tools", body["tools"].to_string().len(), tools.len());
    for tool in &tools {
        println!("{:>8} B  {}", tool.to_string().len(), tool["name"].as_str().unwrap_or("?"));
    }
}

fn print_table_session() {
    let limit = Settings::default().result_limit;
    let (with, _) = session(table_script(), AgentConfig::default(), limit);
    let (without, _) = session(table_script(), uncompressed(), limit);
    println!("\na 1,000-row data-table shown at iteration 2, then four KPIs: request body per iteration");
    println!("{:>9} {:>10} {:>15}", "iteration", "budget", "not compressed");
    for (iteration, (with, without)) in sizes(&with).iter().zip(sizes(&without)).enumerate() {
        println!("{:>9} {with:>8} B {without:>13} B", iteration + 1);
    }
}

fn main() {
    print_sizes();
    print_first_request();
    print_table_session();
}
