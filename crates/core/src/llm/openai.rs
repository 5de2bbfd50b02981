//! The OpenAI chat-completions wire format, as spoken by OpenAI, Ollama, LM Studio, vLLM, llama.cpp
//! and OpenRouter: request building and SSE decoding with streamed tool-call deltas. Pure functions.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::llm::message::{ContentBlock, Message, Role};
use crate::llm::model::{
    ChatRequest, FinishReason, LlmError, MalformedInput, ModelEvent, ModelReply, ToolDef, Usage, parse_tool_input,
};
use crate::ports::{HttpRequest, Method};
use crate::settings::{Settings, TokenParam};
use crate::tool::ResultPart;

pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

/// Hosts that refuse requests without a key, so a missing key is reported before sending anything.
const KEYED_HOSTS: &[&str] = &["api.openai.com", "openrouter.ai"];

/// A short name for error messages: the well-known services by name, anything else by its URL.
pub fn provider_label(base_url: &str) -> String {
    let base = base_or_default(base_url);
    let known =
        [("api.openai.com", "OpenAI"), ("openrouter.ai", "OpenRouter"), (":11434", "Ollama"), (":1234", "LM Studio")];
    known
        .iter()
        .find(|(needle, _)| base.contains(needle))
        .map(|(_, label)| (*label).to_owned())
        .unwrap_or_else(|| format!("the server at {base}"))
}

fn base_or_default(base_url: &str) -> &str {
    let base = base_url.trim().trim_end_matches('/');
    if base.is_empty() { DEFAULT_BASE_URL } else { base }
}

/// `{base}/chat/completions`, unless the base already names the endpoint.
pub fn endpoint(base_url: &str) -> String {
    let base = base_or_default(base_url);
    if base.ends_with("/chat/completions") { base.to_owned() } else { format!("{base}/chat/completions") }
}

pub fn build_request(request: &ChatRequest<'_>, settings: &Settings) -> Result<HttpRequest, LlmError> {
    // Only a key entered for this endpoint goes with the request.
    let key = settings.key_for_endpoint();
    let base = base_or_default(&settings.base_url);
    if key.is_empty() && KEYED_HOSTS.iter().any(|host| base.contains(host)) {
        return Err(LlmError::MissingKey { provider: provider_label(base) });
    }
    let mut http = HttpRequest::new(Method::Post, endpoint(base)).header("accept", "text/event-stream");
    if !key.is_empty() {
        http = http.header("authorization", format!("Bearer {key}"));
    }
    Ok(http.json_body(request_body_for(request, settings)))
}

/// The body `build_request` sends for these settings.
pub fn request_body_for(request: &ChatRequest<'_>, settings: &Settings) -> String {
    request_body_with(request, &settings.model, token_field(settings))
}

/// The field the output limit goes in: api.openai.com's newer models refuse `max_tokens`, other
/// servers (Ollama, LM Studio, vLLM, llama.cpp, OpenRouter) read `max_tokens`.
pub fn token_field(settings: &Settings) -> TokenParam {
    match settings.token_param {
        TokenParam::Auto if base_or_default(&settings.base_url).contains("api.openai.com") => {
            TokenParam::MaxCompletionTokens
        }
        TokenParam::Auto => TokenParam::MaxTokens,
        chosen => chosen,
    }
}

/// The JSON body with the output limit as `max_tokens`.
pub fn request_body(request: &ChatRequest<'_>, model: &str) -> String {
    request_body_with(request, model, TokenParam::MaxTokens)
}

/// The JSON body: the system prompt as the first message, tool results as `tool` messages right
/// after the assistant turn that asked for them, streaming with a final usage chunk, and the output
/// limit in the field `param` names.
pub fn request_body_with(request: &ChatRequest<'_>, model: &str, param: TokenParam) -> String {
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    if !request.system.is_empty() {
        messages.push(WireMessage::text("system", Cow::Borrowed(request.system)));
    }
    for message in request.messages {
        match message.role {
            Role::User => push_user(message, &mut messages),
            Role::Assistant => push_assistant(message, &mut messages),
        }
    }
    let limit = Some(request.max_output_tokens).filter(|limit| *limit > 0);
    let completion = param == TokenParam::MaxCompletionTokens;
    let body = Body {
        model,
        messages,
        tools: request.tools.iter().map(WireTool::from).collect(),
        max_tokens: limit.filter(|_| !completion),
        max_completion_tokens: limit.filter(|_| completion),
        stream: true,
        stream_options: StreamOptions { include_usage: true },
    };
    serde_json::to_string(&body).unwrap_or_default()
}

#[derive(Serialize)]
struct Body<'a> {
    model: &'a str,
    messages: Vec<WireMessage<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<WireTool<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_completion_tokens: Option<u32>,
    stream: bool,
    stream_options: StreamOptions,
}

#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

#[derive(Serialize)]
struct WireMessage<'a> {
    role: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<WireContent<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_calls: Vec<WireToolCall<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_call_id: Option<&'a str>,
}

impl<'a> WireMessage<'a> {
    fn text(role: &'static str, text: Cow<'a, str>) -> WireMessage<'a> {
        WireMessage { role, content: Some(WireContent::Text(text)), tool_calls: Vec::new(), tool_call_id: None }
    }
}

#[derive(Serialize)]
#[serde(untagged)]
enum WireContent<'a> {
    Text(Cow<'a, str>),
    Parts(Vec<WirePart<'a>>),
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum WirePart<'a> {
    Text { text: &'a str },
    ImageUrl { image_url: ImageUrl },
}

#[derive(Serialize)]
struct ImageUrl {
    url: String,
}

#[derive(Serialize)]
struct WireToolCall<'a> {
    id: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    function: WireFunctionCall<'a>,
}

#[derive(Serialize)]
struct WireFunctionCall<'a> {
    name: &'a str,
    /// The API wants the arguments as a JSON string, not an object.
    arguments: String,
}

#[derive(Serialize)]
pub(crate) struct WireTool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    function: WireFunction<'a>,
}

#[derive(Serialize)]
struct WireFunction<'a> {
    name: &'a str,
    description: &'a str,
    parameters: &'a Value,
}

impl<'a> From<&'a ToolDef> for WireTool<'a> {
    fn from(tool: &'a ToolDef) -> WireTool<'a> {
        WireTool {
            kind: "function",
            function: WireFunction { name: &tool.name, description: &tool.description, parameters: &tool.input_schema },
        }
    }
}

fn push_user<'a>(message: &'a Message, out: &mut Vec<WireMessage<'a>>) {
    for block in &message.content {
        if let ContentBlock::ToolResult { tool_use_id, content, is_error } = block {
            out.push(WireMessage {
                role: "tool",
                content: Some(WireContent::Text(tool_text(content, *is_error))),
                tool_calls: Vec::new(),
                tool_call_id: Some(tool_use_id),
            });
        }
    }
    let mut parts = Vec::new();
    let mut has_image = false;
    for block in &message.content {
        match block {
            ContentBlock::Text { text } if !text.trim().is_empty() => parts.push(WirePart::Text { text }),
            ContentBlock::Image { media_type, data } => {
                has_image = true;
                parts.push(WirePart::ImageUrl {
                    image_url: ImageUrl { url: format!("data:{media_type};base64,{data}") },
                });
            }
            _ => {}
        }
    }
    if parts.is_empty() {
        return;
    }
    let content = if has_image {
        WireContent::Parts(parts)
    } else {
        let texts: Vec<&str> = parts
            .iter()
            .filter_map(|part| match part {
                WirePart::Text { text } => Some(*text),
                WirePart::ImageUrl { .. } => None,
            })
            .collect();
        WireContent::Text(if texts.len() == 1 { Cow::Borrowed(texts[0]) } else { Cow::Owned(texts.join("\n\n")) })
    };
    out.push(WireMessage { role: "user", content: Some(content), tool_calls: Vec::new(), tool_call_id: None });
}

/// Tool messages carry text only: images become a note, and an error is marked as one.
fn tool_text(content: &[ResultPart], is_error: bool) -> Cow<'_, str> {
    let mut pieces: Vec<&str> = Vec::with_capacity(content.len());
    for part in content {
        match part {
            ResultPart::Text { text } => pieces.push(text),
            ResultPart::Image { .. } => pieces.push("[image omitted: this provider takes no images in tool results]"),
        }
    }
    let text: Cow<'_, str> = match pieces.as_slice() {
        [] => Cow::Borrowed("(empty result)"),
        [one] => Cow::Borrowed(one),
        many => Cow::Owned(many.join("\n")),
    };
    if is_error && !text.starts_with("Error") { Cow::Owned(format!("Error: {text}")) } else { text }
}

fn push_assistant<'a>(message: &'a Message, out: &mut Vec<WireMessage<'a>>) {
    let texts: Vec<&str> = message
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text { text } if !text.trim().is_empty() => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let tool_calls: Vec<WireToolCall<'_>> = message
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::ToolUse { id, name, input } => Some(WireToolCall {
                id,
                kind: "function",
                function: WireFunctionCall { name, arguments: input.to_string() },
            }),
            _ => None,
        })
        .collect();
    if texts.is_empty() && tool_calls.is_empty() {
        return;
    }
    let content = (!texts.is_empty()).then(|| WireContent::Text(Cow::Owned(texts.join("\n\n"))));
    out.push(WireMessage { role: "assistant", content, tool_calls, tool_call_id: None });
}

/// The provider's own message from an error body: `{"error": {"message"}}`, `{"error": "..."}` or `{"message"}`.
pub fn parse_error(base_url: &str, status: u16, body: &str, retry_after_ms: Option<u32>) -> LlmError {
    let value = serde_json::from_str::<Value>(body).ok();
    let message = value.as_ref().and_then(error_message).unwrap_or_else(|| {
        let trimmed = body.trim();
        if trimmed.is_empty() {
            "no error message in the response".to_owned()
        } else {
            trimmed.chars().take(300).collect()
        }
    });
    if value.as_ref().is_some_and(out_of_quota) {
        return LlmError::OutOfCredit { provider: provider_label(base_url), message };
    }
    LlmError::Api { provider: provider_label(base_url), status, message, retry_after_ms }
}

/// Whether an error says the account has no quota left: OpenAI sends `insufficient_quota` (as the
/// type and the code) with a 429, which would otherwise read as a rate limit worth waiting out.
fn out_of_quota(value: &Value) -> bool {
    let error = value.get("error").unwrap_or(value);
    ["type", "code"].into_iter().any(|field| error.get(field).and_then(Value::as_str) == Some("insufficient_quota"))
}

fn error_message(value: &Value) -> Option<String> {
    let error = value.get("error").unwrap_or(value);
    match error {
        Value::String(message) => Some(message.clone()),
        Value::Object(fields) => fields.get("message").and_then(Value::as_str).map(str::to_owned),
        _ => None,
    }
}

#[derive(Deserialize)]
struct Chunk {
    #[serde(default)]
    choices: Option<Vec<Choice>>,
    #[serde(default)]
    usage: Option<WireUsage>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct Choice {
    /// Streaming chunks carry `delta`; a non-streaming answer carries the whole `message`.
    #[serde(default)]
    delta: Option<ChoiceDelta>,
    #[serde(default)]
    message: Option<ChoiceDelta>,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct ChoiceDelta {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<ToolCallDelta>>,
}

#[derive(Deserialize)]
struct ToolCallDelta {
    #[serde(default)]
    index: Option<usize>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    function: Option<FunctionDelta>,
}

#[derive(Deserialize)]
struct FunctionDelta {
    #[serde(default)]
    name: Option<String>,
    /// A JSON string piece; a few servers send the arguments as an object instead.
    #[serde(default)]
    arguments: Option<Value>,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
    #[serde(default)]
    prompt_tokens_details: Option<PromptDetails>,
}

#[derive(Deserialize)]
struct PromptDetails {
    #[serde(default)]
    cached_tokens: Option<u64>,
}

struct PendingCall {
    index: Option<usize>,
    id: String,
    name: String,
    arguments: String,
    announced: bool,
}

/// Turns each SSE `data` (or one whole non-streaming body) into model events and a [`ModelReply`].
pub struct StreamDecoder {
    provider: String,
    /// Prefix for ids of tool calls a server sent without one (some local servers do).
    id_prefix: String,
    text: String,
    calls: Vec<PendingCall>,
    usage: Usage,
    finish_reason: Option<String>,
    done: bool,
    chunks: usize,
}

impl StreamDecoder {
    pub fn new(base_url: &str, id_prefix: impl Into<String>) -> StreamDecoder {
        StreamDecoder {
            provider: provider_label(base_url),
            id_prefix: id_prefix.into(),
            text: String::new(),
            calls: Vec::new(),
            usage: Usage::default(),
            finish_reason: None,
            done: false,
            chunks: 0,
        }
    }

    pub fn feed(&mut self, data: &str, events: &mut Vec<ModelEvent>) -> Result<(), LlmError> {
        if data.trim() == "[DONE]" {
            self.done = true;
            return Ok(());
        }
        let chunk: Chunk = serde_json::from_str(data).map_err(|error| LlmError::Stream {
            provider: self.provider.clone(),
            detail: format!("unreadable stream chunk ({error})"),
        })?;
        self.chunks += 1;
        if let Some(error) = chunk.error {
            let message = error_message(&serde_json::json!({ "error": error })).unwrap_or_else(|| error.to_string());
            if out_of_quota(&error) {
                return Err(LlmError::OutOfCredit { provider: self.provider.clone(), message });
            }
            let status = error.get("code").and_then(Value::as_u64).and_then(|code| u16::try_from(code).ok());
            return Err(LlmError::Api {
                provider: self.provider.clone(),
                status: status.filter(|code| (400..=599).contains(code)).unwrap_or(500),
                message,
                retry_after_ms: None,
            });
        }
        if let Some(usage) = chunk.usage {
            let cached = usage.prompt_tokens_details.and_then(|details| details.cached_tokens).unwrap_or(0);
            self.usage = Usage {
                input_tokens: usage.prompt_tokens.saturating_sub(cached),
                output_tokens: usage.completion_tokens,
                cache_creation_input_tokens: 0,
                cache_read_input_tokens: cached,
            };
        }
        for choice in chunk.choices.unwrap_or_default().into_iter().take(1) {
            if choice.finish_reason.is_some() {
                self.finish_reason = choice.finish_reason;
            }
            let Some(delta) = choice.delta.or(choice.message) else { continue };
            if let Some(text) = delta.content.filter(|text| !text.is_empty()) {
                self.text.push_str(&text);
                events.push(ModelEvent::TextDelta(text));
            }
            for call in delta.tool_calls.unwrap_or_default() {
                self.apply_call_delta(call, events);
            }
        }
        Ok(())
    }

    fn apply_call_delta(&mut self, delta: ToolCallDelta, events: &mut Vec<ModelEvent>) {
        let id = delta.id.filter(|id| !id.is_empty());
        let position = match delta.index {
            Some(index) => self.calls.iter().position(|call| call.index == Some(index)),
            // Without an index, a new id starts a new call and anything else continues the last one.
            None => match (&id, self.calls.last()) {
                (Some(id), Some(last)) if &last.id != id => None,
                (_, Some(_)) => Some(self.calls.len() - 1),
                (_, None) => None,
            },
        };
        let position = position.unwrap_or_else(|| {
            let id = id.clone().unwrap_or_else(|| format!("{}_{}", self.id_prefix, self.calls.len()));
            self.calls.push(PendingCall {
                index: delta.index,
                id,
                name: String::new(),
                arguments: String::new(),
                announced: false,
            });
            self.calls.len() - 1
        });
        let call = &mut self.calls[position];
        let Some(function) = delta.function else { return };
        if let Some(name) = function.name.filter(|name| !name.is_empty() && call.name.is_empty()) {
            call.name = name;
        }
        let piece = match function.arguments {
            Some(Value::String(piece)) => piece,
            Some(Value::Null) | None => String::new(),
            Some(object) => object.to_string(),
        };
        call.arguments.push_str(&piece);
        if !call.announced && !call.name.is_empty() {
            call.announced = true;
            events.push(ModelEvent::ToolUseStarted { id: call.id.clone(), name: call.name.clone() });
            if !call.arguments.is_empty() {
                events.push(ModelEvent::ToolInputDelta { id: call.id.clone(), delta: call.arguments.clone() });
            }
        } else if call.announced && !piece.is_empty() {
            events.push(ModelEvent::ToolInputDelta { id: call.id.clone(), delta: piece });
        }
    }

    pub fn finish(self, request_bytes: usize) -> Result<ModelReply, LlmError> {
        if self.chunks == 0 || (!self.done && self.finish_reason.is_none()) {
            return Err(LlmError::Stream {
                provider: self.provider,
                detail: "the stream ended before the reply was complete".to_owned(),
            });
        }
        let mut content = Vec::with_capacity(1 + self.calls.len());
        if !self.text.is_empty() {
            content.push(ContentBlock::Text { text: self.text });
        }
        let mut malformed = Vec::new();
        let has_calls = !self.calls.is_empty();
        for call in self.calls.into_iter().filter(|call| !call.name.is_empty()) {
            let input = parse_tool_input(&call.arguments).unwrap_or_else(|| {
                malformed.push(MalformedInput { id: call.id.clone(), raw: call.arguments });
                Value::Object(Default::default())
            });
            content.push(ContentBlock::ToolUse { id: call.id, name: call.name, input });
        }
        let finish = match self.finish_reason.as_deref() {
            Some("length") => FinishReason::MaxTokens,
            Some("content_filter") => FinishReason::ContentFilter,
            Some("tool_calls") | Some("function_call") => FinishReason::ToolUse,
            _ if has_calls => FinishReason::ToolUse,
            Some("stop") | None => FinishReason::EndTurn,
            Some(other) => FinishReason::Other(other.to_owned()),
        };
        Ok(ModelReply { content, finish, usage: self.usage, malformed, request_bytes })
    }
}
