//! WebMCP end to end, twice: against Chromium's own `document.modelContext` (started with
//! `--enable-features=WebMCP`) and against the app's built-in registry (without it). Another agent
//! lists and executes the page's tools through `document.modelContext` only: widget tools appear
//! with a widget and go with it, updates are validated and shown, `widget_display` builds the canvas;
//! the header says whether the browser offers WebMCP, tools that return third-party data say so, and
//! the person's "other agents" setting withdraws every tool.

use std::time::{Duration, Instant};

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::page::{Page, WAIT};
use autoui_e2e::with_app;
use serde_json::{Value, json};

// `recall` (every stored MCP result) only when the person allows it in the settings.
const PAGE_TOOLS: [&str; 5] = ["canvas", "get_recipe", "list_recipes", "search_recipes", "widget_display"];

/// The annotations `getTools()` lists for `name`.
const ANNOTATIONS: &str = r#"
const [name] = arguments;
return (async () => (await document.modelContext.getTools()).find((tool) => tool.name === name)?.annotations ?? null)();"#;

/// The names `document.modelContext.getTools()` lists, sorted.
const LIST_TOOLS: &str =
    "return (async () => (await document.modelContext.getTools()).map((tool) => tool.name).sort())();";

/// Executes a listed tool the way Chromium's API takes it (the tool from `getTools()` and the input
/// object) and parses the string it resolves to.
const EXECUTE: &str = r#"
const [name, input] = arguments;
return (async () => {
  const context = document.modelContext;
  const tool = (await context.getTools()).find((listed) => listed.name === name);
  if (!tool) return { missing: name };
  return JSON.parse(await context.executeTool(tool, input));
})();"#;

async fn tool_names(page: &Page) -> Vec<String> {
    let names = page.eval(LIST_TOOLS, vec![]).await;
    serde_json::from_value(names).unwrap_or_default()
}

/// Waits until the listed tools satisfy `ready`, and returns them.
async fn wait_for_tools(page: &Page, what: &str, ready: impl Fn(&[String]) -> bool) -> Vec<String> {
    let deadline = Instant::now() + WAIT;
    loop {
        let names = tool_names(page).await;
        if ready(&names) {
            return names;
        }
        assert!(Instant::now() < deadline, "the tools never {what}: {names:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn block_tools(id: &str) -> [String; 3] {
    [format!("block_{id}_get"), format!("block_{id}_remove"), format!("block_{id}_update")]
}

fn has_block_tools(names: &[String], id: &str) -> bool {
    block_tools(id).iter().all(|tool| names.contains(tool))
}

fn has_none_of(names: &[String], id: &str) -> bool {
    !names.iter().any(|name| name.starts_with(&format!("block_{id}_")))
}

async fn execute(page: &Page, name: &str, input: Value) -> Value {
    let result = page.eval(EXECUTE, vec![json!(name), input]).await;
    assert!(result.get("missing").is_none(), "no tool {name} is listed");
    result
}

/// Shows a stat-card through the page-level `widget_display` and returns its id.
async fn display(page: &Page, label: &str) -> String {
    let params = json!({ "name": "stat-card", "params": { "label": label, "value": "142" } });
    let result = execute(page, "widget_display", params).await;
    assert!(result.get("isError").is_none(), "widget_display failed: {result}");
    let id = result["structuredContent"]["id"].as_str().expect("widget_display answers with the id").to_owned();
    page.find(&format!("[data-widget-id={id}]")).await;
    id
}

async fn frame_title(page: &Page, id: &str) -> String {
    page.text(&format!("[data-widget-id={id}] .au-frame__title")).await
}

async fn wait_until_gone(page: &Page, id: &str) {
    let selector = format!("[data-widget-id={id}]");
    let deadline = Instant::now() + WAIT;
    while page.client().find(fantoccini::Locator::Css(&selector)).await.is_ok() {
        assert!(Instant::now() < deadline, "widget {id} is still on screen");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn another_agent_builds_and_edits_the_dashboard(page: Page, surface: &str, header: &str) {
    page.open("/").await;
    page.find("[data-testid=canvas]").await;
    assert_eq!(page.text("[data-testid=webmcp-status]").await, header, "the header says whether the browser offers WebMCP");
    page.click("[data-testid=open-settings]").await;
    // Its section comes with the engine, which opening Settings fetches on an empty canvas.
    let shown = page.wait_for_text("[data-testid=settings-webmcp]", "WebMCP: ").await;
    assert_eq!(shown, format!("WebMCP: {surface}"));
    page.click("[data-testid=settings] [aria-label='Close settings']").await;

    let names = wait_for_tools(&page, "listed the page tools", |names| names == PAGE_TOOLS).await;
    assert_eq!(names, PAGE_TOOLS, "an empty canvas has only the page-level tools");

    // widget_display through the registry puts a widget on the canvas, made by "another agent".
    let id = display(&page, "Revenue").await;
    assert_eq!(page.text(&format!("[data-widget-id={id}] [data-testid=provenance]")).await, "another agent");
    wait_for_tools(&page, "listed the new widget's tools", |names| has_block_tools(names, &id)).await;

    let read = execute(&page, &format!("block_{id}_get"), json!({})).await;
    assert_eq!(read["structuredContent"]["type"], "stat-card");
    assert_eq!(read["structuredContent"]["data"], json!({ "label": "Revenue", "value": "142" }));
    assert!(read["content"][0]["text"].as_str().is_some_and(|text| text.contains("\"Revenue\"")));
    let annotations = page.eval(ANNOTATIONS, vec![json!(format!("block_{id}_get"))]).await;
    assert_eq!(annotations["readOnlyHint"], true, "{annotations}");
    assert_eq!(annotations["untrustedContentHint"], true, "a widget's data came from tool results: {annotations}");

    // A valid update changes what is on screen.
    let updated = execute(&page, &format!("block_{id}_update"), json!({ "label": "Profit" })).await;
    assert!(updated.get("isError").is_none(), "{updated}");
    page.wait_for_text(&format!("[data-widget-id={id}] .au-frame__title"), "Profit").await;

    // An invalid one returns the validation error and changes nothing.
    let refused = execute(&page, &format!("block_{id}_update"), json!({ "variant": "purple" })).await;
    assert_eq!(refused["isError"], true);
    assert_eq!(refused["structuredContent"]["error"], "Validation failed");
    assert_eq!(refused["structuredContent"]["details"][0]["path"], "/variant");
    let after = execute(&page, &format!("block_{id}_get"), json!({})).await;
    assert_eq!(after["structuredContent"]["data"], json!({ "label": "Profit", "value": "142" }));
    assert_eq!(frame_title(&page, &id).await, "Profit");

    // Removed through its own tool: the widget and its tools go; the others stay.
    let kept = display(&page, "Kept").await;
    wait_for_tools(&page, "listed the second widget's tools", |names| has_block_tools(names, &kept)).await;
    let removed = execute(&page, &format!("block_{id}_remove"), json!({})).await;
    assert_eq!(removed["structuredContent"]["removed"], json!([id]));
    wait_until_gone(&page, &id).await;
    let names = wait_for_tools(&page, "dropped the removed widget's tools", |names| has_none_of(names, &id)).await;
    assert!(has_block_tools(&names, &kept), "{names:?}");

    // Removed by the person: its tools go too.
    page.click(&format!("[data-widget-id={kept}] [data-testid=widget-remove]")).await;
    wait_for_tools(&page, "dropped the tools of a widget removed by hand", |names| has_none_of(names, &kept)).await;

    // Clearing the canvas leaves only the page-level tools.
    let first = display(&page, "First").await;
    let second = display(&page, "Second").await;
    wait_for_tools(&page, "listed both widgets' tools", |names| {
        has_block_tools(names, &first) && has_block_tools(names, &second)
    })
    .await;
    page.click("[data-testid=clear-canvas]").await;
    let names = wait_for_tools(&page, "went back to the page tools", |names| names == PAGE_TOOLS).await;
    assert_eq!(names, PAGE_TOOLS);

    // The person lets them read stored results too, then turns other agents off: every tool goes.
    display(&page, "Last").await;
    page.click("[data-testid=open-settings]").await;
    page.click("[data-testid=settings-webmcp-recall]").await;
    wait_for_tools(&page, "listed recall once allowed", |names| names.iter().any(|name| name == "recall")).await;
    page.click("[data-testid=settings-webmcp-tools]").await;
    wait_for_tools(&page, "were all withdrawn", <[String]>::is_empty).await;
    page.click("[data-testid=settings] [aria-label='Close settings']").await;
    assert_eq!(page.text("[data-testid=webmcp-status]").await, "WebMCP off");

    let errors = page.console_errors().await;
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}

#[tokio::test]
async fn another_agent_uses_the_page_tools_through_chromium_native_webmcp() {
    let options = BrowserOptions { enable_features: vec!["WebMCP".into()], ..BrowserOptions::default() };
    with_app(options, |page| another_agent_builds_and_edits_the_dashboard(page, "native document.modelContext", "WebMCP on"))
        .await;
}

#[tokio::test]
async fn another_agent_uses_the_page_tools_through_the_built_in_registry() {
    with_app(BrowserOptions::default(), |page| {
        another_agent_builds_and_edits_the_dashboard(page, "built-in registry", "WebMCP: page only")
    })
    .await;
}
