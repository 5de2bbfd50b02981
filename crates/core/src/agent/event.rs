//! `AgentEvent`, the closed set of things a run reports while it goes, and the sink that receives them.
//! The chat, the console and the canvas placeholders are folds over this stream.

use serde::Serialize;
use serde_json::Value;

use crate::agent::stop::StopReason;
use crate::dispatch::record::CallRecord;
use crate::ids::{CallId, ServerId};
use crate::agent::session::SessionSnapshot;
use crate::llm::model::Usage;
use crate::tool_name::Protocol;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum AgentEvent {
    /// An LLM request is about to be sent with `tools` tools on offer.
    IterationStarted { iteration: u32, max: u32, tools: usize },
    /// A piece of the assistant's text, as it arrives.
    TextStreamed { delta: String },
    /// A piece of a tool call's JSON arguments as the model writes them. `parsed` is the best-effort
    /// value of everything received so far, refreshed as the input grows (so a canvas placeholder can
    /// show which widget is coming before its params are complete).
    ToolInputStreamed { call_id: CallId, name: String, delta: String, parsed: Option<Value> },
    /// A tool call is about to run; the record's outcome is `running`.
    ToolCallStarted { record: CallRecord },
    /// The call ended; the record holds its result or error, elapsed time and sizes.
    ToolCallFinished { record: CallRecord },
    /// A server's first real call added its tools to those offered to the model.
    ServerActivated { server: ServerId, protocol: Protocol, tools: Vec<String> },
    /// The LLM request failed transiently and will be retried after `delay_ms`.
    RetryScheduled { attempt: u32, delay_ms: u32, reason: String },
    /// An LLM reply and its tool calls are done.
    IterationFinished { iteration: u32, usage: Usage, cost_usd: Option<f64>, request_bytes: usize },
    /// The session so far (marked in flight), at a point where its conversation can be sent as it
    /// is: it ends with the person's message or with the results of the step that just finished.
    /// What to keep if the page goes away before the run ends.
    ConversationAdvanced { snapshot: SessionSnapshot },
    /// The run is over.
    RunStopped { reason: StopReason, iterations: u32, usage: Usage, cost_usd: Option<f64> },
}

/// Receives events as they happen. Takes `&self` so that UI signals and test recorders can share it.
pub trait EventSink {
    fn emit(&self, event: AgentEvent);
}

/// Collects events, for tests and for callers that want the whole run at once.
impl EventSink for std::cell::RefCell<Vec<AgentEvent>> {
    fn emit(&self, event: AgentEvent) {
        self.borrow_mut().push(event);
    }
}
