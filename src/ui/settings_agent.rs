//! The settings drawer's sections that come with the engine chunk (fetched after first paint or when the drawer first opens):
//! the model profile (`settings_model.rs`), the agent's limits and instructions, what other agents
//! in the browser get (WebMCP) and storage (`settings_storage.rs`).

use leptos::prelude::*;

use crate::state::settings::use_settings;
use crate::state::webmcp::use_webmcp;
use crate::ui::settings_model::ModelProfileSection;
use crate::ui::settings_storage::StorageSection;

fn parse_bounded(text: &str, min: u64, max: u64) -> Option<u64> {
    text.trim().parse::<u64>().ok().map(|value| value.clamp(min, max))
}

#[component]
pub fn AgentSettings(open: RwSignal<bool>) -> impl IntoView {
    let settings = use_settings().0;
    // The model profile sizes these two when its limits are in use.
    let from_profile = move || settings.with(|s| s.derived_limits().is_some());
    view! {
        <ModelProfileSection settings />

        <section class="au-settings__section" aria-labelledby="settings-agent">
            <h3 id="settings-agent">"Agent"</h3>
            <label class="au-field">
                <span>"Maximum iterations per request"</span>
                <input data-testid="settings-max-iterations" type="number" min="1" max="50" disabled=from_profile
                    prop:value=move || settings.with(|s| s.max_iterations.to_string())
                    on:change=move |event| {
                        if let Some(value) = parse_bounded(&event_target_value(&event), 1, 50) {
                            settings.update(|s| s.max_iterations = value as u32);
                        }
                    } />
            </label>
            <label class="au-field">
                <span>"Tool result limit (characters the model sees)"</span>
                <input data-testid="settings-result-limit" type="number" min="1000" max="200000" step="1000" disabled=from_profile
                    prop:value=move || settings.with(|s| s.result_limit.to_string())
                    on:change=move |event| {
                        if let Some(value) = parse_bounded(&event_target_value(&event), 1_000, 200_000) {
                            settings.update(|s| s.result_limit = value as usize);
                        }
                    } />
                <small class="au-field__note">"Longer results are shortened for the model; the full text stays available to it through recall."</small>
            </label>
            <label class="au-field">
                <span>"Instructions added before the system prompt"</span>
                <textarea data-testid="settings-prompt-prefix" rows="3" placeholder="e.g. Answer in French. Prefer charts over tables."
                    prop:value=move || settings.with(|s| s.system_prompt_prefix.clone())
                    on:change=move |event| settings.update(|s| s.system_prompt_prefix = event_target_value(&event))></textarea>
            </label>
        </section>

        <section class="au-settings__section" aria-labelledby="settings-webmcp-title">
            <h3 id="settings-webmcp-title">"Other agents (WebMCP)"</h3>
            {match use_webmcp() {
                Some(webmcp) => view! {
                    <p class="au-field__note" data-testid="settings-webmcp">{format!("WebMCP: {}", webmcp.surface().label())}</p>
                    {move || open.get().then(|| webmcp.problems()).filter(|problems| !problems.is_empty()).map(|problems| view! {
                        <ul class="au-field__note" data-testid="settings-webmcp-problems">
                            {problems.into_iter().map(|problem| view! { <li>{problem}</li> }).collect_view()}
                        </ul>
                    })}
                }.into_any(),
                None => view! { <p class="au-field__note">"WebMCP: the page's tools are being set up\u{2026}"</p> }.into_any(),
            }}
            <label class="au-field au-field--inline">
                <input type="checkbox" data-testid="settings-webmcp-tools"
                    prop:checked=move || settings.with(|s| s.webmcp_tools)
                    on:change=move |event| settings.update(|s| s.webmcp_tools = event_target_checked(&event)) />
                <span>"Let other agents in this browser use this dashboard"</span>
            </label>
            <p class="au-field__note">"Every widget is exposed as tools (read, update, remove), and the page offers the autoui tools, so an agent in this browser can build dashboards here too. Off, none is offered."</p>
            <label class="au-field au-field--inline">
                <input type="checkbox" data-testid="settings-webmcp-recall"
                    prop:disabled=move || settings.with(|s| !s.webmcp_tools)
                    prop:checked=move || settings.with(|s| s.webmcp_recall)
                    on:change=move |event| settings.update(|s| s.webmcp_recall = event_target_checked(&event)) />
                <span>"Also let them read every stored server result (recall)"</span>
            </label>
            <p class="au-field__note">"Off by default: those results hold data from every connected server, which another agent could read or carry elsewhere."</p>
        </section>

        <StorageSection open />
    }
}
