//! The engine: everything an agent turn needs beyond the first screen, in one chunk the page fetches
//! right after first paint when it needs it at once, else on first use ([`wanted_at_start`];
//! declared in `chunks::engine`). It brings the `autoui` tool server (with
//! its recipes and the schema validator), the built-in `samples` server's tool list (its datasets
//! come in a chunk of their own on first use, `state::samples`), the page's WebMCP tools, the MCP
//! servers (reconnected from storage) and their panel, the approval of their tool calls, the agent loop with the LLM providers, and the
//! console that shows what it does.
//!
//! Until it is here, the chat says a turn is waiting for it and the panels that need it show a
//! loading line; if it cannot be fetched, they show why and offer to try again.

use std::rc::Rc;
use std::sync::Arc;

use autoui_core::agent::session::UserTurn;
use autoui_core::autoui::bind::Sources;
use autoui_core::binding::remote::{RemoteFetcher, SourceCall};
use autoui_core::ids::{BlockId, ServerId};
use autoui_core::cancel::CancelToken;
use autoui_core::settings::Settings;
use autoui_core::tool::LocalServer;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;

use crate::adapters::clock::BrowserClock;
use crate::adapters::webmcp::browser_surface;
use crate::deferred::{Drawer, LoadError, Part, Slot, Status, after_first_paint};
use crate::state::agent::{AgentCtx, use_agent};
use crate::state::approval::{PageApprover, provide_approval};
use crate::state::autoui::{page_validator, provide_autoui};
use crate::state::canvas::CanvasCtx;
use crate::state::persist::PersistCtx;
use crate::state::refresh::provide_refresh;
use crate::state::samples::LazySamples;
use crate::state::servers::provide_servers;
use crate::state::webmcp::provide_webmcp;

/// The engine chunk's entry points.
#[derive(Clone, Copy)]
pub struct Engine {
    /// Sets the servers up and provides their contexts; runs once, under the app's owner.
    pub start: fn(CanvasCtx),
    /// Runs one turn of the agent, folding its events into the chat and the console.
    pub run: fn(AgentCtx, UserTurn, Settings, CancelToken) -> LocalBoxFuture<'static, ()>,
    /// The MCP servers panel.
    pub servers_drawer: Drawer,
    /// The agent console.
    pub console_drawer: Drawer,
    /// What servers ask the person (forms to fill, pages to open, sampling requests), shown in the chat.
    pub server_questions: fn() -> AnyView,
    /// The `/` prompt picker over the chat's message box, given its draft and the flag it sets
    /// while it shows.
    pub prompt_picker: fn(RwSignal<String>, RwSignal<bool>) -> AnyView,
    /// The resources attached to the next message, above the chat's message box.
    pub attachments_bar: fn() -> AnyView,
    /// The tool calls waiting for the person's approval, shown in the chat.
    pub approval_cards: fn() -> AnyView,
    /// The settings below the provider and key (model profile, agent, WebMCP, storage), given the
    /// drawer's signal.
    pub settings_sections: Drawer,
    /// The recipes browser: it lists the engine's servers' recipes and reads the whole recipe
    /// registry, which the gallery (in the views chunk) does without.
    pub recipes_page: fn() -> AnyView,
    /// A bound widget's source, to edit or unbind, given the widget and what closes it.
    pub source_editor: fn(BlockId, Callback<()>) -> AnyView,
    /// The servers the dashboard's bindings need and are not connected, with "Connect", given what
    /// opens the servers panel.
    pub needed_servers: fn(Callback<()>) -> AnyView,
}

/// The engine chunk, installed by `chunks::install`.
pub static ENGINE: Slot<Engine> = Slot::new();

fn engine() -> Part<Engine> {
    ENGINE.part()
}

/// The page's tool servers other than `autoui` (whose recipes are the widget registry), made by the
/// engine; the recipes browser lists their recipes.
#[derive(Clone, Copy)]
pub struct DataServersCtx(pub StoredValue<Vec<Rc<dyn LocalServer>>, LocalStorage>);

/// The servers, their contexts and the agent's session, made from the chunk.
pub fn start(canvas: CanvasCtx) {
    let validator = page_validator();
    let servers = provide_servers(validator.clone());
    let agent = use_agent();
    let fetcher = RemoteFetcher::new(
        servers.remote(),
        Rc::new(move |id: &ServerId| servers.approvals(id)),
        Rc::new(move |call: SourceCall| agent.refresh_log(call)),
    );
    let autoui = provide_autoui(canvas, Sources { fetcher: Rc::new(fetcher), clock: Rc::new(BrowserClock) }, validator);
    provide_webmcp(canvas, autoui);
    provide_refresh(canvas, autoui, servers);
    let approver = PageApprover { ctx: provide_approval(autoui.validator()), servers };
    let data_servers: Vec<Rc<dyn LocalServer>> = vec![Rc::new(LazySamples::new(autoui.validator()))];
    provide_context(DataServersCtx(StoredValue::new_local(data_servers.clone())));
    agent.attach(autoui, data_servers, servers.remote(), Rc::new(approver));
}

/// Context handle: the app's owner, under which the engine's contexts are provided, and whether it
/// has started.
#[derive(Clone, Copy)]
pub struct EngineCtx {
    owner: StoredValue<Owner, LocalStorage>,
    canvas: CanvasCtx,
    started: RwSignal<bool>,
}

impl EngineCtx {
    /// The engine, fetched and started if it was not yet.
    pub async fn ready(&self) -> Result<Engine, LoadError> {
        let loaded = engine().load().await?;
        if !self.started.get_untracked() {
            self.started.set(true);
            let canvas = self.canvas;
            self.owner.with_value(|owner| owner.with(|| (loaded.start)(canvas)));
        }
        Ok(loaded)
    }

    /// Whether the engine is here and started (tracked).
    pub fn is_ready(&self) -> bool {
        matches!(engine().status(), Status::Ready(_)) && self.started.get()
    }

    /// The engine once it is ready, else what stands in for it (tracked); fetches it if needed.
    pub fn current(&self) -> Result<Engine, AnyView> {
        self.request();
        match engine().status() {
            Status::Ready(loaded) if self.started.get() => Ok(loaded),
            _ => Err(engine().waiting()),
        }
    }

    /// What a page needing the engine shows: `render`'s view once it is ready, its loading state
    /// until then.
    pub fn view<V: IntoView + 'static>(&self, render: impl Fn(Engine) -> V + Send + Sync + 'static) -> AnyView {
        self.view_any(Arc::new(move |loaded| render(loaded).into_any()))
    }

    /// [`EngineCtx::view`] with the view erased, so that its reactive wrapper is compiled once rather
    /// than once per caller (each copy would weigh on the first load).
    fn view_any(&self, render: Arc<dyn Fn(Engine) -> AnyView + Send + Sync>) -> AnyView {
        let ctx = *self;
        (move || match ctx.current() {
            Ok(loaded) => untrack(|| render(loaded)),
            Err(waiting) => waiting,
        })
        .into_any()
    }

    /// Starts fetching the engine if nothing asked for it yet, and starts it once fetched; returns at
    /// once. After a failure only "Try again" (or a new turn) fetches it again.
    pub fn request(&self) {
        let ctx = *self;
        let status = engine().status_untracked();
        let start = matches!(status, Status::NotRequested)
            || (matches!(status, Status::Ready(_)) && !ctx.started.get_untracked());
        if start {
            wasm_bindgen_futures::spawn_local(async move {
                let _ = ctx.ready().await;
            });
        }
    }

    /// Starts fetching the engine once the page has painted.
    pub fn start_after_first_paint(&self) {
        let ctx = *self;
        after_first_paint(move || ctx.request());
    }

    /// Fetches and starts the engine for another agent in the page that lists or calls the page's
    /// tools, and returns once they are registered (an effect registers them, hence the wait for the
    /// next task).
    pub async fn ready_for_page_agents(&self) {
        if self.ready().await.is_ok() {
            let next_task = js_sys::Promise::new(&mut |resolve, _| {
                let _ = window().set_timeout_with_callback(&resolve);
            });
            let _ = wasm_bindgen_futures::JsFuture::from(next_task).await;
        }
    }
}

/// Whether the page needs the engine as soon as it has painted, rather than on first use (the
/// person typing or sending, a drawer opening, a widget's button, another agent in the page using
/// its tools): saved MCP servers to reconnect, bound widgets to refresh, or the browser's own WebMCP
/// to register the page's tools with. An empty canvas with none of these downloads only the first
/// screen.
pub fn wanted_at_start(persist: &PersistCtx, canvas: CanvasCtx, settings: &Settings) -> bool {
    !persist.stored_servers().is_empty()
        || canvas.with_store(|store| store.canvas().blocks().iter().any(|block| block.binding.is_some()))
        || (settings.webmcp_tools && browser_surface().is_some())
}

pub fn provide_engine(canvas: CanvasCtx) -> EngineCtx {
    let owner = Owner::current().unwrap_or_default();
    let ctx = EngineCtx { owner: StoredValue::new_local(owner), canvas, started: RwSignal::new(false) };
    provide_context(ctx);
    ctx
}

pub fn use_engine() -> EngineCtx {
    expect_context::<EngineCtx>()
}
