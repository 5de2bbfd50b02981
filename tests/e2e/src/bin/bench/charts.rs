//! The `vega-lite` widget (issue 19): in a fresh browser (cold cache), the first chart from the
//! `widget_display` call until it is painted, which includes fetching and starting the engine (vega,
//! vega-lite, vega-embed under `charts/`); then later charts of 1,000 points; and the gzip size of
//! what the first chart fetched. The engine must not be fetched before the first chart asks for it.

use std::path::Path;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::BenchError;
use crate::display::{SETTLE_MS, clear};
use crate::report::Budget;
use crate::session::{Session, Timed};
use crate::stats::Samples;
use crate::transfer::{Sizes, dist_path};

/// Later charts timed per run.
const LATER: usize = 5;
const POINTS: usize = 1_000;

#[derive(Debug, Default)]
pub struct ChartFigures {
    /// The page's first chart: call → painted (next frame after its marks are in the DOM).
    pub first_frame: Samples,
    /// Each later chart of 1,000 points: call → painted.
    pub later_frame: Samples,
    /// Gzip -9 bytes of the files the first chart fetched (the engine and any wasm chunk).
    pub chunk_gzip: Samples,
    pub chunk_raw: Samples,
    /// Those files, with their gzip -9 bytes (from the last run).
    pub chunk_files: Vec<(String, u64)>,
}

/// Times one `widget_display` of a `vega-lite` chart until a new widget shows the chart drawn with
/// marks (or failed: then the call is an error); also lists the files fetched meanwhile.
const DRAW: &str = r#"
const [spec, settleMs] = arguments;
const before = new Set(__bench.widgetIds());
const started = performance.now();
const figure = () => {
  for (const frame of document.querySelectorAll('[data-testid=widget]')) {
    if (before.has(frame.dataset.widgetId)) continue;
    const figure = frame.querySelector('figure.au-vega-lite');
    // Drawn: its marks are in the SVG, or (over the SVG's row limit) on the canvas, painted by now.
    if (figure?.dataset.status === 'failed' || (figure?.dataset.status === 'drawn' && figure.querySelector('svg .role-mark, canvas'))) return figure;
  }
  return null;
};
return __bench.timed({
  act: () => __bench.callTool('widget_display', { name: 'vega-lite', params: spec }),
  ready: () => figure() !== null,
  settleMs,
}).then((timed) => ({
  ...timed,
  value: figure()?.dataset.status === 'drawn' ? 'drawn' : (figure()?.textContent ?? 'no chart'),
  fetched: performance.getEntriesByType('resource').filter((entry) => entry.startTime >= started).map((entry) => entry.name),
}));"#;

/// Files fetched so far whose path is under `charts/`.
const ENGINE_FETCHED: &str =
    "return performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => new URL(name).pathname.startsWith('/charts/'));";

#[derive(Deserialize)]
struct Drawn {
    #[serde(flatten)]
    timed: Timed,
    fetched: Vec<String>,
}

/// The orders of a week as a bar chart: the first chart of a page.
fn bar_chart() -> Value {
    json!({"title": "Orders per day",
        "data": {"values": [{"day": "Mon", "orders": 1200}, {"day": "Tue", "orders": 1480}, {"day": "Wed", "orders": 1310},
                            {"day": "Thu", "orders": 1650}, {"day": "Fri", "orders": 1920}]},
        "mark": {"type": "bar", "tooltip": true},
        "encoding": {"x": {"field": "day", "type": "ordinal", "sort": null}, "y": {"field": "orders", "type": "quantitative"}}})
}

/// A scatter plot of 1,000 points in four colours (over the SVG's row limit: drawn on a canvas).
fn scatter(seed: usize) -> Value {
    let points: Vec<Value> = (0..POINTS)
        .map(|i| json!({"x": i, "y": (i * 37 + seed) % 101, "group": format!("g{}", i % 4)}))
        .collect();
    json!({"title": format!("1,000 points ({seed})"), "data": {"values": points}, "mark": "point",
        "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"},
                     "color": {"field": "group", "type": "nominal"}}})
}

async fn draw(session: &Session, what: &str, spec: Value) -> Result<Drawn, BenchError> {
    let drawn: Drawn = session.eval(what, DRAW, vec![spec, json!(SETTLE_MS)]).await?;
    if drawn.timed.value.as_str() != Some("drawn") {
        return Err(BenchError::Missing(format!("{what}: the chart was not drawn: {}", drawn.timed.value)));
    }
    Ok(drawn)
}

/// One run: a fresh browser on `#/`, the first chart, then `LATER` charts of 1,000 points.
pub async fn measure(base_url: &str, dist: &Path, sizes: &mut Sizes, figures: &mut ChartFigures) -> Result<(), BenchError> {
    let session = Session::open(base_url, "/").await?;
    let outcome = measure_in(&session, dist, sizes, figures).await;
    session.close().await;
    outcome
}

async fn measure_in(session: &Session, dist: &Path, sizes: &mut Sizes, figures: &mut ChartFigures) -> Result<(), BenchError> {
    session.wait_for_tools().await?;
    session.idle(1_000).await?;
    let early: Vec<String> = session.eval("listing the engine files fetched", ENGINE_FETCHED, vec![]).await?;
    if !early.is_empty() {
        return Err(BenchError::Missing(format!("the chart engine was fetched before any chart: {early:?}")));
    }

    let first = draw(session, "drawing the first vega-lite chart", bar_chart()).await?;
    figures.first_frame.push(first.timed.frame);
    let (mut gzip, mut raw, mut files) = (0, 0, Vec::new());
    for url in &first.fetched {
        let Some(path) = dist_path(url, session.base_url()) else { continue };
        let size = sizes.of(dist, &path)?;
        gzip += size.gzip;
        raw += size.raw;
        files.push((path, size.gzip));
    }
    if !files.iter().any(|(path, _)| path.starts_with("charts/")) {
        return Err(BenchError::Missing(format!("the first chart fetched no engine file: {:?}", first.fetched)));
    }
    figures.chunk_gzip.push(gzip as f64);
    figures.chunk_raw.push(raw as f64);
    figures.chunk_files = files;
    clear(session).await?;

    session.start_profile().await?;
    for call in 0..LATER {
        let later = draw(session, "drawing a vega-lite chart of 1,000 points", scatter(call)).await?;
        figures.later_frame.push(later.timed.frame);
        clear(session).await?;
    }
    session.stop_profile().await
}

/// The issue's chart budgets and the engine's size.
pub fn rows(figures: &ChartFigures) -> Vec<Budget<'static>> {
    let files = figures
        .chunk_files
        .iter()
        .map(|(path, gzip)| format!("{path} {:.1} KB", *gzip as f64 / 1_000.0))
        .collect::<Vec<_>>()
        .join(", ");
    vec![
        Budget::new(
            "First `vega-lite` widget in a page: `widget_display` call → chart painted, including the engine's load (cold cache)",
            "≤ 400 ms",
            figures.first_frame.show(1, "ms"),
            figures.first_frame.median().map(|median| median <= 400.0),
        ),
        Budget::new(
            "Each later `vega-lite` widget of 1,000 points (drawn on a canvas): call → chart painted",
            "≤ 50 ms",
            figures.later_frame.show(1, "ms"),
            figures.later_frame.median().map(|median| median <= 50.0),
        ),
        Budget::reported(
            "The chart engine's download (every file the first chart fetched), gzip -9",
            format!(
                "{} gzip -9 ({} raw): {files}",
                figures.chunk_gzip.scaled(1_000.0).show(1, "KB"),
                figures.chunk_raw.scaled(1_000.0).show(1, "KB")
            ),
            !figures.chunk_gzip.is_empty(),
        ),
    ]
}
