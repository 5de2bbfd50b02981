//! A very large tool result (issue 15, item 9): what a 200,000-row answer (about 24 MB on the wire)
//! from a real server costs the page's main thread.
//!
//! `tests/servers/bulk_server.py` is added through the servers panel; a scripted model calls its
//! `rows` tool for 200,000 rows in one turn, then answers. The figure is the longest main-thread task
//! (the probe's `longtask` observer, so only tasks of 50 ms or more are seen) from the person's send
//! to that answer in the chat: the body streaming in, the cut, the result reaching the model, the
//! recall buffer and the save. The model must have been told the result was cut, with its size.
//! The same turn with a 100-row result, in a fresh browser too, is the baseline: what a turn costs
//! the page whatever its result (the first send's own work: the chat, the save, the console).

use autoui_e2e::llm::{Reply, ScriptedLlm, calls_to, tool_results};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::page::Page;
use serde_json::{Value, json};

use crate::BenchError;
use crate::session::Session;
use crate::stats::Samples;

pub const ROWS: u64 = 200_000;
/// The baseline turn's rows.
const FEW_ROWS: u64 = 100;
/// Budget for the longest main-thread task while the result arrives, in ms.
const BUDGET_MS: f64 = 200.0;
const TOOL: &str = "bulk_mcp_rows";
const ANSWER: &str = "The rows are in.";

#[derive(Debug, Default)]
pub struct LargeResultFigures {
    /// The longest task (0 when none reached 50 ms).
    pub longest_task: Samples,
    /// The same with a 100-row result.
    pub baseline: Samples,
    /// Send → the model's answer shown, the server's work included.
    pub turn: Samples,
    /// The result's size on the wire, as the note the model got states it.
    pub note: Option<String>,
}

/// Clears the long tasks seen so far and notes the time.
const MARK: &str = "__bench.longTasks.length = 0; return performance.now();";
/// The longest task since `arguments[0]` and the time now.
const LONGEST: &str = "const [since] = arguments; \
    const durations = __bench.longTasks.filter(([start]) => start >= since).map(([start, end]) => end - start); \
    return [Math.max(0, ...durations), performance.now()];";

/// In fresh browsers: the baseline turn, then one that fetches the large result, timed.
pub async fn measure(base_url: &str, figures: &mut LargeResultFigures) -> Result<(), BenchError> {
    let server = McpServer::python("bulk_server.py", Transport::Streamable).await;
    let (baseline, _) = turn(base_url, &server, FEW_ROWS).await?;
    figures.baseline.push(baseline.0);
    let ((longest, elapsed), requests) = turn(base_url, &server, ROWS).await?;
    figures.longest_task.push(longest);
    figures.turn.push(elapsed);
    drop(server);
    let result = requests.last().and_then(|last| calls_to(last, TOOL).pop()).and_then(|call| call.result).unwrap_or_default();
    let Some(note) = result.lines().next().filter(|line| line.starts_with("[result cut: ")) else {
        return Err(BenchError::Missing(format!("the model was not told the result was cut: {}", &result[..result.len().min(300)])));
    };
    figures.note = Some(note.to_owned());
    Ok(())
}

/// One turn fetching `rows` rows in a fresh browser: (longest task, send → answer) and the model's requests.
async fn turn(base_url: &str, server: &McpServer, rows: u64) -> Result<((f64, f64), Vec<Value>), BenchError> {
    let llm = ScriptedLlm::start(move |request: &Value, _index| match tool_results(request).is_empty() {
        true => Reply::tool(TOOL, json!({"count": rows})),
        false => Reply::text(ANSWER),
    })
    .await;
    let session = Session::open(base_url, "/").await?;
    let outcome = one_turn(&session, server, &llm.base_url()).await;
    session.close().await;
    let requests = llm.requests();
    llm.stop().await;
    Ok((outcome?, requests))
}

async fn one_turn(session: &Session, server: &McpServer, llm: &str) -> Result<(f64, f64), BenchError> {
    session.wait_for_tools().await?;
    let page = Page::new(session.client().clone(), session.base_url().to_owned());
    page.configure_llm("anthropic", llm).await;
    page.add_server(&server.url(), "bulk").await;
    let since: f64 = session.eval("marking the start", MARK, vec![]).await?;
    page.say("Fetch all 200,000 rows").await;
    page.wait_for_runs(1).await;
    page.wait_for_text("[data-testid=transcript]", ANSWER).await;
    let (longest, now): (f64, f64) = session.eval("reading the long tasks", LONGEST, vec![json!(since)]).await?;
    Ok((longest, now - since))
}

/// The report's rows: figure, budget, measured, met.
pub fn rows(figures: &LargeResultFigures) -> Vec<(&'static str, &'static str, String, Option<bool>)> {
    let note = figures.note.as_deref().unwrap_or("not measured");
    vec![(
        "Longest main-thread task while a 200,000-row tool result (bulk_server.py, about 24 MB) streams in and its turn ends (longtask, ≥ 50 ms seen; 0: none)",
        "≤ 200 ms",
        format!(
            "{} (the same turn with a 100-row result: {}; send → answer shown: {}; the model was told: {note})",
            figures.longest_task.show(0, "ms"),
            figures.baseline.show(0, "ms"),
            figures.turn.show(0, "ms")
        ),
        figures.longest_task.max().map(|longest| longest <= BUDGET_MS),
    )]
}

/// Only this row, printed (`--mcp-only`).
pub async fn print_only(runs: usize) -> Result<(), BenchError> {
    let app = autoui_e2e::app_server::AppServer::start().await;
    let mut figures = LargeResultFigures::default();
    let mut outcome = Ok(());
    for run in 1..=runs {
        println!("run {run} of {runs}: a 200,000-row tool result");
        outcome = measure(&app.base_url(), &mut figures).await;
        if outcome.is_err() {
            break;
        }
    }
    app.stop().await;
    outcome?;
    for (figure, limit, measured, met) in rows(&figures) {
        println!("{figure}: {measured} ({limit}, {})", match met {
            Some(true) => "met",
            Some(false) => "not met",
            None => "not measured",
        });
    }
    Ok(())
}
