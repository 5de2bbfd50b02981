//! Scenario 5: hostile data. A real MCP server (tests/servers/support_server.py) returns support
//! tickets carrying `<script>`, `<img onerror>` and `javascript:` links, each of which would set
//! `window.__autoui_pwned` if it ever ran. The scripted model puts them in a text, a data-table, cards
//! with links and a kv; they must show as text, with no script run and no `javascript:` URL in the page.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm, calls_to};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::with_app;
use serde_json::{Value, json};

const TICKETS: &str = "support_mcp_list_tickets";
const DISPLAY: &str = "autoui_webmcp_widget_display";
const SAFE_LINK: &str = "https://support.example.com/tickets/4103";

fn tickets(request: &Value) -> Vec<Value> {
    calls_to(request, TICKETS)
        .pop()
        .map(|call| call.json()["tickets"].clone())
        .and_then(|t| t.as_array().cloned())
        .unwrap_or_default()
}

fn widgets(tickets: &[Value]) -> Reply {
    let Some(first) = tickets.first() else {
        return Reply::text("no tickets");
    };
    let text = |key: &str| first[key].as_str().unwrap_or_default().to_owned();
    Reply::tools(vec![
        (
            DISPLAY,
            json!({"name": "text", "params": {"title": text("customer"), "content": format!(
                "## {}\n\n{}\n\nReply at [the ticket]({}).", text("subject"), text("message"), text("link"))}}),
        ),
        (
            DISPLAY,
            json!({"name": "data-table", "params": {"title": "Tickets", "columns": [
                {"key": "id", "label": "Id", "type": "number"}, {"key": "customer", "label": "Customer"},
                {"key": "subject", "label": "Subject"}, {"key": "link", "label": "Link", "type": "link"}],
                "rows": tickets}}),
        ),
        (
            DISPLAY,
            json!({"name": "cards", "params": {"title": "Open tickets", "cards": tickets.iter().map(|ticket| json!({
                "title": ticket["subject"], "subtitle": ticket["customer"], "description": ticket["message"],
                "tags": [ticket["status"]], "href": ticket["link"]})).collect::<Vec<_>>()}}),
        ),
        (
            DISPLAY,
            json!({"name": "kv", "params": {"title": "Latest ticket", "rows": [
                ["Customer", text("customer")], ["Subject", text("subject")], ["Message", text("message")], ["Link", text("link")]]}}),
        ),
    ])
}

fn script(request: &Value, index: usize) -> Reply {
    match index {
        0 => Reply::tool(TICKETS, json!({})),
        1 => widgets(&tickets(request)),
        _ => Reply::text("Here are the latest tickets."),
    }
}

/// Every URL attribute in the document whose value is a `javascript:` URL once browsers' leniency is
/// applied (spaces and control characters ignored, any case), as `tag attribute=value`. Text
/// attributes (a cell's `title` showing the refused link) are not URLs and are left out.
const JAVASCRIPT_URLS: &str = r#"
const urls = ['href', 'xlink:href', 'src', 'srcset', 'action', 'formaction', 'data', 'poster', 'background', 'cite', 'ping'];
const found = [];
for (const element of document.querySelectorAll('*')) {
  for (const attribute of element.attributes) {
    if (!urls.includes(attribute.name.toLowerCase())) continue;
    const value = attribute.value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
    if (value.startsWith('javascript:')) found.push(`${element.tagName} ${attribute.name}=${attribute.value}`);
  }
}
return found;"#;

/// Elements that could run code: scripts inside the app, and any inline event handler attribute.
const ACTIVE_MARKUP: &str = r#"
const found = [];
for (const element of document.querySelectorAll('body script, body iframe, body object, body embed')) found.push(element.outerHTML.slice(0, 120));
for (const element of document.querySelectorAll('*')) {
  for (const attribute of element.attributes) {
    if (attribute.name.startsWith('on')) found.push(`${element.tagName} ${attribute.name}`);
  }
}
return found;"#;

#[tokio::test]
async fn hostile_strings_from_an_mcp_server_render_as_text_and_never_run() {
    let server = McpServer::python("support_server.py", Transport::Streamable).await;
    let llm = ScriptedLlm::start(script).await;
    let base = llm.base_url();
    let url = server.url();
    let llm_ref = &llm;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "support").await;
        page.say("Show me the latest support tickets").await;
        page.wait_for_runs(1).await;
        page.wait_for_text("[data-testid=chat-assistant]", "Here are the latest tickets.").await;

        let tickets = tickets(&llm_ref.requests()[1]);
        assert_eq!(tickets.len(), 3, "the server's tickets reached the model");
        let first = &tickets[0];
        let customer = first["customer"].as_str().unwrap_or_default();
        let subject = first["subject"].as_str().unwrap_or_default();
        assert!(customer.contains("<script>") && subject.contains("onerror"), "the payloads are in the data: {first}");

        page.wait_for_count("[data-testid=widget]", 4).await;
        for kind in ["text", "data-table", "cards", "kv"] {
            let shown = page.text(&format!("[data-widget-type={kind}]")).await;
            assert!(shown.contains("<script>window.__autoui_pwned"), "{kind} shows the script tag as text: {shown}");
            assert!(shown.contains("<img src=x onerror="), "{kind} shows the image tag as text: {shown}");
        }
        let kv = page.text("[data-widget-type=kv]").await;
        assert!(kv.contains("javascript:window.__autoui_pwned"), "the kv shows the javascript: link as text: {kv}");

        // The harmless ticket's https link still works, so links are filtered, not all dropped.
        for kind in ["data-table", "cards"] {
            let safe = format!("[data-widget-type={kind}] a[href='{SAFE_LINK}']");
            assert_eq!(page.count(&safe).await, 1, "{kind} links the harmless ticket");
        }

        assert_eq!(page.eval("return window.__autoui_pwned ?? null;", vec![]).await, Value::Null, "no payload ran");
        let javascript = page.eval(JAVASCRIPT_URLS, vec![]).await;
        assert_eq!(javascript, json!([]), "no javascript: URL is in the DOM");
        let active = page.eval(ACTIVE_MARKUP, vec![]).await;
        assert_eq!(active, json!([]), "no script, frame or inline handler came from the data");
        // `<img src=x>` would have been fetched had it become an element; the page never asked for it.
        let fetched = page
            .eval("return performance.getEntriesByType('resource').map((entry) => entry.name).filter((name) => /\\/x$/.test(name));", vec![])
            .await;
        assert_eq!(fetched, json!([]), "the hostile image was never loaded");

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");

        // The detectors do see such markup when it is there (an inert link and handler, removed after;
        // planted after the console check, since the page's policy refuses the handler and says so).
        page.eval(
            "const probe = document.createElement('a'); probe.id = 'probe'; probe.setAttribute('href', ' JavaScript:void 0'); \
             probe.setAttribute('onclick', 'void 0'); document.body.append(probe);",
            vec![],
        )
        .await;
        assert_eq!(page.eval(JAVASCRIPT_URLS, vec![]).await.as_array().map(Vec::len), Some(1), "the URL check finds a planted link");
        assert_eq!(page.eval(ACTIVE_MARKUP, vec![]).await.as_array().map(Vec::len), Some(1), "the handler check finds a planted handler");
        page.eval("document.getElementById('probe').remove();", vec![]).await;
    })
    .await;
    llm.stop().await;
    drop(server);
}
