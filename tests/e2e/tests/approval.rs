//! Tool approval, end to end: a real MCP server (tests/servers/notes_server.py) marks `delete_note`
//! `destructiveHint: true`. The scripted model calls it; the call waits in the chat's approval card
//! (tool, server, annotations, editable arguments). Deny: the model's next request carries "the
//! person declined this call" and the server never receives the call (its own record of calls, read
//! back through the read-only `list_notes`, which runs without asking). The next call's edit to
//! invalid arguments is refused in the card with the schema's reason; "Always allow" runs it and is
//! shown, then reset, in the servers panel. A call waiting for approval ends with Stop, and nothing runs.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm, tool_results};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::with_app;
use serde_json::{Value, json};

const DELETE: &str = "notes_mcp_delete_note";
const LIST: &str = "notes_mcp_list_notes";

fn script(_request: &Value, index: usize) -> Reply {
    match index {
        0 => Reply::tool(DELETE, json!({"id": 1})),
        1 => Reply::tool(DELETE, json!({"id": 2})),
        2 | 5 => Reply::tool(LIST, json!({})),
        3 => Reply::text("Done: the plumber note is gone, the milk one stays."),
        // The second turn: stopped while its call waits for approval.
        4 => Reply::tool(DELETE, json!({"id": 3})),
        _ => Reply::text("Here are your notes."),
    }
}

#[tokio::test]
async fn a_destructive_call_waits_for_approval_and_a_denial_reaches_the_model_not_the_server() {
    let server = McpServer::python("notes_server.py", Transport::Streamable).await;
    let llm = ScriptedLlm::start(script).await;
    let base = llm.base_url();
    let url = server.url();
    let llm_ref = &llm;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server_asking(&url, "notes").await;
        page.say("Clean up my notes").await;

        // The card shows what would run, and nothing has run yet.
        page.find("[data-testid=approval][data-tool=delete_note]").await;
        assert_eq!(page.text("[data-testid=approval-tool]").await, "delete_note");
        assert_eq!(page.text("[data-testid=approval-server]").await, "notes");
        let hints = page.text("[data-testid=approval-hints]").await;
        assert!(hints.contains("Destructive") && hints.contains("May change data"), "{hints}");
        let shown: Value = serde_json::from_str(page.eval(
            "return document.querySelector('[data-testid=approval-args]').value;", vec![]).await.as_str().unwrap_or_default())
            .expect("the arguments are shown as JSON");
        assert_eq!(shown, json!({"id": 1}));
        assert_eq!(llm_ref.requests().len(), 1, "the run waits for the person");

        // Deny: the model is told, and the run goes on to its next call.
        page.click("[data-testid=approval-deny]").await;
        page.wait_until("the second call asks", "return document.querySelectorAll('[data-testid=approval]').length === 1 \
            && document.querySelector('[data-testid=approval-args]').value.includes('2');").await;
        let told = tool_results(&llm_ref.requests()[1]).join("\n");
        assert!(told.contains("The person declined this call: delete_note on the notes server did not run"), "{told}");

        // An edit that breaks the schema is refused in the card, with the reason; nothing runs.
        page.set_value("[data-testid=approval-args]", r#"{"id": 0}"#).await;
        page.click("[data-testid=approval-allow-once]").await;
        let problem = page.wait_for_text("[data-testid=approval-problem]", "Not run").await;
        assert!(problem.contains("/id") && problem.contains("minimum of 1"), "names the field and its minimum: {problem}");
        assert_eq!(page.count("[data-testid=approval]").await, 1, "the card stays");

        // A valid edit, always allowed: it runs with the person's arguments.
        page.set_value("[data-testid=approval-args]", r#"{"id": 2}"#).await;
        page.click("[data-testid=approval-allow-always]").await;
        page.wait_for_runs(1).await;
        page.wait_for_text("[data-testid=transcript]", "the plumber note is gone").await;
        let requests = llm_ref.requests();
        let deleted = tool_results(&requests[2]).join("\n");
        assert!(deleted.contains("Call the plumber"), "{deleted}");
        // The server's own record: the declined call never arrived, the allowed one did.
        assert_eq!(server_calls(&requests[3]), json!([{"tool": "delete_note", "arguments": {"id": 2}}]));

        // The servers panel shows the remembered choice and resets it.
        page.click("[data-testid=open-servers]").await;
        let remembered = "[data-server-id=notes] [data-testid=server-approval][data-tool=delete_note] [data-testid=server-approval-choice]";
        assert_eq!(page.text(remembered).await, "Always allow");
        page.click("[data-server-id=notes] [data-testid=server-approvals-reset]").await;
        page.wait_until_gone("[data-server-id=notes] [data-testid=server-approval]").await;
        page.close_servers().await;

        // Back to the default, so the next call asks; Stop ends the wait and nothing runs.
        page.say("Delete the passport note").await;
        page.find("[data-testid=approval][data-tool=delete_note]").await;
        page.click("[data-testid=stop]").await;
        page.wait_for_runs(2).await;
        assert_eq!(page.count("[data-testid=approval]").await, 0, "Stop takes the card away");
        assert_eq!(llm_ref.requests().len(), 5, "no request after Stop");

        // The server's record, read in a third turn: the stopped call never arrived either.
        page.say("List my notes").await;
        page.wait_for_runs(3).await;
        let listed = tool_results(&llm_ref.requests()[6]).join("\n");
        assert!(listed.contains("Renew the passport"), "{listed}");
        assert_eq!(
            server_calls(&llm_ref.requests()[6]),
            json!([{"tool": "delete_note", "arguments": {"id": 2}}, {"tool": "list_notes", "arguments": {}}])
        );

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
    llm.stop().await;
    drop(server);
}

/// The calls the notes server says it received, from the last `list_notes` result in `request`.
fn server_calls(request: &Value) -> Value {
    let results = tool_results(request);
    let listed = results.iter().rev().find(|text| text.contains("\"calls\"")).expect("a list_notes result");
    let start = listed.find('{').expect("a JSON body");
    let end = listed.rfind('}').expect("a JSON body");
    serde_json::from_str::<Value>(&listed[start..=end]).expect("the body parses")["calls"].clone()
}
