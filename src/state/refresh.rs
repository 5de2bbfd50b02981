//! Refreshing bound widgets (see the core's `binding/`): on the person's click, for the whole canvas
//! ("Refresh all"), when the dashboard is opened or restored (`on_open`), and on each binding's
//! interval while the page is visible, backing off after errors (until the browser is back online);
//! a widget bound to a resource of a server that offers subscriptions is subscribed to it and
//! refreshed when the server says it changed (`notifications/resources/updated`, also only while
//! visible). One refresh per widget at a time;
//! nothing refreshes while the canvas is read-only (a shared link not yet made one's own) or
//! another tab edits it. A refresh never changes a widget's kind or layout, and a failed one keeps
//! its data, marked stale (`AutoUi::refresh_block`).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use autoui_core::binding::source::{Refresh, Target};
use autoui_core::cancel::CancelToken;
use autoui_core::ids::BlockId;
use autoui_core::mcp::hub::HubEvent;
use autoui_core::ports::Clock;
use autoui_core::remote::{RemoteServerView, RemoteStatus};
use autoui_core::tool_name::ToolName;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;

use crate::adapters::clock::BrowserClock;
use crate::adapters::visibility::page_visible;
use crate::state::autoui::AutoUiCtx;
use crate::state::canvas::CanvasCtx;
use crate::state::servers::ServersCtx;

/// How often the scheduler looks for due refreshes.
const TICK_MS: u32 = 1_000;
/// After a failed `on_open` refresh, the first wait before trying again (doubling, as intervals do).
const ON_OPEN_RETRY_S: u32 = 30;
/// Failures in a row after which the interval stops doubling (2^6 times the interval, at most a day).
const MAX_BACKOFF_STEPS: u32 = 6;
const MAX_BACKOFF_MS: f64 = 86_400_000.0;

#[derive(Default)]
struct Schedule {
    running: HashSet<BlockId>,
    /// When each widget was last tried in this page (unix ms).
    tried: HashMap<BlockId, f64>,
    /// Failures in a row per widget.
    failures: HashMap<BlockId, u32>,
    /// Resources this page asked their server to announce changes of.
    subscribed: HashSet<String>,
    /// Resources the server said changed since the last tick.
    updated: HashSet<String>,
}

impl Schedule {
    /// Makes the widgets whose refreshes failed due at the next tick, not once their back-off has
    /// passed: what they could not reach may be back.
    fn retry_failed(&mut self) {
        let failed: Vec<BlockId> = self.failures.drain().map(|(id, _)| id).collect();
        for id in failed {
            self.tried.remove(&id);
        }
    }
}

#[derive(Clone, Copy)]
pub struct RefreshCtx {
    canvas: CanvasCtx,
    autoui: AutoUiCtx,
    servers: ServersCtx,
    schedule: StoredValue<Rc<RefCell<Schedule>>, LocalStorage>,
    /// Widgets refreshing now, for their spinners.
    busy: RwSignal<Vec<BlockId>>,
    /// When this page started (unix ms): data fetched before it is refreshed by `on_open`.
    opened_ms: f64,
    /// Fetches and maps one widget's data. A pointer taken in the engine chunk: the buttons that
    /// call [`RefreshCtx::refresh`] are in the first load, and a direct call would pull the fetch and
    /// the jq engine in with them.
    refresh_block: RefreshBlock,
}

type RefreshBlock = fn(AutoUiCtx, BlockId) -> LocalBoxFuture<'static, bool>;

/// Refreshes one block; `true` when its data was replaced.
fn refresh_block(autoui: AutoUiCtx, id: BlockId) -> LocalBoxFuture<'static, bool> {
    Box::pin(async move { autoui.server().refresh_block(&id, CancelToken::default()).await.is_ok() })
}

impl RefreshCtx {
    /// Whether widget `id` is refreshing now (tracked).
    pub fn is_busy(&self, id: &BlockId) -> bool {
        self.busy.with(|busy| busy.contains(id))
    }

    /// Refreshes widget `id` now, unless it is refreshing already or the canvas is read-only.
    pub fn refresh(&self, id: BlockId) {
        if self.canvas.is_read_only_untracked() {
            return;
        }
        let schedule = self.schedule.get_value();
        if !schedule.borrow_mut().running.insert(id.clone()) {
            return;
        }
        schedule.borrow_mut().tried.insert(id.clone(), BrowserClock.unix_ms());
        self.busy.update(|busy| busy.push(id.clone()));
        let ctx = *self;
        leptos::task::spawn_local(async move {
            let refreshed = (ctx.refresh_block)(ctx.autoui, id.clone()).await;
            let mut schedule = schedule.borrow_mut();
            schedule.running.remove(&id);
            match refreshed {
                true => {
                    schedule.failures.remove(&id);
                }
                false => *schedule.failures.entry(id.clone()).or_default() += 1,
            }
            ctx.busy.update(|busy| busy.retain(|busy| busy != &id));
        });
    }

    /// Back online: the widgets whose refreshes failed (the network was down, most likely) are due
    /// again at the next tick, not once their back-off has passed.
    fn back_online(&self) {
        self.schedule.get_value().borrow_mut().retry_failed();
    }

    /// Refreshes every bound widget.
    pub fn refresh_all(&self) {
        for id in self.bound().into_iter().map(|(id, _, _, _)| id) {
            self.refresh(id);
        }
    }

    /// Whether the canvas has a bound widget (tracked).
    pub fn any_bound(&self) -> bool {
        self.canvas.revision();
        self.canvas.with_store(|store| store.canvas().blocks().iter().any(|block| block.binding.is_some()))
    }

    /// Bound widgets: id, schedule, target and when their data was fetched.
    fn bound(&self) -> Vec<(BlockId, Refresh, Target, f64)> {
        self.canvas.with_store(|store| {
            store
                .canvas()
                .blocks()
                .iter()
                .filter_map(|block| {
                    let binding = block.binding.as_ref()?;
                    let source = &binding.source;
                    Some((block.id.clone(), source.refresh, source.target.clone(), binding.fetched_ms.unwrap_or(0.0)))
                })
                .collect()
        })
    }

    /// Starts the refreshes nobody clicks for: `on_open` and intervals.
    fn tick(&self) {
        if self.canvas.is_read_only_untracked() || !page_visible() {
            return;
        }
        let now = BrowserClock.unix_ms();
        let schedule = self.schedule.get_value();
        self.subscribe_new_resources(&schedule);
        let updated = std::mem::take(&mut schedule.borrow_mut().updated);
        // Listing the servers copies their tools: only once a widget is due, once per tick.
        let servers = std::cell::OnceCell::new();
        let due: Vec<BlockId> = self
            .bound()
            .into_iter()
            .filter(|(id, refresh, target, fetched)| {
                let schedule = schedule.borrow();
                let tried = schedule.tried.get(id).copied();
                let failures = schedule.failures.get(id).copied().unwrap_or(0).min(MAX_BACKOFF_STEPS);
                let backoff = |seconds: u32| (f64::from(seconds) * 1_000.0 * f64::from(1u32 << failures)).min(MAX_BACKOFF_MS);
                let opened_stale = tried.is_none() && *fetched < self.opened_ms;
                let due = match refresh {
                    Refresh::Manual => false,
                    // Tried again later after a failure; otherwise once per opening.
                    Refresh::OnOpen => {
                        opened_stale || (failures > 0 && now >= tried.unwrap_or(0.0) + backoff(ON_OPEN_RETRY_S))
                    }
                    Refresh::Every { seconds } => opened_stale || now >= tried.unwrap_or(0.0).max(*fetched) + backoff(*seconds),
                };
                let pushed = matches!(target, Target::Resource { resource } if updated.contains(resource));
                (due || pushed) && !server_not_ready(servers.get_or_init(|| self.servers.remote().servers()), target)
            })
            .map(|(id, _, _, _)| id)
            .collect();
        for id in due {
            self.refresh(id);
        }
    }

    /// Asks the servers of the bound resources not subscribed to yet (once each in this page,
    /// when their server is connected) to announce their changes.
    fn subscribe_new_resources(&self, schedule: &Rc<RefCell<Schedule>>) {
        let wanted: Vec<String> = self
            .bound()
            .into_iter()
            .filter_map(|(_, _, target, _)| match target {
                Target::Resource { resource } => Some(resource),
                Target::Call { .. } => None,
            })
            .filter(|resource| !schedule.borrow().subscribed.contains(resource))
            .collect();
        // Listing the servers copies their tools: not every second for nothing.
        if wanted.is_empty() {
            return;
        }
        let servers = self.servers.remote().servers();
        for resource in wanted {
            let server = servers.iter().find(|server| {
                server.status == RemoteStatus::Connected && server.resources.iter().any(|listed| listed.uri == resource)
            });
            let Some(server) = server else { continue };
            if !schedule.borrow_mut().subscribed.insert(resource.clone()) {
                continue;
            }
            let (hub, id) = (self.servers.hub(), server.id.clone());
            leptos::task::spawn_local(async move {
                // Without a subscription (none offered; a refusal is shown as the server's warning)
                // the binding's own schedule still refreshes it.
                let _ = hub.subscribe_resource(&id, &resource).await;
            });
        }
    }
}

/// A source whose server is still connecting, or not added in this page (a shared or imported
/// dashboard: `ui::needed_servers` offers to connect it), waits for it rather than failing; a
/// click on its refresh button still tries, and says why it failed. A resource names no server:
/// it waits until a connected server lists it while any server is still connecting (a reload
/// starts them all connecting), or while there is none.
fn server_not_ready(servers: &[RemoteServerView], target: &Target) -> bool {
    match target {
        Target::Call { call, .. } => {
            let Ok(name) = ToolName::parse(call) else {
                return false;
            };
            match servers.iter().find(|server| server.id == name.server) {
                Some(server) => server.status == RemoteStatus::Connecting,
                None => true,
            }
        }
        Target::Resource { resource } => {
            let listed = servers.iter().any(|server| {
                server.status == RemoteStatus::Connected && server.resources.iter().any(|listed| listed.uri == *resource)
            });
            let connecting = servers.iter().any(|server| server.status == RemoteStatus::Connecting);
            !listed && (connecting || servers.is_empty())
        }
    }
}

/// Provides the refresher and starts its scheduler.
pub fn provide_refresh(canvas: CanvasCtx, autoui: AutoUiCtx, servers: ServersCtx) -> RefreshCtx {
    let ctx = RefreshCtx {
        canvas,
        autoui,
        servers,
        schedule: StoredValue::new_local(Rc::default()),
        busy: RwSignal::new(Vec::new()),
        opened_ms: BrowserClock.unix_ms(),
        refresh_block,
    };
    provide_context(ctx);
    let schedule = ctx.schedule.get_value();
    servers.hub().subscribe(move |event| match event {
        HubEvent::ResourceUpdated { uri, .. } => {
            schedule.borrow_mut().updated.insert(uri.clone());
        }
        // A server that connects again may be what the failed refreshes could not reach.
        HubEvent::Connected { .. } => schedule.borrow_mut().retry_failed(),
        _ => {}
    });
    // Both for as long as the page lives.
    let _online = window_event_listener(leptos::ev::online, move |_| ctx.back_online());
    leptos::task::spawn_local(async move {
        loop {
            BrowserClock.sleep(TICK_MS).await;
            ctx.tick();
        }
    });
    ctx
}

pub fn use_refresh() -> Option<RefreshCtx> {
    use_context::<RefreshCtx>()
}
