//! The real chat model: sends the provider's request through [`HttpTransport`], retries transient
//! failures with backoff, and decodes the SSE stream while it arrives. A provider silent for longer
//! than the settings' first-byte or idle limit is given up on (and retried); Stop aborts the request.

use std::future::Future;
use std::rc::Rc;

use futures::StreamExt;
use futures::future::{Either, LocalBoxFuture, select};

use crate::cancel::CancelToken;
use crate::ids::base36;
use crate::llm::model::{ChatModel, ChatRequest, LlmError, ModelEvent, ModelReply};
use crate::llm::retry::{RetryPolicy, retry_after_ms};
use crate::llm::{anthropic, openai};
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
}

impl HttpChatModel {
    pub fn new(transport: Rc<dyn HttpTransport>, clock: Rc<dyn Clock>, random: Rc<dyn Random>) -> HttpChatModel {
        HttpChatModel { transport, clock, random, policy: RetryPolicy::default() }
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
        let http = wire.build(&request, settings)?;
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
        let mut stream = SseStream::new(response.body, MAX_EVENT_BYTES);
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
                Some(Err(SseError::Body(HttpError::Aborted))) => return Err(LlmError::Cancelled),
                None => break,
                Some(Err(error)) => {
                    return Err(LlmError::Stream { provider: wire.label(settings), detail: error.to_string() });
                }
                Some(Ok(event)) => {
                    decoder.feed(&event.data, &mut pending)?;
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
    fn request_bytes(&self, request: &ChatRequest<'_>, settings: &Settings) -> usize {
        match Wire::of(settings) {
            Wire::Anthropic => anthropic::request_body(request, &settings.model).len(),
            Wire::OpenAi => openai::request_body_for(request, settings).len(),
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
}

impl Wire {
    fn of(settings: &Settings) -> Wire {
        match settings.provider {
            ProviderKind::Anthropic => Wire::Anthropic,
            ProviderKind::OpenAi => Wire::OpenAi,
        }
    }

    fn label(&self, settings: &Settings) -> String {
        match self {
            Wire::Anthropic => anthropic::PROVIDER.to_owned(),
            Wire::OpenAi => openai::provider_label(&settings.base_url),
        }
    }

    fn build(&self, request: &ChatRequest<'_>, settings: &Settings) -> Result<HttpRequest, LlmError> {
        match self {
            Wire::Anthropic => anthropic::build_request(request, settings),
            Wire::OpenAi => openai::build_request(request, settings),
        }
    }

    fn parse_error(&self, settings: &Settings, status: u16, body: &str, retry_after_ms: Option<u32>) -> LlmError {
        match self {
            Wire::Anthropic => anthropic::parse_error(status, body, retry_after_ms),
            Wire::OpenAi => openai::parse_error(&settings.base_url, status, body, retry_after_ms),
        }
    }

    fn decoder(&self, settings: &Settings, id_prefix: String) -> Decoder {
        match self {
            Wire::Anthropic => Decoder::Anthropic(anthropic::StreamDecoder::new()),
            Wire::OpenAi => Decoder::OpenAi(openai::StreamDecoder::new(&settings.base_url, id_prefix)),
        }
    }

    fn unreachable_hint(&self) -> &'static str {
        match self {
            Wire::Anthropic => "check the network connection (a browser reports a refused CORS request the same way)",
            Wire::OpenAi => {
                "check that the server is running and accepts requests from this page (CORS); \
                 for Ollama, set OLLAMA_ORIGINS to this page's origin"
            }
        }
    }
}

enum Decoder {
    Anthropic(anthropic::StreamDecoder),
    OpenAi(openai::StreamDecoder),
}

impl Decoder {
    fn feed(&mut self, data: &str, events: &mut Vec<ModelEvent>) -> Result<(), LlmError> {
        match self {
            Decoder::Anthropic(decoder) => decoder.feed(data, events),
            Decoder::OpenAi(decoder) => decoder.feed(data, events),
        }
    }

    fn finish(self, request_bytes: usize) -> Result<ModelReply, LlmError> {
        match self {
            Decoder::Anthropic(decoder) => decoder.finish(request_bytes),
            Decoder::OpenAi(decoder) => decoder.finish(request_bytes),
        }
    }
}
