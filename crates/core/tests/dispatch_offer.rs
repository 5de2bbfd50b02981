//! Staged activation under a tool-definition budget: tools that `search_tools`, `list_tools` or a
//! recipe name are offered in the next request without activating their server; activating a server
//! of thousands of tools offers only what fits the budget, the tools found or called first;
//! `list_tools` pages a large server and `search_tools` returns its best matches only.

mod common;

use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::dispatch::offer::def_len;
use autoui_core::dispatch::pseudo::{LIST_PAGE, SEARCH_LIMIT};
use autoui_core::dispatch::{Dispatcher, Executed};
use autoui_core::ids::CallId;
use autoui_core::tool::{LocalServer, ToolResult};
use common::autoui::{FakeAutoui, FakeSamples};
use common::clock::FakeClock;
use common::mcp::{Behaviour, FakeMcp, spec};
use futures::executor::block_on;
use serde_json::{Value, json};

const BUDGET: usize = 12_000;

fn dispatcher(mcp: FakeMcp, budget: Option<usize>) -> Dispatcher {
    let clock = FakeClock::new();
    let results = Rc::new(autoui_core::agent::buffer::ResultBuffer::new());
    let local: Vec<Rc<dyn LocalServer>> = vec![Rc::new(FakeAutoui::new(results)), Rc::new(FakeSamples)];
    let mut dispatcher = Dispatcher::new(local, Rc::new(mcp.with_clock(Rc::new(clock.clone()))), Rc::new(clock), 60_000);
    dispatcher.set_tool_budget(budget);
    dispatcher
}

/// A server of `count` tools named `op_0000`…, each with a schema like real servers'.
fn hub(count: usize) -> FakeMcp {
    let tools = (0..count)
        .map(|n| spec(&format!("op_{n:04}"), &format!("Automation step number {n}: runs the {n} action on a record")))
        .collect();
    FakeMcp::new().server("Hub", tools).on("hub", "op_0042", Behaviour::Reply(ToolResult::text("done")))
}

fn call(dispatcher: &mut Dispatcher, name: &str, args: Value) -> Executed {
    let catalog = dispatcher.catalog();
    let prepared = dispatcher.prepare(&catalog, CallId::new("c"), name, args);
    block_on(dispatcher.execute(&catalog, prepared, &CancelToken::new()))
}

fn offered(dispatcher: &Dispatcher) -> Vec<String> {
    dispatcher.tool_defs(&dispatcher.catalog()).into_iter().map(|def| def.name).collect()
}

fn offered_bytes(dispatcher: &Dispatcher) -> usize {
    dispatcher.tool_defs(&dispatcher.catalog()).iter().map(def_len).sum()
}

#[test]
fn tools_search_tools_finds_are_offered_next_without_activating_the_server() {
    let mut dispatcher = dispatcher(hub(30), Some(BUDGET));
    assert!(!offered(&dispatcher).contains(&"hub_mcp_op_0007".to_owned()));
    call(&mut dispatcher, "hub_mcp_search_tools", json!({ "query": "op_0007" }));
    assert!(offered(&dispatcher).contains(&"hub_mcp_op_0007".to_owned()), "{:?}", offered(&dispatcher));
    assert!(dispatcher.activated().is_empty(), "no activation");
}

#[test]
fn without_a_budget_the_seeds_lazy_activation_stays() {
    let mut dispatcher = dispatcher(hub(30), None);
    call(&mut dispatcher, "hub_mcp_search_tools", json!({ "query": "op_0007" }));
    assert!(!offered(&dispatcher).contains(&"hub_mcp_op_0007".to_owned()));
}

#[test]
fn a_recipe_that_names_a_tool_stages_it_ahead_of_the_servers_other_tools() {
    let shop = FakeMcp::new()
        .server(
            "Shop",
            vec![
                spec("get_recipe", "Read a dashboard recipe"),
                spec("monthly_sales", "Sales by month"),
                spec("refunds", "Refunds by month"),
            ],
        )
        .on(
            "shop",
            "get_recipe",
            Behaviour::Reply(ToolResult::text("Call shop_mcp_refunds, then show a chart.")),
        );
    let mut dispatcher = dispatcher(shop, Some(BUDGET));
    let recipe = call(&mut dispatcher, "shop_mcp_get_recipe", json!({ "name": "sales" }));
    assert!(!recipe.result.is_error, "{}", recipe.text);
    let names = offered(&dispatcher);
    let position = |tool: &str| names.iter().position(|name| name == tool).expect("offered");
    assert!(position("shop_mcp_refunds") < position("shop_mcp_monthly_sales"), "the named tool first: {names:?}");
}

#[test]
fn activating_a_server_of_three_thousand_tools_offers_what_fits_the_budget_the_called_tool_first() {
    let mut dispatcher = dispatcher(hub(3_000), Some(BUDGET));
    let executed = call(&mut dispatcher, "hub_mcp_op_0042", json!({}));
    assert_eq!(executed.text.as_ref(), "done");
    let names = offered(&dispatcher);
    assert!(offered_bytes(&dispatcher) <= BUDGET, "{} bytes offered", offered_bytes(&dispatcher));
    let hub_tools: Vec<&String> = names.iter().filter(|name| name.starts_with("hub_mcp_op_")).collect();
    assert_eq!(hub_tools.first().map(|name| name.as_str()), Some("hub_mcp_op_0042"), "the called tool first");
    assert!(hub_tools.len() > 10 && hub_tools.len() < 3_000, "{} of 3,000 offered", hub_tools.len());
    assert!(names.contains(&"hub_mcp_search_tools".to_owned()), "search_tools stays the way to the rest");
}

#[test]
fn list_tools_pages_a_server_of_thousands_of_tools() {
    let mut dispatcher = dispatcher(hub(3_000), Some(BUDGET));
    let first = call(&mut dispatcher, "hub_mcp_list_tools", json!({}));
    let page: Value = serde_json::from_str(&first.text).expect("JSON");
    assert_eq!(page["count"], 3_000);
    assert_eq!(page["tools"].as_array().map(Vec::len), Some(LIST_PAGE));
    assert!(page["next"].as_str().is_some_and(|next| next.contains("\"offset\": 50")), "{}", page["next"]);
    assert!(first.text.len() < 20_000, "{} bytes", first.text.len());
    let last = call(&mut dispatcher, "hub_mcp_list_tools", json!({ "offset": 2_990 }));
    let page: Value = serde_json::from_str(&last.text).expect("JSON");
    assert_eq!(page["tools"].as_array().map(Vec::len), Some(10));
    assert!(page["next"].is_null());
}

#[test]
fn search_tools_returns_the_best_matches_and_says_how_many_more() {
    let mut dispatcher = dispatcher(hub(3_000), Some(BUDGET));
    let found = call(&mut dispatcher, "hub_mcp_search_tools", json!({ "query": "automation record" }));
    let answer: Value = serde_json::from_str(&found.text).expect("JSON");
    assert_eq!(answer["tools"].as_array().map(Vec::len), Some(SEARCH_LIMIT));
    assert!(answer["more"].as_str().is_some_and(|more| more.starts_with("2980 more")), "{}", answer["more"]);
}

#[test]
fn a_later_search_is_offered_before_an_earlier_listing_page() {
    let mut dispatcher = dispatcher(hub(3_000), Some(BUDGET));
    call(&mut dispatcher, "hub_mcp_list_tools", json!({}));
    call(&mut dispatcher, "hub_mcp_search_tools", json!({ "query": "op_2999" }));
    let names = offered(&dispatcher);
    let hub: Vec<&String> = names.iter().filter(|name| name.starts_with("hub_mcp_op_")).collect();
    assert_eq!(hub.first().map(|name| name.as_str()), Some("hub_mcp_op_2999"), "{hub:?}");
}

#[test]
fn a_model_the_app_does_not_know_gets_staged_activation_within_its_small_windows_budget() {
    let settings = autoui_core::settings::Settings { model: "my-finetune:3b".to_owned(), ..Default::default() };
    let budget = settings.derived_limits().map(|limits| limits.tool_budget);
    let mut dispatcher = dispatcher(hub(3_000), budget);
    call(&mut dispatcher, "hub_mcp_search_tools", json!({ "query": "op_0042" }));
    assert!(offered(&dispatcher).contains(&"hub_mcp_op_0042".to_owned()), "staged: {:?}", offered(&dispatcher));
    call(&mut dispatcher, "hub_mcp_op_0042", json!({}));
    assert!(offered_bytes(&dispatcher) <= budget.unwrap_or_default(), "{} bytes offered", offered_bytes(&dispatcher));
}
