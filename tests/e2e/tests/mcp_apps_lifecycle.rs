//! An MCP Apps view's lifecycle end to end (`tests/servers/lifecycle_app_server.py`, whose view
//! reports every notification the host sends it), release build in real Chromium: the view is on
//! the canvas while the model is still writing the call and hears the arguments as they stream in
//! (`tool-input-partial`), then the complete input once and the result, in that order; its
//! server's resources, templates and prompts reach it through the host. Stop tells a running
//! view's call it was cancelled. The view's asks reach the person and the model: the context it
//! gives goes with the next turn, fullscreen and back, a file saved once the person agrees, and
//! closing itself once the person agrees: removing its widget asks the view to tear down and waits
//! for its answer, and a call the view made that answers after the widget is gone does no harm.

use std::time::Duration;

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm, user_texts};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::page::Page;
use autoui_e2e::with_app;
use serde_json::{Value, json};

const TOOL: &str = "notes_mcp_show-notes";

async fn enter_view(page: &Page) {
    page.find("[data-testid=mcp-app-frame]").await.enter_frame().await.expect("enter the proxy frame");
    page.find("iframe").await.enter_frame().await.expect("enter the view's frame");
}

async fn leave_view(page: &Page) {
    for _ in 0..2 {
        page.client().enter_parent_frame().await.expect("back to the app");
    }
}

/// The notifications the view received, once one of them is `method` (the view is entered).
async fn events_once(page: &Page, method: &str) -> Vec<Value> {
    page.wait_until(&format!("the view hears {method}"), &format!("return document.getElementById('events').textContent.includes({});", json!(method)))
        .await;
    serde_json::from_str(&page.text_content("#events").await).expect("the view's events as JSON")
}

fn methods(events: &[Value]) -> Vec<&str> {
    events.iter().map(|event| event["method"].as_str().unwrap_or_default()).collect()
}

async fn alert_text(page: &Page) -> String {
    for _ in 0..200 {
        if let Ok(text) = page.client().get_alert_text().await {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the page never asked");
}

/// The console's server-log rows that contain `needle`, once there is at least one.
async fn console_rows(page: &Page, needle: &str) -> Vec<String> {
    let script = "return [...document.querySelectorAll('[data-testid=console-server-log]')]\
                  .map(row => row.textContent).filter(text => text.includes(arguments[0]));";
    for _ in 0..300 {
        let rows: Vec<String> = serde_json::from_value(page.eval(script, vec![json!(needle)]).await).unwrap_or_default();
        if !rows.is_empty() {
            return rows;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no console row says {needle:?}");
}


#[tokio::test]
async fn the_view_shows_while_its_call_is_written_then_gets_the_input_once_and_the_result() {
    let server = McpServer::python("lifecycle_app_server.py", Transport::Streamable).await;
    let arguments = json!({"note": "Paris weather notes for the week", "count": 3, "wait_s": 1});
    let call = arguments.clone();
    let llm = ScriptedLlm::start(move |_: &Value, index| match index {
        0 => Reply::PausedInTool { silence: Duration::from_secs(5), reply: Box::new(Reply::tool(TOOL, call.clone())) },
        _ => Reply::text("Your notes are on the canvas."),
    })
    .await;
    let (base, url) = (llm.base_url(), server.url());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "notes").await;
        page.say("Show my notes").await;

        // The model is still writing the call: the view is there, waiting, and has heard the
        // arguments so far, not the complete input.
        page.find("[data-testid=mcp-app-frame]").await;
        page.wait_for_text("[data-testid=mcp-app-status]", "Waiting for the tool's result").await;
        enter_view(&page).await;
        let early = events_once(&page, "ui/notifications/tool-input-partial").await;
        leave_view(&page).await;
        assert_eq!(page.count("[data-testid=chat][data-finished-runs='1']").await, 0, "the run is still going");
        assert!(methods(&early).iter().all(|method| *method == "ui/notifications/tool-input-partial"), "{early:?}");
        // The stream stopped in the middle of the arguments: the view has the part that parses.
        let partial = &early.last().expect("a partial input")["arguments"];
        assert_eq!(partial["count"], 3, "{early:?}");
        assert_ne!(*partial, arguments, "not the complete input yet: {early:?}");

        page.wait_for_runs(1).await;
        enter_view(&page).await;
        let events = events_once(&page, "ui/notifications/tool-result").await;
        let lists: Value = serde_json::from_str(&page.text_content("#lists").await).expect("the lists as JSON");
        leave_view(&page).await;
        let order = methods(&events);
        let input_at = order.iter().position(|method| *method == "ui/notifications/tool-input").expect("the input");
        assert!(order[..input_at].iter().all(|method| *method == "ui/notifications/tool-input-partial"), "{order:?}");
        assert_eq!(order[input_at + 1..], ["ui/notifications/tool-result"], "the input once, then the result: {order:?}");
        assert_eq!(events[input_at]["arguments"], arguments, "the complete input");
        assert_eq!(events[input_at + 1]["structured"], json!({"notes": 3, "first": "Paris weather notes for the week"}));
        assert_eq!(page.count("[data-testid=mcp-app-frame]").await, 1, "one view, not a second one when the call ran");
        assert_eq!(page.count("[data-testid=mcp-app-status]").await, 0, "no status once the result is in");

        // Its server's lists, asked by the view through the host.
        assert_eq!(lists["resources"], json!(["ui://lifecycle/notes.html", "notes://readme"]), "{lists}");
        assert_eq!(lists["templates"], json!(["notes://{name}"]), "{lists}");
        assert_eq!(lists["prompts"], json!(["summarise-notes"]), "{lists}");
        page.click("[data-testid=open-console]").await;
        let asked = console_rows(&page, "prompts/list").await;
        assert!(asked.iter().all(|row| row.contains("notes (view)")), "{asked:?}");
    })
    .await;
    llm.stop().await;
    drop(server);
}

#[tokio::test]
async fn stop_tells_a_running_views_call_that_it_was_cancelled() {
    let server = McpServer::python("lifecycle_app_server.py", Transport::Streamable).await;
    let llm = ScriptedLlm::start(|_: &Value, index| match index {
        0 => Reply::tool(TOOL, json!({"count": 1, "wait_s": 60})),
        _ => Reply::text("Stopped."),
    })
    .await;
    let (base, url) = (llm.base_url(), server.url());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "notes").await;
        page.say("Show my notes slowly").await;
        enter_view(&page).await;
        let running = events_once(&page, "ui/notifications/tool-input").await;
        leave_view(&page).await;
        assert!(!methods(&running).contains(&"ui/notifications/tool-result"), "{running:?}");

        page.click("[data-testid=stop]").await;
        page.wait_for_runs(1).await;
        enter_view(&page).await;
        let events = events_once(&page, "ui/notifications/tool-cancelled").await;
        leave_view(&page).await;
        let cancelled = events.iter().find(|event| event["method"] == "ui/notifications/tool-cancelled").expect("cancelled");
        assert_eq!(cancelled["reason"], "cancelled by the user", "{events:?}");
        assert!(!methods(&events).contains(&"ui/notifications/tool-result"), "{events:?}");
        page.wait_for_text("[data-testid=mcp-app-status]", "The call ended without a result: cancelled by the user").await;
    })
    .await;
    llm.stop().await;
    drop(server);
}

#[tokio::test]
async fn a_views_asks_reach_the_person_and_the_model_and_its_teardown_is_awaited() {
    let server = McpServer::python("lifecycle_app_server.py", Transport::Streamable).await;
    let llm = ScriptedLlm::start(|_: &Value, index| match index {
        0 => Reply::tool(TOOL, json!({"count": 3, "note": "first"})),
        1 => Reply::text("Your notes are on the canvas."),
        _ => Reply::text("You picked three."),
    })
    .await;
    let (base, url, llm_ref) = (llm.base_url(), server.url(), &llm);
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "notes").await;
        page.say("Show my notes").await;
        page.wait_for_runs(1).await;
        page.catch_downloads().await;

        enter_view(&page).await;
        events_once(&page, "ui/notifications/tool-result").await;
        // ui/update-model-context: kept for the next turn.
        page.click("#context").await;
        // ui/request-display-mode: fullscreen, then back inline.
        page.click("#fullscreen").await;
        page.wait_for_text("#mode", "fullscreen").await;
        leave_view(&page).await;
        assert_eq!(page.count(".au-mcp-app--fullscreen").await, 1, "the widget went fullscreen");
        enter_view(&page).await;
        page.click("#inline").await;
        page.wait_for_text("#mode", "inline").await;
        leave_view(&page).await;
        assert_eq!(page.count(".au-mcp-app--fullscreen").await, 0, "back inline");
        // A view that never asks back: the person leaves fullscreen with the button, or with Escape.
        for leave in ["button", "Escape"] {
            enter_view(&page).await;
            page.click("#fullscreen").await;
            page.wait_for_text("#mode", "fullscreen").await;
            leave_view(&page).await;
            assert_eq!(page.count(".au-mcp-app--fullscreen").await, 1, "fullscreen again");
            // What the view covers is out of the Tab order; its exit button is not.
            let reach = "return [!!document.querySelector('[data-testid=chat-input]').closest('[inert]'), \
                !!document.querySelector('[data-testid=mcp-app-exit-fullscreen]').closest('[inert]')];";
            assert_eq!(page.eval(reach, vec![]).await, json!([true, false]), "the page behind the view is inert");
            match leave {
                "button" => page.click("[data-testid=mcp-app-exit-fullscreen]").await,
                _ => {
                    // The focus was in the view, whose keys the page never hears: back to the page first.
                    page.eval("document.activeElement?.blur();", vec![]).await;
                    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
                    let escape = fantoccini::key::Key::Escape;
                    let keys = KeyActions::new("keyboard".to_owned())
                        .then(KeyAction::Down { value: escape.into() })
                        .then(KeyAction::Up { value: escape.into() });
                    page.client().perform_actions(keys).await.expect("press Escape");
                }
            }
            assert_eq!(page.count(".au-mcp-app--fullscreen").await, 0, "left fullscreen with the {leave}");
            assert_eq!(page.count("[inert]").await, 0, "the page is usable again after the {leave}");
            enter_view(&page).await;
            let told = events_once(&page, "host-context-changed").await;
            leave_view(&page).await;
            let last = told.iter().rev().find(|event| event["method"] == "ui/notifications/host-context-changed");
            assert_eq!(last.map(|event| event["displayMode"].clone()), Some(json!("inline")), "the view is told: {told:?}");
        }
        // Renamed by hand (F2), the view keeps running: a new frame would start it over, its last
        // answer gone.
        page.eval("document.querySelector('[data-widget-type=mcp-app]').focus();", vec![]).await;
        {
            use fantoccini::actions::{InputSource, KeyAction, KeyActions};
            let f2 = fantoccini::key::Key::F2;
            let keys = KeyActions::new("keyboard".to_owned()).then(KeyAction::Down { value: f2.into() }).then(KeyAction::Up { value: f2.into() });
            page.client().perform_actions(keys).await.expect("press F2");
        }
        let rename = "[data-widget-type=mcp-app] [data-testid=widget-rename]";
        page.wait_until("the rename box has the focus", &format!("return document.activeElement === document.querySelector('{rename}');")).await;
        page.find(rename).await.send_keys("\u{e009}a\u{e000}My notes\u{e007}").await.expect("type a name");
        page.wait_for_text("[data-widget-type=mcp-app] .au-frame__title", "My notes").await;
        enter_view(&page).await;
        assert_eq!(page.text_content("#mode").await, "fullscreen", "the same view, still showing its last answer");
        // The view knows its container's width, and hears when the widget is resized.
        let width = page.text_content("#width").await;
        let before: u32 = width.parse().unwrap_or_else(|_| panic!("a width in pixels: {width:?}"));
        leave_view(&page).await;
        let id = page.eval("return document.querySelector('[data-widget-type=mcp-app]').dataset.widgetId;", vec![]).await;
        let resized = page.call_tool("canvas", json!({"action": "resize", "id": id, "w": 3})).await;
        assert!(resized.get("isError").is_none_or(|error| error == &json!(false)), "{resized}");
        enter_view(&page).await;
        page.wait_until("the view hears its new width", &format!("return Number(document.getElementById('width').textContent) < {before};")).await;
        leave_view(&page).await;

        // ui/download-file: the person is asked, then the file is saved.
        enter_view(&page).await;
        page.click("#download").await;
        let question = alert_text(&page).await;
        assert!(question.contains("notes.txt"), "{question}");
        page.client().accept_alert().await.expect("agree");
        page.wait_for_text("#download-result", "saved").await;
        leave_view(&page).await;
        assert_eq!(page.downloaded_text().await.as_deref(), Some("note one\nnote two"));

        page.say("What did I pick?").await;
        page.wait_for_runs(2).await;
        let turn = user_texts(llm_ref.requests().last().expect("a request"));
        // What the view said goes with the turn in its own part, framed as the view's data, never as the person's words.
        let said = turn.iter().find(|text| text.contains("The person picked 3 notes")).expect("what the view said");
        assert!(said.starts_with("[Data from the view of") && said.contains("{\"picked\":3}"), "{turn:?}");
        assert!(!said.contains("What did I pick?"), "apart from the person's words: {turn:?}");

        // The view asks to be closed: declined, it stays; agreed, its widget is removed, which
        // asks the view to tear down and waits for its answer.
        enter_view(&page).await;
        page.click("#close").await;
        assert!(alert_text(&page).await.contains("asks to be closed"));
        page.client().dismiss_alert().await.expect("decline");
        leave_view(&page).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(page.count("[data-testid=mcp-app-frame]").await, 1, "declined: the view stays");
        // Agreed while a call the view made through the host takes a second: the answer comes
        // after the widget is gone and is dropped without a fault.
        enter_view(&page).await;
        page.click("#slow").await;
        page.wait_for_text("#slow-result", "calling").await;
        page.click("#close").await;
        alert_text(&page).await;
        page.client().accept_alert().await.expect("agree");
        leave_view(&page).await;
        page.wait_until_gone("[data-testid=widget-remove]").await;
        page.click("[data-testid=open-console]").await;
        let closed = console_rows(&page, "ui/resource-teardown").await;
        assert!(closed.iter().any(|row| row.contains("answered ui/resource-teardown in")), "{closed:?}");
        page.wait_until_gone("[data-testid=mcp-app-frame]").await;
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
    llm.stop().await;
    drop(server);
}
