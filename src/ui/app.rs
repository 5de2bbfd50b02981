//! The app shell: contexts (notices, settings, the store, canvas restored from the last session or opened from a
//! share link, the engine fetched after first paint or on first use), then header, the main view (canvas, gallery or
//! recipes) beside the chat (over it on narrow screens), and the drawers (settings, servers, console).


use autoui_core::canvas::event::Delivery;
use autoui_core::canvas::model::Canvas;
use autoui_core::canvas::share;
use autoui_core::store::session::SessionState;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use crate::adapters::confirm::confirm;
use crate::adapters::webmcp::{install_registry_if_missing, when_tools_first_listed};
use crate::deferred::{Status, drawer, on_first_interaction};
use crate::state::agent::provide_agent;
use crate::state::attachments::provide_attachments;
use crate::state::canvas::{CanvasCtx, Foreign, provide_canvas};
use crate::state::engine::{provide_engine, wanted_at_start};
use crate::state::notices::{NoticesCtx, provide_notices};
use crate::state::paper::provide_paper;
use crate::state::persist::{LibraryChangeError, PersistCtx, Restored, provide_persist};
use crate::state::settings::provide_settings;
use crate::state::tabs::share_with_other_tabs;
use crate::ui::canvas::{CanvasArea, request_widget_code};
use crate::ui::chat::{ChatCtx, ChatPanel};
use crate::ui::events::provide_widget_events;
use crate::ui::present::provide_present;
use crate::ui::header::Header;
use crate::ui::notices::Notices;
use crate::ui::route::{View, use_view};
use crate::ui::settings::settings_drawer;
use crate::ui::shortcuts::{ShortcutsDialog, provide_shortcuts};
use crate::ui::theme::apply_theme;
use crate::ui::views::views;

/// Leaves read-only mode: the shared dashboard becomes the current canvas. A non-empty canvas the
/// person had before is first kept as a saved dashboard, so nothing is lost; when it cannot be kept,
/// the person decides whether to replace it anyway.
fn make_copy(canvas: CanvasCtx, previous: Canvas, notices: NoticesCtx, persist: PersistCtx, agent: crate::state::agent::AgentCtx) {
    if previous.is_empty() {
        take_the_shared_canvas(canvas, persist, agent);
        return;
    }
    let name = format!("Before opening a shared link ({})", String::from(js_sys::Date::new_0().to_locale_string("en-GB", &wasm_bindgen::JsValue::UNDEFINED)));
    leptos::task::spawn_local(async move {
        let why = match persist.save_dashboard(&name, &previous).await {
            Ok(_) => {
                notices.info(format!("Your previous canvas was saved as \u{201c}{name}\u{201d} in Dashboards."));
                take_the_shared_canvas(canvas, persist, agent);
                return;
            }
            // The person was told why already.
            Err(LibraryChangeError::Refused) => "the browser refused to save it".to_owned(),
            Err(LibraryChangeError::Invalid(error)) => error.to_string(),
        };
        let question = format!(
            "Your previous canvas could not be kept as a saved dashboard ({why}). Replace it with the shared one anyway? \
             Cancel keeps it: export it first to keep a copy."
        );
        if confirm(&question) {
            take_the_shared_canvas(canvas, persist, agent);
        }
    });
}

/// The shared canvas becomes the person's own, saved as their session.
fn take_the_shared_canvas(canvas: CanvasCtx, persist: PersistCtx, agent: crate::state::agent::AgentCtx) {
    canvas.set_read_only(false);
    canvas.set_foreign(None);
    if let Ok(history) = window().history() {
        let path = window().location().pathname().unwrap_or_else(|_| "/".to_owned());
        let hash = window().location().hash().unwrap_or_default();
        let hash = if share::fragment_param(&hash).is_some() { String::new() } else { hash };
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{hash}")));
    }
    persist.schedule(move || session_state(canvas, agent));
}

fn session_state(canvas: CanvasCtx, agent: crate::state::agent::AgentCtx) -> SessionState {
    SessionState {
        canvas: canvas.with_store(|s| s.canvas().clone()),
        agent: agent.snapshot(),
        imported: canvas.foreign_untracked() == Some(Foreign::Imported),
        name: canvas.name_untracked(),
    }
}

/// The tab says which dashboard it shows (among several tabs, and as a PDF's suggested file name).
fn title_page(canvas: CanvasCtx) {
    Effect::new(move || {
        document().set_title(&match canvas.name() {
            Some(name) => format!("{name} \u{b7} autoui"),
            None => "autoui".to_owned(),
        });
    });
}

/// The app with nothing restored and no store (browser tests mount it).
#[component]
pub fn App() -> impl IntoView {
    restored_app(Restored::default())
}

/// The app over what `state::persist::restore` read (`main.rs` reads it before mounting).
pub fn restored_app(mut restored: Restored) -> impl IntoView {
    let notices = provide_notices();
    let settings = provide_settings();
    apply_theme(settings);
    provide_paper();
    provide_attachments();

    let persist = provide_persist(&mut restored, notices);
    let session = std::mem::take(&mut restored.session);
    let shared = restored.shared.take();
    let read_only = shared.is_some();
    let previous = session.canvas.clone();
    let (shown, name) = shared.unwrap_or((session.canvas, session.name));
    let canvas = provide_canvas(shown);
    canvas.set_read_only(read_only);
    canvas.set_name(name);
    title_page(canvas);
    // An imported canvas whose buttons were not allowed yet stays so across reloads.
    let foreign = if read_only { Some(Foreign::Shared) } else { session.imported.then_some(Foreign::Imported) };
    canvas.set_foreign(foreign);
    let events = provide_widget_events(canvas);
    // The agent, its servers and the WebMCP tools come in a chunk, fetched once the page has painted
    // when something on it needs them at once, else on first use. The code that saves comes after
    // first paint too. On the gallery the engine waits until the widgets are there, so no chunk
    // competes with the views chunk; and as a visit there may only look, the code that saves waits
    // for a sign of something to save (below).
    let engine = provide_engine(canvas);
    let page_tools = settings.0.with_untracked(|s| s.webmcp_tools);
    let engine_at_start = settings.0.with_untracked(|s| wanted_at_start(&persist, canvas, s));
    let view = use_view();
    // The settings drawer's code, so that it is here when a click opens it.
    on_first_interaction(|| settings_drawer().request());
    if view.get_untracked() == View::Gallery {
        Effect::new(move || {
            if engine_at_start && matches!(views().status(), Status::Ready(_)) {
                engine.start_after_first_paint();
            }
        });
        on_first_interaction(move || persist.fetch_writing());
        Effect::new(move || {
            if view.get() != View::Gallery {
                persist.fetch_writing();
            }
        });
    } else {
        persist.fetch_writing_after_first_paint();
        if engine_at_start {
            engine.start_after_first_paint();
        }
    }
    // An agent in a page whose browser has no WebMCP finds the app's registry at once; its first
    // listing or call waits for the engine to register the page's tools.
    if page_tools {
        install_registry_if_missing();
    }
    let agent = provide_agent(settings, canvas, engine, session.agent);
    share_with_other_tabs(persist, canvas, agent);
    // Widgets on the canvas fetch their chunk as they render. An empty canvas needs it only once an
    // agent may add one: from the person's first keystroke in the chat, a turn starting, or another
    // agent in the page listing the page's tools, well before the first widget comes.
    when_tools_first_listed(move || {
        request_widget_code();
        persist.fetch_writing();
        Box::pin(async move { engine.ready_for_page_agents().await })
    });
    Effect::new(move || {
        if agent.is_running() {
            request_widget_code();
            persist.fetch_writing();
        }
    });
    // Button clicks and chat-input submits become the agent's next turn; a chat-input stop stops it.
    events.set_handler(Callback::new(move |(event, delivery): (autoui_core::canvas::event::WidgetEvent, Delivery)| match delivery {
        Delivery::NextTurn => agent.send_shown(event.agent_text(), event.selection_text()),
        Delivery::StopRun => agent.stop(),
        Delivery::Selection => {}
    }));

    Effect::new(move |seen: Option<(u64, u64, bool, Option<String>)>| {
        // Allowing an import's buttons, or naming the dashboard, changes no block but is saved too.
        let revision = (canvas.revision(), agent.revision(), canvas.foreign() == Some(Foreign::Imported), canvas.name());
        if seen.is_some_and(|seen| seen != revision) && !canvas.is_read_only() {
            persist.schedule(move || session_state(canvas, agent));
        }
        revision
    });
    let previous = StoredValue::new(previous);
    let on_make_copy = Callback::new(move |()| make_copy(canvas, previous.get_value(), notices, persist, agent));

    let settings_open = RwSignal::new(false);
    let console_open = RwSignal::new(false);
    let servers_open = RwSignal::new(false);
    // Beside the canvas on wide screens; on narrow ones a panel over it, opened from the header.
    let chat_open = RwSignal::new(!narrow_screen());
    follow_layout(chat_open);
    let chat = ChatCtx::new(chat_open);
    provide_context(chat);
    let on_prompt = move |text: String| {
        chat_open.set(true);
        agent.send(text);
    };
    let present = provide_present();
    // Presenting hides the controls that had the focus: it goes to the way out.
    let present_exit = NodeRef::<leptos::html::Button>::new();
    Effect::new(move |_| {
        if let Some(exit) = present_exit.get() {
            let _ = exit.focus();
        }
    });
    let shortcuts = provide_shortcuts();
    view! {
        <div class="au-app" class:au-app--chat-closed=move || !chat_open.get() class:au-app--presenting=move || present.is_presenting()>
            <Header settings_open servers_open console_open chat_open view />
            <main class="au-app__main">
                {move || match view.get() {
                    View::Canvas => view! {
                        <CanvasArea on_make_copy on_open_settings=move |()| settings_open.set(true) on_prompt
                            on_open_servers=move |()| servers_open.set(true) />
                    }.into_any(),
                    View::Gallery => views().view(|views| (views.gallery)()),
                    // Its data recipes come from the engine's servers; its examples are widgets.
                    View::Recipes => engine.view(|engine| views().view(move |_| (engine.recipes_page)())),
                }}
                <ChatPanel chat on_open_settings=move |()| settings_open.set(true) />
                {drawer(settings_open, || settings_drawer().current())}
                {drawer(servers_open, move || engine.current().map(|engine| engine.servers_drawer))}
                {drawer(console_open, move || engine.current().map(|engine| engine.console_drawer))}
                <Notices />
                <ShortcutsDialog shortcuts present />
                <Show when=move || present.is_presenting()>
                    // The header, and its heading, are hidden: the page keeps one for screen readers.
                    <h1 class="au-visually-hidden">"autoui: dashboard presented"</h1>
                    <button class="au-button au-present-exit" data-testid="present-exit" title="Stop presenting (Esc)"
                        node_ref=present_exit on:click=move |_| present.stop()>"Exit"</button>
                </Show>
            </main>
        </div>
    }
}

/// The layout that puts the chat over the canvas instead of beside it.
const NARROW: &str = "(max-width: 760px)";

fn narrow_screen() -> bool {
    window().match_media(NARROW).ok().flatten().is_some_and(|query| query.matches())
}

/// Crossing into the narrow layout closes the chat (it would cover the canvas); crossing back opens it.
fn follow_layout(chat_open: RwSignal<bool>) {
    let Some(query) = window().match_media(NARROW).ok().flatten() else { return };
    let on_change = Closure::<dyn Fn()>::new(move || chat_open.set(!narrow_screen()));
    let _ = query.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
    // The listener lives as long as the page: the app is mounted once.
    on_change.forget();
}
