//! The settings signal, loaded from and saved to local storage; and the system's colour scheme,
//! which the "system" theme follows.

use autoui_core::settings::Settings;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use crate::adapters::storage;
use crate::adapters::theme::system_prefers_dark;

const STORAGE_KEY: &str = "autoui.settings.v1";

/// Context handle for the settings; the key inside is only ever sent to the configured provider.
#[derive(Clone, Copy)]
pub struct SettingsCtx(pub RwSignal<Settings>);

/// Loads stored settings (setting aside a corrupt copy) and saves every change back.
pub fn provide_settings() -> SettingsCtx {
    let initial = match storage::load::<Settings>(STORAGE_KEY) {
        Ok(Some(settings)) => settings,
        Ok(None) => Settings::default(),
        Err(storage::LoadError::Corrupt { raw, .. }) => {
            // Settings are small; a copy refused changes nothing the person could act on.
            let _ = storage::set_aside(STORAGE_KEY, &raw);
            Settings::default()
        }
    };
    let settings = RwSignal::new(initial);
    Effect::new(move |_| {
        settings.with(|value| storage::save(STORAGE_KEY, value));
    });
    let ctx = SettingsCtx(settings);
    provide_context(ctx);
    provide_system_dark();
    ctx
}

/// Whether the system asks for dark colours (`prefers-color-scheme`), followed as it changes: what
/// the page shows under the "system" theme, which what draws its own colours (a chart on a canvas,
/// an MCP Apps view) follows.
#[derive(Clone, Copy)]
pub struct SystemDark(pub ReadSignal<bool>);

fn provide_system_dark() {
    let (dark, set_dark) = signal(system_prefers_dark());
    if let Some(query) = window().match_media("(prefers-color-scheme: dark)").ok().flatten() {
        let on_change = Closure::<dyn Fn()>::new(move || set_dark.set(system_prefers_dark()));
        let _ = query.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
        // For as long as the page lives.
        on_change.forget();
    }
    provide_context(SystemDark(dark));
}

pub fn use_settings() -> SettingsCtx {
    expect_context::<SettingsCtx>()
}
