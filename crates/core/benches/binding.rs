//! Benchmark of a bound widget's refresh in the core, for a 1,000-row `data-table` bound to a tool:
//! the result read as JSON, the jq map, the merge, the schema check and the canvas op (the server's
//! own time left out: the fetcher answers at once). The paint that follows is the browser's.
//! Run with `cargo bench -p autoui-core --bench binding`.

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::autoui::AutoUi;
use autoui_core::autoui::bind::Sources;
use autoui_core::binding::fetch::SourceFetcher;
use autoui_core::binding::jq;
use autoui_core::binding::source::Target;
use autoui_core::cancel::CancelToken;
use autoui_core::canvas::model::{Block, Canvas};
use autoui_core::canvas::op::{Applied, CanvasError, CanvasPort, Op};
use autoui_core::ids::{BlockId, CallId};
use autoui_core::ports::{Clock, Random};
use autoui_core::tool::{CallContext, LocalServer, Origin, ResultStore, ToolResult};
use divan::Bencher;
use futures::executor::block_on;
use futures::future::LocalBoxFuture;
use serde_json::{Value, json};

fn main() {
    divan::main();
}

const GROUPS: [&str; 3] = ["RN", "EPR", "LFI"];
const MAP: &str = "{rows: [.deputies[] | {name, group, votes, present: (.attendance > 0.6)}]}";

fn result() -> Value {
    let deputies: Vec<Value> = (0..1000)
        .map(|i| json!({"name": format!("Deputy {i}"), "group": GROUPS[i % 3], "votes": 1000 + i * 7,
            "attendance": 0.5 + (i % 50) as f64 / 100.0, "page": format!("https://example.org/d/{i}")}))
        .collect();
    json!({ "deputies": deputies })
}

#[divan::bench]
fn compile_map() {
    jq::check(divan::black_box(MAP)).unwrap();
}

#[divan::bench]
fn map_1000_rows(bencher: Bencher) {
    let input = result();
    bencher.bench_local(|| jq::run(MAP, &input).unwrap());
}

#[divan::bench]
fn refresh_data_table_1000_rows(bencher: Bencher) {
    let canvas = Rc::new(MemoryCanvas::default());
    let ui = AutoUi::new(canvas.clone(), Rc::new(NoResults), Rc::new(Sequence::default()))
        .with_sources(Sources { fetcher: Rc::new(Instant(result())), clock: Rc::new(Still) });
    let call = json!({"name": "data-table", "params": {"title": "Deputies", "columns": [
        {"key": "name", "label": "Name"}, {"key": "group", "label": "Group"},
        {"key": "votes", "label": "Votes", "type": "number"}, {"key": "present", "label": "Present", "type": "boolean"}]},
        "source": {"call": "house_mcp_deputies", "map": MAP, "refresh": "every 5m"}});
    let context = CallContext { origin: Origin::Agent { call_id: CallId::new("toolu_bench"), source: None }, cancel: CancelToken::new() };
    let shown = block_on(ui.call("widget_display", call, context));
    assert!(!shown.is_error, "{}", shown.text_content());
    let id = BlockId::new(shown.structured.unwrap()["id"].as_str().unwrap());
    bencher.bench_local(|| block_on(ui.refresh_block(&id, CancelToken::new())).unwrap());
}

struct Instant(Value);

impl SourceFetcher for Instant {
    fn fetch<'a>(&'a self, _: &'a Target, _: CancelToken) -> LocalBoxFuture<'a, Result<ToolResult, String>> {
        let result = ToolResult { structured: Some(self.0.clone()), ..ToolResult::text("") };
        Box::pin(async move { Ok(result) })
    }
}

struct Still;

impl Clock for Still {
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn unix_ms(&self) -> f64 {
        0.0
    }
    fn sleep(&self, _: u32) -> LocalBoxFuture<'static, ()> {
        Box::pin(async {})
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
