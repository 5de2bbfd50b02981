//! Refreshing bound widgets (see the core's `binding/`): on the person's click, for the whole canvas
//! ("Refresh all"), when the dashboard is opened or restored (`on_open`), and on each binding's
//! interval while the page is visible, backing off after errors. One refresh per widget at a time;
//! nothing refreshes while the canvas is read-only (a shared link not yet made one's own) or
//! another tab edits it. A refresh never changes a widget's kind or layout, and a failed one keeps
//! its data, marked stale (`AutoUi::refresh_block`).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use autoui_core::binding::source::{Refresh, Target};
use autoui_core::cancel::CancelToken;
use autoui_core::ids::BlockId;
use autoui_core::ports::Clock;
use autoui_core::remote::RemoteStatus;
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
/// How long after the page opens a source whose server is not listed yet waits for it (the MCP
/// servers are restored from storage a moment after the canvas).
const SERVERS_GRACE_MS: f64 = 15_000.0;
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
        let due: Vec<BlockId> = self
            .bound()
            .into_iter()
            .filter(|(id, refresh, target, fetched)| {
                let schedule = schedule.borrow();
                let tried = schedule.tried.get(id).copied();
                let waiting_for_server = self.server_connecting(target);
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
                due && !waiting_for_server
            })
            .map(|(id, _, _, _)| id)
            .collect();
        for id in due {
            self.refresh(id);
        }
    }

    /// A source whose server is still connecting (or, just after the page opened, not restored
    /// yet) waits for it rather than failing.
    fn server_connecting(&self, target: &Target) -> bool {
        let Target::Call { call, .. } = target else {
            return false;
        };
        let Ok(name) = ToolName::parse(call) else {
            return false;
        };
        let servers = self.servers.remote().servers();
        match servers.iter().find(|server| server.id == name.server) {
            Some(server) => server.status == RemoteStatus::Connecting,
            None => BrowserClock.unix_ms() < self.opened_ms + SERVERS_GRACE_MS,
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
