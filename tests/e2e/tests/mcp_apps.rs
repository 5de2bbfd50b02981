//! MCP Apps end to end, against the real example servers from npm (2.0.3, on loopback): the model
//! calls `get-time` of server-basic-vanillajs; the model's result names the new `mcp-app` widget,
//! and the server's own view shows the time two frames deep (our proxy page, then the view); its
//! "Get Server Time" button calls the server through the host and shows the new time. With
//! server-system-monitor, the app-only `poll-system-stats` is never offered to the model while the
//! view polls it through the host (shown in the console as the view's calls).

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm, tool_names, tool_results};
use autoui_e2e::mcp_server::McpServer;
use autoui_e2e::page::Page;
use autoui_e2e::with_app;
use serde_json::{Value, json};

/// Enters the view's frame: the widget's proxy frame, then the view inside it.
async fn enter_view(page: &Page) {
    page.find("[data-testid=mcp-app-frame]").await.enter_frame().await.expect("enter the proxy frame");
    page.find("iframe").await.enter_frame().await.expect("enter the view's frame");
}

async fn leave_view(page: &Page) {
    for _ in 0..2 {
        page.client().enter_parent_frame().await.expect("back to the app");
    }
}

#[tokio::test]
async fn the_get_time_view_shows_the_time_and_its_button_calls_the_server_through_the_host() {
    let server = McpServer::app("server-basic-vanillajs").await;
    let llm = ScriptedLlm::start(|_: &Value, index| match index {
        0 => Reply::tool("basic_mcp_get-time", json!({})),
        _ => Reply::text("The server's clock is on the canvas."),
    })
    .await;
    let (base, url, llm_ref) = (llm.base_url(), server.url(), &llm);
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "basic").await;
        page.say("What time is it on the server?").await;
        page.wait_for_runs(1).await;

        let told = tool_results(&llm_ref.requests()[1]).join("\n");
        assert!(told.contains("interactive view is shown on the canvas"), "{told}");
        assert!(told.contains("\"widget\":\"mcp-app\""), "the model gets the widget's id: {told}");

        enter_view(&page).await;
        page.wait_until(
            "the view shows the server's time",
            "const t = document.getElementById('server-time'); return !!t && /^\\d{4}-\\d\\d-\\d\\dT/.test(t.textContent.trim());",
        )
        .await;
        let first = page.text("#server-time").await;
        // The button's tools/call goes view -> proxy -> host -> server and back.
        page.click("#get-time-btn").await;
        page.wait_until(
            "the button brings a newer time",
            &format!("return document.getElementById('server-time').textContent.trim() !== {};", json!(first)),
        )
        .await;
        // The view cannot reach the app: an opaque origin, neither its DOM nor its storage.
        let reach = page
            .eval(
                "let dom = 'no', storage = 'no';\
                 try { dom = String(window.parent.parent.document.title); } catch (e) {}\
                 try { storage = String(window.localStorage.length); } catch (e) {}\
                 return [dom, storage, String(window.origin)];",
                vec![],
            )
            .await;
        assert_eq!(reach, json!(["no", "no", "null"]), "the view is isolated from the app");
        leave_view(&page).await;

        page.click("[data-testid=open-console]").await;
        let logged = page.wait_for_text("[data-testid=console-server-log]", "tools/call get-time").await;
        assert!(logged.contains("(view)"), "shown as the view's call: {logged}");
    })
    .await;
    llm.stop().await;
    drop(server);
}

#[tokio::test]
async fn the_system_monitor_view_polls_its_app_only_tool_which_the_model_never_sees() {
    let server = McpServer::app("server-system-monitor").await;
    let llm = ScriptedLlm::start(|_: &Value, index| match index {
        0 => Reply::tool("monitor_mcp_get-system-info", json!({})),
        _ => Reply::text("Here is the system monitor."),
    })
    .await;
    let (base, url, llm_ref) = (llm.base_url(), server.url(), &llm);
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "monitor").await;
        page.say("Show me the system monitor").await;
        page.wait_for_runs(1).await;

        enter_view(&page).await;
        page.wait_until(
            "the view shows memory use from its polls",
            "const m = document.getElementById('memory-percent'); return !!m && /\\d/.test(m.textContent);",
        )
        .await;
        leave_view(&page).await;
        page.click("[data-testid=open-console]").await;
        page.wait_for_text("[data-testid=console-server-log]", "tools/call poll-system-stats").await;

        for request in llm_ref.requests() {
            let offered = tool_names(&request);
            assert!(!offered.iter().any(|name| name.contains("poll-system-stats")), "offered to the model: {offered:?}");
        }
        let listed: Vec<String> = llm_ref.requests().iter().flat_map(tool_names).collect();
        assert!(listed.iter().any(|name| name == "monitor_mcp_get-system-info"), "{listed:?}");
    })
    .await;
    llm.stop().await;
    drop(server);
}
