//! The agent console: every tool call live (canonical name, server, arguments, result or error,
//! elapsed ms, guided flag, bytes), token usage and estimated cost per iteration with running totals,
//! retries and stop reasons; filterable, and each call can be copied as JSON.

use autoui_core::dispatch::record::{CallOutcome, CallRecord};
use autoui_core::llm::model::Usage;
use autoui_core::llm::cost::{cost_text, usage_text};
use autoui_core::view::present::format_number;
use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::state::agent::{ConsoleRow, use_agent};
use crate::ui::dismiss::follow_focus;
use crate::ui::icons::{Icon, IconSvg};

fn row_text(row: &ConsoleRow) -> String {
    match row {
        ConsoleRow::Call(record) => record.with_untracked(|r| format!("{} {} {}", r.name, r.args, outcome_text(r))),
        ConsoleRow::Iteration { iteration, .. } => format!("iteration {iteration}"),
        ConsoleRow::Retry { reason, .. } => format!("retry {reason}"),
        ConsoleRow::Stopped { reason, .. } => reason.describe(),
        ConsoleRow::ServerLog { server, level, message, .. } => format!("{server} {level} {message}"),
        ConsoleRow::Refresh { label, outcome } => format!("refresh {label} {}", outcome.clone().unwrap_or_else(|error| error)),
    }
}

fn outcome_text(record: &CallRecord) -> String {
    match &record.outcome {
        CallOutcome::Running => "running".to_owned(),
        CallOutcome::Succeeded { result } => result.to_string(),
        CallOutcome::Failed { error } => error.to_string(),
    }
}

#[component]
fn CallRow(record: ArcRwSignal<CallRecord>) -> impl IntoView {
    let copy = {
        let record = record.clone();
        move |_| {
            let json = record.with_untracked(|r| serde_json::to_string_pretty(r).unwrap_or_default());
            let clipboard = window().navigator().clipboard();
            leptos::task::spawn_local(async move {
                let _ = JsFuture::from(clipboard.write_text(&json)).await;
            });
        }
    };
    let r = record.clone();
    let summary = move || {
        r.with(|r| {
            let server = r.target.as_ref().map(|t| format!("{} ({})", t.server, t.protocol.as_str())).unwrap_or_else(|| "unrouted".to_owned());
            let state = match &r.outcome {
                CallOutcome::Running => "running".to_owned(),
                CallOutcome::Succeeded { .. } => format!("{} ms", r.elapsed_ms),
                CallOutcome::Failed { .. } => format!("failed after {} ms", r.elapsed_ms),
            };
            (server, state, r.guided, format_number(r.result_bytes as f64), r.truncated, r.is_error())
        })
    };
    let detail = {
        let record = record.clone();
        move || record.with(|r| (serde_json::to_string_pretty(&*r.args).unwrap_or_default(), outcome_text(r)))
    };
    let name = {
        let record = record.clone();
        move || record.with(|r| r.name.clone())
    };
    let label = move || record.with(CallRecord::label);
    let s1 = summary.clone();
    let s2 = summary.clone();
    let s3 = summary.clone();
    let s4 = summary.clone();
    let d1 = detail.clone();
    view! {
        <details class="au-console__call" class:au-console__call--error=move || s4().5 data-testid="console-call">
            <summary>
                <span class="au-console__label">{label}</span>
                <span class="au-console__meta" data-testid="console-elapsed">{move || s1().1}</span>
            </summary>
            <dl class="au-console__facts">
                <dt>"Tool"</dt><dd><code>{name}</code></dd>
                <dt>"Server"</dt><dd>{move || s2().0}</dd>
                <dt>"Guided"</dt><dd>{move || if s3().2 { "yes (a discovery call came first)" } else { "no" }}</dd>
                <dt>"Result"</dt><dd>{move || { let s = summary(); format!("{} bytes{}", s.3, if s.4 { ", truncated for the model" } else { "" }) }}</dd>
            </dl>
            <pre class="au-console__pre" tabindex="0">{move || d1().0}</pre>
            <pre class="au-console__pre" tabindex="0">{move || detail().1}</pre>
            <button class="au-button au-button--ghost" on:click=copy>"Copy as JSON"</button>
        </details>
    }
}

#[component]
pub fn ConsolePanel(open: RwSignal<bool>) -> impl IntoView {
    let close = NodeRef::<leptos::html::Button>::new();
    follow_focus(open, close, "open-console");
    let agent = use_agent();
    let filter = RwSignal::new(String::new());
    let rows = move || {
        let needle = filter.get().to_lowercase();
        agent
            .console()
            .into_iter()
            .filter(|(_, row)| needle.is_empty() || row_text(row).to_lowercase().contains(&needle))
            .collect::<Vec<_>>()
    };
    let totals = move || {
        let mut usage = Usage::default();
        let mut total_cost = 0.0;
        let mut priced = true;
        let mut calls = 0;
        for (_, row) in agent.console() {
            match row {
                ConsoleRow::Iteration { usage: u, cost_usd, .. } => {
                    usage += u;
                    match cost_usd {
                        Some(c) => total_cost += c,
                        None => priced = false,
                    }
                }
                ConsoleRow::Call(_) => calls += 1,
                _ => {}
            }
        }
        format!("{calls} calls \u{b7} {} \u{b7} {}", usage_text(&usage), cost_text(priced.then_some(total_cost)))
    };
    view! {
        <div class="au-drawer au-drawer--wide" data-testid="console" role="dialog" aria-labelledby="console-title"
            hidden=move || !open.get()>
            <div class="au-drawer__header">
                <h2 id="console-title">"Agent console"</h2>
                <button class="au-icon-button" aria-label="Close console" title="Close console (Esc)" node_ref=close on:click=move |_| open.set(false)>
                    <IconSvg icon=Icon::Close />
                </button>
            </div>
            <Show when=move || !agent.console().is_empty()>
                <p class="au-console__totals" data-testid="console-totals">{totals}</p>
            </Show>
            <input class="au-console__filter" type="search" placeholder="Filter by tool, argument or result" aria-label="Filter the console"
                prop:value=move || filter.get() on:input=move |e| filter.set(event_target_value(&e)) />
            <Show when=move || agent.console().is_empty()>
                <p class="au-console__empty" data-testid="console-empty">
                    "Nothing yet. Each tool call, with its arguments, result and timing, and each request's tokens and cost appear here as the agent works."
                </p>
            </Show>
            <ol class="au-console__rows">
                <For each=rows key=|(id, _)| *id let((_, row))>
                    <li>{match row {
                        ConsoleRow::Call(record) => view! { <CallRow record /> }.into_any(),
                        ConsoleRow::Iteration { iteration, usage, cost_usd, request_bytes } => view! {
                            <p class="au-console__iteration" data-testid="console-iteration">
                                {format!("Iteration {iteration}: {} \u{b7} {} \u{b7} request {} bytes", usage_text(&usage), cost_text(cost_usd), format_number(request_bytes as f64))}
                            </p>
                        }.into_any(),
                        ConsoleRow::Retry { attempt, delay_ms, reason } => view! {
                            <p class="au-console__retry" data-testid="console-retry">{format!("Retry {attempt} in {delay_ms} ms: {reason}")}</p>
                        }.into_any(),
                        ConsoleRow::Stopped { reason, iterations, usage, cost_usd } => view! {
                            <p class="au-console__stopped" data-testid="console-stopped">
                                {format!("{} ({iterations} iterations, {}, {})", reason.describe(), usage_text(&usage), cost_text(cost_usd))}
                            </p>
                        }.into_any(),
                        ConsoleRow::Refresh { label, outcome } => { let ok = outcome.is_ok().to_string(); view! {
                            <p class="au-console__refresh" data-testid="console-refresh" data-origin="refresh"
                                data-ok=ok>
                                {format!("refresh {label}: {}", match outcome {
                                    Ok(text) => text.chars().take(300).collect::<String>(),
                                    Err(error) => format!("failed: {error}"),
                                })}
                            </p>
                        }.into_any() },
                        ConsoleRow::ServerLog { server, level, logger, message } => view! {
                            <p class="au-console__log" data-testid="console-server-log" data-level=level.clone()>
                                {format!("{server} [{level}{}] {message}", logger.map(|logger| format!(" {logger}")).unwrap_or_default())}
                            </p>
                        }.into_any(),
                    }}</li>
                </For>
            </ol>
        </div>
    }
}
