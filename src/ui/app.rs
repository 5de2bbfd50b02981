//! The app shell: contexts, then header, the main view (canvas or gallery) beside the chat, and the
//! settings and servers drawers.

use autoui_core::canvas::model::Canvas;
use leptos::prelude::*;

use crate::state::canvas::provide_canvas;
use crate::state::servers::provide_servers;
use crate::state::settings::provide_settings;
use crate::ui::canvas::CanvasArea;
use crate::ui::chat::ChatPanel;
use crate::ui::gallery::Gallery;
use crate::ui::header::Header;
use crate::ui::route::{View, use_view};
use crate::ui::servers::ServersDrawer;
use crate::ui::settings::SettingsDrawer;
use crate::ui::theme::apply_theme;

#[component]
pub fn App() -> impl IntoView {
    let settings = provide_settings();
    apply_theme(settings);
    provide_canvas(Canvas::new());
    provide_servers();
    let view = use_view();
    let settings_open = RwSignal::new(false);
    let servers_open = RwSignal::new(false);

    view! {
        <div class="au-app">
            <Header settings_open=settings_open servers_open=servers_open view=view />
            <main class="au-app__main">
                {move || match view.get() {
                    View::Canvas => view! { <CanvasArea /> }.into_any(),
                    View::Gallery => view! { <Gallery /> }.into_any(),
                }}
                <ChatPanel />
            </main>
            <SettingsDrawer open=settings_open />
            <ServersDrawer open=servers_open />
        </div>
    }
}
