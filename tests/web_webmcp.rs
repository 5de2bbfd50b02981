//! Browser tier: the WebMCP bridge finds each shape of model context (current `document`, MCP-B 1.x
//! and 2025-explainer `navigator`, none), keeps bad names away from it, survives refusals, and its
//! built-in registry behaves like the browser's; the page's tools follow the canvas state.
#![cfg(target_arch = "wasm32")]

mod support;

use std::any::Any;
use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

use autoui::adapters::webmcp::{PageTool, RegisterError, Surface, WebMcp, is_valid_tool_name};
use autoui::state::autoui::provide_autoui_with;
use autoui::state::canvas::{CanvasCtx, provide_canvas};
use autoui::state::webmcp::{PageAccess, provide_webmcp_on};
use autoui_core::canvas::model::Canvas;
use autoui_core::canvas::op::{CanvasPort, Op};
use autoui_core::canvas::style::Style;
use autoui_core::ids::BlockId;
use autoui_core::recipes::validate::in_process::JsonSchemaValidator;
use autoui_core::tool::{Origin, ToolResult, ToolSpec};
use autoui_core::widget_kind::WidgetKind;
use futures::future::{LocalBoxFuture, ready};
use js_sys::{Object, Reflect};
use leptos::prelude::{RwSignal, Set};
use serde_json::{Value, json};
use support::settle;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

// Stand-ins for each shape a page may offer, recording what the bridge does with them.
#[wasm_bindgen(inline_js = r#"
export function host_with(context) { return context === undefined ? {} : { modelContext: context }; }

export function fake_current() {
  const fake = { calls: [], aborted: [], tools: {} };
  fake.registerTool = (tool, options) => {
    fake.calls.push({ name: tool.name, hasSignal: options?.signal instanceof AbortSignal });
    fake.tools[tool.name] = tool;
    options?.signal?.addEventListener('abort', () => fake.aborted.push(tool.name));
    return Promise.resolve();
  };
  return fake;
}

export function fake_mcp_b_1() {
  const fake = { calls: [], unregistered: [], tools: {} };
  fake.registerTool = (tool) => {
    fake.calls.push({ name: tool.name });
    fake.tools[tool.name] = tool;
    return { unregister: () => fake.unregistered.push(tool.name) };
  };
  return fake;
}

export function fake_explainer() {
  const fake = { calls: [], unregistered: [], tools: {} };
  fake.registerTool = (tool) => { fake.calls.push({ name: tool.name }); fake.tools[tool.name] = tool; };
  fake.unregisterTool = (name) => fake.unregistered.push(name);
  return fake;
}

export function fake_refusing(how) {
  const fake = { calls: [] };
  fake.registerTool = (tool) => {
    fake.calls.push({ name: tool.name });
    if (how === 'throw') throw new DOMException('blocked by policy', 'SecurityError');
    return Promise.reject(new DOMException('Duplicate tool name', 'InvalidStateError'));
  };
  return fake;
}

export function record(fake) { return JSON.stringify({ calls: fake.calls, aborted: fake.aborted, unregistered: fake.unregistered }); }

export function descriptor(fake, name) {
  const { execute, ...rest } = fake.tools[name];
  return JSON.stringify({ ...rest, executeIsFunction: typeof execute === 'function' });
}

export async function run_execute(fake, name, input) { return JSON.stringify(await fake.tools[name].execute(input)); }

export function count_toolchanges(context) {
  const counter = { listener: 0, handler: 0 };
  context.addEventListener('toolchange', () => counter.listener++);
  context.ontoolchange = () => counter.handler++;
  return counter;
}

export function js_tool(name, description) {
  return {
    name,
    description,
    inputSchema: { type: 'object', properties: { x: { type: 'string' } } },
    annotations: { readOnlyHint: true },
    execute: async (input) => {
      if (input.fail) throw new Error('boom');
      return { content: [{ type: 'text', text: `got ${input.x}` }], structuredContent: { x: input.x } };
    },
  };
}

export async function register_outcome(context, tool, abort) {
  const controller = new AbortController();
  if (abort === 'before') controller.abort();
  try {
    await context.registerTool(tool, { signal: controller.signal });
  } catch (error) {
    return error.name;
  }
  if (abort === 'after') controller.abort();
  return 'ok';
}

// Starts a call with an AbortSignal (directly on a fake's execute, as Chromium calls it, or through
// the built-in registry's executeTool), aborts it on the next task, and returns what the call gave.
export async function execute_then_abort(target, through, name) {
  const controller = new AbortController();
  const call = through === 'registry'
    ? target.executeTool(name, {}, { signal: controller.signal }).then((text) => JSON.parse(text))
    : target.tools[name].execute({}, { signal: controller.signal });
  setTimeout(() => controller.abort(), 0);
  return JSON.stringify(await call);
}

export async function tool_list(context) { return JSON.stringify(await context.getTools()); }

export async function execute_outcome(context, pick, name, input) {
  const tool = pick === 'object' ? (await context.getTools()).find((t) => t.name === name) : name;
  try {
    return JSON.stringify({ ok: await context.executeTool(tool, input) });
  } catch (error) {
    return JSON.stringify({ error: error.name, message: error.message });
  }
}
"#)]
extern "C" {
    fn host_with(context: &JsValue) -> Object;
    fn fake_current() -> Object;
    fn fake_mcp_b_1() -> Object;
    fn fake_explainer() -> Object;
    fn fake_refusing(how: &str) -> Object;
    fn record(fake: &Object) -> String;
    fn descriptor(fake: &Object, name: &str) -> String;
    async fn run_execute(fake: &Object, name: &str, input: JsValue) -> JsValue;
    fn count_toolchanges(context: &Object) -> Object;
    fn js_tool(name: &str, description: &str) -> Object;
    async fn register_outcome(context: &Object, tool: Object, abort: &str) -> JsValue;
    async fn tool_list(context: &Object) -> JsValue;
    async fn execute_then_abort(target: &Object, through: &str, name: &str) -> JsValue;
    async fn execute_outcome(context: &Object, pick: &str, name: &str, input: JsValue) -> JsValue;
}

fn parse(text: JsValue) -> Value {
    serde_json::from_str(&text.as_string().expect("a JSON string")).expect("valid JSON")
}

fn js(value: &Value) -> JsValue {
    js_sys::JSON::parse(&value.to_string()).expect("valid JSON")
}

fn number(target: &Object, key: &str) -> f64 {
    Reflect::get(target, &key.into()).ok().and_then(|value| value.as_f64()).unwrap_or(f64::NAN)
}

fn empty_host() -> Object {
    host_with(&JsValue::UNDEFINED)
}

/// A tool whose execute echoes its input, or fails with a JSON error when the input has `fail`.
fn echo_tool(name: &str, read_only: bool) -> PageTool {
    PageTool {
        spec: ToolSpec {
            name: name.to_owned(),
            title: Some("Echo".to_owned()),
            description: "Echoes its input".to_owned(),
            input_schema: json!({ "type": "object", "properties": { "x": { "type": "string" } } }),
            read_only,
            hints: Default::default(),
            ui: None,
        },
        untrusted_content: false,
        execute: Rc::new(|input: Value, _cancel| -> LocalBoxFuture<'static, ToolResult> {
            let result = if input.get("fail").is_some() {
                ToolResult::error_json(json!({ "error": "asked to fail" }))
            } else {
                ToolResult::json(json!({ "echo": input }))
            };
            Box::pin(ready(result))
        }),
    }
}

/// A tool that never answers by itself: only its caller's signal ends it.
fn waiting_tool(name: &str) -> PageTool {
    PageTool {
        untrusted_content: false,
        execute: Rc::new(|_input, _cancel| -> LocalBoxFuture<'static, ToolResult> { Box::pin(futures::future::pending()) }),
        ..echo_tool(name, true)
    }
}

fn model_context(host: &Object) -> Object {
    Reflect::get(host, &"modelContext".into()).expect("modelContext").into()
}

// --- detection and legacy fallbacks -------------------------------------------------------------

#[wasm_bindgen_test]
async fn the_current_document_surface_wins_and_aborting_its_signal_unregisters() {
    let current = fake_current();
    let legacy = fake_mcp_b_1();
    let bridge = WebMcp::connect_on(&host_with(&current), &host_with(&legacy));
    assert_eq!(bridge.surface(), Surface::Native);
    assert_eq!(bridge.surface().label(), "native document.modelContext");

    let registration = bridge.register(echo_tool("echo", true)).expect("registered");
    settle().await;
    let seen = parse(record(&current).into());
    assert_eq!(seen["calls"], json!([{ "name": "echo", "hasSignal": true }]));
    assert_eq!(parse(record(&legacy).into())["calls"], json!([]), "the navigator surface is left alone");
    let described = parse(descriptor(&current, "echo").into());
    assert_eq!(described["title"], "Echo");
    assert_eq!(described["description"], "Echoes its input");
    assert_eq!(described["inputSchema"]["properties"]["x"]["type"], "string");
    assert_eq!(
        described["annotations"],
        json!({ "readOnlyHint": true, "untrustedContentHint": false, "consequentialHint": false })
    );
    assert_eq!(described["executeIsFunction"], true);

    drop(registration);
    assert_eq!(parse(record(&current).into())["aborted"], json!(["echo"]));
    assert!(bridge.problems().is_empty(), "nothing went wrong: {:?}", bridge.problems());
}

#[wasm_bindgen_test]
async fn an_mcp_b_1_navigator_surface_is_unregistered_through_the_handle_it_returned() {
    let legacy = fake_mcp_b_1();
    let bridge = WebMcp::connect_on(&empty_host(), &host_with(&legacy));
    assert_eq!(bridge.surface(), Surface::Legacy);
    assert_eq!(bridge.surface().label(), "legacy navigator.modelContext");

    let registration = bridge.register(echo_tool("block_w_1_get", true)).expect("registered");
    assert_eq!(parse(record(&legacy).into())["calls"], json!([{ "name": "block_w_1_get" }]));
    drop(registration);
    assert_eq!(parse(record(&legacy).into())["unregistered"], json!(["block_w_1_get"]));
}

#[wasm_bindgen_test]
async fn an_explainer_navigator_surface_is_unregistered_by_name() {
    let legacy = fake_explainer();
    let bridge = WebMcp::connect_on(&empty_host(), &host_with(&legacy));
    assert_eq!(bridge.surface(), Surface::Legacy);

    let first = bridge.register(echo_tool("one", false)).expect("registered");
    let second = bridge.register(echo_tool("two", false)).expect("registered");
    drop(second);
    assert_eq!(parse(record(&legacy).into())["unregistered"], json!(["two"]));
    drop(first);
    assert_eq!(parse(record(&legacy).into())["unregistered"], json!(["two", "one"]));
}

#[wasm_bindgen_test]
async fn without_any_surface_the_built_in_registry_is_installed_on_document_and_navigator() {
    let document = empty_host();
    let navigator = empty_host();
    let bridge = WebMcp::connect_on(&document, &navigator);
    assert_eq!(bridge.surface(), Surface::BuiltIn);
    assert_eq!(bridge.surface().label(), "built-in registry");
    let installed = model_context(&document);
    assert!(
        JsValue::from(&installed) == JsValue::from(model_context(&navigator)),
        "navigator.modelContext is an alias"
    );

    let again = WebMcp::connect_on(&document, &navigator);
    assert_eq!(again.surface(), Surface::BuiltIn, "a second connection recognises the app's own registry");
}

#[wasm_bindgen_test]
async fn the_page_itself_gets_the_built_in_registry_when_the_browser_has_none() {
    let bridge = WebMcp::connect();
    assert_eq!(bridge.surface(), Surface::BuiltIn, "the test browser runs without the WebMCP feature");
    let document = JsValue::from(web_sys::window().unwrap().document().unwrap());
    let navigator = JsValue::from(web_sys::window().unwrap().navigator());
    let on_document = Reflect::get(&document, &"modelContext".into()).unwrap();
    assert!(on_document.is_object());
    assert!(on_document == Reflect::get(&navigator, &"modelContext".into()).unwrap());

    let _registration = bridge.register(echo_tool("page_echo", true)).expect("registered");
    settle().await;
    let listed = parse(tool_list(&on_document.into()).await);
    assert!(listed.as_array().unwrap().iter().any(|tool| tool["name"] == "page_echo"));
}

#[wasm_bindgen_test]
async fn names_that_break_the_rules_never_reach_register_tool() {
    let current = fake_current();
    let bridge = WebMcp::connect_on(&host_with(&current), &empty_host());
    let too_long = "a".repeat(129);
    for name in ["", "has space", "café", "slash/name", too_long.as_str()] {
        let refused = bridge.register(echo_tool(name, true)).expect_err("refused");
        assert_eq!(refused, RegisterError::InvalidName(name.to_owned()));
    }
    assert_eq!(parse(record(&current).into())["calls"], json!([]));
    assert!(is_valid_tool_name(&"a".repeat(128)));
    assert!(is_valid_tool_name("block_w_a3f2k9.v-2"));
    assert_eq!(bridge.problems().len(), 5, "each refusal is logged: {:?}", bridge.problems());
}

#[wasm_bindgen_test]
async fn a_rejected_registration_is_logged_once_and_does_not_panic() {
    let refusing = fake_refusing("reject");
    let bridge = WebMcp::connect_on(&host_with(&refusing), &empty_host());
    let first = bridge.register(echo_tool("taken", true));
    let second = bridge.register(echo_tool("taken", true));
    assert!(first.is_ok() && second.is_ok(), "the refusal arrives later, through the Promise");
    settle().await;
    assert_eq!(
        bridge.problems(),
        vec!["WebMCP: the model context refused tool \"taken\": InvalidStateError: Duplicate tool name".to_owned()]
    );
}

#[wasm_bindgen_test]
async fn a_registration_that_throws_is_reported_and_logged_once() {
    let refusing = fake_refusing("throw");
    let bridge = WebMcp::connect_on(&empty_host(), &host_with(&refusing));
    assert_eq!(bridge.surface(), Surface::Legacy);
    for _ in 0..3 {
        let refused = bridge.register(echo_tool("blocked", true)).expect_err("refused");
        assert_eq!(
            refused,
            RegisterError::Refused {
                name: "blocked".to_owned(),
                reason: "SecurityError: blocked by policy".to_owned()
            }
        );
    }
    assert_eq!(bridge.problems().len(), 1);
}

#[wasm_bindgen_test]
async fn a_registration_withdrawn_before_it_settles_is_not_reported() {
    let refusing = fake_refusing("reject");
    let bridge = WebMcp::connect_on(&host_with(&refusing), &empty_host());
    drop(bridge.register(echo_tool("gone", true)).expect("registered"));
    settle().await;
    assert!(bridge.problems().is_empty(), "an abort is not a failure: {:?}", bridge.problems());
}

#[wasm_bindgen_test]
async fn execute_answers_in_the_mcp_result_shape() {
    let current = fake_current();
    let bridge = WebMcp::connect_on(&host_with(&current), &empty_host());
    let _registration = bridge.register(echo_tool("echo", true)).expect("registered");

    let result = parse(run_execute(&current, "echo", js(&json!({ "x": "hi" }))).await);
    assert_eq!(result["content"], json!([{ "type": "text", "text": "{\"echo\":{\"x\":\"hi\"}}" }]));
    assert_eq!(result["structuredContent"], json!({ "echo": { "x": "hi" } }));
    assert!(result.get("isError").is_none());

    let failed = parse(run_execute(&current, "echo", js(&json!({ "fail": true }))).await);
    assert_eq!(failed["isError"], true);
    assert_eq!(failed["structuredContent"], json!({ "error": "asked to fail" }));

    let no_input = parse(run_execute(&current, "echo", JsValue::UNDEFINED).await);
    assert_eq!(no_input["structuredContent"], json!({ "echo": {} }), "a call without input is a call with {{}}");

    let not_an_object = parse(run_execute(&current, "echo", js(&json!([1, 2]))).await);
    assert_eq!(not_an_object["isError"], true);
    assert_eq!(
        not_an_object["content"][0]["text"], "the input must be a JSON object of arguments, not [1,2]",
        "bad input is an error result, never an exception"
    );

    // Text beyond ASCII crosses into wasm whole (as UTF-8 bytes).
    let text = json!({ "city": "Zürich", "label": "東京 · 🚀 \"quoted\" \\ end" });
    let accented = parse(run_execute(&current, "echo", js(&text)).await);
    assert_eq!(accented["structuredContent"], json!({ "echo": text }));

    // An object JSON cannot hold is an error result that says why.
    let cyclic = Object::new();
    Reflect::set(&cyclic, &"self".into(), &cyclic).expect("set");
    let unreadable = parse(run_execute(&current, "echo", cyclic.into()).await);
    assert_eq!(unreadable["isError"], true);
    let message = unreadable["content"][0]["text"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("the input could not be read as JSON: TypeError:") && message.contains("circular"),
        "{message}"
    );
}

#[wasm_bindgen_test]
async fn aborting_the_callers_signal_ends_a_call_with_a_result_that_says_so() {
    let current = fake_current();
    let bridge = WebMcp::connect_on(&host_with(&current), &empty_host());
    let _registration = bridge.register(waiting_tool("wait")).expect("registered");
    let result = parse(execute_then_abort(&current, "execute", "wait").await);
    assert_eq!(result["isError"], true);
    assert!(result["content"][0]["text"].as_str().unwrap().contains("cancelled"), "{result}");

    let document = empty_host();
    let bridge = WebMcp::connect_on(&document, &empty_host());
    let _registration = bridge.register(waiting_tool("wait")).expect("registered");
    let result = parse(execute_then_abort(&model_context(&document), "registry", "wait").await);
    assert_eq!(result["isError"], true, "the built-in registry hands its caller's signal on: {result}");
}

// --- the built-in registry ---------------------------------------------------------------------

fn built_in() -> Object {
    let document = empty_host();
    WebMcp::connect_on(&document, &empty_host());
    model_context(&document)
}

#[wasm_bindgen_test]
async fn the_built_in_registry_lists_what_was_registered_and_fires_toolchange() {
    let registry = built_in();
    let changes = count_toolchanges(&registry);
    assert_eq!(register_outcome(&registry, js_tool("echo", "Echoes x"), "").await, "ok");
    assert_eq!(number(&changes, "listener"), 1.0, "toolchange fires before registerTool resolves");
    assert_eq!(number(&changes, "handler"), 1.0, "ontoolchange is called too");

    let listed = parse(tool_list(&registry).await);
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
    assert_eq!(listed[0]["name"], "echo");
    assert_eq!(listed[0]["description"], "Echoes x");
    assert_eq!(listed[0]["inputSchema"]["properties"]["x"]["type"], "string");
    assert_eq!(listed[0]["annotations"]["readOnlyHint"], true);
    assert!(listed[0]["origin"].as_str().is_some_and(|origin| origin.starts_with("http")));
}

#[wasm_bindgen_test]
async fn the_built_in_registry_executes_by_name_or_listed_tool_with_json_or_object_input() {
    let registry = built_in();
    assert_eq!(register_outcome(&registry, js_tool("echo", "Echoes x"), "").await, "ok");

    let by_name = parse(execute_outcome(&registry, "name", "echo", JsValue::from_str("{\"x\":\"a\"}")).await);
    let text = by_name["ok"].as_str().expect("a string result");
    let result: Value = serde_json::from_str(text).expect("the result is JSON text");
    assert_eq!(result["structuredContent"], json!({ "x": "a" }));

    let by_tool = parse(execute_outcome(&registry, "object", "echo", js(&json!({ "x": "b" }))).await);
    let result: Value = serde_json::from_str(by_tool["ok"].as_str().unwrap()).unwrap();
    assert_eq!(result["content"][0]["text"], "got b", "the Chromium form: a tool from getTools and an input object");

    let failing = parse(execute_outcome(&registry, "name", "echo", js(&json!({ "fail": true }))).await);
    assert_eq!(failing["error"], "UnknownError");
    let unknown = parse(execute_outcome(&registry, "name", "nope", js(&json!({}))).await);
    assert_eq!(unknown["error"], "NotFoundError");
    let bad_json = parse(execute_outcome(&registry, "name", "echo", JsValue::from_str("{oops")).await);
    assert_eq!(bad_json["error"], "TypeError");
}

#[wasm_bindgen_test]
async fn the_built_in_registry_rejects_duplicates_bad_names_and_aborted_signals_like_the_spec() {
    let registry = built_in();
    let changes = count_toolchanges(&registry);
    assert_eq!(register_outcome(&registry, js_tool("echo", "first"), "").await, "ok");
    assert_eq!(register_outcome(&registry, js_tool("echo", "second"), "").await, "InvalidStateError");
    assert_eq!(register_outcome(&registry, js_tool("bad name", "x"), "").await, "InvalidStateError");
    assert_eq!(register_outcome(&registry, js_tool(&"a".repeat(129), "x"), "").await, "InvalidStateError");
    assert_eq!(register_outcome(&registry, js_tool("no_description", ""), "").await, "InvalidStateError");
    assert_eq!(register_outcome(&registry, js_tool("pre_aborted", "x"), "before").await, "AbortError");
    assert_eq!(number(&changes, "listener"), 1.0, "refused registrations change nothing");

    let listed = parse(tool_list(&registry).await);
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
    assert_eq!(listed[0]["description"], "first", "the duplicate did not replace the first");
}

#[wasm_bindgen_test]
async fn aborting_the_signal_removes_the_tool_and_fires_toolchange() {
    let registry = built_in();
    let changes = count_toolchanges(&registry);
    assert_eq!(register_outcome(&registry, js_tool("short_lived", "x"), "after").await, "ok");
    settle().await;
    assert_eq!(parse(tool_list(&registry).await), json!([]));
    assert_eq!(number(&changes, "listener"), 2.0, "one toolchange for the registration, one for the removal");
    assert_eq!(register_outcome(&registry, js_tool("short_lived", "again"), "").await, "ok", "the name is free again");
}

// --- the page's tools follow the canvas --------------------------------------------------------

struct Page {
    canvas: CanvasCtx,
    access: RwSignal<PageAccess>,
    registry: Object,
    // The mounted root owns the reactive state; dropping it disposes the page.
    mounted: Box<dyn Any>,
}

/// The app's canvas, autoui server and WebMCP tools, mounted on a fresh stand-in document.
fn page() -> Page {
    let document = empty_host();
    let host = document.clone();
    let canvas = Rc::new(Cell::new(None));
    let provided = canvas.clone();
    let access = RwSignal::new(PageAccess { tools: true, recall: false });
    let container = web_sys::window().unwrap().document().unwrap().create_element("div").unwrap();
    let mounted = leptos::mount::mount_to(container.unchecked_into(), move || {
        let canvas = provide_canvas(Canvas::new());
        // Validation in-process: the test server has no validator module to fetch.
        let autoui = provide_autoui_with(canvas, Rc::new(JsonSchemaValidator::default()));
        provide_webmcp_on(WebMcp::connect_on(&host, &empty_host()), canvas, autoui, access.into());
        provided.set(Some(canvas));
    });
    Page { canvas: canvas.get().expect("mounted"), access, registry: model_context(&document), mounted: Box::new(mounted) }
}

impl Page {
    fn add(&self, id: &str, label: &str) -> BlockId {
        let id = BlockId::new(id);
        let data = Arc::new(json!({ "label": label, "value": "42" }));
        let add = Op::Add { id: id.clone(), kind: WidgetKind::StatCard, data, layout: None, style: Style::default() };
        self.canvas.apply(add, Origin::User).expect("added");
        id
    }

    async fn names(&self) -> Vec<String> {
        settle().await;
        let listed = parse(tool_list(&self.registry).await);
        let mut names: Vec<String> =
            listed.as_array().unwrap().iter().filter_map(|tool| tool["name"].as_str().map(str::to_owned)).collect();
        names.sort();
        names
    }

    async fn tool(&self, name: &str) -> Value {
        settle().await;
        let listed = parse(tool_list(&self.registry).await);
        listed.as_array().unwrap().iter().find(|tool| tool["name"] == name).cloned().unwrap_or(Value::Null)
    }

    async fn call(&self, name: &str, input: Value) -> Value {
        settle().await;
        let outcome = parse(execute_outcome(&self.registry, "object", name, js(&input)).await);
        let text = outcome["ok"].as_str().unwrap_or_else(|| panic!("{name} failed: {outcome}"));
        serde_json::from_str(text).expect("an MCP result")
    }

    fn data(&self, id: &BlockId) -> Value {
        CanvasPort::get(&self.canvas, id).map(|block| Value::clone(&block.data)).unwrap_or(Value::Null)
    }
}

// `recall` is not among them unless the person allows it.
const PAGE_TOOLS: [&str; 5] = ["canvas", "get_recipe", "list_recipes", "search_recipes", "widget_display"];

#[wasm_bindgen_test]
async fn the_autoui_tools_are_open_to_other_agents_under_their_own_names() {
    let page = page();
    assert_eq!(page.names().await, PAGE_TOOLS);
    let display = page.tool("widget_display").await;
    assert!(display["description"].as_str().unwrap().contains("stat-card"));
    assert_eq!(page.tool("list_recipes").await["annotations"]["readOnlyHint"], true);
    assert_eq!(page.tool("canvas").await["annotations"]["readOnlyHint"], false);
    assert_eq!(page.tool("canvas").await["annotations"]["untrustedContentHint"], true, "it lists widget data");
    assert_eq!(page.tool("get_recipe").await["annotations"]["untrustedContentHint"], false);
}

#[wasm_bindgen_test]
async fn recall_is_offered_only_when_the_person_allows_it_and_is_marked_untrusted() {
    let page = page();
    assert!(!page.names().await.contains(&"recall".to_owned()));
    page.access.set(PageAccess { tools: true, recall: true });
    assert!(page.names().await.contains(&"recall".to_owned()));
    assert_eq!(page.tool("recall").await["annotations"]["untrustedContentHint"], true);
    page.access.set(PageAccess { tools: true, recall: false });
    assert_eq!(page.names().await, PAGE_TOOLS);
}

#[wasm_bindgen_test]
async fn turning_other_agents_off_unregisters_every_tool_and_on_brings_them_back() {
    let page = page();
    let id = page.add("w1", "Revenue");
    assert_eq!(page.names().await.len(), PAGE_TOOLS.len() + 3);
    assert_eq!(page.tool(&format!("block_{id}_get")).await["annotations"]["untrustedContentHint"], true);
    page.access.set(PageAccess { tools: false, recall: true });
    assert!(page.names().await.is_empty(), "off means no tool at all, recall included");
    page.add("w2", "Costs");
    assert!(page.names().await.is_empty(), "a widget added meanwhile gets no tools either");
    page.access.set(PageAccess { tools: true, recall: false });
    assert_eq!(page.names().await.len(), PAGE_TOOLS.len() + 6, "both widgets' tools and the page's");
}

#[wasm_bindgen_test]
async fn widget_display_from_another_agent_puts_a_widget_on_the_canvas_with_its_provenance() {
    let page = page();
    let params = json!({ "name": "stat-card", "params": { "label": "Visitors", "value": "1,204" } });
    let result = page.call("widget_display", params).await;
    assert!(result.get("isError").is_none(), "{result}");
    let id = BlockId::new(result["structuredContent"]["id"].as_str().expect("an id"));
    let block = CanvasPort::get(&page.canvas, &id).expect("the widget is on the canvas");
    assert_eq!(block.kind, WidgetKind::StatCard);
    assert_eq!(block.provenance, Origin::ExternalAgent);
    assert!(page.names().await.contains(&format!("block_{id}_get")), "the new widget has its own tools");
}

#[wasm_bindgen_test]
async fn each_widget_gets_three_tools_described_by_its_type_and_title() {
    let page = page();
    let id = page.add("w_rev", "Revenue");
    let names = page.names().await;
    for tool in ["block_w_rev_get", "block_w_rev_remove", "block_w_rev_update"] {
        assert!(names.contains(&tool.to_owned()), "{tool} in {names:?}");
    }
    let get = page.tool("block_w_rev_get").await;
    let description = get["description"].as_str().unwrap();
    assert!(description.contains("stat-card") && description.contains("\"Revenue\""), "{description}");
    assert_eq!(get["annotations"]["readOnlyHint"], true);
    assert_eq!(page.tool("block_w_rev_update").await["annotations"]["readOnlyHint"], false);
    assert_eq!(
        page.tool("block_w_rev_update").await["inputSchema"]["properties"]["label"]["type"],
        "string",
        "the update schema is the widget's own, without required fields"
    );
    assert!(page.tool("block_w_rev_update").await["inputSchema"].get("required").is_none());

    let read = page.call("block_w_rev_get", json!({})).await;
    let body = &read["structuredContent"];
    assert_eq!(body["id"], id.as_str());
    assert_eq!(body["type"], "stat-card");
    assert_eq!(body["data"], json!({ "label": "Revenue", "value": "42" }));
    assert_eq!(body["layout"]["x"], 0);
    assert!(body["layout"]["width"].as_u64().is_some_and(|width| width > 0));
}

#[wasm_bindgen_test]
async fn an_update_with_valid_data_changes_the_widget_and_can_be_undone() {
    let page = page();
    let id = page.add("w_kpi", "Revenue");
    let result = page.call("block_w_kpi_update", json!({ "value": "99", "unit": "k€" })).await;
    assert!(result.get("isError").is_none(), "{result}");
    assert_eq!(result["structuredContent"]["widget"]["summary"], "Revenue: 99 k€");
    assert_eq!(page.data(&id), json!({ "label": "Revenue", "value": "99", "unit": "k€" }));

    page.canvas.undo();
    assert_eq!(page.data(&id), json!({ "label": "Revenue", "value": "42" }), "the update is on the undo history");
}

#[wasm_bindgen_test]
async fn an_update_with_invalid_data_returns_the_validation_error_and_changes_nothing() {
    let page = page();
    let id = page.add("w_bad", "Revenue");
    let result = page.call("block_w_bad_update", json!({ "variant": "purple" })).await;
    assert_eq!(result["isError"], true);
    let error = &result["structuredContent"];
    assert_eq!(error["error"], "Validation failed", "the same shape as widget_display's errors");
    assert_eq!(error["widget"], "stat-card");
    assert_eq!(error["id"], "w_bad");
    assert_eq!(error["details"][0]["path"], "/variant");
    assert!(error["expected_schema"].is_object());
    assert_eq!(page.data(&id), json!({ "label": "Revenue", "value": "42" }));
}

#[wasm_bindgen_test]
async fn a_new_title_redescribes_the_widget_tools() {
    let page = page();
    page.add("w_t", "Revenue");
    page.call("block_w_t_update", json!({ "label": "Profit" })).await;
    let description = page.tool("block_w_t_get").await["description"].as_str().unwrap_or_default().to_owned();
    assert!(description.contains("\"Profit\""), "{description}");
}

/// A refreshed KPI keeps its tools: re-registering them on every new value would send other agents a
/// `toolchange` each time.
#[wasm_bindgen_test]
async fn a_new_value_leaves_the_widget_tools_registered_as_they_were() {
    let page = page();
    let id = page.add("w_v", "Revenue");
    assert!(page.names().await.contains(&"block_w_v_get".to_owned()));
    let changes = count_toolchanges(&page.registry);
    page.call("block_w_v_update", json!({ "value": "43" })).await;
    settle().await;
    assert_eq!(page.data(&id)["value"], "43");
    assert_eq!(number(&changes, "listener"), 0.0, "no toolchange for a new value");
    page.call("block_w_v_update", json!({ "label": "Net revenue" })).await;
    settle().await;
    assert!(number(&changes, "listener") > 0.0, "a new label redescribes the tools");
}

#[wasm_bindgen_test]
async fn removing_a_widget_removes_its_tools_whoever_removes_it() {
    let page = page();
    let kept = page.add("w_keep", "Kept");
    page.add("w_drop", "Dropped");
    page.add("w_other", "Other");

    let result = page.call("block_w_drop_remove", json!({})).await;
    assert_eq!(result["structuredContent"]["removed"], json!(["w_drop"]));
    let names = page.names().await;
    assert!(!names.iter().any(|name| name.starts_with("block_w_drop_")), "{names:?}");
    assert!(names.contains(&"block_w_keep_get".to_owned()));

    page.canvas.apply(Op::Remove { id: BlockId::new("w_other") }, Origin::User).expect("removed by the person");
    let names = page.names().await;
    assert!(!names.iter().any(|name| name.starts_with("block_w_other_")), "{names:?}");

    page.canvas.undo();
    assert!(page.names().await.contains(&"block_w_other_get".to_owned()), "undo brings the tools back");
    assert!(CanvasPort::get(&page.canvas, &kept).is_some());
}

#[wasm_bindgen_test]
async fn clearing_or_replacing_the_canvas_unregisters_the_old_widgets_tools() {
    let page = page();
    page.add("w_a", "A");
    page.add("w_b", "B");
    assert_eq!(page.names().await.len(), PAGE_TOOLS.len() + 6);
    page.canvas.apply(Op::Clear, Origin::User).expect("cleared");
    assert_eq!(page.names().await, PAGE_TOOLS, "only the page-level tools are left");

    page.add("w_c", "C");
    assert!(page.names().await.contains(&"block_w_c_get".to_owned()));
    let replacement = page.canvas.with_store(|store| store.canvas().blocks().to_vec());
    let mut other = replacement[0].clone();
    other.id = BlockId::new("w_d");
    page.canvas.apply(Op::Replace { blocks: vec![other] }, Origin::User).expect("replaced");
    let names = page.names().await;
    assert!(names.contains(&"block_w_d_get".to_owned()), "{names:?}");
    assert!(!names.iter().any(|name| name.starts_with("block_w_c_")), "{names:?}");
}

#[wasm_bindgen_test]
async fn a_call_that_races_the_removal_of_its_widget_says_which_widgets_exist() {
    let page = page();
    let id = page.add("w_x", "X");
    assert!(page.names().await.contains(&"block_w_x_get".to_owned()));
    page.canvas.apply(Op::Remove { id }, Origin::User).expect("removed");
    // The registry looks the tool up before the tools have followed the canvas.
    let raced = parse(execute_outcome(&page.registry, "name", "block_w_x_get", js(&json!({}))).await);
    let result: Value = serde_json::from_str(raced["ok"].as_str().expect("a result, not an exception")).unwrap();
    assert_eq!(result["isError"], true);
    assert_eq!(result["structuredContent"]["error"], "no widget with id \"w_x\" on the canvas");
    assert_eq!(result["structuredContent"]["existing_ids"], json!([]));
}

#[wasm_bindgen_test]
async fn disposing_the_page_unregisters_every_tool() {
    let page = page();
    page.add("w_z", "Z");
    assert!(!page.names().await.is_empty());
    let Page { registry, mounted, .. } = page;
    drop(mounted);
    settle().await;
    assert_eq!(parse(tool_list(&registry).await), json!([]));
}
