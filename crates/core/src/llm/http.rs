//! The real chat model: sends the provider's request through [`HttpTransport`], retries transient
//! failures with backoff, and decodes the stream (SSE, or Ollama's NDJSON) while it arrives. A
//! provider silent for longer than the settings' first-byte or idle limit is given up on (and
//! retried); Stop aborts the request. For Ollama it first reads the model's context length from
//! `/api/show` (once per endpoint and model) to ask for a context that holds the whole request.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::rc::Rc;

use futures::StreamExt;
use futures::future::{Either, LocalBoxFuture, select};
use futures::stream::LocalBoxStream;

use crate::cancel::CancelToken;
use crate::ids::base36;
use crate::llm::model::{ChatModel, ChatRequest, LlmError, ModelEvent, ModelReply};
use crate::llm::retry::{RetryPolicy, retry_after_ms};
use crate::llm::{anthropic, ollama, openai};
use crate::mcp::sse::{SseError, SseStream};
use crate::ports::{Clock, HttpError, HttpRequest, HttpResponse, HttpTransport, Random};
use crate::settings::{ProviderKind, Settings};

/// Largest error body read to extract the provider's message.
const ERROR_BODY_LIMIT: usize = 64 * 1024;
/// Largest single SSE event (deltas are small; this only stops a runaway stream).
const MAX_EVENT_BYTES: usize = 8 * 1024 * 1024;
/// Largest whole JSON reply from a server that ignored `stream: true`.
const MAX_JSON_REPLY: usize = 16 * 1024 * 1024;

pub struct HttpChatModel {
    transport: Rc<dyn HttpTransport>,
    clock: Rc<dyn Clock>,
    random: Rc<dyn Random>,
    policy: RetryPolicy,
    /// Context lengths Ollama's `/api/show` reported, by (server root, model).
    ollama_contexts: RefCell<HashMap<(String, String), u32>>,
}

impl HttpChatModel {
    pub fn new(transport: Rc<dyn HttpTransport>, clock: Rc<dyn Clock>, random: Rc<dyn Random>) -> HttpChatModel {
        HttpChatModel { transport, clock, random, policy: RetryPolicy::default(), ollama_contexts: RefCell::default() }
    }

    pub fn with_policy(self, policy: RetryPolicy) -> HttpChatModel {
        HttpChatModel { policy, ..self }
    }

    async fn complete_with_retries(
        &self,
        request: ChatRequest<'_>,
        settings: &Settings,
        cancel: CancelToken,
        events: &dyn Fn(ModelEvent),
    ) -> Result<ModelReply, LlmError> {
        let wire = Wire::of(settings);
        if let Some(host) = settings.unconfirmed_cleartext_key() {
            return Err(LlmError::CleartextKey { host });
        }
        let num_ctx = match wire {
            Wire::Ollama => ollama::num_ctx(settings, self.ollama_context(settings, &cancel).await?),
            _ => 0,
        };
        let http = wire.build(&request, settings, num_ctx)?;
        let mut retry = 0;
        loop {
            let mut emitted = false;
            let error = match self.attempt(&wire, http.clone(), settings, &cancel, events, &mut emitted).await {
                Ok(reply) => return Ok(reply),
                Err(error) => error,
            };
            // A failure after text reached the user is not retried: the retry would repeat it.
            if !error.is_retryable() || emitted {
                return Err(error);
            }
            retry += 1;
            let asked = match &error {
                LlmError::Api { retry_after_ms, .. } => *retry_after_ms,
                _ => None,
            };
            let Some(delay_ms) = self.policy.delay_ms(retry, asked, &*self.random) else {
                return Err(error);
            };
            events(ModelEvent::RetryScheduled { attempt: retry, delay_ms, reason: error.to_string() });
            if cancel.run(self.clock.sleep(delay_ms)).await.is_none() {
                return Err(LlmError::Cancelled);
            }
        }
    }

    /// The context length `/api/show` reports for the settings' model, asked once per endpoint and
    /// model. `None` when Ollama does not say (an older server, a failed request): the profile's
    /// window is used then, and the chat request itself reports an unreachable server.
    async fn ollama_context(&self, settings: &Settings, cancel: &CancelToken) -> Result<Option<u32>, LlmError> {
        let key = (ollama::root(&settings.base_url).to_owned(), settings.model.trim().to_owned());
        if let Some(known) = self.ollama_contexts.borrow().get(&key) {
            return Ok(Some(*known));
        }
        let request = ollama::build_show_request(settings);
        let shown = async {
            let response = self.transport.send(request, cancel.clone()).await.ok()?;
            if !(200..300).contains(&response.status) {
                return None;
            }
            ollama::context_length(&response.text(MAX_JSON_REPLY).await.ok()?)
        };
        let shown = match cancel.run(within(&*self.clock, settings.first_byte_timeout_s, shown)).await {
            None => return Err(LlmError::Cancelled),
            Some(shown) => shown.flatten(),
        };
        if let Some(length) = shown {
            self.ollama_contexts.borrow_mut().insert(key, length);
        }
        Ok(shown)
    }

    async fn attempt(
        &self,
        wire: &Wire,
        http: HttpRequest,
        settings: &Settings,
        cancel: &CancelToken,
        events: &dyn Fn(ModelEvent),
        emitted: &mut bool,
    ) -> Result<ModelReply, LlmError> {
        let request_bytes = http.body.as_ref().map_or(0, String::len);
        let url = http.url.clone();
        let timed_out = |seconds: u32, phase: &'static str| LlmError::TimedOut {
            provider: wire.label(settings),
            seconds,
            phase,
        };
        let first_byte = settings.first_byte_timeout_s;
        let sent = within(&*self.clock, first_byte, self.transport.send(http, cancel.clone()));
        let response = match cancel.run(sent).await {
            None | Some(Some(Err(HttpError::Aborted))) => return Err(LlmError::Cancelled),
            Some(None) => return Err(timed_out(first_byte, "before the reply started")),
            Some(Some(response)) => response,
        };
        let response = match response {
            Err(HttpError::Network(detail)) => {
                return Err(LlmError::Unreachable {
                    provider: wire.label(settings),
                    url,
                    detail,
                    hint: wire.unreachable_hint().to_owned(),
                });
            }
            Err(HttpError::Unanswered { cause, .. }) => {
                return Err(LlmError::Unreachable {
                    provider: wire.label(settings),
                    url,
                    detail: cause.to_string(),
                    hint: wire.unreachable_hint().to_owned(),
                });
            }
            Err(other) => {
                return Err(LlmError::Stream { provider: wire.label(settings), detail: other.to_string() });
            }
            Ok(response) => response,
        };
        if !(200..300).contains(&response.status) {
            return Err(read_error(wire, settings, response, cancel).await);
        }
        let id_prefix = format!("call_{}", base36(self.random.next_u64(), 8));
        let mut decoder = wire.decoder(settings, id_prefix);
        let mut pending = Vec::new();
        let content_type = response.header("content-type").unwrap_or_default().to_ascii_lowercase();
        if matches!(wire, Wire::OpenAi) && content_type.contains("json") && !content_type.contains("event-stream") {
            // A server that ignored `stream: true` sends one JSON body; the decoder reads it as one chunk.
            let body = match cancel.run(within(&*self.clock, first_byte, response.text(MAX_JSON_REPLY))).await {
                None => return Err(LlmError::Cancelled),
                Some(None) => return Err(timed_out(first_byte, "before the reply started")),
                Some(Some(Err(error))) => {
                    return Err(LlmError::Stream { provider: wire.label(settings), detail: error.to_string() });
                }
                Some(Some(Ok(body))) => body,
            };
            decoder.feed(&body, &mut pending)?;
            decoder.feed("[DONE]", &mut pending)?;
            pending.into_iter().for_each(events);
            return decoder.finish(request_bytes);
        }
        let mut stream = wire.frames(response.body);
        let mut first = true;
        loop {
            // Until the first event the first-byte limit applies (a provider may hold the headers'
            // stream while it reads a long prompt); after it, the idle limit between two events.
            let (limit, phase) = if first {
                (first_byte, "before the reply started")
            } else {
                (settings.idle_timeout_s, "in the middle of the reply")
            };
            let next = match cancel.run(within(&*self.clock, limit, stream.next())).await {
                None => return Err(LlmError::Cancelled),
                Some(None) => return Err(timed_out(limit, phase)),
                Some(Some(next)) => next,
            };
            first = false;
            match next {
                Some(Err(FrameError::Aborted)) => return Err(LlmError::Cancelled),
                None => break,
                Some(Err(FrameError::Unreadable(detail))) => {
                    return Err(LlmError::Stream { provider: wire.label(settings), detail });
                }
                Some(Ok(data)) => {
                    decoder.feed(&data, &mut pending)?;
                    for event in pending.drain(..) {
                        *emitted = true;
                        events(event);
                    }
                }
            }
        }
        decoder.finish(request_bytes)
    }
}

impl ChatModel for HttpChatModel {
    fn reported_context<'a>(&'a self, settings: &'a Settings, cancel: &'a CancelToken) -> LocalBoxFuture<'a, Option<u32>> {
        Box::pin(async move {
            // `/api/show` carries the key too: not before the person agreed to send it in the clear.
            if !matches!(Wire::of(settings), Wire::Ollama) || settings.unconfirmed_cleartext_key().is_some() {
                return None;
            }
            self.ollama_context(settings, cancel).await.ok().flatten()
        })
    }

    fn request_bytes(&self, request: &ChatRequest<'_>, settings: &Settings) -> usize {
        match Wire::of(settings) {
            Wire::Anthropic => anthropic::request_body(request, &settings.model).len(),
            Wire::OpenAi => openai::request_body_for(request, settings).len(),
            Wire::Ollama => {
                let key = (ollama::root(&settings.base_url).to_owned(), settings.model.trim().to_owned());
                let shown = self.ollama_contexts.borrow().get(&key).copied();
                ollama::request_body(request, settings.model.trim(), ollama::num_ctx(settings, shown)).len()
            }
        }
    }

    fn complete<'a>(
        &'a self,
        request: ChatRequest<'a>,
        settings: &'a Settings,
        cancel: CancelToken,
        events: &'a dyn Fn(ModelEvent),
    ) -> LocalBoxFuture<'a, Result<ModelReply, LlmError>> {
        Box::pin(self.complete_with_retries(request, settings, cancel, events))
    }
}

/// `work`'s output, or `None` when `limit_s` seconds pass first (0: no limit). Dropping `work` on
/// a timeout aborts its request (the transport's contract).
async fn within<T>(clock: &dyn Clock, limit_s: u32, work: impl Future<Output = T>) -> Option<T> {
    let work = std::pin::pin!(work);
    if limit_s == 0 {
        return Some(work.await);
    }
    match select(work, clock.sleep(limit_s.saturating_mul(1_000))).await {
        Either::Left((value, _)) => Some(value),
        Either::Right(((), _)) => None,
    }
}

async fn read_error(wire: &Wire, settings: &Settings, response: HttpResponse, cancel: &CancelToken) -> LlmError {
    let status = response.status;
    let asked = retry_after_ms(|name| response.header(name).map(str::to_owned));
    let body = match cancel.run(response.text(ERROR_BODY_LIMIT)).await {
        None => return LlmError::Cancelled,
        Some(body) => body.unwrap_or_default(),
    };
    wire.parse_error(settings, status, &body, asked)
}

/// The wire format chosen in settings.
enum Wire {
    Anthropic,
    OpenAi,
    Ollama,
}

impl Wire {
    fn of(settings: &Settings) -> Wire {
        match settings.provider {
            ProviderKind::Anthropic => Wire::Anthropic,
            ProviderKind::OpenAi => Wire::OpenAi,
            ProviderKind::Ollama => Wire::Ollama,
        }
    }

    fn label(&self, settings: &Settings) -> String {
        match self {
            Wire::Anthropic => anthropic::PROVIDER.to_owned(),
            Wire::OpenAi => openai::provider_label(&settings.base_url),
            Wire::Ollama => ollama::PROVIDER.to_owned(),
        }
    }

    fn build(&self, request: &ChatRequest<'_>, settings: &Settings, num_ctx: u32) -> Result<HttpRequest, LlmError> {
        match self {
            Wire::Anthropic => anthropic::build_request(request, settings),
            Wire::OpenAi => openai::build_request(request, settings),
            Wire::Ollama => Ok(ollama::build_request(request, settings, num_ctx)),
        }
    }

    fn parse_error(&self, settings: &Settings, status: u16, body: &str, retry_after_ms: Option<u32>) -> LlmError {
        match self {
            Wire::Anthropic => anthropic::parse_error(status, body, retry_after_ms),
            Wire::OpenAi => openai::parse_error(&settings.base_url, status, body, retry_after_ms),
            Wire::Ollama => ollama::parse_error(status, body, retry_after_ms),
        }
    }

    fn decoder(&self, settings: &Settings, id_prefix: String) -> Decoder {
        match self {
            Wire::Anthropic => Decoder::Anthropic(anthropic::StreamDecoder::new()),
            Wire::OpenAi => Decoder::OpenAi(openai::StreamDecoder::new(&settings.base_url, id_prefix)),
            Wire::Ollama => Decoder::Ollama(ollama::StreamDecoder::new(id_prefix)),
        }
    }

    /// The stream's pieces as the decoder reads them: SSE events' data, or Ollama's lines.
    fn frames(&self, body: Body) -> Frames {
        match self {
            Wire::Ollama => Frames::Lines { body, lines: Some(ollama::LineBuffer::new(MAX_EVENT_BYTES)), ready: VecDeque::new() },
            _ => Frames::Sse(SseStream::new(body, MAX_EVENT_BYTES)),
        }
    }

    fn unreachable_hint(&self) -> &'static str {
        match self {
            Wire::Anthropic => "check the network connection (a browser reports a refused CORS request the same way)",
            Wire::OpenAi => {
                "check that the server is running and accepts requests from this page (CORS); \
                 for Ollama, set OLLAMA_ORIGINS to this page's origin"
            }
            Wire::Ollama => {
                "check that Ollama is running and accepts requests from this page: start it with OLLAMA_ORIGINS \
                 set to this page's origin (and OLLAMA_HOST=0.0.0.0 on another machine)"
            }
        }
    }
}

type Body = LocalBoxStream<'static, Result<Vec<u8>, HttpError>>;

enum FrameError {
    Aborted,
    Unreadable(String),
}

enum Frames {
    Sse(SseStream<Body>),
    Lines { body: Body, lines: Option<ollama::LineBuffer>, ready: VecDeque<String> },
}

impl Frames {
    async fn next(&mut self) -> Option<Result<String, FrameError>> {
        match self {
            Frames::Sse(stream) => match stream.next().await? {
                Ok(event) => Some(Ok(event.data)),
                Err(SseError::Body(HttpError::Aborted)) => Some(Err(FrameError::Aborted)),
                Err(error) => Some(Err(FrameError::Unreadable(error.to_string()))),
            },
            Frames::Lines { body, lines, ready } => loop {
                if let Some(line) = ready.pop_front() {
                    return Some(Ok(line));
                }
                let buffer = lines.as_mut()?;
                match body.next().await {
                    Some(Ok(chunk)) => match buffer.feed(&chunk) {
                        Ok(complete) => ready.extend(complete),
                        Err(error) => return Some(Err(FrameError::Unreadable(error.to_string()))),
                    },
                    Some(Err(HttpError::Aborted)) => return Some(Err(FrameError::Aborted)),
                    Some(Err(error)) => return Some(Err(FrameError::Unreadable(error.to_string()))),
                    None => ready.extend(lines.take().and_then(ollama::LineBuffer::finish)),
                }
            },
        }
    }
}

enum Decoder {
    Anthropic(anthropic::StreamDecoder),
    OpenAi(openai::StreamDecoder),
    Ollama(ollama::StreamDecoder),
}

impl Decoder {
    fn feed(&mut self, data: &str, events: &mut Vec<ModelEvent>) -> Result<(), LlmError> {
        match self {
            Decoder::Anthropic(decoder) => decoder.feed(data, events),
            Decoder::OpenAi(decoder) => decoder.feed(data, events),
            Decoder::Ollama(decoder) => decoder.feed(data, events),
        }
    }

    fn finish(self, request_bytes: usize) -> Result<ModelReply, LlmError> {
        match self {
            Decoder::Anthropic(decoder) => decoder.finish(request_bytes),
            Decoder::OpenAi(decoder) => decoder.finish(request_bytes),
            Decoder::Ollama(decoder) => decoder.finish(request_bytes),
        }
    }
}
