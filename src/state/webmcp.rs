//! The page's tools for other agents: the `autoui` server's tools, and three tools per widget
//! (`block_<id>_get`, `block_<id>_update`, `block_<id>_remove`) kept in step with the canvas state,
//! not with rendering. Every change they make goes through the same store operations as the
//! agent's and the person's, with the origin "another agent". The person decides whether they are
//! offered at all, and whether `recall` (every stored MCP result) is among them ([`PageAccess`]).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::rc::Rc;

use autoui_core::autoui::AutoUi;
use autoui_core::autoui::error::AutoUiError;
use autoui_core::cancel::CancelToken;
use autoui_core::canvas::model::Block;
use autoui_core::canvas::op::{CanvasPort, Op};
use autoui_core::ids::BlockId;
use autoui_core::recipes::{registry, repair};
use autoui_core::tool::{CallContext, LocalServer, Origin, ToolResult, ToolSpec};
use autoui_core::widget_kind::WidgetKind;
use futures::future::{LocalBoxFuture, ready};
use leptos::prelude::*;
use serde_json::{Value, json};

use crate::adapters::webmcp::{Execute, PageTool, Registration, Surface, WebMcp};
use crate::state::autoui::AutoUiCtx;
use crate::state::canvas::CanvasCtx;
use crate::state::settings::use_settings;

/// Context handle: which model context is in use, and what could not be registered on it.
#[derive(Clone, Copy)]
pub struct WebMcpCtx {
    tools: StoredValue<PageTools, LocalStorage>,
}

impl WebMcpCtx {
    pub fn surface(&self) -> Surface {
        self.tools.with_value(|tools| tools.bridge.surface())
    }

    /// Registration problems so far (each logged once to the console too).
    pub fn problems(&self) -> Vec<String> {
        self.tools.with_value(|tools| tools.bridge.problems())
    }
}

/// What other agents in the browser may use, from the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageAccess {
    /// Any tool at all: off unregisters every one.
    pub tools: bool,
    /// `recall`, which hands out every stored MCP result.
    pub recall: bool,
}

/// Registers the page's tools on the page's model context (installing the built-in registry when
/// the browser has none), as the settings allow.
pub fn provide_webmcp(canvas: CanvasCtx, autoui: AutoUiCtx) -> WebMcpCtx {
    let settings = use_settings().0;
    let access = Signal::derive(move || settings.with(|s| PageAccess { tools: s.webmcp_tools, recall: s.webmcp_recall }));
    provide_webmcp_on(WebMcp::connect(), canvas, autoui, access)
}

/// [`provide_webmcp`] on a given connection (tests pass one made on stand-in hosts).
pub fn provide_webmcp_on(bridge: WebMcp, canvas: CanvasCtx, autoui: AutoUiCtx, access: Signal<PageAccess>) -> WebMcpCtx {
    let server = autoui.server();
    // Disposing the owner drops `tools`, and with them every registration: all tools are unregistered.
    let tools = StoredValue::new_local(PageTools { bridge, server, page: None, blocks: HashMap::new() });
    Effect::new(move |_| {
        let access = access.get();
        canvas.revision();
        tools.update_value(|tools| tools.sync(canvas, access));
    });
    let ctx = WebMcpCtx { tools };
    provide_context(ctx);
    ctx
}

pub fn use_webmcp() -> Option<WebMcpCtx> {
    use_context::<WebMcpCtx>()
}

/// What is registered: the page-level tools, and each block's three tools under the signature
/// they were described with.
struct PageTools {
    bridge: WebMcp,
    server: Rc<AutoUi>,
    /// The page-level tools and the access they were registered under.
    page: Option<(PageAccess, Vec<Registration>)>,
    blocks: HashMap<BlockId, BlockTools>,
}

struct BlockTools {
    signature: Signature,
    /// The data the signature was computed from: while a block still holds it, nothing is recomputed.
    described: Arc<Value>,
    // Held for their `Drop`, which unregisters them.
    _registrations: Vec<Registration>,
}

/// What a block's tool descriptions depend on. A block whose signature changes (a new title, or a
/// different block under the same id after a dashboard was replaced) gets its tools registered anew;
/// a new value in a KPI does not.
#[derive(Clone, Debug, PartialEq)]
struct Signature {
    kind: WidgetKind,
    name: String,
    created_ms: f64,
}

impl Signature {
    fn of(block: &Block) -> Signature {
        Signature { kind: block.kind, name: AutoUi::name(block), created_ms: block.created_ms }
    }
}

impl BlockTools {
    /// Whether these tools were described from `block` as it is now (the same data, not just equal).
    fn described_from(&self, block: &Block) -> bool {
        Arc::ptr_eq(&self.described, &block.data)
            && self.signature.kind == block.kind
            && self.signature.created_ms == block.created_ms
    }
}

impl PageTools {
    /// Registers the page-level tools `access` allows, unregisters the tools of blocks that are gone
    /// or changed, then registers those of new ones; with access off, unregisters everything. Runs on
    /// every change to the canvas, so a block whose data is the one its tools were described from
    /// costs a pointer comparison.
    fn sync(&mut self, canvas: CanvasCtx, access: PageAccess) {
        if !access.tools {
            self.page = None;
            self.blocks.clear();
            return;
        }
        if self.page.as_ref().is_none_or(|(registered, _)| *registered != access) {
            // Dropped first, so a tool offered again is never a duplicate name.
            self.page = None;
            let page = page_tools(&self.server, access).into_iter().filter_map(|tool| self.bridge.register(tool).ok());
            self.page = Some((access, page.collect()));
        }
        let registered = &mut self.blocks;
        let (shown, changed) = canvas.with_store(|store| {
            let mut shown = HashSet::new();
            let mut changed = Vec::new();
            for block in store.canvas().blocks() {
                shown.insert(block.id.clone());
                let tools = registered.get_mut(&block.id);
                if tools.as_ref().is_some_and(|tools| tools.described_from(block)) {
                    continue;
                }
                let signature = Signature::of(block);
                match tools {
                    Some(tools) if tools.signature == signature => tools.described = block.data.clone(),
                    _ => changed.push((block.clone(), signature)),
                }
            }
            (shown, changed)
        });
        registered.retain(|id, _| shown.contains(id));
        for (block, signature) in changed {
            // Dropped first, so a tool offered again is never a duplicate name.
            registered.remove(&block.id);
            let registrations = block_tools(&block, &self.server, canvas)
                .into_iter()
                .filter_map(|tool| self.bridge.register(tool).ok())
                .collect();
            let tools = BlockTools { signature, described: block.data.clone(), _registrations: registrations };
            registered.insert(block.id.clone(), tools);
        }
    }
}

/// The `autoui` server's tools under their own names (`recall` only when the person allows it). The
/// page's registry is scoped to this document, and the tools' descriptions and error hints name each
/// other bare (`get_recipe`, `widget_display`, `canvas`), so an outside agent can follow them as written.
fn page_tools(server: &Rc<AutoUi>, access: PageAccess) -> Vec<PageTool> {
    server
        .tools()
        .into_iter()
        .filter(|spec| access.recall || spec.name != RECALL)
        .map(|spec| {
            let server = server.clone();
            let name = spec.name.clone();
            let execute: Execute = Rc::new(move |args: Value, cancel: CancelToken| -> LocalBoxFuture<'static, ToolResult> {
                let server = server.clone();
                let name = name.clone();
                Box::pin(async move {
                    let context = CallContext { origin: Origin::ExternalAgent, cancel };
                    server.call(&name, args, context).await
                })
            });
            // recall returns MCP results as the servers sent them; `canvas` lists widget data built from them.
            let untrusted_content = matches!(spec.name.as_str(), RECALL | "canvas");
            PageTool { spec, untrusted_content, execute }
        })
        .collect()
}

/// The tool that reads back every stored MCP result.
const RECALL: &str = "recall";

/// `block_<id>_get`, `block_<id>_update` and `block_<id>_remove`, described by the widget's type
/// and title so an outside agent can tell widgets apart.
fn block_tools(block: &Block, server: &Rc<AutoUi>, canvas: CanvasCtx) -> Vec<PageTool> {
    let id = block.id.clone();
    let kind = block.kind;
    let name = AutoUi::name(block);
    let widget = format!("the {kind} widget \"{name}\" ({id})");

    let get = {
        let id = id.clone();
        PageTool {
            spec: ToolSpec {
                name: format!("block_{id}_get"),
                title: Some(format!("Read {kind} \"{name}\"")),
                description: format!(
                    "Read {widget} on this page's dashboard: its type, current data, and layout (x, y, width, \
                     height in a 12-column grid)."
                ),
                input_schema: no_arguments(),
                read_only: true,
                hints: Default::default(),
                ui: None,
            },
            // The widget's data came from tool results: third-party content.
            untrusted_content: true,
            execute: answer(move |_| read_block(canvas, &id)),
        }
    };
    let update = {
        let id = id.clone();
        let server = server.clone();
        PageTool {
            spec: ToolSpec {
                name: format!("block_{id}_update"),
                title: Some(format!("Change {kind} \"{name}\"")),
                description: format!(
                    "Change the data of {widget}: pass only the fields to change, the others are kept. The \
                     result is validated against the {kind} schema; if it does not fit, nothing changes and the \
                     error lists what to fix."
                ),
                input_schema: patch_schema(kind),
                read_only: false,
                hints: Default::default(),
                ui: None,
            },
            untrusted_content: false,
            execute: Rc::new(move |patch, _cancel| -> LocalBoxFuture<'static, ToolResult> {
                let server = server.clone();
                let id = id.clone();
                // Waits for the lazily loaded validator the first time, like widget_display.
                Box::pin(async move { update_block(&server, &id, patch).await })
            }),
        }
    };
    let remove = PageTool {
        spec: ToolSpec {
            name: format!("block_{id}_remove"),
            title: Some(format!("Remove {kind} \"{name}\"")),
            description: format!("Remove {widget} from this page's dashboard (the person can undo it)."),
            input_schema: no_arguments(),
            read_only: false,
            hints: Default::default(),
            ui: None,
        },
        untrusted_content: false,
        execute: answer(move |_| remove_block(canvas, &id)),
    };
    vec![get, update, remove]
}

/// A tool that answers at once (reading and removing are synchronous).
fn answer(run: impl Fn(Value) -> ToolResult + 'static) -> Execute {
    Rc::new(move |args, _cancel| -> LocalBoxFuture<'static, ToolResult> { Box::pin(ready(run(args))) })
}

fn read_block(canvas: CanvasCtx, id: &BlockId) -> ToolResult {
    let Some(block) = CanvasPort::get(&canvas, id) else {
        return unknown_block(canvas, id);
    };
    let mut body = AutoUi::block_json(&block);
    body["provenance"] = json!(block.provenance);
    body["data"] = Value::clone(&block.data);
    ToolResult::json(body)
}

async fn update_block(server: &AutoUi, id: &BlockId, patch: Value) -> ToolResult {
    match server.update_block_when_ready(id, patch, Origin::ExternalAgent).await {
        Ok(updated) => {
            let mut body = json!({ "action": "update", "widget": AutoUi::block_json(&updated.block) });
            if !updated.repairs.is_empty() {
                body["repairs"] = json!(repair::summarise(&updated.repairs));
            }
            if !updated.dropped.is_empty() {
                body["dropped"] = json!(updated.dropped);
            }
            ToolResult::json(body)
        }
        Err(error) => error.to_result(),
    }
}

fn remove_block(canvas: CanvasCtx, id: &BlockId) -> ToolResult {
    match canvas.apply(Op::Remove { id: id.clone() }, Origin::ExternalAgent) {
        Ok(applied) => ToolResult::json(json!({
            "action": "remove",
            "removed": applied.removed,
            "remaining": canvas.with_store(|store| store.canvas().len()),
        })),
        Err(error) => AutoUiError::from(error).to_result(),
    }
}

fn unknown_block(canvas: CanvasCtx, id: &BlockId) -> ToolResult {
    let existing = canvas.with_store(|store| store.canvas().ids());
    AutoUiError::UnknownBlock { id: id.clone(), existing }.to_result()
}

fn no_arguments() -> Value {
    json!({ "type": "object", "properties": {}, "additionalProperties": false })
}

/// The widget's own schema without `required`: an update names only the fields it changes.
fn patch_schema(kind: WidgetKind) -> Value {
    let mut patch = json!({ "type": "object", "description": format!("fields of the {kind} data to change") });
    if let Some(recipe) = registry().get(kind) {
        for key in ["properties", "additionalProperties"] {
            if let Some(value) = recipe.schema.get(key) {
                patch[key] = value.clone();
            }
        }
    }
    patch
}
