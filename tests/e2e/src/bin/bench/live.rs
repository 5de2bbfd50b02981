//! Live dashboards (issue 22): what refreshing a bound 1,000-row data-table costs the page, and the
//! bytes the jq engine adds to the build.
//!
//! The refresh: `tests/servers/live_server.py` (new values on every call) is added through the
//! servers panel, a data-table is bound to its `readings` tool by `widget_display` (with a jq map
//! that names the columns), then its refresh button is clicked and the page times, from the click,
//! until the next animation frame after the first row shows the new reading. The tool call's own
//! span (from the `fetch` to the last chunk of its answer before the table changed: the server's
//! work and the loopback wire) is taken out: what is left is the client's share, before the request
//! and from the result to the paint.
//!
//! The bytes: `twiggy` (as the size report runs it) on each wasm module as wasm-split wrote it
//! (before wasm-opt): the functions of the jq crates and of the crates only they pull in. A lower
//! bound (generic code of the standard library instantiated for jq's types is named after the
//! standard library, and data segments are not attributed); the first-load module must have none.

use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::page::Page;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::BenchError;
use crate::attribution;
use crate::display::SETTLE_MS;
use crate::session::Session;
use crate::stats::Samples;

pub const ROWS: usize = 1_000;
/// Budget for the client's share of one refresh, in ms.
const BUDGET_MS: f64 = 50.0;
/// Crates of the jq engine and those only it pulls into the app (`cargo tree -i`).
const JQ_CRATES: [&str; 9] =
    ["jaq_core", "jaq_std", "jaq_json", "hifijson", "num_bigint", "bstr", "typed_arena", "self_cell", "dyn_clone"];

#[derive(Debug, Default)]
pub struct LiveFigures {
    /// Click → painted, less the tool call's span on the wire.
    pub refresh: Samples,
    /// The tool call's span (the server's work and the loopback wire).
    pub server: Samples,
    /// Result (response end) → painted.
    pub result_to_paint: Samples,
    pub jq: Option<JqBytes>,
}

/// The jq engine's function bytes per wasm module (before wasm-opt).
#[derive(Debug)]
pub struct JqBytes {
    /// (module file name, jq bytes, module bytes), for modules with jq code.
    pub modules: Vec<(String, u64, u64)>,
    /// In the module of the first load.
    pub first_load: u64,
}

/// Clicks the table's refresh button; resolves once the first row shows a new reading and the next
/// frame began. `fetch` is wrapped meanwhile to note when the call to the server started and when
/// each chunk of its answer arrived (a Streamable HTTP answer may be an event stream that closes
/// after the app has its result, so resource timing's `responseEnd` can come after the paint).
const REFRESH: &str = r#"
const [origin] = arguments;
const widget = document.querySelector('[data-widget-type=data-table]');
const button = document.querySelector('[data-testid=widget-refresh]');
if (!widget || !button) throw new Error('no bound table with a refresh button');
const firstRow = () => widget.querySelector('tr.au-data-table__row')?.textContent ?? '';
const before = firstRow();
const original = window.fetch;
const arrivals = [];
let called;
window.fetch = function (input, init) {
  const answer = original.call(this, input, init);
  if (!String(input?.url ?? input).startsWith(origin)) return answer;
  called ??= performance.now();
  return answer.then((response) => {
    arrivals.push(performance.now());
    if (!response.body) return response;
    const tap = new TransformStream({ transform(chunk, controller) { arrivals.push(performance.now()); controller.enqueue(chunk); } });
    return new Response(response.body.pipeThrough(tap), { status: response.status, statusText: response.statusText, headers: response.headers });
  });
};
return new Promise((resolve, reject) => {
  const done = () => { window.fetch = original; observer.disconnect(); clearTimeout(timer); };
  const timer = setTimeout(() => { done(); reject(new Error('the table did not change within 20 s')); }, 20000);
  const observer = new MutationObserver(() => {
    if (firstRow() === before) return;
    const shown = performance.now();
    done();
    __bench.nextFrame().then((painted) => {
      const arrived = Math.max(...arrivals.filter((at) => at <= shown));
      if (called === undefined || !Number.isFinite(arrived)) return reject(new Error(`the refresh made no request to ${origin}`));
      resolve({ total: painted - start, server: arrived - called, resultToPaint: painted - arrived });
    });
  });
  observer.observe(widget, { subtree: true, childList: true, characterData: true });
  const start = performance.now();
  button.click();
});"#;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Refreshed {
    total: f64,
    server: f64,
    result_to_paint: f64,
}

/// In a fresh browser: binds the table, then times `refreshes` refreshes of it.
pub async fn measure(base_url: &str, refreshes: usize, figures: &mut LiveFigures) -> Result<(), BenchError> {
    let server = McpServer::python("live_server.py", Transport::Streamable).await;
    let session = Session::open(base_url, "/").await?;
    let outcome = refresh_table(&session, &server, refreshes, figures).await;
    session.close().await;
    drop(server);
    outcome
}

async fn refresh_table(
    session: &Session,
    server: &McpServer,
    refreshes: usize,
    figures: &mut LiveFigures,
) -> Result<(), BenchError> {
    session.wait_for_tools().await?;
    Page::new(session.client().clone(), session.base_url().to_owned()).add_server(&server.url(), "live").await;
    let map = "{title: \"Sensors\", columns: [{key: \"sensor\", label: \"Sensor\"}, {key: \"reading\", label: \"Reading\", type: \"number\"}, \
               {key: \"value\", label: \"Value\", type: \"number\"}, {key: \"ok\", label: \"OK\", type: \"boolean\"}], rows: .rows}";
    let input = json!({"name": "data-table", "params": {"title": "Sensors"},
        "source": {"call": "live_mcp_readings", "arguments": {"count": ROWS}, "map": map, "refresh": "manual"}});
    session
        .eval::<Value>("binding a table to the live server", "return __bench.callTool('widget_display', arguments[0]).then(() => null);", vec![input])
        .await?;
    session.idle(SETTLE_MS).await?;
    let shown: usize = session
        .eval("counting the bound table's rows", "return Number(document.querySelector('[data-widget-type=data-table] table')?.getAttribute('aria-rowcount') ?? 0) - 1;", vec![])
        .await?;
    if shown != ROWS {
        return Err(BenchError::Missing(format!("the bound table shows {shown} rows, not {ROWS}")));
    }
    session.start_profile().await?;
    for _ in 0..refreshes {
        let refreshed: Refreshed = session.eval("refreshing the bound table", REFRESH, vec![json!(server.base_url())]).await?;
        figures.refresh.push(refreshed.total - refreshed.server);
        figures.server.push(refreshed.server);
        figures.result_to_paint.push(refreshed.result_to_paint);
        // Lets the debounced save of the new data happen outside the next refresh.
        session.idle(SETTLE_MS).await?;
    }
    session.stop_profile().await?;
    Ok(())
}

/// Only the refresh row, printed with the load average before and after (`--live-only`).
pub async fn print_only(runs: usize) -> Result<(), BenchError> {
    let app = autoui_e2e::app_server::AppServer::start().await;
    let mut figures = LiveFigures::default();
    let before = crate::machine::load_average();
    let mut outcome = Ok(());
    for run in 1..=runs {
        println!("run {run} of {runs}: refreshing a 1,000-row table bound to a tool");
        outcome = measure(&app.base_url(), 5, &mut figures).await;
        if outcome.is_err() {
            break;
        }
    }
    app.stop().await;
    outcome?;
    let (figure, limit, measured, met) = rows(&figures).swap_remove(0);
    let met = match met {
        Some(true) => "met",
        Some(false) => "not met",
        None => "not measured",
    };
    println!("{figure}: {measured} ({limit}, {met})");
    println!("load average (1, 5, 15 min): {before} before, {} after", crate::machine::load_average());
    Ok(())
}

/// Attributes the jq engine's bytes in the last release build's modules.
pub fn jq_bytes(dist: &std::path::Path) -> Result<JqBytes, BenchError> {
    let mut bytes = JqBytes { modules: Vec::new(), first_load: 0 };
    let modules = attribution::modules(dist)?;
    // The whole app before splitting comes first, the validator (a module of its own, whose crates
    // are not the app's) last; the app's shipped modules are wasm-split's.
    let app_modules = modules.iter().skip(1).filter(|module| !module.ends_with("autoui_validator.wasm"));
    for module in app_modules {
        let items = attribution::twiggy(module)?;
        let total: u64 = items.iter().map(|item| item.bytes).sum();
        let jq: u64 = items.iter().filter(|item| is_jq(&item.name)).map(|item| item.bytes).sum();
        let name = module.file_name().map_or_else(String::new, |name| name.to_string_lossy().into_owned());
        // wasm-split names the first-load module after the app (`autoui-<hash>.wasm`).
        if name.starts_with("autoui-") {
            bytes.first_load += jq;
        }
        // A few bytes elsewhere are shared glue (e.g. a `dyn_clone` vtable), not the engine.
        if jq >= 1_000 {
            bytes.modules.push((name, jq, total));
        }
    }
    Ok(bytes)
}

fn is_jq(name: &str) -> bool {
    JQ_CRATES.iter().any(|krate| name.contains(&format!("{krate}::")))
}

/// The report's rows: figure, budget, measured, met.
pub fn rows(figures: &LiveFigures) -> Vec<(&'static str, &'static str, String, Option<bool>)> {
    let refresh = (
        "Refresh of a 1,000-row data-table bound to a tool: click → painted (next frame), less the tool call's span (server and wire)",
        "≤ 50 ms",
        format!(
            "{} (result → painted: {}; the call's span, left out: {})",
            figures.refresh.show(1, "ms"),
            figures.result_to_paint.show(1, "ms"),
            figures.server.show(1, "ms")
        ),
        figures.refresh.median().map(|median| median <= BUDGET_MS),
    );
    let jq = match &figures.jq {
        Some(jq) => {
            let modules: Vec<String> = jq
                .modules
                .iter()
                .map(|(name, bytes, total)| format!("{:.1} KB of `{name}`'s {:.1} KB", *bytes as f64 / 1e3, *total as f64 / 1e3))
                .collect();
            (
                format!("{}; first load: {} bytes (twiggy, before wasm-opt; a lower bound)", modules.join(", "), jq.first_load),
                Some(jq.first_load == 0 && !jq.modules.is_empty()),
            )
        }
        None => ("not measured".to_owned(), None),
    };
    vec![
        refresh,
        ("Bytes the jq engine (jaq and the crates only it pulls in) adds, and where", "in a deferred module, none in the first load", jq.0, jq.1),
    ]
}
