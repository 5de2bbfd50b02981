//! The settings drawer's "Model profile" section: the active model's context window, output limits
//! and prices (built-in, the person's own, or unknown with a request for the context size), the
//! limits derived from them, how the output limit is spelled for OpenAI-compatible servers, and the
//! reply timeouts.

use autoui_core::llm::profile::{ModelProfile, Prices, ProfileSource, UNKNOWN_MODEL};
use autoui_core::settings::{ProviderKind, Settings, TokenParam};
use leptos::prelude::*;

fn parse_u32(text: &str, min: u32, max: u32) -> Option<u32> {
    text.trim().replace([',', '_', ' '], "").parse::<u32>().ok().map(|value| value.clamp(min, max))
}

fn parse_price(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|price| price.is_finite() && *price >= 0.0)
}

fn source_note(settings: &Settings) -> String {
    match settings.profile().1 {
        ProfileSource::Known => format!("Built-in profile for \u{201c}{}\u{201d}.", settings.model),
        ProfileSource::Custom => format!("Your values for \u{201c}{}\u{201d}.", settings.model),
        ProfileSource::Reported => {
            format!("The context window the server reported for \u{201c}{}\u{201d}; change it below.", settings.model)
        }
        ProfileSource::Unknown if settings.provider == ProviderKind::Ollama => format!(
            "\u{201c}{}\u{201d} is not a model this app knows: Ollama reports its context window when the next \
             message is sent, or enter it below. Until then it is given the limits of a {}-token window.",
            settings.model,
            UNKNOWN_MODEL.context_tokens
        ),
        ProfileSource::Unknown => format!(
            "\u{201c}{}\u{201d} is not a model this app knows: enter its context window below. Until then it is \
             given the limits of a {}-token window, which any model holds.",
            settings.model,
            UNKNOWN_MODEL.context_tokens
        ),
    }
}

fn derived_note(settings: &Settings) -> String {
    match settings.derived_limits() {
        Some(limits) => format!(
            "Each request stays within {} KB, a tool result shows at most {} characters, and a turn takes at most {} iterations.",
            limits.request_budget / 1_000,
            limits.result_limit,
            limits.max_iterations
        ),
        None => "The limits below (Agent) apply.".to_owned(),
    }
}

/// One number field of the active profile.
#[component]
fn ProfileNumber(
    settings: RwSignal<Settings>,
    label: &'static str,
    testid: &'static str,
    read: fn(&ModelProfile) -> u32,
    write: fn(&mut ModelProfile, u32),
    min: u32,
    max: u32,
) -> impl IntoView {
    view! {
        <label class="au-field">
            <span>{label}</span>
            <input data-testid=testid type="number" min=min max=max
                prop:value=move || settings.with(|s| read(&s.profile().0).to_string())
                on:change=move |event| {
                    if let Some(value) = parse_u32(&event_target_value(&event), min, max) {
                        settings.update(|s| s.set_profile(|profile| write(profile, value)));
                    }
                } />
        </label>
    }
}

/// One price of the active profile (USD per million tokens); empty when unknown.
#[component]
fn ProfilePrice(
    settings: RwSignal<Settings>,
    label: &'static str,
    testid: &'static str,
    read: fn(&Prices) -> f64,
    write: fn(&mut Prices, f64),
) -> impl IntoView {
    view! {
        <label class="au-field">
            <span>{label}</span>
            <input data-testid=testid type="number" min="0" step="0.01" placeholder="unknown"
                prop:value=move || settings.with(|s| s.profile().0.prices.map(|p| read(&p).to_string()).unwrap_or_default())
                on:change=move |event| {
                    let Some(value) = parse_price(&event_target_value(&event)) else { return };
                    settings.update(|s| s.set_profile(|profile| {
                        let mut prices = profile.prices.unwrap_or(Prices { input: 0.0, output: 0.0, cache_write: 0.0, cache_read: 0.0 });
                        write(&mut prices, value);
                        profile.prices = Some(prices);
                    }));
                } />
        </label>
    }
}

#[component]
pub fn ModelProfileSection(settings: RwSignal<Settings>) -> impl IntoView {
    let is_custom = move || settings.with(|s| s.profile().1 == ProfileSource::Custom);
    let is_openai = move || settings.with(|s| s.provider == ProviderKind::OpenAi);
    let is_ollama = move || settings.with(|s| s.provider == ProviderKind::Ollama);
    view! {
        <section class="au-settings__section" aria-labelledby="settings-model-profile" data-testid="settings-profile">
            <h3 id="settings-model-profile">"Model profile"</h3>
            <p class="au-field__note" data-testid="settings-profile-source">{move || settings.with(source_note)}</p>
            <ProfileNumber settings label="Context window (tokens)" testid="settings-context"
                read=|p| p.context_tokens write=|p, v| p.context_tokens = v min=2_048 max=10_000_000 />
            <ProfileNumber settings label="Output tokens asked for per reply" testid="settings-output-tokens"
                read=|p| p.output_tokens write=|p, v| p.output_tokens = v min=256 max=1_000_000 />
            <ProfileNumber settings label="Most output tokens the model allows" testid="settings-max-output"
                read=|p| p.max_output_tokens write=|p, v| p.max_output_tokens = v min=256 max=1_000_000 />
            <div class="au-field__row">
                <ProfilePrice settings label="Input $/M" testid="settings-price-input" read=|p| p.input write=|p, v| p.input = v />
                <ProfilePrice settings label="Output $/M" testid="settings-price-output" read=|p| p.output write=|p, v| p.output = v />
                <ProfilePrice settings label="Cache read $/M" testid="settings-price-cache-read" read=|p| p.cache_read write=|p, v| p.cache_read = v />
                <ProfilePrice settings label="Cache write $/M" testid="settings-price-cache-write" read=|p| p.cache_write write=|p, v| p.cache_write = v />
            </div>
            <Show when=is_custom>
                <button type="button" class="au-button au-button--ghost" data-testid="settings-profile-reset"
                    on:click=move |_| settings.update(|s| { let model = s.model.trim().to_owned(); s.profiles.remove(&model); })>
                    "Use the built-in profile"
                </button>
            </Show>
            <label class="au-field au-field--inline">
                <input type="checkbox" data-testid="settings-limits-from-profile"
                    prop:checked=move || settings.with(|s| s.limits_from_profile)
                    on:change=move |event| settings.update(|s| s.limits_from_profile = event_target_checked(&event)) />
                <span>"Size the request, results and iterations from the context window"</span>
            </label>
            <p class="au-field__note" data-testid="settings-derived">{move || settings.with(derived_note)}</p>
            <Show when=is_ollama>
                <p class="au-field__note" data-testid="settings-ollama-context">
                    "Ollama is asked for the model's own context length (/api/show) and each request sets it as num_ctx, \
                     no more than the context window above when you changed it."
                </p>
            </Show>
            <Show when=is_openai>
                <label class="au-field">
                    <span>"Output limit field (OpenAI-compatible)"</span>
                    <select data-testid="settings-token-param"
                        on:change=move |event| {
                            let param = match event_target_value(&event).as_str() {
                                "max_tokens" => TokenParam::MaxTokens,
                                "max_completion_tokens" => TokenParam::MaxCompletionTokens,
                                _ => TokenParam::Auto,
                            };
                            settings.update(|s| s.token_param = param);
                        }>
                        <option value="auto" selected=move || settings.with(|s| s.token_param == TokenParam::Auto)>"Automatic"</option>
                        <option value="max_tokens" selected=move || settings.with(|s| s.token_param == TokenParam::MaxTokens)>"max_tokens"</option>
                        <option value="max_completion_tokens" selected=move || settings.with(|s| s.token_param == TokenParam::MaxCompletionTokens)>"max_completion_tokens"</option>
                    </select>
                </label>
            </Show>
            <div class="au-field__row">
                <label class="au-field">
                    <span>"Wait for a reply to start (s)"</span>
                    <input data-testid="settings-first-byte-timeout" type="number" min="0" max="3600"
                        prop:value=move || settings.with(|s| s.first_byte_timeout_s.to_string())
                        on:change=move |event| {
                            if let Some(value) = parse_u32(&event_target_value(&event), 0, 3_600) {
                                settings.update(|s| s.first_byte_timeout_s = value);
                            }
                        } />
                </label>
                <label class="au-field">
                    <span>"Silence allowed mid-reply (s)"</span>
                    <input data-testid="settings-idle-timeout" type="number" min="0" max="3600"
                        prop:value=move || settings.with(|s| s.idle_timeout_s.to_string())
                        on:change=move |event| {
                            if let Some(value) = parse_u32(&event_target_value(&event), 0, 3_600) {
                                settings.update(|s| s.idle_timeout_s = value);
                            }
                        } />
                </label>
            </div>
            <small class="au-field__note">"0 waits forever. A reply that times out is retried like a rate limit, then reported."</small>
        </section>
    }
}
