//! Benchmark of `widget_display`'s check (repair + sanitise + validate) and of the whole tool call
//! (result JSON and canvas port included), for a 1,000-row `data-table` and a small `stat-card`.
//! Run with `cargo bench -p autoui-core --bench widget_display`.

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::autoui::AutoUi;
use autoui_core::cancel::CancelToken;
use autoui_core::canvas::model::{Block, Canvas};
use autoui_core::canvas::op::{Applied, CanvasError, CanvasPort, Op};
use autoui_core::ids::{BlockId, CallId};
use autoui_core::ports::Random;
use autoui_core::recipes::registry;
use autoui_core::tool::{CallContext, LocalServer, Origin, ResultStore, ToolResult};
use autoui_core::widget_kind::WidgetKind;
use divan::Bencher;
use futures::executor::block_on;
use serde_json::{Value, json};

fn main() {
    divan::main();
}

const GROUPS: [&str; 5] = ["RN", "EPR", "LFI", "SOC", "DR"];

fn table_params() -> Value {
    let rows: Vec<Value> = (0..1000)
        .map(|i| {
            json!({
                "id": i,
                "name": format!("Deputy {i}"),
                "group": GROUPS[i % GROUPS.len()],
                "votes": 1000 + i * 7,
                "attendance": 0.5 + (i % 50) as f64 / 100.0,
                "present": i % 3 != 0,
                "page": format!("https://www.assemblee-nationale.fr/dyn/deputes/PA{i}"),
            })
        })
        .collect();
    json!({
        "title": "Deputies",
        "columns": [
            {"key": "name", "label": "Name"},
            {"key": "group", "label": "Group"},
            {"key": "votes", "label": "Votes", "type": "number"},
            {"key": "attendance", "label": "Attendance", "type": "number"},
            {"key": "present", "label": "Present", "type": "boolean"},
            {"key": "page", "label": "Page", "type": "link"}
        ],
        "rows": rows,
    })
}

/// The same table as a model often sends it: flat beside `name`, a flag as text, an enum in the wrong case.
fn table_call_needing_repair() -> Value {
    let mut call = table_params();
    call["name"] = json!("data-table");
    call["compact"] = json!("true");
    call["columns"][2]["align"] = json!("Right");
    call
}

fn stat_card_params() -> Value {
    json!({"label": "Revenue", "value": "142.3", "unit": "k€", "delta": "+12.4%", "trend": "up", "variant": "success"})
}

fn stat_card_needing_repair() -> Value {
    json!({"label": "Revenue", "value": 142.3, "unit": "k€", "previous_value": 126.6, "trend": "Up", "variant": "Success"})
}

#[divan::bench]
fn check_stat_card(bencher: Bencher) {
    let recipe = registry()
        .get(WidgetKind::StatCard)
        .expect("stat-card recipe");
    let _ = recipe.validator();
    bencher
        .with_inputs(stat_card_params)
        .bench_values(|params| recipe.check(params));
}

#[divan::bench]
fn check_stat_card_with_repairs(bencher: Bencher) {
    let recipe = registry()
        .get(WidgetKind::StatCard)
        .expect("stat-card recipe");
    let _ = recipe.validator();
    bencher
        .with_inputs(stat_card_needing_repair)
        .bench_values(|params| recipe.check(params));
}

#[divan::bench]
fn check_data_table_1000_rows(bencher: Bencher) {
    let recipe = registry()
        .get(WidgetKind::DataTable)
        .expect("data-table recipe");
    let _ = recipe.validator();
    let params = table_params();
    bencher
        .with_inputs(|| params.clone())
        .bench_values(|params| recipe.check(params));
}

/// The three stages of the check, separately, for the 1,000-row table.
mod stages {
    use autoui_core::recipes::{registry, repair, sanitize, validate};
    use autoui_core::widget_kind::WidgetKind;
    use divan::Bencher;

    use super::table_params;

    #[divan::bench]
    fn repair_data_table_1000_rows(bencher: Bencher) {
        let recipe = registry()
            .get(WidgetKind::DataTable)
            .expect("data-table recipe");
        let params = table_params();
        bencher
            .with_inputs(|| params.clone())
            .bench_refs(|params| repair::repair(params, &recipe.schema, recipe.kind));
    }

    #[divan::bench]
    fn sanitize_data_table_1000_rows(bencher: Bencher) {
        let params = table_params();
        bencher
            .with_inputs(|| params.clone())
            .bench_refs(sanitize::sanitize);
    }

    #[divan::bench]
    fn validate_data_table_1000_rows(bencher: Bencher) {
        let recipe = registry()
            .get(WidgetKind::DataTable)
            .expect("data-table recipe");
        let validator = recipe.validator().expect("data-table schema compiles");
        let params = table_params();
        bencher.bench(|| validate::validate(validator, &recipe.schema, &params));
    }

    /// The validator the app runs for the recipes' schemas (`jsonschema` stays out of its download).
    #[divan::bench]
    fn validate_subset_data_table_1000_rows(bencher: Bencher) {
        struct NoPatterns;
        impl validate::subset::Patterns for NoPatterns {
            fn is_match(&self, _pattern: &str, _text: &str) -> Option<bool> {
                None
            }
        }
        let recipe = registry()
            .get(WidgetKind::DataTable)
            .expect("data-table recipe");
        let params = table_params();
        bencher.bench(|| validate::subset::validate(&recipe.schema, &params, &NoPatterns));
    }
}

thread_local! {
    // `AutoUi` is single-threaded (`Rc` ports), while divan wants `Sync` closures.
    static BENCH: ToolBench = ToolBench::new();
}

fn fresh(call: &Value) -> Value {
    BENCH.with(|bench| bench.fresh(call))
}

fn display(args: Value) -> ToolResult {
    BENCH.with(|bench| bench.display(args))
}

#[divan::bench]
fn widget_display_stat_card(bencher: Bencher) {
    let call = json!({"name": "stat-card", "params": stat_card_params()});
    bencher.with_inputs(|| fresh(&call)).bench_values(display);
}

#[divan::bench]
fn widget_display_data_table_1000_rows(bencher: Bencher) {
    let call = json!({"name": "data-table", "params": table_params()});
    bencher.with_inputs(|| fresh(&call)).bench_values(display);
}

#[divan::bench]
fn widget_display_data_table_1000_rows_with_repairs(bencher: Bencher) {
    let call = table_call_needing_repair();
    bencher.with_inputs(|| fresh(&call)).bench_values(display);
}

/// An `AutoUi` over an in-memory canvas that each input empties, so every call adds to an empty grid.
struct ToolBench {
    canvas: Rc<MemoryCanvas>,
    ui: AutoUi,
}

impl ToolBench {
    fn new() -> ToolBench {
        let canvas = Rc::new(MemoryCanvas::default());
        let ui = AutoUi::new(
            canvas.clone(),
            Rc::new(NoResults),
            Rc::new(Sequence::default()),
        );
        ToolBench { canvas, ui }
    }

    fn fresh(&self, call: &Value) -> Value {
        *self.canvas.0.borrow_mut() = Canvas::new();
        call.clone()
    }

    fn display(&self, args: Value) -> ToolResult {
        let origin = Origin::Agent {
            call_id: CallId::new("toolu_bench"),
            source: None,
        };
        let result = block_on(self.ui.call(
            "widget_display",
            args,
            CallContext {
                origin,
                cancel: CancelToken::new(),
            },
        ));
        assert!(!result.is_error, "{}", result.text_content());
        result
    }
}

#[derive(Default)]
struct MemoryCanvas(RefCell<Canvas>);

impl CanvasPort for MemoryCanvas {
    fn apply(&self, op: Op, origin: Origin) -> Result<Applied, CanvasError> {
        self.0.borrow_mut().apply(op, &origin, 0.0)
    }

    fn get(&self, id: &BlockId) -> Option<Block> {
        self.0.borrow().get(id).cloned()
    }

    fn blocks(&self) -> Vec<Block> {
        self.0.borrow().blocks().to_vec()
    }
}

struct NoResults;

impl ResultStore for NoResults {
    fn full_result(&self, _call_id: &str) -> Option<String> {
        None
    }

    fn known_ids(&self) -> Vec<String> {
        Vec::new()
    }
}

#[derive(Default)]
struct Sequence(std::cell::Cell<u64>);

impl Random for Sequence {
    fn next_u64(&self) -> u64 {
        self.0.set(self.0.get() + 1);
        self.0.get()
    }
}
