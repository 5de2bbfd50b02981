//! The app shell: contexts, then header, canvas and chat side by side, and the settings drawer.

use leptos::prelude::*;

use crate::state::settings::provide_settings;
use crate::ui::canvas::CanvasArea;
use crate::ui::chat::ChatPanel;
use crate::ui::header::Header;
use crate::ui::settings::SettingsDrawer;
use crate::ui::theme::apply_theme;

#[component]
pub fn App() -> impl IntoView {
    let settings = provide_settings();
    apply_theme(settings);
    let settings_open = RwSignal::new(false);

    view! {
        <div class="au-app">
            <Header settings_open=settings_open />
            <main class="au-app__main">
                <CanvasArea />
                <ChatPanel />
            </main>
            <SettingsDrawer open=settings_open />
        </div>
    }
}
