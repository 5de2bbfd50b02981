//! What a server says while it works reaches the person: server-everything's long-running tool
//! sends `notifications/progress`, and the call's line in the chat shows the latest step ("3 of 6")
//! while it runs, then only its result; once its simulated logging is switched on, its
//! `notifications/message` entries appear in the agent console with their level.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::with_app;
use serde_json::{Value, json};

const LONG: &str = "everything_mcp_trigger-long-running-operation";
const LOGGING: &str = "everything_mcp_toggle-simulated-logging";

fn script(_request: &Value, index: usize) -> Reply {
    match index {
        0 => Reply::tool(LONG, json!({"duration": 6, "steps": 6})),
        1 => Reply::text("The long operation finished."),
        2 => Reply::tool(LOGGING, json!({})),
        _ => Reply::text("Logging is on."),
    }
}

#[tokio::test]
async fn a_long_calls_progress_shows_on_its_chat_line_and_server_logs_in_the_console() {
    let server = McpServer::everything(Transport::Streamable).await;
    let llm = ScriptedLlm::start(script).await;
    let base = llm.base_url();
    let url = server.url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "everything").await;

        page.say("Run the long operation").await;
        let running = "[data-testid=chat-tool-call][data-status=running] [data-testid=chat-tool-progress]";
        let shown = page.wait_for_text(running, " of 6").await;
        assert!(shown.chars().next().is_some_and(|first| first.is_ascii_digit()), "a step count: {shown}");

        page.wait_for_runs(1).await;
        page.wait_for_text("[data-testid=transcript]", "The long operation finished.").await;
        assert_eq!(page.count("[data-testid=chat-tool-progress]").await, 0, "progress goes once the call ends");
        assert_eq!(page.count("[data-testid=chat-tool-call][data-status=ok]").await, 1);
        page.say("Turn its logging on").await;
        page.wait_for_runs(2).await;
        page.click("[data-testid=open-console]").await;
        let log = page.wait_for_text("[data-testid=console-server-log]", "message").await;
        assert!(log.starts_with("everything ["), "the server and the level lead the line: {log}");

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
    llm.stop().await;
}
