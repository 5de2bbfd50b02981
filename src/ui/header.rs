//! The top bar: product name, views, theme toggle, and the console, servers and settings drawers
//! (one open at a time).

use autoui_core::settings::Theme;
use leptos::prelude::*;

use crate::state::settings::use_settings;
use crate::ui::route::View;
use crate::ui::theme::{next_theme, system_prefers_dark};

#[component]
pub fn Header(
    settings_open: RwSignal<bool>,
    servers_open: RwSignal<bool>,
    console_open: RwSignal<bool>,
    view: RwSignal<View>,
) -> impl IntoView {
    let drawers = [settings_open, servers_open, console_open];
    // Drawers share the right edge: opening one closes the others.
    let toggle = move |drawer: RwSignal<bool>| {
        let opening = !drawer.get_untracked();
        for other in drawers {
            other.set(false);
        }
        drawer.set(opening);
    };
    let settings = use_settings().0;
    let theme_label = move || match settings.with(|s| s.theme) {
        Theme::System => "Theme: system",
        Theme::Light => "Theme: light",
        Theme::Dark => "Theme: dark",
    };
    let toggle_theme = move |_| {
        settings.update(|s| s.theme = next_theme(s.theme, system_prefers_dark()));
    };

    view! {
        <header class="au-header" data-testid="header">
            <h1 class="au-header__title">"autoui"</h1>
            <span class="au-header__tagline">"Ask for a dashboard; the agent builds it from your data."</span>
            <nav class="au-header__nav" aria-label="Views">
                <a href="#/" class="au-header__link" data-testid="nav-canvas"
                    aria-current=move || (view.get() == View::Canvas).then_some("page")>"Canvas"</a>
                <a href="#/gallery" class="au-header__link" data-testid="nav-gallery"
                    aria-current=move || (view.get() == View::Gallery).then_some("page")>"Gallery"</a>
                <a href="#/recipes" class="au-header__link" data-testid="nav-recipes"
                    aria-current=move || (view.get() == View::Recipes).then_some("page")>"Recipes"</a>
            </nav>
            <div class="au-header__actions">
                <button class="au-button au-button--ghost" data-testid="theme-toggle" on:click=toggle_theme title=theme_label>
                    {theme_label}
                </button>
                <button class="au-button au-button--ghost" data-testid="open-console" aria-haspopup="dialog"
                    aria-expanded=move || console_open.get().to_string() on:click=move |_| toggle(console_open)>"Console"</button>
                <button class="au-button" data-testid="open-servers" aria-haspopup="dialog"
                    aria-expanded=move || servers_open.get().to_string() on:click=move |_| toggle(servers_open)>"Servers"</button>
                <button
                    class="au-button"
                    data-testid="open-settings"
                    aria-haspopup="dialog"
                    aria-expanded=move || settings_open.get().to_string()
                    on:click=move |_| toggle(settings_open)
                >
                    "Settings"
                </button>
            </div>
        </header>
    }
}
