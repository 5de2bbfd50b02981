//! The agent in the page: one `AgentSession` (conversation, activated servers, result buffer) run
//! per user turn, and the signals the chat, the console and the canvas placeholders read. The UI is a
//! fold over the run's `AgentEvent`s (see [`UiSink`]).
//!
//! The session and the code that runs it come with the engine chunk (`state/engine.rs`): until it
//! is here the conversation is kept as restored, and a turn sent meanwhile waits for it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use autoui_core::agent::buffer::ResultBuffer;
use autoui_core::agent::event::{AgentEvent, EventSink};
use autoui_core::agent::frame::is_view_said;
use autoui_core::agent::session::{AgentConfig, AgentDeps, AgentSession, SessionSnapshot, UserTurn};
use autoui_core::agent::stop::StopReason;
use autoui_core::approval::Approver;
use autoui_core::binding::remote::SourceCall;
use autoui_core::cancel::CancelToken;
use autoui_core::dispatch::record::{CallOutcome, CallRecord};
use autoui_core::ids::CallId;
use autoui_core::llm::cost::{cost_text, usage_text};
use autoui_core::llm::http::HttpChatModel;
use autoui_core::llm::message::{ContentBlock, Message, Role};
use autoui_core::llm::model::Usage;
use autoui_core::remote::RemoteServers;
use autoui_core::settings::Settings;
use autoui_core::tool::{LocalServer, joined_text};
use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use serde_json::Value;

use crate::adapters::clock::{BrowserClock, BrowserRandom};
use crate::adapters::http::FetchTransport;
use crate::state::autoui::AutoUiCtx;
use crate::state::canvas::CanvasCtx;
use crate::state::engine::EngineCtx;
use crate::state::settings::SettingsCtx;

/// One line of the chat transcript. Streaming parts are signals so only they re-render.
#[derive(Clone)]
pub struct ChatItem {
    pub id: u64,
    pub body: ChatBody,
}

#[derive(Clone)]
pub enum ChatBody {
    User(String),
    Assistant(ArcRwSignal<String>),
    Tool(ArcRwSignal<CallRecord>),
    Note { kind: NoteKind, text: String },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoteKind {
    /// A server's tools were added for the model.
    Activated,
    /// The provider asked us to slow down; the request will be retried.
    Retry,
    /// What a run took: its requests, tokens and estimated cost.
    Usage,
    /// The run ended early (Stop, iteration cap, provider failure).
    Stopped,
}

/// One row of the agent console.
#[derive(Clone)]
pub enum ConsoleRow {
    Iteration { iteration: u32, usage: Usage, cost_usd: Option<f64>, request_bytes: usize },
    Call(ArcRwSignal<CallRecord>),
    Retry { attempt: u32, delay_ms: u32, reason: String },
    Stopped { reason: StopReason, iterations: u32, usage: Usage, cost_usd: Option<f64> },
    /// A log entry an MCP server sent (`notifications/message`).
    ServerLog { server: String, level: String, logger: Option<String>, message: String },
    /// A call a widget's source made to refresh it (origin "refresh"): its result text or error.
    Refresh { label: String, outcome: Result<String, String> },
}

/// A widget the model is still writing: shown as a placeholder on the canvas until its call ends.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    pub call_id: CallId,
    pub widget: Option<String>,
}

#[derive(Clone, Copy)]
pub struct AgentCtx {
    /// Made when the engine chunk starts ([`AgentCtx::attach`]).
    session: StoredValue<Option<Rc<RefCell<AgentSession>>>, LocalStorage>,
    /// The autoui server whose URL ledger the session fills, from [`AgentCtx::attach`].
    autoui: StoredValue<Option<AutoUiCtx>>,
    /// The conversation (with its activated servers and results) as restored until there is a
    /// session, then as it was when the current run started: a run holds the session for its whole
    /// length, and a save can come in the middle of it (a widget was added).
    settled: StoredValue<SessionSnapshot, LocalStorage>,
    /// The session's result buffer, readable during a run (the session itself is not).
    results: StoredValue<Option<Rc<ResultBuffer>>, LocalStorage>,
    /// The running turn's session so far (the person's message and each finished step, with the
    /// servers it activated), saved so that a reload in the middle of the run keeps it.
    in_flight: StoredValue<Option<SessionSnapshot>, LocalStorage>,
    /// The restored conversation ends with a turn a reload cut short; stays so until a turn runs.
    interrupted: StoredValue<bool>,
    engine: EngineCtx,
    /// A turn that could not start because the engine did not load; Retry sends it again.
    unsent: RwSignal<Option<UserTurn>>,
    settings: SettingsCtx,
    canvas: CanvasCtx,
    transcript: RwSignal<Vec<(u64, ChatItem)>>,
    console: RwSignal<Vec<(u64, ConsoleRow)>>,
    pending: RwSignal<Vec<Pending>>,
    /// The arguments of the calls the model is writing, as far as they parse (for MCP Apps views,
    /// placed as their call starts).
    partial_inputs: RwSignal<Vec<(CallId, Value)>>,
    running: RwSignal<bool>,
    cancel: StoredValue<Option<CancelToken>, LocalStorage>,
    next_id: StoredValue<u64>,
    /// Bumps when the conversation changed (persistence follows it).
    revision: RwSignal<u64>,
    /// A turn that arrived while a run was going (a widget button click); sent when it ends.
    queued: StoredValue<Option<(String, String)>>,
    last_stop: RwSignal<Option<StopReason>>,
    /// Runs finished since the page loaded.
    finished_runs: RwSignal<u32>,
    /// What an MCP Apps view last told the model (`ui/update-model-context`), by view: sent
    /// with the next turn, then dropped.
    view_context: StoredValue<Vec<(String, String)>>,
}

impl AgentCtx {
    pub fn finished_runs(&self) -> u32 {
        self.finished_runs.get()
    }

    pub fn transcript(&self) -> Vec<(u64, ChatItem)> {
        self.transcript.get()
    }

    pub fn console(&self) -> Vec<(u64, ConsoleRow)> {
        self.console.get()
    }

    /// The arguments of call `id` as far as the model wrote them (tracked); `None` once it ran.
    pub fn partial_input(&self, id: &str) -> Option<Value> {
        self.partial_inputs.with(|inputs| inputs.iter().find(|(call, _)| call.as_str() == id).map(|(_, input)| input.clone()))
    }

    pub fn pending(&self) -> Vec<Pending> {
        self.pending.get()
    }

    pub fn is_running(&self) -> bool {
        self.running.get()
    }

    pub fn revision(&self) -> u64 {
        self.revision.get()
    }

    pub fn last_stop(&self) -> Option<StopReason> {
        self.last_stop.get()
    }

    /// A turn was sent and waits for the engine chunk (tracked).
    pub fn is_loading(&self) -> bool {
        self.running.get() && !self.engine.is_ready()
    }

    /// Whether Retry has something to do: a run that stopped early, or a turn that could not start.
    pub fn can_retry(&self) -> bool {
        !self.running.get()
            && (self.unsent.with(Option::is_some)
                || self.last_stop.get().is_some_and(|s| !matches!(s, StopReason::Completed | StopReason::OutputCut { .. })))
    }

    /// Whether the last reply was cut by the output limit, so Continue is offered.
    pub fn can_continue(&self) -> bool {
        !self.running.get() && matches!(self.last_stop.get(), Some(StopReason::OutputCut { .. }))
    }

    /// Lets the model go on with a reply the output limit cut: a turn that says so (as context, so the
    /// transcript shows no message the person did not write).
    pub fn continue_reply(&self) {
        if !self.running.get_untracked() {
            let turn = UserTurn::default()
                .with_context("Your last reply was cut off by the output token limit. Continue it from where it stopped.");
            self.start(turn);
        }
    }

    /// The conversation as stored (for persistence), with its activated servers and full results.
    /// During a run, the run's conversation as far as it got (marked in flight) with every result
    /// stored so far: the run's end bumps the revision, which saves again with the whole run.
    pub fn snapshot(&self) -> SessionSnapshot {
        let mut snapshot = self.session.with_value(|session| match session.as_ref().map(|session| session.try_borrow()) {
            Some(Ok(session)) => session.snapshot(),
            Some(Err(_)) => {
                let mut running = self.in_flight.get_value().unwrap_or_else(|| self.settled.get_value());
                if let Some(results) = self.results.get_value() {
                    running.results = results.entries();
                    running.evicted = results.evicted();
                }
                running
            }
            None => self.settled.get_value(),
        });
        snapshot.in_flight |= self.interrupted.get_value();
        snapshot
    }

    /// Makes the session over the engine's servers, continuing the conversation restored so far.
    pub(crate) fn attach(
        &self,
        autoui: AutoUiCtx,
        extra_local: Vec<Rc<dyn LocalServer>>,
        remote: Rc<dyn RemoteServers>,
        approver: Rc<dyn Approver>,
    ) {
        let mut local: Vec<Rc<dyn LocalServer>> = vec![autoui.server()];
        local.extend(extra_local);
        let deps = AgentDeps {
            model: Rc::new(HttpChatModel::new(Rc::new(FetchTransport), Rc::new(BrowserClock), Rc::new(BrowserRandom))),
            local,
            remote,
            clock: Rc::new(BrowserClock),
            results: autoui.results(),
        };
        self.results.set_value(Some(autoui.results()));
        let session =
            AgentSession::restore(deps, AgentConfig::default(), self.settled.get_value())
                .with_url_ledger(autoui.urls())
                .with_approver(approver);
        self.session.set_value(Some(Rc::new(RefCell::new(session))));
        self.autoui.set_value(Some(autoui));
        autoui.urls_changed();
    }

    /// Sends `text` as the user's next turn (shown as `shown`), with the canvas changes made by the
    /// user or other agents since the agent's last turn as context.
    pub fn send(&self, text: String) {
        self.send_shown(text.clone(), text);
    }

    /// Continues `snapshot` instead of the current conversation (a backup read back); refused
    /// while a run is going.
    pub fn replace_conversation(&self, snapshot: SessionSnapshot) -> bool {
        if self.running.get_untracked() {
            return false;
        }
        let mut next_id = self.next_id.get_value();
        let transcript = transcript_from(&snapshot.messages, &mut next_id);
        self.next_id.set_value(next_id);
        self.session.with_value(|session| {
            if let Some(session) = session {
                session.borrow_mut().replace(snapshot.clone());
            }
        });
        self.interrupted.set_value(false);
        self.settled.set_value(snapshot);
        self.transcript.set(transcript);
        self.console.set(Vec::new());
        self.last_stop.set(None);
        self.revision.update(|r| *r += 1);
        true
    }

    /// Shows the conversation as the tab this one follows saved it (`state/tabs.rs`).
    pub fn follow(&self, snapshot: SessionSnapshot) {
        if self.running.get_untracked() {
            return;
        }
        let mut next_id = self.next_id.get_value();
        let transcript = transcript_from(&snapshot.messages, &mut next_id);
        self.next_id.set_value(next_id);
        self.transcript.set(transcript);
        self.settled.set_value(snapshot);
    }

    /// Sends `text` to the agent while the transcript shows `shown` (e.g. a widget click).
    pub fn send_shown(&self, text: String, shown: String) {
        if self.canvas.is_following_now() {
            let text = "This conversation continues in another tab of this browser: send it there, or close that tab to continue here.";
            self.push_item(ChatBody::Note { kind: NoteKind::Stopped, text: text.to_owned() });
            return;
        }
        if self.running.get_untracked() {
            self.queued.set_value(Some((text, shown)));
            return;
        }
        self.push_item(ChatBody::User(shown));
        let said = self.view_context.try_update_value(std::mem::take).unwrap_or_default();
        self.start(UserTurn::text(text).with_views_said(&said));
    }

    /// Replaces what the view `view` (named as a sentence starts, "The view of ...") last told the
    /// model; it goes with the next turn (`ui/update-model-context`). An empty text takes it back.
    pub fn set_view_context(&self, view: String, text: String) {
        self.view_context.update_value(|context| {
            context.retain(|(known, _)| *known != view);
            if !text.trim().is_empty() {
                context.push((view, text));
            }
        });
    }

    /// Runs again from where the conversation stopped (after an error, Stop or the iteration cap),
    /// or sends again the turn the engine was not there for.
    pub fn retry(&self) {
        if !self.running.get_untracked() {
            let turn = self.unsent.try_update(Option::take).flatten();
            self.start(turn.unwrap_or_default());
        }
    }

    pub fn stop(&self) {
        if let Some(cancel) = self.cancel.get_value() {
            cancel.cancel();
        }
    }

    /// Starts a new conversation (the canvas stays).
    pub fn clear(&self) {
        if self.running.get_untracked() {
            return;
        }
        self.session.with_value(|session| match session {
            Some(session) => session.borrow_mut().clear(),
            None => self.settled.set_value(SessionSnapshot::default()),
        });
        self.urls_changed();
        self.interrupted.set_value(false);
        self.unsent.set(None);
        self.transcript.set(Vec::new());
        self.console.set(Vec::new());
        self.last_stop.set(None);
        self.revision.update(|r| *r += 1);
    }

    fn start(&self, turn: UserTurn) {
        let ctx = *self;
        let context = ctx.canvas.with_store(|store| store.changes_since_mark());
        ctx.canvas.update_store(|store| store.mark());
        let turn = match context {
            Some(context) => turn.with_context(context),
            None => turn,
        };
        ctx.interrupted.set_value(false);
        let cancel = CancelToken::new();
        ctx.cancel.set_value(Some(cancel.clone()));
        ctx.running.set(true);
        ctx.last_stop.set(None);
        let settings = ctx.settings.0.get_untracked();
        leptos::task::spawn_local(async move {
            match ctx.engine.ready().await {
                Ok(engine) => {
                    ctx.settled.set_value(ctx.snapshot());
                    (engine.run)(ctx, turn, settings, cancel).await;
                }
                Err(error) => {
                    ctx.push_item(ChatBody::Note { kind: NoteKind::Stopped, text: error.to_string() });
                    ctx.unsent.set(Some(turn));
                }
            }
            ctx.in_flight.set_value(None);
            ctx.cancel.set_value(None);
            ctx.running.set(false);
            ctx.finished_runs.update(|n| *n += 1);
            ctx.revision.update(|r| *r += 1);
            if let Some((text, shown)) = ctx.queued.get_value() {
                ctx.queued.set_value(None);
                ctx.send_shown(text, shown);
            }
        });
    }

    /// Held-back images look at the session's URL ledger again.
    fn urls_changed(&self) {
        if let Some(autoui) = self.autoui.get_value() {
            autoui.urls_changed();
        }
    }

    fn id(&self) -> u64 {
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        id
    }

    fn push_item(&self, body: ChatBody) {
        let id = self.id();
        self.transcript.update(|items| items.push((id, ChatItem { id, body })));
    }

    /// Shows an MCP server's log entry in the console.
    pub fn server_log(&self, server: String, level: String, logger: Option<String>, message: String) {
        self.push_console(ConsoleRow::ServerLog { server, level, logger, message });
    }

    /// Shows a call a widget's source made in the console.
    pub fn refresh_log(&self, call: SourceCall) {
        self.push_console(ConsoleRow::Refresh { label: call.label, outcome: call.outcome });
    }

    fn push_console(&self, row: ConsoleRow) {
        let id = self.id();
        self.console.update(|rows| rows.push((id, row)));
    }
}

/// Folds a run's events into the UI signals.
struct UiSink {
    ctx: AgentCtx,
    streaming: RefCell<Option<ArcRwSignal<String>>>,
    calls: RefCell<HashMap<CallId, ArcRwSignal<CallRecord>>>,
}

impl UiSink {
    fn new(ctx: AgentCtx) -> UiSink {
        UiSink { ctx, streaming: RefCell::new(None), calls: RefCell::new(HashMap::new()) }
    }
}

impl EventSink for UiSink {
    fn emit(&self, event: AgentEvent) {
        let ctx = self.ctx;
        match event {
            AgentEvent::IterationStarted { .. } => {
                self.streaming.borrow_mut().take();
            }
            AgentEvent::TextStreamed { delta } => {
                let mut streaming = self.streaming.borrow_mut();
                match streaming.as_ref() {
                    Some(text) => text.update(|t| t.push_str(&delta)),
                    None => {
                        let text = ArcRwSignal::new(delta);
                        ctx.push_item(ChatBody::Assistant(text.clone()));
                        *streaming = Some(text);
                    }
                }
            }
            AgentEvent::ToolInputStreamed { call_id, name, parsed, .. } => {
                if let Some(parsed) = &parsed {
                    ctx.partial_inputs.update(|inputs| match inputs.iter_mut().find(|(call, _)| *call == call_id) {
                        Some((_, input)) => input.clone_from(parsed),
                        None => inputs.push((call_id.clone(), parsed.clone())),
                    });
                }
                if name.ends_with("widget_display") {
                    let widget = parsed.as_ref().and_then(|p| p.get("name")).and_then(Value::as_str).map(str::to_owned);
                    ctx.pending.update(|pending| match pending.iter_mut().find(|p| p.call_id == call_id) {
                        Some(existing) => {
                            if existing.widget != widget {
                                existing.widget = widget;
                            }
                        }
                        None => pending.push(Pending { call_id, widget }),
                    });
                }
            }
            AgentEvent::ToolCallStarted { record } => {
                self.streaming.borrow_mut().take();
                let signal = ArcRwSignal::new(record.clone());
                self.calls.borrow_mut().insert(record.id.clone(), signal.clone());
                ctx.push_item(ChatBody::Tool(signal.clone()));
                ctx.push_console(ConsoleRow::Call(signal));
            }
            AgentEvent::ToolCallFinished { record } => {
                ctx.urls_changed();
                ctx.pending.update(|pending| pending.retain(|p| p.call_id != record.id));
                ctx.partial_inputs.update(|inputs| inputs.retain(|(call, _)| *call != record.id));
                match self.calls.borrow().get(&record.id) {
                    Some(signal) => signal.set(record),
                    None => {
                        let signal = ArcRwSignal::new(record);
                        ctx.push_item(ChatBody::Tool(signal.clone()));
                        ctx.push_console(ConsoleRow::Call(signal));
                    }
                }
            }
            // A server whose tools were all offered from the start brings nothing new worth a line.
            AgentEvent::ServerActivated { server, tools, .. } if !tools.is_empty() => {
                let count = if tools.len() == 1 { "its tool is".to_owned() } else { format!("its {} tools are", tools.len()) };
                ctx.push_item(ChatBody::Note {
                    kind: NoteKind::Activated,
                    text: format!("Server \u{201c}{server}\u{201d} activated: {count} now offered to the model."),
                });
            }
            AgentEvent::ServerActivated { .. } => {}
            AgentEvent::RetryScheduled { attempt, delay_ms, reason } => {
                ctx.push_item(ChatBody::Note {
                    kind: NoteKind::Retry,
                    text: format!("{reason}; retrying in {:.1} s (attempt {attempt}).", f64::from(delay_ms) / 1000.0),
                });
                ctx.push_console(ConsoleRow::Retry { attempt, delay_ms, reason });
            }
            AgentEvent::IterationFinished { iteration, usage, cost_usd, request_bytes } => {
                ctx.push_console(ConsoleRow::Iteration { iteration, usage, cost_usd, request_bytes });
            }
            AgentEvent::ConversationAdvanced { snapshot } => {
                ctx.in_flight.set_value(Some(snapshot));
                ctx.revision.update(|r| *r += 1);
            }
            AgentEvent::RunStopped { reason, iterations, usage, cost_usd } => {
                ctx.pending.set(Vec::new());
                ctx.partial_inputs.set(Vec::new());
                if reason != StopReason::Completed {
                    ctx.push_item(ChatBody::Note { kind: NoteKind::Stopped, text: reason.describe() });
                }
                // A request the provider refused used nothing: no line for it.
                if usage != Usage::default() {
                    let requests = if iterations == 1 { "1 request".to_owned() } else { format!("{iterations} requests") };
                    let text = format!("{requests} \u{b7} {} \u{b7} {}", usage_text(&usage), cost_text(cost_usd));
                    ctx.push_item(ChatBody::Note { kind: NoteKind::Usage, text });
                }
                ctx.last_stop.set(Some(reason.clone()));
                ctx.push_console(ConsoleRow::Stopped { reason, iterations, usage, cost_usd });
            }
        }
    }
}

/// Rebuilds the transcript of a restored conversation: user text (without the context the app
/// added or what a view told the model), assistant text, and each tool call with its result.
fn transcript_from(messages: &[Message], next_id: &mut u64) -> Vec<(u64, ChatItem)> {
    let mut results: HashMap<&str, (String, bool)> = HashMap::new();
    for message in messages {
        for block in &message.content {
            if let ContentBlock::ToolResult { tool_use_id, content, is_error } = block {
                results.insert(tool_use_id, (joined_text(content), *is_error));
            }
        }
    }
    let mut items = Vec::new();
    let mut push = |body: ChatBody, items: &mut Vec<(u64, ChatItem)>| {
        let id = *next_id;
        *next_id += 1;
        items.push((id, ChatItem { id, body }));
    };
    for message in messages {
        for block in &message.content {
            match (message.role, block) {
                (Role::User, ContentBlock::Text { text }) if !text.starts_with("<context>") && !is_view_said(text) => {
                    push(ChatBody::User(text.clone()), &mut items)
                }
                (Role::Assistant, ContentBlock::Text { text }) if !text.trim().is_empty() => {
                    push(ChatBody::Assistant(ArcRwSignal::new(text.clone())), &mut items)
                }
                (Role::Assistant, ContentBlock::ToolUse { id, name, input }) => {
                    let (result, failed) = results.get(id.as_str()).cloned().unwrap_or_default();
                    let record = CallRecord {
                        id: CallId::new(id.clone()),
                        name: name.clone(),
                        target: None,
                        args: std::sync::Arc::new(input.clone()),
                        result_bytes: result.len(),
                        outcome: if failed {
                            CallOutcome::Failed { error: result.into() }
                        } else {
                            CallOutcome::Succeeded { result: result.into() }
                        },
                        elapsed_ms: 0,
                        guided: false,
                        truncated: false,
                    };
                    push(ChatBody::Tool(ArcRwSignal::new(record)), &mut items);
                }
                _ => {}
            }
        }
    }
    items
}

/// Runs `turn` on the session, folding its events into the chat and the console. The engine chunk
/// calls it, so the agent loop and everything it reaches come with that chunk. The session stays
/// borrowed for the whole run on purpose: `snapshot` reads the run's progress when it finds it
/// borrowed, and nothing else borrows it while a run is going.
#[allow(clippy::await_holding_refcell_ref)]
pub(crate) fn run_turn(
    ctx: AgentCtx,
    turn: UserTurn,
    settings: Settings,
    cancel: CancelToken,
) -> LocalBoxFuture<'static, ()> {
    Box::pin(async move {
        let Some(session) = ctx.session.get_value() else { return };
        let sink = UiSink::new(ctx);
        let mut session = session.borrow_mut();
        // The model profile sizes the run: a large window sees more data, a small one is not overrun.
        let summary = session.run_sized(turn, &settings, cancel, &sink).await;
        // The window Ollama reported shows in Settings as the profile's.
        if let Some(reported) = summary.reported_context {
            let known = ctx.settings.0.with_untracked(|s| s.reported_context.as_ref() == Some(&reported));
            if !known {
                ctx.settings.0.update(|s| s.reported_context = Some(reported));
            }
        }
    })
}

/// The agent's state, with the conversation (activated servers and results too) restored from the
/// last visit; the session itself comes with the engine.
pub fn provide_agent(
    settings: SettingsCtx,
    canvas: CanvasCtx,
    engine: EngineCtx,
    restored: SessionSnapshot,
) -> AgentCtx {
    let mut next_id = 0;
    let mut transcript = transcript_from(&restored.messages, &mut next_id);
    let interrupted = restored.in_flight;
    if interrupted {
        let text = StopReason::Interrupted.describe();
        transcript.push((next_id, ChatItem { id: next_id, body: ChatBody::Note { kind: NoteKind::Stopped, text } }));
        next_id += 1;
    }
    let ctx = AgentCtx {
        session: StoredValue::new_local(None),
        autoui: StoredValue::new(None),
        settled: StoredValue::new_local(restored),
        results: StoredValue::new_local(None),
        in_flight: StoredValue::new_local(None),
        interrupted: StoredValue::new(interrupted),
        engine,
        unsent: RwSignal::new(None),
        settings,
        canvas,
        transcript: RwSignal::new(transcript),
        console: RwSignal::new(Vec::new()),
        pending: RwSignal::new(Vec::new()),
        partial_inputs: RwSignal::new(Vec::new()),
        running: RwSignal::new(false),
        cancel: StoredValue::new_local(None),
        next_id: StoredValue::new(next_id),
        revision: RwSignal::new(0),
        queued: StoredValue::new(None),
        last_stop: RwSignal::new(interrupted.then_some(StopReason::Interrupted)),
        finished_runs: RwSignal::new(0),
        view_context: StoredValue::new(Vec::new()),
    };
    provide_context(ctx);
    ctx
}

pub fn use_agent() -> AgentCtx {
    expect_context::<AgentCtx>()
}
