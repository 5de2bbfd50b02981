//! Keys bound to their endpoint: editing the base URL by hand to another host removes the key and
//! asks; unless the person agrees, the new host never receives it (the scripted LLMs record the key
//! each request carried: the run stops for want of a key instead), and once they agree it goes there.
//! An MCP server's bearer token bound for another machine over plain http waits for the same yes.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::page::Page;
use autoui_e2e::with_app;
use serde_json::{Value, json};

/// Types `value` into a settings field the way a person does: the field changes when it loses focus.
async fn change(page: &Page, testid: &str, value: &str) {
    page.eval(
        "const input = document.querySelector(`[data-testid=${arguments[0]}]`); input.value = arguments[1]; \
         input.dispatchEvent(new Event('change', { bubbles: true }));",
        vec![Value::from(testid), Value::from(value)],
    )
    .await;
}

#[tokio::test]
async fn a_key_is_not_sent_to_a_new_base_url_unless_the_person_agrees() {
    let first = ScriptedLlm::start(|_request: &Value, _index| Reply::text("From the first host.")).await;
    let second = ScriptedLlm::start(|_request: &Value, _index| Reply::text("From the second host.")).await;
    let (first_url, second_url) = (first.base_url(), second.base_url());
    let (first_ref, second_ref) = (&first, &second);
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &first_url).await;
        page.say("hello").await;
        page.wait_for_runs(1).await;
        assert_eq!(first_ref.keys(), [Some("test-key".to_owned())], "the key goes to the host it was entered for");

        page.click("[data-testid=open-settings]").await;
        change(&page, "settings-base-url", &second_url).await;
        let asked = page.text("[data-testid=settings-key-moved]").await;
        assert!(asked.contains("Send it to 127.0.0.1 instead?"), "{asked}");
        page.click("[data-testid=settings-key-clear]").await;
        page.wait_until_gone("[data-testid=settings-key-moved]").await;
        let stored = page.eval("return localStorage.getItem('autoui.settings.v1');", vec![]).await;
        assert!(!stored.to_string().contains("test-key"), "the key is not kept for the new host: {stored}");
        page.click("[data-testid=open-settings]").await;

        // The run stops for want of a key instead of sending the one entered for the first host.
        page.say("hello again").await;
        page.wait_for_runs(2).await;
        let note = page.text("[data-testid=transcript]").await;
        assert!(note.to_lowercase().contains("key"), "the chat says the key is missing: {note}");
        assert!(second_ref.keys().iter().all(Option::is_none), "the second host never got the key: {:?}", second_ref.keys());

        // A key typed for the second host, then the URL moved back: sent only once the person agrees.
        page.click("[data-testid=open-settings]").await;
        change(&page, "settings-api-key", "second-key").await;
        change(&page, "settings-base-url", &first_url).await;
        page.click("[data-testid=settings-key-send]").await;
        page.click("[data-testid=open-settings]").await;
        page.say("and once more").await;
        page.wait_for_runs(3).await;
        assert_eq!(first_ref.keys().last().cloned().flatten().as_deref(), Some("second-key"));
        assert!(second_ref.keys().iter().all(Option::is_none), "{:?}", second_ref.keys());

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
    first.stop().await;
    second.stop().await;
}

#[tokio::test]
async fn a_server_token_goes_over_plain_http_to_another_machine_only_after_the_person_agrees() {
    // A name the browser resolves to 127.0.0.1: to the app, a machine on the local network.
    let host = "cities.lan.test";
    let env = vec![("MCP_EXTRA_HOSTS".to_owned(), host.to_owned())];
    let table = McpServer::python_with_env("table_server.py", Transport::Streamable, env).await;
    let url = format!("http://{host}:{}/mcp", table.port());
    let options = BrowserOptions { loopback_hosts: vec![host.to_owned()], ..BrowserOptions::default() };
    let server = &table;
    with_app(options, |page| async move {
        page.open("/").await;
        page.click("[data-testid=open-servers]").await;
        page.type_into("[data-testid=server-url]", &url).await;
        page.type_into("[data-testid=server-name]", "cities").await;
        page.type_into("[data-testid=server-token]", "lan-token").await;
        page.click("[data-testid=server-add]").await;
        let question = page.client().get_alert_text().await.expect("the panel asks before sending the token");
        assert!(question.contains(host) && question.contains("unencrypted"), "{question}");
        page.client().dismiss_alert().await.expect("answer no");
        let refused = page.wait_for_text("[data-testid=server-add-error]", "not added").await;
        assert!(refused.contains(host), "{refused}");
        assert_eq!(page.count("[data-testid=server]").await, 0, "no server after a no");
        assert_eq!(server.get_json("/received").await, json!([]), "the server saw nothing, so no token");

        // The form keeps what was typed; adding again asks again, and a yes connects.
        page.click("[data-testid=server-add]").await;
        page.client().get_alert_text().await.expect("asked again");
        page.client().accept_alert().await.expect("answer yes");
        page.wait_for_server("cities", "connected with").await;
    })
    .await;
    let received = table.get_json("/received").await;
    let posts: Vec<&Value> = received.as_array().into_iter().flatten().filter(|request| request["method"] == "POST").collect();
    assert!(!posts.is_empty(), "{received}");
    assert!(posts.iter().all(|request| request["authorization"] == "Bearer lan-token"), "{received}");
}
