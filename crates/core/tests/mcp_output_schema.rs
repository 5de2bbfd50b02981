//! A tool's declared `outputSchema` (MCP 2025-06-18 on): "servers MUST provide structured results
//! that conform to this schema" and "clients SHOULD validate structured results against this schema".
//! A successful result without `structuredContent`, or with one that does not conform, reaches the
//! model as an error naming the problem; a conforming result, an error result and a tool without an
//! output schema are as they were. The model is told which tools return `structuredContent`.

#[path = "fixtures/mcp/support.rs"]
mod support;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use autoui_core::cancel::CancelToken;
use autoui_core::ids::ServerId;
use autoui_core::mcp::config::{McpOptions, ServerConfig, TransportChoice};
use autoui_core::mcp::hub::{McpHub, ServerStatus};
use autoui_core::mcp::normalize::to_tool_result;
use autoui_core::mcp::session::SessionPorts;
use autoui_core::recipes::validate::{SchemaValidator, ValidatorError, Verdict};
use autoui_core::remote::RemoteServers;
use autoui_core::tool::ToolResult;
use futures::future::LocalBoxFuture;
use futures::task::LocalSpawnExt;
use serde_json::{Value, json};
use support::{FakeClock, FakeNet, FakeServer, Logged, Reply, rpc_result, tool};

const URL: &str = "http://127.0.0.1:3001/mcp";

/// `weather` declares an output schema requiring `temp`; `echo` declares none.
fn tools() -> Vec<Value> {
    let mut weather = tool("weather");
    weather["description"] = json!("Current weather");
    weather["outputSchema"] = json!({
        "type": "object",
        "properties": {"temp": {"type": "number"}, "conditions": {"type": "string"}},
        "required": ["temp"],
    });
    vec![weather, tool("echo")]
}

/// Runs `main` against a server whose `tools/call` answers with `result`, once it is connected.
fn call_with<T: 'static>(
    result: Value,
    validator: Option<Rc<dyn SchemaValidator>>,
    main: impl AsyncFnOnce(McpHub<FakeNet>, ServerId) -> T + 'static,
) -> T {
    let server = Rc::new(RefCell::new(FakeServer { list_changed: false, pages: vec![tools()], ..FakeServer::default() }));
    let net = FakeNet::new(move |request: &Logged, _: &FakeNet| match request.rpc() {
        "tools/call" => Reply::json(200, rpc_result(request.id(), result.clone())),
        _ => server.borrow_mut().streamable(request),
    });
    let clock = FakeClock::default();
    let ports = SessionPorts { http: net.clone(), event_sources: net.clone(), clock: Rc::new(clock.clone()) };
    let hub = McpHub::new(ports, McpOptions::default());
    if let Some(validator) = validator {
        hub.set_validator(validator);
    }
    let runner = hub.run();
    let waiting = clock.clone();
    support::simulate(&clock, move |spawner| spawner.spawn_local(runner).unwrap(), async move {
        let config = ServerConfig { transport: TransportChoice::Streamable, ..ServerConfig::new(URL) };
        let id = hub.add_server(config).unwrap();
        while !hub.snapshots().iter().any(|snapshot| matches!(snapshot.status, ServerStatus::Connected { .. })) {
            support::pass_time(&waiting, 1).await;
        }
        let prefix = hub.snapshots().into_iter().find(|snapshot| snapshot.id == id).unwrap().tool_prefix;
        main(hub, prefix).await
    })
}

fn call(tool: &'static str, result: Value) -> ToolResult {
    call_with(result, None, async move |hub, server| {
        hub.call_tool(&server, tool, json!({}), CancelToken::new()).await.unwrap()
    })
}

/// What the model got before output schemas were checked.
fn as_sent(result: Value) -> ToolResult {
    to_tool_result(serde_json::from_value(result).unwrap())
}

#[test]
fn structured_content_missing_a_required_field_is_an_error_naming_it() {
    let sent = json!({"content": [{"type": "text", "text": "{}"}], "structuredContent": {}});
    let result = call("weather", sent);
    assert!(result.is_error);
    assert_eq!(
        result.text_content(),
        "the server's result does not match this tool's declared output schema: /temp: required property \"temp\" \
         is missing\n{}"
    );
    assert_eq!(result.structured, Some(json!({})), "what the server sent is kept");
}

#[test]
fn a_result_without_structured_content_is_an_error_saying_so() {
    let result = call("weather", json!({"content": [{"type": "text", "text": "21 degrees"}]}));
    assert!(result.is_error);
    assert_eq!(
        result.text_content(),
        "the server's result does not match this tool's declared output schema: structuredContent is missing\n\
         21 degrees"
    );
}

#[test]
fn a_conforming_result_is_unchanged() {
    let sent = json!({"content": [{"type": "text", "text": "21 degrees"}], "structuredContent": {"temp": 21.5}});
    assert_eq!(call("weather", sent.clone()), as_sent(sent));
}

#[test]
fn an_error_result_is_the_servers_error_whatever_the_schema() {
    let sent = json!({"content": [{"type": "text", "text": "no such city"}], "isError": true});
    assert_eq!(call("weather", sent.clone()), as_sent(sent));
}

#[test]
fn a_tool_without_an_output_schema_is_unchanged() {
    for sent in [json!({"content": [{"type": "text", "text": "hi"}]}), json!({"structuredContent": {}})] {
        assert_eq!(call("echo", sent.clone()), as_sent(sent));
    }
}

/// The page's validator before its module has loaded, or after it failed to.
struct Unavailable;

impl SchemaValidator for Unavailable {
    fn ready(&self) -> LocalBoxFuture<'_, Result<(), ValidatorError>> {
        Box::pin(futures::future::ready(Err(ValidatorError::Unavailable("its module did not load".to_owned()))))
    }

    fn validate(&self, _: &Arc<Value>, _: &Value) -> Verdict {
        Err(ValidatorError::Unavailable("its module did not load".to_owned()))
    }
}

#[test]
fn the_hubs_validator_is_used_and_one_that_cannot_answer_leaves_the_result_with_a_note() {
    let sent = json!({"content": [{"type": "text", "text": "{}"}], "structuredContent": {}});
    let result = call_with(sent, Some(Rc::new(Unavailable)), async |hub, server| {
        hub.call_tool(&server, "weather", json!({}), CancelToken::new()).await.unwrap()
    });
    assert!(!result.is_error, "an unchecked result is not the server's failure");
    assert_eq!(
        result.text_content(),
        "{}\n(not checked against the tool's declared output schema: the schema validator is not available: its \
         module did not load)"
    );
}

#[test]
fn the_model_is_told_which_tools_return_structured_content_and_its_fields() {
    let tools = call_with(json!({}), None, async |hub, _| hub.servers()[0].tools.clone());
    assert_eq!(tools[0].description, "Current weather\nReturns structuredContent with: conditions, temp.");
    assert_eq!(tools[1].description, "The echo tool", "no output schema, nothing added");
}
