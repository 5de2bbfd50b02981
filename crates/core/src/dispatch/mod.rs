//! Routing one tool call, the seed's flow step by step: resolve the exposed name (alias map), answer
//! pseudo-tools locally (`read_resource` goes to its server), activate the server on its first real call, route to a local (`webmcp`) or
//! remote (`mcp`) server under a timeout and the run's Stop (after the person's approval when it needs
//! one, see `approval`), guard against repeated failures, record it.

pub mod alias;
pub mod catalog;
pub mod guard;
pub mod offer;
pub mod pseudo;
pub mod record;

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::future::Future;
use std::pin::pin;
use std::rc::Rc;
use std::sync::Arc;

use futures::FutureExt;
use futures::future::{Either, select};
use serde_json::{Value, json};

use crate::approval::{
    AllowScope, ApprovalAnswer, ApprovalChoice, ApprovalRequest, Approver, Gate, ServerKind, declined_message, gate,
    refused_message, unattended_message,
};
use crate::cancel::CancelToken;
use crate::dispatch::catalog::{Catalog, CatalogServer, CatalogTool, Entry, ToolRole};
use crate::dispatch::alias::RecipeRole;
use crate::dispatch::guard::RepetitionGuard;
use crate::dispatch::offer::ToolOffer;
use crate::dispatch::pseudo::{PseudoTool, uri_of};
use crate::dispatch::record::{CallOutcome, CallRecord, CallTarget};
use crate::ids::{CallId, ServerId};
use crate::llm::model::ToolDef;
use crate::mcp::apps::bridge::call_tool_result;
use crate::ports::Clock;
use crate::agent::session::ServerTools;
use crate::remote::{RemoteCallError, RemoteServerView, RemoteServers, RemoteStatus};
use crate::tool::{CallContext, DataSource, LocalServer, Origin, ResultPart, ToolResult};
use crate::tool_name::{Protocol, ToolName, ToolNameError};
use crate::widget_kind::WidgetKind;

/// Default per-call timeout: the seed's servers may be slow, but never silent forever. Remote
/// servers that time their calls out themselves ([`RemoteServers::call_timeout_ms`]) get no timer
/// here: theirs tells the server, and stops while the server waits on the person (a form).
pub const DEFAULT_TIMEOUT_MS: u32 = 60_000;
/// The local tool that places a widget; a tool's MCP Apps view goes through it too.
const DISPLAY_TOOL: &str = "widget_display";

/// Why a call produced no result from its tool. Shown to the model as `Error: <message>`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DispatchError {
    #[error("{error}{}", did_you_mean(.suggestions))]
    UnknownFormat { error: ToolNameError, suggestions: Vec<String> },
    #[error("no {} server \"{server}\"; servers: {known}", .protocol.as_str())]
    UnknownServer { server: ServerId, protocol: Protocol, known: String },
    #[error("server \"{server}\" is not connected: {reason}")]
    NotConnected { server: ServerId, reason: String },
    #[error("server \"{server}\" has no tool \"{tool}\"; call {search} to find the right one")]
    UnknownTool { server: ServerId, tool: String, search: String },
    #[error("read_resource needs the resource's uri, as in {{\"uri\": \"...\"}}; {list} lists them")]
    NoUri { list: String },
    #[error("arguments must be a JSON object, not {0}")]
    ArgumentsNotObject(&'static str),
    #[error(
        "the arguments of this call are not valid JSON ({0} characters received); the reply was probably cut off \
         by the output token limit: call again with smaller arguments, for example fewer rows"
    )]
    MalformedArguments(usize),
    #[error(
        "the arguments of this call are not valid JSON ({chars} characters received): the reply was cut off by the \
         output token limit ({limit} tokens) before they were complete, so the call did not run; call again with \
         smaller arguments, for example fewer rows{}", next_limit(*.limit, *.next)
    )]
    CutOff { chars: usize, limit: u32, next: u32 },
    #[error("no answer after {0} s (timeout)")]
    TimedOut(u32),
    #[error("cancelled by the user")]
    Cancelled,
    #[error("{0}")]
    Failed(String),
}

fn next_limit(limit: u32, next: u32) -> String {
    if next > limit { format!(" (your next reply may be up to {next} tokens long)") } else { String::new() }
}

fn did_you_mean(suggestions: &[String]) -> String {
    if suggestions.is_empty() { String::new() } else { format!("; did you mean {}?", suggestions.join(" or ")) }
}

impl DispatchError {
    fn into_result(self) -> ToolResult {
        ToolResult::error(format!("Error: {self}"))
    }
}

/// A server activated by a call: its tools are offered to the model from the next request on.
#[derive(Clone, Debug, PartialEq)]
pub struct Activation {
    pub server: ServerId,
    pub protocol: Protocol,
    /// Exposed names of the tools this activation added.
    pub tools: Vec<String>,
}

/// Calls of one class that run together when the model writes them one after another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Concurrent {
    DataReads,
    RecipeReads,
}

/// A call between `begin` and `finish`: answered already, or about to reach its tool.
struct Begun {
    call: PreparedCall,
    started: f64,
    answered: Option<ToolResult>,
    activation: Option<Activation>,
    record: CallRecord,
}

/// A tool call resolved against the catalog, ready to run.
#[derive(Clone, Debug)]
pub struct PreparedCall {
    pub id: CallId,
    pub name: String,
    pub args: Arc<Value>,
    route: Result<Entry, DispatchError>,
}

/// What running a call produced.
#[derive(Clone, Debug)]
pub struct Executed {
    /// Complete, with the full result text.
    pub record: CallRecord,
    /// The result as the tool gave it (images included).
    pub result: ToolResult,
    /// The full result text (shared with `record`).
    pub text: Arc<str>,
    pub activation: Option<Activation>,
    /// The role of the tool that ran, when the call reached one.
    pub role: Option<ToolRole>,
}

pub struct Dispatcher {
    local: Vec<Rc<dyn LocalServer>>,
    remote: Rc<dyn RemoteServers>,
    clock: Rc<dyn Clock>,
    timeout_ms: u32,
    /// Servers whose tools are all offered, in activation order; kept for the whole conversation.
    activated: Vec<(ServerId, Protocol)>,
    guard: RepetitionGuard,
    /// A discovery call happened in this run.
    discovered: bool,
    /// The server and tool whose data the agent read most recently.
    last_source: Option<DataSource>,
    /// Tools discovery named, and the tool-definition budget.
    offer: ToolOffer,
    /// The tool lists the activated remote servers had before a reload, offered while they connect.
    remembered: Vec<ServerTools>,
    /// Who approves remote calls that need it; without one, such calls are refused (nobody to ask).
    approver: Option<Rc<dyn Approver>>,
    /// Tools the person allowed for this conversation (server, real tool name).
    granted: RefCell<HashSet<(ServerId, String)>>,
    /// The `mcp-app` block of each view a call placed in this conversation, by the call's id, so
    /// the model can show it again (`widget_display` with `mcp-app` and only `call_id`).
    views: RefCell<BTreeMap<String, Value>>,
    /// Views placed while their call's arguments were still streaming, by call id, until the call
    /// runs or is given up ([`Dispatcher::place_view_early`]).
    early: RefCell<HashMap<String, PlacedView>>,
}

impl Dispatcher {
    pub fn new(
        local: Vec<Rc<dyn LocalServer>>,
        remote: Rc<dyn RemoteServers>,
        clock: Rc<dyn Clock>,
        timeout_ms: u32,
    ) -> Dispatcher {
        Dispatcher {
            local,
            remote,
            clock,
            timeout_ms,
            activated: Vec::new(),
            guard: RepetitionGuard::default(),
            discovered: false,
            last_source: None,
            offer: ToolOffer::default(),
            remembered: Vec::new(),
            approver: None,
            granted: RefCell::new(HashSet::new()),
            views: RefCell::new(BTreeMap::new()),
            early: RefCell::new(HashMap::new()),
        }
    }

    /// Lets `approver` decide the remote calls that need the person's approval.
    pub fn set_approver(&mut self, approver: Rc<dyn Approver>) {
        self.approver = Some(approver);
    }

    /// All servers' tools as they are now.
    pub fn catalog(&self) -> Catalog {
        Catalog::build(&self.local, &self.remote_views())
    }

    /// The remote servers as they are now, except that one still connecting offers the tool list it
    /// had before the reload, so the conversation goes on with its tools at once (a call made
    /// before it is connected is answered that it is still connecting).
    fn remote_views(&self) -> Vec<RemoteServerView> {
        let mut views = self.remote.servers();
        for view in views.iter_mut().filter(|view| view.status == RemoteStatus::Connecting) {
            if let Some(remembered) = self.remembered.iter().find(|remembered| remembered.server == view.id) {
                view.status = RemoteStatus::Connected;
                view.tools.clone_from(&remembered.tools);
                view.instructions = view.instructions.take().or_else(|| remembered.instructions.clone());
            }
        }
        views
    }

    /// The tool lists of the activated remote servers, to store with the conversation: a connected
    /// server's own list, else the one remembered from before the reload.
    pub fn activated_tool_lists(&self) -> Vec<ServerTools> {
        let views = self.remote.servers();
        self.activated
            .iter()
            .filter(|(_, protocol)| *protocol == Protocol::Mcp)
            .filter_map(|(id, _)| {
                let live = views.iter().find(|view| &view.id == id && view.status == RemoteStatus::Connected);
                match live {
                    Some(view) => Some(ServerTools {
                        server: view.id.clone(),
                        name: view.name.clone(),
                        instructions: view.instructions.clone(),
                        tools: view.tools.clone(),
                    }),
                    None => self.remembered.iter().find(|remembered| &remembered.server == id).cloned(),
                }
            })
            .collect()
    }

    /// The tools to offer the model: the discovery set plus every activated server's tools, or
    /// with a tool budget, the staged and activated tools that fit it (see `offer.rs`).
    pub fn tool_defs(&self, catalog: &Catalog) -> Vec<ToolDef> {
        self.offer.defs(catalog, &self.activated)
    }

    /// Bytes of tool definitions one request may carry (`None`: the seed's unbounded offering).
    pub fn set_tool_budget(&mut self, budget: Option<usize>) {
        self.offer.set_budget(budget);
    }

    pub fn activated(&self) -> &[(ServerId, Protocol)] {
        &self.activated
    }

    /// Continues a stored conversation's activations, with the activated servers' tool lists.
    pub fn restore_activated(&mut self, activated: Vec<(ServerId, Protocol)>, tool_lists: Vec<ServerTools>) {
        self.activated = activated;
        self.remembered = tool_lists;
    }

    /// The `mcp-app` block of each view this conversation's calls placed, by call id (to store).
    pub fn views(&self) -> BTreeMap<String, Value> {
        self.views.borrow().clone()
    }

    /// Continues a stored conversation's views, so the model can show them again.
    pub fn restore_views(&mut self, views: BTreeMap<String, Value>) {
        *self.views.get_mut() = views;
    }

    /// A new user turn: the repetition guard and the "guided" flag start over.
    pub fn begin_run(&mut self) {
        self.guard.reset();
        self.discovered = false;
    }

    /// Forgets the conversation: activations, the data source, the guard, the tools allowed for
    /// it, the views its calls placed.
    pub fn reset(&mut self) {
        self.activated.clear();
        self.views.borrow_mut().clear();
        self.granted.borrow_mut().clear();
        self.remembered.clear();
        self.offer.clear();
        self.last_source = None;
        self.begin_run();
    }

    /// Resolves the name the model used: the alias map first, then the canonical
    /// `{server}_{protocol}_{tool}` form with the server's real tool names.
    pub fn prepare(&self, catalog: &Catalog, id: CallId, name: &str, input: Value) -> PreparedCall {
        let (args, args_error) = normalise_args(input);
        let route = match args_error {
            Some(error) => Err(error),
            None => resolve(catalog, name),
        };
        PreparedCall { id, name: name.to_owned(), args: Arc::new(args), route }
    }

    /// A call whose arguments did not parse; it is answered with an error without running anything.
    pub fn prepare_malformed(&self, id: CallId, name: &str, raw: &str) -> PreparedCall {
        PreparedCall {
            id,
            name: name.to_owned(),
            args: Arc::new(json!({ "unparsed_arguments": raw })),
            route: Err(DispatchError::MalformedArguments(raw.chars().count())),
        }
    }

    /// A call cut off by the output token limit (`limit`, `next` for the next reply): answered
    /// with an error saying so, without running anything.
    pub fn prepare_cut_off(&self, id: CallId, name: &str, raw: &str, limit: u32, next: u32) -> PreparedCall {
        PreparedCall {
            id,
            name: name.to_owned(),
            args: Arc::new(json!({ "unparsed_arguments": raw })),
            route: Err(DispatchError::CutOff { chars: raw.chars().count(), limit, next }),
        }
    }

    /// The record shown while the call runs.
    pub fn running(&self, catalog: &Catalog, call: &PreparedCall) -> CallRecord {
        CallRecord {
            id: call.id.clone(),
            name: call.name.clone(),
            target: target(catalog, call),
            args: call.args.clone(),
            outcome: CallOutcome::Running,
            elapsed_ms: 0,
            guided: self.discovered,
            result_bytes: 0,
            truncated: false,
        }
    }

    /// Runs the call. Never fails: every problem becomes an error result the model can act on.
    pub async fn execute(&mut self, catalog: &Catalog, call: PreparedCall, cancel: &CancelToken) -> Executed {
        let mut executed = self.execute_together(catalog, vec![call], cancel).await;
        executed.pop().unwrap_or_else(|| unreachable!("one call in, one out"))
    }

    /// Which calls may run at the same time as their neighbours: data reads with data reads, recipe
    /// reads with recipe reads (they do not depend on each other); `None` for the rest, such as
    /// canvas operations, which keep their order.
    pub fn concurrency_class(&self, catalog: &Catalog, call: &PreparedCall) -> Option<Concurrent> {
        match call.route {
            Ok(Entry::Tool { server, tool }) => match catalog.get(server).tools[tool].role {
                ToolRole::Data => Some(Concurrent::DataReads),
                ToolRole::Recipe(_) => Some(Concurrent::RecipeReads),
                ToolRole::Canvas | ToolRole::Recall => None,
            },
            Ok(Entry::Pseudo { kind: PseudoTool::ReadResource, .. }) => Some(Concurrent::DataReads),
            _ => None,
        }
    }

    /// Runs the calls concurrently and returns what each produced, in the order given. Guards,
    /// activations and records are kept in that order too, before and after the calls run.
    pub async fn execute_together(
        &mut self,
        catalog: &Catalog,
        calls: Vec<PreparedCall>,
        cancel: &CancelToken,
    ) -> Vec<Executed> {
        let begun: Vec<Begun> = calls.into_iter().map(|call| self.begin(catalog, call)).collect();
        let this = &*self;
        let answers = futures::future::join_all(begun.iter().map(|begun| this.perform(catalog, begun, cancel))).await;
        begun.into_iter().zip(answers).map(|(begun, answer)| self.finish(catalog, begun, answer)).collect()
    }

    /// What is decided before a call runs: an answer right away (an error, the guard, a pseudo-tool)
    /// or the server's activation.
    fn begin(&mut self, catalog: &Catalog, call: PreparedCall) -> Begun {
        let started = self.clock.now_ms();
        let record = self.running(catalog, &call);
        let answered = match (&call.route, self.guard.check(&call.name, &call.args)) {
            (Err(error), _) => Some(error.clone().into_result()),
            (Ok(_), Some(note)) => Some(ToolResult::error(note)),
            (Ok(Entry::Pseudo { server, kind: PseudoTool::ReadResource }), None) => {
                let server = catalog.get(*server);
                match (&server.availability, uri_of(&call.args)) {
                    (catalog::Availability::Unavailable(reason), _) => Some(
                        DispatchError::NotConnected { server: server.id.clone(), reason: reason.clone() }.into_result(),
                    ),
                    (catalog::Availability::Ready, None) => {
                        let list = server.list_resources.as_deref().unwrap_or_default();
                        Some(DispatchError::NoUri { list: list.to_owned() }.into_result())
                    }
                    (catalog::Availability::Ready, Some(_)) => None,
                }
            }
            (Ok(Entry::Pseudo { server, kind }), None) => {
                self.discovered = true;
                let answer = kind.answer(catalog.get(*server), &call.args);
                self.offer.stage(catalog.get(*server), answer.named);
                Some(answer.result)
            }
            (Ok(Entry::Tool { server, .. }), None) => match &catalog.get(*server).availability {
                catalog::Availability::Unavailable(reason) => {
                    let server = catalog.get(*server).id.clone();
                    Some(DispatchError::NotConnected { server, reason: reason.clone() }.into_result())
                }
                catalog::Availability::Ready => None,
            },
        };
        let activation = match (&answered, &call.route) {
            (None, Ok(Entry::Tool { server, tool })) => {
                // A recipe read makes the calls written after it guided, even those running beside it.
                if matches!(catalog.get(*server).tools[*tool].role, ToolRole::Recipe(_)) {
                    self.discovered = true;
                }
                self.activate(catalog, *server)
            }
            _ => None,
        };
        Begun { call, started, answered, activation, record }
    }

    /// Calls the tool of a call that `begin` did not answer.
    async fn perform(&self, catalog: &Catalog, begun: &Begun, cancel: &CancelToken) -> Option<ToolResult> {
        if let Some(answered) = &begun.answered {
            let early = self.early.borrow_mut().remove(begun.call.id.as_str());
            if let Some(view) = early {
                self.finish_view(view, answered.clone(), false, &begun.call.id).await;
            }
            return None;
        }
        let (server, tool) = match begun.call.route {
            Ok(Entry::Tool { server, tool }) => (server, tool),
            Ok(Entry::Pseudo { server, kind: PseudoTool::ReadResource }) => {
                return Some(self.read_resource(catalog.get(server), &begun.call.args, cancel).await);
            }
            _ => return None,
        };
        let server = catalog.get(server);
        let tool = &server.tools[tool];
        let call = &begun.call;
        let args = (*call.args).clone();
        let outcome = match (server.protocol, server.local.and_then(|position| self.local.get(position))) {
            (Protocol::WebMcp, Some(local)) => {
                let args = match self.with_earlier_view(&tool.real, args) {
                    Ok(args) => args,
                    Err(message) => return Some(ToolResult::error(format!("Error: {message}"))),
                };
                let context = CallContext {
                    origin: Origin::Agent { call_id: call.id.clone(), source: self.last_source.clone() },
                    cancel: cancel.clone(),
                };
                self.bounded(local.call(&tool.real, args, context), Some(self.timeout_ms), cancel).await.map(Ok)
            }
            _ => {
                let early = self.early.borrow_mut().remove(call.id.as_str());
                let (args, edited) = match self.approve(server, tool, args, cancel).await {
                    Approved::Run(args) => (args, false),
                    Approved::Edited(args) => (args, true),
                    Approved::Answered(result) => {
                        return Some(match early {
                            Some(view) => self.finish_view(view, result, false, &call.id).await,
                            None => result,
                        });
                    }
                };
                let view = match early {
                    Some(view) => Some(self.give_input(view, &args).await),
                    None => self.place_view(catalog, server, tool, Some(&args), &call.id, cancel).await,
                };
                let outcome = self.call_remote(server, tool, args.clone(), cancel).await;
                let finished = matches!(outcome, Ok(Ok(_)));
                let result = settle(outcome);
                let result = match view {
                    Some(view) => self.finish_view(view, result, finished, &call.id).await,
                    None => result,
                };
                return Some(if edited { with_edit_note(result, &args) } else { result });
            }
        };
        Some(settle(outcome))
    }

    /// When a tool that has an MCP Apps view starts running, places the view on the canvas (the
    /// local `widget_display` with `mcp-app`) with the call's input, so the view shows at once;
    /// [`Dispatcher::finish_view`] gives it the result, or why there is none. `None` when the tool
    /// has no view or there is no canvas.
    async fn place_view(
        &self,
        catalog: &Catalog,
        server: &CatalogServer,
        tool: &CatalogTool,
        args: Option<&Value>,
        call: &CallId,
        cancel: &CancelToken,
    ) -> Option<PlacedView> {
        let uri = tool.view.as_deref()?;
        let canvas = catalog.servers().iter().find_map(|candidate| {
            let local = self.local.get(candidate.local?)?;
            candidate.canvas_tool(DISPLAY_TOOL).map(|_| local.clone())
        })?;
        let mut block = json!({
            "server": server.id.to_string(),
            "tool": tool.real,
            "uri": uri,
            "call_id": call.to_string(),
        });
        if let Some(args) = args {
            block["input"] = args.clone();
        }
        let params = json!({"name": WidgetKind::McpApp.as_str(), "params": block});
        let context = CallContext {
            origin: Origin::Agent { call_id: call.clone(), source: Some(DataSource { server: server.id.clone(), tool: tool.real.clone() }) },
            cancel: cancel.clone(),
        };
        let shown = canvas.call(DISPLAY_TOOL, params, context).await;
        let id = serde_json::from_str::<Value>(&shown.text_content())
            .ok()
            .and_then(|body| body.get("id").and_then(Value::as_str).map(str::to_owned))
            .filter(|_| !shown.is_error);
        Some(PlacedView { canvas, block, id, shown, call: call.clone() })
    }

    /// Gives a placed view its call's end: the result (`finished`, an error result included), or
    /// why the call never finished (Stop, a timeout, a lost connection), which the view hears as
    /// `ui/notifications/tool-cancelled`. Tells the model the view's widget id.
    async fn finish_view(&self, view: PlacedView, result: ToolResult, finished: bool, call: &CallId) -> ToolResult {
        let end = if finished {
            json!({"result": call_tool_result(&result)})
        } else {
            let reason = result.text_content();
            json!({"cancelled": reason.strip_prefix("Error: ").unwrap_or(&reason)})
        };
        let view = self.update_view(view, end).await;
        self.views.borrow_mut().insert(call.to_string(), view.block);
        let note = match view.id {
            Some(_) => format!("[The tool's interactive view is shown on the canvas: {}]", view.shown.text_content()),
            None => format!("[The tool's view could not be shown: {}]", view.shown.text_content()),
        };
        let mut result = result;
        result.content.push(ResultPart::Text { text: note });
        result
    }

    /// A view placed early gets its call's complete arguments (`ui/notifications/tool-input`).
    async fn give_input(&self, view: PlacedView, args: &Value) -> PlacedView {
        self.update_view(view, json!({"input": args})).await
    }

    /// Merges `fields` into the view's block, on the canvas too (after Stop as well: the view
    /// must hear how its call ended).
    async fn update_view(&self, mut view: PlacedView, fields: Value) -> PlacedView {
        if let (Some(block), Value::Object(fields)) = (view.block.as_object_mut(), &fields) {
            block.extend(fields.clone());
        }
        if let Some(id) = &view.id {
            let context = CallContext { origin: Origin::Agent { call_id: view.call.clone(), source: None }, cancel: CancelToken::new() };
            let update = json!({"action": "update", "id": id, "params": {"data": fields}});
            view.canvas.call("canvas", update, context).await;
        }
        view
    }

    /// The model began writing a call of a tool that has a view: the view is placed now, without
    /// its input (which the page passes on as it streams in, `ui/notifications/tool-input-partial`),
    /// and gets it when the call runs. The canvas places an `mcp-app` block without waiting for
    /// anything (no validator module, no chart engine); were it to wait, the view is placed when
    /// the call runs instead.
    pub fn place_view_early(&self, catalog: &Catalog, call: &CallId, name: &str) {
        let Ok(Entry::Tool { server, tool }) = resolve(catalog, name) else { return };
        let server = catalog.get(server);
        let tool = &server.tools[tool];
        if server.protocol != Protocol::Mcp || tool.view.is_none() || self.early.borrow().contains_key(call.as_str()) {
            return;
        }
        let cancel = CancelToken::new();
        if let Some(Some(view)) = self.place_view(catalog, server, tool, None, call, &cancel).now_or_never() {
            self.early.borrow_mut().insert(call.as_str().to_owned(), view);
        }
    }

    /// Tells the views placed early whose calls never ran (Stop, a reply cut short) why.
    pub async fn end_early_views(&self, reason: &str) {
        let left: Vec<PlacedView> = self.early.borrow_mut().drain().map(|(_, view)| view).collect();
        for view in left {
            let call = view.call.clone();
            self.finish_view(view, ToolResult::error(reason), false, &call).await;
        }
    }

    /// `widget_display` of `mcp-app` naming only an earlier call (`call_id`, maybe a `title`):
    /// the block that call's view had. Other calls pass unchanged.
    fn with_earlier_view(&self, tool: &str, args: Value) -> Result<Value, String> {
        let params = args.get("params");
        let wants_earlier = tool == DISPLAY_TOOL
            && args.get("name").and_then(Value::as_str) == Some(WidgetKind::McpApp.as_str())
            && params.is_some_and(|params| params.get("uri").is_none());
        if !wants_earlier {
            return Ok(args);
        }
        let call_id = params.and_then(|params| params.get("call_id")).and_then(Value::as_str).unwrap_or_default();
        let views = self.views.borrow();
        let Some(block) = views.get(call_id) else {
            let known: Vec<&str> = views.keys().map(String::as_str).collect();
            return Err(format!(
                "no call \"{call_id}\" of this conversation showed a view; calls with views: {}",
                if known.is_empty() { "none".to_owned() } else { known.join(", ") }
            ));
        };
        let mut block = block.clone();
        if let Some(title) = params.and_then(|params| params.get("title")) {
            block["title"] = title.clone();
        }
        let mut args = args;
        args["params"] = block;
        Ok(args)
    }

    async fn call_remote(
        &self,
        server: &CatalogServer,
        tool: &CatalogTool,
        args: Value,
        cancel: &CancelToken,
    ) -> Result<Result<ToolResult, RemoteCallError>, DispatchError> {
        let calling = self.remote.call_tool(&server.id, &tool.real, args, cancel.clone());
        self.bounded(calling, self.remote_timeout_ms(&server.id), cancel).await
    }

    /// Waits for the person's approval when the call needs it (the wait ends with Stop, and no
    /// timeout applies to it: the person may take their time).
    async fn approve(&self, server: &CatalogServer, tool: &CatalogTool, args: Value, cancel: &CancelToken) -> Approved {
        let key = (server.id.clone(), tool.real.clone());
        let remembered = self.approver.as_ref().and_then(|approver| approver.remembered(&server.id, &tool.real));
        let granted = self.granted.borrow().contains(&key);
        match gate(ServerKind::Remote, tool.facts, remembered, granted) {
            Gate::Run => return Approved::Run(args),
            Gate::Refuse => return Approved::Answered(ToolResult::error(refused_message(&tool.real, &server.name))),
            Gate::Ask => {}
        }
        let Some(approver) = &self.approver else {
            return Approved::Answered(ToolResult::error(unattended_message(&tool.real, &server.name)));
        };
        let request = ApprovalRequest {
            server: server.id.clone(),
            server_name: server.name.clone(),
            tool: tool.real.clone(),
            description: tool.description.clone(),
            args: args.clone(),
            schema: tool.schema.clone(),
            facts: tool.facts,
        };
        if cancel.is_cancelled() {
            return Approved::Answered(DispatchError::Cancelled.into_result());
        }
        match cancel.run(approver.ask(request)).await {
            None => Approved::Answered(DispatchError::Cancelled.into_result()),
            Some(ApprovalAnswer::Deny) => Approved::Answered(ToolResult::error(declined_message(&tool.real, &server.name))),
            Some(ApprovalAnswer::Allow { args: allowed, scope }) => {
                match scope {
                    AllowScope::Once => {}
                    AllowScope::ForChat => {
                        self.granted.borrow_mut().insert(key);
                        approver.remember(&server.id, &tool.real, ApprovalChoice::AllowForChat);
                    }
                    // Remembered, so a reset in the servers panel makes it ask again.
                    AllowScope::Always => approver.remember(&server.id, &tool.real, ApprovalChoice::AlwaysAllow),
                }
                if allowed == args { Approved::Run(allowed) } else { Approved::Edited(allowed) }
            }
        }
    }

    /// Reads the resource a `read_resource` call names from its server, bounded like a tool call.
    async fn read_resource(&self, server: &CatalogServer, args: &Value, cancel: &CancelToken) -> ToolResult {
        let uri = uri_of(args).unwrap_or_default();
        let reading = self.remote.read_resource(&server.id, &uri, cancel.clone());
        match self.bounded(reading, self.remote_timeout_ms(&server.id), cancel).await.and_then(|read| read.map_err(remote_error)) {
            Ok(result) => result,
            Err(error) => error.into_result(),
        }
    }

    /// Bookkeeping after a call: discovery, provenance, staging, the guard and the record.
    fn finish(&mut self, catalog: &Catalog, begun: Begun, performed: Option<ToolResult>) -> Executed {
        let Begun { call, started, answered, activation, mut record } = begun;
        let ran = answered.is_none();
        let result = answered.or(performed).unwrap_or_else(|| ToolResult::error("Error: the call did not run"));
        let role = match call.route {
            Ok(Entry::Tool { server, tool }) => Some(catalog.get(server).tools[tool].role),
            _ => None,
        };
        if let (true, Ok(Entry::Tool { server: position, tool: tool_position })) = (ran, &call.route) {
            let (position, tool_position) = (*position, *tool_position);
            let server = catalog.get(position);
            let tool = &server.tools[tool_position];
            match tool.role {
                ToolRole::Recipe(role) => {
                    self.discovered = true;
                    if role == RecipeRole::Get && !result.is_error {
                        self.offer.stage_named_in(server, &full_text(&result));
                    }
                }
                ToolRole::Data if !result.is_error => {
                    self.last_source = Some(DataSource { server: server.id.clone(), tool: tool.real.clone() });
                    self.offer.stage_called(server, tool_position);
                }
                ToolRole::Data | ToolRole::Canvas | ToolRole::Recall => {}
            }
        }
        if let (true, false, Ok(Entry::Pseudo { server, kind: PseudoTool::ReadResource })) =
            (ran, result.is_error, &call.route)
        {
            let tool = PseudoTool::ReadResource.tool().to_owned();
            self.last_source = Some(DataSource { server: catalog.get(*server).id.clone(), tool });
        }
        let text: Arc<str> = Arc::from(full_text(&result));
        let error = result.is_error.then(|| text.to_string());
        self.guard.record(&call.name, &call.args, error.as_deref());
        record.elapsed_ms = (self.clock.now_ms() - started).max(0.0).round() as u64;
        record.result_bytes = text.len();
        record.outcome = if result.is_error {
            CallOutcome::Failed { error: text.clone() }
        } else {
            CallOutcome::Succeeded { result: text.clone() }
        };
        Executed { record, result, text, activation, role }
    }

    /// Marks the server activated on its first real call; returns what that added.
    fn activate(&mut self, catalog: &Catalog, server_position: usize) -> Option<Activation> {
        let server = catalog.get(server_position);
        let key = (server.id.clone(), server.protocol);
        if self.activated.contains(&key) {
            return None;
        }
        self.activated.push(key);
        let tools = server.tools.iter().filter(|tool| tool.role == ToolRole::Data).map(|tool| tool.exposed.clone());
        Some(Activation { server: server.id.clone(), protocol: server.protocol, tools: tools.collect() })
    }

    /// Races `work` against the per-call timeout and the run's Stop.
    /// The timer for a remote server's call: none when the server's session times its calls itself.
    fn remote_timeout_ms(&self, server: &ServerId) -> Option<u32> {
        match self.remote.call_timeout_ms(server) {
            Some(_) => None,
            None => Some(self.timeout_ms),
        }
    }

    /// `work`, unless `cancel` fires or `timeout_ms` (when given) passes first.
    async fn bounded<T>(
        &self,
        work: impl Future<Output = T>,
        timeout_ms: Option<u32>,
        cancel: &CancelToken,
    ) -> Result<T, DispatchError> {
        if cancel.is_cancelled() {
            return Err(DispatchError::Cancelled);
        }
        let work = pin!(work);
        let Some(timeout_ms) = timeout_ms else {
            return cancel.run(work).await.ok_or(DispatchError::Cancelled);
        };
        let timer = self.clock.sleep(timeout_ms);
        match cancel.run(select(work, timer)).await {
            None => Err(DispatchError::Cancelled),
            Some(Either::Left((value, _))) => Ok(value),
            Some(Either::Right(_)) => Err(DispatchError::TimedOut(timeout_ms.div_ceil(1_000))),
        }
    }
}

/// A view placed when its call started, waiting for the call's end.
struct PlacedView {
    /// The local server holding the canvas tools.
    canvas: Rc<dyn LocalServer>,
    /// The block as placed, kept (with the call's end) so the model can show it again.
    block: Value,
    /// The view's widget id; `None` when it could not be placed.
    id: Option<String>,
    /// `widget_display`'s answer.
    shown: ToolResult,
    /// The call the view shows.
    call: CallId,
}

/// What approval decided for a remote call.
enum Approved {
    Run(Value),
    /// The person changed the arguments before allowing it.
    Edited(Value),
    /// Declined, set to "never", or stopped: this is the answer, and nothing ran.
    Answered(ToolResult),
}

fn settle(outcome: Result<Result<ToolResult, RemoteCallError>, DispatchError>) -> ToolResult {
    match outcome.and_then(|answer| answer.map_err(remote_error)) {
        Ok(result) => result,
        Err(error) => error.into_result(),
    }
}

/// Tells the model the call ran with the person's arguments, not its own.
fn with_edit_note(mut result: ToolResult, args: &Value) -> ToolResult {
    let note = format!("The person edited the arguments before allowing this call; it ran with {args}.");
    if let (true, Some(structured)) = (result.text_content().is_empty(), &result.structured) {
        result.content.push(ResultPart::Text { text: structured.to_string() });
    }
    result.content.insert(0, ResultPart::Text { text: note });
    result
}

fn resolve(catalog: &Catalog, name: &str) -> Result<Entry, DispatchError> {
    if let Some(entry) = catalog.lookup(name) {
        return Ok(entry);
    }
    let parsed = ToolName::parse(name).map_err(|error| DispatchError::UnknownFormat {
        error,
        suggestions: catalog.named(name).into_iter().map(str::to_owned).collect(),
    })?;
    let Some(position) = catalog.server_position(&parsed.server, parsed.protocol) else {
        let known: Vec<String> =
            catalog.servers().iter().map(|server| format!("{} ({})", server.id, server.protocol.as_str())).collect();
        return Err(DispatchError::UnknownServer {
            server: parsed.server,
            protocol: parsed.protocol,
            known: if known.is_empty() { "none".to_owned() } else { known.join(", ") },
        });
    };
    let server = catalog.get(position);
    for kind in [PseudoTool::ListTools, PseudoTool::SearchTools, PseudoTool::ListResources, PseudoTool::ReadResource] {
        if parsed.tool == kind.tool() && server.pseudo_name(kind).is_some() {
            return Ok(Entry::Pseudo { server: position, kind });
        }
    }
    // The model may use a tool's real name where the catalog exposes an alias.
    match server.tools.iter().position(|tool| tool.real == parsed.tool) {
        Some(tool) => Ok(Entry::Tool { server: position, tool }),
        None => Err(DispatchError::UnknownTool {
            server: server.id.clone(),
            tool: parsed.tool,
            search: server.search_tools.clone(),
        }),
    }
}

fn target(catalog: &Catalog, call: &PreparedCall) -> Option<CallTarget> {
    let (server, tool) = match call.route.as_ref().ok()? {
        Entry::Tool { server, tool } => {
            let server = catalog.get(*server);
            (server, server.tools[*tool].real.clone())
        }
        Entry::Pseudo { server, kind } => (catalog.get(*server), kind.tool().to_owned()),
    };
    Some(CallTarget { server: server.id.clone(), protocol: server.protocol, tool })
}

/// Tool arguments are an object. `null` means none; an object sent as a JSON string is unwrapped.
fn normalise_args(input: Value) -> (Value, Option<DispatchError>) {
    match input {
        Value::Object(_) => (input, None),
        Value::Null => (json!({}), None),
        Value::String(text) => match serde_json::from_str::<Value>(&text) {
            Ok(value @ Value::Object(_)) => (value, None),
            _ => (Value::String(text), Some(DispatchError::ArgumentsNotObject("a string"))),
        },
        Value::Array(_) => (input, Some(DispatchError::ArgumentsNotObject("an array"))),
        Value::Bool(_) => (input, Some(DispatchError::ArgumentsNotObject("a boolean"))),
        Value::Number(_) => (input, Some(DispatchError::ArgumentsNotObject("a number"))),
    }
}

fn remote_error(error: RemoteCallError) -> DispatchError {
    match error {
        RemoteCallError::UnknownServer(server) => {
            DispatchError::NotConnected { server, reason: "it is no longer configured".to_owned() }
        }
        RemoteCallError::NotConnected { server, reason } => DispatchError::NotConnected { server, reason },
        RemoteCallError::Failed(message) => DispatchError::Failed(message),
        RemoteCallError::Cancelled => DispatchError::Cancelled,
        timed_out @ RemoteCallError::TimedOut { .. } => DispatchError::Failed(timed_out.to_string()),
    }
}

/// The text the model and the buffer get: all text parts, or the structured value when there is no text.
fn full_text(result: &ToolResult) -> String {
    let text = result.text_content();
    match (&result.structured, text.is_empty()) {
        (Some(structured), true) => structured.to_string(),
        _ => text,
    }
}
