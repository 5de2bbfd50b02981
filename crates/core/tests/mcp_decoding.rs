//! Robust decoding of what servers list: a tool whose schema nests deeper than this client takes
//! (150 levels, past serde_json's own limit of 128) is skipped with a note naming it and saying
//! why, and the server's other tools are kept; a message nested past every bound is refused clearly.

#[path = "fixtures/mcp/support.rs"]
mod support;

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::mcp::config::{McpOptions, ServerConfig, TransportChoice};
use autoui_core::mcp::inbound::Notice;
use autoui_core::mcp::jsonrpc::{Message, nesting_depth};
use autoui_core::mcp::session::{ServerFacts, Session, SessionPorts};
use futures::task::LocalSpawnExt;
use serde_json::{Value, json};
use support::{FakeClock, FakeNet, FakeServer, Logged, tool};

/// An input schema whose `properties` nest `levels` objects deep.
fn deep_schema(levels: usize) -> Value {
    let mut schema = json!({"type": "string"});
    for _ in 0..levels {
        schema = json!({"type": "object", "properties": {"inner": schema}});
    }
    schema
}

fn connect_to(tools: Vec<Value>) -> ServerFacts {
    let clock = FakeClock::default();
    let server = Rc::new(RefCell::new(FakeServer { pages: vec![tools], list_changed: false, ..FakeServer::default() }));
    let net = FakeNet::new(move |request: &Logged, _: &FakeNet| server.borrow_mut().streamable(request));
    let notices = Rc::new(RefCell::new(Vec::new()));
    let sink = notices.clone();
    let ports = SessionPorts { http: net.clone(), event_sources: net.clone(), clock: Rc::new(clock.clone()) };
    let config = ServerConfig { transport: TransportChoice::Streamable, ..ServerConfig::new("http://127.0.0.1:3001/mcp") };
    let session =
        Rc::new(Session::new(config, ports, McpOptions::default(), Rc::new(move |notice| sink.borrow_mut().push(notice))));
    let runner = session.clone();
    let waiting = clock.clone();
    support::simulate(
        &clock,
        move |spawner| {
            spawner
                .spawn_local(async move {
                    panic!("the session stopped: {}", runner.run().await);
                })
                .unwrap()
        },
        async move {
            while !notices.borrow().contains(&Notice::Connected) {
                support::pass_time(&waiting, 1).await;
            }
            session.facts()
        },
    )
}

#[test]
fn a_tool_nested_over_150_levels_deep_is_skipped_by_name_and_the_others_are_kept() {
    let deep = json!({"name": "deep_report", "description": "Too deep", "inputSchema": deep_schema(75)});
    assert_eq!(nesting_depth(&deep.to_string()), 152, "151 schema levels inside the tool object");
    let facts = connect_to(vec![tool("before"), deep, tool("after")]);
    let names: Vec<&str> = facts.tools.iter().map(|tool| tool.name.as_str()).collect();
    assert_eq!(names, ["before", "after"]);
    assert_eq!(
        facts.unreadable_tools,
        ["tool \"deep_report\" (tools/list page 1) is skipped: its input schema is nested 151 levels deep, \
          more than the 64 this client accepts"]
    );
}

#[test]
fn a_nested_schema_within_the_bound_is_kept_whole() {
    let facts = connect_to(vec![json!({"name": "nested", "inputSchema": deep_schema(30)})]);
    assert_eq!(facts.tools[0].input_schema, deep_schema(30));
    assert!(facts.unreadable_tools.is_empty());
}

#[test]
fn a_message_nested_past_every_bound_is_refused_with_its_depth() {
    let text = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let error = Message::parse_all(&text).unwrap_err().to_string();
    assert_eq!(error, "the message is nested 300 levels deep, more than the 256 this client reads");
    assert_eq!(nesting_depth(r#"{"a": "[[[{{{", "b": [1]}"#), 2, "brackets in strings do not count");
}
