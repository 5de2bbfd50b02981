//! A 10,000-row data-table on the canvas: shown through `widget_display`, then scrolled from top to
//! bottom (every row must appear in the viewport with its own data), jumped to its last row, sorted
//! by clicking column headers and filtered by typing in its filter box, each timed in the page until
//! the DOM shows the result and until the next animation frame.

use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::json;

use crate::BenchError;
use crate::display;
use crate::session::{Session, Timed};
use crate::stats::Samples;

pub const ROWS: usize = 10_000;

#[derive(Debug, Default)]
pub struct TableFigures {
    pub display_frame: Samples,
    pub display_dom: Samples,
    pub display_returned: Samples,
    pub sort_number: Samples,
    pub sort_text: Samples,
    pub sort_dom: Samples,
    pub filter_first: Samples,
    pub filter: Samples,
    pub filter_dom: Samples,
    pub jump_to_end: Samples,
    /// Rows that never appeared while scrolling through, per run (must be 0).
    pub unreachable: Vec<usize>,
    /// Rows that appeared with another row's data, per run (must be 0).
    pub misplaced: Vec<usize>,
    pub scroll_steps: Vec<usize>,
}

impl TableFigures {
    fn record_display(&mut self, timed: &Timed) {
        self.display_frame.push(timed.frame);
        self.display_dom.push(timed.dom);
        self.display_returned.push(timed.returned);
    }
}

/// Scrolls the table's own scroller one viewport (less a row) at a time, the way a person paging
/// down would, noting which rows were visible in their place; works for `arguments[1]` ms per call
/// (the state stays in the page) so no call outlasts the WebDriver script timeout.
const SCROLL_THROUGH: &str = r#"
const [restart, budgetMs] = arguments;
const frame = document.querySelector('[data-widget-type=data-table]');
const scroller = frame.querySelector('.au-data-table__scroll');
const header = frame.querySelector('thead').getBoundingClientRect().height;
const total = Number(frame.querySelector('table').getAttribute('aria-rowcount')) - 1;
if (restart) __bench.scrolling = { seen: new Set(), misplaced: 0, steps: 0, top: 0, done: false };
const state = __bench.scrolling;
return (async () => {
  const until = performance.now() + budgetMs;
  while (!state.done && performance.now() < until) {
    scroller.scrollTop = state.top;
    scroller.dispatchEvent(new Event('scroll'));
    await __bench.task();
    const view = scroller.getBoundingClientRect();
    let rowHeight = 0;
    for (const row of scroller.querySelectorAll('tr.au-data-table__row')) {
      const rect = row.getBoundingClientRect();
      rowHeight = rect.height;
      if (rect.height === 0 || rect.bottom <= view.top + header || rect.top >= view.bottom) continue;
      const index = Number(row.getAttribute('aria-rowindex'));
      if (!row.id.endsWith(`-row-${index - 2}`)) state.misplaced += 1;
      state.seen.add(index);
    }
    state.steps += 1;
    if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) state.done = true;
    state.top = scroller.scrollTop + Math.max(rowHeight, scroller.clientHeight - header - rowHeight);
  }
  let unreachable = 0;
  for (let index = 2; index <= total + 1; index += 1) if (!state.seen.has(index)) unreachable += 1;
  if (state.done) {
    scroller.scrollTop = 0;
    scroller.dispatchEvent(new Event('scroll'));
    await __bench.task();
  }
  return { done: state.done, total, unreachable, misplaced: state.misplaced, steps: state.steps };
})();"#;

#[derive(Deserialize)]
struct ScrollThrough {
    done: bool,
    total: usize,
    unreachable: usize,
    misplaced: usize,
    steps: usize,
}

/// Sets the scroller to its end as a person dragging the scrollbar would; ready when the last row is in the DOM.
const JUMP_TO_END: &str = r#"
const frame = document.querySelector('[data-widget-type=data-table]');
const scroller = frame.querySelector('.au-data-table__scroll');
const total = Number(frame.querySelector('table').getAttribute('aria-rowcount'));
return __bench.timed({
  act: () => { scroller.scrollTop = scroller.scrollHeight; },
  ready: () => scroller.querySelector(`tr[aria-rowindex="${total}"]`) !== null,
  scope: () => frame,
}).then(async (timed) => {
  scroller.scrollTop = 0;
  await __bench.settle(50);
  return timed;
});"#;

/// Clicks the sort button of the column labelled `arguments[0]`; ready when the rows shown changed.
const SORT: &str = r#"
const frame = document.querySelector('[data-widget-type=data-table]');
const button = [...frame.querySelectorAll('.au-data-table__sort')]
  .find((candidate) => candidate.querySelector('.au-data-table__label').textContent === arguments[0]);
if (!button) throw new Error(`no column labelled ${arguments[0]}`);
const shown = () => [...frame.querySelectorAll('tr.au-data-table__row')].map((row) => row.id).join();
const before = shown();
return __bench.timed({ act: () => button.click(), ready: () => shown() !== before, scope: () => frame, settleMs: 100 });"#;

/// Types `arguments[0]` into the filter box at once; ready when the count and the rows shown changed.
const FILTER: &str = r#"
const frame = document.querySelector('[data-widget-type=data-table]');
const input = frame.querySelector('.au-data-table__filter-input');
const count = () => frame.querySelector('.au-data-table__count').textContent;
const shown = () => [...frame.querySelectorAll('tr.au-data-table__row')].map((row) => row.id).join();
const [countBefore, shownBefore] = [count(), shown()];
return __bench.timed({
  act: () => { input.value = arguments[0]; input.dispatchEvent(new Event('input', { bubbles: true })); },
  ready: () => count() !== countBefore && shown() !== shownBefore,
  scope: () => frame,
  settleMs: 100,
}).then((timed) => ({ ...timed, value: count() }));"#;

/// On an empty canvas: shows the table `displays` times (keeping the last), then scrolls, sorts and filters it.
pub async fn measure(
    session: &Session,
    displays: usize,
    figures: &mut TableFigures,
) -> Result<(), BenchError> {
    for shown in 0..displays {
        if shown > 0 {
            display::clear(session).await?;
        }
        let timed = display::table(session, ROWS).await?;
        figures.record_display(&timed);
    }

    let through = scroll_through(session).await?;
    if through.total != ROWS {
        return Err(BenchError::Missing(format!(
            "the table says it has {} rows, not {ROWS}",
            through.total
        )));
    }
    figures.unreachable.push(through.unreachable);
    figures.misplaced.push(through.misplaced);
    figures.scroll_steps.push(through.steps);

    for _ in 0..3 {
        let jump: Timed = session
            .eval("jumping to the last row", JUMP_TO_END, vec![])
            .await?;
        figures.jump_to_end.push(jump.frame);
    }

    for (label, samples) in [
        ("Votes", &mut figures.sort_number),
        ("Name", &mut figures.sort_text),
    ] {
        // Ascending, then descending.
        for _ in 0..2 {
            let timed: Timed = session
                .eval(&format!("sorting by {label}"), SORT, vec![json!(label)])
                .await?;
            samples.push(timed.frame);
            figures.sort_dom.push(timed.dom);
        }
    }

    // The first query builds the search index; the empty one shows every row again.
    for (position, query) in ["epr", "deputy 42", "", "soc", ""].into_iter().enumerate() {
        let timed: Timed = session
            .eval(
                &format!("filtering by {query:?}"),
                FILTER,
                vec![json!(query)],
            )
            .await?;
        // Every row without a query, a part of them ("120 of 10,000 rows") with one.
        let count = timed.value.as_str().unwrap_or_default();
        if query.is_empty() == count.contains(" of ") {
            return Err(BenchError::Missing(format!(
                "after filtering by {query:?} the table counts {count:?}"
            )));
        }
        if position == 0 {
            figures.filter_first.push(timed.frame);
        } else {
            figures.filter.push(timed.frame);
        }
        figures.filter_dom.push(timed.dom);
    }
    display::clear(session).await
}

/// Pages through the whole table, a few seconds per script call.
async fn scroll_through(session: &Session) -> Result<ScrollThrough, BenchError> {
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut restart = true;
    loop {
        let through: ScrollThrough = session
            .eval(
                "scrolling through the table",
                SCROLL_THROUGH,
                vec![json!(restart), json!(5_000)],
            )
            .await?;
        if through.done {
            return Ok(through);
        }
        if Instant::now() > deadline {
            return Err(BenchError::Missing(format!(
                "scrolling through the table took over 5 minutes ({} steps)",
                through.steps
            )));
        }
        restart = false;
    }
}

/// Only the 10,000-row table's display, printed: in a fresh page, after one 1,000-row table,
/// `displays` calls a run on an empty canvas, the last of them profiled when `AUTOUI_CPU_PROFILE` is set.
pub async fn print_only(runs: usize, displays: usize) -> Result<(), BenchError> {
    let app = autoui_e2e::app_server::AppServer::start().await;
    let mut figures = TableFigures::default();
    let before = crate::machine::load_average();
    let mut outcome = Ok(());
    for run in 1..=runs {
        println!("run {run} of {runs}: {displays} displays of a {ROWS}-row data-table");
        outcome = display_only(&app.base_url(), displays, &mut figures).await;
        if outcome.is_err() {
            break;
        }
    }
    app.stop().await;
    outcome?;
    println!("{ROWS}-row data-table displayed, call -> painted: {}", figures.display_frame.show(1, "ms"));
    println!(
        "call -> in the DOM: {}; call -> result returned: {}",
        figures.display_dom.show(1, "ms"),
        figures.display_returned.show(1, "ms")
    );
    println!("load average (1, 5, 15 min): {before} before, {} after", crate::machine::load_average());
    Ok(())
}

async fn display_only(base_url: &str, displays: usize, figures: &mut TableFigures) -> Result<(), BenchError> {
    let session = Session::open(base_url, "/").await?;
    let outcome = async {
        session.wait_for_tools().await?;
        // As in the full bench: the app may load modules once it has painted, and the big table
        // comes after smaller ones (the first table in a page also compiles the table's code).
        session.idle(1_000).await?;
        display::table(&session, 1_000).await?;
        for shown in 0..displays {
            display::clear(&session).await?;
            if shown + 1 == displays {
                session.start_profile().await?;
            }
            figures.record_display(&display::table(&session, ROWS).await?);
        }
        session.stop_profile().await
    }
    .await;
    session.close().await;
    outcome
}
