//! A server of 3,000 tools (tests/servers/hub_server.py) under a model profile of 32k tokens: the
//! model pages through `list_tools`, finds its tool with `search_tools`, calls it (activating the
//! server) and builds a dashboard, and no request it was sent exceeds the profile's request budget
//! (the seed sent about 800 KB after activating such a server).

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm, calls_to, tool_names};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::with_app;
use serde_json::{Value, json};

const DISPLAY: &str = "autoui_webmcp_widget_display";
const DATA_TOOL: &str = "hub_mcp_step_0042";
/// The profile's request budget: 3 bytes a token × (32,768 − 4,096) tokens × 2/3 (see ARCHITECTURE.md).
const REQUEST_BUDGET: usize = 3 * (32_768 - 4_096) * 2 / 3;

fn runs(request: &Value) -> Vec<Value> {
    calls_to(request, DATA_TOOL)
        .pop()
        .and_then(|call| call.json()["runs_by_region"].as_array().cloned())
        .unwrap_or_default()
}

fn script(request: &Value, index: usize) -> Reply {
    match index {
        0 => Reply::tool("hub_mcp_list_tools", json!({})),
        1 => Reply::tool("hub_mcp_search_tools", json!({"query": "step 42"})),
        2 if tool_names(request).iter().any(|name| name == DATA_TOOL) => Reply::tool(DATA_TOOL, json!({})),
        2 => Reply::text("the tool search_tools found is not offered"),
        3 => {
            let runs = runs(request);
            if runs.is_empty() {
                return Reply::text("no runs");
            }
            let total: i64 = runs.iter().filter_map(|row| row["runs"].as_i64()).sum();
            Reply::tools(vec![
                (DISPLAY, json!({"name": "stat-card", "params": {"label": "Runs", "value": total.to_string()}})),
                (
                    DISPLAY,
                    json!({"name": "chart-rich", "params": {"title": "Runs by region", "type": "bar",
                        "labels": runs.iter().map(|row| row["region"].clone()).collect::<Vec<_>>(),
                        "data": [{"label": "Runs", "values": runs.iter().map(|row| row["runs"].clone()).collect::<Vec<_>>()}]}}),
                ),
            ])
        }
        _ => Reply::text("Here are the hub's runs."),
    }
}

#[tokio::test]
async fn with_a_server_of_three_thousand_tools_no_request_exceeds_the_profiles_budget() {
    let server = McpServer::python("hub_server.py", Transport::Streamable).await;
    let llm = ScriptedLlm::start(script).await;
    let base = llm.base_url();
    let url = server.url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        let profile = json!({"context_tokens": 32_768, "output_tokens": 4_096, "max_output_tokens": 8_192, "prices": null});
        page.configure_llm_with("anthropic", &base, json!({"model": "claude-haiku-4-5", "profiles": {"claude-haiku-4-5": profile}, "limits_from_profile": true}))
            .await;
        let status = page.add_server(&url, "hub").await;
        assert!(status.contains("3000"), "{status}");
        page.say("show the hub's runs").await;
        page.wait_for_runs(1).await;
        page.wait_for_text("[data-testid=chat-assistant]", "Here are the hub's runs.").await;
        page.wait_for_count("[data-testid=widget]", 2).await;
        page.wait_for_text("[data-widget-type=stat-card]", "3955").await;
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;

    let requests = llm.requests();
    assert_eq!(requests.len(), 5, "one request per iteration");
    for (index, request) in requests.iter().enumerate() {
        let size = request.to_string().len();
        assert!(size <= REQUEST_BUDGET, "request {index} is {size} bytes, over the budget of {REQUEST_BUDGET}");
    }
    // The page is shortened to the profile's result limit; its count and next page come first.
    let listed = calls_to(&requests[1], "hub_mcp_list_tools").pop().and_then(|call| call.result).expect("listed");
    assert!(listed.starts_with("{\"count\":3000,\"next\":\"call hub_mcp_list_tools({\\\"offset\\\": 50})"), "{}", &listed[..200.min(listed.len())]);
    let after = tool_names(&requests[3]);
    let hub: Vec<&String> = after.iter().filter(|name| name.starts_with("hub_mcp_step_")).collect();
    assert_eq!(hub.first().map(|name| name.as_str()), Some(DATA_TOOL), "the called tool is offered first");
    assert!(hub.len() < 3_000, "{} of the 3,000 tools offered", hub.len());
}
