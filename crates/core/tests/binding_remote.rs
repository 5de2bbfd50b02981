//! A binding's calls over the MCP client: the tool runs on its server only when nobody has to be
//! asked; a tool that needs approval, a server that is down and an unknown tool are errors naming
//! the cause; every call is reported for the console.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::approval::{ApprovalChoice, ApprovalRules};
use autoui_core::binding::fetch::SourceFetcher;
use autoui_core::binding::remote::{RemoteFetcher, SourceCall};
use autoui_core::binding::source::Target;
use autoui_core::cancel::CancelToken;
use autoui_core::ids::ServerId;
use autoui_core::remote::RemoteStatus;
use autoui_core::tool::{ToolResult, ToolSpec};
use common::mcp::{Behaviour, FakeMcp, spec};
use futures::executor::block_on;
use serde_json::json;

fn writer(name: &str) -> ToolSpec {
    ToolSpec { read_only: false, ..spec(name, "changes things") }
}

fn remote_fetcher(mcp: FakeMcp, rules: ApprovalRules) -> (RemoteFetcher, Rc<FakeMcp>, Rc<RefCell<Vec<SourceCall>>>) {
    let mcp = Rc::new(mcp);
    let seen = Rc::new(RefCell::new(Vec::new()));
    let log = seen.clone();
    let fetcher = RemoteFetcher::new(
        mcp.clone(),
        Rc::new(move |_: &ServerId| rules.clone()),
        Rc::new(move |call| log.borrow_mut().push(call)),
    );
    (fetcher, mcp, seen)
}

fn call(name: &str) -> Target {
    Target::Call { call: name.to_owned(), arguments: json!({"city": "Oslo"}) }
}

#[test]
fn a_read_only_tool_is_called_on_its_server_and_reported() {
    let time = ToolResult { structured: Some(json!({"time": "05:40"})), ..ToolResult::text("05:40") };
    let mcp = FakeMcp::new().server("basic", vec![spec("get-time", "the time")]).on("basic", "get-time", Behaviour::Reply(time.clone()));
    let (fetcher, mcp, seen) = remote_fetcher(mcp, ApprovalRules::default());
    let result = block_on(fetcher.fetch(&call("basic_mcp_get-time"), CancelToken::default())).unwrap();
    assert_eq!(result, time);
    assert_eq!(mcp.calls()[0].tool, "get-time");
    assert_eq!(mcp.calls()[0].args, json!({"city": "Oslo"}));
    assert_eq!(seen.borrow()[0].label, "basic_mcp_get-time");
    assert_eq!(seen.borrow()[0].outcome, Ok("05:40".to_owned()), "the console gets the result's text");
}

#[test]
fn a_tool_that_needs_approval_is_never_run_by_a_binding() {
    let mcp = FakeMcp::new().server("shop", vec![writer("order")]).on("shop", "order", Behaviour::Reply(ToolResult::text("ok")));
    let (fetcher, mcp, seen) = remote_fetcher(mcp, ApprovalRules::default());
    let error = block_on(fetcher.fetch(&call("shop_mcp_order"), CancelToken::default())).unwrap_err();
    assert!(error.contains("needs the person's approval"), "{error}");
    assert!(mcp.calls().is_empty());
    assert!(seen.borrow()[0].outcome.is_err(), "the refusal is reported too");

    // Unless the person chose "Always allow" for it.
    let mut rules = ApprovalRules::default();
    rules.set_tool("order", Some(ApprovalChoice::AlwaysAllow));
    let mcp = FakeMcp::new().server("shop", vec![writer("order")]).on("shop", "order", Behaviour::Reply(ToolResult::text("{}")));
    let (fetcher, mcp, _) = remote_fetcher(mcp, rules);
    block_on(fetcher.fetch(&call("shop_mcp_order"), CancelToken::default())).unwrap();
    assert_eq!(mcp.calls().len(), 1);
}

#[test]
fn errors_name_the_cause() {
    let mcp = FakeMcp::new()
        .server_with_status("down", vec![spec("t", "")], RemoteStatus::Failed("connection refused".into()))
        .server("up", vec![spec("t", "")]);
    let (fetcher, mcp, _) = remote_fetcher(mcp, ApprovalRules::default());
    let fetch = |target: Target| block_on(fetcher.fetch(&target, CancelToken::default())).unwrap_err();
    assert!(fetch(call("down_mcp_t")).contains("not connected: connection refused"));
    assert!(fetch(call("up_mcp_nope")).contains("has no tool \"nope\""));
    assert!(fetch(call("gone_mcp_t")).contains("no MCP server \"gone\""));
    assert!(fetch(call("samples_webmcp_sales")).contains("only an MCP server's tool"));
    assert!(fetch(call("no-marker")).contains("unknown tool name format"));
    assert!(fetch(Target::Resource { resource: "demo://x".into() }).contains("no connected MCP server lists"));
    assert!(mcp.calls().is_empty());
}

#[test]
fn a_resource_is_read_from_the_server_that_lists_it() {
    let mcp = FakeMcp::new().server("status", vec![]).resource("status", "demo://status", "Status", "{\"up\": 3}");
    let (fetcher, _, _) = remote_fetcher(mcp, ApprovalRules::default());
    let result = block_on(fetcher.fetch(&Target::Resource { resource: "demo://status".into() }, CancelToken::default())).unwrap();
    assert!(result.text_content().contains("\"up\": 3"), "{result:?}");
}
