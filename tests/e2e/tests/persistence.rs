//! Scenario 4: persistence and sharing after an agent run on a real MCP server (the Python table
//! server, PyPI `mcp`). Undo removes the last widget the agent added and redo brings it back; a
//! reload restores the canvas, the conversation and the server; a share link opens the same
//! dashboard, read-only, in a fresh browser profile. Also: saving while a run is still going (the
//! model is slow to answer) keeps the page working, and the run's end is saved too.

use std::sync::{Arc, Mutex};

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm, calls_to};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::numbers::grouped;
use autoui_e2e::page::Page;
use autoui_e2e::with_app;
use serde_json::{Value, json};
use tokio::sync::Notify;

const ROWS: &str = "table_mcp_list_rows";
const DISPLAY: &str = "autoui_webmcp_widget_display";
const QUESTION: &str = "Show me the cities table";
const ANSWER: &str = "Here are the cities, largest first.";

fn rows(request: &Value) -> Vec<Value> {
    calls_to(request, ROWS)
        .pop()
        .map(|call| call.json()["rows"].clone())
        .and_then(|r| r.as_array().cloned())
        .unwrap_or_default()
}

fn population(row: &Value) -> i64 {
    row["population"].as_i64().unwrap_or_default()
}

fn script(request: &Value, index: usize) -> Reply {
    match index {
        0 => Reply::tool(ROWS, json!({})),
        1 => {
            let rows = rows(request);
            if rows.is_empty() {
                return Reply::text("the table server returned no rows");
            }
            let total: i64 = rows.iter().map(population).sum();
            Reply::tools(vec![
                (
                    DISPLAY,
                    json!({"name": "data-table", "params": {"title": "Cities", "columns": [
                        {"key": "city", "label": "City"}, {"key": "country", "label": "Country"},
                        {"key": "population", "label": "Population", "type": "number"}], "rows": rows}}),
                ),
                (
                    DISPLAY,
                    json!({"name": "stat-card", "params": {"label": "Total population", "value": grouped(total)}}),
                ),
                (
                    DISPLAY,
                    json!({"name": "chart-rich", "params": {"title": "Population by city", "type": "bar",
                        "labels": rows.iter().map(|row| row["city"].clone()).collect::<Vec<_>>(),
                        "data": [{"label": "Population", "values": rows.iter().map(population).collect::<Vec<_>>()}]}}),
                ),
            ])
        }
        _ => Reply::text(ANSWER),
    }
}

/// The widget types on the canvas, in document order.
/// Checks the agent's dashboard is on screen (`what`: "restored", "shared"): its three widgets in
/// order, every city of `rows` with its population in the table, and `total` on the stat card.
async fn assert_dashboard(page: &Page, rows: &[Value], total: &str, what: &str) {
    assert_eq!(
        page.widget_types().await,
        ["data-table", "stat-card", "chart-rich"]
    );
    // The widgets' chunk may still be on its way after a reload: wait for the table's first row.
    let first = rows.first().and_then(|row| row["city"].as_str()).unwrap_or_default();
    page.wait_for_text("[data-widget-type=data-table]", first).await;
    let table = page.text("[data-widget-type=data-table]").await;
    for row in rows {
        let city = row["city"].as_str().unwrap_or_default();
        assert!(
            table.contains(city) && table.contains(&grouped(population(row))),
            "the {what} table shows {city}: {table}"
        );
    }
    page.wait_for_text("[data-widget-type=stat-card]", total)
        .await;
}

#[tokio::test]
async fn a_dashboard_survives_a_reload_undo_removes_the_agents_last_widget_and_a_share_link_reopens_it()
 {
    let server = McpServer::python("table_server.py", Transport::Streamable).await;
    let llm = ScriptedLlm::start(script).await;
    let base = llm.base_url();
    let url = server.url();
    let llm_ref = &llm;
    let link = Arc::new(Mutex::new(String::new()));
    let written = link.clone();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "table").await;
        page.say(QUESTION).await;
        page.wait_for_runs(1).await;
        page.wait_for_text("[data-testid=chat-assistant]", ANSWER)
            .await;

        let rows = rows(&llm_ref.requests()[1]);
        assert_eq!(rows.len(), 5, "the table server's rows reached the model");
        let total = grouped(rows.iter().map(population).sum());
        page.wait_for_count("[data-testid=widget]", 3).await;
        assert_eq!(
            page.widget_types().await,
            ["data-table", "stat-card", "chart-rich"]
        );

        // Undo takes back the agent's last widget; redo restores it.
        page.click("[data-testid=undo]").await;
        page.wait_for_count("[data-testid=widget]", 2).await;
        assert_eq!(
            page.widget_types().await,
            ["data-table", "stat-card"],
            "undo removed the chart, added last"
        );
        page.click("[data-testid=redo]").await;
        page.wait_for_count("[data-testid=widget]", 3).await;

        // A reload restores the canvas, the transcript and the server.
        page.reload().await;
        page.wait_for_count("[data-testid=widget]", 3).await;
        assert_dashboard(&page, &rows, &total, "restored").await;
        page.wait_for_text("[data-testid=chat-user]", QUESTION)
            .await;
        page.wait_for_text("[data-testid=chat-assistant]", ANSWER)
            .await;
        assert_eq!(
            page.count("[data-testid=chat-tool-call]").await,
            4,
            "the restored transcript lists the four calls"
        );
        page.click("[data-testid=open-servers]").await;
        page.wait_for_server("table", "connected with 5 tools")
            .await;
        page.close_servers().await;

        page.click("[data-testid=share]").await;
        let value = page
            .find("[data-testid=share-link]")
            .await
            .prop("value")
            .await
            .ok()
            .flatten()
            .unwrap_or_default();
        assert!(
            value.contains("#hs="),
            "the share link carries the dashboard in its fragment: {value}"
        );
        *written.lock().expect("link") = value;

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;

    let link = link.lock().expect("link").clone();
    let rows = rows(&llm.requests()[1]);
    let total = grouped(rows.iter().map(population).sum());
    with_app(BrowserOptions::default(), |page| async move {
        // A new app server and a fresh profile: only the link carries the dashboard.
        let fragment = link
            .split_once('#')
            .map(|(_, fragment)| fragment.to_owned())
            .unwrap_or_default();
        page.open(&format!("/#{fragment}")).await;
        page.find("[data-testid=read-only-banner]").await;
        page.wait_for_count("[data-testid=widget]", 3).await;
        assert_dashboard(&page, &rows, &total, "shared").await;
        assert!(
            !page.is_displayed("[data-testid=widget-remove]").await,
            "a shared dashboard has no edit tools"
        );
        assert_eq!(
            page.count("[data-testid=chat-user]").await,
            0,
            "the link shares the dashboard, not the conversation"
        );

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
    llm.stop().await;
    drop(server);
}

#[tokio::test]
async fn the_dashboard_is_saved_while_the_model_is_still_answering_and_the_run_ends_normally() {
    let gate = Arc::new(Notify::new());
    let held = gate.clone();
    let llm = ScriptedLlm::start(move |_request: &Value, index| match index {
        0 => Reply::tool(
            DISPLAY,
            json!({"name": "stat-card", "params": {"label": "Saved mid-run", "value": "1"}}),
        ),
        // The model takes its time: the answer waits until the test has seen the canvas saved.
        1 => Reply::Held {
            gate: held.clone(),
            reply: Box::new(Reply::text("Done at last.")),
        },
        _ => Reply::text("one run only"),
    })
    .await;
    let base = llm.base_url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.say("Show one card, slowly").await;
        page.find("[data-widget-type=stat-card]").await;
        page.wait_for_stored("the new widget was saved during the run", "Saved mid-run")
            .await;
        assert_eq!(
            page.find("[data-testid=chat]")
                .await
                .attr("data-running")
                .await
                .ok()
                .flatten()
                .as_deref(),
            Some("true")
        );

        gate.notify_one();
        page.wait_for_runs(1).await;
        page.wait_for_text("[data-testid=chat-assistant]", "Done at last.")
            .await;
        page.wait_for_stored("the whole run was saved after it ended", "Done at last.")
            .await;
        page.reload().await;
        page.find("[data-widget-type=stat-card]").await;
        page.wait_for_text("[data-testid=chat-assistant]", "Done at last.")
            .await;

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
    llm.stop().await;
}
