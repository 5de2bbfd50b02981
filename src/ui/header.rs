//! The top bar: product name, views, and the panel buttons (chat, console, servers, settings; one
//! drawer open at a time) with the theme toggle, and whether other agents in the browser can use the
//! dashboard (WebMCP), which opens the settings where that is chosen. Below 900 px the buttons keep only their icons; their
//! names stay for screen readers and tooltips.

use autoui_core::settings::Theme;
use leptos::prelude::*;

use crate::adapters::webmcp::browser_surface;
use crate::state::agent::use_agent;
use crate::state::settings::use_settings;
use crate::ui::dismiss::install_dismiss;
use crate::ui::icons::{Icon, IconSvg};
use crate::ui::route::View;
use crate::adapters::theme::system_prefers_dark;
use crate::ui::theme::next_theme;

/// A header button that opens a panel: an icon and a name that narrow screens hide visually.
#[component]
fn PanelButton(
    testid: &'static str,
    icon: Icon,
    label: &'static str,
    open: RwSignal<bool>,
    #[prop(into)] on_toggle: Callback<RwSignal<bool>>,
    #[prop(optional)] controls: Option<&'static str>,
    #[prop(optional, into)] busy: Signal<bool>,
) -> impl IntoView {
    view! {
        <button class="au-button au-button--ghost au-header__action" data-testid=testid title=label
            aria-haspopup=controls.is_none().then_some("dialog") aria-controls=controls
            aria-expanded=move || open.get().to_string() class:au-header__action--open=move || open.get()
            on:click=move |_| on_toggle.run(open)>
            <IconSvg icon />
            <span class="au-header__label">{label}</span>
            <Show when=move || busy.get()>
                <span class="au-header__busy" aria-hidden="true"></span>
                <span class="au-visually-hidden">" (working)"</span>
            </Show>
        </button>
    }
}

#[component]
pub fn Header(
    settings_open: RwSignal<bool>,
    servers_open: RwSignal<bool>,
    console_open: RwSignal<bool>,
    chat_open: RwSignal<bool>,
    view: RwSignal<View>,
) -> impl IntoView {
    let drawers = [settings_open, servers_open, console_open];
    install_dismiss(drawers);
    // Drawers share the right edge: opening one closes the others.
    let toggle = Callback::new(move |drawer: RwSignal<bool>| {
        let opening = !drawer.get_untracked();
        for other in drawers {
            other.set(false);
        }
        drawer.set(opening);
    });
    let agent = use_agent();
    // The chat is a panel of its own: it stays open beside a drawer on wide screens.
    let toggle_chat = Callback::new(move |chat: RwSignal<bool>| chat.update(|open| *open = !*open));
    let chat_busy = Signal::derive(move || agent.is_running() && !chat_open.get());

    let settings = use_settings().0;
    let theme_label = move || match settings.with(|s| s.theme) {
        Theme::System => "Theme: follows the system. Switch theme",
        Theme::Light => "Theme: light. Switch theme",
        Theme::Dark => "Theme: dark. Switch theme",
    };
    let theme_icon = move || match settings.with(|s| s.theme) {
        Theme::System => Icon::Auto,
        Theme::Light => Icon::Sun,
        Theme::Dark => Icon::Moon,
    };
    let toggle_theme = move |_| {
        settings.update(|s| s.theme = next_theme(s.theme, system_prefers_dark()));
    };
    // Read before the engine installs the app's own registry, which does not count as the browser's.
    let browser_webmcp = browser_surface().is_some();
    let webmcp = move || match (settings.with(|s| s.webmcp_tools), browser_webmcp) {
        (false, _) => ("WebMCP off", "Other agents in this browser cannot use this dashboard: turn it on in Settings."),
        (true, true) => ("WebMCP on", "Agents in this browser can use this dashboard's tools (Settings chooses which)."),
        (true, false) => (
            "WebMCP: page only",
            "This browser offers no WebMCP to agents: start Chrome with --enable-features=WebMCP to turn it on. \
             Until then only scripts in this page can use the dashboard's tools.",
        ),
    };
    let link = move |target: View, href: &'static str, testid: &'static str, label: &'static str| {
        view! {
            <a href=href class="au-header__link" data-testid=testid
                aria-current=move || (view.get() == target).then_some("page")>{label}</a>
        }
    };

    view! {
        <header class="au-header" data-testid="header">
            <h1 class="au-header__title">"autoui"</h1>
            <span class="au-header__tagline">"Ask for a dashboard; the agent builds it from your data."</span>
            <nav class="au-header__nav" aria-label="Views">
                {link(View::Canvas, "#/", "nav-canvas", "Canvas")}
                {link(View::Gallery, "#/gallery", "nav-gallery", "Gallery")}
                {link(View::Recipes, "#/recipes", "nav-recipes", "Recipes")}
            </nav>
            <div class="au-header__actions">
                <button class="au-button au-button--ghost au-header__webmcp" data-testid="webmcp-status"
                    title=move || webmcp().1 aria-label=move || format!("{}. {}", webmcp().0, webmcp().1)
                    on:click=move |_| toggle.run(settings_open)>
                    {move || webmcp().0}
                </button>
                <button class="au-icon-button au-header__theme" data-testid="theme-toggle" on:click=toggle_theme
                    title=theme_label aria-label=theme_label>
                    {move || view! { <IconSvg icon=theme_icon() /> }}
                </button>
                <PanelButton testid="open-chat" icon=Icon::Chat label="Chat" open=chat_open on_toggle=toggle_chat
                    controls="chat-panel" busy=chat_busy />
                <PanelButton testid="open-console" icon=Icon::Console label="Console" open=console_open on_toggle=toggle />
                <PanelButton testid="open-servers" icon=Icon::Servers label="Servers" open=servers_open on_toggle=toggle />
                <PanelButton testid="open-settings" icon=Icon::Settings label="Settings" open=settings_open on_toggle=toggle />
            </div>
        </header>
    }
}
