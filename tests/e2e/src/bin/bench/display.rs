//! `widget_display` called the way another agent calls it (through `document.modelContext`), timed in
//! the page from the call until the new widget is in the DOM and until the next animation frame:
//! a stat-card and a 1,000-row data-table, each on an empty canvas.

use serde_json::{Value, json};

use crate::BenchError;
use crate::session::{Session, Timed};
use crate::stats::Samples;

/// Left after each call for the debounced save of the canvas (250 ms) to happen outside the next one.
pub const SETTLE_MS: u64 = 400;

/// Figures for one widget: the session's first call, and the calls after it.
#[derive(Debug, Default)]
pub struct Figures {
    pub first_frame: Samples,
    pub first_dom: Samples,
    pub frame: Samples,
    pub dom: Samples,
    pub returned: Samples,
}

impl Figures {
    fn record(&mut self, first: bool, timed: &Timed) {
        if first {
            self.first_frame.push(timed.frame);
            self.first_dom.push(timed.dom);
        } else {
            self.frame.push(timed.frame);
            self.dom.push(timed.dom);
            self.returned.push(timed.returned);
        }
    }
}

#[derive(Debug, Default)]
pub struct DisplayFigures {
    pub stat_card: Figures,
    pub table: Figures,
}

const STAT_CARD: &str = r#"
return __bench.display('stat-card', arguments[0], arguments[1]).then((timed) => ({ ...timed, value: timed.value?.structuredContent?.id ?? null }));"#;

const TABLE: &str = r#"
const params = __bench.table(arguments[0]);
return __bench.display('data-table', params, arguments[1]).then((timed) => ({ ...timed, value: timed.value?.structuredContent?.id ?? null }));"#;

/// Empties the canvas through the `canvas` tool, then lets the save happen.
pub async fn clear(session: &Session) -> Result<(), BenchError> {
    session
        .eval::<Value>(
            "clearing the canvas",
            "return __bench.callTool('canvas', { action: 'clear' }).then(() => null);",
            vec![],
        )
        .await?;
    session.idle(SETTLE_MS).await
}

pub async fn stat_card(session: &Session, label: &str) -> Result<Timed, BenchError> {
    let params = json!({ "label": label, "value": "142.3", "unit": "k€", "delta": "+12.4%", "trend": "up", "variant": "success" });
    timed(
        session,
        "displaying a stat-card",
        STAT_CARD,
        vec![params, json!(SETTLE_MS)],
    )
    .await
}

pub async fn table(session: &Session, rows: usize) -> Result<Timed, BenchError> {
    timed(
        session,
        &format!("displaying a {rows}-row data-table"),
        TABLE,
        vec![json!(rows), json!(SETTLE_MS)],
    )
    .await
}

async fn timed(
    session: &Session,
    what: &str,
    script: &str,
    args: Vec<Value>,
) -> Result<Timed, BenchError> {
    let timed: Timed = session.eval(what, script, args).await?;
    if timed.value.as_str().is_none() {
        return Err(BenchError::Missing(format!(
            "{what}: widget_display answered without a widget id"
        )));
    }
    Ok(timed)
}

/// In a page that has just become interactive: `stat_cards` stat-card calls then `tables` calls
/// with a 1,000-row table, the canvas emptied after each.
pub async fn measure(
    session: &Session,
    stat_cards: usize,
    tables: usize,
    figures: &mut DisplayFigures,
) -> Result<(), BenchError> {
    for call in 0..stat_cards {
        let timed = stat_card(session, &format!("Revenue {call}")).await?;
        figures.stat_card.record(call == 0, &timed);
        clear(session).await?;
    }
    for call in 0..tables {
        let timed = table(session, 1_000).await?;
        figures.table.record(call == 0, &timed);
        clear(session).await?;
    }
    Ok(())
}
