//! One run of the client under test: connect to the scenario's server with the core's `McpHub`,
//! call every tool it lists (elicitations answered by the core's form logic with its defaults), then
//! end the session. The same session code as the app, over native HTTP; a server that answers 401
//! gets the core's OAuth sign-in (`AuthorizedHttp`).

use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::mcp::config::{McpOptions, ServerConfig};
use autoui_core::mcp::elicit::AcceptDefaults;
use autoui_core::mcp::hub::{HubEvent, McpHub, ServerStatus};
use autoui_core::mcp::legacy::HttpEventSource;
use autoui_core::mcp::oauth::flow::OAuthPorts;
use autoui_core::mcp::oauth::transport::{AuthorizedHttp, SignInMode};
use autoui_core::mcp::session::SessionPorts;
use autoui_core::remote::RemoteServers;
use futures::StreamExt;
use futures::channel::mpsc;

use crate::arguments::sample_arguments;
use crate::auth::{FollowRedirect, SystemRandom, identity};
use crate::clock::TokioClock;
use crate::http::ReqwestTransport;

/// Runs against `url` (with `context`, the suite's credentials, if any); `Err` says what failed,
/// with the OAuth failure behind it if there was one (the process then exits non-zero).
pub async fn run(url: &str, context: Option<&str>) -> Result<(), String> {
    let no_client = |error: reqwest::Error| format!("no HTTP client: {error}");
    let clock = Rc::new(TokioClock::default());
    let oauth = OAuthPorts {
        http: Rc::new(ReqwestTransport::new().map_err(no_client)?),
        random: Rc::new(SystemRandom),
        clock: clock.clone(),
        authorizer: Rc::new(FollowRedirect::new().map_err(no_client)?),
    };
    let http = Rc::new(AuthorizedHttp::new(oauth, SignInMode::Automatic, identity(context), url, None));
    connect_and_call(http.clone(), clock).await.map_err(|error| match http.last_error() {
        Some(auth) => format!("{error} ({auth})"),
        None => error,
    })
}

async fn connect_and_call(http: Rc<AuthorizedHttp>, clock: Rc<TokioClock>) -> Result<(), String> {
    let url = http.server_url().to_owned();
    let url = url.as_str();
    let options = McpOptions::default();
    let event_sources = Rc::new(HttpEventSource::new(http.clone(), Vec::new(), options.max_message_bytes));
    let ports = SessionPorts { http, event_sources, clock };
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
