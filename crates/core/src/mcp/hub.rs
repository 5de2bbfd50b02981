//! Several MCP servers at once: their configs, live states and sessions, the events the servers
//! panel folds, and the [`RemoteServers`] view the dispatcher calls tools through.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::rc::Rc;

use futures::channel::mpsc::{self, UnboundedReceiver, UnboundedSender};
use futures::future::LocalBoxFuture;
use futures::stream::FuturesUnordered;
use futures::{FutureExt, StreamExt};
use serde_json::Value;

use crate::approval::{ApprovalChoice, ApprovalRules};
use crate::cancel::CancelToken;
use crate::ids::ServerId;
use crate::mcp::config::{McpOptions, ServerConfig, TransportChoice, TransportKind};
use crate::mcp::elicit::SharedElicitor;
use crate::mcp::sampling::SharedSampler;
use crate::mcp::endpoint::{EndpointError, server_host};
use crate::mcp::error::McpError;
use crate::mcp::apps::view::ViewResource;
use crate::mcp::inbound::Notice;
use crate::mcp::model::initialize::Implementation;
use crate::mcp::model::notify::LogLevel;
use crate::mcp::model::prompt::GetPromptResult;
use crate::mcp::session::{ServerOffers, Session, SessionPorts};
use crate::ports::HttpTransport;
use crate::recipes::validate::SchemaValidator;
use crate::remote::{RemoteCallError, RemoteServerView, RemoteServers, RemoteStatus};
use crate::tool::{ToolResult, ToolSpec};

#[derive(Clone, Debug, PartialEq)]
pub enum ServerStatus {
    Connecting,
    Connected {
        tools: usize,
    },
    /// The connection dropped or the session expired; the client is connecting again.
    Reconnecting {
        reason: String,
    },
    Failed {
        reason: String,
    },
}

/// Everything the servers panel shows about one server.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerSnapshot {
    pub id: ServerId,
    /// What the model knows the server as (its tools are `{tool_prefix}_mcp_{tool}`): the id, except
    /// for a server added without a name, which is named after its own `serverInfo` (title, else
    /// name) once connected, since a host such as `127_0_0_1` tells the model nothing.
    pub tool_prefix: ServerId,
    /// The user's name for it, else the server's own `serverInfo.name`, else the URL's host.
    pub name: String,
    pub config: ServerConfig,
    pub status: ServerStatus,
    pub transport: Option<TransportKind>,
    pub server_info: Option<Implementation>,
    pub instructions: Option<String>,
    pub tools: Rc<Vec<ToolSpec>>,
    /// Tools the server described in a way this client could not read, with the reason.
    pub unreadable_tools: Vec<String>,
    /// Its resources, resource templates and prompts.
    pub offers: ServerOffers,
    /// Duration of the last `tools/call`, in milliseconds.
    pub last_call_ms: Option<f64>,
}

/// How a call ended, for the panel and the console.
#[derive(Clone, Debug, PartialEq)]
pub enum CallOutcome {
    Ok,
    /// The tool ran and reported an error (`isError: true`).
    ToolError,
    Failed(String),
    Cancelled,
}

/// What happened, in order; folding them with [`ServerSnapshot::apply`] rebuilds the panel.
#[derive(Clone, Debug, PartialEq)]
pub enum HubEvent {
    /// Boxed: a snapshot is far larger than the other events.
    Added(Box<ServerSnapshot>),
    StatusChanged {
        server: ServerId,
        status: ServerStatus,
    },
    Connected {
        server: ServerId,
        name: String,
        tool_prefix: ServerId,
        transport: TransportKind,
        server_info: Option<Implementation>,
        instructions: Option<String>,
    },
    ToolsChanged {
        server: ServerId,
        tools: Rc<Vec<ToolSpec>>,
        unreadable: Vec<String>,
    },
    /// The server's resources, templates and prompts, listed on (re)connecting, right after
    /// `Connected`, and again when the server says one of their lists changed.
    OffersChanged {
        server: ServerId,
        offers: ServerOffers,
    },
    /// The person changed a setting of the server (its log level); persist `config`.
    ConfigChanged {
        server: ServerId,
        config: ServerConfig,
    },
    /// Auto-detection settled on a transport; persist `config` so the next connection tries it first.
    TransportDetected {
        server: ServerId,
        config: ServerConfig,
    },
    /// The person's approval choices changed; persist `config`.
    ApprovalsChanged {
        server: ServerId,
        config: ServerConfig,
    },
    Progress {
        server: ServerId,
        tool: String,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    },
    CallFinished {
        server: ServerId,
        tool: String,
        latency_ms: f64,
        outcome: CallOutcome,
    },
    /// A resource subscribed to with [`McpHub::subscribe_resource`] changed
    /// (`notifications/resources/updated`).
    ResourceUpdated {
        server: ServerId,
        uri: String,
    },
    /// A log entry the server sent (`notifications/message`), for the console.
    ServerLog {
        server: ServerId,
        level: String,
        logger: Option<String>,
        message: String,
    },
    /// Something the user may want to know that did not change the status.
    Warning {
        server: ServerId,
        message: String,
    },
    Removed {
        server: ServerId,
    },
}

impl HubEvent {
    pub fn server(&self) -> &ServerId {
        match self {
            HubEvent::Added(snapshot) => &snapshot.id,
            HubEvent::StatusChanged { server, .. }
            | HubEvent::Connected { server, .. }
            | HubEvent::ToolsChanged { server, .. }
            | HubEvent::OffersChanged { server, .. }
            | HubEvent::TransportDetected { server, .. }
            | HubEvent::ConfigChanged { server, .. }
            | HubEvent::ApprovalsChanged { server, .. }
            | HubEvent::Progress { server, .. }
            | HubEvent::CallFinished { server, .. }
            | HubEvent::Warning { server, .. }
            | HubEvent::ServerLog { server, .. }
            | HubEvent::ResourceUpdated { server, .. }
            | HubEvent::Removed { server } => server,
        }
    }
}

impl ServerSnapshot {
    /// Applies an event about this server (events about others are ignored).
    pub fn apply(&mut self, event: &HubEvent) {
        if event.server() != &self.id {
            return;
        }
        match event {
            HubEvent::Added(snapshot) => *self = (**snapshot).clone(),
            HubEvent::StatusChanged { status, .. } => self.status = status.clone(),
            HubEvent::Connected {
                name,
                tool_prefix,
                transport,
                server_info,
                instructions,
                ..
            } => {
                self.name.clone_from(name);
                self.tool_prefix.clone_from(tool_prefix);
                self.transport = Some(*transport);
                self.server_info.clone_from(server_info);
                self.instructions.clone_from(instructions);
            }
            HubEvent::ToolsChanged {
                tools, unreadable, ..
            } => {
                self.tools = tools.clone();
                self.unreadable_tools.clone_from(unreadable);
            }
            HubEvent::OffersChanged { offers, .. } => self.offers = offers.clone(),
            HubEvent::TransportDetected { config, .. }
            | HubEvent::ConfigChanged { config, .. }
            | HubEvent::ApprovalsChanged { config, .. } => {
                self.config = config.clone()
            }
            HubEvent::CallFinished { latency_ms, .. } => self.last_call_ms = Some(*latency_ms),
            HubEvent::Progress { .. }
            | HubEvent::Warning { .. }
            | HubEvent::ServerLog { .. }
            | HubEvent::ResourceUpdated { .. }
            | HubEvent::Removed { .. } => {}
        }
    }
}

/// Folds `event` into a panel's list of servers (adding and removing entries as needed).
pub fn fold(servers: &mut Vec<ServerSnapshot>, event: &HubEvent) {
    match event {
        HubEvent::Added(snapshot) => servers.push((**snapshot).clone()),
        HubEvent::Removed { server } => servers.retain(|snapshot| &snapshot.id != server),
        other => servers
            .iter_mut()
            .for_each(|snapshot| snapshot.apply(other)),
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HubError {
    #[error("invalid server URL: {0}")]
    InvalidUrl(#[from] EndpointError),
    #[error("{url} is already added as \"{server}\"")]
    AlreadyAdded { url: String, server: ServerId },
}

type Task = LocalBoxFuture<'static, ()>;
type Listener = Rc<dyn Fn(&HubEvent)>;

/// The MCP servers of this page. Cheap to clone; clones share everything.
pub struct McpHub<H: ?Sized> {
    inner: Rc<Inner<H>>,
}

impl<H: ?Sized> Clone for McpHub<H> {
    fn clone(&self) -> McpHub<H> {
        McpHub {
            inner: self.inner.clone(),
        }
    }
}

struct Inner<H: ?Sized> {
    ports: SessionPorts<H>,
    options: McpOptions,
    servers: RefCell<Vec<Rc<Entry<H>>>>,
    tasks: UnboundedSender<Task>,
    queue: RefCell<Option<UnboundedReceiver<Task>>>,
    listeners: RefCell<Vec<Listener>>,
    elicitor: RefCell<Option<SharedElicitor>>,
    sampler: RefCell<Option<SharedSampler>>,
    validator: RefCell<Option<Rc<dyn SchemaValidator>>>,
}

struct Entry<H: ?Sized> {
    id: ServerId,
    snapshot: RefCell<ServerSnapshot>,
    session: RefCell<Rc<Session<H>>>,
    /// Stops the task driving the current session.
    stop: RefCell<CancelToken>,
    /// Resources subscribed to: asked for again on every connection (a new session forgets them).
    subscriptions: RefCell<BTreeSet<String>>,
}

impl<H: HttpTransport + ?Sized + 'static> McpHub<H> {
    pub fn new(ports: SessionPorts<H>, options: McpOptions) -> McpHub<H> {
        let (tasks, queue) = mpsc::unbounded();
        McpHub {
            inner: Rc::new(Inner {
                ports,
                options,
                servers: RefCell::new(Vec::new()),
                tasks,
                queue: RefCell::new(Some(queue)),
                listeners: RefCell::new(Vec::new()),
                elicitor: RefCell::new(None),
                sampler: RefCell::new(None),
                validator: RefCell::new(None),
            }),
        }
    }

    /// Drives every connection (handshakes, listening streams, reconnections). Spawn it once for
    /// the life of the page; a second call returns at once.
    pub fn run(&self) -> impl Future<Output = ()> + 'static {
        let queue = self.inner.queue.borrow_mut().take();
        async move {
            let Some(mut queue) = queue else { return };
            let mut running = FuturesUnordered::new();
            loop {
                futures::select! {
                    task = queue.next() => match task {
                        Some(task) => running.push(task),
                        None => break,
                    },
                    () = running.select_next_some() => {}
                }
            }
        }
    }

    /// Lets `elicitor` answer servers' `elicitation/create` requests (declared to them) from the
    /// next connection on; set it before adding servers.
    pub fn set_elicitor(&self, elicitor: SharedElicitor) {
        *self.inner.elicitor.borrow_mut() = Some(elicitor);
    }

    /// Lets `sampler` answer servers' `sampling/createMessage` requests (declared to them) from the
    /// next connection on; set it before adding servers.
    pub fn set_sampler(&self, sampler: SharedSampler) {
        *self.inner.sampler.borrow_mut() = Some(sampler);
    }

    /// Lets `validator` check tool results against their tools' declared output schemas from the
    /// next connection on; set it before adding servers.
    pub fn set_validator(&self, validator: Rc<dyn SchemaValidator>) {
        *self.inner.validator.borrow_mut() = Some(validator);
    }

    /// Calls `listener` with every event from now on.
    pub fn subscribe(&self, listener: impl Fn(&HubEvent) + 'static) {
        self.inner.listeners.borrow_mut().push(Rc::new(listener));
    }

    /// Adds a server and starts connecting to it. Its id comes from its name, or the URL's host.
    pub fn add_server(&self, config: ServerConfig) -> Result<ServerId, HubError> {
        let host = server_host(&config.url)?;
        let url = config.url.trim().to_owned();
        if let Some(existing) = self
            .inner
            .servers
            .borrow()
            .iter()
            .find(|entry| entry.snapshot.borrow().config.url == url)
        {
            return Err(HubError::AlreadyAdded {
                url,
                server: existing.id.clone(),
            });
        }
        let config = ServerConfig { url, ..config };
        let label = config
            .name
            .clone()
            .filter(|name| !name.trim().is_empty())
            .unwrap_or(host);
        let id = self.unique_id(ServerId::sanitize(&label));
        let snapshot = ServerSnapshot {
            id: id.clone(),
            tool_prefix: id.clone(),
            name: label,
            config,
            status: ServerStatus::Connecting,
            transport: None,
            server_info: None,
            instructions: None,
            tools: Rc::new(Vec::new()),
            unreadable_tools: Vec::new(),
            offers: ServerOffers::default(),
            last_call_ms: None,
        };
        let session = self.new_session(&id, snapshot.config.clone());
        let entry = Rc::new(Entry {
            id: id.clone(),
            snapshot: RefCell::new(snapshot.clone()),
            session: RefCell::new(session),
            stop: RefCell::new(CancelToken::new()),
            subscriptions: RefCell::default(),
        });
        self.inner.servers.borrow_mut().push(entry.clone());
        self.inner.emit(HubEvent::Added(Box::new(snapshot)));
        self.start(&entry);
        Ok(id)
    }

    /// Removes a server: stops its connection and ends its session on the server (`DELETE`).
    pub async fn remove_server(&self, id: &ServerId) -> bool {
        let entry = {
            let mut servers = self.inner.servers.borrow_mut();
            let Some(index) = servers.iter().position(|entry| &entry.id == id) else {
                return false;
            };
            servers.remove(index)
        };
        entry.stop.borrow().cancel();
        let session = entry.session.borrow().clone();
        session.close().await;
        self.inner.emit(HubEvent::Removed { server: id.clone() });
        true
    }

    /// Connects again from scratch (after a failure, or to pick up a changed server).
    pub fn reconnect(&self, id: &ServerId) -> bool {
        let Some(entry) = self.inner.entry(id) else {
            return false;
        };
        entry.stop.borrow().cancel();
        let old = entry.session.borrow().clone();
        let config = entry.snapshot.borrow().config.clone();
        *entry.session.borrow_mut() = self.new_session(id, config);
        let _ = self
            .inner
            .tasks
            .unbounded_send(async move { old.close().await }.boxed_local());
        self.start(&entry);
        true
    }

    /// The messages of `server`'s prompt `name` filled with `arguments` (`prompts/get`), or why
    /// not, worded for the person who picked it.
    pub async fn get_prompt(
        &self,
        server: &ServerId,
        name: &str,
        arguments: BTreeMap<String, String>,
        cancel: CancelToken,
    ) -> Result<GetPromptResult, String> {
        let session = self.inner.connected_session(server).map_err(|error| error.to_string())?;
        session
            .get_prompt(name, arguments, &cancel)
            .await
            .map_err(|error| format!("the prompt \"{name}\" of {server} failed: {error}"))
    }

    /// The values the server the model calls `server` suggests for an argument of its prompt `prompt`
    /// (`completion/complete`); none when it offers no completions.
    pub async fn complete_prompt_argument(
        &self,
        server: &ServerId,
        prompt: &str,
        argument: &str,
        value: &str,
        filled: BTreeMap<String, String>,
        cancel: CancelToken,
    ) -> Result<Vec<String>, String> {
        let session = self.inner.connected_session(server).map_err(|error| error.to_string())?;
        match session.complete_prompt_argument(prompt, argument, value, filled, &cancel).await {
            Err(McpError::NotOffered(_)) => Ok(Vec::new()),
            answered => answered.map_err(|error| format!("suggestions for \"{argument}\" of {server} failed: {error}")),
        }
    }

    /// The MCP Apps view at `uri` of the server the model calls `server` (cached per server by
    /// URI), or why it cannot be shown.
    pub async fn view(&self, server: &ServerId, uri: &str, cancel: CancelToken) -> Result<Rc<ViewResource>, String> {
        let session = self.inner.connected_session(server).map_err(|error| error.to_string())?;
        session.view(uri, &cancel).await.map_err(|error| format!("the view <{uri}> of {server} could not be read: {error}"))
    }

    /// A view's `resources/list`, `resources/templates/list` or `prompts/list` (one page, from
    /// `cursor`), asked of the view's own server only.
    pub async fn list_for_view(&self, server: &ServerId, method: &str, cursor: Option<String>, cancel: CancelToken) -> Result<Value, String> {
        let session = self.inner.connected_session(server).map_err(|error| error.to_string())?;
        session.list_for_view(method, cursor, &cancel).await.map_err(|error| format!("{method} of {server} failed: {error}"))
    }

    /// A view's own `tools/call`: only a listed tool of the view's own server whose visibility
    /// includes views (`"app"`), through the same path (timeouts, call events) as the model's calls.
    pub async fn call_from_view(
        &self,
        server: &ServerId,
        tool: &str,
        args: Value,
        cancel: CancelToken,
    ) -> Result<ToolResult, String> {
        let entry = self.inner.entry_for_model(server).ok_or_else(|| format!("no MCP server \"{server}\" is configured"))?;
        let allowed = entry.snapshot.borrow().tools.iter().any(|spec| spec.name == tool && spec.for_views());
        if !allowed {
            return Err(format!("the view may not call \"{tool}\": {server} offers no such tool to its views"));
        }
        // The view is the server's own code acting on the person's clicks (or its own polling),
        // not the model: the model's approval questions do not apply, but a tool the person set to
        // "never" stays refused whoever calls it.
        if entry.snapshot.borrow().config.approvals.choice_for(tool) == Some(ApprovalChoice::Never) {
            return Err(format!("the view may not call \"{tool}\": you set it to never run"));
        }
        self.call_tool(server, tool, args, cancel).await.map_err(|error| error.to_string())
    }

    /// Asks `server` (the hub's id) for log entries from `level` up (`logging/setLevel`), now if it is
    /// connected and on every later connection; the choice is kept in its config. `Err` says why
    /// the server did not take it.
    pub async fn set_log_level(&self, server: &ServerId, level: LogLevel) -> Result<(), String> {
        let Some(entry) = self.inner.entry(server) else {
            return Err(format!("no server \"{server}\""));
        };
        let config = {
            let mut snapshot = entry.snapshot.borrow_mut();
            snapshot.config.log_level = Some(level);
            snapshot.config.clone()
        };
        self.inner.emit(HubEvent::ConfigChanged { server: server.clone(), config });
        let connected = matches!(entry.snapshot.borrow().status, ServerStatus::Connected { .. });
        if !connected {
            return Ok(());
        }
        let session = entry.session.borrow().clone();
        session
            .set_log_level(level)
            .await
            .map_err(|error| format!("{server} did not take log level {}: {error}", level.as_str()))
    }

    /// Subscribes to resource `uri` of `server` (the name the model knows it by): listeners hear
    /// [`HubEvent::ResourceUpdated`] when it changes, from now on and after every reconnection.
    /// `Err` says why not (the server offers no subscriptions, is not connected, or refused: then
    /// listeners also hear a warning).
    pub async fn subscribe_resource(&self, server: &ServerId, uri: &str) -> Result<(), String> {
        let session = self.inner.connected_session(server).map_err(|error| error.to_string())?;
        if !session.offers_subscriptions() {
            return Err(format!("{server} offers no resource subscriptions"));
        }
        let Some(entry) = self.inner.entry_for_model(server) else {
            return Err(format!("no server \"{server}\""));
        };
        if !entry.subscriptions.borrow_mut().insert(uri.to_owned()) {
            return Ok(());
        }
        session.subscribe_resource(uri).await.map_err(|error| {
            entry.subscriptions.borrow_mut().remove(uri);
            let message = format!("subscribing to <{uri}> failed: {error}");
            self.inner.emit(HubEvent::Warning { server: entry.id.clone(), message: message.clone() });
            message
        })
    }

    /// Changes a server's config (its id) in place, without reconnecting; listeners hear
    /// `ConfigChanged`, so it is saved.
    pub fn update_config(&self, server: &ServerId, change: impl FnOnce(&mut ServerConfig)) {
        let Some(entry) = self.inner.entry(server) else {
            return;
        };
        let config = {
            let mut snapshot = entry.snapshot.borrow_mut();
            change(&mut snapshot.config);
            snapshot.config.clone()
        };
        self.inner.emit(HubEvent::ConfigChanged { server: server.clone(), config });
    }

    pub fn snapshots(&self) -> Vec<ServerSnapshot> {
        self.inner
            .servers
            .borrow()
            .iter()
            .map(|entry| entry.snapshot.borrow().clone())
            .collect()
    }

    /// The configs to persist, with the transport each auto-detection settled on.
    pub fn configs(&self) -> Vec<ServerConfig> {
        self.inner
            .servers
            .borrow()
            .iter()
            .map(|entry| entry.snapshot.borrow().config.clone())
            .collect()
    }

    /// The approval choices remembered for the server the model calls `prefix`.
    pub fn approvals(&self, prefix: &ServerId) -> ApprovalRules {
        self.inner
            .entry_for_model(prefix)
            .map(|entry| entry.snapshot.borrow().config.approvals.clone())
            .unwrap_or_default()
    }

    /// Changes the approval choices of the server the model calls `prefix` (or whose id it is).
    pub fn update_approvals(&self, prefix: &ServerId, change: impl FnOnce(&mut ApprovalRules)) {
        let Some(entry) = self.inner.entry_for_model(prefix) else {
            return;
        };
        let config = {
            let mut snapshot = entry.snapshot.borrow_mut();
            change(&mut snapshot.config.approvals);
            snapshot.config.clone()
        };
        self.inner.emit(HubEvent::ApprovalsChanged {
            server: entry.id.clone(),
            config,
        });
    }

    fn unique_id(&self, base: ServerId) -> ServerId {
        self.inner.unique_name(base, None)
    }

    fn new_session(&self, id: &ServerId, config: ServerConfig) -> Rc<Session<H>> {
        let weak = Rc::downgrade(&self.inner);
        let id_label = id.to_string();
        let id = id.clone();
        let notices = Rc::new(move |notice: Notice| {
            if let Some(inner) = weak.upgrade() {
                inner.on_notice(&id, notice);
            }
        });
        let session = Session::new(
            config,
            self.inner.ports.clone(),
            self.inner.options.clone(),
            notices,
        );
        let session = match self.inner.elicitor.borrow().clone() {
            Some(elicitor) => session.with_elicitor(elicitor, id_label.as_str()),
            None => session,
        };
        let session = match self.inner.validator.borrow().clone() {
            Some(validator) => session.with_validator(validator),
            None => session,
        };
        Rc::new(match self.inner.sampler.borrow().clone() {
            Some(sampler) => session.with_sampler(sampler, id_label.as_str()),
            None => session,
        })
    }

    /// Spawns the task that runs the entry's current session until it gives up or is stopped.
    fn start(&self, entry: &Rc<Entry<H>>) {
        let stop = CancelToken::new();
        *entry.stop.borrow_mut() = stop.clone();
        self.inner.set_status(&entry.id, ServerStatus::Connecting);
        let session = entry.session.borrow().clone();
        let weak = Rc::downgrade(&self.inner);
        let id = entry.id.clone();
        let task = async move {
            if let Some(reason) = stop.run(session.run()).await
                && let Some(inner) = weak.upgrade()
            {
                inner.set_status(
                    &id,
                    ServerStatus::Failed {
                        reason: reason.to_string(),
                    },
                );
            }
        };
        // The receiver lives as long as the hub (it sits in `queue` or in `run`).
        let _ = self.inner.tasks.unbounded_send(task.boxed_local());
    }
}

impl<H: HttpTransport + ?Sized + 'static> Inner<H> {
    fn entry(&self, id: &ServerId) -> Option<Rc<Entry<H>>> {
        self.servers
            .borrow()
            .iter()
            .find(|entry| &entry.id == id)
            .cloned()
    }

    /// The entry the model calls `prefix` (its tool prefix, or its id).
    fn entry_for_model(&self, prefix: &ServerId) -> Option<Rc<Entry<H>>> {
        let servers = self.servers.borrow();
        let by_prefix = servers.iter().find(|entry| &entry.snapshot.borrow().tool_prefix == prefix);
        by_prefix.or_else(|| servers.iter().find(|entry| &entry.id == prefix)).cloned()
    }

    /// The session of the server the model calls `prefix`, when it is connected; else why not.
    fn connected_session(&self, prefix: &ServerId) -> Result<Rc<Session<H>>, RemoteCallError> {
        let entry = self
            .entry_for_model(prefix)
            .ok_or_else(|| RemoteCallError::UnknownServer(prefix.clone()))?;
        let status = entry.snapshot.borrow().status.clone();
        let reason = match status {
            ServerStatus::Connected { .. } => return Ok(entry.session.borrow().clone()),
            ServerStatus::Connecting => "it is still connecting; try again in a moment".to_owned(),
            ServerStatus::Reconnecting { reason } => format!("it is reconnecting ({reason})"),
            ServerStatus::Failed { reason } => reason,
        };
        Err(RemoteCallError::NotConnected { server: prefix.clone(), reason })
    }

    /// `base`, or `base_2`, `base_3`… : the first that no other server (than `except`) uses as
    /// its id or tool prefix.
    fn unique_name(&self, base: ServerId, except: Option<&ServerId>) -> ServerId {
        let servers = self.servers.borrow();
        let taken = |candidate: &ServerId| {
            servers.iter().filter(|entry| Some(&entry.id) != except).any(|entry| {
                &entry.id == candidate || entry.snapshot.try_borrow().is_ok_and(|snapshot| &snapshot.tool_prefix == candidate)
            })
        };
        if !taken(&base) {
            return base;
        }
        (2..)
            .map(|suffix| ServerId::sanitize(&format!("{base}_{suffix}")))
            .find(|candidate| !taken(candidate))
            .unwrap_or(base)
    }

    /// Sends `event` to every listener, with no hub state borrowed (listeners may call back).
    fn emit(&self, event: HubEvent) {
        let listeners: Vec<Listener> = self.listeners.borrow().clone();
        for listener in listeners {
            listener(&event);
        }
    }

    fn set_status(&self, id: &ServerId, status: ServerStatus) {
        let Some(entry) = self.entry(id) else { return };
        entry.snapshot.borrow_mut().status = status.clone();
        self.emit(HubEvent::StatusChanged {
            server: id.clone(),
            status,
        });
    }

    fn on_notice(self: &Rc<Self>, id: &ServerId, notice: Notice) {
        let Some(entry) = self.entry(id) else { return };
        match notice {
            Notice::Connected => {
                self.on_connected(&entry);
                self.resubscribe(&entry);
            }
            Notice::ResourceUpdated { uri } => self.emit(HubEvent::ResourceUpdated { server: id.clone(), uri }),
            Notice::ToolsChanged => {
                self.publish_tools(&entry);
                let tools = entry.snapshot.borrow().tools.len();
                self.set_status(id, ServerStatus::Connected { tools });
            }
            Notice::OffersChanged => {
                let offers = entry.session.borrow().facts().offers;
                entry.snapshot.borrow_mut().offers = offers.clone();
                self.emit(HubEvent::OffersChanged { server: id.clone(), offers });
            }
            Notice::ToolsRefreshFailed { reason } => self.emit(HubEvent::Warning {
                server: id.clone(),
                message: format!(
                    "the server changed its tools, but listing them again failed: {reason}"
                ),
            }),
            Notice::Log { level, logger, message } => self.emit(HubEvent::ServerLog {
                server: id.clone(),
                level,
                logger,
                message,
            }),
            Notice::ElicitationRefused { reason } => self.emit(HubEvent::Warning {
                server: id.clone(),
                message: format!("the server asked for input this client cannot show: {reason}"),
            }),
            Notice::SamplingRefused { reason } => self.emit(HubEvent::Warning {
                server: id.clone(),
                message: format!("a sampling request from the server was refused: {reason}"),
            }),
            Notice::Reconnecting { reason } => {
                self.set_status(id, ServerStatus::Reconnecting { reason })
            }
            Notice::Progress {
                tool,
                progress,
                total,
                message,
            } => {
                self.emit(HubEvent::Progress {
                    server: id.clone(),
                    tool,
                    progress,
                    total,
                    message,
                });
            }
        }
    }

    /// Asks a server that connected again for the resources subscribed to before; a refusal becomes
    /// a warning.
    fn resubscribe(self: &Rc<Self>, entry: &Entry<H>) {
        let uris: Vec<String> = entry.subscriptions.borrow().iter().cloned().collect();
        if uris.is_empty() {
            return;
        }
        let session = entry.session.borrow().clone();
        let weak = Rc::downgrade(self);
        let id = entry.id.clone();
        let task = async move {
            for uri in uris {
                if let Err(error) = session.subscribe_resource(&uri).await
                    && let Some(inner) = weak.upgrade()
                {
                    inner.emit(HubEvent::Warning { server: id.clone(), message: format!("subscribing to <{uri}> again failed: {error}") });
                }
            }
        };
        let _ = self.tasks.unbounded_send(task.boxed_local());
    }

    fn on_connected(&self, entry: &Entry<H>) {
        let session = entry.session.borrow().clone();
        let facts = session.facts();
        let Some(transport) = session.transport() else {
            return;
        };
        let Some(hello) = facts.hello else { return };
        let own_name = hello
            .server_info
            .as_ref()
            .filter(|info| !info.name.trim().is_empty())
            .map(|info| info.title.clone().filter(|title| !title.trim().is_empty()).unwrap_or_else(|| info.name.clone()));
        let unnamed = entry.snapshot.borrow().config.name.is_none();
        let tool_prefix = match (&own_name, unnamed) {
            (Some(own), true) => self.unique_name(ServerId::sanitize(own), Some(&entry.id)),
            _ => entry.id.clone(),
        };
        let (connected, detected) = {
            let mut snapshot = entry.snapshot.borrow_mut();
            if let (Some(own), true) = (own_name, unnamed) {
                snapshot.name = own;
            }
            session.rename(&snapshot.name);
            snapshot.tool_prefix = tool_prefix.clone();
            snapshot.transport = Some(transport);
            snapshot.server_info = hello.server_info.clone();
            snapshot.instructions = hello.instructions.clone();
            let connected = HubEvent::Connected {
                server: entry.id.clone(),
                name: snapshot.name.clone(),
                tool_prefix,
                transport,
                server_info: hello.server_info,
                instructions: hello.instructions,
            };
            let detected = (snapshot.config.transport == TransportChoice::Auto
                && snapshot.config.detected != Some(transport))
            .then(|| {
                snapshot.config.detected = Some(transport);
                HubEvent::TransportDetected {
                    server: entry.id.clone(),
                    config: snapshot.config.clone(),
                }
            });
            (connected, detected)
        };
        self.emit(connected);
        if let Some(detected) = detected {
            self.emit(detected);
        }
        self.publish_tools(entry);
        self.set_status(
            &entry.id,
            ServerStatus::Connected {
                tools: facts.tools.len(),
            },
        );
    }

    fn publish_tools(&self, entry: &Entry<H>) {
        let facts = entry.session.borrow().facts();
        {
            let mut snapshot = entry.snapshot.borrow_mut();
            snapshot.tools = facts.tools.clone();
            snapshot
                .unreadable_tools
                .clone_from(&facts.unreadable_tools);
        }
        self.emit(HubEvent::ToolsChanged {
            server: entry.id.clone(),
            tools: facts.tools,
            unreadable: facts.unreadable_tools,
        });
    }
}

impl<H: HttpTransport + ?Sized + 'static> RemoteServers for McpHub<H> {
    fn call_timeout_ms(&self, server: &ServerId) -> Option<u32> {
        let entry = self.inner.entry_for_model(server)?;
        let timeout_ms = entry.session.borrow().call_timeout_ms();
        Some(timeout_ms)
    }

    fn servers(&self) -> Vec<RemoteServerView> {
        self.snapshots()
            .into_iter()
            .map(|snapshot| RemoteServerView {
                id: snapshot.tool_prefix,
                name: snapshot.name,
                status: match snapshot.status {
                    ServerStatus::Connected { .. } => RemoteStatus::Connected,
                    ServerStatus::Connecting => RemoteStatus::Connecting,
                    // Unavailable until the retries succeed; the model and the person are told
                    // why (the connection was lost), not that it is "still connecting".
                    ServerStatus::Reconnecting { reason } => {
                        RemoteStatus::Failed(format!("it is reconnecting ({reason})"))
                    }
                    ServerStatus::Failed { reason } => RemoteStatus::Failed(reason),
                },
                tools: snapshot.tools.as_ref().clone(),
                instructions: snapshot.instructions,
                resources: snapshot.offers.resources,
                resource_templates: snapshot.offers.resource_templates,
            })
            .collect()
    }

    fn read_resource<'a>(
        &'a self,
        server: &'a ServerId,
        uri: &'a str,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ToolResult, RemoteCallError>> {
        async move {
            let session = self.inner.connected_session(server)?;
            session.read_resource(uri, &cancel).await.map_err(|error| match error {
                McpError::Cancelled => RemoteCallError::Cancelled,
                McpError::Timeout { ms } => RemoteCallError::TimedOut { server: server.clone(), seconds: ms.div_ceil(1_000) },
                error => RemoteCallError::Failed(format!("reading <{uri}> from {server} failed: {error}")),
            })
        }
        .boxed_local()
    }

    fn call_tool<'a>(
        &'a self,
        server: &'a ServerId,
        tool: &'a str,
        args: Value,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ToolResult, RemoteCallError>> {
        async move {
            let entry = self
                .inner
                .entry_for_model(server)
                .ok_or_else(|| RemoteCallError::UnknownServer(server.clone()))?;
            let session = self.inner.connected_session(server)?;
            let clock = self.inner.ports.clock.clone();
            let started = clock.now_ms();
            let outcome = session.call_tool(tool, args, &cancel).await;
            let latency_ms = clock.now_ms() - started;
            entry.snapshot.borrow_mut().last_call_ms = Some(latency_ms);
            let (result, reported) = match outcome {
                Ok(result) => {
                    let reported = if result.is_error {
                        CallOutcome::ToolError
                    } else {
                        CallOutcome::Ok
                    };
                    (Ok(result), reported)
                }
                Err(McpError::Cancelled) => {
                    (Err(RemoteCallError::Cancelled), CallOutcome::Cancelled)
                }
                Err(McpError::Timeout { ms }) => {
                    let timed_out = RemoteCallError::TimedOut { server: server.clone(), seconds: ms.div_ceil(1_000) };
                    let reported = CallOutcome::Failed(timed_out.to_string());
                    (Err(timed_out), reported)
                }
                Err(error) => {
                    let message = format!("calling \"{tool}\" on {server} failed: {error}");
                    (
                        Err(RemoteCallError::Failed(message.clone())),
                        CallOutcome::Failed(message),
                    )
                }
            };
            self.inner.emit(HubEvent::CallFinished {
                server: entry.id.clone(),
                tool: tool.to_owned(),
                latency_ms,
                outcome: reported,
            });
            result
        }
        .boxed_local()
    }
}
