//! The WebMCP bridge: finds the page's model context (`document.modelContext`, the older
//! `navigator.modelContext`, or else the app's own built-in registry) and registers tools on it.
//!
//! Detection follows the draft's history: the current surface is `document.modelContext` with
//! `registerTool(tool, {signal})` returning a Promise and aborting the signal to unregister; older
//! pages had `navigator.modelContext` whose `registerTool` was synchronous and returned
//! `{unregister()}` (MCP-B 1.x) or nothing (then `unregisterTool(name)` removes a tool). When the
//! browser has none, a small registry with the current surface is installed at
//! `document.modelContext`, with `navigator.modelContext` as an alias, so any agent in the page
//! can list and call the tools. Bad tool names never reach `registerTool`; a refused registration
//! is logged once with its reason and never breaks the page.

use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::tool::{ResultPart, ToolResult, ToolSpec};
use futures::future::LocalBoxFuture;
use js_sys::{Function, Object, Promise, Reflect};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::{JsFuture, future_to_promise, spawn_local};
use web_sys::AbortController;

// The built-in registry is JavaScript because it must behave exactly like the browser's object for
// any script in the page: an `EventTarget` whose methods return Promises and reject with the same
// `DOMException`s. In JS that is one small class; through web-sys it would be a dozen hand-built
// closures and Promises. `inline_js` ships it as a same-origin module snippet, which the CSP allows.
#[wasm_bindgen(inline_js = r#"
const NAME = /^[A-Za-z0-9_.-]{1,128}$/;
// Called once, the first time a script lists or calls the tools: an agent about to use them. It may
// answer a Promise (the app's tools still coming), which that first listing or call waits for.
let onFirstListing = null;

export function when_tools_first_listed(callback) {
  onFirstListing = callback;
}

async function firstUse() {
  const first = onFirstListing;
  onFirstListing = null;
  await first?.();
}

class ModelContextRegistry extends EventTarget {
  #tools = new Map();
  #handler = null;

  get ontoolchange() { return this.#handler; }
  set ontoolchange(handler) {
    if (this.#handler) this.removeEventListener('toolchange', this.#handler);
    this.#handler = typeof handler === 'function' ? handler : null;
    if (this.#handler) this.addEventListener('toolchange', this.#handler);
  }

  registerTool(tool, options = {}) {
    return new Promise((resolve) => {
      const signal = options?.signal;
      if (signal?.aborted) throw signal.reason;
      const name = String(tool?.name ?? '');
      if (!NAME.test(name)) {
        throw new DOMException(`Invalid tool name "${name}": use 1 to 128 of A-Z a-z 0-9 _ - .`, 'InvalidStateError');
      }
      if (!tool.description) throw new DOMException(`Tool "${name}" needs a description`, 'InvalidStateError');
      if (typeof tool.execute !== 'function') throw new TypeError(`Tool "${name}" needs an execute function`);
      if (this.#tools.has(name)) throw new DOMException(`Duplicate tool name "${name}"`, 'InvalidStateError');
      const entry = {
        name,
        title: String(tool.title ?? ''),
        description: String(tool.description),
        inputSchema: tool.inputSchema === undefined ? undefined : JSON.stringify(tool.inputSchema),
        annotations: {
          readOnlyHint: Boolean(tool.annotations?.readOnlyHint),
          untrustedContentHint: Boolean(tool.annotations?.untrustedContentHint),
          consequentialHint: Boolean(tool.annotations?.consequentialHint),
        },
        execute: tool.execute,
      };
      this.#tools.set(name, entry);
      signal?.addEventListener('abort', () => {
        if (this.#tools.get(name) === entry) {
          this.#tools.delete(name);
          this.#changed();
        }
      }, { once: true });
      this.#changed().then(resolve);
    });
  }

  async getTools() {
    await firstUse();
    return [...this.#tools.values()].map(({ name, title, description, inputSchema, annotations }) => ({
      name,
      title,
      description,
      inputSchema: inputSchema === undefined ? undefined : JSON.parse(inputSchema),
      annotations: { ...annotations },
      origin: location.origin,
    }));
  }

  // Takes a tool from getTools() (as Chromium does) or its name, and the input as an object (as
  // Chromium does) or a JSON string; resolves to the result as a string, like Chromium.
  async executeTool(tool, input = {}, options = {}) {
    // Only a first use waits: otherwise the lookup happens at once, as the browser's does.
    if (onFirstListing) await firstUse();
    const name = typeof tool === 'string' ? tool : tool?.name;
    const entry = this.#tools.get(name);
    if (!entry) throw new DOMException(`No tool named "${name}" is registered`, 'NotFoundError');
    if (typeof input === 'string') {
      try { input = JSON.parse(input); } catch (error) { throw new TypeError(`invalid input JSON: ${error.message}`); }
    }
    if (input === null || typeof input !== 'object') throw new TypeError('invalid input object: value is not an object');
    options?.signal?.throwIfAborted();
    let result;
    try {
      // As Chromium does: the caller's signal reaches the tool, which stops when it is aborted.
      result = await entry.execute(input, { signal: options?.signal });
    } catch (error) {
      throw new DOMException(`Tool "${name}" failed: ${error?.message ?? error}`, 'UnknownError');
    }
    if (typeof result === 'string') return result === '' ? 'Operation succeeded' : result;
    if (result !== null && typeof result === 'object') return JSON.stringify(result);
    return String(result);
  }

  #changed() {
    return new Promise((done) => queueMicrotask(() => {
      this.dispatchEvent(new Event('toolchange'));
      done();
    }));
  }
}

export function install_built_in(document, navigator) {
  const context = new ModelContextRegistry();
  const property = { get: () => context, configurable: true, enumerable: true };
  for (const host of [document, navigator]) {
    try { Object.defineProperty(host, 'modelContext', property); } catch (_) { /* the bridge keeps its own handle */ }
  }
  return context;
}

export function is_built_in(context) {
  return context instanceof ModelContextRegistry;
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = when_tools_first_listed)]
    fn on_first_listing(callback: &JsValue);
    fn install_built_in(document: &JsValue, navigator: &JsValue) -> Object;
    fn is_built_in(context: &JsValue) -> bool;
}

/// Which model context the page's tools are registered on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// `document.modelContext` provided by the browser (or a polyfill loaded before the app).
    Native,
    /// An older `navigator.modelContext`.
    Legacy,
    /// The app's own registry, installed because the browser has none.
    BuiltIn,
}

impl Surface {
    /// How the settings drawer names it.
    pub fn label(self) -> &'static str {
        match self {
            Surface::Native => "native document.modelContext",
            Surface::Legacy => "legacy navigator.modelContext",
            Surface::BuiltIn => "built-in registry",
        }
    }
}

/// Runs a tool call from another agent: the input object and the calling agent's cancellation in
/// (its `signal`), the result out.
pub type Execute = Rc<dyn Fn(Value, CancelToken) -> LocalBoxFuture<'static, ToolResult>>;

/// A tool offered to other agents in the page.
#[derive(Clone)]
pub struct PageTool {
    pub spec: ToolSpec,
    /// The tool returns data that came from third parties (MCP results, widget data built from
    /// them): the calling agent should treat it as data, never as instructions.
    pub untrusted_content: bool,
    pub execute: Execute,
}

/// Why a tool was not registered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RegisterError {
    #[error("tool name \"{0}\" breaks the WebMCP rules (1 to 128 of A-Z a-z 0-9 _ - .)")]
    InvalidName(String),
    #[error("the model context refused tool \"{name}\": {reason}")]
    Refused { name: String, reason: String },
}

/// The connection to the page's model context.
#[derive(Clone)]
pub struct WebMcp {
    surface: Surface,
    context: Object,
    problems: Problems,
}

/// Runs `run` the first time a script lists or calls the page's tools on the built-in registry:
/// another agent in the page is about to use them. That first listing or call waits for the future
/// `run` answers (the tools being registered).
pub fn when_tools_first_listed(run: impl FnOnce() -> LocalBoxFuture<'static, ()> + 'static) {
    let run = move || {
        future_to_promise(async move {
            run().await;
            Ok(JsValue::UNDEFINED)
        })
    };
    on_first_listing(&Closure::once_into_js(run));
}

/// Installs the built-in registry now if the browser has no model context, so that an agent in the
/// page finds `document.modelContext` before the app's tools are registered on it (they come with
/// the engine: [`when_tools_first_listed`] is how a listing waits for them).
pub fn install_registry_if_missing() {
    let Some(window) = web_sys::window() else { return };
    let document = window.document().map_or(JsValue::UNDEFINED, JsValue::from);
    let navigator = JsValue::from(window.navigator());
    if model_context(&document).is_none() && model_context(&navigator).is_none() {
        install_built_in(&document, &navigator);
    }
}

/// The model context the browser itself offers this page, if any (not the app's built-in
/// registry): what the header says about WebMCP.
pub fn browser_surface() -> Option<Surface> {
    let window = web_sys::window()?;
    let document = window.document().map(JsValue::from)?;
    match (model_context(&document), model_context(&JsValue::from(window.navigator()))) {
        (Some(context), _) if !is_built_in(&context) => Some(Surface::Native),
        (_, Some(context)) if !is_built_in(&context) => Some(Surface::Legacy),
        _ => None,
    }
}

impl WebMcp {
    /// Connects to this page's `document` and `navigator`.
    pub fn connect() -> WebMcp {
        let window = web_sys::window();
        let document = window.as_ref().and_then(|window| window.document()).map_or(JsValue::UNDEFINED, JsValue::from);
        let navigator = window.map_or(JsValue::UNDEFINED, |window| JsValue::from(window.navigator()));
        WebMcp::connect_on(&document, &navigator)
    }

    /// Connects through `document` and `navigator` (the page's, or stand-ins in tests): the first
    /// usable surface in draft order, else a built-in registry installed on both.
    pub fn connect_on(document: &JsValue, navigator: &JsValue) -> WebMcp {
        let (surface, context) = match (model_context(document), model_context(navigator)) {
            (Some(context), _) if is_built_in(&context) => (Surface::BuiltIn, context),
            (Some(context), _) => (Surface::Native, context),
            (None, Some(context)) => (Surface::Legacy, context),
            (None, None) => (Surface::BuiltIn, install_built_in(document, navigator)),
        };
        WebMcp { surface, context, problems: Problems::default() }
    }

    pub fn surface(&self) -> Surface {
        self.surface
    }

    /// Every registration problem logged so far, each once, oldest first.
    pub fn problems(&self) -> Vec<String> {
        self.problems.0.borrow().clone()
    }

    /// Registers `tool`; dropping the returned handle unregisters it. A registration the context
    /// refuses later (its Promise rejects) is logged once and otherwise ignored.
    pub fn register(&self, tool: PageTool) -> Result<Registration, RegisterError> {
        let name = tool.spec.name.clone();
        if !is_valid_tool_name(&name) {
            return Err(self.problems.report(RegisterError::InvalidName(name)));
        }
        let controller = AbortController::new().map_err(|error| self.refused(&name, &error))?;
        let execute = execute_callback(tool.execute);
        let descriptor = descriptor(&tool.spec, tool.untrusted_content, &execute).map_err(|error| self.refused(&name, &error))?;
        let options = Object::new();
        Reflect::set(&options, &"signal".into(), &controller.signal()).map_err(|error| self.refused(&name, &error))?;
        let returned = method(&self.context, "registerTool")
            .ok_or_else(|| self.refused(&name, &JsValue::from_str("registerTool is not a function")))?
            .call2(&self.context, &descriptor, &options)
            .map_err(|error| self.refused(&name, &error))?;

        let release = if let Some(promise) = thenable(&returned) {
            self.watch(name.clone(), promise, controller.clone());
            Release::Abort
        } else if let Some(handle) =
            returned.dyn_ref::<Object>().filter(|handle| method(handle, "unregister").is_some())
        {
            Release::Unregister(handle.clone())
        } else if self.surface == Surface::Legacy && method(&self.context, "unregisterTool").is_some() {
            Release::UnregisterTool(self.context.clone())
        } else {
            Release::Abort
        };
        Ok(Registration { name, controller, release, problems: self.problems.clone(), _execute: execute })
    }

    fn refused(&self, name: &str, error: &JsValue) -> RegisterError {
        self.problems.report(RegisterError::Refused { name: name.to_owned(), reason: describe(error) })
    }

    /// Logs a rejected registration, unless it was rejected because it was withdrawn meanwhile.
    fn watch(&self, name: String, promise: Promise, controller: AbortController) {
        let problems = self.problems.clone();
        spawn_local(async move {
            if let Err(error) = JsFuture::from(promise).await
                && !controller.signal().aborted()
            {
                problems.report(RegisterError::Refused { name, reason: describe(&error) });
            }
        });
    }
}

/// A registered tool; dropping it unregisters the tool.
pub struct Registration {
    name: String,
    controller: AbortController,
    release: Release,
    problems: Problems,
    // Kept alive for as long as the tool is registered: the context calls it.
    _execute: Closure<dyn Fn(JsValue, JsValue) -> Promise>,
}

impl fmt::Debug for Registration {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.debug_struct("Registration").field("name", &self.name).finish_non_exhaustive()
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        self.controller.abort();
        let outcome = match &self.release {
            Release::Abort => Ok(JsValue::UNDEFINED),
            Release::Unregister(handle) => call0(handle, "unregister"),
            Release::UnregisterTool(context) => method(context, "unregisterTool")
                .map_or(Ok(JsValue::UNDEFINED), |unregister| unregister.call1(context, &JsValue::from_str(&self.name))),
        };
        if let Err(error) = outcome {
            self.problems.report(RegisterError::Refused {
                name: self.name.clone(),
                reason: format!("unregistering failed: {}", describe(&error)),
            });
        }
    }
}

/// How a registration is undone beyond aborting its signal (which every surface gets).
enum Release {
    Abort,
    /// MCP-B 1.x: `registerTool` returned `{unregister()}`.
    Unregister(Object),
    /// The 2025 explainer: `navigator.modelContext.unregisterTool(name)`.
    UnregisterTool(Object),
}

/// Whether `name` may be registered: 1 to 128 of ASCII letters, digits, `_`, `-` and `.`.
pub fn is_valid_tool_name(name: &str) -> bool {
    (1..=128).contains(&name.len()) && name.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"_-.".contains(&byte))
}

/// A tool result in the MCP shape: `{content: [{type: "text", text}], structuredContent, isError}`.
fn mcp_result_json(result: &ToolResult) -> String {
    let content = result
        .content
        .iter()
        .map(|part| match part {
            ResultPart::Text { text } => McpContent::Text { text },
            ResultPart::Image { media_type, data } => McpContent::Image { data, mime_type: media_type },
        })
        .collect();
    let body = McpResult {
        content,
        // MCP only allows an object here.
        structured_content: result.structured.as_ref().filter(|value| value.is_object()),
        is_error: result.is_error,
    };
    serde_json::to_string(&body).unwrap_or_else(|_| r#"{"content":[],"isError":true}"#.to_owned())
}

#[derive(Serialize)]
struct McpResult<'a> {
    content: Vec<McpContent<'a>>,
    #[serde(rename = "structuredContent", skip_serializing_if = "Option::is_none")]
    structured_content: Option<&'a Value>,
    #[serde(rename = "isError", skip_serializing_if = "std::ops::Not::not")]
    is_error: bool,
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum McpContent<'a> {
    Text {
        text: &'a str,
    },
    Image {
        data: &'a str,
        #[serde(rename = "mimeType")]
        mime_type: &'a str,
    },
}

/// Problems already logged; each distinct message reaches the console once.
#[derive(Clone, Default)]
struct Problems(Rc<RefCell<Vec<String>>>);

impl Problems {
    fn report(&self, error: RegisterError) -> RegisterError {
        let message = format!("WebMCP: {error}");
        let mut seen = self.0.borrow_mut();
        if !seen.contains(&message) {
            web_sys::console::warn_1(&JsValue::from_str(&message));
            seen.push(message);
        }
        error
    }
}

/// The model context on `host`, if it has one with a `registerTool` method.
fn model_context(host: &JsValue) -> Option<Object> {
    if !host.is_object() {
        return None;
    }
    let context = Reflect::get(host, &"modelContext".into()).ok()?.dyn_into::<Object>().ok()?;
    method(&context, "registerTool").map(|_| context)
}

fn method(target: &Object, name: &str) -> Option<Function> {
    Reflect::get(target, &JsValue::from_str(name)).ok()?.dyn_into::<Function>().ok()
}

fn call0(target: &Object, name: &str) -> Result<JsValue, JsValue> {
    method(target, name).map_or(Ok(JsValue::UNDEFINED), |function| function.call0(target))
}

/// `value` as a Promise when it is one or any other thenable.
fn thenable(value: &JsValue) -> Option<Promise> {
    let object = value.dyn_ref::<Object>()?;
    method(object, "then")?;
    Some(Promise::resolve(value))
}

/// The dictionary `registerTool` takes: name, title, description, inputSchema, annotations, execute.
fn descriptor(
    spec: &ToolSpec,
    untrusted_content: bool,
    execute: &Closure<dyn Fn(JsValue, JsValue) -> Promise>,
) -> Result<Object, JsValue> {
    let tool = Object::new();
    Reflect::set(&tool, &"name".into(), &JsValue::from_str(&spec.name))?;
    if let Some(title) = &spec.title {
        Reflect::set(&tool, &"title".into(), &JsValue::from_str(title))?;
    }
    Reflect::set(&tool, &"description".into(), &JsValue::from_str(&spec.description))?;
    Reflect::set(&tool, &"inputSchema".into(), &js_sys::JSON::parse(&spec.input_schema.to_string())?)?;
    let annotations = Object::new();
    Reflect::set(&annotations, &"readOnlyHint".into(), &JsValue::from_bool(spec.read_only))?;
    Reflect::set(&annotations, &"untrustedContentHint".into(), &JsValue::from_bool(untrusted_content))?;
    // Chromium's own hint: every change these tools make can be undone from the canvas.
    Reflect::set(&annotations, &"consequentialHint".into(), &JsValue::FALSE)?;
    Reflect::set(&tool, &"annotations".into(), &annotations)?;
    Reflect::set(&tool, &"execute".into(), execute.as_ref())?;
    Ok(tool)
}

/// The `execute` function the context calls with `(input, {signal})`: input object in, Promise of
/// the MCP result out. Input that is not a JSON object becomes an error result, never an exception;
/// an aborted signal stops the call with a result that says so.
fn execute_callback(execute: Execute) -> Closure<dyn Fn(JsValue, JsValue) -> Promise> {
    Closure::new(move |input: JsValue, options: JsValue| {
        let execute = execute.clone();
        let cancel = cancel_on_abort(&options);
        future_to_promise(async move {
            let result = match input_object(&input) {
                Ok(input) => cancel.run(execute(input, cancel.clone())).await.unwrap_or_else(|| {
                    ToolResult::error("the call was cancelled: the calling agent aborted its signal")
                }),
                Err(message) => ToolResult::error(message),
            };
            let text = mcp_result_json(&result);
            Ok(js_sys::JSON::parse(&text).unwrap_or_else(|_| JsValue::from_str(&text)))
        })
    })
}

/// A token cancelled when `options.signal` (an `AbortSignal`, if the caller passed one) aborts.
fn cancel_on_abort(options: &JsValue) -> CancelToken {
    let cancel = CancelToken::new();
    let signal = options
        .is_object()
        .then(|| Reflect::get(options, &"signal".into()).ok())
        .flatten()
        .and_then(|signal| signal.dyn_into::<web_sys::AbortSignal>().ok());
    if let Some(signal) = signal {
        if signal.aborted() {
            cancel.cancel();
        } else {
            let on_abort = cancel.clone();
            let listener = Closure::once_into_js(move || on_abort.cancel());
            let _ = signal.add_event_listener_with_callback("abort", listener.unchecked_ref());
        }
    }
    cancel
}

fn input_object(input: &JsValue) -> Result<Value, String> {
    if input.is_undefined() || input.is_null() {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    let text = js_sys::JSON::stringify(input)
        .map_err(|error| format!("the input could not be read as JSON: {}", describe(&error)))?;
    match serde_json::from_str::<Value>(&String::from(text)) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(other) => Err(format!("the input must be a JSON object of arguments, not {other}")),
        Err(error) => Err(format!("the input could not be read as JSON: {error}")),
    }
}

/// `Name: message` for DOMExceptions and errors, else the value as text.
fn describe(error: &JsValue) -> String {
    match error.dyn_ref::<js_sys::Error>() {
        Some(error) => format!("{}: {}", String::from(error.name()), String::from(error.message())),
        None => error.as_string().unwrap_or_else(|| format!("{error:?}")),
    }
}
