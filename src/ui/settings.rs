//! The settings drawer: provider (with presets for Anthropic, OpenAI, OpenRouter, Ollama and LM
//! Studio), model, base URL, API key (masked; it stays in this browser), the model profile
//! (`settings_model.rs`), agent limits, a custom system-prompt prefix, storage
//! (`settings_storage.rs`) and the theme. Changes are saved as they are made. A key is bound to the
//! endpoint it was typed for: editing the base URL to another host clears it, and asks whether to
//! send it there instead.

use autoui_core::settings::{PRESETS, ProviderKind, Theme};
use autoui_core::weburl::web_host;
use leptos::prelude::*;

use crate::deferred::{Drawer, Part, Slot};
use crate::state::engine::use_engine;
use crate::state::settings::use_settings;
use crate::ui::dismiss::follow_focus;
use crate::ui::icons::{Icon, IconSvg};
use crate::ui::shortcuts::use_shortcuts;

/// The settings chunk (`chunks::settings`), installed by `chunks::install`: the drawer is fetched
/// when it is first opened, or at the person's first press, key or focus move (`ui::app`).
pub static SETTINGS: Slot<Drawer> = Slot::new();

/// The page's settings part.
pub fn settings_drawer() -> Part<Drawer> {
    SETTINGS.part()
}

#[component]
pub fn SettingsDrawer(open: RwSignal<bool>) -> impl IntoView {
    let close = NodeRef::<leptos::html::Button>::new();
    follow_focus(open, close, "open-settings");
    let settings = use_settings().0;
    let engine = use_engine();
    let shortcuts = use_shortcuts();
    let opened = Memo::new(move |before: Option<&bool>| before.copied().unwrap_or(false) || open.get());
    let key_visible = RwSignal::new(false);
    // A key taken off the settings when the base URL moved to another host, until the person decides.
    let held_key = RwSignal::new(None::<String>);
    let new_host = move || settings.with(|s| web_host(&s.base_url).unwrap_or_else(|| s.base_url.clone()));
    let preset_id = move || settings.with(|s| s.preset().map(|p| p.id).unwrap_or("custom"));
    let models = move || settings.with(|s| s.preset().map(|p| p.models).unwrap_or_default());

    view! {
        <div class="au-drawer" data-testid="settings" role="dialog" aria-modal="false" aria-labelledby="settings-title"
            hidden=move || !open.get()>
            <div class="au-drawer__header">
                <h2 id="settings-title">"Settings"</h2>
                <button class="au-icon-button" aria-label="Close settings" title="Close settings (Esc)" node_ref=close on:click=move |_| open.set(false)>
                    <IconSvg icon=Icon::Close />
                </button>
            </div>

            <section class="au-settings__section" aria-labelledby="settings-llm">
                <h3 id="settings-llm">"Language model"</h3>
                <label class="au-field">
                    <span>"Provider"</span>
                    <select data-testid="settings-preset"
                        on:change=move |event| {
                            let id = event_target_value(&event);
                            if let Some(preset) = PRESETS.iter().find(|p| p.id == id) {
                                settings.update(|s| s.apply_preset(preset));
                            }
                        }>
                        {PRESETS.iter().map(|preset| view! {
                            <option value=preset.id selected=move || preset_id() == preset.id>{preset.label}</option>
                        }).collect_view()}
                        <option value="custom" selected=move || preset_id() == "custom" disabled=true>"Custom endpoint"</option>
                    </select>
                </label>
                <label class="au-field">
                    <span>"Wire format"</span>
                    <select data-testid="settings-provider"
                        on:change=move |event| {
                            let provider = match event_target_value(&event).as_str() {
                                "open_ai" => ProviderKind::OpenAi,
                                "ollama" => ProviderKind::Ollama,
                                _ => ProviderKind::Anthropic,
                            };
                            settings.update(|s| s.provider = provider);
                        }>
                        <option value="anthropic" selected=move || settings.with(|s| s.provider == ProviderKind::Anthropic)>"Anthropic Messages API"</option>
                        <option value="open_ai" selected=move || settings.with(|s| s.provider == ProviderKind::OpenAi)>"OpenAI-compatible chat completions"</option>
                        <option value="ollama" selected=move || settings.with(|s| s.provider == ProviderKind::Ollama)>"Ollama native API"</option>
                    </select>
                </label>
                <label class="au-field">
                    <span>"Model"</span>
                    <input data-testid="settings-model" list="au-model-suggestions" autocomplete="off"
                        prop:value=move || settings.with(|s| s.model.clone())
                        on:change=move |event| settings.update(|s| s.model = event_target_value(&event).trim().to_owned()) />
                    <datalist id="au-model-suggestions">
                        {move || models().iter().map(|model| view! { <option value=*model></option> }).collect_view()}
                    </datalist>
                </label>
                <label class="au-field">
                    <span>"Base URL"</span>
                    <input data-testid="settings-base-url" type="url" prop:value=move || settings.with(|s| s.base_url.clone())
                        on:change=move |event| {
                            let url = event_target_value(&event);
                            if let Some(removed) = settings.try_update(|s| s.change_base_url(&url)).flatten() {
                                held_key.set(Some(removed));
                            }
                        } />
                </label>
                <Show when=move || held_key.with(Option::is_some)>
                    <div class="au-banner" role="alert" data-testid="settings-key-moved">
                        <span>{move || format!("Your API key was entered for another host, so it was removed. Send it to {} instead?", new_host())}</span>
                        <button type="button" class="au-button" data-testid="settings-key-send"
                            on:click=move |_| if let Some(key) = held_key.try_update(Option::take).flatten() {
                                settings.update(|s| s.confirm_key(key));
                            }>{move || format!("Send my key to {}", new_host())}</button>
                        <button type="button" class="au-button au-button--ghost" data-testid="settings-key-clear"
                            on:click=move |_| held_key.set(None)>"Keep it removed"</button>
                    </div>
                </Show>
                <label class="au-field">
                    <span>"API key"</span>
                    <div class="au-field__row">
                        <input data-testid="settings-api-key" type=move || if key_visible.get() { "text" } else { "password" }
                            autocomplete="off" spellcheck="false" placeholder=move || settings.with(|s| if s.missing_key() { "Required for this provider" } else { "Not needed for a local server" })
                            prop:value=move || settings.with(|s| s.api_key.clone())
                            on:change=move |event| {
                                held_key.set(None);
                                settings.update(|s| s.set_key(&event_target_value(&event)));
                            } />
                        <button type="button" class="au-button au-button--ghost" aria-pressed=move || key_visible.get().to_string()
                            on:click=move |_| key_visible.update(|v| *v = !*v)>{move || if key_visible.get() { "Hide" } else { "Show" }}</button>
                    </div>
                    <small class="au-field__note">
                        "Stored only in this browser (local storage) and sent only to the host it was entered for. It is never logged."
                    </small>
                </label>
            </section>

            // The sections below the model come with the engine, fetched after first paint or now; the
            // provider and key above are here at once, for the first run. Built once the drawer is
            // first opened, so mounting it does not ask for the engine before first paint.
            {move || opened.get().then(|| engine.view(move |loaded| (loaded.settings_sections)(open)))}


            <section class="au-settings__section" aria-labelledby="settings-look">
                <h3 id="settings-look">"Appearance"</h3>
                <label class="au-field">
                    <span>"Theme"</span>
                    <select data-testid="settings-theme"
                        on:change=move |event| {
                            let theme = match event_target_value(&event).as_str() {
                                "light" => Theme::Light,
                                "dark" => Theme::Dark,
                                _ => Theme::System,
                            };
                            settings.update(|s| s.theme = theme);
                        }>
                        <option value="system" selected=move || settings.with(|s| s.theme == Theme::System)>"Follow the system"</option>
                        <option value="light" selected=move || settings.with(|s| s.theme == Theme::Light)>"Light"</option>
                        <option value="dark" selected=move || settings.with(|s| s.theme == Theme::Dark)>"Dark"</option>
                    </select>
                </label>
                <button class="au-button" data-testid="open-shortcuts" title="Keyboard shortcuts (?)"
                    on:click=move |_| if let Some(shortcuts) = shortcuts { shortcuts.open() }>"Keyboard shortcuts"</button>
            </section>
        </div>
    }
}
