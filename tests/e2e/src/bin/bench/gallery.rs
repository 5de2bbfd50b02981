//! The gallery in a cold browser: how long from navigation until every widget is in the DOM, every
//! file it fetched until it settled, and the page's memory then (JS heap after a full garbage
//! collection, plus every WebAssembly linear memory the page instantiated).

use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::json;

use crate::BenchError;
use crate::load::{self, Request};
use crate::session::Session;

/// Widgets the gallery must show: one per widget kind (its `gallery-item-*` cells; chart-rich's further
/// examples are `gallery-variant-*` cells, which the timing waits for too).
pub const WIDGETS: usize = 26;
const GIVE_UP: Duration = Duration::from_secs(30);
/// Time left for work the gallery starts after mounting (chart sizing, sandbox frames) before memory is read.
const SETTLE_MS: u64 = 1_500;

#[derive(Clone, Debug)]
pub struct GalleryLoad {
    /// From navigation start until all widgets are in the DOM.
    pub in_dom: f64,
    /// Until the animation frame after that.
    pub frame: f64,
    /// The longest main-thread task that started before then: the gallery's build, mostly.
    pub longest_task: f64,
    pub js_heap: f64,
    pub wasm_memory: f64,
    /// Every request until the page settled (the document included).
    pub requests: Vec<Request>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Marks {
    gallery: Option<f64>,
    gallery_frame: Option<f64>,
    widgets: usize,
    errors: usize,
}

const MARKS: &str = r#"
return {
  gallery: __bench.marks.gallery ?? null,
  galleryFrame: __bench.marks.galleryFrame ?? null,
  widgets: document.querySelectorAll('[data-testid^=gallery-item-]').length,
  errors: document.querySelectorAll('.au-gallery-page__widget [data-testid=widget-error]').length,
};"#;

pub async fn measure(base_url: &str) -> Result<GalleryLoad, BenchError> {
    // Profiled from navigation on, with AUTOUI_CPU_PROFILE set (the last run's profile is kept).
    let session = Session::launch(base_url).await?;
    session.start_profile().await?;
    session.navigate("/#/gallery").await?;
    let outcome = read(&session).await;
    session.close().await;
    outcome
}

async fn read(session: &Session) -> Result<GalleryLoad, BenchError> {
    let deadline = Instant::now() + GIVE_UP;
    let (in_dom, frame) = loop {
        let marks: Marks = session
            .eval("reading the gallery marks", MARKS, vec![])
            .await?;
        if let (Some(in_dom), Some(frame)) = (marks.gallery, marks.gallery_frame) {
            if marks.widgets != WIDGETS {
                return Err(BenchError::Missing(format!(
                    "the gallery shows {} widgets, not {WIDGETS}",
                    marks.widgets
                )));
            }
            if marks.errors > 0 {
                return Err(BenchError::Missing(format!(
                    "{} gallery widgets show an error state",
                    marks.errors
                )));
            }
            session.stop_profile().await?;
            break (in_dom, frame);
        }
        if Instant::now() > deadline {
            return Err(BenchError::Missing(format!(
                "the gallery did not show its widgets within {GIVE_UP:?}"
            )));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    session.idle(SETTLE_MS).await?;
    let longest_task = session
        .eval(
            "reading the long tasks",
            "return Math.max(0, ...__bench.longTasks.filter(([start]) => start < arguments[0]).map(([start, end]) => end - start));",
            vec![json!(in_dom)],
        )
        .await?;
    let requests = settled(session).await?;
    let (js_heap, wasm_memory) = memory(session).await?;
    Ok(GalleryLoad {
        in_dom,
        frame,
        longest_task,
        js_heap,
        wasm_memory,
        requests,
    })
}

/// The requests once the page has settled: the quiet window of the time-to-interactive search.
async fn settled(session: &Session) -> Result<Vec<Request>, BenchError> {
    let deadline = Instant::now() + GIVE_UP;
    loop {
        let timeline = load::timeline(session).await?;
        if load::interactive(&timeline).is_some() {
            return Ok(timeline.requests);
        }
        if Instant::now() > deadline {
            return Err(BenchError::Missing(format!("the gallery did not settle within {GIVE_UP:?}")));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// JS heap in use after a full collection, and the bytes of every WebAssembly memory.
pub async fn memory(session: &Session) -> Result<(f64, f64), BenchError> {
    session
        .cdp("HeapProfiler.collectGarbage", json!({}))
        .await?;
    let heap = session.cdp("Runtime.getHeapUsage", json!({})).await?;
    let js_heap = heap["usedSize"].as_f64().ok_or_else(|| {
        BenchError::Missing(format!("Runtime.getHeapUsage gave no usedSize: {heap}"))
    })?;
    let wasm: f64 = session
        .eval(
            "reading the WebAssembly memories",
            "return __bench.memories.reduce((sum, memory) => sum + memory.buffer.byteLength, 0);",
            vec![],
        )
        .await?;
    if wasm == 0.0 {
        return Err(BenchError::Missing(
            "the probe saw no WebAssembly memory: did the app start?".to_owned(),
        ));
    }
    Ok((js_heap, wasm))
}
