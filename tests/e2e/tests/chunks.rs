//! The code fetched after first paint or on first use (the agent engine, the widgets and their
//! frames on the canvas, the settings drawer, the file tools, the chart engine's own code, `src/deferred.rs`) may not arrive: the network drops, or a new deployment replaced the
//! files. The person sees why, the message they sent and the canvas are kept, and "Retry" / "Try
//! again" / the same click work once the files can be fetched again.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::cdp::cdp;
use autoui_e2e::llm::{Reply, ScriptedLlm, user_texts};
use autoui_e2e::page::Page;
use autoui_e2e::{with_app, with_slow_app};
use serde_json::{Value, json};
use std::time::Duration;

/// The split app's chunks (`autoui-<hash>.split/*.wasm`; their loader script is part of the first load),
/// and the packs that bring several of them as one file (scripts/split-wasm.sh).
const CHUNKS: [&str; 2] = ["*.split/*.wasm", "*.split/*.pack"];
/// The views chunk and the shared chunks it imports, as one file: what a page opened on the gallery
/// or the recipes fetches of them.
const VIEWS_PACK: &str = "*.split/views.pack";

/// The engine's chunk, which also carries the file tools (exports, import, share links).
const ENGINE_CHUNK: &str = "*.split/split_engine.wasm";
/// The store's own code: reading what is stored and share links, and writing; alone or in its pack.
const WRITING_CHUNK: [&str; 2] = ["*.split/split_writing.wasm", "*.split/writing.pack"];
/// Is the store's writing code among the page's fetches, alone or in its pack?
const WRITING_FETCHED: &str = "return performance.getEntriesByType('resource').some((entry) => /split_writing|writing\\.pack/.test(entry.name))";

async fn block_chunks(page: &Page, blocked: bool) {
    block(page, if blocked { CHUNKS.to_vec() } else { Vec::new() }).await;
}

async fn block(page: &Page, urls: Vec<&str>) {
    let client = page.client();
    cdp(client, "Network.enable", json!({})).await.expect("enable the network domain");
    cdp(client, "Network.setBlockedURLs", json!({ "urls": urls }))
        .await
        .expect("block the chunks");
}


/// Console errors this scenario causes on purpose: the blocked chunk fetches.
fn caused_by_blocking(error: &str) -> bool {
    error.contains(".split/") || error.contains("ERR_BLOCKED_BY_CLIENT")
}

/// The page logged no console error but those of the fetches the test blocked.
async fn assert_no_console_errors_but_blocked_fetches(page: &Page) {
    let errors: Vec<String> = page.console_errors().await.into_iter().filter(|e| !caused_by_blocking(e)).collect();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}

#[tokio::test]
async fn a_turn_sent_while_the_agent_cannot_load_is_kept_and_retry_runs_it_once_it_can() {
    let llm = ScriptedLlm::start(|_request, index| match index {
        0 => Reply::tool(
            "autoui_webmcp_widget_display",
            json!({"name": "stat-card", "params": {"label": "Orders", "value": "1,204"}}),
        ),
        _ => Reply::text("Here are today's orders."),
    })
    .await;
    let base_url = llm.base_url();
    with_app(BrowserOptions::default(), |page| async move {
        block_chunks(&page, true).await;
        page.open("/").await;
        page.configure_llm("anthropic", &base_url).await;

        page.say("How many orders today?").await;
        let note = page.wait_for_text("[data-testid=chat-note]", "could not be loaded").await;
        assert!(note.contains("the agent"), "the note names what is missing: {note}");
        assert_eq!(page.texts("[data-testid=chat-user]").await, vec!["How many orders today?"]);
        assert!(page.is_displayed("[data-testid=retry]").await, "Retry is offered");

        block_chunks(&page, false).await;
        page.click("[data-testid=retry]").await;
        // The start that could not load the agent counts as a finished run: Retry's run is the second.
        page.wait_for_runs(2).await;
        page.wait_for_text("[data-widget-type=stat-card]", "1,204").await;
        page.wait_for_text("[data-testid=chat-assistant]", "Here are today's orders.").await;

        assert_no_console_errors_but_blocked_fetches(&page).await;
    })
    .await;
    let requests = llm.requests();
    assert_eq!(requests.len(), 2, "Retry ran the turn once: the widget call, then the answer");
    assert_eq!(
        user_texts(&requests[0]),
        vec!["How many orders today?"],
        "the turn sent while the agent could not load reached the model once, unchanged"
    );
    llm.stop().await;
}

#[tokio::test]
async fn the_gallery_says_it_could_not_load_and_try_again_shows_every_widget() {
    with_app(BrowserOptions::default(), |page| async move {
        block_chunks(&page, true).await;
        page.open("/#/gallery").await;
        let failed = page.wait_for_text("[data-testid=deferred-failed]", "could not be loaded").await;
        assert!(failed.contains("the widgets"), "the message names what is missing: {failed}");
        assert_eq!(page.count("[data-testid^=gallery-item-]").await, 0);

        block_chunks(&page, false).await;
        page.click("[data-testid=deferred-retry]").await;
        page.wait_for_count("[data-testid^=gallery-item-]", 26).await;
        page.wait_for_text("[data-testid=gallery-item-stat-card]", "Add to canvas").await;

        assert_no_console_errors_but_blocked_fetches(&page).await;
    })
    .await;
}

/// On a host slow to send the stylesheets, a page opened on the gallery fetches the widgets' code while
/// they are still coming, instead of after them (the app's own start waits for them; the chunks the
/// gallery needs do not).
#[tokio::test]
async fn the_gallery_fetches_its_widgets_code_while_the_stylesheets_are_still_coming() {
    let held = Duration::from_secs(2);
    let slow = vec![("/app-".to_owned(), held), ("/_common-".to_owned(), held)];
    with_slow_app(slow, BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        page.wait_for_count("[data-testid^=gallery-item-]", 26).await;
        let times = page
            .eval(
                "const entries = performance.getEntriesByType('resource');
                 const views = entries.find((entry) => entry.name.endsWith('/views.pack'));
                 const sheets = entries.filter((entry) => /\\/(app|_common)-[0-9a-f]+\\.css$/.test(entry.name));
                 return [views?.startTime ?? null, sheets.length, Math.min(...sheets.map((entry) => entry.responseEnd))];",
                vec![],
            )
            .await;
        assert_eq!(times[1], 2, "both stylesheets were fetched: {times}");
        let (views, sheets) = (times[0].as_f64().expect("the widgets' chunk was fetched"), times[2].as_f64().unwrap_or_default());
        assert!(sheets >= held.as_millis() as f64, "the stylesheets were held: {times}");
        assert!(views + 1_000.0 < sheets, "the widgets' chunk was asked for {views} ms in, the first stylesheet arrived at {sheets} ms");
    })
    .await;
}

/// The gallery's widgets' code is the views chunk and about twenty small chunks it shares with other
/// parts of the app: a page opened on the gallery fetches them as one file, since a browser queues all
/// but six requests to an HTTP/1.1 host. A host that cannot serve that file still shows the gallery,
/// from the chunks fetched one by one.
#[tokio::test]
async fn the_gallery_fetches_its_widgets_code_in_one_request_or_chunk_by_chunk_when_it_must() {
    // The chunks fetched alone, each as [name, asked for at]; and when the pack arrived.
    const FETCHES: &str = "const entries = performance.getEntriesByType('resource');
        const pack = entries.find((entry) => entry.name.endsWith('/views.pack'));
        const alone = entries.filter((entry) => /\\.split\\/[^/]+\\.wasm$/.test(entry.name))
            .map((entry) => [entry.name.split('/').pop(), entry.startTime]);
        return [alone, pack?.responseEnd ?? null];";
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        page.wait_for_count("[data-testid^=gallery-item-]", 26).await;
        page.wait_for_text("[data-testid=gallery-item-stat-card]", "Add to canvas").await;
        let fetches = page.eval(FETCHES, vec![]).await;
        let pack_in = fetches[1].as_f64().expect("the page fetched views.pack");
        let alone = fetches[0].as_array().expect("a list").clone();
        let before_pack: Vec<&Value> = alone.iter().filter(|fetch| fetch[1].as_f64().unwrap_or_default() < pack_in).collect();
        assert!(before_pack.is_empty(), "chunks were fetched alone while the pack was coming: {before_pack:?}");
        assert!(!alone.iter().any(|fetch| fetch[0] == "split_views.wasm"), "the views chunk came in the pack: {alone:?}");
        assert_eq!(fetched(&page, "views.pack").len(), 1, "the pack was fetched once");

        block(&page, vec![VIEWS_PACK]).await;
        page.reload().await;
        page.wait_for_count("[data-testid^=gallery-item-]", 26).await;
        page.wait_for_text("[data-testid=gallery-item-data-table]", "Add to canvas").await;
        let alone = page.eval(FETCHES, vec![]).await[0].clone();
        let names: Vec<&str> = alone.as_array().expect("a list").iter().filter_map(|fetch| fetch[0].as_str()).collect();
        assert!(names.contains(&"split_views.wasm") && names.len() > 10, "without the pack, the views chunk and its shared chunks came one by one: {names:?}");
        assert_no_console_errors_but_blocked_fetches(&page).await;
    })
    .await;
}

/// Each pack's chunks, as the loader (`__wasm_split.js`) names them: `{"canvas.pack": [[file, offset, length], ...], ...}`.
const PACK_PARTS: &str = r#"
const done = arguments[arguments.length - 1];
const loader = performance.getEntriesByType('resource').find((entry) => entry.name.endsWith('/__wasm_split.js'));
fetch(loader.name).then((response) => response.text()).then((source) => {
  const packs = {};
  for (const [, file, parts] of source.matchAll(/file:\s*"(\w+\.pack)",\s*parts:\s*(\[\[.*?\]\])/gs)) packs[file] = JSON.parse(parts);
  done(packs);
}, (error) => done(String(error)));"#;

/// A page opened on a saved dashboard needs the store's writing code, then the widgets' frames and
/// views: each comes with most of the shared chunks it imports as one file, and no file comes twice.
#[tokio::test]
async fn a_saved_dashboard_fetches_its_code_in_packs_and_nothing_twice() {
    const FETCHES: &str = "return performance.getEntriesByType('resource').map((entry) => entry.name.split('/').pop()).filter((name) => /\\.(wasm|pack)$/.test(name));";
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        for kind in ["stat-card", "data-table"] {
            page.click(&format!("[data-testid=gallery-add-{kind}]")).await;
        }
        page.open("/#/").await;
        page.wait_for_count("[data-widget-type]", 2).await;
        page.wait_for_stored("the data-table was saved", "data-table").await;

        page.reload().await;
        page.wait_for_count("[data-widget-type]", 2).await;
        let fetches: Vec<String> = serde_json::from_value(page.eval(FETCHES, vec![]).await).expect("file names");
        for pack in ["writing.pack", "canvas.pack"] {
            assert_eq!(fetches.iter().filter(|name| *name == pack).count(), 1, "{pack} once: {fetches:?}");
        }
        for alone in ["split_writing.wasm", "split_views.wasm", "split_frames.wasm"] {
            assert!(!fetches.iter().any(|name| name == alone), "{alone} came in a pack: {fetches:?}");
        }
        let mut unique = fetches.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), fetches.len(), "no file fetched twice: {fetches:?}");
        // Nor a chunk both alone and in a pack: the loader names each pack's chunks.
        let packs: Value = page.eval_async(PACK_PARTS, vec![]).await;
        for pack in ["writing.pack", "canvas.pack"] {
            let parts: Vec<&str> = packs[pack].as_array().unwrap_or_else(|| panic!("the loader names {pack}'s chunks: {packs}")).iter().filter_map(|part| part[0].as_str()).collect();
            let twice: Vec<&String> = fetches.iter().filter(|name| parts.contains(&name.as_str())).collect();
            assert!(twice.is_empty(), "fetched alone, though {pack} brought them: {twice:?}");
        }
        assert_no_console_errors_but_blocked_fetches(&page).await;
    })
    .await;
}

/// A visit to the gallery may only look: it fetches the code that saves (and the engine) only once
/// the person does something. Adding a widget from there fetches it, and the widget is saved.
#[tokio::test]
async fn the_gallery_fetches_the_code_that_saves_only_once_the_person_does_something() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        page.wait_for_count("[data-testid^=gallery-item-]", 26).await;
        tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        for deferred in ["split_writing.wasm", "writing.pack", "split_engine.wasm", "split_frames.wasm", "canvas.pack"] {
            assert_eq!(fetched(&page, deferred), Vec::<String>::new(), "a gallery only looked at does not fetch {deferred}");
        }

        page.click("[data-testid=gallery-add-stat-card]").await;
        page.wait_until("the store's writing code is fetched", WRITING_FETCHED).await;
        for frames in ["split_frames.wasm", "canvas.pack"] {
            assert_eq!(fetched(&page, frames), Vec::<String>::new(), "the canvas's widget frames wait until the canvas is shown");
        }
        page.open("/#/").await;
        page.find("[data-widget-type=stat-card]").await;
        // Saved by the code just fetched. (A page closed while that code is still loading loses the
        // change: the unload cannot wait for code.)
        page.wait_for_stored("the added card was saved", "stat-card").await;
        page.reload().await;
        page.find("[data-widget-type=stat-card]").await;
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

/// The frames around the canvas's widgets (drag, resize, toolbar), fetched with the views chunk; alone
/// or in the canvas's pack.
const FRAMES_CHUNK: [&str; 2] = ["*.split/split_frames.wasm", "*.split/canvas.pack"];

#[tokio::test]
async fn widgets_whose_frames_cannot_load_keep_their_place_say_why_and_show_once_they_can() {
    with_app(BrowserOptions::default(), |page| async move {
        block(&page, FRAMES_CHUNK.to_vec()).await;
        page.open("/").await;
        page.find("[data-testid=chat-input]").await;
        for (label, value) in [("Orders", "1,204"), ("Revenue", "€48k")] {
            let shown = page.call_tool("widget_display", json!({"name": "stat-card", "params": {"label": label, "value": value}})).await;
            assert!(shown.get("isError").is_none(), "the widget is on the canvas even before its frame can show: {shown}");
        }
        page.wait_for_count("[data-testid=widget-frame-waiting] [data-testid=deferred-failed]", 2).await;
        let failed = page.text("[data-testid=widget-frame-waiting]").await;
        assert!(failed.contains("the widget frames could not be loaded"), "each widget's place says what is missing: {failed}");
        assert_eq!(page.count("[data-widget-type=stat-card]").await, 0);

        block(&page, Vec::new()).await;
        page.click("[data-testid=deferred-retry]").await;
        page.wait_for_count("[data-widget-type=stat-card]", 2).await;
        page.wait_for_text("[data-widget-type=stat-card]", "1,204").await;
        assert_eq!(page.count("[data-testid=widget-frame-waiting]").await, 0, "one retry brings every frame");
        page.click("[data-testid=undo]").await;
        page.wait_for_count("[data-widget-type=stat-card]", 1).await;

        assert_no_console_errors_but_blocked_fetches(&page).await;
    })
    .await;
}

#[tokio::test]
async fn settings_whose_code_cannot_load_say_so_and_open_once_it_can() {
    with_app(BrowserOptions::default(), |page| async move {
        block(&page, vec!["*.split/split_settings.wasm"]).await;
        page.open("/").await;
        page.find("[data-testid=chat-input]").await;
        assert_eq!(fetched(&page, "split_settings.wasm"), Vec::<String>::new(), "nothing asked for the settings before a press");
        page.click("[data-testid=open-settings]").await;
        let failed = page.wait_for_text("[data-testid=deferred-failed]", "could not be loaded").await;
        assert!(failed.contains("the settings"), "the drawer names what is missing: {failed}");

        block(&page, Vec::new()).await;
        page.click("[data-testid=deferred-retry]").await;
        page.find("[data-testid=settings-model]").await;
        page.click("[data-testid=settings] [aria-label='Close settings']").await;
        page.wait_until("the drawer closes", "return document.querySelector('[data-testid=settings]').hidden;").await;
        page.click("[data-testid=open-settings]").await;
        assert!(page.is_displayed("[data-testid=settings-model]").await, "once here, the drawer opens at once");

        assert_no_console_errors_but_blocked_fetches(&page).await;
    })
    .await;
}

/// The Rust side of the chart engine: fetched with the engine's scripts when a chart is first drawn.
const CHARTS_CHUNK: &str = "*.split/split_charts.wasm";

#[tokio::test]
async fn a_chart_whose_engine_cannot_load_says_so_and_the_next_chart_draws_once_it_can() {
    with_app(BrowserOptions::default(), |page| async move {
        block(&page, vec![CHARTS_CHUNK]).await;
        page.open("/#/gallery").await;
        page.wait_for_count("[data-testid^=gallery-item-]", 26).await;
        let failed = page.wait_for_text("[data-testid=gallery-item-vega-lite] [data-testid=widget-error]", "could not be loaded").await;
        assert!(failed.contains("the chart engine"), "the widget names what is missing: {failed}");
        assert_eq!(page.count("[data-testid^=gallery-item-] [data-testid=widget-error]").await, 1, "only the chart is affected");

        block(&page, Vec::new()).await;
        // Far down the page, under other examples: clicked as a keyboard user would press it.
        page.eval("document.querySelector('[data-testid=gallery-add-vega-lite]').click();", vec![]).await;
        page.open("/#/").await;
        page.wait_for_count("[data-widget-type=vega-lite] figure.au-vega-lite[data-status=drawn]", 1).await;

        assert_no_console_errors_but_blocked_fetches(&page).await;
    })
    .await;
}

/// The widgets' stylesheet is fetched with their chunk; when it cannot be, the widgets still show
/// and work, unstyled, rather than the page waiting for it or failing.
#[tokio::test]
async fn widgets_whose_stylesheet_cannot_load_still_show_and_work() {
    with_app(BrowserOptions::default(), |page| async move {
        block(&page, vec!["*/widgets.css"]).await;
        page.open("/#/gallery").await;
        page.wait_for_count("[data-testid^=gallery-item-]", 26).await;
        let stat = page.wait_for_text("[data-testid=gallery-item-stat-card]", "Add to canvas").await;
        assert!(!stat.trim().is_empty(), "the stat card's example shows: {stat}");
        let styled = page
            .eval(
                "return [...document.styleSheets].some(sheet => { \
                   try { return (sheet.href || '').endsWith('/widgets.css') && sheet.cssRules.length > 0; } \
                   catch (e) { return false; } })",
                Vec::new(),
            )
            .await;
        assert_eq!(styled, json!(false), "the stylesheet really was not loaded");

        page.click("[data-testid=gallery-add-stat-card]").await;
        page.wait_for_text("[data-testid=notice]", "Added the stat-card example").await;
        let errors: Vec<String> = page
            .console_errors()
            .await
            .into_iter()
            .filter(|e| !e.contains("widgets.css") && !e.contains("ERR_BLOCKED_BY_CLIENT"))
            .collect();
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

#[tokio::test]
async fn a_share_whose_file_tools_cannot_load_says_so_keeps_the_canvas_and_works_once_they_can() {
    with_app(BrowserOptions::default(), |page| async move {
        // Blocked from the start: the engine's chunk is fetched right after first paint.
        block(&page, vec![ENGINE_CHUNK]).await;
        page.open("/#/gallery").await;
        page.click("[data-testid=gallery-add-stat-card]").await;
        page.open("/#/").await;
        page.wait_for_count("[data-widget-type=stat-card]", 1).await;

        page.click("[data-testid=share]").await;
        let notice = page.wait_for_text("[data-testid=notices]", "could not be loaded").await;
        assert!(notice.contains("the file tools"), "the notice names what is missing: {notice}");
        assert_eq!(page.count("[data-testid=share-link]").await, 0, "no link was made");
        assert_eq!(page.count("[data-widget-type=stat-card]").await, 1, "the canvas is untouched");

        block(&page, Vec::new()).await;
        let link = page.share_link().await;
        assert!(link.contains("#hs="), "the same click makes the link once the chunk can be fetched: {link}");

        assert_no_console_errors_but_blocked_fetches(&page).await;
    })
    .await;
}

/// Decoding stored work and share links comes with the store's own code (`split_writing`), which a
/// page with something stored, or opened from a share link, fetches before its first paint. When it
/// cannot be fetched, the page says why, shows nothing it could not read and saves nothing over it;
/// once it can, a reload shows the work, and the link opens.
#[tokio::test]
async fn stored_work_and_a_share_link_whose_reading_code_cannot_load_are_said_and_kept_until_it_can() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        page.click("[data-testid=gallery-add-stat-card]").await;
        page.open("/#/").await;
        page.wait_for_count("[data-widget-type=stat-card]", 1).await;
        let link = page.share_link().await;
        let param = link.split_once("#hs=").map(|(_, param)| param.to_owned()).unwrap_or_else(|| panic!("a share link: {link}"));

        block(&page, WRITING_CHUNK.to_vec()).await;
        page.reload().await;
        let notice = page.wait_for_text("[data-testid=notices]", "Your saved work could not be read").await;
        assert!(notice.contains("could not be loaded"), "the notice says why: {notice}");
        assert_eq!(page.count("[data-widget-type=stat-card]").await, 0, "nothing unread is shown");

        page.open(&format!("/#hs={param}")).await;
        page.reload().await;
        let notice = page.wait_for_text("[data-testid=notices]", "This share link could not be opened").await;
        assert!(notice.contains("could not be loaded"), "the notice says why: {notice}");
        assert_eq!(page.count("[data-testid=read-only-banner]").await, 0, "no dashboard was opened");

        block(&page, Vec::new()).await;
        page.reload().await;
        page.find("[data-testid=read-only-banner]").await;
        page.wait_for_count("[data-widget-type=stat-card]", 1).await;

        // The work the blocked pages could not read was not written over.
        page.open("/#/").await;
        page.reload().await;
        page.wait_for_count("[data-widget-type=stat-card]", 1).await;
        assert_eq!(page.count("[data-testid=read-only-banner]").await, 0, "the person's own canvas, editable");

        assert_no_console_errors_but_blocked_fetches(&page).await;
    })
    .await;
}

/// Shows a stat card through WebMCP, then reloads at once (well inside the save's delay): the closing
/// page keeps that save in local storage for the next start.
const ADD_CARD_AND_CLOSE: &str = r#"
const done = arguments[arguments.length - 1];
window.__closing = true;
document.modelContext.executeTool('widget_display', { name: 'stat-card', params: { label: 'Added as the page closed', value: '7' } })
  .then((text) => { done(text); setTimeout(() => location.reload(), 0); }, (error) => done(String(error)));"#;

/// A start that cannot load the code that saves the last changes of the page closed before neither
/// shows nor saves over the older stored work: it says so, the changes wait, and a later start saves them.
#[tokio::test]
async fn the_last_changes_of_a_closed_page_wait_until_the_code_that_saves_them_can_load() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        let shown = page.call_tool("widget_display", json!({"name": "kv", "params": {"rows": [["Region", "West"]]}})).await;
        assert!(shown.get("isError").is_none(), "{shown}");
        page.wait_for_count("[data-widget-type=kv]", 1).await;

        block(&page, WRITING_CHUNK.to_vec()).await;
        let answer = page.eval_async(ADD_CARD_AND_CLOSE, vec![]).await;
        assert!(answer.to_string().contains("w_"), "shown: {answer}");
        page.wait_until("the page has reloaded", "return window.__closing === undefined && document.readyState === 'complete';").await;
        let notice = page.wait_for_text("[data-testid=notices]", "Your saved work could not be read").await;
        assert!(notice.contains("could not be loaded") && notice.contains("last changes"), "the notice says why and what waits: {notice}");
        assert_eq!(page.count("[data-widget-type]").await, 0, "nothing older than the last changes is shown");
        let kept = page.eval("return [localStorage.getItem('autoui.kept-write.v1') !== null, localStorage.getItem('autoui.kept-write.v1.corrupt')];", vec![]).await;
        assert_eq!(kept, json!([true, null]), "the last changes wait where they were, not set aside");

        block(&page, Vec::new()).await;
        page.reload().await;
        page.wait_for_count("[data-widget-type=stat-card]", 1).await;
        page.wait_for_count("[data-widget-type=kv]", 1).await;
        let left = page.eval("return localStorage.getItem('autoui.kept-write.v1');", vec![]).await;
        assert_eq!(left, Value::Null, "the kept write is gone once saved");
        assert_no_console_errors_but_blocked_fetches(&page).await;
    })
    .await;
}

/// The request lines for files whose path contains `needle`.
fn fetched(page: &Page, needle: &str) -> Vec<String> {
    page.server_requests().into_iter().filter(|line| line.contains(needle)).collect()
}

#[tokio::test]
async fn an_empty_canvas_fetches_the_agent_and_the_widgets_only_once_the_person_types() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.find("[data-testid=chat-input]").await;
        // What comes after first paint (the code that saves) is requested by then.
        page.wait_until("the store's writing code is fetched", WRITING_FETCHED).await;
        tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        for deferred in ["split_engine.wasm", "engine.css", "split_views.wasm", "widgets.css", "split_frames.wasm", "canvas.pack", "autoui-validator"] {
            assert_eq!(fetched(&page, deferred), Vec::<String>::new(), "an empty canvas does not fetch {deferred}");
        }

        page.type_into("[data-testid=chat-input]", "S").await;
        // The frames and views chunks, with the shared chunks the writing code did not bring, in one file.
        for needed in ["split_engine.wasm", "engine.css", "canvas.pack", "widgets.css"] {
            page.wait_until(&format!("{needed} is fetched"), &format!("return performance.getEntriesByType('resource').some((entry) => entry.name.includes('{needed}'))")).await;
        }
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

#[tokio::test]
async fn another_agent_listing_the_tools_of_a_page_that_has_not_fetched_the_agent_waits_for_them() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.find("[data-testid=chat-input]").await;
        assert_eq!(fetched(&page, "split_engine.wasm"), Vec::<String>::new(), "nothing asked for the agent yet");
        let names = page
            .eval_async(
                "const done = arguments[0]; document.modelContext.getTools().then((tools) => done(tools.map((tool) => tool.name)));",
                Vec::new(),
            )
            .await;
        let names: Vec<&str> = names.as_array().expect("names").iter().filter_map(Value::as_str).collect();
        assert!(names.contains(&"widget_display"), "the first listing waits for the page's tools: {names:?}");
        let shown = page.call_tool("widget_display", json!({"name": "stat-card", "params": {"label": "Orders", "value": "12"}})).await;
        assert!(shown.get("isError").is_none(), "{shown}");
        page.wait_for_count("[data-widget-type=stat-card]", 1).await;
    })
    .await;
}
