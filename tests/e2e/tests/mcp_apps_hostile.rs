//! MCP Apps against a hostile view (`tests/servers/hostile_app_server.py`), release build in real
//! Chromium: the view tries to read the app's DOM and storage, to navigate the top window, to call
//! another server's tool and a tool only the model may call, and to post `tools/call` straight to
//! the app as if it were another view; it gets nothing, and its server receives only the view's own
//! calls. A view sending 10,000 messages a second is cut at the limit, said in the console, and the
//! page keeps running. A view's device permissions reach its frame only after the person agrees.

use std::time::Duration;

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::page::Page;
use autoui_e2e::with_app;
use serde_json::{Value, json};

async fn enter_view(page: &Page) {
    page.find("[data-testid=mcp-app-frame]").await.enter_frame().await.expect("enter the proxy frame");
    page.find("iframe").await.enter_frame().await.expect("enter the view's frame");
}

async fn leave_view(page: &Page) {
    for _ in 0..2 {
        page.client().enter_parent_frame().await.expect("back to the app");
    }
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

async fn alert_text(page: &Page) -> String {
    for _ in 0..300 {
        if let Ok(text) = page.client().get_alert_text().await {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the page never asked");
}

#[tokio::test]
async fn a_hostile_view_reaches_nothing_and_its_forbidden_and_spoofed_calls_get_nothing() {
    let hostile = McpServer::python("hostile_app_server.py", Transport::Streamable).await;
    let other = McpServer::app("server-basic-vanillajs").await;
    let llm = ScriptedLlm::start(|_: &Value, index| match index {
        0 => Reply::tool("basic_mcp_get-time", json!({})),
        1 => Reply::tool("hostile_mcp_show-probe", json!({})),
        _ => Reply::text("The clock and the probe are on the canvas."),
    })
    .await;
    let (base, hostile_url, other_url) = (llm.base_url(), hostile.url(), other.url());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&other_url, "basic").await;
        page.add_server(&hostile_url, "hostile").await;
        let app_url = page.client().current_url().await.expect("url").to_string();
        page.say("Run the probe").await;
        page.wait_for_runs(1).await;

        page.wait_for_count("[data-testid=mcp-app-frame]", 2).await;
        page.find("[data-testid=mcp-app-frame][title*=show-probe]").await.enter_frame().await.expect("enter the probe's proxy frame");
        page.find("iframe").await.enter_frame().await.expect("enter the probe");
        page.wait_until("the probe finished", "return document.getElementById('report').textContent.includes('\"done\":true');")
            .await;
        let report: Value = serde_json::from_str(&page.text_content("#report").await).expect("the probe's JSON report");
        leave_view(&page).await;

        for reach in ["parentDocument", "topDocument", "appStorage", "ownStorage"] {
            assert_eq!(report[reach], "blocked", "{reach}: {report}");
        }
        let other_tool = report["otherServersTool"].as_str().unwrap_or_default();
        assert!(other_tool.starts_with("refused") && other_tool.contains("get-time"), "{report}");
        let model_only = report["modelOnlyTool"].as_str().unwrap_or_default();
        assert!(model_only.starts_with("refused") && model_only.contains("model-only"), "{report}");
        assert_eq!(report["ownTool"], "ran", "{report}");
        // The spoofed call posted straight to the app never reached the probe's server...
        assert_eq!(report["serverReceived"], json!(["view", "final"]), "{report}");
        // ...nor did those posted into the clock view's frames reach the clock's server.
        assert_eq!(report["otherFrames"], 1, "the probe found the clock view: {report}");

        // The top window stayed where it was, and the app still works.
        assert_eq!(page.client().current_url().await.expect("url").to_string(), app_url, "{report}");
        page.find("[data-testid=chat-input]").await;
        page.click("[data-testid=open-console]").await;
        let refused = console_rows(&page, "refused").await;
        assert!(refused.iter().any(|row| row.contains("get-time")) && refused.iter().any(|row| row.contains("model-only")), "{refused:?}");
        let clock_calls = page
            .eval("return [...document.querySelectorAll('[data-testid=console-server-log]')].filter(row => row.textContent.includes('basic (view)')).length;", vec![])
            .await;
        assert_eq!(clock_calls, 0, "the clock view made no call: the spoof did not pass as it");
    })
    .await;
    llm.stop().await;
    drop(hostile);
    drop(other);
}

#[tokio::test]
async fn a_view_sending_ten_thousand_messages_a_second_is_cut_and_the_page_keeps_running() {
    let hostile = McpServer::python("hostile_app_server.py", Transport::Streamable).await;
    let llm = ScriptedLlm::start(|_: &Value, index| match index {
        0 => Reply::tool("hostile_mcp_show-probe", json!({})),
        _ => Reply::text("The probe is on the canvas."),
    })
    .await;
    let (base, url) = (llm.base_url(), hostile.url());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "hostile").await;
        page.say("Run the probe").await;
        page.wait_for_runs(1).await;

        enter_view(&page).await;
        page.wait_until("the probe finished", "return document.getElementById('report').textContent.includes('\"done\":true');")
            .await;
        page.click("#flood").await;
        leave_view(&page).await;
        // While the view floods (two seconds), the page's own timers keep firing.
        let longest_gap = page
            .eval_async(
                "const done = arguments[arguments.length - 1];\
                 let last = performance.now(), longest = 0; const end = last + 2000;\
                 (function tick() { const now = performance.now(); longest = Math.max(longest, now - last); last = now;\
                   if (now < end) { setTimeout(tick, 10); } else { done(longest); } })();",
                vec![],
            )
            .await
            .as_f64()
            .expect("a gap in ms");
        assert!(longest_gap < 500.0, "the page stalled for {longest_gap} ms during the flood");

        enter_view(&page).await;
        page.wait_until("the flood ended", "return document.getElementById('flood-report').textContent !== '';").await;
        let sent: u64 = page.text_content("#flood-report").await.trim().parse().expect("a count");
        leave_view(&page).await;
        assert!(sent >= 10_000, "the view sent {sent} messages");

        page.click("[data-testid=open-console]").await;
        console_rows(&page, "more than 200 messages").await;
        let shown = page.eval("return [...document.querySelectorAll('[data-testid=console-server-log]')].filter(row => row.textContent.includes('flood ')).length;", vec![]).await;
        let shown = shown.as_u64().expect("a count");
        assert!(shown > 0 && shown <= 800, "{shown} of {sent} flood messages reached the console");
    })
    .await;
    llm.stop().await;
    drop(hostile);
}

#[tokio::test]
async fn a_views_camera_reaches_its_frame_only_after_the_person_agrees() {
    let hostile = McpServer::python("hostile_app_server.py", Transport::Streamable).await;
    let llm = ScriptedLlm::start(|_: &Value, index| match index {
        0 | 2 => Reply::tool("hostile_mcp_ask-camera", json!({})),
        _ => Reply::text("The camera view is on the canvas."),
    })
    .await;
    let (base, url) = (llm.base_url(), hostile.url());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "hostile").await;

        page.say("Show the camera view").await;
        let question = alert_text(&page).await;
        assert!(question.contains("the camera") && question.contains("hostile"), "{question}");
        page.client().dismiss_alert().await.expect("decline");
        page.wait_for_runs(1).await;
        let allow = page.eval("return document.querySelector('[data-testid=mcp-app-frame]').getAttribute('allow');", vec![]).await;
        assert_eq!(allow, Value::Null, "declined: no permission delegated");
        enter_view(&page).await;
        page.wait_for_text("#camera", "not allowed").await;
        leave_view(&page).await;

        page.say("Again").await;
        alert_text(&page).await;
        page.client().accept_alert().await.expect("agree");
        page.wait_for_runs(2).await;
        page.wait_for_count("[data-testid=mcp-app-frame]", 2).await;
        let allows = page
            .eval("return [...document.querySelectorAll('[data-testid=mcp-app-frame]')].map(frame => frame.getAttribute('allow'));", vec![])
            .await;
        let mut allows: Vec<Value> = allows.as_array().cloned().unwrap_or_default();
        allows.sort_by_key(|allow| allow.as_str().map(str::to_owned));
        assert_eq!(allows, [Value::Null, json!("camera *")], "only the agreed view gets the camera");
    })
    .await;
    llm.stop().await;
    drop(hostile);
}
