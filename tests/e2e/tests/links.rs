//! Links never act for the viewer: a share link carries the dashboard in its fragment, so the app's
//! static server never sees it (its request log is checked), and a shared dashboard's `actions`
//! button cannot start an agent turn under the viewer's key until the person makes a copy. Older
//! `?hs=` links still open. An imported dashboard's buttons wait until the person allows them, and a
//! reload does not allow them.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm};
use autoui_e2e::page::Page;
use autoui_e2e::with_app;
use serde_json::{Value, json};

const BUTTON: &str = "[data-widget-type=actions] .au-actions__button";

#[tokio::test]
async fn a_shared_dashboards_button_cannot_start_a_turn_and_its_data_stays_out_of_the_server_log() {
    let link = Arc::new(Mutex::new(String::new()));
    let written = link.clone();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        page.click("[data-testid=gallery-add-actions]").await;
        page.open("/#/").await;
        page.find(BUTTON).await;
        let value = page.share_link().await;
        *written.lock().unwrap() = value;
    })
    .await;
    let link = link.lock().unwrap().clone();
    let (_, param) = link.split_once("#hs=").unwrap_or_else(|| panic!("the link carries the dashboard in its fragment: {link}"));
    assert!(!link.contains("?hs="), "{link}");
    let param = param.to_owned();

    let llm = ScriptedLlm::start(|_request: &Value, _index| Reply::text("Noted.")).await;
    let base = llm.base_url();
    let llm_ref = &llm;
    with_app(BrowserOptions::default(), |page| async move {
        page.open(&format!("/#hs={param}")).await;
        // Settings with a key, as a person who uses the agent would have them (this reloads the link).
        page.configure_llm("anthropic", &base).await;
        page.find("[data-testid=read-only-banner]").await;
        page.click(BUTTON).await;
        page.wait_for_text("[data-testid=notice]", "A shared dashboard cannot: make a copy first").await;
        tokio::time::sleep(Duration::from_millis(1_000)).await;
        assert!(llm_ref.requests().is_empty(), "the link's button sent nothing to the model");
        assert_eq!(page.count("[data-testid=chat-user]").await, 0, "no turn started");

        let requests = page.server_requests();
        assert!(!requests.is_empty(), "the server log records requests");
        let leaked: Vec<&String> = requests.iter().filter(|line| line.contains("hs=") || line.contains(&param[..param.len().min(24)])).collect();
        assert!(leaked.is_empty(), "the dashboard reached the server: {leaked:?}");

        // Made their own, its buttons talk to the agent.
        page.click("[data-testid=make-copy]").await;
        page.click(BUTTON).await;
        page.wait_for_runs(1).await;
        assert_eq!(llm_ref.requests().len(), 1, "the copy's button started a turn");

        // An older link with the dashboard in the query still opens, read-only, beside the person's
        // restored conversation (whose messages render before the engine is here).
        page.open(&format!("/?hs={param}")).await;
        page.find("[data-testid=read-only-banner]").await;
        page.find(BUTTON).await;

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
    llm.stop().await;
}

#[tokio::test]
async fn an_imported_dashboards_buttons_wait_for_the_person_even_after_a_reload() {
    let llm = ScriptedLlm::start(|_request: &Value, _index| Reply::text("Noted.")).await;
    let base = llm.base_url();
    let llm_ref = &llm;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        page.click("[data-testid=gallery-add-actions]").await;
        page.open("/#/").await;
        page.find(BUTTON).await;
        page.catch_downloads().await;
        page.click("[data-testid=export-file]").await;
        let file = page.downloaded_text().await.expect("the dashboard was downloaded");

        page.configure_llm("anthropic", &base).await;
        page.click("[data-testid=clear-canvas]").await;
        page.wait_for_count("[data-testid=widget]", 0).await;
        page.import_file(&file, "someone-elses.json").await;
        page.find("[data-testid=imported-banner]").await;
        // The session is saved a moment after a change.
        tokio::time::sleep(Duration::from_millis(1_000)).await;

        // Reloaded before the person allowed them: the buttons still wait.
        page.reload().await;
        page.find("[data-testid=imported-banner]").await;
        page.click(BUTTON).await;
        page.wait_for_text("[data-testid=notice]", "An imported dashboard cannot until you allow its buttons").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert!(llm_ref.requests().is_empty(), "the imported button sent nothing to the model");

        // Allowed, and reloaded: they talk to the agent, and the banner stays gone.
        page.click("[data-testid=allow-buttons]").await;
        tokio::time::sleep(Duration::from_millis(1_000)).await;
        page.reload().await;
        page.find(BUTTON).await;
        assert_eq!(page.count("[data-testid=imported-banner]").await, 0, "the person's choice was saved");
        page.click(BUTTON).await;
        page.wait_for_runs(1).await;
        assert_eq!(llm_ref.requests().len(), 1, "the allowed button started a turn");
    })
    .await;
    llm.stop().await;
}

/// How a frame offers to be moved: its grip, its header's cursor and touch action, and what it says
/// to a screen reader.
async fn frame_moves(page: &Page) -> Value {
    page.eval(
        "const frame = document.querySelector('[data-testid=widget]');
         const header = getComputedStyle(frame.querySelector('.au-frame__header'));
         return [frame.querySelectorAll('.au-frame__grip').length, header.cursor, header.touchAction,
                 frame.getAttribute('aria-label').includes('Arrow keys move it')];",
        vec![],
    )
    .await
}

/// A share link opened in a tab already showing the app (pasted into its address bar: only the
/// fragment changes, so the browser does not load the page) opens the shared dashboard, read-only,
/// whose frames do not offer to move, and leaves the person's own canvas as it was.
#[tokio::test]
async fn a_share_link_opened_in_a_tab_already_showing_the_app_opens_its_dashboard_read_only() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/#/gallery").await;
        page.click("[data-testid=gallery-add-tags]").await;
        page.open("/#/").await;
        page.find("[data-widget-type=tags]").await;
        let link = page.share_link().await;
        assert!(link.contains("#hs="), "a share link: {link}");
        page.open("/#/gallery").await;
        page.click("[data-testid=gallery-add-kv]").await;
        page.open("/#/").await;
        page.wait_for_count("[data-testid=widget]", 2).await;
        // The session is saved a moment after a change.
        tokio::time::sleep(Duration::from_millis(1_000)).await;

        page.client().goto(&link).await.expect("follow the share link");
        page.find("[data-testid=read-only-banner]").await;
        page.wait_for_count("[data-testid=widget]", 1).await;
        assert_eq!(page.widget_types().await, ["tags"], "the shared dashboard, not the person's canvas");
        assert_eq!(frame_moves(&page).await, json!([0, "default", "auto", false]), "a read-only frame offers no move");

        page.open("/").await;
        page.wait_for_count("[data-testid=widget]", 2).await;
        let mut own = page.widget_types().await;
        own.sort();
        assert_eq!(own, ["kv", "tags"], "the person's own canvas is kept");
        assert_eq!(page.count("[data-testid=read-only-banner]").await, 0);
        assert_eq!(frame_moves(&page).await, json!([1, "grab", "none", true]), "the person's frames move");
    })
    .await;
}
