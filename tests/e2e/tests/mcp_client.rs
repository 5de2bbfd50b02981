//! The MCP client's server requests and offers in the real app, against server-everything (npm) and
//! a Python `mcp` server: a sampling request shown with its model and cost, sent through the
//! configured provider only once approved (as edited), a declined one refused to the server; a
//! server's form declined or cancelled, and a form no one can show refused with the reason while the
//! conversation goes on; an agent turn that lists and reads a server's resources; a `/` prompt
//! that first fails, then starts the turn once its arguments are fixed; a page a server asks to
//! open (URL-mode elicitation), shown by its host, declined, then opened only once agreed; and a
//! `/` prompt's arguments filled from the server's completions; and an image a server sent as a
//! resource shown in a widget by its URI, while an image URI no server sent is refused.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm, calls_to, tool_results};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::with_app;
use serde_json::{Value, json};

const SAMPLE: &str = "everything_mcp_trigger-sampling-request";
const ELICIT: &str = "everything_mcp_trigger-elicitation-request";
const ASK_ADDRESS: &str = "asking_mcp_ask_for_address";
const OPEN_PAGE: &str = "everything_mcp_trigger-url-elicitation";
/// server-everything's system prompt on its sampling requests.
const SAMPLING_SYSTEM: &str = "You are a helpful test server.";

/// The text of the conversation's last message when it is the person's (not a tool result).
fn last_user_words(request: &Value) -> Option<String> {
    let last = request["messages"].as_array()?.last()?;
    let content = &last["content"];
    if let Some(text) = content.as_str() {
        return Some(text.to_owned());
    }
    let blocks = content.as_array()?;
    if blocks.iter().any(|block| block["type"] == "tool_result") {
        return None;
    }
    Some(blocks.iter().filter_map(|block| block["text"].as_str()).collect::<Vec<_>>().join("\n"))
}

fn is_sampling(request: &Value) -> bool {
    request["system"].to_string().contains(SAMPLING_SYSTEM)
}

#[tokio::test]
async fn a_sampling_request_reaches_the_model_only_once_approved_as_edited_and_a_decline_reaches_the_server() {
    let server = McpServer::everything(Transport::Streamable).await;
    let llm = ScriptedLlm::start(|request: &Value, _index| {
        if is_sampling(request) {
            return Reply::text("Teal is calm.");
        }
        match last_user_words(request) {
            Some(_) => Reply::tool(SAMPLE, json!({"prompt": "name a colour", "maxTokens": 40})),
            None => Reply::text("The server has its answer."),
        }
    })
    .await;
    let (base, url) = (llm.base_url(), server.url());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "everything").await;

        page.say("Let the server ask my model for a colour").await;
        page.find("[data-testid=sampling]").await;
        assert_eq!(page.text("[data-testid=sampling-system]").await, SAMPLING_SYSTEM);
        assert_eq!(page.text("[data-testid=sampling-model]").await, "Answered by scripted-model (Anthropic)");
        let cost = page.text("[data-testid=sampling-cost]").await;
        assert!(cost.contains("up to 40 output tokens") && cost.contains("free (a model on this machine)"), "{cost}");
        page.set_value("[data-testid=sampling-prompt]", "name a calm colour").await;
        page.click("[data-testid=sampling-send]").await;
        page.wait_for_runs(1).await;
        page.wait_for_text("[data-testid=transcript]", "The server has its answer.").await;

        page.say("Once more, but I will say no").await;
        page.find("[data-testid=sampling]").await;
        page.click("[data-testid=sampling-decline]").await;
        page.wait_for_runs(2).await;
        assert_eq!(page.count("[data-testid=sampling]").await, 0, "no card is left");

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;

    let requests = llm.requests();
    let sampled: Vec<&Value> = requests.iter().filter(|request| is_sampling(request)).collect();
    assert_eq!(sampled.len(), 1, "only the approved request reached the model");
    assert!(sampled[0]["tools"].as_array().is_none_or(Vec::is_empty), "a sampled completion offers no tools");
    assert_eq!(last_user_words(sampled[0]).as_deref(), Some("name a calm colour"), "the person's edit is what was asked");
    assert!(sampled[0]["max_tokens"].as_u64().is_some_and(|tokens| tokens <= 40), "{}", sampled[0]["max_tokens"]);

    let last = requests.last().expect("requests");
    let calls = calls_to(last, SAMPLE);
    assert_eq!(calls.len(), 2);
    let approved = calls[0].result.clone().unwrap_or_default();
    assert!(approved.contains("Teal is calm.") && approved.contains("scripted-model"), "{approved}");
    let declined = calls[1].result.clone().unwrap_or_default();
    assert!(declined.contains("User rejected sampling request"), "{declined}");
    llm.stop().await;
}

#[tokio::test]
async fn a_servers_form_can_be_declined_or_cancelled_and_one_no_one_can_show_is_refused_with_the_reason() {
    let everything = McpServer::everything(Transport::Streamable).await;
    let asking = McpServer::python("asking_server.py", Transport::Streamable).await;
    let llm = ScriptedLlm::start(|request: &Value, _index| match last_user_words(request) {
        Some(words) if words.contains("where I live") => Reply::tool(ASK_ADDRESS, json!({})),
        Some(_) => Reply::tool(ELICIT, json!({})),
        None => Reply::text("Noted."),
    })
    .await;
    let (base, everything_url, asking_url) = (llm.base_url(), everything.url(), asking.url());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&everything_url, "everything").await;
        page.add_server(&asking_url, "asking").await;

        page.say("Ask me for my details, I will decline").await;
        page.find("[data-testid=elicitation] [data-testid=elicitation-decline]").await;
        page.click("[data-testid=elicitation-decline]").await;
        page.wait_for_runs(1).await;

        page.say("Ask me again, I will cancel").await;
        page.find("[data-testid=elicitation] [data-testid=elicitation-cancel]").await;
        page.click("[data-testid=elicitation-cancel]").await;
        page.wait_for_runs(2).await;

        page.say("Ask where I live").await;
        page.wait_for_runs(3).await;
        assert_eq!(page.count("[data-testid=elicitation]").await, 0, "a form no one can show is never shown");
        let transcript = page.text("[data-testid=transcript]").await;
        assert!(transcript.contains("Ask me for my details, I will decline"), "the conversation survives: {transcript}");

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;

    let last = llm.requests().last().cloned().expect("requests");
    let results = tool_results(&last);
    assert!(results.iter().any(|text| text.contains("User declined to provide the requested information")), "{results:#?}");
    assert!(results.iter().any(|text| text.contains("User cancelled the elicitation dialog")), "{results:#?}");
    let refused = calls_to(&last, ASK_ADDRESS).pop().and_then(|call| call.result).unwrap_or_default();
    assert!(
        refused.contains(
            "the client refused the question: the requested schema cannot be shown as a form: field \"address\": type \"object\" is not a form field type"
        ),
        "{refused}"
    );
    llm.stop().await;
}

#[tokio::test]
async fn an_agent_turn_reads_a_servers_resources_and_a_slash_prompt_starts_the_next_turn_once_it_stops_failing() {
    let server = McpServer::everything(Transport::Streamable).await;
    let llm = ScriptedLlm::start(|request: &Value, _index| {
        let words = last_user_words(request);
        let results = tool_results(request).len();
        match (words, results) {
            (Some(words), _) if words.contains("This prompt includes") => Reply::text("I have the prompt's resource."),
            (Some(_), _) => Reply::tool("everything_mcp_list_resources", json!({})),
            (None, 1) => Reply::tool("everything_mcp_read_resource", json!({"uri": "demo://resource/dynamic/text/5"})),
            (None, _) => Reply::text("Resource 5 is read."),
        }
    })
    .await;
    let (base, url) = (llm.base_url(), server.url());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "everything").await;

        page.say("What does the fifth text resource say?").await;
        page.wait_for_runs(1).await;
        page.wait_for_text("[data-testid=transcript]", "Resource 5 is read.").await;

        page.type_into("[data-testid=chat-input]", "/resource").await;
        page.find("[data-testid=prompt-option]").await;
        page.click("[data-testid=prompt-option]").await;
        page.find("[data-testid=prompt-form]").await;
        page.set_value("input[name=resourceType]", "Video").await;
        page.set_value("input[name=resourceId]", "3").await;
        page.click("[data-testid=prompt-use]").await;
        let error = page.wait_for_text("[data-testid=prompt-error]", "Invalid resourceType").await;
        assert!(error.starts_with("the prompt \"resource-prompt\" of everything failed"), "{error}");
        page.set_value("input[name=resourceType]", "Text").await;
        page.click("[data-testid=prompt-use]").await;
        page.wait_until_gone("[data-testid=prompt-form]").await;
        page.click("[data-testid=send]").await;
        page.wait_for_runs(2).await;
        page.wait_for_text("[data-testid=transcript]", "I have the prompt's resource.").await;

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;

    let requests = llm.requests();
    let after_read = &requests[2];
    let read = calls_to(after_read, "everything_mcp_read_resource").pop().and_then(|call| call.result).unwrap_or_default();
    assert!(read.contains("Resource 5: This is a plaintext resource"), "{read}");
    let listed = calls_to(after_read, "everything_mcp_list_resources").pop().and_then(|call| call.result).unwrap_or_default();
    assert!(listed.contains("demo://resource/static/document/"), "{listed}");
    let prompt_turn = last_user_words(requests.last().expect("requests")).unwrap_or_default();
    assert!(
        prompt_turn.contains("[resource <demo://resource/dynamic/text/3>]") && prompt_turn.contains("Resource 3: This is a plaintext resource"),
        "the prompt's messages start the turn: {prompt_turn}"
    );
    llm.stop().await;
}

/// The paths of the GET requests `server` has received (its `/received` log, that read left out).
async fn pages_opened(server: &McpServer) -> Vec<String> {
    let received = server.get_json("/received").await;
    received
        .as_array()
        .into_iter()
        .flatten()
        .filter(|request| request["method"] == "GET" && request["path"] != "/received")
        .filter_map(|request| request["path"].as_str().map(str::to_owned))
        .collect()
}

#[tokio::test]
async fn a_page_a_server_asks_to_open_shows_its_host_and_opens_only_once_the_person_agrees() {
    let everything = McpServer::everything(Transport::Streamable).await;
    // A loopback server that records every request: the page to open.
    let site = McpServer::python("table_server.py", Transport::Streamable).await;
    let consent = format!("{}/consent?id=7", site.base_url());
    let asked = consent.clone();
    let llm = ScriptedLlm::start(move |request: &Value, _index| match last_user_words(request) {
        Some(_) => Reply::tool(OPEN_PAGE, json!({"url": asked, "message": "Sign the consent form"})),
        None => Reply::text("Noted."),
    })
    .await;
    let (base, url) = (llm.base_url(), everything.url());
    let site = &site;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "everything").await;

        page.say("Ask me to sign, I will decline").await;
        page.find("[data-testid=elicitation][data-mode=url]").await;
        assert_eq!(page.text("[data-testid=elicitation-url]").await, consent);
        assert_eq!(page.text("[data-testid=elicitation-message]").await, "Sign the consent form");
        let host = page.text("[data-testid=elicitation-host]").await;
        assert!(host.starts_with("127.0.0.1"), "the host is shown before anything opens: {host}");
        page.click("[data-testid=elicitation-decline]").await;
        page.wait_for_runs(1).await;
        let before_open = pages_opened(site).await;
        assert!(before_open.is_empty(), "nothing was opened before the person agreed: {before_open:?}");

        page.say("Ask me again, I will open it").await;
        page.find("[data-testid=elicitation][data-mode=url] [data-testid=elicitation-open]").await;
        let tabs = page.client().windows().await.expect("windows").len();
        page.click("[data-testid=elicitation-open]").await;
        page.wait_for_runs(2).await;
        assert_eq!(page.client().windows().await.expect("windows").len(), tabs + 1, "the page opened in a new tab");
        assert_eq!(page.count("[data-testid=elicitation]").await, 0, "no card is left");

        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !pages_opened(site).await.iter().any(|path| path == "/consent") {
            assert!(std::time::Instant::now() < deadline, "the agreed page was never requested");
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }

        // The opened page is the site's, not the app's: its own 404s (a favicon) are not the app's errors.
        let errors: Vec<String> =
            page.console_errors().await.into_iter().filter(|error| !error.starts_with(&site.base_url())).collect();
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;

    let last = llm.requests().last().cloned().expect("requests");
    let calls = calls_to(&last, OPEN_PAGE);
    assert_eq!(calls.len(), 2);
    let declined = calls[0].result.clone().unwrap_or_default();
    assert!(declined.contains("User declined to open the URL"), "{declined}");
    let opened = calls[1].result.clone().unwrap_or_default();
    assert!(opened.contains("User completed the URL elicitation flow"), "{opened}");
    llm.stop().await;
}

/// The values the `argument` box of the prompt form suggests, once there are `count` of them.
async fn suggestions(page: &autoui_e2e::page::Page, argument: &str, count: usize) -> Vec<String> {
    let options = format!("[data-testid=prompt-field]:has(input[name={argument}]) [data-testid=prompt-suggestions] option");
    page.wait_for_count(&options, count).await;
    let values = page
        .eval("return [...document.querySelectorAll(arguments[0])].map((option) => option.value);", vec![json!(options)])
        .await;
    serde_json::from_value(values).expect("option values")
}

#[tokio::test]
async fn a_slash_prompts_arguments_are_filled_from_the_servers_completions_and_start_the_turn() {
    let server = McpServer::everything(Transport::Streamable).await;
    let llm = ScriptedLlm::start(|_request: &Value, _index| Reply::text("Eve leads Sales now.")).await;
    let (base, url) = (llm.base_url(), server.url());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "everything").await;

        page.type_into("[data-testid=chat-input]", "/completable").await;
        page.wait_for_count("[data-testid=prompt-option]", 1).await;
        page.click("[data-testid=prompt-option]").await;
        page.find("[data-testid=prompt-form]").await;
        page.type_into("input[name=department]", "S").await;
        assert_eq!(suggestions(&page, "department", 2).await, ["Sales", "Support"]);
        page.set_value("input[name=department]", "Sales").await;
        page.click("input[name=name]").await;
        page.set_value("input[name=name]", "").await;
        assert_eq!(suggestions(&page, "name", 3).await, ["David", "Eve", "Frank"], "narrowed by the department");
        page.set_value("input[name=name]", "Eve").await;
        page.click("[data-testid=prompt-use]").await;
        page.wait_until_gone("[data-testid=prompt-form]").await;
        page.click("[data-testid=send]").await;
        page.wait_for_runs(1).await;
        page.wait_for_text("[data-testid=transcript]", "Eve leads Sales now.").await;

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;

    let requests = llm.requests();
    let turn = last_user_words(requests.last().expect("requests")).unwrap_or_default();
    assert!(turn.contains("Please promote Eve to the head of the Sales team."), "the prompt's message starts the turn: {turn}");
    llm.stop().await;
}

#[tokio::test]
async fn an_image_a_server_sent_as_a_resource_shows_in_a_widget_and_an_invented_one_is_refused() {
    let server = McpServer::python("picture_server.py", Transport::Streamable).await;
    let llm = ScriptedLlm::start(|request: &Value, _index| match tool_results(request).len() {
        0 => Reply::tool("pictures_mcp_read_resource", json!({"uri": "pictures://logo.png"})),
        1 => Reply::tool(
            "autoui_webmcp_widget_display",
            json!({"name": "cards", "params": {"title": "Logos", "cards": [
                {"title": "The server's logo", "image": "pictures://logo.png"},
                {"title": "A logo I made up", "image": "pictures://made-up.png"}
            ]}}),
        ),
        _ => Reply::text("Here is the logo."),
    })
    .await;
    let (base, url) = (llm.base_url(), server.url());
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&url, "pictures").await;

        page.say("Show the server's logo").await;
        page.wait_for_runs(1).await;
        page.wait_for_text("[data-testid=transcript]", "Here is the logo.").await;
        page.wait_for_count("[data-widget-type=cards] .au-cards__item", 2).await;
        let sources = page
            .eval("return [...document.querySelectorAll('[data-widget-type=cards] img')].map((img) => img.getAttribute('src'));", vec![])
            .await;
        let sources: Vec<String> = serde_json::from_value(sources).expect("image sources");
        assert_eq!(sources.len(), 1, "only the server's image is shown: {sources:?}");
        assert!(sources[0].starts_with("data:image/png;base64,iVBORw0KGgo"), "the server's own bytes: {}", &sources[0][..60.min(sources[0].len())]);
        let loaded = page
            .eval("const img = document.querySelector('[data-widget-type=cards] img'); return img.complete && img.naturalWidth;", vec![])
            .await;
        assert_eq!(loaded, json!(16), "the image decodes and shows");

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;

    let last = llm.requests().last().cloned().expect("requests");
    let read = calls_to(&last, "pictures_mcp_read_resource").pop().and_then(|call| call.result).unwrap_or_default();
    assert!(read.contains("a widget shows it with \"pictures://logo.png\" as its image URL"), "{read}");
    let shown = calls_to(&last, "autoui_webmcp_widget_display").pop().and_then(|call| call.result).unwrap_or_default();
    assert!(shown.contains("/cards/1/image") && shown.contains("no server sent an image"), "the refusal reaches the model: {shown}");
    llm.stop().await;
}
