//! The Anthropic Messages API wire format: request building (with prompt caching) and SSE stream decoding.
//! Pure functions; the HTTP exchange itself is `llm::http`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::llm::message::{ContentBlock, Message, Role};
use crate::llm::model::{
    ChatRequest, FinishReason, LlmError, MalformedInput, ModelEvent, ModelReply, ToolDef, Usage, parse_tool_input,
};
use crate::ports::{HttpRequest, Method};
use crate::settings::Settings;
use crate::tool::ResultPart;

pub const PROVIDER: &str = "Anthropic";
pub const API_VERSION: &str = "2023-06-01";
pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";

/// The messages endpoint under `base_url` (with or without a trailing `/v1`).
pub fn endpoint(base_url: &str) -> String {
    let base = base_url.trim().trim_end_matches('/');
    let base = if base.is_empty() { DEFAULT_BASE_URL } else { base };
    if base.ends_with("/v1") { format!("{base}/messages") } else { format!("{base}/v1/messages") }
}

/// The complete HTTP request, called directly from the browser with the user's key.
pub fn build_request(request: &ChatRequest<'_>, settings: &Settings) -> Result<HttpRequest, LlmError> {
    if settings.api_key.trim().is_empty() {
        return Err(LlmError::MissingKey { provider: PROVIDER.to_owned() });
    }
    Ok(HttpRequest::new(Method::Post, endpoint(&settings.base_url))
        .header("x-api-key", settings.api_key.trim())
        .header("anthropic-version", API_VERSION)
        // Without it the API refuses browser (CORS) requests.
        .header("anthropic-dangerous-direct-browser-access", "true")
        .header("accept", "text/event-stream")
        .json_body(request_body(request, &settings.model)))
}

/// The JSON body: streaming on, cache breakpoints on the system prompt, the last tool and the last
/// message (so each iteration re-reads the conversation prefix from cache). Consecutive messages of
/// one role are merged, empty text blocks dropped, as the API requires.
pub fn request_body(request: &ChatRequest<'_>, model: &str) -> String {
    let mut tools: Vec<WireTool<'_>> = request.tools.iter().map(WireTool::from).collect();
    if let Some(last) = tools.last_mut() {
        last.cache_control = Some(Ephemeral::default());
    }
    let body = Body {
        model,
        max_tokens: request.max_output_tokens,
        stream: true,
        system: if request.system.is_empty() {
            Vec::new()
        } else {
            vec![SystemBlock { kind: "text", text: request.system, cache_control: Ephemeral::default() }]
        },
        tools,
        messages: wire_messages(request.messages),
    };
    serde_json::to_string(&body).unwrap_or_default()
}

#[derive(Serialize)]
struct Body<'a> {
    model: &'a str,
    max_tokens: u32,
    stream: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    system: Vec<SystemBlock<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<WireTool<'a>>,
    messages: Vec<WireMessage<'a>>,
}

#[derive(Serialize)]
struct Ephemeral {
    #[serde(rename = "type")]
    kind: &'static str,
}

impl Default for Ephemeral {
    fn default() -> Ephemeral {
        Ephemeral { kind: "ephemeral" }
    }
}

#[derive(Serialize)]
struct SystemBlock<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    text: &'a str,
    cache_control: Ephemeral,
}

#[derive(Serialize)]
struct WireTool<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_control: Option<Ephemeral>,
}

impl<'a> From<&'a ToolDef> for WireTool<'a> {
    fn from(tool: &'a ToolDef) -> WireTool<'a> {
        WireTool {
            name: &tool.name,
            description: &tool.description,
            input_schema: &tool.input_schema,
            cache_control: None,
        }
    }
}

#[derive(Serialize)]
struct WireMessage<'a> {
    role: &'static str,
    content: Vec<WireBlock<'a>>,
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum WireBlock<'a> {
    Text {
        text: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        cache_control: Option<Ephemeral>,
    },
    Image {
        source: ImageSource<'a>,
        #[serde(skip_serializing_if = "Option::is_none")]
        cache_control: Option<Ephemeral>,
    },
    ToolUse {
        id: &'a str,
        name: &'a str,
        input: &'a Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        cache_control: Option<Ephemeral>,
    },
    ToolResult {
        tool_use_id: &'a str,
        content: Vec<ResultBlock<'a>>,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        is_error: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        cache_control: Option<Ephemeral>,
    },
}

impl WireBlock<'_> {
    fn mark_cache_breakpoint(&mut self) {
        let slot = match self {
            WireBlock::Text { cache_control, .. }
            | WireBlock::Image { cache_control, .. }
            | WireBlock::ToolUse { cache_control, .. }
            | WireBlock::ToolResult { cache_control, .. } => cache_control,
        };
        *slot = Some(Ephemeral::default());
    }
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ResultBlock<'a> {
    Text { text: &'a str },
    Image { source: ImageSource<'a> },
}

#[derive(Serialize)]
struct ImageSource<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    media_type: &'a str,
    data: &'a str,
}

impl<'a> ImageSource<'a> {
    fn base64(media_type: &'a str, data: &'a str) -> ImageSource<'a> {
        ImageSource { kind: "base64", media_type, data }
    }
}

fn wire_messages(messages: &[Message]) -> Vec<WireMessage<'_>> {
    let mut wire: Vec<WireMessage<'_>> = Vec::with_capacity(messages.len());
    for message in messages {
        let blocks: Vec<WireBlock<'_>> = message.content.iter().filter_map(wire_block).collect();
        if blocks.is_empty() {
            continue;
        }
        let role = match message.role {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        match wire.last_mut() {
            Some(last) if last.role == role => last.content.extend(blocks),
            _ => wire.push(WireMessage { role, content: blocks }),
        }
    }
    if let Some(block) = wire.last_mut().and_then(|message| message.content.last_mut()) {
        block.mark_cache_breakpoint();
    }
    wire
}

fn wire_block(block: &ContentBlock) -> Option<WireBlock<'_>> {
    Some(match block {
        ContentBlock::Text { text } if text.trim().is_empty() => return None,
        ContentBlock::Text { text } => WireBlock::Text { text, cache_control: None },
        ContentBlock::Image { media_type, data } => {
            WireBlock::Image { source: ImageSource::base64(media_type, data), cache_control: None }
        }
        ContentBlock::ToolUse { id, name, input } => WireBlock::ToolUse { id, name, input, cache_control: None },
        ContentBlock::ToolResult { tool_use_id, content, is_error } => {
            let mut parts: Vec<ResultBlock<'_>> = content
                .iter()
                .filter_map(|part| match part {
                    ResultPart::Text { text } if text.is_empty() => None,
                    ResultPart::Text { text } => Some(ResultBlock::Text { text }),
                    ResultPart::Image { media_type, data } => {
                        Some(ResultBlock::Image { source: ImageSource::base64(media_type, data) })
                    }
                })
                .collect();
            if parts.is_empty() {
                parts.push(ResultBlock::Text { text: "(empty result)" });
            }
            WireBlock::ToolResult { tool_use_id, content: parts, is_error: *is_error, cache_control: None }
        }
    })
}

/// The provider's own error message from an error response body.
pub fn parse_error(status: u16, body: &str, retry_after_ms: Option<u32>) -> LlmError {
    let message = serde_json::from_str::<ErrorEnvelope>(body)
        .map(|envelope| envelope.error.message)
        .unwrap_or_else(|_| excerpt(body));
    LlmError::Api { provider: PROVIDER.to_owned(), status, message, retry_after_ms }
}

fn excerpt(body: &str) -> String {
    let trimmed = body.trim();
    if trimmed.is_empty() {
        return "no error message in the response".to_owned();
    }
    trimmed.chars().take(300).collect()
}

#[derive(Deserialize)]
struct ErrorEnvelope {
    error: ErrorBody,
}

#[derive(Deserialize)]
struct ErrorBody {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    message: String,
}

/// The HTTP status Anthropic uses for each error type, for errors that arrive inside a 200 stream.
fn status_of(kind: &str) -> u16 {
    match kind {
        "invalid_request_error" => 400,
        "authentication_error" => 401,
        "permission_error" => 403,
        "not_found_error" => 404,
        "request_too_large" => 413,
        "rate_limit_error" => 429,
        "overloaded_error" => 529,
        _ => 500,
    }
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum StreamEvent {
    MessageStart {
        message: StartMessage,
    },
    ContentBlockStart {
        index: usize,
        content_block: StartBlock,
    },
    ContentBlockDelta {
        index: usize,
        delta: ContentDelta,
    },
    MessageDelta {
        delta: MessageDelta,
        #[serde(default)]
        usage: Option<WireUsage>,
    },
    MessageStop,
    Error {
        error: ErrorBody,
    },
    /// `ping`, `content_block_stop` and event types added after this was written.
    #[serde(other)]
    Ignored,
}

#[derive(Deserialize)]
struct StartMessage {
    #[serde(default)]
    usage: Option<WireUsage>,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum StartBlock {
    Text {
        #[serde(default)]
        text: String,
    },
    ToolUse {
        id: String,
        name: String,
    },
    /// Thinking and server-tool blocks: not used by this app, skipped.
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ContentDelta {
    TextDelta {
        text: String,
    },
    InputJsonDelta {
        partial_json: String,
    },
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
struct MessageDelta {
    #[serde(default)]
    stop_reason: Option<String>,
}

/// Every field is optional: `message_delta` repeats only the counts that changed.
#[derive(Deserialize)]
struct WireUsage {
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    cache_creation_input_tokens: Option<u64>,
    cache_read_input_tokens: Option<u64>,
}

impl WireUsage {
    fn apply_to(&self, usage: &mut Usage) {
        let fields = [
            (self.input_tokens, &mut usage.input_tokens),
            (self.output_tokens, &mut usage.output_tokens),
            (self.cache_creation_input_tokens, &mut usage.cache_creation_input_tokens),
            (self.cache_read_input_tokens, &mut usage.cache_read_input_tokens),
        ];
        for (value, slot) in fields {
            if let Some(value) = value {
                *slot = value;
            }
        }
    }
}

enum Block {
    Text(String),
    Tool { id: String, name: String, json: String },
    Skipped,
}

/// Turns the `data` of each SSE event into model events, and the whole stream into a [`ModelReply`].
#[derive(Default)]
pub struct StreamDecoder {
    blocks: Vec<Block>,
    usage: Usage,
    stop_reason: Option<String>,
    started: bool,
    stopped: bool,
}

impl StreamDecoder {
    pub fn new() -> StreamDecoder {
        StreamDecoder::default()
    }

    /// Decodes one event's data; deltas worth showing are pushed to `events`.
    pub fn feed(&mut self, data: &str, events: &mut Vec<ModelEvent>) -> Result<(), LlmError> {
        let event: StreamEvent = serde_json::from_str(data).map_err(|error| LlmError::Stream {
            provider: PROVIDER.to_owned(),
            detail: format!("unreadable stream event ({error})"),
        })?;
        match event {
            StreamEvent::MessageStart { message } => {
                self.started = true;
                if let Some(usage) = message.usage {
                    usage.apply_to(&mut self.usage);
                }
            }
            StreamEvent::ContentBlockStart { index, content_block } => {
                let block = match content_block {
                    StartBlock::Text { text } => {
                        if !text.is_empty() {
                            events.push(ModelEvent::TextDelta(text.clone()));
                        }
                        Block::Text(text)
                    }
                    StartBlock::ToolUse { id, name } => {
                        events.push(ModelEvent::ToolUseStarted { id: id.clone(), name: name.clone() });
                        Block::Tool { id, name, json: String::new() }
                    }
                    StartBlock::Other => Block::Skipped,
                };
                while self.blocks.len() < index {
                    self.blocks.push(Block::Skipped);
                }
                if index < self.blocks.len() {
                    self.blocks[index] = block;
                } else {
                    self.blocks.push(block);
                }
            }
            StreamEvent::ContentBlockDelta { index, delta } => match (self.blocks.get_mut(index), delta) {
                (Some(Block::Text(text)), ContentDelta::TextDelta { text: piece }) => {
                    text.push_str(&piece);
                    events.push(ModelEvent::TextDelta(piece));
                }
                (Some(Block::Tool { id, json, .. }), ContentDelta::InputJsonDelta { partial_json }) => {
                    json.push_str(&partial_json);
                    events.push(ModelEvent::ToolInputDelta { id: id.clone(), delta: partial_json });
                }
                _ => {}
            },
            StreamEvent::Ignored => {}
            StreamEvent::MessageDelta { delta, usage } => {
                if delta.stop_reason.is_some() {
                    self.stop_reason = delta.stop_reason;
                }
                if let Some(usage) = usage {
                    usage.apply_to(&mut self.usage);
                }
            }
            StreamEvent::MessageStop => self.stopped = true,
            StreamEvent::Error { error } => {
                return Err(LlmError::Api {
                    provider: PROVIDER.to_owned(),
                    status: status_of(&error.kind),
                    message: error.message,
                    retry_after_ms: None,
                });
            }
        }
        Ok(())
    }

    /// The reply, once the stream has ended.
    pub fn finish(self, request_bytes: usize) -> Result<ModelReply, LlmError> {
        if !self.started || (!self.stopped && self.stop_reason.is_none()) {
            return Err(LlmError::Stream {
                provider: PROVIDER.to_owned(),
                detail: "the stream ended before the reply was complete".to_owned(),
            });
        }
        let mut content = Vec::with_capacity(self.blocks.len());
        let mut malformed = Vec::new();
        for block in self.blocks {
            match block {
                Block::Text(text) if !text.is_empty() => content.push(ContentBlock::Text { text }),
                Block::Tool { id, name, json } => {
                    let input = parse_tool_input(&json).unwrap_or_else(|| {
                        malformed.push(MalformedInput { id: id.clone(), raw: json });
                        Value::Object(Default::default())
                    });
                    content.push(ContentBlock::ToolUse { id, name, input });
                }
                Block::Text(_) | Block::Skipped => {}
            }
        }
        let finish = match self.stop_reason.as_deref() {
            Some("end_turn") | Some("stop_sequence") | None => FinishReason::EndTurn,
            Some("tool_use") => FinishReason::ToolUse,
            Some("max_tokens") => FinishReason::MaxTokens,
            Some("refusal") => FinishReason::Refusal,
            Some("pause_turn") => FinishReason::PauseTurn,
            Some(other) => FinishReason::Other(other.to_owned()),
        };
        Ok(ModelReply { content, finish, usage: self.usage, malformed, request_bytes })
    }
}
