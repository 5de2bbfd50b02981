//! Routing one tool call, the seed's flow step by step: resolve the exposed name (alias map), answer
//! pseudo-tools locally, activate the server on its first real call, route to a local (`webmcp`) or
//! remote (`mcp`) server under a timeout and the run's Stop, guard against repeated failures, record it.

pub mod alias;
pub mod catalog;
pub mod guard;
pub mod pseudo;
pub mod record;

use std::future::Future;
use std::pin::pin;
use std::rc::Rc;
use std::sync::Arc;

use futures::future::{Either, select};
use serde_json::{Value, json};

use crate::cancel::CancelToken;
use crate::dispatch::catalog::{Catalog, Entry, ToolRole};
use crate::dispatch::guard::RepetitionGuard;
use crate::dispatch::pseudo::PseudoTool;
use crate::dispatch::record::{CallOutcome, CallRecord, CallTarget};
use crate::ids::{CallId, ServerId};
use crate::llm::model::ToolDef;
use crate::ports::Clock;
use crate::remote::{RemoteCallError, RemoteServers};
use crate::tool::{CallContext, DataSource, LocalServer, Origin, ToolResult};
use crate::tool_name::{Protocol, ToolName, ToolNameError};

/// Default per-call timeout: the seed's servers may be slow, but never silent forever. Remote
/// servers that time their calls out themselves ([`RemoteServers::call_timeout_ms`]) get theirs
/// instead, plus [`BACKSTOP_MS`], so their own timeout fires first and tells the server.
pub const DEFAULT_TIMEOUT_MS: u32 = 60_000;
pub const BACKSTOP_MS: u32 = 5_000;

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
    #[error("arguments must be a JSON object, not {0}")]
    ArgumentsNotObject(&'static str),
    #[error(
        "the arguments of this call are not valid JSON ({0} characters received); the reply was probably cut off \
         by the output token limit: call again with smaller arguments, for example fewer rows"
    )]
    MalformedArguments(usize),
    #[error("no answer after {0} s (timeout)")]
    TimedOut(u32),
    #[error("cancelled by the user")]
    Cancelled,
    #[error("{0}")]
    Failed(String),
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
        }
    }

    /// All servers' tools as they are now.
    pub fn catalog(&self) -> Catalog {
        Catalog::build(&self.local, &self.remote.servers())
    }

    /// The tools to offer the model: the discovery set plus every activated server's tools.
    pub fn tool_defs(&self, catalog: &Catalog) -> Vec<ToolDef> {
        catalog.tool_defs(&self.activated)
    }

    pub fn activated(&self) -> &[(ServerId, Protocol)] {
        &self.activated
    }

    pub fn restore_activated(&mut self, activated: Vec<(ServerId, Protocol)>) {
        self.activated = activated;
    }

    /// A new user turn: the repetition guard and the "guided" flag start over.
    pub fn begin_run(&mut self) {
        self.guard.reset();
        self.discovered = false;
    }

    /// Forgets the conversation: activations, the data source, the guard.
    pub fn reset(&mut self) {
        self.activated.clear();
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
        let started = self.clock.now_ms();
        let mut record = self.running(catalog, &call);
        let mut activation = None;
        let role = match call.route {
            Ok(Entry::Tool { server, tool }) => Some(catalog.get(server).tools[tool].role),
            _ => None,
        };
        let result = match (&call.route, self.guard.check(&call.name, &call.args)) {
            (Err(error), _) => error.clone().into_result(),
            (Ok(_), Some(note)) => ToolResult::error(note),
            (Ok(Entry::Pseudo { server, kind }), None) => {
                self.discovered = true;
                kind.answer(catalog.get(*server), &call.args)
            }
            (Ok(Entry::Tool { server, tool }), None) => {
                let (result, activated) = self.call_tool(catalog, *server, *tool, &call, cancel).await;
                activation = activated;
                result
            }
        };
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

    async fn call_tool(
        &mut self,
        catalog: &Catalog,
        server_position: usize,
        tool_position: usize,
        call: &PreparedCall,
        cancel: &CancelToken,
    ) -> (ToolResult, Option<Activation>) {
        let server = catalog.get(server_position);
        let tool = &server.tools[tool_position];
        if let catalog::Availability::Unavailable(reason) = &server.availability {
            let error = DispatchError::NotConnected { server: server.id.clone(), reason: reason.clone() };
            return (error.into_result(), None);
        }
        let activation = self.activate(catalog, server_position);
        let args = (*call.args).clone();
        let outcome = match (server.protocol, server.local.and_then(|position| self.local.get(position))) {
            (Protocol::WebMcp, Some(local)) => {
                let context = CallContext {
                    origin: Origin::Agent { call_id: call.id.clone(), source: self.last_source.clone() },
                    cancel: cancel.clone(),
                };
                self.bounded(local.call(&tool.real, args, context), self.timeout_ms, cancel).await.map(Ok)
            }
            _ => {
                let timeout_ms = self
                    .remote
                    .call_timeout_ms(&server.id)
                    .map_or(self.timeout_ms, |ms| ms.saturating_add(BACKSTOP_MS));
                let calling = self.remote.call_tool(&server.id, &tool.real, args, cancel.clone());
                self.bounded(calling, timeout_ms, cancel).await
            }
        };
        let result = match outcome.and_then(|answer| answer.map_err(remote_error)) {
            Ok(result) => result,
            Err(error) => error.into_result(),
        };
        match tool.role {
            ToolRole::Recipe(_) => self.discovered = true,
            ToolRole::Data if !result.is_error => {
                self.last_source = Some(DataSource { server: server.id.clone(), tool: tool.real.clone() });
            }
            ToolRole::Data | ToolRole::Canvas | ToolRole::Recall => {}
        }
        (result, activation)
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
    async fn bounded<T>(
        &self,
        work: impl Future<Output = T>,
        timeout_ms: u32,
        cancel: &CancelToken,
    ) -> Result<T, DispatchError> {
        if cancel.is_cancelled() {
            return Err(DispatchError::Cancelled);
        }
        let timer = self.clock.sleep(timeout_ms);
        let work = pin!(work);
        match cancel.run(select(work, timer)).await {
            None => Err(DispatchError::Cancelled),
            Some(Either::Left((value, _))) => Ok(value),
            Some(Either::Right(_)) => Err(DispatchError::TimedOut(timeout_ms.div_ceil(1_000))),
        }
    }
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
    for kind in [PseudoTool::ListTools, PseudoTool::SearchTools] {
        if parsed.tool == kind.tool() {
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
