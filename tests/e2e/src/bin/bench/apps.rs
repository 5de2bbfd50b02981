//! MCP Apps views (`tests/servers/view_bench_server.py`, connected through the servers panel):
//! from `widget_display` placing an `mcp-app` widget (what the app does with a tool result) to the
//! view's first painted frame, which the view reports with `size-changed`, its HTML already cached
//! (a first display warms the cache); and a storm of 200 `size-changed` in 1.2 s from one view,
//! sampled every animation frame: how often another widget on the canvas moved or changed size.

use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::page::Page;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::display::{SETTLE_MS, clear, stat_card};
use crate::download::Row;
use crate::session::Session;
use crate::stats::Samples;
use crate::BenchError;

const SERVER: &str = "viewbench";
/// The issue's budget for a tool result to the view's first paint, HTML cached.
const FIRST_PAINT_BUDGET_MS: f64 = 150.0;

#[derive(Debug, Default)]
pub struct AppFigures {
    pub first_paint: Samples,
    /// Animation frames during the storm in which another widget's box differed from before it.
    pub others_moved: Samples,
    pub storm_frames: Samples,
    /// Heights the view's frame took during the storm (it did follow the view).
    pub storm_heights: Samples,
}

fn block(tool: &str, uri: &str) -> Value {
    json!({"server": SERVER, "tool": tool, "uri": uri, "input": {}, "result": {"content": [{"type": "text", "text": "shown"}], "isError": false}})
}

/// From the `widget_display` call to the first `size-changed` a view posts after it.
const FIRST_PAINT: &str = r#"
const [params, done] = [arguments[0], arguments[arguments.length - 1]];
const start = performance.now();
const painted = (event) => {
  if (event.data?.method !== 'ui/notifications/size-changed') return;
  removeEventListener('message', painted);
  done(performance.now() - start);
};
addEventListener('message', painted);
__bench.callTool('widget_display', { name: 'mcp-app', params }).catch((error) => done(String(error)));
"#;

#[derive(Debug, Deserialize)]
struct Storm {
    frames: f64,
    moved: f64,
    heights: f64,
}

/// Places the storm view beside the widgets already on the canvas and samples every frame (the
/// first, once it is placed, is the reference) until the view says "storm done" (or 10 s).
const STORM: &str = r#"
const [params, done] = [arguments[0], arguments[arguments.length - 1]];
const boxes = () => [...document.querySelectorAll('[data-testid=widget]')]
  .filter((widget) => !widget.querySelector('[data-testid=mcp-app]'))
  .map((widget) => { const r = widget.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].join(','); }).join(';');
let before = null;
const heights = new Set();
let frames = 0, moved = 0, finished = false;
const ended = (event) => { if (event.data?.params?.data === 'storm done') finished = true; };
addEventListener('message', ended);
const end = performance.now() + 10000;
const sample = () => {
  frames++;
  if (before === null) before = boxes();
  else if (boxes() !== before) moved++;
  const frame = document.querySelector('[data-testid=mcp-app-frame]');
  if (frame) heights.add(frame.style.height);
  if (finished || performance.now() > end) {
    removeEventListener('message', ended);
    done({ frames, moved, heights: heights.size });
  } else requestAnimationFrame(sample);
};
__bench.callTool('widget_display', { name: 'mcp-app', params }).then(() => requestAnimationFrame(sample), (error) => done(String(error)));
"#;

async fn first_paint(session: &Session, params: Value) -> Result<f64, BenchError> {
    let value = session
        .client()
        .execute_async(FIRST_PAINT, vec![params])
        .await
        .map_err(|error| BenchError::Script { what: "showing a view".to_owned(), error: error.to_string() })?;
    value.as_f64().ok_or_else(|| BenchError::Missing(format!("the view never painted: {value}")))
}

/// One browser: connects the bench server, shows the painted view `paints + 1` times (the first
/// warms the cache and is not counted), then one storm beside a stat-card.
pub async fn measure(base_url: &str, paints: usize, figures: &mut AppFigures) -> Result<(), BenchError> {
    let server = McpServer::python("view_bench_server.py", Transport::Streamable).await;
    let session = Session::open(base_url, "/").await?;
    let outcome = async {
        session.wait_for_tools().await?;
        Page::new(session.client().clone(), base_url.to_owned()).add_server(&server.url(), SERVER).await;
        for paint in 0..=paints {
            let ms = first_paint(&session, block("painted", "ui://bench/painted.html")).await?;
            if paint > 0 {
                figures.first_paint.push(ms);
            }
            clear(&session).await?;
        }
        stat_card(&session, "Beside the storm").await?;
        session.idle(SETTLE_MS).await?;
        let storm = session
            .client()
            .execute_async(STORM, vec![block("size-storm", "ui://bench/storm.html")])
            .await
            .map_err(|error| BenchError::Script { what: "the size-changed storm".to_owned(), error: error.to_string() })?;
        let storm: Storm = serde_json::from_value(storm.clone())
            .map_err(|error| BenchError::Missing(format!("the storm's figures: {storm}: {error}")))?;
        figures.storm_frames.push(storm.frames);
        figures.others_moved.push(storm.moved);
        figures.storm_heights.push(storm.heights);
        clear(&session).await
    }
    .await;
    session.close().await;
    drop(server);
    outcome
}

pub fn rows(figures: &AppFigures) -> Vec<Row> {
    vec![
        Row {
            figure: "MCP Apps: tool result (`widget_display` of `mcp-app`) → the view's first painted frame, its HTML cached",
            limit: "≤ 150 ms",
            measured: figures.first_paint.show(1, "ms"),
            met: figures.first_paint.median().map(|median| median <= FIRST_PAINT_BUDGET_MS),
        },
        Row {
            figure: "MCP Apps: a view's `size-changed` storm (200 in 1.2 s) beside a stat-card: frames in which the other widget moved or resized",
            limit: "0",
            measured: format!(
                "{} of {} frames (the view's frame took {} heights)",
                figures.others_moved.show(0, ""),
                figures.storm_frames.show(0, ""),
                figures.storm_heights.show(0, "")
            ),
            met: figures.others_moved.max().map(|most| most == 0.0),
        },
    ]
}

/// Only these rows, printed (`--apps-only`).
pub async fn print_only(runs: usize) -> Result<(), BenchError> {
    let app = autoui_e2e::app_server::AppServer::start().await;
    let mut figures = AppFigures::default();
    let mut outcome = Ok(());
    for run in 1..=runs {
        println!("run {run} of {runs}: MCP Apps views");
        outcome = measure(&app.base_url(), 10, &mut figures).await;
        if outcome.is_err() {
            break;
        }
    }
    app.stop().await;
    outcome?;
    for row in rows(&figures) {
        println!("{}: {} ({}, {})", row.figure, row.measured, row.limit, match row.met {
            Some(true) => "met",
            Some(false) => "not met",
            None => "not measured",
        });
    }
    Ok(())
}
