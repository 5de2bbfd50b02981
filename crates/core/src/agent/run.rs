//! The agent loop: send the conversation (kept within the request budget) with the offered tools,
//! stream the reply, dispatch its tool calls in order, append their results, repeat until the model
//! stops calling tools (or says nothing), Stop is pressed, the iteration cap is reached or the
//! provider fails.

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::Value;

use crate::agent::budget::{DEFAULT_REQUEST_BUDGET, effective_budget, leave_out_oldest};
use crate::agent::buffer::ResultBuffer;
use crate::agent::context::{Economy, shown};
use crate::agent::event::{AgentEvent, EventSink};
use crate::agent::frame::{frame_line, is_view_said};
use crate::agent::prompt::build_system_prompt;
use crate::agent::session::{AgentConfig, AgentSession, UserTurn};
use crate::agent::stop::StopReason;
use crate::approval::{declined_message, refused_message, unattended_message};
use crate::autoui::AutoUi;
use crate::cancel::CancelToken;
use crate::dispatch::catalog::{Catalog, ToolRole};
use crate::dispatch::pseudo::uri_of;
use crate::dispatch::record::CallRecord;
use crate::dispatch::{DispatchError, Dispatcher, Executed, PreparedCall};
use crate::ids::{CallId, ServerId};
use crate::llm::cost::estimate_at;
use crate::llm::message::{ContentBlock, Message, Role};
use crate::llm::model::{ChatRequest, FinishReason, LlmError, MalformedInput, ModelEvent, ToolDef, Usage};
use crate::llm::partial_json::parse_prefix;
use crate::provenance::READ_RESOURCE;
use crate::settings::{ReportedContext, Settings};
use crate::tool::ResultPart;
use crate::tool_name::Protocol;

/// What an empty turn tells the model when the conversation ends with its own reply.
const GO_ON: &str = "Your last reply stopped before it was complete. Continue it from where it stopped.";

/// What a run did, also reported piecewise through events.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    pub reason: StopReason,
    pub iterations: u32,
    pub usage: Usage,
    pub cost_usd: Option<f64>,
    /// The text of the model's last reply.
    pub text: String,
    pub calls: Vec<CallRecord>,
    /// The context window the model's server reported, which sized this run (`run_sized`).
    pub reported_context: Option<ReportedContext>,
}

impl AgentSession {
    /// Runs one user turn sized by the model profile, as the app does: with `limits_from_profile`,
    /// the request budget, tool budget, result limit and iteration cap derive from the context window
    /// (the one the model's server reports, unless the person set one); without, the fixed settings
    /// apply, with the default request budget and no tool budget.
    pub async fn run_sized(
        &mut self,
        turn: UserTurn,
        settings: &Settings,
        cancel: CancelToken,
        sink: &dyn EventSink,
    ) -> RunSummary {
        let mut settings = settings.clone();
        if settings.limits_from_profile {
            let reported = self.model.reported_context(&settings, &cancel).await;
            settings.report_context(reported);
        }
        let limits = settings.derived_limits();
        self.set_request_budget(Some(limits.map_or(DEFAULT_REQUEST_BUDGET, |limits| limits.request_budget)));
        self.set_tool_budget(limits.map(|limits| limits.tool_budget));
        let summary = self.run(turn, &settings.effective(), cancel, sink).await;
        RunSummary { reported_context: settings.reported_context, ..summary }
    }

    /// Runs one user turn to its end. Cancelling `cancel` (Stop) aborts the LLM request or the tool
    /// calls in flight; the conversation stays valid for the next turn either way.
    pub async fn run(
        &mut self,
        turn: UserTurn,
        settings: &Settings,
        cancel: CancelToken,
        sink: &dyn EventSink,
    ) -> RunSummary {
        let catalog = self.dispatcher.catalog();
        let system = build_system_prompt(&catalog, &settings.system_prompt_prefix);
        self.dispatcher.begin_run();
        self.output = OutputLimit::of(settings);
        for block in &turn.content {
            if let ContentBlock::Text { text } = block
                && !is_view_said(text)
            {
                self.urls.record_words(text);
            }
        }
        let message = match turn.into_message() {
            // Retry after a reply that was cut short (Stop, a failed request): models that take no
            // prefill (Claude 4.6) refuse a conversation that ends with their own message.
            None if self.messages.last().is_some_and(|message| message.role == Role::Assistant) => {
                UserTurn::default().with_context(GO_ON).into_message()
            }
            message => message,
        };
        if let Some(message) = message {
            self.messages.push(message);
            sink.emit(AgentEvent::ConversationAdvanced { snapshot: self.in_flight_snapshot() });
        }
        let max = settings.max_iterations.max(1);
        let mut summary = RunSummary {
            reason: StopReason::Completed,
            iterations: 0,
            usage: Usage::default(),
            cost_usd: Some(0.0),
            text: String::new(),
            calls: Vec::new(),
            reported_context: None,
        };
        summary.reason = loop {
            if cancel.is_cancelled() {
                break StopReason::Cancelled;
            }
            if summary.iterations == max {
                break StopReason::IterationLimit { limit: max };
            }
            summary.iterations += 1;
            let context = RunContext { catalog: &catalog, system: &system, settings, cancel: &cancel, sink };
            match self.iterate(&context, &mut summary).await {
                Some(reason) => break reason,
                None if cancel.is_cancelled() => break StopReason::Cancelled,
                None => {}
            }
        };
        let never_ran = match &summary.reason {
            StopReason::Cancelled => "cancelled by the user".to_owned(),
            other => format!("the call never ran: {}", other.describe()),
        };
        self.dispatcher.end_early_views(&never_ran).await;
        sink.emit(AgentEvent::RunStopped {
            reason: summary.reason.clone(),
            iterations: summary.iterations,
            usage: summary.usage,
            cost_usd: summary.cost_usd,
        });
        summary
    }

    /// One LLM call and its tool calls; `Some` when the run ends here.
    async fn iterate(&mut self, context: &RunContext<'_>, summary: &mut RunSummary) -> Option<StopReason> {
        let RunContext { catalog, system, settings, cancel, sink } = *context;
        let iteration = summary.iterations;
        let tools = self.dispatcher.tool_defs(catalog);
        let condensed = self.fit_budget(context, &tools);
        sink.emit(AgentEvent::IterationStarted { iteration, max: settings.max_iterations.max(1), tools: tools.len() });
        let streams = Streams::new(sink, &self.dispatcher, catalog);
        let forward = |event: ModelEvent| streams.forward(event);
        let request = ChatRequest {
            system,
            messages: condensed.as_deref().unwrap_or(&self.messages),
            tools: &tools,
            max_output_tokens: self.output.current,
        };
        let reply = match self.model.complete(request, settings, cancel.clone(), &forward).await {
            Ok(reply) => reply,
            Err(LlmError::Cancelled) => {
                self.keep_cut_short(streams.text.take());
                return Some(StopReason::Cancelled);
            }
            Err(error) => {
                self.keep_cut_short(streams.text.take());
                let message = match error.advice() {
                    Some(advice) => format!("{}. {advice}", error.to_string().trim_end_matches('.')),
                    None => error.to_string(),
                };
                return Some(StopReason::ProviderFailed { message, settings: error.fixed_in_settings() });
            }
        };
        let cost = estimate_at(settings.profile().0.prices, &settings.base_url, &reply.usage);
        summary.usage += reply.usage;
        summary.cost_usd = summary.cost_usd.zip(cost).map(|(total, more)| total + more);
        summary.text = reply_text(&reply.content);
        let calls: Vec<(String, String, Value)> = reply
            .content
            .iter()
            .filter_map(|block| match block {
                ContentBlock::ToolUse { id, name, input } => Some((id.clone(), name.clone(), input.clone())),
                _ => None,
            })
            .collect();
        let finished = |sink: &dyn EventSink| {
            sink.emit(AgentEvent::IterationFinished {
                iteration,
                usage: reply.usage,
                cost_usd: cost,
                request_bytes: reply.request_bytes,
            });
        };
        let stop = match reply.finish {
            FinishReason::Refusal => Some(StopReason::Refused),
            FinishReason::ContentFilter => Some(StopReason::Filtered),
            FinishReason::MaxTokens if calls.is_empty() => Some(StopReason::OutputCut { limit: self.output.current }),
            _ => None,
        };
        if let Some(stop) = stop {
            // Calls the run will not answer are left out, so the conversation stays valid to send.
            let text: Vec<ContentBlock> =
                reply.content.into_iter().filter(|block| matches!(block, ContentBlock::Text { .. })).collect();
            if !text.is_empty() {
                self.messages.push(Message { role: Role::Assistant, content: text });
            }
            finished(sink);
            return Some(stop);
        }
        if calls.is_empty() && summary.text.trim().is_empty() && reply.finish != FinishReason::PauseTurn {
            // Nothing is stored: providers refuse an empty assistant message, and a Retry asks again.
            finished(sink);
            return Some(StopReason::EmptyReply);
        }
        if !reply.content.is_empty() {
            self.messages.push(Message { role: Role::Assistant, content: reply.content });
        }
        if calls.is_empty() {
            finished(sink);
            // A paused turn goes on: the next request carries the reply so far, and the model resumes it.
            return (reply.finish != FinishReason::PauseTurn).then_some(StopReason::Completed);
        }
        let cut = (reply.finish == FinishReason::MaxTokens && !reply.malformed.is_empty()).then(|| {
            let limit = self.output.current;
            (limit, self.output.raise_once())
        });
        let results = self.run_calls(context, calls, &reply.malformed, cut, summary).await;
        self.messages.push(Message { role: Role::User, content: results });
        if self.config.compress_history {
            economy(&self.config, &self.results, catalog).compress_history(&mut self.messages);
        }
        sink.emit(AgentEvent::ConversationAdvanced { snapshot: self.in_flight_snapshot() });
        finished(sink);
        None
    }

    /// Keeps the text the person saw stream before the reply was cut short (Stop, a failed request):
    /// a reload still shows it, and the next request shows the model what it already said.
    fn keep_cut_short(&mut self, streamed: String) {
        if !streamed.trim().is_empty() {
            self.messages.push(Message::assistant_text(streamed));
        }
    }

    /// Compresses the conversation further when the next request would exceed the budget; when that
    /// is not enough, returns the messages to send instead: the conversation with its oldest steps
    /// left out (the session keeps them).
    fn fit_budget(&mut self, context: &RunContext<'_>, tools: &[ToolDef]) -> Option<Vec<Message>> {
        let RunContext { catalog, system, settings, .. } = *context;
        let configured = self.config.request_budget.filter(|_| self.config.compress_history)?;
        let budget = effective_budget(configured, settings.result_limit);
        let max_output_tokens = self.output.current;
        let model = &self.model;
        let measure =
            |messages: &[Message]| model.request_bytes(&ChatRequest { system, messages, tools, max_output_tokens }, settings);
        let size = measure(&self.messages);
        if size <= budget {
            return None;
        }
        economy(&self.config, &self.results, catalog).fit(&mut self.messages, size - budget);
        leave_out_oldest(&self.messages, budget, measure)
    }

    /// Dispatches the calls in the order the model wrote them, running neighbouring independent
    /// calls (data reads together, recipe reads together) concurrently while canvas operations keep
    /// their order, and
    /// returns one tool_result per call in the model's order (calls left when Stop is pressed get a
    /// "cancelled" result). `cut` is the output limit that cut the reply off and the next reply's,
    /// when it did.
    async fn run_calls(
        &mut self,
        context: &RunContext<'_>,
        calls: Vec<(String, String, Value)>,
        malformed: &[MalformedInput],
        cut: Option<(u32, u32)>,
        summary: &mut RunSummary,
    ) -> Vec<ContentBlock> {
        let RunContext { catalog, cancel, sink, .. } = *context;
        let prepared: Vec<PreparedCall> = calls
            .into_iter()
            .map(|(id, name, input)| {
                let call_id = CallId::new(id.clone());
                match (malformed.iter().find(|bad| bad.id == id), cut) {
                    (Some(bad), Some((limit, next))) => {
                        self.dispatcher.prepare_cut_off(call_id, &name, &bad.raw, limit, next)
                    }
                    (Some(bad), None) => self.dispatcher.prepare_malformed(call_id, &name, &bad.raw),
                    (None, _) => self.dispatcher.prepare(catalog, call_id, &name, input),
                }
            })
            .collect();
        let mut results = Vec::with_capacity(prepared.len());
        let mut pending = prepared.into_iter().peekable();
        while let Some(first) = pending.next() {
            let class = self.dispatcher.concurrency_class(catalog, &first);
            let mut batch = vec![first];
            if class.is_some() {
                while let Some(next) = pending.next_if(|call| self.dispatcher.concurrency_class(catalog, call) == class) {
                    batch.push(next);
                }
            }
            if cancel.is_cancelled() {
                results.extend(batch.into_iter().map(|call| cancelled_result(call.id.as_str())));
                continue;
            }
            let ids: Vec<String> = batch.iter().map(|call| call.id.as_str().to_owned()).collect();
            for call in &batch {
                sink.emit(AgentEvent::ToolCallStarted { record: self.dispatcher.running(catalog, call) });
            }
            let executed = self.dispatcher.execute_together(catalog, batch, cancel).await;
            for (id, executed) in ids.into_iter().zip(executed) {
                results.push(self.conclude(context, id, executed, summary));
            }
        }
        results
    }

    /// Keeps a call's full result, shows the model a part of it within the result limit, and
    /// reports the call as finished.
    fn conclude(
        &mut self,
        context: &RunContext<'_>,
        id: String,
        executed: Executed,
        summary: &mut RunSummary,
    ) -> ContentBlock {
        let RunContext { catalog, settings, sink, .. } = *context;
        let remote = data_server(catalog, &executed);
        if let Some(activation) = executed.activation {
            sink.emit(AgentEvent::ServerActivated {
                server: activation.server,
                protocol: activation.protocol,
                tools: activation.tools,
            });
        }
        match &remote {
            Some(server) => self.results.insert_from(&id, executed.text.clone(), server.clone()),
            None => self.results.insert(&id, executed.text.clone()),
        }
        // The canvas server's results echo what the model wrote: they are not data.
        if executed.record.target.as_ref().is_some_and(|target| target.server.as_str() != AutoUi::NAME) {
            self.urls.record_data(&executed.text);
        }
        // A server's image resources become widget images by their URI (`provenance`).
        let read_resource = executed.record.target.as_ref().is_some_and(|target| target.tool == READ_RESOURCE);
        if let (true, false, Some(uri)) = (read_resource, executed.result.is_error, uri_of(&executed.record.args)) {
            self.urls.record_resource_images(&uri, &executed.result.content);
        }
        let mut record = executed.record;
        let (texts, images): (Vec<ResultPart>, Vec<ResultPart>) =
            executed.result.content.into_iter().partition(|part| matches!(part, ResultPart::Text { .. }));
        let mut content: Vec<ResultPart> = match executed.role {
            // `recall` pages results itself (cutting its answer again would hide its page marker),
            // and a remote server's result comes back with that server's frame line as a part.
            Some(ToolRole::Recall) => texts,
            _ => {
                let shown = shown(&executed.text, settings.result_limit.max(1), &id);
                record.truncated = shown.truncated;
                let text = shown.text.unwrap_or_else(|| executed.text.to_string());
                // A remote server's result is named as that server's data, so text in it that
                // reads like an instruction is seen as coming from there (the system prompt says
                // what that means).
                let frame = remote.as_ref().map(|server| ResultPart::Text { text: frame_line(server) });
                frame.into_iter().chain([ResultPart::Text { text }]).collect()
            }
        };
        content.extend(images);
        summary.calls.push(record.clone());
        sink.emit(AgentEvent::ToolCallFinished { record });
        ContentBlock::ToolResult { tool_use_id: id, content, is_error: executed.result.is_error }
    }
}

/// The remote server whose data a call's result is: the server of a remote call, unless the
/// result is one of the answers this app gives when the call never reached it (the person declined
/// it or set it to "never", nobody could approve it, Stop), which hold none of its text. Errors are
/// its data too: an `isError` result, or a JSON-RPC error's message, is the server's own text.
fn data_server(catalog: &Catalog, executed: &Executed) -> Option<ServerId> {
    let target = executed.record.target.as_ref().filter(|target| target.protocol == Protocol::Mcp)?;
    let name = catalog
        .servers()
        .iter()
        .find(|server| server.id == target.server && server.protocol == Protocol::Mcp)
        .map_or_else(|| target.server.to_string(), |server| server.name.clone());
    let tool = &target.tool;
    let never_reached = [
        declined_message(tool, &name),
        refused_message(tool, &name),
        unattended_message(tool, &name),
        format!("Error: {}", DispatchError::Cancelled),
    ];
    let app_answer = executed.result.is_error && never_reached.iter().any(|answer| answer.as_str() == &*executed.text);
    (!app_answer).then(|| target.server.clone())
}

fn cancelled_result(id: &str) -> ContentBlock {
    ContentBlock::ToolResult {
        tool_use_id: id.to_owned(),
        content: vec![ResultPart::Text { text: "Error: cancelled by the user before this call ran".to_owned() }],
        is_error: true,
    }
}

/// The output token limit of a run's requests: the profile's, raised once (doubled, up to what the
/// model allows) after a tool call was cut off by it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct OutputLimit {
    current: u32,
    ceiling: u32,
    raised: bool,
}

impl OutputLimit {
    fn of(settings: &Settings) -> OutputLimit {
        let profile = settings.profile().0;
        OutputLimit { current: profile.output_tokens.max(1), ceiling: profile.max_output_tokens, raised: false }
    }

    /// The limit for the next request.
    fn raise_once(&mut self) -> u32 {
        if !self.raised {
            self.raised = true;
            self.current = self.current.saturating_mul(2).min(self.ceiling).max(self.current);
        }
        self.current
    }
}

/// What every step of one run shares.
#[derive(Clone, Copy)]
struct RunContext<'a> {
    catalog: &'a Catalog,
    system: &'a str,
    settings: &'a Settings,
    cancel: &'a CancelToken,
    sink: &'a dyn EventSink,
}

fn economy<'a>(config: &AgentConfig, results: &'a ResultBuffer, catalog: &'a Catalog) -> Economy<'a> {
    Economy { keep_recent: config.keep_recent_iterations, preview: config.preview_chars, buffer: results, catalog }
}

fn reply_text(content: &[ContentBlock]) -> String {
    let texts: Vec<&str> = content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    texts.join("\n")
}

/// Turns model stream events into agent events, keeping each tool call's partial input and
/// re-parsing it as it grows (every 1/8 of its size at least, so a long input costs linear time).
struct Streams<'a> {
    sink: &'a dyn EventSink,
    /// Where a call of a tool that has a view gets its view as soon as it starts.
    dispatcher: &'a Dispatcher,
    catalog: &'a Catalog,
    text: RefCell<String>,
    inputs: RefCell<HashMap<String, StreamedInput>>,
}

struct StreamedInput {
    name: String,
    json: String,
    parsed_len: usize,
}

impl<'a> Streams<'a> {
    fn new(sink: &'a dyn EventSink, dispatcher: &'a Dispatcher, catalog: &'a Catalog) -> Streams<'a> {
        Streams { sink, dispatcher, catalog, text: RefCell::new(String::new()), inputs: RefCell::new(HashMap::new()) }
    }

    fn forward(&self, event: ModelEvent) {
        let event = match event {
            ModelEvent::TextDelta(delta) => {
                self.text.borrow_mut().push_str(&delta);
                AgentEvent::TextStreamed { delta }
            }
            ModelEvent::ToolUseStarted { id, name } => {
                self.dispatcher.place_view_early(self.catalog, &CallId::new(id.clone()), &name);
                let input = StreamedInput { name: name.clone(), json: String::new(), parsed_len: 0 };
                self.inputs.borrow_mut().insert(id.clone(), input);
                AgentEvent::ToolInputStreamed { call_id: CallId::new(id), name, delta: String::new(), parsed: None }
            }
            ModelEvent::ToolInputDelta { id, delta } => {
                let mut inputs = self.inputs.borrow_mut();
                let Some(input) = inputs.get_mut(&id) else { return };
                input.json.push_str(&delta);
                let due = input.json.len() - input.parsed_len >= (input.parsed_len / 8).max(16);
                let parsed = due.then(|| parse_prefix(&input.json)).flatten();
                if due {
                    input.parsed_len = input.json.len();
                }
                let name = input.name.clone();
                drop(inputs);
                AgentEvent::ToolInputStreamed { call_id: CallId::new(id), name, delta, parsed }
            }
            ModelEvent::RetryScheduled { attempt, delay_ms, reason } => {
                AgentEvent::RetryScheduled { attempt, delay_ms, reason }
            }
        };
        self.sink.emit(event);
    }
}
