//! Model profiles against the agent loop (the real loop, dispatcher, autoui and samples servers; a
//! scripted model and fake MCP servers), each run under an 8k-context profile and a 200k-context one:
//! the request body at iteration 10 of the `context` bench's session (50 KB results); the
//! iterations a dashboard of 100 orders takes when the model reads as many rows per call as it was
//! shown last time; and the input of a one-call-per-turn flow on a server of 3,000 tools with staged
//! activation (the profile's tool budget) against without (the seed's whole-server offering).
//! Lines `figure NAME VALUE` are what the BENCHMARKS.md writer reads. Run with
//! `cargo bench -p autoui-core --bench models`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use autoui_core::agent::buffer::ResultBuffer;
use autoui_core::agent::event::AgentEvent;
use autoui_core::agent::session::{AgentConfig, AgentDeps, AgentSession, UserTurn};
use autoui_core::agent::stop::StopReason;
use autoui_core::autoui::AutoUi;
use autoui_core::cancel::CancelToken;
use autoui_core::llm::message::ContentBlock;
use autoui_core::llm::profile::{BYTES_PER_TOKEN, ModelProfile};
use autoui_core::samples::Samples;
use autoui_core::settings::Settings;
use autoui_core::tool::{ToolResult, ToolSpec};
use common::Counter;
use common::canvas::RecordingCanvas;
use common::clock::FakeClock;
use common::mcp::{Behaviour, FakeMcp};
use common::model::{ScriptedModel, SeenRequest, Step, call, text};
use futures::executor::block_on;
use serde_json::{Value, json};

const DISPLAY: &str = "autoui_webmcp_widget_display";
const MODEL: &str = "bench-model";

/// The two profiles compared: (name, context tokens, output tokens asked for).
const PROFILES: [(&str, u32, u32); 2] = [("8k", 8_192, 2_048), ("200k", 200_000, 8_192)];

fn settings(context_tokens: u32, output_tokens: u32) -> Settings {
    let profile = ModelProfile { context_tokens, output_tokens, max_output_tokens: output_tokens * 2, prices: None };
    Settings {
        api_key: "bench-key".to_owned(),
        model: MODEL.to_owned(),
        profiles: BTreeMap::from([(MODEL.to_owned(), profile)]),
        ..Settings::default()
    }
}

/// How a run is sized from the profile (`AgentSession::run_sized`); `staged: false` keeps
/// the seed's offering (every tool of an activated server) with the same request budget.
struct Run {
    settings: Settings,
    staged: bool,
}

struct Outcome {
    requests: Vec<SeenRequest>,
    stop: Option<StopReason>,
    widgets: usize,
}

fn run(setup: &Run, mcp: FakeMcp, steps: Vec<Step>, ask: &str) -> Outcome {
    let results = Rc::new(ResultBuffer::new());
    let canvas = Rc::new(RecordingCanvas::default());
    let ui = AutoUi::new(canvas.clone(), results.clone(), Rc::new(Counter::default()));
    let model = Rc::new(ScriptedModel::new(steps));
    let deps = AgentDeps {
        model: model.clone(),
        local: vec![Rc::new(ui), Rc::new(Samples::default())],
        remote: Rc::new(mcp),
        clock: Rc::new(FakeClock::new()),
        results,
    };
    let mut agent = AgentSession::new(deps, AgentConfig::default());
    let limits = setup.settings.derived_limits().expect("limits from the profile");
    agent.set_request_budget(Some(limits.request_budget));
    agent.set_tool_budget(setup.staged.then_some(limits.tool_budget));
    let events: RefCell<Vec<AgentEvent>> = RefCell::new(Vec::new());
    block_on(agent.run(UserTurn::text(ask), &setup.settings.effective(), CancelToken::new(), &events));
    let stop = events.borrow().iter().find_map(|event| match event {
        AgentEvent::RunStopped { reason, .. } => Some(reason.clone()),
        _ => None,
    });
    Outcome { requests: model.seen(), stop, widgets: canvas.widgets().len() }
}

fn orders_spec(name: &str, description: &str) -> ToolSpec {
    ToolSpec {
        name: name.to_owned(),
        title: None,
        description: description.to_owned(),
        input_schema: json!({ "type": "object", "properties": {
            "page": { "type": "integer" }, "offset": { "type": "integer" }, "limit": { "type": "integer" } } }),
        read_only: true,
        hints: Default::default(),
        ui: None,
    }
}

/// `count` order rows from `offset`, about 120 bytes each.
fn orders(offset: usize, count: usize) -> Value {
    let rows: Vec<Value> = (offset..offset + count)
        .map(|n| {
            let region = ["North", "South", "East", "West"][n % 4];
            json!({
                "order": format!("SO-{:05}", 10_000 + n),
                "customer": format!("Customer {}", n * 7 % 311),
                "region": region,
                "amount": (n * 37 % 1_000) as f64 + 0.5,
                "status": "shipped"
            })
        })
        .collect();
    Value::Array(rows)
}

// ---------------------------------------------------------------------------------------------
// 1. The `context` bench's 10-iteration session (50 KB results), under each profile.

fn pages_steps() -> Vec<Step> {
    let mut steps: Vec<Step> = (1..10)
        .map(|n| {
            Step::Reply(vec![
                call(&format!("read{n}"), "orders_mcp_fetch_page", json!({ "page": n })),
                call(&format!("show{n}"), DISPLAY, json!({ "name": "stat-card", "params": { "label": format!("Page {n}"), "value": (n * 100).to_string() } })),
            ])
        })
        .collect();
    steps.push(Step::Reply(vec![text("All pages are on the canvas.")]));
    steps
}

fn pages_server() -> FakeMcp {
    FakeMcp::new().server("orders", vec![orders_spec("fetch_page", "One page of orders")]).on_args("orders", "fetch_page", |args| {
        let page = args.get("page").and_then(Value::as_u64).unwrap_or(0) as usize;
        // 420 rows of about 120 bytes: 50 KB.
        Behaviour::Reply(ToolResult::text(orders(page * 420, 420).to_string()))
    })
}

// ---------------------------------------------------------------------------------------------
// 2. A dashboard of 100 orders: the model asks for all 100, and when a result shows only some
// (the profile's result limit), asks for the next ones as many at a time as it was shown, keeping
// running totals as it reads (older results are compressed to previews by then).

const ORDERS: usize = 100;

#[derive(Clone, Copy, Default)]
enum Phase {
    #[default]
    Start,
    /// Waiting for the result of fetch number `n`.
    Reading(usize),
    Shown,
}

#[derive(Default)]
struct Reader {
    phase: Phase,
    seen: usize,
    total: f64,
    by_region: BTreeMap<String, f64>,
}

/// The rows a result shows: its JSON, up to a truncation marker.
fn rows_shown(result: &str) -> Vec<Value> {
    let json = result.split("\n… [truncated").next().unwrap_or_default();
    serde_json::from_str::<Value>(json).ok().and_then(|value| value.as_array().cloned()).unwrap_or_default()
}

fn fetch(n: usize, offset: usize, limit: usize) -> Vec<ContentBlock> {
    vec![call(&format!("fetch{n}"), "orders_mcp_fetch_orders", json!({ "offset": offset, "limit": limit }))]
}

fn read_step(reader: &RefCell<Reader>, request: &SeenRequest) -> Vec<ContentBlock> {
    let mut reader = reader.borrow_mut();
    match reader.phase {
        Phase::Start => {
            reader.phase = Phase::Reading(1);
            fetch(1, 0, ORDERS)
        }
        Phase::Reading(n) => {
            let shown = request.result_of(&format!("fetch{n}")).map(|result| rows_shown(&result)).unwrap_or_default();
            if shown.is_empty() {
                return vec![text("I could not read the orders.")];
            }
            for row in &shown {
                let amount = row["amount"].as_f64().unwrap_or(0.0);
                reader.total += amount;
                *reader.by_region.entry(row["region"].as_str().unwrap_or("?").to_owned()).or_default() += amount;
            }
            reader.seen += shown.len();
            if reader.seen < ORDERS {
                reader.phase = Phase::Reading(n + 1);
                return fetch(n + 1, reader.seen, shown.len().min(ORDERS - reader.seen));
            }
            reader.phase = Phase::Shown;
            let regions: Vec<&String> = reader.by_region.keys().collect();
            let values: Vec<f64> = reader.by_region.values().copied().collect();
            vec![
                call("kpi_total", DISPLAY, json!({ "name": "stat-card", "params": { "label": "Order value", "value": format!("{:.1}", reader.total) } })),
                call("kpi_count", DISPLAY, json!({ "name": "stat-card", "params": { "label": "Orders", "value": ORDERS.to_string() } })),
                call("by_region", DISPLAY, json!({ "name": "chart-rich", "params": { "title": "Order value by region", "type": "bar",
                    "labels": regions, "data": [{ "label": "Value", "values": values }] } })),
            ]
        }
        Phase::Shown => vec![text("The orders dashboard is ready.")],
    }
}

fn orders_server() -> FakeMcp {
    FakeMcp::new()
        .server("orders", vec![orders_spec("fetch_orders", "Orders from `offset`, at most `limit` of them")])
        .on_args("orders", "fetch_orders", |args| {
            let offset = args.get("offset").and_then(Value::as_u64).unwrap_or(0) as usize;
            let limit = args.get("limit").and_then(Value::as_u64).unwrap_or(ORDERS as u64) as usize;
            let count = limit.min(ORDERS.saturating_sub(offset));
            Behaviour::Reply(ToolResult::text(orders(offset, count).to_string()))
        })
}

fn reader_steps() -> Vec<Step> {
    let reader = Rc::new(RefCell::new(Reader::default()));
    (0..60)
        .map(|_| {
            let reader = reader.clone();
            Step::Compute(Box::new(move |request| read_step(&reader, request)))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// 3. One call per turn on a server of 3,000 tools: find the tool, call it (activating the server),
// show two widgets, answer.

const HUB_TOOLS: usize = 3_000;

fn hub_server() -> FakeMcp {
    let tools = (0..HUB_TOOLS)
        .map(|n| ToolSpec {
            name: format!("step_{n:04}"),
            title: None,
            description: format!(
                "Automation step {n}: runs workflow action {n} on a record of the hub and returns its outcome, with the run id and timing."
            ),
            input_schema: json!({ "type": "object", "properties": {
                "record_id": { "type": "string", "description": "The record to run the step on" },
                "dry_run": { "type": "boolean", "description": "Report what would happen without doing it" },
                "region": { "type": "string", "enum": ["North", "South", "East", "West"] } } }),
            read_only: true,
            hints: Default::default(),
            ui: None,
        })
        .collect();
    let runs = json!({ "runs_by_region": [
        { "region": "North", "runs": 1280 }, { "region": "South", "runs": 940 },
        { "region": "East", "runs": 610 }, { "region": "West", "runs": 1125 } ] });
    FakeMcp::new().server("hub", tools).on("hub", "step_0042", Behaviour::Reply(ToolResult::text(runs.to_string())))
}

fn hub_steps() -> Vec<Step> {
    vec![
        Step::Reply(vec![call("find", "hub_mcp_search_tools", json!({ "query": "step 42" }))]),
        Step::Reply(vec![call("runs", "hub_mcp_step_0042", json!({}))]),
        Step::Reply(vec![call("total", DISPLAY, json!({ "name": "stat-card", "params": { "label": "Runs", "value": "3955" } }))]),
        Step::Reply(vec![call("chart", DISPLAY, json!({ "name": "chart-rich", "params": { "title": "Runs by region", "type": "bar",
            "labels": ["North", "South", "East", "West"], "data": [{ "label": "Runs", "values": [1280, 940, 610, 1125] }] } }))]),
        Step::Reply(vec![text("Here are the hub's runs.")]),
    ]
}

// ---------------------------------------------------------------------------------------------

fn body_bytes(requests: &[SeenRequest]) -> Vec<usize> {
    requests.iter().map(|request| request.anthropic_body.len()).collect()
}

fn stop_text(stop: &Option<StopReason>) -> String {
    match stop {
        Some(StopReason::Completed) => "completed".to_owned(),
        Some(StopReason::IterationLimit { limit }) => format!("stopped at the cap of {limit}"),
        Some(other) => format!("stopped: {other:?}"),
        None => "no stop event".to_owned(),
    }
}

fn main() {
    for (name, context, output) in PROFILES {
        let staged = Run { settings: settings(context, output), staged: true };
        let limits = staged.settings.derived_limits().expect("limits");
        println!(
            "profile {name}: context {context} tokens, {output} output tokens; request budget {} B, result limit {} characters, \
             iteration cap {}, tool budget {} B",
            limits.request_budget, limits.result_limit, limits.max_iterations, limits.tool_budget
        );
        println!("figure {name}_request_budget {}", limits.request_budget);
        println!("figure {name}_iteration_cap {}", limits.max_iterations);

        let pages = run(&staged, pages_server(), pages_steps(), "Show me every page of orders");
        let sizes = body_bytes(&pages.requests);
        println!("  10-iteration session, 50 KB results: request body per iteration {sizes:?}");
        println!("figure {name}_request_10 {}", sizes.get(9).copied().unwrap_or(0));

        let dashboard = run(&staged, orders_server(), reader_steps(), "Build a dashboard of our 100 orders");
        let fetches = dashboard.requests.len();
        println!(
            "  100-order dashboard: {fetches} iterations ({}), {} widgets; request bodies {:?}",
            stop_text(&dashboard.stop),
            dashboard.widgets,
            body_bytes(&dashboard.requests)
        );
        println!("figure {name}_dashboard_iterations {fetches}");
        println!("figure {name}_dashboard_widgets {}", dashboard.widgets);
        println!("figure {name}_dashboard_completed {}", u8::from(dashboard.stop == Some(StopReason::Completed)));

        for (label, staged) in [("staged", true), ("unstaged", false)] {
            let setup = Run { settings: settings(context, output), staged };
            let flow = run(&setup, hub_server(), hub_steps(), "Show the hub's runs");
            let sizes = body_bytes(&flow.requests);
            let total: usize = sizes.iter().sum();
            println!(
                "  one call per turn, {HUB_TOOLS}-tool server, {label}: {} requests {sizes:?}, {total} B in all \
                 (about {} tokens at {BYTES_PER_TOKEN} bytes a token), largest {} B, {} widgets ({})",
                sizes.len(),
                total / BYTES_PER_TOKEN,
                sizes.iter().max().copied().unwrap_or(0),
                flow.widgets,
                stop_text(&flow.stop)
            );
            println!("figure {name}_hub_{label}_input_bytes {total}");
            println!("figure {name}_hub_{label}_largest_bytes {}", sizes.iter().max().copied().unwrap_or(0));
        }
    }
}
