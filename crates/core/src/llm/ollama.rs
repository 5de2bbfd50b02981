//! Ollama's native API: `/api/chat` (streaming NDJSON, tools, `options.num_ctx`) and `/api/show`
//! (the model's context length). Its `/v1` compatibility endpoint cannot set the context size, so
//! with Ollama's small default context the system prompt and tools would be cut off silently.
//! Pure functions; the HTTP exchange itself is `llm::http`.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::llm::message::{ContentBlock, Message, Role};
// Ollama describes tools as the chat-completions API does.
use crate::llm::openai::WireTool;
use crate::llm::model::{
    ChatRequest, FinishReason, LlmError, MalformedInput, ModelEvent, ModelReply, Usage, parse_tool_input,
};
use crate::ports::{HttpRequest, Method};
use crate::settings::Settings;
use crate::tool::ResultPart;

pub const PROVIDER: &str = "Ollama";
pub const DEFAULT_BASE_URL: &str = "http://localhost:11434";

/// The server's root: a base URL typed with the compatibility path (`/v1`) or `/api` still works.
pub fn root(base_url: &str) -> &str {
    let base = base_url.trim().trim_end_matches('/');
    let base = if base.is_empty() { DEFAULT_BASE_URL } else { base };
    ["/api/chat", "/api", "/v1"].iter().find_map(|tail| base.strip_suffix(tail)).unwrap_or(base)
}

pub fn chat_endpoint(base_url: &str) -> String {
    format!("{}/api/chat", root(base_url))
}

pub fn show_endpoint(base_url: &str) -> String {
    format!("{}/api/show", root(base_url))
}

fn with_key(http: HttpRequest, settings: &Settings) -> HttpRequest {
    // A local Ollama needs no key; one behind an authenticating proxy (or ollama.com) gets it.
    match settings.key_for_endpoint() {
        "" => http,
        key => http.header("authorization", format!("Bearer {key}")),
    }
}

/// `POST /api/show` for the model in `settings`: its `model_info` holds the context length.
pub fn build_show_request(settings: &Settings) -> HttpRequest {
    let body = serde_json::json!({ "model": settings.model.trim() }).to_string();
    with_key(HttpRequest::new(Method::Post, show_endpoint(&settings.base_url)), settings).json_body(body)
}

/// The context length `/api/show` reports: `model_info["<architecture>.context_length"]` (any
/// `*.context_length` when the architecture is not named). `None` when the answer has none.
pub fn context_length(show_body: &str) -> Option<u32> {
    let value: Value = serde_json::from_str(show_body).ok()?;
    let info = value.get("model_info")?.as_object()?;
    let read = |key: &str| info.get(key).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok());
    let named = info
        .get("general.architecture")
        .and_then(Value::as_str)
        .and_then(|architecture| read(&format!("{architecture}.context_length")));
    named.or_else(|| info.keys().filter(|key| key.ends_with(".context_length")).find_map(|key| read(key)))
}

/// The `num_ctx` to ask for: the model's own context length (from `/api/show`), no more than a
/// context window the person set for it (their machine may not hold more); without `/api/show`'s
/// answer, the profile's window.
pub fn num_ctx(settings: &Settings, shown: Option<u32>) -> u32 {
    let (profile, source) = settings.profile();
    match (shown, source) {
        (Some(shown), crate::llm::profile::ProfileSource::Custom) => shown.min(profile.context_tokens),
        (Some(shown), _) => shown,
        (None, _) => profile.context_tokens,
    }
}

/// The complete `/api/chat` request.
pub fn build_request(request: &ChatRequest<'_>, settings: &Settings, num_ctx: u32) -> HttpRequest {
    with_key(HttpRequest::new(Method::Post, chat_endpoint(&settings.base_url)), settings)
        .header("accept", "application/x-ndjson")
        .json_body(request_body(request, settings.model.trim(), num_ctx))
}

/// The JSON body: the system prompt as the first message, tool results as `tool` messages (named
/// after their tool, as Ollama's templates want), images as base64 beside the text, streaming,
/// and `options.num_ctx` so the whole prompt is read.
pub fn request_body(request: &ChatRequest<'_>, model: &str, num_ctx: u32) -> String {
    let mut names: HashMap<&str, &str> = HashMap::new();
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    if !request.system.is_empty() {
        messages.push(WireMessage::text("system", Cow::Borrowed(request.system)));
    }
    for message in request.messages {
        match message.role {
            Role::User => push_user(message, &names, &mut messages),
            Role::Assistant => push_assistant(message, &mut names, &mut messages),
        }
    }
    let body = Body {
        model,
        messages,
        tools: request.tools.iter().map(WireTool::from).collect(),
        stream: true,
        options: Options {
            num_ctx: Some(num_ctx).filter(|n| *n > 0),
            num_predict: Some(request.max_output_tokens).filter(|n| *n > 0),
        },
    };
    serde_json::to_string(&body).unwrap_or_default()
}

#[derive(Serialize)]
struct Body<'a> {
    model: &'a str,
    messages: Vec<WireMessage<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tools: Vec<WireTool<'a>>,
    stream: bool,
    options: Options,
}

#[derive(Serialize)]
struct Options {
    #[serde(skip_serializing_if = "Option::is_none")]
    num_ctx: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    num_predict: Option<u32>,
}

#[derive(Serialize)]
struct WireMessage<'a> {
    role: &'static str,
    content: Cow<'a, str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    images: Vec<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_calls: Vec<WireToolCall<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_name: Option<&'a str>,
}

impl<'a> WireMessage<'a> {
    fn text(role: &'static str, content: Cow<'a, str>) -> WireMessage<'a> {
        WireMessage { role, content, images: Vec::new(), tool_calls: Vec::new(), tool_name: None }
    }
}

#[derive(Serialize)]
struct WireToolCall<'a> {
    function: WireFunctionCall<'a>,
}

#[derive(Serialize)]
struct WireFunctionCall<'a> {
    name: &'a str,
    /// Ollama takes the arguments as an object, not a JSON string.
    arguments: &'a Value,
}

fn push_user<'a>(message: &'a Message, names: &HashMap<&'a str, &'a str>, out: &mut Vec<WireMessage<'a>>) {
    for block in &message.content {
        if let ContentBlock::ToolResult { tool_use_id, content, is_error } = block {
            let mut wire = WireMessage::text("tool", tool_text(content, *is_error));
            wire.tool_name = names.get(tool_use_id.as_str()).copied();
            out.push(wire);
        }
    }
    let mut texts = Vec::new();
    let mut images = Vec::new();
    for block in &message.content {
        match block {
            ContentBlock::Text { text } if !text.trim().is_empty() => texts.push(text.as_str()),
            ContentBlock::Image { data, .. } => images.push(data.as_str()),
            _ => {}
        }
    }
    if texts.is_empty() && images.is_empty() {
        return;
    }
    let content = if texts.len() == 1 { Cow::Borrowed(texts[0]) } else { Cow::Owned(texts.join("\n\n")) };
    out.push(WireMessage { images, ..WireMessage::text("user", content) });
}

/// Tool messages carry text only: images become a note, and an error is marked as one.
fn tool_text(content: &[ResultPart], is_error: bool) -> Cow<'_, str> {
    let pieces: Vec<&str> = content
        .iter()
        .map(|part| match part {
            ResultPart::Text { text } => text.as_str(),
            ResultPart::Image { .. } => "[image omitted: Ollama takes no images in tool results]",
        })
        .collect();
    let text: Cow<'_, str> = match pieces.as_slice() {
        [] => Cow::Borrowed("(empty result)"),
        [one] => Cow::Borrowed(one),
        many => Cow::Owned(many.join("\n")),
    };
    if is_error && !text.starts_with("Error") { Cow::Owned(format!("Error: {text}")) } else { text }
}

fn push_assistant<'a>(message: &'a Message, names: &mut HashMap<&'a str, &'a str>, out: &mut Vec<WireMessage<'a>>) {
    let texts: Vec<&str> = message
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text { text } if !text.trim().is_empty() => Some(text.as_str()),
            _ => None,
        })
        .collect();
    let mut tool_calls = Vec::new();
    for block in &message.content {
        if let ContentBlock::ToolUse { id, name, input } = block {
            names.insert(id.as_str(), name.as_str());
            tool_calls.push(WireToolCall { function: WireFunctionCall { name, arguments: input } });
        }
    }
    if texts.is_empty() && tool_calls.is_empty() {
        return;
    }
    out.push(WireMessage { tool_calls, ..WireMessage::text("assistant", Cow::Owned(texts.join("\n\n"))) });
}

/// Ollama's error body: `{"error": "..."}`.
pub fn parse_error(status: u16, body: &str, retry_after_ms: Option<u32>) -> LlmError {
    let message = serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|value| value.get("error").and_then(Value::as_str).map(str::to_owned));
    let message = message.unwrap_or_else(|| match body.trim() {
        "" => "no error message in the response".to_owned(),
        text => text.chars().take(300).collect(),
    });
    LlmError::Api { provider: PROVIDER.to_owned(), status, message, retry_after_ms }
}

#[derive(Deserialize)]
struct Line {
    #[serde(default)]
    message: Option<LineMessage>,
    #[serde(default)]
    done: bool,
    #[serde(default)]
    done_reason: Option<String>,
    #[serde(default)]
    prompt_eval_count: Option<u64>,
    #[serde(default)]
    eval_count: Option<u64>,
    #[serde(default)]
    error: Option<Value>,
}

#[derive(Deserialize)]
struct LineMessage {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    tool_calls: Option<Vec<LineToolCall>>,
}

#[derive(Deserialize)]
struct LineToolCall {
    #[serde(default)]
    id: Option<String>,
    function: LineFunction,
}

#[derive(Deserialize)]
struct LineFunction {
    name: String,
    /// An object; some versions and proxies send a JSON string.
    #[serde(default)]
    arguments: Value,
}

/// Turns each NDJSON line of a `/api/chat` stream into model events and a [`ModelReply`]. Ollama
/// sends a tool call whole, in one line, without an id: ids are made from `id_prefix`.
pub struct StreamDecoder {
    id_prefix: String,
    text: String,
    calls: Vec<ContentBlock>,
    malformed: Vec<MalformedInput>,
    usage: Usage,
    done_reason: Option<String>,
    done: bool,
}

impl StreamDecoder {
    pub fn new(id_prefix: impl Into<String>) -> StreamDecoder {
        StreamDecoder {
            id_prefix: id_prefix.into(),
            text: String::new(),
            calls: Vec::new(),
            malformed: Vec::new(),
            usage: Usage::default(),
            done_reason: None,
            done: false,
        }
    }

    pub fn feed(&mut self, line: &str, events: &mut Vec<ModelEvent>) -> Result<(), LlmError> {
        if line.trim().is_empty() {
            return Ok(());
        }
        let line: Line = serde_json::from_str(line).map_err(|error| LlmError::Stream {
            provider: PROVIDER.to_owned(),
            detail: format!("unreadable stream line ({error})"),
        })?;
        if let Some(error) = line.error {
            let message = error.as_str().map(str::to_owned).unwrap_or_else(|| error.to_string());
            // A failure mid-stream (the runner stopped, out of memory) has no status: a server error.
            return Err(LlmError::Api { provider: PROVIDER.to_owned(), status: 500, message, retry_after_ms: None });
        }
        if let Some(message) = line.message {
            if let Some(text) = message.content.filter(|text| !text.is_empty()) {
                self.text.push_str(&text);
                events.push(ModelEvent::TextDelta(text));
            }
            for call in message.tool_calls.unwrap_or_default() {
                self.push_call(call, events);
            }
        }
        if line.done {
            self.done = true;
            self.done_reason = line.done_reason;
            self.usage.input_tokens = line.prompt_eval_count.unwrap_or(0);
            self.usage.output_tokens = line.eval_count.unwrap_or(0);
        }
        Ok(())
    }

    fn push_call(&mut self, call: LineToolCall, events: &mut Vec<ModelEvent>) {
        let id = call.id.filter(|id| !id.is_empty()).unwrap_or_else(|| format!("{}_{}", self.id_prefix, self.calls.len()));
        let raw = match &call.function.arguments {
            Value::String(text) => text.clone(),
            Value::Null => String::new(),
            other => other.to_string(),
        };
        events.push(ModelEvent::ToolUseStarted { id: id.clone(), name: call.function.name.clone() });
        if !raw.is_empty() {
            events.push(ModelEvent::ToolInputDelta { id: id.clone(), delta: raw.clone() });
        }
        let input = parse_tool_input(&raw).unwrap_or_else(|| {
            self.malformed.push(MalformedInput { id: id.clone(), raw });
            Value::Object(Default::default())
        });
        self.calls.push(ContentBlock::ToolUse { id, name: call.function.name, input });
    }

    pub fn finish(self, request_bytes: usize) -> Result<ModelReply, LlmError> {
        if !self.done {
            return Err(LlmError::Stream {
                provider: PROVIDER.to_owned(),
                detail: "the stream ended before the reply was complete".to_owned(),
            });
        }
        let has_calls = !self.calls.is_empty();
        let mut content = Vec::with_capacity(1 + self.calls.len());
        if !self.text.is_empty() {
            content.push(ContentBlock::Text { text: self.text });
        }
        content.extend(self.calls);
        let finish = match self.done_reason.as_deref() {
            Some("length") => FinishReason::MaxTokens,
            _ if has_calls => FinishReason::ToolUse,
            Some("stop") | Some("") | None => FinishReason::EndTurn,
            Some(other) => FinishReason::Other(other.to_owned()),
        };
        Ok(ModelReply { content, finish, usage: self.usage, malformed: self.malformed, request_bytes })
    }
}

/// Splits a byte stream into lines (NDJSON), refusing a line longer than `max_line_bytes`.
pub struct LineBuffer {
    pending: Vec<u8>,
    max_line_bytes: usize,
}

impl LineBuffer {
    pub fn new(max_line_bytes: usize) -> LineBuffer {
        LineBuffer { pending: Vec::new(), max_line_bytes }
    }

    /// The complete lines `chunk` ends, without their line breaks (UTF-8, lossy).
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Vec<String>, LineTooLong> {
        self.pending.extend_from_slice(chunk);
        let mut lines = Vec::new();
        while let Some(end) = self.pending.iter().position(|byte| *byte == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            lines.push(String::from_utf8_lossy(&line).trim_end_matches(['\n', '\r']).to_owned());
        }
        if self.pending.len() > self.max_line_bytes {
            return Err(LineTooLong { limit: self.max_line_bytes });
        }
        Ok(lines)
    }

    /// What is left when the stream ends: a last line without a line break.
    pub fn finish(self) -> Option<String> {
        let rest = String::from_utf8_lossy(&self.pending).trim().to_owned();
        (!rest.is_empty()).then_some(rest)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a stream line is longer than {limit} bytes")]
pub struct LineTooLong {
    pub limit: usize,
}
