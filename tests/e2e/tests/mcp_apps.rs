//! MCP Apps end to end, against the real example servers from npm (2.0.3, on loopback): the model
//! calls `get-time` of server-basic-vanillajs; the model's result names the new `mcp-app` widget,
//! and the server's own view shows the time two frames deep (our proxy page, then the view); its
//! "Get Server Time" button calls the server through the host and shows the new time. With
//! server-system-monitor, the app-only `poll-system-stats` is never offered to the model while the
//! view polls it through the host (shown in the console as the view's calls). The React views of
//! server-budget-allocator and server-cohort-heatmap draw their charts from the tool's result (and the
//! budget view's frame grows to the height the view says). The
//! get-time view follows a theme switch (`host-context-changed`), and its "Open Link" and "Send
//! Message" buttons reach the person first: a link opens only after they agree (told its host),
//! and the view's message becomes a user turn only after they agree.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm, tool_names, tool_results, user_texts};
use autoui_e2e::mcp_server::McpServer;
use autoui_e2e::page::Page;
use autoui_e2e::with_app;
use serde_json::{Value, json};

/// Enters the view's frame: the widget's proxy frame, then the view inside it.
async fn enter_view(page: &Page) {
    page.find("[data-testid=mcp-app-frame]").await.enter_frame().await.expect("enter the proxy frame");
    page.find("iframe").await.enter_frame().await.expect("enter the view's frame");
}

/// The question of the `confirm` the page shows, once it is up.
async fn alert_text(page: &Page) -> String {
    for _ in 0..200 {
        if let Ok(text) = page.client().get_alert_text().await {
            return text;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("the page never asked");
}

async fn wait_for_windows(page: &Page, expected: usize) {
    for _ in 0..200 {
        if page.client().windows().await.expect("windows").len() == expected {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("never {expected} windows");
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
        1 => Reply::text("The server's clock is on the canvas."),
        _ => Reply::text("The server's clock is in UTC."),
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
        let view_theme = page.eval("return document.documentElement.dataset.theme || '';", vec![]).await;
        leave_view(&page).await;

        // A theme switch reaches the view, which takes the theme and our tokens.
        page.click("[data-testid=theme-toggle]").await;
        let theme = page.eval("return document.documentElement.dataset.theme;", vec![]).await;
        assert_ne!(theme, view_theme, "the toggle changed the theme");
        let surface = page
            .eval("return getComputedStyle(document.documentElement).getPropertyValue('--au-surface').trim();", vec![])
            .await;
        enter_view(&page).await;
        page.wait_until(
            "the view follows the app's theme",
            &format!(
                "const root = document.documentElement; return root.dataset.theme === {theme} \
                 && root.style.getPropertyValue('--color-background-primary').trim() === {surface};"
            ),
        )
        .await;

        // "Open Link": asked first, with the host shown; declined, nothing opens.
        let windows = page.client().windows().await.expect("windows").len();
        page.set_value("#link-url", "http://127.0.0.1:9/docs").await;
        page.click("#open-link-btn").await;
        let question = alert_text(&page).await;
        assert!(question.contains("127.0.0.1") && question.contains("http://127.0.0.1:9/docs"), "{question}");
        page.client().dismiss_alert().await.expect("decline");
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        assert_eq!(page.client().windows().await.expect("windows").len(), windows, "declined: no tab opened");
        page.click("#open-link-btn").await;
        alert_text(&page).await;
        page.client().accept_alert().await.expect("agree");
        wait_for_windows(&page, windows + 1).await;

        // "Send Message": a user turn from the view, once the person agrees.
        page.set_value("#message-text", "Which time zone is the server in?").await;
        page.click("#send-message-btn").await;
        let question = alert_text(&page).await;
        assert!(question.contains("Which time zone is the server in?"), "{question}");
        page.client().accept_alert().await.expect("agree");
        leave_view(&page).await;
        page.wait_for_runs(2).await;
        let turn = user_texts(llm_ref.requests().last().expect("a request"));
        assert!(
            turn.iter().any(|text| text.contains("[From the view of \"basic\" (get-time)] Which time zone is the server in?")),
            "{turn:?}"
        );

        page.click("[data-testid=open-console]").await;
        let logged = page.wait_for_text("[data-testid=console-server-log]", "tools/call get-time").await;
        assert!(logged.contains("(view)"), "shown as the view's call: {logged}");
    })
    .await;
    llm.stop().await;
    drop(server);
}

/// A reload starts the saved servers connecting again after the page is up: the saved view waits for
/// its server and shows again, instead of failing because the server was not connected yet. With the
/// theme left to the system, the system's switch reaches the view.
#[tokio::test]
async fn a_view_on_a_reloaded_dashboard_shows_again_once_its_server_is_connected() {
    let server = McpServer::app("server-basic-vanillajs").await;
    let llm = ScriptedLlm::start(|_: &Value, index| match index {
        0 => Reply::tool("basic_mcp_get-time", json!({})),
        _ => Reply::text("The server's clock is on the canvas."),
    })
    .await;
    let (base, url) = (llm.base_url(), server.url());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "basic").await;
        page.say("What time is it on the server?").await;
        page.wait_for_runs(1).await;
        let shows_time =
            "const t = document.getElementById('server-time'); return !!t && /^\\d{4}-\\d\\d-\\d\\dT/.test(t.textContent.trim());";
        enter_view(&page).await;
        page.wait_until("the view shows the server's time", shows_time).await;
        leave_view(&page).await;

        page.reload().await;
        enter_view(&page).await;
        page.wait_until("after the reload, the view shows the server's time again", shows_time).await;
        leave_view(&page).await;
        assert_eq!(page.count("[data-testid=mcp-app-error]").await, 0, "no error was shown");

        // The theme left to the system (the default): the system's switch reaches the view too.
        for scheme in ["dark", "light"] {
            let features = json!({"features": [{"name": "prefers-color-scheme", "value": scheme}]});
            autoui_e2e::cdp::cdp(page.client(), "Emulation.setEmulatedMedia", features).await.expect("the system's scheme");
            enter_view(&page).await;
            page.wait_until(
                &format!("the view follows the system to {scheme}"),
                &format!("return document.documentElement.dataset.theme === '{scheme}';"),
            )
            .await;
            leave_view(&page).await;
        }
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

#[tokio::test]
async fn the_budget_allocator_view_draws_its_chart_and_a_slider_per_category() {
    let server = McpServer::app("server-budget-allocator").await;
    let llm = ScriptedLlm::start(|_: &Value, index| match index {
        0 => Reply::tool("budget_mcp_get-budget-data", json!({})),
        _ => Reply::text("Here is the budget."),
    })
    .await;
    let (base, url) = (llm.base_url(), server.url());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "budget").await;
        page.say("Show me the budget allocation").await;
        page.wait_for_runs(1).await;

        enter_view(&page).await;
        page.wait_until(
            "a slider for each of the five categories of the result",
            "return document.querySelectorAll('#sliders-container input[type=range]').length === 5;",
        )
        .await;
        page.wait_until(
            "the doughnut chart is drawn",
            "const c = document.getElementById('budget-chart'); if (!c || !c.width || !c.height) return false;\
             const pixels = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;\
             let painted = 0; for (let i = 3; i < pixels.length; i += 4) { if (pixels[i] > 0) painted++; }\
             return painted > 500;",
        )
        .await;
        leave_view(&page).await;
        // The view says it is 600 px tall once loaded, after its frame (6 rows by default) first
        // showed it: the frame grows so the view shows whole, without a scrollbar.
        page.wait_until(
            "the view's frame on the canvas grows to the height the view says",
            "const frame = document.querySelector('[data-widget-type=mcp-app]'); const body = frame.querySelector('.au-frame__body');\
             const rows = Number(/grid-row: \\d+ \\/ span (\\d+)/.exec(frame.getAttribute('style'))[1]);\
             return rows > 6 && body.scrollHeight <= body.clientHeight + 1;",
        )
        .await;
    })
    .await;
    llm.stop().await;
    drop(server);
}

#[tokio::test]
async fn the_cohort_heatmap_view_draws_a_coloured_cell_for_each_cohort_and_period() {
    let server = McpServer::app("server-cohort-heatmap").await;
    let llm = ScriptedLlm::start(|_: &Value, index| match index {
        0 => Reply::tool("cohort_mcp_get-cohort-data", json!({})),
        _ => Reply::text("Here is the retention heatmap."),
    })
    .await;
    let (base, url) = (llm.base_url(), server.url());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "cohort").await;
        page.say("Show me cohort retention").await;
        page.wait_for_runs(1).await;

        enter_view(&page).await;
        // The view asks its server for 12 cohorts of 12 months through the host: the newest
        // cohort is seen for one month, the oldest for twelve, 12 + 11 + ... + 1 cells.
        page.wait_until(
            "78 coloured cells",
            "const cells = [...document.querySelectorAll('[class^=_cell_]')];\
             return cells.length === 78 && cells.every(cell => getComputedStyle(cell).backgroundColor !== 'rgba(0, 0, 0, 0)');",
        )
        .await;
        leave_view(&page).await;
        page.click("[data-testid=open-console]").await;
        page.wait_for_text("[data-testid=console-server-log]", "tools/call get-cohort-data").await;
    })
    .await;
    llm.stop().await;
    drop(server);
}
