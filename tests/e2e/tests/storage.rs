//! Storage that loses nothing (release build, real Chromium): twenty 10,000-row tables come back
//! after a reload with every row; the local storage documents of the previous version move into
//! IndexedDB and leave local storage only once moved; a write the browser refuses (a store whose
//! puts fail as over quota) keeps the last saved state and says what did not fit; a change whose
//! write the store drops as the page closes is kept in local storage and committed by the next
//! start (an unreadable one set aside and said); a message record that no longer reads keeps the
//! conversation up to the last answer before it, and a copy of the whole; a reload in the middle of a run
//! keeps the conversation, and `recall` of a result from before the reload returns its full text; a
//! turn a reload cut short comes back with the person's message and the steps it finished, says it
//! was interrupted and sends it again on Retry, with the activated server's tools offered before
//! that server has reconnected;
//! a second tab follows the first read-only (refusing its own edits with the reason, never
//! overwriting), shows the first tab's new widgets (reading only the records each save put), and
//! takes over when the first tab closes; a browser that refuses the page any store gets a working page
//! that says its work is not kept.

use std::sync::Arc;

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::cdp::cdp;
use autoui_e2e::llm::{Reply, ScriptedLlm, calls_to, exchanges, tool_names};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::page::Page;
use autoui_e2e::with_app;
use serde_json::{Value, json};
use tokio::sync::Notify;

const TABLES: usize = 20;
const ROWS: usize = 10_000;

/// Shows a deterministic `arguments[1]`-row table titled `Table <arguments[0]>` through WebMCP's
/// `widget_display`; answers the new widget's id.
const ADD_TABLE: &str = r#"
const [index, count, done] = arguments;
const rows = Array.from({ length: count }, (_, i) => ({ n: i, city: `City ${index}-${i}`, population: (i * 7919) % 100003 }));
const params = { title: `Table ${index}`, columns: [{ key: 'n', label: 'N', type: 'number' }, { key: 'city', label: 'City' },
  { key: 'population', label: 'Population', type: 'number' }], rows };
const attempt = async (left) => {
  try {
    const result = JSON.parse(await document.modelContext.executeTool('widget_display', { name: 'data-table', params }));
    done(result.structuredContent?.id ?? JSON.stringify(result));
  } catch (error) {
    if (left > 0) setTimeout(() => attempt(left - 1), 100); else done(String(error));
  }
};
attempt(100);"#;

/// For each widget id in `arguments[0]`: its row count and whether every row is the one
/// `ADD_TABLE` made, read back through its `block_<id>_get` tool.
const CHECK_TABLES: &str = r#"
const [ids, done] = arguments;
(async () => {
  const out = [];
  for (const id of ids) {
    const text = await document.modelContext.executeTool(`block_${id}_get`, {});
    const data = JSON.parse(JSON.parse(text).content[0].text).data;
    const index = Number(data.title.replace('Table ', ''));
    const intact = data.rows.every((row, i) => row.n === i && row.city === `City ${index}-${i}` && row.population === (i * 7919) % 100003);
    out.push({ id, rows: data.rows.length, intact });
  }
  done(out);
})().catch((error) => done(String(error)));"#;

/// The session's index record (which blocks the store holds for the canvas), or null.
const SESSION_INDEX: &str = r#"
const done = arguments[arguments.length - 1];
const open = indexedDB.open('autoui');
open.onupgradeneeded = () => open.transaction.abort();
open.onerror = () => done(null);
open.onsuccess = () => {
  const db = open.result;
  const get = db.transaction(['meta'], 'readonly').objectStore('meta').get('session');
  get.onsuccess = () => { db.close(); done(get.result ? JSON.parse(get.result) : null); };
  get.onerror = () => { db.close(); done(null); };
};"#;

async fn stored_block_ids(page: &Page) -> Vec<String> {
    let index = page.eval_async(SESSION_INDEX, vec![]).await;
    serde_json::from_value(index["blocks"].clone()).unwrap_or_default()
}

async fn wait_for_stored_blocks(page: &Page, expected: usize) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while stored_block_ids(page).await.len() != expected {
        assert!(std::time::Instant::now() < deadline, "the store never held {expected} blocks");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

async fn add_table(page: &Page, index: usize, rows: usize) -> String {
    let id = try_add_table(page, index, rows).await;
    assert!(id.starts_with("w_"), "widget_display answered: {id}");
    id
}

/// Opens the app and shows one ten-row table, once the store holds it; returns its id.
async fn open_with_a_saved_table(page: &Page) -> String {
    page.open("/").await;
    let id = add_table(page, 0, 10).await;
    wait_for_stored_blocks(page, 1).await;
    id
}

/// The new widget's id, or what `widget_display` answered instead.
async fn try_add_table(page: &Page, index: usize, rows: usize) -> String {
    let id = page.eval_async(ADD_TABLE, vec![json!(index), json!(rows)]).await;
    id.as_str().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn twenty_tables_of_ten_thousand_rows_survive_a_reload_with_every_row() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        let mut ids = Vec::new();
        for index in 0..TABLES {
            ids.push(add_table(&page, index, ROWS).await);
        }
        wait_for_stored_blocks(&page, TABLES).await;
        // One small edit beside the tables: its save's main-thread time (figures for the report;
        // the budgets are the bench's to judge, this machine is shared).
        let saves = "return performance.getEntriesByName('autoui-save').length;";
        let before = page.eval(saves, vec![]).await;
        let card = page.call_tool("widget_display", json!({ "name": "stat-card", "params": { "label": "Small", "value": "1" } })).await;
        let card = card["structuredContent"]["id"].as_str().unwrap_or_default().to_owned();
        wait_for_stored_blocks(&page, TABLES + 1).await;
        page.call_tool("canvas", json!({ "action": "update", "id": card, "params": { "data": { "value": "2" } } })).await;
        page.wait_until("the small edit was saved", &format!("return performance.getEntriesByName('autoui-save').length > {before} + 1;")).await;
        let save = page.eval("const s = performance.getEntriesByName('autoui-save'); return s[s.length - 1].duration;", vec![]).await;
        eprintln!("figure: save of one small edit beside {TABLES} x {ROWS}-row tables: {save} ms (main thread)");

        page.reload().await;
        page.wait_for_count("[data-widget-type=data-table]", TABLES).await;
        let restore = page.eval("return performance.getEntriesByName('autoui-restore')[0]?.duration ?? null;", vec![]).await;
        let size = page
            .eval_async("const done = arguments[0]; navigator.storage.estimate().then((e) => done(e.usage));", vec![])
            .await;
        eprintln!("figure: full restore (open, read, decode): {restore} ms; origin usage {size} bytes");
        let checked = page.eval_async(CHECK_TABLES, vec![json!(ids)]).await;
        let checked = checked.as_array().unwrap_or_else(|| panic!("tables read back: {checked}"));
        assert_eq!(checked.len(), TABLES);
        assert_eq!(page.count("[data-widget-type=stat-card]").await, 1, "the small edit came back too");
        for table in checked {
            assert_eq!(table["rows"], ROWS, "every row came back: {table}");
            assert_eq!(table["intact"], true, "every row is the one shown before: {table}");
        }
        let counts = page
            .eval("return [...document.querySelectorAll('[data-widget-type=data-table] table')].map((t) => t.getAttribute('aria-rowcount'));", vec![])
            .await;
        assert_eq!(counts, json!(vec![(ROWS + 1).to_string(); TABLES]), "each table says it has every row");

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

/// A session, a dashboards library and a server list as the previous version wrote them.
fn legacy_documents(server_url: &str) -> (String, String, String) {
    let block = |id: &str, label: &str, x: u32| {
        json!({ "id": id, "type": "stat-card", "data": { "label": label, "value": "42" },
                "layout": { "x": x, "y": 0, "w": 3, "h": 2, "z": 0 }, "provenance": { "by": "user" },
                "created_ms": 1.0, "updated_ms": 1.0 })
    };
    let session = json!({
        "autoui": "session", "version": 1, "saved_ms": 1.0,
        "canvas": { "blocks": [block("w_a", "Revenue", 0), block("w_b", "Churn", 3)] },
        "conversation": [
            { "role": "user", "content": [{ "type": "text", "text": "Show revenue and churn" }] },
            { "role": "assistant", "content": [{ "type": "text", "text": "Here they are, from last week." }] },
        ],
    });
    let library = json!({
        "autoui": "dashboards", "version": 1,
        "dashboards": [{ "name": "Quarterly", "saved_ms": 2.0, "canvas": { "blocks": [block("w_q", "Q3 sales", 0)] } }],
    });
    let servers = json!([{ "url": server_url, "name": "table" }]);
    (session.to_string(), library.to_string(), servers.to_string())
}

/// Puts [`legacy_documents`] in local storage, where the previous version kept them.
async fn write_legacy_documents(page: &Page, server_url: &str) {
    let (session, library, servers) = legacy_documents(server_url);
    page.eval(
        "localStorage.setItem('autoui.session.v1', arguments[0]); localStorage.setItem('autoui.dashboards.v1', arguments[1]); localStorage.setItem('autoui.servers.v1', arguments[2]);",
        vec![json!(session), json!(library), json!(servers)],
    )
    .await;
}

#[tokio::test]
async fn the_previous_versions_local_storage_moves_into_indexeddb_with_nothing_lost() {
    let server = McpServer::python("table_server.py", Transport::Streamable).await;
    let url = server.url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        write_legacy_documents(&page, &url).await;
        page.reload().await;

        page.wait_for_count("[data-widget-type=stat-card]", 2).await;
        page.wait_for_text("[data-testid=chat-user]", "Show revenue and churn").await;
        page.wait_for_text("[data-testid=chat-assistant]", "Here they are, from last week.").await;
        page.click("[data-testid=dashboards] summary").await;
        page.wait_for_text("[data-testid=dashboards]", "Quarterly").await;
        page.click("[data-testid=open-servers]").await;
        page.wait_for_server("table", "connected with 5 tools").await;
        page.close_servers().await;

        page.wait_until(
            "the moved documents left local storage",
            "return ['autoui.session.v1', 'autoui.dashboards.v1', 'autoui.servers.v1'].every((k) => localStorage.getItem(k) === null);",
        )
        .await;
        let stored = page.stored_records().await;
        assert!(stored["blocks"]["w_a"].as_str().unwrap_or_default().contains("Revenue"), "{stored}");
        assert!(stored["dashboards"]["Quarterly"].as_str().unwrap_or_default().contains("Q3 sales"), "{stored}");
        assert!(stored["meta"]["servers"].as_str().unwrap_or_default().contains(&url), "{stored}");

        // From now on the store alone brings it back.
        page.reload().await;
        page.wait_for_count("[data-widget-type=stat-card]", 2).await;
        page.wait_for_text("[data-testid=chat-assistant]", "Here they are, from last week.").await;

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
    drop(server);
}

/// Refuses puts into the saved dashboards' store only, as a full origin might refuse their large
/// records while smaller ones still fit.
const DASHBOARDS_REFUSED: &str = r#"
const put = IDBObjectStore.prototype.put;
IDBObjectStore.prototype.put = function (...args) {
  if (this.name === 'dashboards') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  return put.apply(this, args);
};"#;

/// A move of the previous version's documents that the store refuses leaves them where they were,
/// and this page saves nothing over them (a saved session would make the next start take the move
/// for done and remove them): the next start moves them, the saved dashboard with them.
#[tokio::test]
async fn a_move_from_local_storage_the_store_refuses_loses_nothing_and_is_tried_again_at_the_next_start() {
    let server = McpServer::python("table_server.py", Transport::Streamable).await;
    let url = server.url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        write_legacy_documents(&page, &url).await;
        let refusal = cdp(page.client(), "Page.addScriptToEvaluateOnNewDocument", json!({ "source": DASHBOARDS_REFUSED }))
            .await
            .expect("the refusal is installed");
        page.reload().await;
        page.wait_for_text(".au-notices", "could not be moved to this browser's database").await;
        page.wait_for_count("[data-widget-type=stat-card]", 2).await;
        // A change in this page: not saved over the documents.
        add_table(&page, 0, 3).await;
        tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
        assert!(stored_block_ids(&page).await.is_empty(), "nothing was saved in the store");

        cdp(page.client(), "Page.removeScriptToEvaluateOnNewDocument", json!({ "identifier": refusal["identifier"] }))
            .await
            .expect("the refusal is removed");
        page.reload().await;
        page.wait_for_count("[data-widget-type=stat-card]", 2).await;
        page.click("[data-testid=dashboards] summary").await;
        page.wait_for_text("[data-testid=dashboards]", "Quarterly").await;
        page.wait_until(
            "the moved documents left local storage",
            "return ['autoui.session.v1', 'autoui.dashboards.v1', 'autoui.servers.v1'].every((k) => localStorage.getItem(k) === null);",
        )
        .await;
        let stored = page.stored_records().await;
        assert!(stored["dashboards"]["Quarterly"].as_str().unwrap_or_default().contains("Q3 sales"), "{stored}");
    })
    .await;
    drop(server);
}

/// Makes IndexedDB refuse every put the way a full origin does (the quota is used up).
const FULL_STORE: &str = r#"
IDBObjectStore.prototype.put = function () { throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); };"#;

#[tokio::test]
async fn a_write_the_browser_refuses_keeps_the_last_saved_state_and_says_what_did_not_fit() {
    with_app(BrowserOptions::default(), |page| async move {
        let kept = open_with_a_saved_table(&page).await;

        // From now on the browser's store refuses every write as over its quota.
        page.eval(FULL_STORE, vec![]).await;
        add_table(&page, 1, ROWS).await;
        page.wait_for_text(".au-notices", "could not be saved").await;
        let notice = page.text(".au-notices").await;
        assert!(notice.contains(" MB") && notice.contains("delete saved dashboards"), "says the size and what to do: {notice}");
        assert_eq!(page.count("[data-widget-type=data-table]").await, 2, "the canvas in the page is intact");
        assert_eq!(stored_block_ids(&page).await, std::slice::from_ref(&kept), "the store kept the last good state");

        page.reload().await;
        page.wait_for_count("[data-widget-type=data-table]", 1).await;
        page.wait_for_text("[data-widget-type=data-table]", "City 0-9").await;
    })
    .await;
}

/// The question of the `confirm` the page shows, once it is up.
async fn confirm_text(page: &Page) -> String {
    for _ in 0..200 {
        if let Ok(text) = page.client().get_alert_text().await {
            return text;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the page never asked");
}

/// "Make a copy" of a shared dashboard first keeps the person's own canvas as a saved dashboard. When
/// the browser refuses that save, the page asks before replacing their canvas: Cancel keeps it, on
/// screen behind the link's read-only view and in the store; OK takes the shared one anyway.
#[tokio::test]
async fn make_a_copy_whose_save_of_the_previous_canvas_is_refused_asks_before_replacing_it() {
    let link = Arc::new(std::sync::Mutex::new(String::new()));
    let written = link.clone();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        add_table(&page, 5, 3).await;
        *written.lock().unwrap() = page.share_link().await;
    })
    .await;
    let link = link.lock().unwrap().clone();
    let fragment = link.split_once('#').map(|(_, fragment)| fragment.to_owned()).expect("a share link");

    with_app(BrowserOptions::default(), |page| async move {
        let kept = open_with_a_saved_table(&page).await;
        // From now on every write is refused, in this document and in the one the link may open.
        page.eval(FULL_STORE, vec![]).await;
        cdp(page.client(), "Page.addScriptToEvaluateOnNewDocument", json!({ "source": FULL_STORE }))
            .await
            .expect("the refusal is installed");
        page.open(&format!("/#{fragment}")).await;
        page.find("[data-testid=read-only-banner]").await;
        page.wait_for_text("[data-widget-type=data-table]", "City 5-2").await;

        page.click("[data-testid=make-copy]").await;
        let question = confirm_text(&page).await;
        assert!(question.contains("could not be kept as a saved dashboard"), "{question}");
        page.client().dismiss_alert().await.expect("cancel");
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(page.count("[data-testid=read-only-banner]").await, 1, "still the link's read-only view");
        assert_eq!(stored_block_ids(&page).await, std::slice::from_ref(&kept), "the person's canvas is still the stored one");

        page.click("[data-testid=make-copy]").await;
        confirm_text(&page).await;
        page.client().accept_alert().await.expect("replace anyway");
        page.wait_until_gone("[data-testid=read-only-banner]").await;
        page.wait_for_text("[data-widget-type=data-table]", "City 5-2").await;
    })
    .await;
}

/// Makes this browser refuse the page any IndexedDB database, as some private modes and locked-down
/// profiles do; installed before the page's own scripts run, since the page asks for its store first.
const NO_STORE: &str = r#"
IDBFactory.prototype.open = function () { throw new DOMException('The operation is insecure.', 'SecurityError'); };"#;

#[tokio::test]
async fn a_browser_that_refuses_the_store_gets_a_working_page_that_says_its_work_is_not_kept() {
    with_app(BrowserOptions::default(), |page| async move {
        cdp(page.client(), "Page.addScriptToEvaluateOnNewDocument", json!({ "source": NO_STORE }))
            .await
            .expect("the refusal is installed");
        page.open("/").await;
        let notice = page.wait_for_text(".au-notices", "cannot be saved in this browser").await;
        assert!(notice.contains("The operation is insecure."), "the notice gives the browser's reason: {notice}");
        assert!(notice.contains("until this page closes"), "and what it means: {notice}");

        add_table(&page, 0, 10).await;
        page.wait_for_text("[data-widget-type=data-table]", "City 0-9").await;
        // Saving it under a name cannot work either, and says so rather than doing nothing.
        page.click("[data-testid=dashboards] summary").await;
        page.type_into("[data-testid=dashboard-name]", "Sales").await;
        page.click("[data-testid=dashboard-save]").await;
        page.wait_for_text(".au-notices", "This change is not saved: this page has no storage").await;
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

/// Shows a two-row table through WebMCP, then reloads the page at once (well inside the save's
/// delay): the save is still waiting when the page goes.
const ADD_TABLE_AND_CLOSE: &str = r#"
const done = arguments[arguments.length - 1];
const params = { title: 'Added as the page closed', columns: [{ key: 'city', label: 'City' }], rows: [{ city: 'Lyon' }, { city: 'Nantes' }] };
document.modelContext.executeTool('widget_display', { name: 'data-table', params })
  .then((text) => { done(text); setTimeout(() => location.reload(), 0); }, (error) => done(String(error)));"#;

/// After a reload that followed a change the closing page kept aside: both tables show (the second
/// with `text`), the store holds both, and the kept write is gone once committed.
async fn assert_second_table_kept(page: &Page, text: &str) {
    page.wait_for_count("[data-widget-type=data-table]", 2).await;
    page.wait_for_text(".au-canvas__grid", text).await;
    assert_eq!(stored_block_ids(page).await.len(), 2, "the store has it now");
    let left = page.eval("return localStorage.getItem('autoui.kept-write.v1');", vec![]).await;
    assert_eq!(left, Value::Null, "the kept write is gone once committed");
    let errors = page.console_errors().await;
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}

/// Chromium may drop an IndexedDB write begun as the page unloads (here: every write refused from
/// the change on); the closing page keeps it in local storage and the next start commits it.
#[tokio::test]
async fn a_change_the_store_drops_as_the_page_closes_is_there_after_the_reload() {
    with_app(BrowserOptions::default(), |page| async move {
        open_with_a_saved_table(&page).await;

        page.eval(&format!("{FULL_STORE}\nwindow.__closing = true;"), vec![]).await;
        let answer = page.eval_async(ADD_TABLE_AND_CLOSE, vec![]).await;
        assert!(answer.to_string().contains("w_"), "shown: {answer}");
        page.wait_until("the page has reloaded", "return window.__closing === undefined && document.readyState === 'complete';").await;
        assert_second_table_kept(&page, "Nantes").await;
    })
    .await;
}

/// Keeps every write the page begins from now on uncommitted (a slow disk, at its worst): the
/// transaction is kept busy instead of committing, until the page goes and Chromium drops it.
const HOLD_COMMITS: &str = r#"
window.__held = 0;
IDBTransaction.prototype.commit = function () {
  window.__held += 1;
  const store = this.objectStore(this.objectStoreNames[0]);
  const busy = () => { store.count().onsuccess = busy; };
  busy();
};"#;

/// A write still being committed when the page closes is dropped by Chromium; the closing page
/// keeps it in local storage and the next start commits it.
#[tokio::test]
async fn a_change_still_being_saved_as_the_page_closes_is_there_after_the_reload() {
    with_app(BrowserOptions::default(), |page| async move {
        open_with_a_saved_table(&page).await;

        page.eval(HOLD_COMMITS, vec![]).await;
        add_table(&page, 1, 10).await;
        page.wait_until("the save of the second table is being committed", "return window.__held >= 1;").await;
        page.reload().await;
        assert_second_table_kept(&page, "City 1-9").await;
    })
    .await;
}

/// Stops every timer the page sets from now on, as a phone may for a page it hides: a save waiting
/// for its delay then never runs by itself.
const STOP_TIMERS: &str = "window.setTimeout = () => 0;";

/// A phone may end a hidden page without `pagehide`: the save waiting for its delay is begun as
/// soon as the page is hidden.
#[tokio::test]
async fn a_change_waiting_to_be_saved_is_saved_once_the_page_is_hidden() {
    with_app(BrowserOptions::default(), |page| async move {
        open_with_a_saved_table(&page).await;

        page.eval(STOP_TIMERS, vec![]).await;
        add_table(&page, 1, 10).await;
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(stored_block_ids(&page).await.len(), 1, "with its timers stopped, the visible page has not saved yet");
        page.hide_window().await;
        wait_for_stored_blocks(&page, 2).await;

        page.show_window().await;
        page.reload().await;
        page.wait_for_count("[data-widget-type=data-table]", 2).await;
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

/// A kept write that cannot be read is set aside, said, and the rest of the work loads.
#[tokio::test]
async fn a_kept_write_that_cannot_be_read_is_set_aside_and_said() {
    with_app(BrowserOptions::default(), |page| async move {
        open_with_a_saved_table(&page).await;
        page.eval("localStorage.setItem('autoui.kept-write.v1', '{\"puts\": 7}');", vec![]).await;
        page.reload().await;
        page.wait_for_text(".au-notices", "could not be read").await;
        assert!(page.text(".au-notices").await.contains("autoui.kept-write.v1.corrupt"));
        page.wait_for_count("[data-widget-type=data-table]", 1).await;
        let kept = page.eval("return [localStorage.getItem('autoui.kept-write.v1'), localStorage.getItem('autoui.kept-write.v1.corrupt')];", vec![]).await;
        assert_eq!(kept, json!([null, "{\"puts\": 7}"]));

        // When local storage refuses the copy too, the notice does not claim it was kept.
        let refuse_copies = "const set = Storage.prototype.setItem; Storage.prototype.setItem = function (key, value) { \
            if (String(key).endsWith('.corrupt')) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError'); \
            return set.call(this, key, value); };";
        cdp(page.client(), "Page.addScriptToEvaluateOnNewDocument", json!({ "source": refuse_copies })).await.expect("installed");
        page.eval("localStorage.removeItem('autoui.kept-write.v1.corrupt'); localStorage.setItem('autoui.kept-write.v1', '{\"puts\": 8}');", vec![]).await;
        page.reload().await;
        page.wait_for_text(".au-notices", "could not be read").await;
        let notice = page.text(".au-notices").await;
        assert!(notice.contains("not kept: this browser's storage refused a copy"), "{notice}");
        assert!(!notice.contains("kept aside in this browser"), "{notice}");
    })
    .await;
}

/// Replaces the record `arguments[1]` of the store `arguments[0]` with the text `arguments[2]`.
const OVERWRITE_RECORD: &str = r#"
const [store, key, text, done] = arguments;
const open = indexedDB.open('autoui');
open.onsuccess = () => {
  const db = open.result;
  const put = db.transaction([store], 'readwrite').objectStore(store).put(text, key);
  put.onsuccess = () => { db.close(); done(true); };
  put.onerror = () => { db.close(); done(false); };
};
open.onerror = () => done(false);"#;

#[tokio::test]
async fn a_message_that_no_longer_reads_keeps_the_conversation_before_it_and_a_copy_of_the_rest() {
    let llm = ScriptedLlm::start(|_request: &Value, index| Reply::text(["One.", "Two.", "Three."][index.min(2)])).await;
    let base = llm.base_url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.say("first question").await;
        page.wait_for_text("[data-testid=chat-assistant]", "One.").await;
        page.say("second question").await;
        page.wait_for_text("[data-testid=chat]", "Two.").await;
        page.wait_for_stored("the second answer was saved", "Two.").await;

        // The third message (the second question) no longer reads.
        let written = page.eval_async(OVERWRITE_RECORD, vec![json!("messages"), json!("00000002"), json!("{\"role\": \"user\", \"con")]).await;
        assert_eq!(written, json!(true));
        page.reload().await;
        page.wait_for_text(".au-notices", "could not be restored (conversation)").await;
        let notice = page.text(".au-notices").await;
        assert!(notice.contains("up to message 2") && notice.contains("set-aside/"), "{notice}");
        page.wait_for_text("[data-testid=chat-assistant]", "One.").await;
        let chat = page.text("[data-testid=chat]").await;
        assert!(chat.contains("first question") && !chat.contains("Two."), "the conversation up to the first answer: {chat}");
        let stored = page.stored_records().await;
        let kept: Vec<&String> = stored["meta"].as_object().expect("meta records").keys().filter(|key| key.starts_with("set-aside/")).collect();
        assert_eq!(kept.len(), 1, "{stored}");
        assert!(stored["meta"][kept[0].as_str()].as_str().is_some_and(|copy| copy.contains("Two.")), "the unreadable part is kept whole: {stored}");

        // The conversation goes on, and the next start finds nothing it cannot read.
        page.say("third question").await;
        page.wait_for_text("[data-testid=chat]", "Three.").await;
        page.wait_for_stored("the third answer was saved", "Three.").await;
        page.reload().await;
        page.wait_for_text("[data-testid=chat]", "Three.").await;
        let chat = page.text("[data-testid=chat]").await;
        assert!(chat.contains("One.") && chat.contains("third question") && !chat.contains("Two."), "{chat}");
        assert!(!page.text(".au-notices").await.contains("could not be restored"), "the index was written again");
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
    llm.stop().await;
}

const LIST_ROWS: &str = "table_mcp_list_rows";
const RECALL: &str = "autoui_webmcp_recall";

#[tokio::test]
async fn a_reload_mid_run_keeps_the_conversation_and_recall_returns_a_result_from_before() {
    let server = McpServer::python("table_server.py", Transport::Streamable).await;
    let gate = Arc::new(Notify::new());
    let held = gate.clone();
    let llm = ScriptedLlm::start(move |request: &Value, index| match index {
        0 => Reply::tool(LIST_ROWS, json!({})),
        1 => Reply::text("Five cities."),
        // The second run is cut by a reload while the model is still answering.
        2 => Reply::Held { gate: held.clone(), reply: Box::new(Reply::text("too late")) },
        3 => match exchanges(request).into_iter().find(|call| call.name == LIST_ROWS) {
            Some(call) => Reply::tool(RECALL, json!({ "id": call.id })),
            None => Reply::text("the first run is not in the conversation"),
        },
        _ => Reply::text("Recalled."),
    })
    .await;
    let base = llm.base_url();
    let url = server.url();
    let llm_ref = &llm;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "table").await;
        page.say("List the cities").await;
        page.wait_for_text("[data-testid=chat-assistant]", "Five cities.").await;
        page.wait_for_stored("the first run was saved", "Five cities.").await;
        page.say("And again, slowly").await;
        page.wait_until("the second run is waiting for the model", "return document.querySelector('[data-testid=chat]')?.dataset.running === 'true';").await;

        page.reload().await;
        page.wait_for_text("[data-testid=chat-user]", "List the cities").await;
        page.wait_for_text("[data-testid=chat-assistant]", "Five cities.").await;
        page.click("[data-testid=open-servers]").await;
        page.wait_for_server("table", "connected with 5 tools").await;
        page.close_servers().await;
        page.say("What was the full list?").await;
        page.wait_for_text("[data-testid=chat]", "Recalled.").await;

        let requests = llm_ref.requests();
        let original = calls_to(&requests[1], LIST_ROWS).pop().and_then(|call| call.result).expect("the first run's result");
        let recalled = calls_to(requests.last().expect("a request"), RECALL)
            .pop()
            .expect("recall was called");
        assert!(!recalled.is_error, "recall answered: {:?}", recalled.result);
        assert_eq!(recalled.result.as_deref(), Some(original.as_str()), "recall returns the full result from before the reload");

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
    gate.notify_one();
    llm.stop().await;
    drop(server);
}

/// In every page loaded from now on, holds each fetch to the origin `ORIGIN` until
/// `window.__releaseMcp()`: an MCP server there stays "connecting".
const HOLD_SERVER: &str = r#"
(() => {
  const held = [];
  const fetch = window.fetch.bind(window);
  window.__releaseMcp = () => { window.__mcpReleased = true; held.splice(0).forEach((go) => go()); };
  window.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (window.__mcpReleased || !url.startsWith('ORIGIN')) return fetch(input, init);
    return new Promise((go) => held.push(go)).then(() => fetch(input, init));
  };
})();"#;

#[tokio::test]
async fn a_turn_cut_by_a_reload_is_kept_says_so_and_retry_sends_it_with_the_servers_tools_at_once() {
    let server = McpServer::python("table_server.py", Transport::Streamable).await;
    let gate = Arc::new(Notify::new());
    let held = gate.clone();
    let llm = ScriptedLlm::start(move |_: &Value, index| match index {
        0 => Reply::tool(LIST_ROWS, json!({})),
        // The model is still answering the finished step when the page reloads.
        1 => Reply::Held { gate: held.clone(), reply: Box::new(Reply::text("too late")) },
        _ => Reply::text("Five cities, after the reload."),
    })
    .await;
    let base = llm.base_url();
    let url = server.url();
    let llm_ref = &llm;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "table").await;
        page.say("List the cities").await;
        page.wait_until("the model was asked again after the tool step", "return document.querySelector('[data-testid=chat]')?.dataset.running === 'true';").await;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let index = page.eval_async(SESSION_INDEX, vec![]).await;
            if index["in_flight"] == true && index["messages"] == 3 {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "the running turn was never stored: {index}");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(llm_ref.requests().len(), 2);

        // The reloaded page cannot reach the MCP server until the test lets it.
        let origin = url.split("/mcp").next().unwrap_or_default().to_owned();
        cdp(page.client(), "Page.addScriptToEvaluateOnNewDocument", json!({ "source": HOLD_SERVER.replace("ORIGIN", &origin) }))
            .await
            .expect("the hold script is installed");
        page.reload().await;
        page.wait_for_text("[data-testid=chat-user]", "List the cities").await;
        page.wait_for_text("[data-testid=chat-tool-call]", "list_rows").await;
        let note = page.wait_for_text("[data-testid=chat-note]", "interrupted by a reload").await;
        assert!(note.contains("Retry"), "the note says what to do: {note}");
        page.click("[data-testid=open-servers]").await;
        page.wait_for_server("table", "connecting").await;
        page.close_servers().await;

        page.click("[data-testid=retry]").await;
        page.wait_for_text("[data-testid=chat-assistant]", "Five cities, after the reload.").await;
        let requests = llm_ref.requests();
        assert_eq!(requests.len(), 3);
        let retried = &requests[2];
        let offered = tool_names(retried);
        assert!(offered.contains(&LIST_ROWS.to_owned()), "the first request after the reload offers the server's tools: {offered:?}");
        let call = calls_to(retried, LIST_ROWS).pop().expect("the finished step is sent again");
        assert!(call.result.is_some_and(|result| result.contains("Lyon")), "with its result");
        assert!(retried.to_string().contains("List the cities"), "with the person's message");
        assert_eq!(page.count("[data-testid=chat-user]").await, 1, "the message is not shown twice");

        page.eval("window.__releaseMcp();", vec![]).await;
        page.click("[data-testid=open-servers]").await;
        page.wait_for_server("table", "connected with 5 tools").await;
        page.close_servers().await;

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
    gate.notify_one();
    llm.stop().await;
    drop(server);
}

/// Counts the page's `getAll` reads from now on, as `window.__wholeReads` (reading a whole store).
const COUNT_WHOLE_READS: &str = r#"
window.__wholeReads = 0;
const getAll = IDBObjectStore.prototype.getAll;
IDBObjectStore.prototype.getAll = function (...args) { window.__wholeReads += 1; return getAll.apply(this, args); };"#;

/// Served over plain http under a LAN name (an insecure context: no Web Locks), two tabs still
/// have one writer: the second follows read-only and takes over once the first has closed.
#[tokio::test]
async fn without_web_locks_a_second_tab_still_follows_the_first_and_takes_over_when_it_closes() {
    let host = "autoui.lan.test";
    let options = BrowserOptions { loopback_hosts: vec![host.to_owned()], ..BrowserOptions::default() };
    with_app(options, |page| async move {
        let lan = page.url("/").replacen("127.0.0.1", host, 1);
        let client = page.client().clone();
        client.goto(&lan).await.expect("the app on a LAN name");
        assert_eq!(page.eval("return [window.isSecureContext, !!navigator.locks];", vec![]).await, json!([false, false]));
        let first = add_table(&page, 0, 10).await;
        wait_for_stored_blocks(&page, 1).await;

        let tab_a = client.window().await.expect("the first tab");
        let tab_b = client.new_window(true).await.expect("a second tab").handle;
        client.switch_to_window(tab_b.clone()).await.expect("to the second tab");
        client.goto(&lan).await.expect("the app on a LAN name");
        page.find("[data-testid=other-tab-banner]").await;
        let refused = try_add_table(&page, 1, 10).await;
        assert!(refused.contains("another tab"), "the follower's edit is refused with the reason: {refused}");

        client.switch_to_window(tab_a).await.expect("to the first tab");
        client.close_window().await.expect("the first tab closes");
        client.switch_to_window(tab_b).await.expect("to the second tab");
        page.wait_until("the second tab took over", "return !document.querySelector('[data-testid=other-tab-banner]') && !!document.querySelector('[data-testid=canvas-grid]');").await;
        let second = add_table(&page, 2, 10).await;
        wait_for_stored_blocks(&page, 2).await;
        assert_eq!(stored_block_ids(&page).await, [first, second], "nothing either tab added was lost");
    })
    .await;
}

#[tokio::test]
async fn a_second_tab_follows_the_first_read_only_and_takes_over_when_it_closes() {
    with_app(BrowserOptions::default(), |page| async move {
        let first = open_with_a_saved_table(&page).await;
        let client = page.client().clone();
        let tab_a = client.window().await.expect("the first tab");
        let tab_b = client.new_window(true).await.expect("a second tab").handle;
        client.switch_to_window(tab_b.clone()).await.expect("to the second tab");
        page.open("/").await;
        page.find("[data-testid=other-tab-banner]").await;
        page.wait_for_text("[data-widget-type=data-table]", "City 0-9").await;
        page.eval(COUNT_WHOLE_READS, vec![]).await;

        let refused = try_add_table(&page, 1, 10).await;
        assert!(refused.contains("another tab"), "the follower's edit is refused with the reason: {refused}");
        assert_eq!(page.count("[data-widget-type=data-table]").await, 1);

        client.switch_to_window(tab_a.clone()).await.expect("to the first tab");
        let second = add_table(&page, 2, 10).await;
        wait_for_stored_blocks(&page, 2).await;
        client.switch_to_window(tab_b.clone()).await.expect("to the second tab");
        // Timed from here: switching tabs is the driver's time, not the app's (a slow machine spends
        // most of a second on it), and the follower catches up in the background meanwhile.
        let saved = std::time::Instant::now();
        page.wait_for_text("[data-testid=canvas-grid]", "City 2-9").await;
        let followed = saved.elapsed();
        assert!(followed < std::time::Duration::from_secs(1), "the follower showed the saved widget after {followed:?}");
        let whole = page.eval("return window.__wholeReads;", vec![]).await;
        assert_eq!(whole, json!(0), "the follower read only the records the save put, not the whole store");
        assert_eq!(stored_block_ids(&page).await, [first.clone(), second.clone()], "the writer's work is stored whole");

        client.switch_to_window(tab_a).await.expect("to the first tab");
        client.close_window().await.expect("the first tab closes");
        client.switch_to_window(tab_b).await.expect("to the second tab");
        page.wait_until("the second tab took over", "return !document.querySelector('[data-testid=other-tab-banner]') && !!document.querySelector('[data-testid=canvas-grid]');").await;
        page.wait_for_count("[data-widget-type=data-table]", 2).await;
        let third = add_table(&page, 3, 10).await;
        wait_for_stored_blocks(&page, 3).await;
        assert_eq!(stored_block_ids(&page).await, [first, second, third], "nothing either tab added was lost");

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

async fn dashboard_names(page: &Page) -> Vec<String> {
    let names = page
        .eval("return [...document.querySelectorAll('[data-testid=dashboard-open] span')].map((s) => s.textContent);", vec![])
        .await;
    serde_json::from_value(names).unwrap_or_default()
}

#[tokio::test]
async fn export_all_writes_one_file_that_import_reads_back_without_overwriting_anything() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        add_table(&page, 7, 25).await;
        page.click("[data-testid=dashboards] summary").await;
        page.type_into("[data-testid=dashboard-name]", "Sales").await;
        page.click("[data-testid=dashboard-save]").await;
        page.wait_for_text("[data-testid=dashboards]", "Sales").await;

        page.catch_downloads().await;
        page.click("[data-testid=export-all]").await;
        let backup = page.downloaded_text().await.expect("the backup was downloaded");
        assert!(backup.contains("\"autoui\": \"backup\"") && backup.contains("City 7-24") && backup.contains("Sales"), "{backup}");
        let mut document: Value = serde_json::from_str(&backup).expect("JSON");
        assert_eq!(document["session"]["name"], "Sales", "the current canvas's name goes with it");
        document["session"]["name"] = json!("Sales, backed up");
        let backup = document.to_string();

        // A backup from a newer version and a file that is not one are refused, and nothing changes.
        page.import_file("{\"autoui\": \"backup\", \"version\": 9}", "newer.json").await;
        page.wait_for_text("[data-testid=notices]", "newer.json could not be imported").await;
        assert!(page.text("[data-testid=notices]").await.contains("newer autoui"));
        assert_eq!(page.count("[data-widget-type=data-table]").await, 1);

        // On an empty canvas the backup's session comes back whole, and its dashboard beside the saved one.
        page.click("[data-testid=clear-canvas]").await;
        page.wait_for_count("[data-testid=widget]", 0).await;
        page.import_file(&backup, "backup.json").await;
        page.wait_for_text("[data-widget-type=data-table]", "City 7-0").await;
        page.wait_until("the canvas has the backup's name", "return document.title === 'Sales, backed up \u{b7} autoui';").await;
        page.wait_until("both dashboards are listed", "return document.querySelectorAll('[data-testid=dashboard-open]').length === 2;").await;
        assert_eq!(dashboard_names(&page).await.len(), 2);
        assert!(dashboard_names(&page).await.contains(&"Sales (2)".to_owned()), "the saved one is not overwritten");

        // On a canvas with work, the person is asked first; cancelling keeps it as it is.
        page.import_file(&backup, "backup.json").await;
        question_asked(&page).await;
        page.client().dismiss_alert().await.expect("cancel");
        page.wait_until("the third copy is listed", "return document.querySelectorAll('[data-testid=dashboard-open]').length === 3;").await;
        assert_eq!(page.count("[data-widget-type=data-table]").await, 1, "the canvas stayed as it was");
    })
    .await;
}

/// The question the page asks with `confirm`, once it is up.
async fn question_asked(page: &Page) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        if let Ok(text) = page.client().get_alert_text().await {
            return text;
        }
        assert!(std::time::Instant::now() < deadline, "the page never asked");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// What the dashboards menu lists under each name (its widgets and when it was saved).
async fn dashboard_details(page: &Page) -> Vec<String> {
    let details = page.eval("return [...document.querySelectorAll('[data-testid=dashboard-open] small')].map((s) => s.textContent);", vec![]).await;
    serde_json::from_value(details).unwrap_or_default()
}

/// Saving under the name of a saved dashboard replaces it only once the person agrees, and says it
/// did; the name of the dashboard last saved or opened stays in the box, so Save (or Ctrl+S and
/// Enter) updates it. Deleting one asks first as well.
#[tokio::test]
async fn saving_over_or_deleting_a_saved_dashboard_asks_first_and_the_name_stays_for_the_next_save() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        add_table(&page, 1, 5).await;
        // Ctrl+S opens the dashboards menu at the name box (not the browser's "save page"); Enter saves.
        page.press_ctrl('s').await;
        page.wait_until("the name box has the focus", "return document.activeElement.dataset.testid === 'dashboard-name' && document.querySelector('[data-testid=dashboards]').open;").await;
        page.type_into("[data-testid=dashboard-name]", "Sales\n").await;
        page.wait_for_text("[data-testid=notices]", "Saved \u{201c}Sales\u{201d}.").await;
        let details = dashboard_details(&page).await;
        assert!(details.len() == 1 && details[0].starts_with("1 widget \u{b7} "), "its widgets and when it was saved: {details:?}");
        let name_box = "return document.querySelector('[data-testid=dashboard-name]').value;";
        assert_eq!(page.eval(name_box, vec![]).await, json!("Sales"), "the name stays for the next save");

        // Another canvas, saved under that name: the person is asked, and cancelling keeps the saved one.
        page.click("[data-testid=clear-canvas]").await;
        page.wait_for_count("[data-testid=widget]", 0).await;
        add_table(&page, 2, 5).await;
        add_table(&page, 3, 5).await;
        let open_menu = "document.querySelector('[data-testid=dashboards]').open = true;";
        page.eval(open_menu, vec![]).await;
        page.click("[data-testid=dashboard-save]").await;
        let question = question_asked(&page).await;
        assert!(question.starts_with("\u{201c}Sales\u{201d} is saved already (1 widget, saved "), "{question}");
        assert!(question.ends_with("Replace it with this canvas (2 widgets)?"), "{question}");
        page.client().dismiss_alert().await.expect("cancel");
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert!(dashboard_details(&page).await[0].starts_with("1 widget"), "cancelled: the saved dashboard is unchanged");

        page.click("[data-testid=dashboard-save]").await;
        question_asked(&page).await;
        page.client().accept_alert().await.expect("replace");
        page.wait_for_text("[data-testid=notices]", "Replaced the saved \u{201c}Sales\u{201d} with this canvas.").await;
        page.wait_until("the saved one has the new canvas", "return document.querySelector('[data-testid=dashboard-open] small').textContent.startsWith('2 widgets');").await;
        assert_eq!(dashboard_names(&page).await, ["Sales"], "replaced, not added");

        // Opening a saved dashboard puts its name in the box.
        page.eval("const box = document.querySelector('[data-testid=dashboard-name]'); box.value = ''; box.dispatchEvent(new Event('input'));", vec![]).await;
        page.click("[data-testid=clear-canvas]").await;
        page.eval(open_menu, vec![]).await;
        page.click("[data-testid=dashboard-open]").await;
        page.wait_for_count("[data-widget-type=data-table]", 2).await;
        assert_eq!(page.eval(name_box, vec![]).await, json!("Sales"));
        // The toolbar says it too; a click on it goes to the name box, to save it under another.
        assert_eq!(page.text("[data-testid=dashboard-title]").await, "Sales");
        page.click("[data-testid=dashboard-title]").await;
        page.wait_until("the name box has the focus", "return document.activeElement.dataset.testid === 'dashboard-name';").await;
        page.eval("document.querySelector('[data-testid=dashboards]').open = false;", vec![]).await;

        // Deleting a saved dashboard (no undo reaches it) asks first too.
        page.eval(open_menu, vec![]).await;
        page.click("[data-testid=dashboard-delete]").await;
        let question = question_asked(&page).await;
        assert!(question.starts_with("Delete the saved dashboard \u{201c}Sales\u{201d} (2 widgets, saved "), "{question}");
        page.client().dismiss_alert().await.expect("cancel");
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        assert_eq!(dashboard_names(&page).await, ["Sales"], "cancelled: still saved");
        page.click("[data-testid=dashboard-delete]").await;
        question_asked(&page).await;
        page.client().accept_alert().await.expect("delete");
        page.wait_for_text("[data-testid=notices]", "Deleted \u{201c}Sales\u{201d}.").await;
        assert_eq!(dashboard_names(&page).await, Vec::<String>::new());
        assert_eq!(page.eval(name_box, vec![]).await, json!(""), "its name leaves the box with it");
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

#[tokio::test]
async fn a_named_dashboard_keeps_its_name_in_the_tab_after_a_reload_and_in_its_print_file_and_link() {
    with_app(BrowserOptions::default(), |page| async move {
        let title = "return document.title;";
        let name_box = "return document.querySelector('[data-testid=dashboard-name]').value;";
        page.open("/").await;
        assert_eq!(page.eval(title, vec![]).await, json!("autoui"), "no name yet");
        assert_eq!(page.count("[data-testid=dashboard-title]").await, 0);
        add_table(&page, 1, 5).await;
        page.eval("document.querySelector('[data-testid=dashboards]').open = true;", vec![]).await;
        page.type_into("[data-testid=dashboard-name]", "Sales\n").await;
        page.wait_for_text("[data-testid=notices]", "Saved \u{201c}Sales\u{201d}.").await;
        assert_eq!(page.eval(title, vec![]).await, json!("Sales \u{b7} autoui"), "the tab says which dashboard it shows");

        // The session keeps the name: after a reload the tab and the name box still have it.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while page.eval_async(SESSION_INDEX, vec![]).await["name"] != json!("Sales") {
            assert!(std::time::Instant::now() < deadline, "the session was never saved with its name");
            tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        }
        page.reload().await;
        page.wait_for_count("[data-widget-type=data-table]", 1).await;
        assert_eq!(page.eval(title, vec![]).await, json!("Sales \u{b7} autoui"));
        assert_eq!(page.eval(name_box, vec![]).await, json!("Sales"));

        // A print starts with the name and when it was printed; the screen never shows that heading.
        page.eval("dispatchEvent(new Event('beforeprint'));", vec![]).await;
        page.wait_for_count("[data-testid=print-heading]", 1).await;
        assert_eq!(page.text_content("[data-testid=print-heading] h1").await, "Sales");
        let printed = page.text_content("[data-testid=print-heading] p").await;
        let year = page.eval("return String(new Date().getFullYear());", vec![]).await;
        assert!(printed.starts_with("Printed ") && printed.contains(year.as_str().unwrap()) && printed.ends_with(" \u{b7} 1 widget"), "{printed}");
        let shown = "return document.querySelector('[data-testid=print-heading]').checkVisibility();";
        assert_eq!(page.eval(shown, vec![]).await, json!(false), "not on screen");
        autoui_e2e::cdp::cdp(page.client(), "Emulation.setEmulatedMedia", json!({ "media": "print" })).await.expect("print media");
        let on_paper = page.eval(shown, vec![]).await;
        autoui_e2e::cdp::cdp(page.client(), "Emulation.setEmulatedMedia", json!({ "media": "" })).await.expect("screen media");
        assert_eq!(on_paper, json!(true), "on paper");
        page.eval("dispatchEvent(new Event('afterprint'));", vec![]).await;
        page.wait_for_count("[data-testid=print-heading]", 0).await;

        // Its file carries the name; a file's title names the canvas it is imported into, as one line.
        page.catch_downloads().await;
        page.click("[data-testid=export-file]").await;
        let file = page.downloaded_text().await.expect("the dashboard was downloaded");
        let mut document: serde_json::Value = serde_json::from_str(&file).expect("JSON");
        assert_eq!(document["meta"]["title"], json!("Sales"));
        document["meta"]["title"] = json!("Q3\n  review\u{202e}");
        page.import_file(&document.to_string(), "q3.json").await;
        page.find("[data-testid=imported-banner]").await;
        page.wait_until("the import names the canvas", "return document.title === 'Q3 review \u{b7} autoui';").await;
        assert_eq!(page.eval(name_box, vec![]).await, json!("Q3 review"), "the next save is under the file's name");

        // So does its share link, which opens read-only under that name.
        let link = page.share_link().await;
        let fragment = link.split_once('#').map(|(_, fragment)| fragment.to_owned()).expect("a fragment");
        page.open(&format!("/#{fragment}")).await;
        page.wait_for_text("[data-testid=read-only-banner]", "You are viewing a shared dashboard, \u{201c}Q3 review\u{201d}.").await;
        assert_eq!(page.eval(title, vec![]).await, json!("Q3 review \u{b7} autoui"));
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}
