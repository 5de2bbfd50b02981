//! Live dashboards, end to end: the scripted model binds a stat card to `get-time` of npm's
//! `server-basic-vanillajs` (its `structuredContent.time` changes on every call). The card shows the
//! map's output at once, a new time after its refresh button and after a reload (`on_open`), and
//! the name the person gave it by hand over the one its map writes; with
//! the server killed, a refresh marks it stale and keeps its time. A share link of it, opened
//! read-only with the server connected, refreshes nothing and offers no refresh until the person
//! makes it their own. A map
//! error and a schema error come back to the model in the same turn. An interval binding refreshes
//! while the page is visible and calls nothing while its window is minimized (which is what hides a
//! page in headless Chromium: `document.visibilityState` becomes "hidden"). The person edits the
//! card's source from its menu (JSON and jq errors as typed, a schema error that changes nothing, an
//! edit kept across a reload) and unbinds it, after which nothing fetches it. A share link opened
//! where its server is not added lists it (with the host the link says it lives at) and "Connect",
//! calls nothing; Connect adds and connects it from the URL the link carries, nobody typing it, and
//! its binding runs only once the dashboard is made one's own, whose copy still knows the URL after
//! a reload.

use std::time::{Duration, Instant};

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm, tool_results};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::page::Page;
use autoui_e2e::with_app;
use fantoccini::Locator;
use serde_json::{Value, json};

const PACKAGE: &str = "server-basic-vanillajs";
const DISPLAY: &str = "autoui_webmcp_widget_display";
const GET_TIME: &str = "basic_mcp_get-time";
const CARD: &str = "[data-widget-type=stat-card]";

fn bound_card(map: &str) -> Value {
    json!({"name": "stat-card", "params": {"label": "Server time"},
        "source": {"call": GET_TIME, "map": map, "refresh": "on_open"}})
}

fn script(_request: &Value, index: usize) -> Reply {
    match index {
        0 => Reply::tool(DISPLAY, bound_card("{label: \"Server time\", value: .time}")),
        _ => Reply::text("The card shows the server's time and keeps it fresh."),
    }
}

/// The ISO time the card shows (the server's `new Date().toISOString()`).
async fn shown_time(page: &Page) -> String {
    let text = page.wait_for_text(CARD, "Z").await;
    text.split_whitespace().find(|word| word.contains('T') && word.ends_with('Z')).unwrap_or_default().to_owned()
}

async fn wait_for_new_time(page: &Page, old: &str, what: &str) -> String {
    page.wait_until(what, &format!(
        "const card = document.querySelector('{CARD}'); return !!card && card.textContent.includes('Z') && !card.textContent.includes('{old}');"
    )).await;
    shown_time(page).await
}

#[tokio::test]
async fn a_bound_stat_card_refreshes_on_click_and_on_open_goes_stale_without_its_server_and_a_share_link_calls_nothing() {
    let mut server = McpServer::app(PACKAGE).await;
    let llm = ScriptedLlm::start(script).await;
    let base = llm.base_url();
    let url = server.url();
    let server_ref = &mut server;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "basic").await;
        page.say("Show the server's time, kept up to date").await;
        page.wait_for_runs(1).await;

        let first = shown_time(&page).await;
        assert!(first.len() >= 20, "the map's output is shown at once: {first:?}");
        assert_eq!(page.eval("return document.querySelector('[data-testid=widget-freshness]').dataset.stale;", vec![]).await, json!("false"));

        // The refresh button fetches again, without the model.
        page.click("[data-testid=widget-refresh]").await;
        let refreshed = wait_for_new_time(&page, &first, "the refresh shows a new time").await;
        page.click("[data-testid=refresh-all]").await;
        let again = wait_for_new_time(&page, &refreshed, "Refresh all shows a new time").await;

        // Renamed by hand (F2), it keeps the person's name through its refreshes, though its map
        // writes one.
        page.client().find(Locator::Css(CARD)).await.expect("the card").send_keys("\u{e032}").await.expect("F2");
        page.client().find(Locator::Css("[data-testid=widget-rename]")).await.expect("the rename box")
            .send_keys("\u{e009}a\u{e000}Paris clock\u{e007}").await.expect("type a name");
        page.wait_for_text(&format!("{CARD} .au-frame__title"), "Paris clock").await;
        page.click("[data-testid=widget-refresh]").await;
        let again = wait_for_new_time(&page, &again, "the renamed card refreshes").await;
        assert_eq!(page.text(&format!("{CARD} .au-frame__title")).await, "Paris clock", "the refresh kept the name");

        // on_open: a reload fetches again once the server is back.
        page.reload().await;
        let reopened = wait_for_new_time(&page, &again, "the reload refreshes the on_open binding").await;
        assert_eq!(page.text(&format!("{CARD} .au-frame__title")).await, "Paris clock", "and so did the refresh on open");

        // Share it now, while it is fresh.
        let link = page.share_link().await;
        let fragment = link.split_once('#').map(|(_, fragment)| fragment.to_owned()).expect("a share link");

        // Opened read-only with the server connected: nothing refreshes, no button to.
        page.open(&format!("/#{fragment}")).await;
        // Only the fragment changed: the browser does not load the page again by itself.
        page.reload().await;
        page.find("[data-testid=read-only-banner]").await;
        page.wait_for_text(CARD, &reopened).await;
        page.click("[data-testid=open-servers]").await;
        page.wait_for_server("basic", "connected with").await;
        page.close_servers().await;
        page.eval_async("const done = arguments[0]; setTimeout(done, 3000);", vec![]).await;
        assert!(page.text(CARD).await.contains(&reopened), "a shared link does not run its bindings");
        assert_eq!(page.count("[data-testid=widget-refresh]").await, 0);
        assert_eq!(page.count("[data-testid=refresh-all]").await, 0);
        // Made one's own, it can be refreshed.
        page.click("[data-testid=make-copy]").await;
        page.click("[data-testid=widget-refresh]").await;
        let owned = wait_for_new_time(&page, &reopened, "the copy refreshes").await;

        // The server goes down: the refresh fails, the card keeps its time and is marked stale.
        server_ref.kill();
        page.click("[data-testid=widget-refresh]").await;
        page.wait_until("the card is marked stale",
            "const f = document.querySelector('[data-testid=widget-freshness]'); return !!f && f.dataset.stale === 'true';").await;
        assert!(page.text(CARD).await.contains(&owned), "a failed refresh keeps the last good data");
        let tip = page.eval("return document.querySelector('[data-testid=widget-freshness]').title;", vec![]).await;
        assert!(tip.as_str().unwrap_or_default().starts_with("Stale: the last refresh failed"), "{tip}");

        let errors = page.console_errors().await;
        assert!(errors.iter().all(|error| error.contains("127.0.0.1")), "console errors: {errors:#?}");
    })
    .await;
    llm.stop().await;
    drop(server);
}

fn wrong_maps(_request: &Value, index: usize) -> Reply {
    match index {
        0 => Reply::tool(DISPLAY, bound_card("{value: .time.hours.x}")),
        1 => Reply::tool(DISPLAY, bound_card("{value: .time, variant: 7}")),
        _ => Reply::text("I could not bind the card."),
    }
}

#[tokio::test]
async fn a_map_error_and_a_schema_error_come_back_to_the_model_in_the_same_turn() {
    let server = McpServer::app(PACKAGE).await;
    let llm = ScriptedLlm::start(wrong_maps).await;
    let base = llm.base_url();
    let url = server.url();
    let llm_ref = &llm;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "basic").await;
        page.say("Show the server's time").await;
        page.wait_for_runs(1).await;

        let requests = llm_ref.requests();
        assert_eq!(requests.len(), 3, "one turn: two failed displays, then the answer");
        let map_error = tool_results(&requests[1]).join("\n");
        assert!(map_error.contains("source: the map failed"), "{map_error}");
        let schema_error = tool_results(&requests[2]).join("\n");
        assert!(schema_error.contains("Validation failed") && schema_error.contains("/variant"), "{schema_error}");
        assert!(schema_error.contains("map_output"), "{schema_error}");
        assert_eq!(page.count("[data-testid=widget]").await, 0, "nothing was shown");
    })
    .await;
    llm.stop().await;
    drop(server);
}

fn interval_card(_request: &Value, index: usize) -> Reply {
    match index {
        0 => Reply::tool(DISPLAY, json!({"name": "stat-card", "params": {"label": "Server time"},
            "source": {"call": GET_TIME, "map": "{value: .time}", "refresh": "every 10s"}})),
        _ => Reply::text("The card refreshes every 10 seconds."),
    }
}

/// How many requests the page has sent to the MCP server at `origin` so far (resource timing sees
/// every `fetch`, its tool calls included).
async fn requests_to(page: &Page, origin: &str) -> u64 {
    page.eval(
        "return performance.getEntriesByType('resource').filter(entry => entry.name.startsWith(arguments[0])).length;",
        vec![json!(origin)],
    )
    .await
    .as_u64()
    .unwrap_or_default()
}

async fn card_text(page: &Page) -> String {
    page.text_content(CARD).await
}


/// Waits up to `limit` for the card to show a time other than `old`.
async fn wait_for_change(page: &Page, old: &str, limit: Duration, what: &str) -> String {
    let deadline = Instant::now() + limit;
    loop {
        let text = card_text(page).await;
        if text.contains('Z') && !text.contains(old) {
            return text;
        }
        assert!(Instant::now() < deadline, "{what}: the card still shows {text:?} after {limit:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Has the scripted model show a card bound to the server at `url` every 10 seconds; returns the
/// time it shows first.
async fn show_interval_card(page: &Page, llm_base: &str, url: &str) -> String {
    page.open("/").await;
    page.configure_llm("anthropic", llm_base).await;
    page.add_server(url, "basic").await;
    page.say("Show the server's time, every 10 seconds").await;
    page.wait_for_runs(1).await;
    shown_time(page).await
}

#[tokio::test]
async fn an_interval_binding_refreshes_while_the_page_is_visible_and_calls_nothing_while_it_is_hidden() {
    let server = McpServer::app(PACKAGE).await;
    let llm = ScriptedLlm::start(interval_card).await;
    let base = llm.base_url();
    let url = server.url();
    let origin = server.base_url();
    with_app(BrowserOptions::default(), |page| async move {
        let first = show_interval_card(&page, &base, &url).await;

        // Visible: the interval fetches again by itself (10 s, checked every second).
        let second = wait_for_change(&page, &first, Duration::from_secs(25), "visible, the interval refreshes").await;

        // Hidden for more than two intervals: no request reaches the server, the card keeps its time.
        page.hide_window().await;
        let hidden_text = card_text(&page).await;
        let before = requests_to(&page, &origin).await;
        tokio::time::sleep(Duration::from_secs(25)).await;
        assert_eq!(requests_to(&page, &origin).await, before, "no call while the page is hidden");
        assert_eq!(card_text(&page).await, hidden_text, "nothing refreshed while hidden ({second})");

        // Visible again: the overdue refresh runs at once (within the scheduler's tick).
        page.show_window().await;
        let time = hidden_text.split_whitespace().find(|word| word.ends_with('Z')).unwrap_or_default().to_owned();
        wait_for_change(&page, &time, Duration::from_secs(8), "visible again, the overdue refresh runs").await;
        assert!(requests_to(&page, &origin).await > before, "the refresh called the server");
    })
    .await;
    llm.stop().await;
    drop(server);
}

/// Takes the browser off the network, or puts it back (DevTools' emulation, which the page sees as
/// `navigator.onLine` and its `offline` and `online` events).
async fn set_offline(page: &Page, offline: bool) {
    let conditions = json!({"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1});
    autoui_e2e::cdp::cdp(page.client(), "Network.enable", json!({})).await.expect("network domain");
    autoui_e2e::cdp::cdp(page.client(), "Network.emulateNetworkConditions", conditions).await.expect("network conditions");
}

/// A refresh that fails while the browser is offline marks the card stale and backs off (20 s, then
/// 40 s...); once the browser is back online, the card is fetched again at once.
#[tokio::test]
async fn back_online_a_card_whose_refresh_failed_is_fetched_again_at_once() {
    let server = McpServer::app(PACKAGE).await;
    let llm = ScriptedLlm::start(interval_card).await;
    let base = llm.base_url();
    let url = server.url();
    with_app(BrowserOptions::default(), |page| async move {
        let first = show_interval_card(&page, &base, &url).await;

        set_offline(&page, true).await;
        assert_eq!(page.eval("return navigator.onLine;", vec![]).await, json!(false));
        let stale = "const f = document.querySelector('[data-testid=widget-freshness]'); return !!f && f.dataset.stale === 'true';";
        // Within the next interval (10 s, checked every second).
        let deadline = Instant::now() + Duration::from_secs(15);
        while page.eval(stale, vec![]).await != json!(true) {
            assert!(Instant::now() < deadline, "offline, the interval's refresh never failed");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        assert!(card_text(&page).await.contains(&first), "a failed refresh keeps the data");

        set_offline(&page, false).await;
        wait_for_change(&page, &first, Duration::from_secs(6), "back online, the card is fetched again at once").await;
        page.wait_until("the card is fresh again", &stale.replace("=== 'true'", "=== 'false'")).await;
    })
    .await;
    llm.stop().await;
    drop(server);
}

/// The model shows a card bound to the live counter, refreshed as `refresh` says.
fn counter_card(refresh: &'static str) -> impl Fn(&Value, usize) -> Reply + Send + Sync + 'static {
    move |_request, index| match index {
        0 => Reply::tool(DISPLAY, json!({"name": "stat-card", "params": {"label": "Count"},
            "source": {"resource": "live://counter", "map": "{value: (.count | tostring)}", "refresh": refresh}})),
        _ => Reply::text("The card shows the counter."),
    }
}

/// `tests/servers/live_server.py`'s counter stays 0 until a client subscribes to it, then goes up
/// every second with `notifications/resources/updated`: a card bound to it with a manual refresh
/// can only show a higher count if the app subscribed and refreshed on the server's word.
#[tokio::test]
async fn a_card_bound_to_a_subscribed_resource_follows_the_server_without_the_model() {
    let server = McpServer::python("live_server.py", Transport::Streamable).await;
    let llm = ScriptedLlm::start(counter_card("manual")).await;
    let base = llm.base_url();
    let url = server.url();
    let llm_ref = &llm;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "live").await;
        page.say("Show the live counter").await;
        page.wait_for_runs(1).await;
        let count = format!("return Number(document.querySelector('{CARD} .au-stat-card__value')?.textContent ?? -1);");
        page.wait_until("the card follows the counter past 2", &format!("{} >= 2;", count.trim_end_matches(';'))).await;
        assert_eq!(llm_ref.requests().len(), 2, "the model was asked once: display, then its answer");
        assert_eq!(page.eval("return document.querySelector('[data-testid=widget-freshness]').dataset.stale;", vec![]).await, json!("false"));
    })
    .await;
    llm.stop().await;
    drop(server);
}

/// A reload starts every server connecting again; here each request is slowed (DevTools' latency) so
/// that takes longer than the scheduler's first tick. A card bound to a resource, which names no
/// server, waits until a connected server lists it, then refreshes (`on_open`): it does not fail
/// stale before the servers are back and wait its back-off.
#[tokio::test]
async fn after_a_reload_a_card_bound_to_a_resource_waits_for_its_server_instead_of_going_stale() {
    let server = McpServer::python("live_server.py", Transport::Streamable).await;
    let llm = ScriptedLlm::start(counter_card("on_open")).await;
    let base = llm.base_url();
    let url = server.url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "live").await;
        page.say("Show the live counter").await;
        page.wait_for_runs(1).await;
        let count = format!("Number(document.querySelector('{CARD} .au-stat-card__value')?.textContent ?? -1)");
        page.wait_until("the card shows the counter", &format!("return {count} >= 0;")).await;
        let before = page.eval(&format!("return {count};"), vec![]).await.as_i64().unwrap();

        let slow = json!({"offline": false, "latency": 400, "downloadThroughput": -1, "uploadThroughput": -1});
        autoui_e2e::cdp::cdp(page.client(), "Network.enable", json!({})).await.expect("network domain");
        autoui_e2e::cdp::cdp(page.client(), "Network.emulateNetworkConditions", slow).await.expect("network conditions");
        // The counter goes up every second while the server has a subscriber: the reload reads a higher count.
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        page.reload().await;
        let fresh = format!(
            "const f = document.querySelector('[data-testid=widget-freshness]'); return {count} > {before} && !!f && f.dataset.stale === 'false';"
        );
        page.wait_until("after the reload the card shows a newer count, not stale", &fresh).await;
    })
    .await;
    llm.stop().await;
    drop(server);
}

async fn apply_disabled(page: &Page) -> bool {
    page.eval("return document.querySelector('[data-testid=source-apply]').disabled;", vec![]).await == json!(true)
}

/// The person edits the card's source in its menu: errors as they type, a schema error that
/// changes nothing, an edit that runs at once and is kept across a reload, then Unbind.
#[tokio::test]
async fn the_person_edits_a_cards_source_from_its_menu_and_unbinds_it() {
    let server = McpServer::app(PACKAGE).await;
    let llm = ScriptedLlm::start(script).await;
    let base = llm.base_url();
    let url = server.url();
    let origin = server.base_url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "basic").await;
        page.say("Show the server's time, kept up to date").await;
        page.wait_for_runs(1).await;
        let first = shown_time(&page).await;

        // The menu shows the source; Escape closes it and focus goes back to its button.
        page.click("[data-testid=widget-source]").await;
        page.wait_for_text("[data-testid=source-target]", GET_TIME).await;
        assert_eq!(page.text("[data-testid=source-refresh]").await, "on_open");
        page.find("[data-testid=source-map]").await.send_keys("\u{e00c}").await.expect("press Escape");
        page.wait_until_gone("[data-testid=source-editor]").await;
        assert_eq!(page.eval("return document.activeElement?.dataset.testid;", vec![]).await, json!("widget-source"));

        // Errors as they are typed, each saying where; Apply waits for them to be fixed.
        page.click("[data-testid=widget-source]").await;
        page.set_value("[data-testid=source-arguments]", "{\"tz\" 1}").await;
        page.wait_for_text("[data-testid=source-arguments-error]", "line 1, column 7").await;
        assert!(apply_disabled(&page).await, "a JSON error blocks Apply");
        page.set_value("[data-testid=source-arguments]", "{}").await;
        page.set_value("[data-testid=source-map]", "{value: .time) | x").await;
        page.wait_for_text("[data-testid=source-map-error]", "at character 14").await;
        assert!(apply_disabled(&page).await, "a jq error blocks Apply");

        // A map whose output does not fit: the path is shown and the card keeps its data.
        page.set_value("[data-testid=source-map]", "{value: .time, variant: 7}").await;
        page.click("[data-testid=source-apply]").await;
        page.wait_for_text("[data-testid=source-schema-errors]", "/variant").await;
        assert!(page.text(CARD).await.contains(&first), "nothing changed");

        // A good edit runs once at once: a new time under the new label.
        page.set_value("[data-testid=source-map]", "{value: .time, label: \"Edited by hand\"}").await;
        page.click("[data-testid=source-apply]").await;
        page.wait_until_gone("[data-testid=source-editor]").await;
        page.wait_until("the card shows the edited label",
            &format!("return document.querySelector('{CARD}')?.textContent.includes('Edited by hand');")).await;
        let edited = wait_for_new_time(&page, &first, "the edit shows a new time").await;

        // Kept with the dashboard: a reload refreshes it (on_open) with the edited map.
        page.reload().await;
        wait_for_new_time(&page, &edited, "the reload refreshes the edited binding").await;
        assert!(card_text(&page).await.contains("Edited by hand"), "the reload kept the edited map");

        // Unbind: the card keeps its data as a snapshot and nothing fetches it any more.
        let kept = shown_time(&page).await;
        page.click("[data-testid=widget-source]").await;
        page.click("[data-testid=source-unbind]").await;
        page.wait_for_count("[data-testid=widget-freshness]", 0).await;
        assert_eq!(page.count("[data-testid=widget-source]").await, 0, "no source to edit");
        page.reload().await;
        page.wait_for_text(CARD, &kept).await;
        page.click("[data-testid=open-servers]").await;
        page.wait_for_server("basic", "connected with").await;
        page.close_servers().await;
        let before = requests_to(&page, &origin).await;
        page.eval_async("const done = arguments[0]; setTimeout(done, 3000);", vec![]).await;
        assert!(page.text(CARD).await.contains(&kept), "an unbound card is not refreshed");
        assert_eq!(page.count("[data-testid=widget-freshness]").await, 0);
        assert_eq!(requests_to(&page, &origin).await, before, "no call for an unbound card");
    })
    .await;
    llm.stop().await;
    drop(server);
}

/// A shared dashboard opened where its server is not added: the server is listed with "Connect" and
/// the host the link says it lives at, nothing is called; Connect adds and connects it from the URL
/// the link carries (the viewer types nothing), and once the dashboard is made one's own, the
/// `on_open` binding runs.
#[tokio::test]
async fn a_shared_link_lists_the_servers_it_needs_and_runs_its_bindings_only_once_connected_and_owned() {
    let server = McpServer::app(PACKAGE).await;
    let llm = ScriptedLlm::start(script).await;
    let base = llm.base_url();
    let url = server.url();
    let origin = server.base_url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "basic").await;
        page.say("Show the server's time, kept up to date").await;
        page.wait_for_runs(1).await;
        let shared = shown_time(&page).await;
        let link = page.share_link().await;
        let fragment = link.split_once('#').map(|(_, fragment)| fragment.to_owned()).expect("a share link");

        // The viewer has no such server.
        page.click("[data-testid=open-servers]").await;
        page.click("[data-server-id='basic'] [data-testid=server-remove]").await;
        page.wait_for_count("[data-testid=server]", 0).await;
        page.close_servers().await;

        page.open(&format!("/#{fragment}")).await;
        page.reload().await;
        page.find("[data-testid=read-only-banner]").await;
        let listed = page.wait_for_text("[data-testid=needed-server][data-server=basic]", "Connect").await;
        let host = origin.trim_start_matches("http://");
        assert!(listed.contains(&format!("at {host}")), "the link says where the server lives: {listed:?}");
        page.eval_async("const done = arguments[0]; setTimeout(done, 2000);", vec![]).await;
        assert_eq!(requests_to(&page, &origin).await, 0, "a shared link calls no server by itself");
        assert!(page.text(CARD).await.contains(&shared));

        // Connect: the server is added from the link's URL and connects at once; the viewer types
        // nothing, and allows the tool (a binding never runs a tool that needs approval).
        page.click("[data-testid=needed-server-connect]").await;
        page.wait_for_count("[data-testid=needed-servers]", 0).await;
        page.click("[data-testid=open-servers]").await;
        page.wait_for_server("basic", "connected with").await;
        assert_eq!(page.count("[data-testid=server]").await, 1);
        page.click("[data-server-id='basic'] [data-testid=server-approval-all] option[value=always_allow]").await;
        page.close_servers().await;

        // Connected but not the viewer's own yet: still nothing runs.
        page.eval_async("const done = arguments[0]; setTimeout(done, 3000);", vec![]).await;
        assert!(page.text(CARD).await.contains(&shared), "a read-only dashboard runs no binding");
        assert_eq!(page.count("[data-testid=widget-refresh]").await, 0);

        // Made one's own: the on_open binding runs.
        page.click("[data-testid=make-copy]").await;
        wait_for_new_time(&page, &shared, "the copy's on_open binding runs once the server is connected").await;

        // The copy keeps where its server lives: with the server removed, a reload offers it again.
        page.click("[data-testid=open-servers]").await;
        page.click("[data-server-id='basic'] [data-testid=server-remove]").await;
        page.wait_for_count("[data-testid=server]", 0).await;
        page.close_servers().await;
        page.reload().await;
        let listed = page.wait_for_text("[data-testid=needed-server][data-server=basic]", "Connect").await;
        assert!(listed.contains(&format!("at {host}")), "restored with its server's URL: {listed:?}");
        assert_eq!(page.count("[data-testid=read-only-banner]").await, 0, "the person's own copy, not the link");
    })
    .await;
    llm.stop().await;
    drop(server);
}
