//! The settings drawer: LLM provider, model, base URL and API key, saved in this browser only.

use autoui_core::settings::ProviderKind;
use leptos::prelude::*;

use crate::state::settings::use_settings;
use crate::state::webmcp::use_webmcp;

#[component]
pub fn SettingsDrawer(open: RwSignal<bool>) -> impl IntoView {
    let settings = use_settings().0;
    let webmcp = use_webmcp();

    view! {
        <div class="au-drawer" data-testid="settings" role="dialog" aria-modal="false" aria-labelledby="settings-title"
            class:au-drawer--open=move || open.get() hidden=move || !open.get()>
            <div class="au-drawer__header">
                <h2 id="settings-title">"Settings"</h2>
                <button class="au-button au-button--ghost" aria-label="Close settings" on:click=move |_| open.set(false)>"\u{2715}"</button>
            </div>
            <label class="au-field">
                <span>"LLM provider"</span>
                <select data-testid="settings-provider"
                    on:change=move |event| {
                        let provider = match event_target_value(&event).as_str() {
                            "open_ai" => ProviderKind::OpenAi,
                            _ => ProviderKind::Anthropic,
                        };
                        settings.update(|s| s.provider = provider);
                    }>
                    <option value="anthropic" selected=move || settings.with(|s| s.provider == ProviderKind::Anthropic)>"Anthropic"</option>
                    <option value="open_ai" selected=move || settings.with(|s| s.provider == ProviderKind::OpenAi)>"OpenAI-compatible"</option>
                </select>
            </label>
            <label class="au-field">
                <span>"Model"</span>
                <input data-testid="settings-model" prop:value=move || settings.with(|s| s.model.clone())
                    on:change=move |event| settings.update(|s| s.model = event_target_value(&event)) />
            </label>
            <label class="au-field">
                <span>"Base URL"</span>
                <input data-testid="settings-base-url" type="url" prop:value=move || settings.with(|s| s.base_url.clone())
                    on:change=move |event| settings.update(|s| s.base_url = event_target_value(&event)) />
            </label>
            <label class="au-field">
                <span>"API key"</span>
                <input data-testid="settings-api-key" type="password" autocomplete="off" prop:value=move || settings.with(|s| s.api_key.clone())
                    on:change=move |event| settings.update(|s| s.api_key = event_target_value(&event)) />
                <small class="au-field__note">"Stored in this browser only and sent only to the provider above."</small>
            </label>
            {webmcp.map(|webmcp| view! {
                <p class="au-field__note" data-testid="settings-webmcp">{format!("WebMCP: {}", webmcp.surface().label())}</p>
                {move || open.get().then(|| webmcp.problems()).filter(|problems| !problems.is_empty()).map(|problems| view! {
                    <ul class="au-field__note" data-testid="settings-webmcp-problems">
                        {problems.into_iter().map(|problem| view! { <li>{problem}</li> }).collect_view()}
                    </ul>
                })}
            })}
        </div>
    }
}
