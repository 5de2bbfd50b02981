//! Scenario 6: faults. server-everything is killed in the middle of a session: the next call fails
//! with a clear error in the chat and the console while the canvas stays; once the server is back,
//! Reconnect in the servers panel works and a new call succeeds. Run over both MCP transports.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm, calls_to};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::with_app;
use serde_json::{Value, json};

const ECHO: &str = "everything_mcp_echo";
const DISPLAY: &str = "autoui_webmcp_widget_display";

/// The text of the last echo result in `request`, once it succeeded.
fn echoed(request: &Value) -> Option<String> {
    calls_to(request, ECHO)
        .pop()
        .filter(|call| !call.is_error)
        .and_then(|call| call.result)
}

fn script(request: &Value, index: usize) -> Reply {
    match index {
        // Run 1: the server answers and its answer is shown.
        0 => Reply::tool(ECHO, json!({"message": "before the crash"})),
        1 => match echoed(request) {
            Some(text) => Reply::tool(
                DISPLAY,
                json!({"name": "stat", "params": {"label": "First echo", "value": text}}),
            ),
            None => Reply::text("the echo failed"),
        },
        2 => Reply::text("Shown."),
        // Run 2: the server is down.
        3 => Reply::tool(ECHO, json!({"message": "while it is down"})),
        4 => Reply::text("The server did not answer."),
        // Run 3: after the restart and Reconnect.
        5 => Reply::tool(ECHO, json!({"message": "after the restart"})),
        6 => match echoed(request) {
            Some(text) => Reply::tool(
                DISPLAY,
                json!({"name": "stat", "params": {"label": "Second echo", "value": text}}),
            ),
            None => Reply::text("the echo failed again"),
        },
        _ => Reply::text("Back to normal."),
    }
}

/// Whether a browser console error is one this scenario causes on purpose. Chromium logs every failed
/// request to the MCP server; these are the ones a crash and a restart must produce, and nothing else is.
fn expected_error(error: &str, url: &str, transport: Transport) -> bool {
    if !error.starts_with(url) {
        return false;
    }
    // The kill cuts the open event stream, then requests find nothing listening until the restart.
    let crash = error.contains("ERR_INCOMPLETE_CHUNKED_ENCODING")
        || error.contains("ERR_CONNECTION_REFUSED");
    let by_transport = match transport {
        // Reconnect ends the old session with a DELETE; the restarted server does not know it and
        // answers 400 (server-everything's answer for an unknown session, where the spec says 404).
        Transport::Streamable => error.contains("status of 400"),
        // Auto-detection POSTs `initialize` to the URL first; a legacy SSE endpoint answers 404.
        Transport::Sse => error.contains("status of 404"),
    };
    crash || by_transport
}

async fn a_killed_server_fails_clearly_and_works_again_after_reconnecting(transport: Transport) {
    let mut server = McpServer::everything(transport).await;
    let llm = ScriptedLlm::start(script).await;
    let base = llm.base_url();
    let url = server.url();
    let llm_ref = &llm;
    let server_ref = &mut server;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        let status = page.add_server(&url, "everything").await;
        let detected = page
            .text_content("[data-server-id=everything] [data-testid=server-transport-label]")
            .await;
        let expected = match transport {
            Transport::Streamable => "Streamable HTTP",
            Transport::Sse => "HTTP+SSE (legacy)",
        };
        assert_eq!(
            detected, expected,
            "auto-detection picked the server's transport"
        );

        page.say("Echo something").await;
        page.wait_for_runs(1).await;
        page.wait_for_text("[data-widget-type=stat]", "before the crash")
            .await;

        server_ref.kill();
        page.say("Echo again").await;
        page.wait_for_runs(2).await;
        page.wait_for_text("[data-testid=transcript]", "The server did not answer.")
            .await;

        // The failed call is marked in the chat with the reason.
        let failed = "[data-testid=chat-tool-call][data-status=error]";
        page.wait_for_count(failed, 1).await;
        let reason = page
            .text_content(&format!("{failed} [data-testid=chat-tool-result]"))
            .await;
        // It names the server and says what is wrong: a Streamable HTTP call finds the server stopped
        // answering; a legacy server's stream has dropped and the client is reconnecting.
        let what = ["stopped answering", "reconnecting"];
        assert!(
            reason.contains("everything") && what.iter().any(|word| reason.contains(word)),
            "the error names the server and the fault: {reason}"
        );
        let model_saw = calls_to(&llm_ref.requests()[4], ECHO)
            .pop()
            .expect("the failed call");
        assert!(model_saw.is_error, "the model is told the call failed");
        assert_eq!(
            model_saw.result.as_deref().map(str::trim),
            Some(reason.trim()),
            "the chat shows what the model was told"
        );

        // The console shows it too, as an error.
        page.click("[data-testid=open-console]").await;
        page.wait_for_count("[data-testid=console-call].au-console__call--error", 1)
            .await;
        let line = page
            .text_content("[data-testid=console-call].au-console__call--error")
            .await;
        assert!(
            line.contains("echo") && line.contains("failed after"),
            "the console marks the failed call: {line}"
        );
        page.click("[data-testid=console] [aria-label='Close console']")
            .await;

        // The canvas is untouched.
        assert_eq!(page.count("[data-testid=widget]").await, 1);
        page.wait_for_text("[data-widget-type=stat]", "before the crash")
            .await;

        // Back up, reconnected by hand, and the next call works.
        server_ref.restart().await;
        page.click("[data-testid=open-servers]").await;
        page.click("[data-server-id=everything] [data-testid=server-reconnect]")
            .await;
        let again = page.wait_for_server("everything", "connected with").await;
        assert_eq!(again, status, "the same tools are back");
        page.close_servers().await;

        page.say("Try once more").await;
        page.wait_for_runs(3).await;
        page.wait_for_text("[data-testid=transcript]", "Back to normal.")
            .await;
        page.wait_for_count("[data-widget-type=stat]", 2).await;
        let shown = page.texts("[data-widget-type=stat]").await.join("\n");
        assert!(
            shown.contains("after the restart"),
            "the new call's answer is shown: {shown}"
        );

        let errors: Vec<String> = page
            .console_errors()
            .await
            .into_iter()
            .filter(|error| !expected_error(error, &url, transport))
            .collect();
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
    assert_eq!(llm.requests().len(), 8);
    llm.stop().await;
}

#[tokio::test]
async fn a_killed_streamable_http_server_fails_clearly_and_works_again_after_reconnecting() {
    a_killed_server_fails_clearly_and_works_again_after_reconnecting(Transport::Streamable).await;
}

#[tokio::test]
async fn a_killed_legacy_sse_server_fails_clearly_and_works_again_after_reconnecting() {
    a_killed_server_fails_clearly_and_works_again_after_reconnecting(Transport::Sse).await;
}
