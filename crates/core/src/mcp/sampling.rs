//! Sampling: a server asks this client's model for a completion (`sampling/createMessage`). Never
//! automatic: [`ModelSampler`] shows the person what the server wants to ask, which model would
//! answer and what it may cost ([`SamplingReview`]), and only the request they approve (perhaps
//! edited) goes to the configured provider. Without a key the server is told so at once.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use serde_json::Value;

use crate::cancel::CancelToken;
use crate::llm::cost::estimate_at;
use crate::llm::message::{ContentBlock, Message, Role};
use crate::llm::model::{ChatModel, ChatRequest, FinishReason, LlmError, Usage};
use crate::llm::{anthropic, ollama, openai};
use crate::mcp::jsonrpc::{INTERNAL_ERROR, INVALID_PARAMS};
use crate::mcp::model::sampling::{CreateMessageParams, CreateMessageResult, SamplingContent, SamplingRole, TextContent};
use crate::settings::{ProviderKind, Settings};

/// The error code the specification's example gives a request the person rejected.
pub const USER_REJECTED: i64 = -1;

/// Rough tokens per character of English text, for an estimate shown before anything is sent.
const CHARS_PER_TOKEN: usize = 4;
/// What an image is counted as in the estimate (about the most a provider charges for one).
const TOKENS_PER_IMAGE: u64 = 1_600;

/// What the server wants the model asked.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplingRequest {
    /// The server asking, as the hub names it.
    pub server: String,
    pub system_prompt: Option<String>,
    pub messages: Vec<Message>,
    /// The most output tokens the server wants.
    pub max_tokens: u32,
    /// The model names the server would prefer, as hints only: the person's model answers.
    pub model_hints: Vec<String>,
}

impl SamplingRequest {
    /// The text of the last user message: what the person may edit before approving.
    pub fn last_user_text(&self) -> String {
        self.last_user().map(text_of).unwrap_or_default()
    }

    /// The same request with the last user message's text replaced by `text` (its images kept).
    pub fn with_last_user_text(mut self, text: &str) -> SamplingRequest {
        let position = self.messages.iter().rposition(|message| message.role == Role::User);
        match position {
            Some(index) => {
                let message = &mut self.messages[index];
                message.content.retain(|block| !matches!(block, ContentBlock::Text { .. }));
                message.content.insert(0, ContentBlock::Text { text: text.to_owned() });
            }
            None => self.messages.push(Message::user_text(text)),
        }
        self
    }

    fn last_user(&self) -> Option<&Message> {
        self.messages.iter().rev().find(|message| message.role == Role::User)
    }
}

/// What the person is shown before anything is sent.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplingReview {
    pub request: SamplingRequest,
    /// The model that would answer (the person's, whatever the server hinted).
    pub model: String,
    pub provider: String,
    pub estimate: CostEstimate,
}

/// An upper bound: the input as counted from its characters, and every output token the server allows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostEstimate {
    pub input_tokens: u64,
    pub max_output_tokens: u64,
    /// `None` when the model's price is unknown; `Some(0.0)` for a model on this machine.
    pub usd: Option<f64>,
}

impl CostEstimate {
    /// "about 40 input tokens + up to 100 output tokens, at most $0.0016".
    pub fn describe(&self) -> String {
        let tokens = format!("about {} input tokens + up to {} output tokens", self.input_tokens, self.max_output_tokens);
        match self.usd {
            Some(0.0) => format!("{tokens}, free (a model on this machine)"),
            Some(usd) => format!("{tokens}, at most ${usd:.4}"),
            None => format!("{tokens}, price unknown for this model"),
        }
    }
}

/// The model's answer, as the server gets it.
#[derive(Clone, Debug, PartialEq)]
pub struct SampledReply {
    pub text: String,
    pub model: String,
    pub stop_reason: Option<String>,
}

/// Why a sampling request got no answer; the server receives it as a JSON-RPC error.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SamplingError {
    #[error("malformed sampling request: {0}")]
    Malformed(String),
    #[error("the sampling request holds {0} content, which this client cannot send to a model")]
    Unsupported(String),
    #[error("no API key is set for {provider} in this client, so it cannot sample: the person must add one in its settings")]
    NoKey { provider: String },
    #[error("User rejected sampling request")]
    Declined,
    #[error("the model could not answer: {0}")]
    Failed(String),
    #[error("the request was withdrawn: the call it was asked during has ended")]
    Withdrawn,
}

impl SamplingError {
    pub fn code(&self) -> i64 {
        match self {
            SamplingError::Malformed(_) | SamplingError::Unsupported(_) => INVALID_PARAMS,
            SamplingError::Declined => USER_REJECTED,
            SamplingError::NoKey { .. } | SamplingError::Failed(_) | SamplingError::Withdrawn => INTERNAL_ERROR,
        }
    }
}

/// Whoever answers sampling requests. Dropping the returned future (the call ended) withdraws it.
pub trait Sampler {
    fn sample(&self, request: SamplingRequest) -> LocalBoxFuture<'static, Result<SampledReply, SamplingError>>;
}

pub type SharedSampler = Rc<dyn Sampler>;

/// The person, asked whether a request may go to their model: `Some` with the request to send (as
/// they edited it), `None` when they declined. Dropping the future withdraws the question.
pub trait SamplingReviewer {
    fn review(&self, review: SamplingReview) -> LocalBoxFuture<'static, Option<SamplingRequest>>;
}

/// The sampler of a client with a person and a configured model.
pub struct ModelSampler {
    pub model: Rc<dyn ChatModel>,
    /// The settings at the time of the request (the person may change model or key meanwhile).
    pub settings: Rc<dyn Fn() -> Settings>,
    pub reviewer: Rc<dyn SamplingReviewer>,
}

impl Sampler for ModelSampler {
    fn sample(&self, request: SamplingRequest) -> LocalBoxFuture<'static, Result<SampledReply, SamplingError>> {
        let (model, settings, reviewer) = (self.model.clone(), (self.settings)(), self.reviewer.clone());
        Box::pin(async move {
            if settings.missing_key() {
                return Err(SamplingError::NoKey { provider: provider_name(&settings) });
            }
            let review = review_of(request, &settings);
            let approved = reviewer.review(review).await.ok_or(SamplingError::Declined)?;
            complete(model.as_ref(), &settings, &approved).await
        })
    }
}

/// Reads `params` into what to ask, for `server`.
pub fn read_request(server: &str, params: Option<Value>) -> Result<SamplingRequest, SamplingError> {
    let params: CreateMessageParams = serde_json::from_value(params.unwrap_or(Value::Null))
        .map_err(|error| SamplingError::Malformed(error.to_string()))?;
    if params.messages.is_empty() {
        return Err(SamplingError::Malformed("no messages".to_owned()));
    }
    let messages = params
        .messages
        .iter()
        .map(|message| {
            let content = message
                .content
                .blocks()
                .iter()
                .map(|block| match block {
                    SamplingContent::Text { text } => Ok(ContentBlock::Text { text: text.clone() }),
                    SamplingContent::Image { data, mime_type } => {
                        Ok(ContentBlock::Image { media_type: mime_type.clone(), data: data.clone() })
                    }
                    SamplingContent::Other => Err(SamplingError::Unsupported("audio or tool".to_owned())),
                })
                .collect::<Result<Vec<_>, _>>()?;
            let role = match message.role {
                SamplingRole::User => Role::User,
                SamplingRole::Assistant => Role::Assistant,
            };
            Ok(Message { role, content })
        })
        .collect::<Result<Vec<_>, SamplingError>>()?;
    let model_hints = params
        .model_preferences
        .map(|preferences| preferences.hints.into_iter().filter_map(|hint| hint.name).collect())
        .unwrap_or_default();
    Ok(SamplingRequest {
        server: server.to_owned(),
        system_prompt: params.system_prompt.filter(|prompt| !prompt.trim().is_empty()),
        messages,
        max_tokens: params.max_tokens,
        model_hints,
    })
}

/// What the person sees: the request, the model and provider from `settings`, the cost's upper bound.
pub fn review_of(request: SamplingRequest, settings: &Settings) -> SamplingReview {
    let characters: usize = request.system_prompt.as_deref().map_or(0, str::len)
        + request.messages.iter().map(text_of).map(|text| text.len()).sum::<usize>();
    let images = request
        .messages
        .iter()
        .flat_map(|message| &message.content)
        .filter(|block| matches!(block, ContentBlock::Image { .. }))
        .count() as u64;
    let input_tokens = characters.div_ceil(CHARS_PER_TOKEN) as u64 + images * TOKENS_PER_IMAGE;
    let max_output_tokens = u64::from(output_limit(&request, settings));
    let usage = Usage { input_tokens, output_tokens: max_output_tokens, ..Usage::default() };
    let usd = estimate_at(settings.profile().0.prices, &settings.base_url, &usage);
    SamplingReview {
        request,
        model: settings.model.clone(),
        provider: provider_name(settings),
        estimate: CostEstimate { input_tokens, max_output_tokens, usd },
    }
}

/// Sends the approved `request` to the model of `settings`, without tools.
pub async fn complete(model: &dyn ChatModel, settings: &Settings, request: &SamplingRequest) -> Result<SampledReply, SamplingError> {
    let chat = ChatRequest {
        system: request.system_prompt.as_deref().unwrap_or(""),
        messages: &request.messages,
        tools: &[],
        max_output_tokens: output_limit(request, settings),
    };
    let reply = model.complete(chat, settings, CancelToken::new(), &|_| {}).await.map_err(|error| match error {
        LlmError::MissingKey { provider } => SamplingError::NoKey { provider },
        other => SamplingError::Failed(other.to_string()),
    })?;
    let text = reply
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<String>();
    let stop_reason = match reply.finish {
        FinishReason::EndTurn => "endTurn".to_owned(),
        FinishReason::MaxTokens => "maxTokens".to_owned(),
        FinishReason::ToolUse => "toolUse".to_owned(),
        FinishReason::Refusal => "refusal".to_owned(),
        FinishReason::ContentFilter => "contentFilter".to_owned(),
        FinishReason::PauseTurn => "pauseTurn".to_owned(),
        FinishReason::Other(reason) => reason,
    };
    Ok(SampledReply { text, model: settings.model.clone(), stop_reason: Some(stop_reason) })
}

/// The result sent back to the server.
pub fn to_result(reply: SampledReply) -> CreateMessageResult {
    CreateMessageResult {
        role: SamplingRole::Assistant,
        content: TextContent { kind: "text", text: reply.text },
        model: reply.model,
        stop_reason: reply.stop_reason,
    }
}

/// The server's limit, within the model's own.
fn output_limit(request: &SamplingRequest, settings: &Settings) -> u32 {
    request.max_tokens.clamp(1, settings.profile().0.max_output_tokens.max(1))
}

fn provider_name(settings: &Settings) -> String {
    match settings.provider {
        ProviderKind::Anthropic => anthropic::PROVIDER.to_owned(),
        ProviderKind::OpenAi => openai::provider_label(&settings.base_url),
        ProviderKind::Ollama => ollama::PROVIDER.to_owned(),
    }
}

fn text_of(message: &Message) -> String {
    message
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}
