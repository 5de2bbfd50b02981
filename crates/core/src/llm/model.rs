//! The seam between the agent loop and an LLM: a neutral request, streamed events, the reply and its errors.

use std::ops::AddAssign;
use std::sync::Arc;

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cancel::CancelToken;
use crate::llm::message::{ContentBlock, Message};
use crate::settings::Settings;

/// A tool as the model sees it: the exposed (provider-safe) name, its description and input schema.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolDef {
    pub name: String,
    pub description: String,
    /// Always an object schema (`"type": "object"`), shared rather than cloned between iterations.
    pub input_schema: Arc<Value>,
}

/// One call to the model, borrowing the conversation so large results are never copied to send them.
#[derive(Clone, Copy, Debug)]
pub struct ChatRequest<'a> {
    pub system: &'a str,
    pub messages: &'a [Message],
    pub tools: &'a [ToolDef],
    pub max_output_tokens: u32,
}

/// What arrives while the reply streams.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelEvent {
    TextDelta(String),
    ToolUseStarted {
        id: String,
        name: String,
    },
    /// A piece of the tool call's JSON arguments; the pieces concatenate to the full input.
    ToolInputDelta {
        id: String,
        delta: String,
    },
    /// The request failed with a transient error and will be sent again after `delay_ms`.
    RetryScheduled {
        attempt: u32,
        delay_ms: u32,
        reason: String,
    },
}

/// Token counts of one model call. `input_tokens` excludes cached tokens, which are counted apart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_creation_input_tokens: u64,
    pub cache_read_input_tokens: u64,
}

impl AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
        self.cache_creation_input_tokens += other.cache_creation_input_tokens;
        self.cache_read_input_tokens += other.cache_read_input_tokens;
    }
}

/// Why the model stopped generating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FinishReason {
    EndTurn,
    ToolUse,
    /// The output token limit cut the reply; a tool call in progress has incomplete arguments.
    MaxTokens,
    /// The model declined to answer (Anthropic `refusal`).
    Refusal,
    /// The provider's content filter stopped the reply (OpenAI `content_filter`).
    ContentFilter,
    /// The provider paused a long turn; sending the reply back lets the model go on (Anthropic `pause_turn`).
    PauseTurn,
    Other(String),
}

/// A tool call whose arguments were not a JSON object (cut off by the token limit, or malformed).
#[derive(Clone, Debug, PartialEq)]
pub struct MalformedInput {
    pub id: String,
    pub raw: String,
}

/// The complete reply of one model call.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelReply {
    /// Text and tool_use blocks in the order the model produced them.
    pub content: Vec<ContentBlock>,
    pub finish: FinishReason,
    pub usage: Usage,
    /// Tool calls whose `input` in `content` was replaced by `{}` because their arguments did not parse.
    pub malformed: Vec<MalformedInput>,
    /// Size of the request body that produced this reply.
    pub request_bytes: usize,
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LlmError {
    #[error("no API key is set for {provider}: add one in settings")]
    MissingKey { provider: String },
    /// The provider answered with an error status (or an error event mid-stream), in its own words.
    #[error("{provider} answered {status}: {message}")]
    Api { provider: String, status: u16, message: String, retry_after_ms: Option<u32> },
    /// The account has no credit or quota left (OpenAI's `insufficient_quota`, which comes as a 429):
    /// unlike a rate limit, no wait lifts it.
    #[error("{provider} refused the request because the account has no credit or quota left: {message}")]
    OutOfCredit { provider: String, message: String },
    #[error("could not reach {provider} at {url}: {detail}; {hint}")]
    Unreachable { provider: String, url: String, detail: String, hint: String },
    #[error("the reply from {provider} could not be read: {detail}")]
    Stream { provider: String, detail: String },
    /// The provider sent nothing for longer than the configured limit.
    #[error("{provider} sent nothing for {seconds} s {phase} (the limit set in settings)")]
    TimedOut { provider: String, seconds: u32, phase: &'static str },
    /// The key would go unencrypted to another machine, and the person has not agreed to that yet.
    #[error(
        "your API key would be sent unencrypted (plain http) to {host}, where anyone on the network between can read it: \
         confirm it in the chat, or use https"
    )]
    CleartextKey { host: String },
    #[error("cancelled")]
    Cancelled,
}

impl LlmError {
    /// Rate limits (429, but not an account out of credit), server errors (5xx), Anthropic's
    /// overload (529) and a silent provider are worth another try.
    pub fn is_retryable(&self) -> bool {
        match self {
            LlmError::Api { status, .. } => *status == 429 || (500..=599).contains(status),
            LlmError::TimedOut { .. } => true,
            _ => false,
        }
    }

    /// Whether the person fixes this in the settings: a missing or refused key, an account out of
    /// credit (another key or provider), a model or base URL the provider does not know, or the
    /// silence limit.
    pub fn fixed_in_settings(&self) -> bool {
        match self {
            LlmError::MissingKey { .. } | LlmError::OutOfCredit { .. } | LlmError::TimedOut { .. } => true,
            LlmError::Api { status, .. } => matches!(status, 401..=404),
            _ => false,
        }
    }

    /// What the person can do about a provider's refusal, where its status tells: the sentence that
    /// follows the provider's own words when a run stops on it (`None` where they say it all).
    pub fn advice(&self) -> Option<String> {
        match self {
            LlmError::OutOfCredit { .. } => Some(
                "Check the account's plan and billing with the provider (add credit or raise its limit), \
                 or choose another provider in Settings: retrying will not help until then."
                    .to_owned(),
            ),
            // A wait longer than the retry cap is not made: say what the provider asked for, never
            // that the limit held after waiting.
            LlmError::Api { status: 429, retry_after_ms: Some(asked), .. } if *asked > 0 => Some(format!(
                "The provider is limiting requests and asked to wait {}: press Retry after that.",
                wait_in_words(*asked)
            )),
            LlmError::Api { status, .. } => status_advice(*status).map(str::to_owned),
            _ => None,
        }
    }
}

/// What a refusal's status alone says to do.
fn status_advice(status: u16) -> Option<&'static str> {
    Some(match status {
        401 => "The provider refused the API key: check it in Settings.",
        402 => "The provider's account has run out of credit: top it up, or choose another provider in Settings.",
        403 => "The key may not use this model or endpoint: check the key and the model in Settings.",
        404 => "Check the model's name and the base URL in Settings.",
        413 => "The request was too large for the provider: start a new chat, or ask for less data at a time.",
        429 => "The provider is limiting requests and still was after waiting: wait a minute, then press Retry.",
        500..=599 => "The provider has a problem on its side: press Retry in a moment.",
        _ => return None,
    })
}

/// A wait as a person says it: "1 second", "20 seconds", "about 2 minutes", "about 3 hours".
fn wait_in_words(ms: u32) -> String {
    let count = |n: u32, unit: &str| if n == 1 { format!("1 {unit}") } else { format!("{n} {unit}s") };
    let seconds = ms.div_ceil(1_000);
    if seconds < 60 {
        return count(seconds, "second");
    }
    let minutes = (seconds + 30) / 60;
    if minutes < 60 {
        return format!("about {}", count(minutes, "minute"));
    }
    format!("about {}", count((minutes + 30) / 60, "hour"))
}

/// Tool arguments as streamed by a provider, as a JSON object; an empty string is a call without arguments.
/// `None` when they do not parse to an object (cut off by the token limit, or malformed).
pub(crate) fn parse_tool_input(json: &str) -> Option<Value> {
    if json.trim().is_empty() {
        return Some(Value::Object(Default::default()));
    }
    serde_json::from_str::<Value>(json).ok().filter(Value::is_object)
}

/// An LLM that answers a conversation. The real one speaks HTTP (`llm::http::HttpChatModel`);
/// tests script one. `events` receives deltas as they arrive; the reply is returned at the end.
pub trait ChatModel {
    /// Bytes of the body `complete` sends for `request`: what the agent keeps within its request budget.
    fn request_bytes(&self, request: &ChatRequest<'_>, settings: &Settings) -> usize;

    fn complete<'a>(
        &'a self,
        request: ChatRequest<'a>,
        settings: &'a Settings,
        cancel: CancelToken,
        events: &'a dyn Fn(ModelEvent),
    ) -> LocalBoxFuture<'a, Result<ModelReply, LlmError>>;

    /// The context window the model's server reports for `settings.model` (Ollama's `/api/show`),
    /// when it has a way to say; a run is sized by it when the person set none.
    fn reported_context<'a>(&'a self, _settings: &'a Settings, _cancel: &'a CancelToken) -> LocalBoxFuture<'a, Option<u32>> {
        Box::pin(async { None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_is_said_in_the_unit_a_person_would_use() {
        assert_eq!(wait_in_words(500), "1 second");
        assert_eq!(wait_in_words(20_000), "20 seconds");
        assert_eq!(wait_in_words(60_000), "about 1 minute");
        assert_eq!(wait_in_words(120_000), "about 2 minutes");
        assert_eq!(wait_in_words(3_600_000), "about 1 hour");
        assert_eq!(wait_in_words(u32::MAX), "about 1193 hours");
    }
}
