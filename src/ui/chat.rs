//! The chat panel: the transcript (user turns, the assistant's text as it streams, compact tool-call
//! lines that expand to arguments and result, notes), Stop while the agent works, Retry after a run
//! that stopped early, Continue after a reply the output limit cut, and Clear conversation. A draft
//! that is `/` and a word offers the servers' prompts (the picker comes with the engine); resources
//! attached in the servers panel go with the next message. Before a
//! key would go over plain http to another machine, it asks (and nothing is sent unless agreed).

use autoui_core::dispatch::record::{CallOutcome, CallRecord};
use autoui_core::ids::BlockId;
use autoui_core::provenance::{ImageSources, UrlLedger};
use leptos::html;
use leptos::prelude::*;

use crate::adapters::confirm::confirm;
use crate::state::agent::{ChatBody, ChatItem, NoteKind, use_agent};
use crate::state::attachments::use_attachments;
use crate::state::autoui::AutoUiCtx;
use crate::state::canvas::use_canvas;
use crate::state::engine::use_engine;
use crate::state::servers::ServersCtx;
use crate::state::settings::use_settings;
use crate::widgets::common::load_held_image;
use crate::ui::icons::{Icon, IconSvg};
use crate::ui::canvas::request_widget_code;
use crate::ui::views::safe_html;

/// Requests an empty chat offers, one per demo dataset of the built-in `samples` server.
const SUGGESTIONS: [&str; 4] = [
    "Build me a sales dashboard from the sample data",
    "How healthy is the API? Use the sample request logs",
    "Show the sample parliament: seats and recent votes",
    "Who is on the sample team, and what is the project status?",
];

/// Longest result text shown inline in an expanded tool line.
const RESULT_PREVIEW_CHARS: usize = 4_000;

fn preview(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}\u{2026} ({} more characters)", &text[..cut], text.len() - cut),
        None => text.to_owned(),
    }
}

#[component]
fn ToolLine(record: ArcRwSignal<CallRecord>) -> impl IntoView {
    let status = {
        let record = record.clone();
        move || match record.with(|r| r.outcome.clone()) {
            CallOutcome::Running => ("running", "\u{22ef}"),
            CallOutcome::Succeeded { .. } => ("ok", "\u{2713}"),
            CallOutcome::Failed { .. } => ("error", "\u{2715}"),
        }
    };
    let label = {
        let record = record.clone();
        move || record.with(CallRecord::label)
    };
    let elapsed = {
        let record = record.clone();
        move || record.with(|r| (!matches!(r.outcome, CallOutcome::Running)).then(|| format!("{} ms", r.elapsed_ms)))
    };
    let args = {
        let record = record.clone();
        move || record.with(|r| serde_json::to_string_pretty(&*r.args).unwrap_or_default())
    };
    let watched = record.clone();
    let result = move || {
        record.with(|r| match &r.outcome {
            CallOutcome::Running => String::new(),
            CallOutcome::Succeeded { result } => preview(result, RESULT_PREVIEW_CHARS),
            CallOutcome::Failed { error } => preview(error, RESULT_PREVIEW_CHARS),
        })
    };
    // A remote call's latest `notifications/progress`, while it runs.
    let progress = {
        let servers = use_context::<ServersCtx>();
        move || {
            let (running, target) =
                watched.with(|r| (matches!(r.outcome, CallOutcome::Running), r.target.clone()));
            let target = target.filter(|_| running)?;
            servers?.progress_of(&target.server, &target.tool).map(|progress| progress.describe())
        }
    };
    let status_class = status.clone();
    let status_icon = status.clone();
    view! {
        <details class="au-call" data-testid="chat-tool-call" data-status=move || status_class().0>
            <summary class="au-call__summary">
                <span class=move || format!("au-call__status au-call__status--{}", status().0) aria-hidden="true">{move || status_icon().1}</span>
                <span class="au-call__name">{label}</span>
                <span class="au-call__elapsed">{elapsed}</span>
                {move || progress().map(|text| view! { <span class="au-call__progress" data-testid="chat-tool-progress">{text}</span> })}
            </summary>
            <div class="au-call__detail">
                <h3>"Arguments"</h3>
                <pre tabindex="0">{args}</pre>
                <h3>"Result"</h3>
                <pre data-testid="chat-tool-result" tabindex="0">{result}</pre>
            </div>
        </details>
    }
}

#[component]
fn TranscriptItem(item: ChatItem) -> impl IntoView {
    match item.body {
        ChatBody::User(text) => {
            view! { <li class="au-chat__message au-chat__message--user" data-testid="chat-user">{text}</li> }.into_any()
        }
        // Markdown rendered by a real parser into safe HTML (raw HTML escaped, link schemes filtered,
        // images from outside the conversation's data held back until the person loads them).
        ChatBody::Assistant(text) => {
            // A message restored before the engine (and its URL ledger) is here holds every web image back.
            let autoui = use_context::<AutoUiCtx>();
            let render = move |t: &String| match autoui {
                Some(autoui) => autoui.with_image_sources(|images| safe_html(t, images)),
                None => safe_html(t, ImageSources::Known(&UrlLedger::default())),
            };
            view! {
                <li class="au-chat__message au-chat__message--assistant au-markdown" data-testid="chat-assistant"
                    on:click=load_held_image
                    inner_html=move || text.with(render)></li>
            }
            .into_any()
        }
        ChatBody::Tool(record) => view! { <li class="au-chat__tool"><ToolLine record /></li> }.into_any(),
        ChatBody::Note { kind, text } => {
            let (class, testid) = match kind {
                NoteKind::Activated => ("au-chat__note au-chat__note--activated", "chat-note"),
                NoteKind::Retry => ("au-chat__note au-chat__note--retry", "chat-note"),
                NoteKind::Usage => ("au-chat__note", "chat-usage"),
                NoteKind::Stopped => ("au-chat__note au-chat__note--stopped", "chat-note"),
            };
            view! { <li class=class data-testid=testid>{text}</li> }.into_any()
        }
    }
}

/// The chat panel as the rest of the page reaches it (a frame's "Ask about this widget").
#[derive(Clone, Copy)]
pub struct ChatCtx {
    pub open: RwSignal<bool>,
    input: NodeRef<html::Textarea>,
}

impl ChatCtx {
    pub fn new(open: RwSignal<bool>) -> ChatCtx {
        ChatCtx { open, input: NodeRef::new() }
    }

    /// Opens the panel with the cursor in the message box (opening it puts the cursor there).
    pub fn open_to_write(&self) {
        match self.open.get_untracked() {
            true => {
                if let Some(input) = self.input.get_untracked() {
                    let _ = input.focus();
                }
            }
            false => self.open.set(true),
        }
    }
}

pub fn use_chat() -> Option<ChatCtx> {
    use_context::<ChatCtx>()
}

#[component]
pub fn ChatPanel(chat: ChatCtx, #[prop(into)] on_open_settings: Callback<()>) -> impl IntoView {
    let ChatCtx { open, input: input_ref } = chat;
    let agent = use_agent();
    let canvas = use_canvas();
    let engine = use_engine();
    let settings = use_settings().0;
    let draft = RwSignal::new(String::new());
    let attachments = use_attachments();
    // Set while the `/` prompt picker shows: Enter then picks rather than sends.
    let picking = RwSignal::new(false);
    let transcript_ref = NodeRef::<html::Ol>::new();

    // Opening the panel from the header puts the cursor in the message box.
    Effect::new(move |was_open: Option<bool>| {
        let is_open = open.get();
        if was_open == Some(false) && is_open
            && let Some(input) = input_ref.get_untracked()
        {
            let _ = input.focus();
        }
        is_open
    });

    // Keep the newest message in view as the transcript grows or streams, when the status lines below
    // it come and go (they shorten it), and when a hidden panel is shown again.
    Effect::new(move |_| {
        agent.transcript();
        agent.is_running();
        agent.last_stop();
        open.get();
        if let Some(list) = transcript_ref.get() {
            // After the frame's layout, when the lines just added or removed have their height.
            request_animation_frame(move || list.set_scroll_top(list.scroll_height()));
        }
    });

    let needs_key = move || settings.with(|s| s.missing_key());
    let send = move || {
        let text = draft.get_untracked().trim().to_owned();
        if text.is_empty() || agent.is_running() || picking.get_untracked() {
            return;
        }
        if settings.with_untracked(|s| s.missing_key()) {
            on_open_settings.run(());
            return;
        }
        // Asked once per endpoint; a "no" keeps the message in the box and sends nothing.
        if let Some(host) = settings.with_untracked(|s| s.unconfirmed_cleartext_key()) {
            let question = format!(
                "{host} is reached over plain http: your API key would cross the network unencrypted, readable by \
                 anyone on the way. Send it to {host} anyway?"
            );
            if !confirm(&question) {
                return;
            }
            settings.update(|s| s.allow_cleartext_key());
        }
        draft.set(String::new());
        match attachments.filter(|attachments| !attachments.is_empty()) {
            Some(attachments) => {
                let on_canvas = |id: &BlockId| canvas.with_store(|store| store.canvas().get(id).is_some());
                let limit = settings.with_untracked(|s| s.result_limit);
                let outgoing = attachments.take_into(&text, limit, on_canvas);
                agent.send_shown(outgoing.message, outgoing.shown);
            }
            None => agent.send(text),
        }
    };
    let can_retry = move || agent.can_retry();

    view! {
        <aside class="au-chat" id="chat-panel" data-testid="chat" aria-label="Chat with the agent" hidden=move || !open.get()
            data-running=move || agent.is_running().to_string() data-finished-runs=move || agent.finished_runs().to_string()>
            <div class="au-chat__header">
                <h2 class="au-chat__title">"Agent"</h2>
                <button class="au-button au-button--ghost" data-testid="clear-conversation" title="Start a new conversation (the canvas stays)"
                    disabled=move || agent.is_running() || agent.transcript().is_empty()
                    on:click=move |_| agent.clear()>"New chat"</button>
                <button class="au-icon-button" aria-label="Hide the chat" title="Hide the chat" data-testid="close-chat"
                    on:click=move |_| open.set(false)><IconSvg icon=Icon::Close /></button>
            </div>
            <Show when=move || agent.transcript().is_empty()>
                <div class="au-chat__empty" data-testid="chat-empty">
                    <p>"Describe the dashboard you want in your own words, or start from the demo data:"</p>
                    <ul class="au-chat__suggestions">
                        {SUGGESTIONS.iter().map(|prompt| view! {
                            <li>
                                <button type="button" class="au-chat__suggestion" data-testid="chat-suggestion"
                                    on:click=move |_| { draft.set((*prompt).to_owned()); send(); }>{*prompt}</button>
                            </li>
                        }).collect_view()}
                    </ul>
                </div>
            </Show>
            <ol class="au-chat__transcript" data-testid="transcript" node_ref=transcript_ref aria-live="polite">
                <For each=move || agent.transcript() key=|(id, _)| *id let((_, item))>
                    <TranscriptItem item />
                </For>
            </ol>
            <div class="au-chat__elicitations" data-testid="elicitations">
                {move || engine.is_ready().then(|| engine.current().ok().map(|engine| (engine.server_questions)()))}
            </div>
            <div class="au-chat__approvals" data-testid="approvals">
                {move || engine.is_ready().then(|| engine.current().ok().map(|engine| (engine.approval_cards)()))}
            </div>
            <Show when=move || needs_key()>
                <p class="au-chat__hint" data-testid="chat-needs-key">
                    "Add an API key in "
                    <button class="au-link-button" on:click=move |_| on_open_settings.run(())>"Settings"</button>
                    " to talk to the agent. The key stays in this browser."
                </p>
            </Show>
            <Show when=move || agent.is_running()>
                <p class="au-chat__working" data-testid="chat-working" role="status">
                    <span class="au-spinner" aria-hidden="true"></span>
                    {move || if agent.is_loading() { "Loading the agent\u{2026}" } else { "The agent is working\u{2026}" }}
                </p>
            </Show>
            <Show when=can_retry>
                <p class="au-chat__retry">
                    <Show when=move || agent.last_stop().is_some_and(|stop| stop.fixed_in_settings())>
                        <button class="au-button" data-testid="stop-settings" on:click=move |_| on_open_settings.run(())>"Open Settings"</button>
                    </Show>
                    <button class="au-button" data-testid="retry" on:click=move |_| agent.retry()>"Retry"</button>
                </p>
            </Show>
            <Show when=move || agent.can_continue()>
                <p class="au-chat__retry">
                    <button class="au-button" data-testid="continue" on:click=move |_| agent.continue_reply()>"Continue"</button>
                </p>
            </Show>
            <div class="au-chat__prompts">
                {move || engine.is_ready().then(|| engine.current().ok().map(|engine| (engine.prompt_picker)(draft, picking)))}
            </div>
            <div class="au-chat__attachments-slot">
                {move || engine.is_ready().then(|| engine.current().ok().map(|engine| (engine.attachments_bar)()))}
            </div>
            <form class="au-chat__composer" on:submit=move |event| { event.prevent_default(); send(); }>
                <label class="au-visually-hidden" for="chat-input">"Message"</label>
                <textarea
                    id="chat-input"
                    node_ref=input_ref
                    class="au-chat__input"
                    data-testid="chat-input"
                    rows="2"
                    placeholder="Ask for a dashboard\u{2026}"
                    prop:value=move || draft.get()
                    on:input=move |event| {
                        request_widget_code();
                        engine.request();
                        draft.set(event_target_value(&event));
                    }
                    on:keydown=move |event| {
                        if event.key() == "Enter" && !event.shift_key() {
                            event.prevent_default();
                            send();
                        }
                    }
                ></textarea>
                <Show when=move || agent.is_running() fallback=move || view! {
                    <button type="submit" class="au-button au-button--primary" data-testid="send">"Send"</button>
                }>
                    <button type="button" class="au-button au-button--danger" data-testid="stop" on:click=move |_| agent.stop()>"Stop"</button>
                </Show>
            </form>
        </aside>
    }
}
