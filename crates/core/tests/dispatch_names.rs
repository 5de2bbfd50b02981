//! The alias map: canonical `{server}_{protocol}_{tool}` names, provider-safe aliases for names the
//! providers would refuse, canonical recipe-tool names for a server's own recipe tools, and parsing
//! of server names that contain underscores.

mod common;

use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::dispatch::Dispatcher;
use autoui_core::dispatch::alias::is_provider_safe;
use autoui_core::dispatch::catalog::{Catalog, Entry, ToolRole};
use autoui_core::ids::CallId;
use autoui_core::remote::{RemoteServerView, RemoteServers, RemoteStatus};
use autoui_core::tool::{LocalServer, ToolResult};
use common::clock::FakeClock;
use common::mcp::{Behaviour, FakeMcp, spec};
use futures::executor::block_on;
use serde_json::json;

fn views(mcp: &FakeMcp) -> Vec<RemoteServerView> {
    mcp.servers()
}

fn exposed(catalog: &Catalog, server: &str) -> Vec<(String, String)> {
    catalog
        .servers()
        .iter()
        .filter(|candidate| candidate.id.as_str() == server)
        .flat_map(|candidate| candidate.tools.iter().map(|tool| (tool.exposed.clone(), tool.real.clone())))
        .collect()
}

#[test]
fn valid_canonical_names_are_used_as_they_are() {
    let mcp = FakeMcp::new().server("My Weather MCP", vec![spec("get_forecast", "Forecast")]);
    let catalog = Catalog::build(&[], &views(&mcp));
    assert_eq!(
        exposed(&catalog, "my_weather"),
        [("my_weather_mcp_get_forecast".to_owned(), "get_forecast".to_owned())]
    );
}

#[test]
fn names_with_characters_providers_refuse_get_a_safe_alias_that_still_routes_to_the_real_tool() {
    let mcp = FakeMcp::new().server("files", vec![spec("fs.read file", "Read"), spec("fs/write", "Write")]).on(
        "files",
        "fs.read file",
        Behaviour::Reply(ToolResult::text("content")),
    );
    let catalog = Catalog::build(&[], &views(&mcp));
    assert_eq!(
        exposed(&catalog, "files"),
        [
            ("files_mcp_fs_read_file".to_owned(), "fs.read file".to_owned()),
            ("files_mcp_fs_write".to_owned(), "fs/write".to_owned()),
        ]
    );
    let clock = FakeClock::new();
    let mcp = Rc::new(mcp);
    let mut dispatcher = Dispatcher::new(Vec::new(), mcp.clone(), Rc::new(clock), 60_000);
    let prepared = dispatcher.prepare(&catalog, CallId::new("c1"), "files_mcp_fs_read_file", json!({}));
    let executed = block_on(dispatcher.execute(&catalog, prepared, &CancelToken::new()));
    assert_eq!(executed.text.as_ref(), "content");
    assert_eq!(mcp.calls()[0].tool, "fs.read file");
}

#[test]
fn names_longer_than_64_characters_get_a_stable_short_alias() {
    let long = "get_the_quarterly_revenue_breakdown_by_region_and_product_line_for_finance";
    let mcp = FakeMcp::new().server("enterprise data warehouse", vec![spec(long, "Revenue")]);
    let first = Catalog::build(&[], &views(&mcp));
    let second = Catalog::build(&[], &views(&mcp));
    let (name, real) = exposed(&first, "enterprise_data_warehouse").remove(0);
    assert!(is_provider_safe(&name), "{name}");
    assert_eq!(name.len(), 64);
    assert!(name.starts_with("enterprise_data_warehouse_mcp_get_the_quarterly"), "{name}");
    assert_eq!(real, long);
    assert_eq!(exposed(&second, "enterprise_data_warehouse")[0].0, name, "the alias is stable");
    assert_eq!(first.lookup(&name), Some(Entry::Tool { server: 0, tool: 0 }));
}

#[test]
fn two_tools_that_clean_up_to_the_same_name_get_different_aliases() {
    let mcp = FakeMcp::new().server("files", vec![spec("read.file", "A"), spec("read_file", "B")]);
    let catalog = Catalog::build(&[], &views(&mcp));
    let names: Vec<String> = exposed(&catalog, "files").into_iter().map(|(name, _)| name).collect();
    assert_eq!(names[0], "files_mcp_read_file");
    assert_ne!(names[1], names[0]);
    assert!(is_provider_safe(&names[1]));
}

#[test]
fn a_servers_own_recipe_tools_are_exposed_under_the_canonical_recipe_names() {
    let mcp = FakeMcp::new().server(
        "Tricoteuses",
        vec![
            spec("browse_skills", "Browse skills"),
            spec("findTemplates", "Find dashboard templates"),
            spec("load_playbook", "Load one playbook"),
            spec("query_sql", "Run SQL on the parliament database"),
        ],
    );
    let catalog = Catalog::build(&[], &views(&mcp));
    assert_eq!(
        exposed(&catalog, "tricoteuses"),
        [
            ("tricoteuses_mcp_list_recipes".to_owned(), "browse_skills".to_owned()),
            ("tricoteuses_mcp_search_recipes".to_owned(), "findTemplates".to_owned()),
            ("tricoteuses_mcp_get_recipe".to_owned(), "load_playbook".to_owned()),
            ("tricoteuses_mcp_query_sql".to_owned(), "query_sql".to_owned()),
        ]
    );
    let roles: Vec<ToolRole> = catalog.servers()[0].tools.iter().map(|tool| tool.role).collect();
    assert!(matches!(roles[..], [ToolRole::Recipe(_), ToolRole::Recipe(_), ToolRole::Recipe(_), ToolRole::Data]));
}

#[test]
fn a_data_tool_that_mentions_templates_is_not_mistaken_for_a_recipe_tool() {
    let mcp = FakeMcp::new()
        .server("mail", vec![spec("send_mail", "Send a mail from a template"), spec("get_inbox", "Inbox")]);
    let catalog = Catalog::build(&[], &views(&mcp));
    assert!(catalog.servers()[0].tools.iter().all(|tool| tool.role == ToolRole::Data));
}

#[test]
fn exact_recipe_names_win_over_lookalikes() {
    let mcp =
        FakeMcp::new().server("kb", vec![spec("list_skills", "List skills"), spec("list_recipes", "List recipes")]);
    let catalog = Catalog::build(&[], &views(&mcp));
    assert_eq!(
        exposed(&catalog, "kb"),
        [
            ("kb_mcp_list_skills".to_owned(), "list_skills".to_owned()),
            ("kb_mcp_list_recipes".to_owned(), "list_recipes".to_owned())
        ]
    );
}

#[test]
fn server_names_with_underscores_and_protocol_words_parse_to_the_right_server() {
    let mcp = FakeMcp::new()
        .server("open data_portal", vec![spec("get_dataset", "A dataset")])
        .server("MCP Open Data", vec![spec("get_dataset", "Another")])
        .on("open_data_portal", "get_dataset", Behaviour::Reply(ToolResult::text("portal")))
        .on("open_data", "get_dataset", Behaviour::Reply(ToolResult::text("open data")));
    let mcp = Rc::new(mcp);
    let mut dispatcher =
        Dispatcher::new(Vec::<Rc<dyn LocalServer>>::new(), mcp.clone(), Rc::new(FakeClock::new()), 60_000);
    let catalog = dispatcher.catalog();
    let names: Vec<&str> = catalog.servers().iter().map(|server| server.id.as_str()).collect();
    assert_eq!(names, ["open_data_portal", "open_data"]);
    for (name, expected) in [("open_data_portal_mcp_get_dataset", "portal"), ("open_data_mcp_get_dataset", "open data")]
    {
        let prepared = dispatcher.prepare(&catalog, CallId::new("c"), name, json!({}));
        let executed = block_on(dispatcher.execute(&catalog, prepared, &CancelToken::new()));
        assert_eq!(executed.text.as_ref(), expected);
    }
}

#[test]
fn pseudo_tools_exist_for_every_server_even_without_recipes() {
    let mcp = FakeMcp::new().server("files", vec![spec("read", "Read")]).server_with_status(
        "later",
        vec![],
        RemoteStatus::Connecting,
    );
    let catalog = Catalog::build(&[], &views(&mcp));
    let files = &catalog.servers()[0];
    assert_eq!(
        (files.list_tools.as_str(), files.search_tools.as_str()),
        ("files_mcp_list_tools", "files_mcp_search_tools")
    );
    let defs: Vec<String> = catalog.tool_defs(&[]).into_iter().map(|tool| tool.name).collect();
    assert_eq!(defs, ["files_mcp_search_tools", "files_mcp_list_tools"], "a connecting server offers nothing yet");
}

#[test]
fn every_offered_schema_is_an_object_schema() {
    let mut odd = spec("odd", "No schema type");
    odd.input_schema = json!({ "properties": { "a": { "type": "string" } } });
    let mut broken = spec("broken", "Not an object");
    broken.input_schema = json!("nonsense");
    let mcp = FakeMcp::new().server("x", vec![odd, broken]);
    let catalog = Catalog::build(&[], &views(&mcp));
    for tool in &catalog.servers()[0].tools {
        assert_eq!(tool.schema["type"], "object", "{}", tool.exposed);
    }
    assert_eq!(catalog.servers()[0].tools[0].schema["properties"]["a"]["type"], "string");
}
