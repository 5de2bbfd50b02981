//! The settings signal, loaded from and saved to local storage.

use autoui_core::settings::Settings;
use leptos::prelude::*;

use crate::adapters::storage;

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
            storage::set_aside(STORAGE_KEY, &raw);
            Settings::default()
        }
    };
    let settings = RwSignal::new(initial);
    Effect::new(move |_| {
        settings.with(|value| storage::save(STORAGE_KEY, value));
    });
    let ctx = SettingsCtx(settings);
    provide_context(ctx);
    ctx
}

pub fn use_settings() -> SettingsCtx {
    expect_context::<SettingsCtx>()
}
