//! A binding's calls over the MCP client: the tool runs on its server only when nobody has to be
//! asked; a tool that needs approval, a server that is down and an unknown tool are errors naming
//! the cause; every call is reported for the console. A source calls a tool by the name the model
//! was offered, an alias when the real name has dots or slashes or is long, resolved as the
//! dispatcher resolves the model's calls, so it binds and keeps working after a reload.

mod common;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use autoui_core::approval::{ApprovalChoice, ApprovalRules};
use autoui_core::autoui::AutoUi;
use autoui_core::autoui::bind::Sources;
use autoui_core::binding::fetch::SourceFetcher;
use autoui_core::binding::remote::{RemoteFetcher, SourceCall};
use autoui_core::binding::source::{Target, servers_needed};
use autoui_core::cancel::CancelToken;
use autoui_core::dispatch::Dispatcher;
use autoui_core::ids::{BlockId, ServerId};
use autoui_core::remote::RemoteStatus;
use autoui_core::tool::{LocalServer, ToolResult, ToolSpec};
use common::Counter;
use common::autoui_server::Harness;
use common::clock::FakeClock;
use common::mcp::{Behaviour, FakeMcp, spec};
use futures::executor::block_on;
use serde_json::json;

fn writer(name: &str) -> ToolSpec {
    ToolSpec { read_only: false, ..spec(name, "changes things") }
}

fn remote_fetcher(mcp: FakeMcp, rules: ApprovalRules) -> (RemoteFetcher, Rc<FakeMcp>, Rc<RefCell<Vec<SourceCall>>>) {
    remote_fetcher_on(Rc::new(mcp), rules)
}

fn remote_fetcher_on(mcp: Rc<FakeMcp>, rules: ApprovalRules) -> (RemoteFetcher, Rc<FakeMcp>, Rc<RefCell<Vec<SourceCall>>>) {
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

/// 70 characters: with its server's prefix, longer than providers accept, so the model gets a hashed alias.
const LONG_TOOL: &str = "read_the_quarterly_revenue_breakdown_by_region_and_product_line_for_q3";

/// A `files` server whose `files.read` and [`LONG_TOOL`] answer `{"size": n}`, n counting its calls;
/// after `others`, as the page lists its servers.
fn files_server(others: &[&str]) -> Rc<FakeMcp> {
    let mut mcp = FakeMcp::new();
    for other in others {
        mcp = mcp.server(other, vec![spec("files.read", "Reads a note")]);
    }
    let reads = Rc::new(Cell::new(0));
    let mut mcp = mcp.server("files", vec![spec("files.read", "Reads a file"), spec(LONG_TOOL, "Reads a report")]);
    for tool in ["files.read", LONG_TOOL] {
        let reads = reads.clone();
        mcp = mcp.on_args("files", tool, move |_| {
            reads.set(reads.get() + 1);
            Behaviour::Reply(ToolResult::json(json!({"size": reads.get()})))
        });
    }
    Rc::new(mcp)
}

/// The name the dispatcher offers the model for `files`'s tool `real`, with autoui as the page has it.
fn offered(mcp: &Rc<FakeMcp>, real: &str) -> String {
    let autoui: Rc<dyn LocalServer> = Rc::new(Harness::new().ui);
    let dispatcher = Dispatcher::new(vec![autoui], mcp.clone(), Rc::new(FakeClock::new()), 60_000);
    let catalog = dispatcher.catalog();
    let files = catalog.servers().iter().find(|server| server.id.as_str() == "files").expect("the files server");
    files.tools.iter().find(|tool| tool.real == real).map(|tool| tool.exposed.clone()).expect("the tool is offered")
}

/// `h`'s autoui, its sources running on `mcp` through the page's fetcher (as after a reload).
fn run_sources_on(h: &mut Harness, mcp: Rc<FakeMcp>) {
    let (fetcher, _, _) = remote_fetcher_on(mcp, ApprovalRules::default());
    let ui = AutoUi::new(h.canvas.clone(), h.results.clone(), Rc::new(Counter::new(1)));
    h.ui = ui.with_sources(Sources { fetcher: Rc::new(fetcher), clock: Rc::new(FakeClock::new()) });
}

#[test]
fn a_tool_whose_name_has_a_dot_or_is_long_binds_under_the_name_the_model_was_offered_and_refreshes() {
    for real in ["files.read", LONG_TOOL] {
        let mcp = files_server(&[]);
        let call = offered(&mcp, real);
        assert_ne!(call, format!("files_mcp_{real}"), "the model is offered an alias of {real}");
        let mut h = Harness::new();
        run_sources_on(&mut h, mcp.clone());

        let source = json!({"call": call, "map": "{value: (.size | tostring)}", "refresh": "on_open"});
        let shown = h.ok("widget_display", json!({"name": "stat-card", "params": {"label": "Size"}, "source": source}));
        let id = BlockId::new(shown["id"].as_str().unwrap());
        assert_eq!(shown["data"]["value"], "1", "{real}");
        block_on(h.ui.refresh_block(&id, CancelToken::default())).unwrap();
        assert_eq!(h.block(id.as_str()).data["value"], "2", "{real}");
        let called: Vec<String> = mcp.calls().into_iter().map(|call| call.tool).collect();
        assert_eq!(called, [real, real], "the real tool is called");
        assert_eq!(servers_needed(&[h.block(id.as_str())])[0].server.as_str(), "files", "{call}");

        // After a reload the servers connect again, here with another one listed first: the stored
        // source still calls the same tool.
        let reloaded = files_server(&["notes"]);
        run_sources_on(&mut h, reloaded.clone());
        block_on(h.ui.refresh_block(&id, CancelToken::default())).unwrap();
        assert_eq!(h.block(id.as_str()).data["value"], "1", "{real}");
        assert_eq!(reloaded.calls()[0].server, "files");
        assert_eq!(reloaded.calls()[0].tool, real);
    }
}

#[test]
fn an_aliased_tool_is_refused_like_any_other_when_it_needs_approval() {
    let mcp = FakeMcp::new().server("files", vec![writer("files.write")]).on("files", "files.write", Behaviour::Reply(ToolResult::text("{}")));
    let (fetcher, mcp, seen) = remote_fetcher(mcp, ApprovalRules::default());
    let error = block_on(fetcher.fetch(&call("files_mcp_files_write"), CancelToken::default())).unwrap_err();
    assert!(error.contains("files.write on the files server needs the person's approval"), "{error}");
    assert!(mcp.calls().is_empty());
    assert_eq!(seen.borrow()[0].server, Some(ServerId::sanitize("files")));
}

#[test]
fn a_tools_listing_is_not_a_source() {
    let mcp = FakeMcp::new().server("files", vec![spec("files.read", "")]);
    let (fetcher, mcp, _) = remote_fetcher(mcp, ApprovalRules::default());
    let error = block_on(fetcher.fetch(&call("files_mcp_list_tools"), CancelToken::default())).unwrap_err();
    assert!(error.contains("not one of the server's own tools"), "{error}");
    assert!(mcp.calls().is_empty());
}
