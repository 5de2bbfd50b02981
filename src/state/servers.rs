//! The app's MCP servers: one hub for the page over fetch and `EventSource`, the server configs
//! persisted in the browser store (`state/persist.rs`) and reconnected on reload, and the hub's events folded into the rows
//! the servers panel reads. The agent reaches the same hub through [`ServersCtx::remote`].

use std::rc::Rc;

use autoui_core::recipes::validate::SchemaValidator;
use autoui_core::approval::{ApprovalChoice, ApprovalRules};
use autoui_core::ids::ServerId;
use autoui_core::mcp::config::{McpOptions, ServerConfig};
use autoui_core::mcp::hub::{CallOutcome, HubError, HubEvent, McpHub, ServerSnapshot, ServerStatus};
use autoui_core::mcp::prompts::PromptChoice;
use autoui_core::mcp::session::SessionPorts;
use autoui_core::ports::{Clock, HttpTransport};
use autoui_core::remote::RemoteServers;
use autoui_core::tool::ToolSpec;
use leptos::prelude::*;

use crate::adapters::clock::BrowserClock;
use crate::adapters::event_source::BrowserEventSource;
use crate::adapters::oauth_redirect;
use crate::state::agent::AgentCtx;
use crate::state::oauth::{AuthView, OAuthRouter};
use crate::state::elicitation::{PageElicitor, provide_elicitation};
use crate::state::persist::{PersistCtx, use_persist};
use crate::state::sampling::provide_sampling;

pub type BrowserHub = McpHub<OAuthRouter>;

/// How long a full-page sign-in waits, after asking for the work to be saved, before the page goes.
const LEAVE_DELAY_MS: u32 = 300;

/// A hub over the browser's fetch (through the OAuth router), `EventSource` and clock, with the
/// task driving its connections already spawned. The app makes one; browser tests make one per test.
pub fn spawn_hub(options: McpOptions) -> BrowserHub {
    spawn_hub_over(Rc::new(OAuthRouter::default()), options)
}

/// [`spawn_hub`] over another HTTP transport (browser tests wrap fetch to watch what goes out).
pub fn spawn_hub_over<H: HttpTransport + 'static>(http: Rc<H>, options: McpOptions) -> McpHub<H> {
    let ports = SessionPorts { http, event_sources: Rc::new(BrowserEventSource), clock: Rc::new(BrowserClock) };
    let hub = McpHub::new(ports, options);
    // Not leptos' spawner: a hub may be made before anything is mounted (which sets that one up).
    wasm_bindgen_futures::spawn_local(hub.run());
    hub
}

/// The latest `notifications/progress` of a running call.
#[derive(Clone, Debug, PartialEq)]
pub struct CallProgress {
    pub tool: String,
    pub progress: f64,
    pub total: Option<f64>,
    pub message: Option<String>,
}

impl CallProgress {
    /// "40 of 100 (fetching)", as a person reads it.
    pub fn describe(&self) -> String {
        let mut text = match self.total {
            Some(total) => format!("{} of {total}", self.progress),
            None => self.progress.to_string(),
        };
        if let Some(message) = &self.message {
            text.push_str(&format!(" ({message})"));
        }
        text
    }
}

/// How the last `tools/call` on a server went.
#[derive(Clone, Debug, PartialEq)]
pub struct LastCall {
    pub tool: String,
    pub latency_ms: f64,
    pub outcome: CallOutcome,
}

/// One server as the panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerRow {
    pub snapshot: ServerSnapshot,
    pub progress: Option<CallProgress>,
    pub last_call: Option<LastCall>,
    /// Something to know that did not change the status (re-listing tools failed); cleared on connect.
    pub warning: Option<String>,
    /// Bumps whenever the tool list is replaced, so the tool browser re-renders only then.
    pub tools_revision: u64,
    /// Removal was asked for and the session is being ended on the server.
    pub removing: bool,
}

impl ServerRow {
    pub fn new(snapshot: ServerSnapshot) -> ServerRow {
        ServerRow { snapshot, progress: None, last_call: None, warning: None, tools_revision: 0, removing: false }
    }

    fn apply(&mut self, event: &HubEvent) {
        self.snapshot.apply(event);
        match event {
            HubEvent::Connected { .. } => self.warning = None,
            HubEvent::ToolsChanged { .. } => self.tools_revision += 1,
            HubEvent::Progress { tool, progress, total, message, .. } => {
                self.progress = Some(CallProgress {
                    tool: tool.clone(),
                    progress: *progress,
                    total: *total,
                    message: message.clone(),
                });
            }
            HubEvent::CallFinished { tool, latency_ms, outcome, .. } => {
                if self.progress.as_ref().is_some_and(|progress| &progress.tool == tool) {
                    self.progress = None;
                }
                self.last_call =
                    Some(LastCall { tool: tool.clone(), latency_ms: *latency_ms, outcome: outcome.clone() });
            }
            HubEvent::Warning { message, .. } => self.warning = Some(message.clone()),
            HubEvent::ServerLog { .. }
            | HubEvent::ResourceUpdated { .. }
            | HubEvent::OffersChanged { .. }
            | HubEvent::Added(_)
            | HubEvent::StatusChanged { .. }
            | HubEvent::TransportDetected { .. }
            | HubEvent::ConfigChanged { .. }
            | HubEvent::ApprovalsChanged { .. }
            | HubEvent::Removed { .. } => {}
        }
    }
}

/// Folds a hub event into the panel's rows, adding and removing rows as servers come and go.
pub fn fold_rows(rows: &mut Vec<ServerRow>, event: &HubEvent) {
    match event {
        HubEvent::Added(snapshot) => rows.push(ServerRow::new((**snapshot).clone())),
        HubEvent::Removed { server } => rows.retain(|row| &row.snapshot.id != server),
        other => rows.iter_mut().filter(|row| &row.snapshot.id == other.server()).for_each(|row| row.apply(other)),
    }
}

/// Whether `event` changes what must be persisted (the list, a transport auto-detection settled on,
/// the person's approval choices).
fn changes_configs(event: &HubEvent) -> bool {
    matches!(
        event,
        HubEvent::Added(_)
            | HubEvent::Removed { .. }
            | HubEvent::TransportDetected { .. }
            | HubEvent::ConfigChanged { .. }
            | HubEvent::ApprovalsChanged { .. }
    )
}

/// Context handle for the servers; `Copy`, so event handlers capture it freely.
#[derive(Clone, Copy)]
pub struct ServersCtx {
    hub: StoredValue<BrowserHub, LocalStorage>,
    /// Each server's OAuth (the same router the hub sends through).
    oauth: StoredValue<Rc<OAuthRouter>, LocalStorage>,
    /// The server whose sign-in is under way, if any.
    signing_in: RwSignal<Option<ServerId>, LocalStorage>,
    /// Bumps when a sign-in or sign-out ends, so the panel reads the servers' sign-in again.
    auth_revision: RwSignal<u64, LocalStorage>,
    /// Why a full-page sign-in could not leave, if it could not.
    redirect_error: RwSignal<Option<String>, LocalStorage>,
    rows: RwSignal<Vec<ServerRow>, LocalStorage>,
    /// The name a "Connect" for a dashboard's missing server asked the add form to fill in.
    wanted_name: RwSignal<Option<String>, LocalStorage>,
    /// Where the configs are saved; bearer tokens and OAuth grants are stored with them, in this browser
    /// only, like the API key.
    persist: PersistCtx,
}

impl ServersCtx {
    /// Folds `hub`'s events into rows from now on, and saves the configs whenever they change.
    fn new(hub: BrowserHub, oauth: Rc<OAuthRouter>, persist: PersistCtx) -> ServersCtx {
        let rows = RwSignal::new_local(hub.snapshots().into_iter().map(ServerRow::new).collect::<Vec<_>>());
        let ctx = ServersCtx {
            hub: StoredValue::new_local(hub.clone()),
            oauth: StoredValue::new_local(oauth),
            signing_in: RwSignal::new_local(None),
            auth_revision: RwSignal::new_local(0),
            redirect_error: RwSignal::new_local(None),
            rows,
            wanted_name: RwSignal::new_local(None),
            persist,
        };
        // Absent where the panel is mounted alone (browser tests).
        let agent = use_context::<AgentCtx>();
        hub.subscribe(move |event| {
            // The signals may be gone (the owner was disposed) while the hub lives on in its task.
            rows.try_update(|rows| fold_rows(rows, event));
            if let (HubEvent::ServerLog { server, level, logger, message }, Some(agent)) = (event, agent) {
                let name = rows.try_with_untracked(|rows| {
                    rows.iter().find(|row| &row.snapshot.id == server).map(|row| row.snapshot.tool_prefix.to_string())
                });
                let name = name.flatten().unwrap_or_else(|| server.to_string());
                agent.server_log(name, level.clone(), logger.clone(), message.clone());
            }
            if changes_configs(event) {
                ctx.save();
            }
        });
        ctx
    }

    /// Adds a server and starts connecting to it.
    pub fn add(&self, config: ServerConfig) -> Result<ServerId, HubError> {
        let hub = self.hub.get_value();
        add_with_oauth(&hub, &self.oauth.get_value(), config)
    }

    /// What the panel shows of the server's sign-in (tracked).
    pub fn auth_view(&self, id: &ServerId) -> AuthView {
        self.auth_revision.track();
        let signing_in = self.signing_in.with(|signing_in| signing_in.as_ref() == Some(id));
        let Some(url) = self.with_row(id, |row| row.snapshot.config.url.clone()) else { return AuthView::None };
        self.oauth.with_value(|oauth| oauth.server(&url)).map_or(AuthView::None, |auth| AuthView::of(&auth, signing_in))
    }

    /// Starts signing in to the server. Call it inside the click: the sign-in window opens now.
    /// Where the browser blocks it, the whole page goes to the authorization server instead and
    /// comes back to finish ([`ServersCtx::finish_returned_sign_in`]). Once signed in the server
    /// connects again.
    pub fn sign_in(&self, id: &ServerId) -> Result<(), String> {
        let url = self.with_row_untracked(id, |row| row.snapshot.config.url.clone()).ok_or("no such server")?;
        let oauth = self.oauth.get_value();
        let auth = oauth.server(&url).ok_or("this server does not use OAuth")?;
        oauth_redirect::forget();
        let in_window = oauth.popup().open().is_ok();
        self.signing_in.set(Some(id.clone()));
        let ctx = *self;
        let id = id.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let signed_in = if in_window {
                let signed_in = auth.sign_in().await.is_ok();
                oauth.popup().close();
                signed_in
            } else {
                match auth.begin_sign_in().await {
                    Ok(pending) => {
                        // The conversation and canvas are saved before the page goes: the
                        // pending save now, and a moment for the browser store to take it.
                        ctx.persist.flush();
                        BrowserClock.sleep(LEAVE_DELAY_MS).await;
                        match oauth_redirect::leave_for(&pending) {
                            Ok(()) => return,
                            Err(why) => {
                                ctx.redirect_error.try_set(Some(why));
                                false
                            }
                        }
                    }
                    Err(_) => false,
                }
            };
            ctx.signing_in.try_set(None);
            ctx.auth_revision.try_update(|revision| *revision += 1);
            if signed_in {
                ctx.reconnect(&id);
            }
        });
        Ok(())
    }

    /// Finishes a sign-in that left this tab for the authorization server (its sign-in window was
    /// blocked), if this page load is its return.
    fn finish_returned_sign_in(&self) {
        let Some((pending, callback)) = oauth_redirect::take_returned() else { return };
        let Some(auth) = self.oauth.with_value(|oauth| oauth.server(&pending.server_url)) else { return };
        let Some(id) = self.rows.with_untracked(|rows| {
            rows.iter().find(|row| row.snapshot.config.url.trim() == pending.server_url).map(|row| row.snapshot.id.clone())
        }) else {
            return;
        };
        self.signing_in.set(Some(id.clone()));
        let ctx = *self;
        wasm_bindgen_futures::spawn_local(async move {
            let signed_in = auth.finish_sign_in(&pending, &callback).await.is_ok();
            ctx.signing_in.try_set(None);
            ctx.auth_revision.try_update(|revision| *revision += 1);
            if signed_in {
                ctx.reconnect(&id);
            }
        });
    }

    /// Why the page could not go to the authorization server, if it could not.
    pub fn redirect_error(&self) -> Option<String> {
        self.redirect_error.get()
    }

    /// Revokes the server's tokens where it offers revocation, forgets them, and connects again
    /// (which then asks for a sign-in).
    pub fn sign_out(&self, id: &ServerId) {
        let Some(url) = self.with_row_untracked(id, |row| row.snapshot.config.url.clone()) else { return };
        let Some(auth) = self.oauth.with_value(|oauth| oauth.server(&url)) else { return };
        let ctx = *self;
        let id = id.clone();
        wasm_bindgen_futures::spawn_local(async move {
            // A failed revocation still forgets the tokens here; nothing else to do about it.
            let _ = auth.sign_out().await;
            ctx.auth_revision.try_update(|revision| *revision += 1);
            ctx.reconnect(&id);
        });
    }

    fn with_row_untracked<T>(&self, id: &ServerId, read: impl FnOnce(&ServerRow) -> T) -> Option<T> {
        self.rows.with_untracked(|rows| rows.iter().find(|row| &row.snapshot.id == id).map(read))
    }

    /// Connects again from scratch, with the stored config.
    pub fn reconnect(&self, id: &ServerId) {
        self.hub.with_value(|hub| hub.reconnect(id));
    }

    /// Stops the connection, ends the session on the server (`DELETE`), then drops the row.
    pub fn remove(&self, id: &ServerId) {
        self.rows.update(|rows| {
            rows.iter_mut().filter(|row| &row.snapshot.id == id).for_each(|row| row.removing = true);
        });
        let hub = self.hub.get_value();
        let oauth = self.oauth.get_value();
        let url = self.with_row_untracked(id, |row| row.snapshot.config.url.clone());
        let id = id.clone();
        wasm_bindgen_futures::spawn_local(async move {
            hub.remove_server(&id).await;
            if let Some(url) = url {
                oauth.forget(&url);
            }
        });
    }

    /// Sets (or with `None`, forgets) the approval choice for one of the server's tools; saved.
    pub fn set_approval(&self, id: &ServerId, tool: &str, choice: Option<ApprovalChoice>) {
        self.hub.with_value(|hub| hub.update_approvals(id, |rules| rules.set_tool(tool, choice)));
    }

    /// Sets (or with `None`, forgets) the approval choice for all of the server's tools; saved.
    pub fn set_server_approval(&self, id: &ServerId, choice: Option<ApprovalChoice>) {
        self.hub.with_value(|hub| hub.update_approvals(id, |rules| rules.server = choice));
    }

    /// The approval choices remembered for the server (tracked).
    pub fn approvals(&self, id: &ServerId) -> ApprovalRules {
        self.with_row(id, |row| row.snapshot.config.approvals.clone()).unwrap_or_default()
    }

    /// Forgets every approval choice remembered for the server; saved.
    pub fn reset_approvals(&self, id: &ServerId) {
        self.hub.with_value(|hub| hub.update_approvals(id, |rules| *rules = ApprovalRules::default()));
    }

    /// The server the model calls `prefix` (its tools are `{prefix}_mcp_…`): its id and status
    /// (tracked); `None` when no such server is added.
    pub fn by_prefix(&self, prefix: &ServerId) -> Option<(ServerId, ServerStatus)> {
        self.rows.with(|rows| {
            rows.iter()
                .find(|row| &row.snapshot.tool_prefix == prefix && !row.removing)
                .map(|row| (row.snapshot.id.clone(), row.snapshot.status.clone()))
        })
    }

    /// Each added server's tool prefix and URL (untracked): where a shared dashboard says its
    /// bindings' servers live.
    pub fn urls(&self) -> Vec<(ServerId, String)> {
        self.rows.with_untracked(|rows| {
            rows.iter()
                .filter(|row| !row.removing)
                .map(|row| (row.snapshot.tool_prefix.clone(), row.snapshot.config.url.clone()))
                .collect()
        })
    }

    /// Adds the server a dashboard's bindings call as `prefix` at `url` (the URL the dashboard
    /// carried), named `prefix` so its tools keep the names the bindings call, and connects it.
    pub fn add_named(&self, prefix: &ServerId, url: &str) -> Result<ServerId, HubError> {
        self.add(ServerConfig { name: Some(prefix.to_string()), ..ServerConfig::new(url) })
    }

    /// Asks the add form to fill in `name` (a dashboard's missing server, see `ui::needed_servers`).
    pub fn want(&self, name: String) {
        self.wanted_name.set(Some(name));
    }

    /// The name asked for, once (tracked).
    pub fn take_wanted(&self) -> Option<String> {
        let wanted = self.wanted_name.get();
        if wanted.is_some() {
            self.wanted_name.set(None);
        }
        wanted
    }

    /// Server ids in the order they were added (tracked).
    pub fn ids(&self) -> Vec<ServerId> {
        self.rows.with(|rows| rows.iter().map(|row| row.snapshot.id.clone()).collect())
    }

    /// Reads one server's row (tracked); `None` once it is removed.
    pub fn with_row<T>(&self, id: &ServerId, read: impl FnOnce(&ServerRow) -> T) -> Option<T> {
        self.rows.with(|rows| rows.iter().find(|row| &row.snapshot.id == id).map(read))
    }

    /// The latest progress of `tool` running on the server the agent calls `server` (tracked).
    pub fn progress_of(&self, server: &ServerId, tool: &str) -> Option<CallProgress> {
        self.rows.with(|rows| {
            rows.iter()
                .find(|row| &row.snapshot.tool_prefix == server)
                .and_then(|row| row.progress.clone())
                .filter(|progress| progress.tool == tool)
        })
    }

    /// One server's tools, untracked (pair it with `tools_revision` to re-render on change).
    pub fn tools_of(&self, id: &ServerId) -> Rc<Vec<ToolSpec>> {
        self.rows.with_untracked(|rows| {
            rows.iter().find(|row| &row.snapshot.id == id).map(|row| row.snapshot.tools.clone()).unwrap_or_default()
        })
    }

    /// The prompts of the connected servers, by the name the agent knows each server by (tracked).
    pub fn prompts(&self) -> Vec<PromptChoice> {
        self.rows.with(|rows| {
            rows.iter()
                .filter(|row| matches!(row.snapshot.status, ServerStatus::Connected { .. }))
                .flat_map(|row| {
                    let server = row.snapshot.tool_prefix.clone();
                    row.snapshot.offers.prompts.iter().map(move |prompt| PromptChoice { server: server.clone(), prompt: prompt.clone() })
                })
                .collect()
        })
    }

    /// The servers as the agent's dispatcher sees them and calls their tools.
    pub fn remote(&self) -> Rc<dyn RemoteServers> {
        Rc::new(self.hub.get_value())
    }

    pub fn hub(&self) -> BrowserHub {
        self.hub.get_value()
    }

    fn save(&self) {
        if let Some(configs) = self.hub.try_with_value(|hub| hub.configs()) {
            self.persist.save_servers(configs);
        }
    }
}

/// Spawns the page's hub, reconnects the stored servers, and saves every change back.
pub fn provide_servers(validator: Rc<dyn SchemaValidator>) -> ServersCtx {
    let persist = use_persist();
    let oauth = Rc::new(OAuthRouter::default());
    let hub = spawn_hub_over(oauth.clone(), McpOptions::default());
    // Before any server connects: results are checked against their tools' output schemas.
    hub.set_validator(validator);
    // Before any server connects: elicitation and sampling are declared only to sessions that can ask the person.
    hub.set_elicitor(Rc::new(PageElicitor(provide_elicitation())));
    hub.set_sampler(provide_sampling());
    // Reconnecting what is stored changes nothing to save, so this happens before subscribing.
    for config in persist.stored_servers() {
        let _ = add_with_oauth(&hub, &oauth, config);
    }
    let ctx = ServersCtx::new(hub, oauth, persist);
    ctx.finish_returned_sign_in();
    provide_context(ctx);
    ctx
}

/// Adds a server to the hub with its OAuth registered first (its first request may be refused),
/// and its grant changes written into its config, which saves it.
fn add_with_oauth(hub: &BrowserHub, oauth: &OAuthRouter, config: ServerConfig) -> Result<ServerId, HubError> {
    let url = config.url.trim().to_owned();
    let already_added = hub.configs().iter().any(|existing| existing.url == url);
    if !already_added {
        oauth.register(&config);
    }
    let id = hub.add_server(config)?;
    if let Some(auth) = oauth.server(&url) {
        let (hub, server) = (hub.clone(), id.clone());
        auth.on_grant_change(Box::new(move |grant| {
            hub.update_config(&server, |config| config.oauth_grant = grant.cloned());
        }));
    }
    Ok(id)
}

pub fn use_servers() -> ServersCtx {
    expect_context::<ServersCtx>()
}
