//! Applies the chosen theme as `data-theme` on `<html>`; `system` leaves it to `prefers-color-scheme`.

use autoui_core::settings::Theme;
use leptos::prelude::*;

use crate::state::settings::SettingsCtx;

pub fn apply_theme(settings: SettingsCtx) {
    Effect::new(move |_| {
        let theme = settings.0.with(|s| s.theme);
        let Some(root) = document().document_element() else { return };
        let _ = match theme {
            Theme::System => root.remove_attribute("data-theme"),
            Theme::Light => root.set_attribute("data-theme", "light"),
            Theme::Dark => root.set_attribute("data-theme", "dark"),
        };
    });
}

/// The theme a click on the toggle moves to: system -> the opposite of what is showing -> back to system.
pub fn next_theme(current: Theme, system_prefers_dark: bool) -> Theme {
    match current {
        Theme::System if system_prefers_dark => Theme::Light,
        Theme::System => Theme::Dark,
        Theme::Light | Theme::Dark => Theme::System,
    }
}
