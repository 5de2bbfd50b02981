//! A canvas of 100 widgets (every gallery widget four times, added with the gallery's own buttons):
//! adding one more through `widget_display`, and updating one stat-card through the `canvas` tool,
//! timed in the page, with every DOM node the update touched recorded by a MutationObserver.
//!
//! The page runs with `prefers-reduced-motion: reduce`, so the carousels' auto-play (a timer that
//! moves their slides every few seconds, unrelated to the update) stays off while nodes are counted.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::BenchError;
use crate::display::{self, SETTLE_MS};
use crate::gallery::WIDGETS;
use crate::session::{Session, Timed};
use crate::stats::Samples;

pub const FULL: usize = 100;
/// Notices ("Added a … to the canvas") leave after 6 s; they must be gone before anything is counted.
const NOTICES_GONE_MS: u64 = 7_000;

#[derive(Debug, Default)]
pub struct CanvasFigures {
    pub add_frame: Samples,
    pub add_dom: Samples,
    pub update_dom: Samples,
    pub update_frame: Samples,
    pub update_touched: Samples,
    /// Nodes changed outside the updated widget, summed over every update (must be 0).
    pub update_outside: usize,
    pub outside_sample: Vec<String>,
}

const FILL: &str = r#"
const buttons = [...document.querySelectorAll('[data-testid^=gallery-add-]')];
for (let added = 0; added < arguments[0]; added += 1) buttons[added % buttons.length].click();
return buttons.length;"#;

/// Updates the value of the stat-card `arguments[0]` to `arguments[1]` through the `canvas` tool.
const UPDATE: &str = r#"
const [id, value, settleMs] = arguments;
const frame = () => document.querySelector(`[data-widget-id="${id}"]`);
return __bench.timed({
  act: () => __bench.callTool('canvas', { action: 'update', id, params: { data: { value } } }),
  ready: () => frame()?.querySelector('.au-stat-card__value')?.textContent === value,
  scope: frame,
  settleMs,
}).then((timed) => ({ ...timed, value: null }));"#;

pub async fn measure(
    session: &Session,
    adds: usize,
    updates: usize,
    figures: &mut CanvasFigures,
) -> Result<(), BenchError> {
    let reduce = json!({ "features": [{ "name": "prefers-reduced-motion", "value": "reduce" }] });
    session.cdp("Emulation.setEmulatedMedia", reduce).await?;
    fill(session).await?;
    for add in 0..adds {
        let timed = display::stat_card(session, &format!("Added {add}")).await?;
        figures.add_frame.push(timed.frame);
        figures.add_dom.push(timed.dom);
        let id = timed.value.as_str().unwrap_or_default().to_owned();
        session
            .eval::<Value>(
                "removing the added widget",
                "return __bench.callTool('canvas', { action: 'remove', id: arguments[0] }).then(() => null);",
                vec![json!(id)],
            )
            .await?;
        session.idle(SETTLE_MS).await?;
    }

    let target: Option<String> = session
        .eval("choosing a stat-card", "return document.querySelector('[data-widget-type=stat-card]')?.dataset.widgetId ?? null;", vec![])
        .await?;
    let target = target.ok_or_else(|| {
        BenchError::Missing("the full canvas has no stat-card to update".to_owned())
    })?;
    for update in 0..updates {
        let value = format!("{}", 1_000 + update);
        let timed: Timed = session
            .eval(
                "updating a stat-card",
                UPDATE,
                vec![json!(target), json!(value), json!(SETTLE_MS)],
            )
            .await?;
        figures.update_dom.push(timed.dom);
        figures.update_frame.push(timed.frame);
        figures.update_touched.push(timed.touched as f64);
        figures.update_outside += timed.outside;
        for node in timed.outside_sample {
            if !figures.outside_sample.contains(&node) {
                figures.outside_sample.push(node);
            }
        }
    }
    Ok(())
}

/// Puts `FULL` widgets on the canvas from the gallery, returns to the canvas, and waits until they
/// are all shown and the notices are gone.
async fn fill(session: &Session) -> Result<(), BenchError> {
    session.navigate("/#/gallery").await?;
    wait_for(session, "[data-testid^=gallery-add-]", WIDGETS).await?;
    // One of each kind in turn until there are FULL (26 kinds do not divide 100).
    let buttons: usize = session
        .eval("adding gallery widgets", FILL, vec![json!(FULL)])
        .await?;
    if buttons != WIDGETS {
        return Err(BenchError::Missing(format!(
            "the gallery has {buttons} add buttons, not {WIDGETS}"
        )));
    }
    session
        .eval::<Value>(
            "opening the canvas",
            "location.hash = '#/'; return null;",
            vec![],
        )
        .await?;
    wait_for(session, "[data-testid=widget]", FULL).await?;
    session.idle(NOTICES_GONE_MS).await
}

async fn wait_for(session: &Session, selector: &str, count: usize) -> Result<(), BenchError> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let found: usize = session
            .eval(
                "counting elements",
                "return document.querySelectorAll(arguments[0]).length;",
                vec![json!(selector)],
            )
            .await?;
        if found == count {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(BenchError::Missing(format!(
                "{found} elements match {selector}, not {count}"
            )));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
