//! The core's hub against a real server-everything (npm) over real HTTP: its resources, resource
//! templates and prompts are listed when it connects, a static document is read whole, a template
//! filled in is read, a binary resource is summarised (never dumped), an unknown one is the
//! server's clear error, a prompt comes back filled with its argument, and the agent's dispatcher
//! lists and reads them through its resource pseudo-tools. The server's URL comes
//! from `AUTOUI_MCP_EVERYTHING_STREAMABLE_URL`, exported by `scripts/test-servers.sh start`.

#[path = "../src/clock.rs"]
mod clock;
#[path = "../src/http.rs"]
mod http;

use std::collections::BTreeMap;
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::dispatch::Dispatcher;
use autoui_core::ids::{CallId, ServerId};
use autoui_core::mcp::config::{McpOptions, ServerConfig};
use autoui_core::mcp::hub::{HubEvent, McpHub, ServerSnapshot, ServerStatus};
use autoui_core::mcp::legacy::HttpEventSource;
use autoui_core::mcp::model::content::{Content, ContentBlock};
use autoui_core::mcp::model::prompt::PromptRole;
use autoui_core::mcp::session::SessionPorts;
use autoui_core::remote::RemoteServers;
use futures::StreamExt;
use futures::channel::mpsc;
use serde_json::{Value, json};

use crate::clock::TokioClock;
use crate::http::ReqwestTransport;

fn everything_url() -> String {
    std::env::var("AUTOUI_MCP_EVERYTHING_STREAMABLE_URL").unwrap_or_else(|_| {
        panic!("AUTOUI_MCP_EVERYTHING_STREAMABLE_URL is not set: run scripts/test-servers.sh start and export its lines")
    })
}

/// Connects a fresh hub to server-everything and runs `check` with it and the server's snapshot.
fn with_everything(check: impl AsyncFnOnce(McpHub<ReqwestTransport>, ServerSnapshot) + 'static) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let local = tokio::task::LocalSet::new();
    local.block_on(&runtime, async move {
        let http = Rc::new(ReqwestTransport::new().unwrap());
        let options = McpOptions::default();
        let event_sources = Rc::new(HttpEventSource::new(http.clone(), Vec::new(), options.max_message_bytes));
        let hub = McpHub::new(SessionPorts { http, event_sources, clock: Rc::new(TokioClock::default()) }, options);
        tokio::task::spawn_local(hub.run());
        let (events, mut received) = mpsc::unbounded();
        hub.subscribe(move |event| {
            let _ = events.unbounded_send(event.clone());
        });
        let id = hub.add_server(ServerConfig::new(everything_url())).unwrap();
        let connecting = async {
            while let Some(event) = received.next().await {
                match event {
                    // Listed right after it connected.
                    HubEvent::OffersChanged { .. } => return,
                    HubEvent::StatusChanged { status: ServerStatus::Failed { reason }, .. } => {
                        panic!("connecting to server-everything failed: {reason}")
                    }
                    _ => {}
                }
            }
        };
        tokio::time::timeout(std::time::Duration::from_secs(15), connecting)
            .await
            .expect("connected and its offers listed within 15 s");
        let snapshot = hub.snapshots().into_iter().find(|snapshot| snapshot.id == id).unwrap();
        let server = snapshot.id.clone();
        check(hub.clone(), snapshot).await;
        hub.remove_server(&server).await;
    });
}

async fn read(hub: &McpHub<ReqwestTransport>, server: &ServerId, uri: &str) -> Result<String, String> {
    hub.read_resource(server, uri, CancelToken::new())
        .await
        .map(|result| result.text_content())
        .map_err(|error| error.to_string())
}

#[test]
fn server_everythings_resources_templates_and_prompts_are_listed_when_it_connects() {
    with_everything(async |_hub, snapshot| {
        let offers = &snapshot.offers;
        assert!(offers.unreadable.is_empty(), "every entry decodes: {:?}", offers.unreadable);
        let documents: Vec<&str> = offers
            .resources
            .iter()
            .map(|resource| resource.uri.as_str())
            .filter(|uri| uri.starts_with("demo://resource/static/document/"))
            .collect();
        assert!(documents.len() >= 3, "its static documents are listed: {:?}", offers.resources);
        let templates: Vec<&str> =
            offers.resource_templates.iter().map(|template| template.uri_template.as_str()).collect();
        assert!(templates.contains(&"demo://resource/dynamic/text/{resourceId}"), "{templates:?}");
        assert!(templates.contains(&"demo://resource/dynamic/blob/{resourceId}"), "{templates:?}");
        let args = offers.prompts.iter().find(|prompt| prompt.name == "args-prompt").expect("args-prompt is listed");
        let required: Vec<(&str, bool)> =
            args.arguments.iter().map(|argument| (argument.name.as_str(), argument.required)).collect();
        assert_eq!(required, [("city", true), ("state", false)]);
    });
}

#[test]
fn a_document_and_a_filled_template_are_read_and_a_blob_is_summarised() {
    with_everything(async |hub, snapshot| {
        let server = snapshot.tool_prefix.clone();
        let document = snapshot
            .offers
            .resources
            .iter()
            .find(|resource| resource.mime_type.as_deref() == Some("text/markdown"))
            .expect("a markdown document is listed");
        let text = read(&hub, &server, &document.uri).await.unwrap();
        assert!(text.len() > 100 && text.contains('#'), "the document's markdown comes back whole: {text}");

        let filled = read(&hub, &server, "demo://resource/dynamic/text/7").await.unwrap();
        assert!(filled.starts_with("Resource 7: This is a plaintext resource"), "{filled}");

        let blob = read(&hub, &server, "demo://resource/dynamic/blob/7").await.unwrap();
        assert!(
            blob.starts_with("[resource <demo://resource/dynamic/blob/7> text/plain, binary, about "),
            "a blob is summarised with its type and size: {blob}"
        );
        assert!(!blob.contains("UmVzb3VyY2Ug"), "its base64 is not given to the model: {blob}");

        let unknown = read(&hub, &server, "demo://resource/nothing/here").await.unwrap_err();
        assert!(unknown.starts_with("reading <demo://resource/nothing/here> from "), "{unknown}");
        assert!(unknown.contains("server error"), "the server's own refusal is passed on: {unknown}");
    });
}

#[test]
fn a_prompt_comes_back_filled_and_a_missing_argument_is_a_clear_error() {
    with_everything(async |hub, snapshot| {
        let server = snapshot.tool_prefix.clone();
        let arguments = BTreeMap::from([("city".to_owned(), "Lyon".to_owned())]);
        let filled = hub.get_prompt(&server, "args-prompt", arguments, CancelToken::new()).await.unwrap();
        assert_eq!(filled.messages.len(), 1);
        assert_eq!(filled.messages[0].role, PromptRole::User);
        assert_eq!(
            filled.messages[0].content,
            Content::Known(ContentBlock::Text { text: "What's weather in Lyon?".to_owned() })
        );
        let error = hub.get_prompt(&server, "args-prompt", BTreeMap::new(), CancelToken::new()).await.unwrap_err();
        assert!(error.starts_with("the prompt \"args-prompt\" of "), "{error}");
        assert!(error.contains("city"), "the error names the missing argument: {error}");
    });
}

#[test]
fn the_agents_resource_tools_list_and_read_server_everythings_resources() {
    with_everything(async |hub, snapshot| {
        let prefix = snapshot.tool_prefix.to_string();
        let remote: Rc<dyn RemoteServers> = Rc::new(hub.clone());
        let mut dispatcher = Dispatcher::new(Vec::new(), remote, Rc::new(TokioClock::default()), 60_000);
        let catalog = dispatcher.catalog();
        let offered: Vec<String> = dispatcher.tool_defs(&catalog).into_iter().map(|def| def.name).collect();
        let (list, read) = (format!("{prefix}_mcp_list_resources"), format!("{prefix}_mcp_read_resource"));
        assert!(offered.contains(&list) && offered.contains(&read), "{offered:?}");

        let listing = dispatcher.prepare(&catalog, CallId::new("l1"), &list, json!({}));
        let listed: Value = serde_json::from_str(&dispatcher.execute(&catalog, listing, &CancelToken::new()).await.text)
            .expect("the listing is JSON");
        let uri = listed["resources"][0]["uri"].as_str().expect("a resource uri").to_owned();
        assert!(listed["templates"].as_array().is_some_and(|templates| templates.len() >= 2), "{listed}");

        let reading = dispatcher.prepare(&catalog, CallId::new("r1"), &read, json!({ "uri": uri }));
        let executed = dispatcher.execute(&catalog, reading, &CancelToken::new()).await;
        assert!(!executed.result.is_error, "{}", executed.text);
        assert!(executed.text.len() > 100, "the resource's text: {}", executed.text);
    });
}

#[test]
fn a_prompt_arguments_suggestions_come_from_the_server_narrowed_by_what_is_filled() {
    with_everything(async |hub, snapshot| {
        let server = snapshot.tool_prefix.clone();
        let complete = |argument: &'static str, value: &'static str, filled: &[(&str, &str)]| {
            let filled: BTreeMap<String, String> = filled.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
            hub.complete_prompt_argument(&server, "completable-prompt", argument, value, filled, CancelToken::new())
        };
        assert_eq!(complete("department", "", &[]).await.unwrap(), ["Engineering", "Sales", "Marketing", "Support"]);
        assert_eq!(complete("department", "S", &[]).await.unwrap(), ["Sales", "Support"]);
        assert_eq!(complete("name", "", &[("department", "Sales")]).await.unwrap(), ["David", "Eve", "Frank"]);
    });
}
