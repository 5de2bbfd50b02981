//! One run of the client under test: connect to the scenario's server with the core's `McpHub`,
//! call every tool it lists (elicitations answered by the core's form logic with its defaults), then
//! end the session. The same session code as the app, over native HTTP.

use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::mcp::config::{McpOptions, ServerConfig};
use autoui_core::mcp::elicit::AcceptDefaults;
use autoui_core::mcp::hub::{HubEvent, McpHub, ServerStatus};
use autoui_core::mcp::legacy::HttpEventSource;
use autoui_core::mcp::session::SessionPorts;
use autoui_core::remote::RemoteServers;
use futures::StreamExt;
use futures::channel::mpsc;

use crate::arguments::sample_arguments;
use crate::clock::TokioClock;
use crate::http::ReqwestTransport;

/// Runs against `url`; `Err` says what failed (the process then exits non-zero).
pub async fn run(url: &str) -> Result<(), String> {
    let http = Rc::new(ReqwestTransport::new().map_err(|error| format!("no HTTP client: {error}"))?);
    let options = McpOptions::default();
    let event_sources = Rc::new(HttpEventSource::new(http.clone(), Vec::new(), options.max_message_bytes));
    let ports = SessionPorts { http, event_sources, clock: Rc::new(TokioClock::default()) };
    let hub = McpHub::new(ports, options);
    hub.set_elicitor(Rc::new(AcceptDefaults));
    tokio::task::spawn_local(hub.run());
    let (events, mut received) = mpsc::unbounded();
    hub.subscribe(move |event| {
        let _ = events.unbounded_send(event.clone());
    });
    hub.add_server(ServerConfig::new(url)).map_err(|error| error.to_string())?;
    while let Some(event) = received.next().await {
        match event {
            HubEvent::StatusChanged { status: ServerStatus::Connected { .. }, .. } => break,
            HubEvent::StatusChanged { status: ServerStatus::Failed { reason }, .. } => {
                return Err(format!("connecting failed: {reason}"));
            }
            HubEvent::Warning { message, .. } => eprintln!("warning: {message}"),
            _ => {}
        }
    }
    let server = hub.snapshots().into_iter().next().ok_or("the server is gone")?;
    println!(
        "connected to {} over {}: {} tools",
        server.name,
        server.transport.map_or("?", |transport| transport.label()),
        server.tools.len()
    );
    let mut failures = Vec::new();
    for tool in server.tools.iter() {
        let arguments = sample_arguments(&tool.input_schema);
        println!("calling {} with {arguments}", tool.name);
        match hub.call_tool(&server.id, &tool.name, arguments, CancelToken::new()).await {
            Ok(result) if !result.is_error => println!("  result: {}", result.text_content()),
            Ok(result) => failures.push(format!("{} reported an error: {}", tool.name, result.text_content())),
            Err(error) => failures.push(error.to_string()),
        }
    }
    hub.remove_server(&server.id).await;
    if failures.is_empty() { Ok(()) } else { Err(failures.join("; ")) }
}
