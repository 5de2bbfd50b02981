//! The Streamable HTTP transport (2025-03-26 and later): one URL, a POST per message, answers as JSON
//! or as an SSE stream, an optional GET stream for server-initiated messages, resumption by `Last-Event-ID`.

use std::cell::RefCell;
use std::rc::Rc;

use futures::StreamExt;
use futures::stream::LocalBoxStream;
use serde_json::Value;

use crate::cancel::CancelToken;
use crate::mcp::config::Backoff;
use crate::mcp::cut::{self, AnswerCaps, CutAnswer, YIELD_EVERY_BYTES};
use crate::mcp::error::McpError;
use crate::mcp::inbound::Inbound;
use crate::mcp::jsonrpc::{self, Message, Request, RequestId};
use crate::mcp::sse::{SseEvent, SseStream};
use crate::ports::{Clock, HttpError, HttpRequest, HttpResponse, HttpTransport, Method};

pub const SESSION_HEADER: &str = "Mcp-Session-Id";
pub const PROTOCOL_VERSION_HEADER: &str = "MCP-Protocol-Version";
pub const LAST_EVENT_ID_HEADER: &str = "Last-Event-ID";
/// Both types must be listed: the server picks JSON or an SSE stream per request.
const ACCEPT_JSON_OR_SSE: &str = "application/json, text/event-stream";
const ACCEPT_SSE: &str = "text/event-stream";
/// Error bodies are only read to quote them.
const ERROR_BODY_LIMIT: usize = 64 * 1024;

type EventStream = SseStream<LocalBoxStream<'static, Result<Vec<u8>, HttpError>>>;

pub(crate) struct StreamableLink<H: ?Sized> {
    http: Rc<H>,
    clock: Rc<dyn Clock>,
    url: String,
    authorization: Option<String>,
    session_id: RefCell<Option<String>>,
    protocol_version: RefCell<Option<String>>,
    max_message_bytes: usize,
    caps: AnswerCaps,
    backoff: Backoff,
}

/// What a GET for the server's stream gave.
enum Opened {
    Stream(EventStream),
    /// 405 (or another 4xx): the server offers no GET stream, which the spec allows.
    NotOffered,
}

/// Where reading a stream stopped.
enum Stopped {
    Answered(Result<Value, McpError>),
    Broke(McpError),
}

impl<H: HttpTransport + ?Sized> StreamableLink<H> {
    pub(crate) fn new(
        http: Rc<H>,
        clock: Rc<dyn Clock>,
        url: &str,
        authorization: Option<String>,
        max_message_bytes: usize,
        caps: AnswerCaps,
        backoff: Backoff,
    ) -> StreamableLink<H> {
        StreamableLink {
            http,
            clock,
            url: url.to_owned(),
            authorization,
            session_id: RefCell::new(None),
            protocol_version: RefCell::new(None),
            max_message_bytes,
            caps,
            backoff,
        }
    }

    /// Forgets the session, so the next `initialize` goes out without its header.
    pub(crate) fn reset_session(&self) {
        *self.session_id.borrow_mut() = None;
        *self.protocol_version.borrow_mut() = None;
    }

    pub(crate) fn set_protocol_version(&self, version: &str) {
        *self.protocol_version.borrow_mut() = Some(version.to_owned());
    }

    /// Sends `request` and waits for its answer, queueing server requests for answering and
    /// forwarding notifications that arrive on the way. An answer over its cap ([`AnswerCaps`]) is
    /// cut as it streams in and comes back as [`McpError::Cut`].
    pub(crate) async fn request(
        &self,
        request: &Request,
        inbound: &Inbound,
        abort: &CancelToken,
    ) -> Result<Value, McpError> {
        let response = match request.method {
            jsonrpc::Method::Initialize => self.post_initialize(to_json(request), abort).await?,
            _ => self.post(to_json(request), abort).await?,
        };
        let keep = self.caps.for_method(&request.method);
        let event_stream = is_event_stream(&response);
        let status = response.status;
        let response = HttpResponse {
            body: cut::yielding(response.body, self.clock.clone(), YIELD_EVERY_BYTES),
            ..response
        };
        if event_stream {
            let stream = self.event_stream(response, keep);
            return self.read_answer(stream, &request.id, keep, inbound, abort).await;
        }
        let text = match keep {
            Some(cap) => {
                let (kept, total_bytes) = response
                    .text_cut(cap)
                    .await
                    .map_err(|error| McpError::from_http(&self.url, error))?;
                if total_bytes > cap {
                    return Err(McpError::Cut(CutAnswer { kept, total_bytes, cap }));
                }
                kept
            }
            None => response
                .text(self.max_message_bytes)
                .await
                .map_err(|error| McpError::from_http(&self.url, error))?,
        };
        if text.trim().is_empty() {
            return Err(McpError::Protocol(format!(
                "the server accepted request {} (HTTP {status}) but sent no answer",
                request.id
            )));
        }
        let messages = Message::parse_all(&text).map_err(|error| not_json_rpc(&text, &error))?;
        let mut answer = None;
        for message in messages {
            if let Some(outcome) = self.route(message, Some(&request.id), inbound) {
                answer = Some(outcome);
            }
        }
        answer.unwrap_or_else(|| {
            Err(McpError::Protocol(format!(
                "the response did not answer request {}",
                request.id
            )))
        })
    }

    /// POSTs a notification or a response (the server answers 202 with no body).
    pub(crate) async fn send(
        &self,
        message: &Message,
        abort: &CancelToken,
    ) -> Result<(), McpError> {
        self.post(message.to_json(), abort).await.map(drop)
    }

    /// Keeps the server's GET stream open for requests and notifications it sends on its own,
    /// reopening it with `Last-Event-ID` when it drops. Returns only when it cannot go on.
    pub(crate) async fn listen(&self, inbound: &Inbound, stop: &CancelToken) -> McpError {
        let mut last_event_id: Option<String> = None;
        let mut retry_hint = None;
        let mut failures = 0;
        loop {
            if stop.is_cancelled() {
                return McpError::Closed;
            }
            match self.open_stream(last_event_id.as_deref(), None, stop).await {
                Ok(Opened::NotOffered) => futures::future::pending::<()>().await,
                Ok(Opened::Stream(mut stream)) => {
                    failures = 0;
                    while let Some(item) = stream.next().await {
                        let Ok(event) = item else { break };
                        last_event_id = event.id.clone().or(last_event_id);
                        // Answers never arrive here, so nothing can be waiting on this stream.
                        let _ = self.handle_event(event, None, inbound);
                    }
                    retry_hint = stream.retry_ms().or(retry_hint);
                }
                Err(McpError::SessionExpired) => return McpError::SessionExpired,
                Err(error) => {
                    failures += 1;
                    if failures >= self.backoff.max_attempts {
                        return error;
                    }
                }
            }
            self.clock
                .sleep(self.backoff.delay_ms(failures, retry_hint))
                .await;
        }
    }

    /// Ends the session on the server (it may answer 405, which is fine).
    pub(crate) async fn delete(&self, abort: &CancelToken) {
        if self.session_id.borrow().is_none() {
            return;
        }
        let request = self.with_headers(HttpRequest::new(Method::Delete, &self.url));
        let _ = self.http.send(request, abort.clone()).await;
        self.reset_session();
    }

    async fn post(&self, body: String, abort: &CancelToken) -> Result<HttpResponse, McpError> {
        self.send_checked(self.with_headers(self.post_request(body)), abort).await
    }

    /// POSTs `initialize`, which starts a new session: without the headers of the one it may be
    /// renewing (requests still sent with those meet the expiry and wait for the renewal), and
    /// keeping the id its answer gives, if any.
    async fn post_initialize(&self, body: String, abort: &CancelToken) -> Result<HttpResponse, McpError> {
        let response = self
            .send_checked(self.with_authorization(self.post_request(body)), abort)
            .await?;
        *self.session_id.borrow_mut() = response.header(SESSION_HEADER).map(str::to_owned);
        Ok(response)
    }

    fn post_request(&self, body: String) -> HttpRequest {
        HttpRequest::new(Method::Post, &self.url)
            .header("Accept", ACCEPT_JSON_OR_SSE)
            .json_body(body)
    }

    /// Opens the server's GET stream; `keep` cuts its events as [`Self::event_stream`] does.
    async fn open_stream(
        &self,
        last_event_id: Option<&str>,
        keep: Option<usize>,
        abort: &CancelToken,
    ) -> Result<Opened, McpError> {
        let mut request = HttpRequest::new(Method::Get, &self.url).header("Accept", ACCEPT_SSE);
        if let Some(id) = last_event_id {
            request = request.header(LAST_EVENT_ID_HEADER, id);
        }
        match self.send_checked(self.with_headers(request), abort).await {
            Ok(response) if is_event_stream(&response) => Ok(Opened::Stream(self.event_stream(response, keep))),
            Ok(response) => Err(McpError::Protocol(format!(
                "the GET stream answered with content type \"{}\" instead of text/event-stream",
                response.header("content-type").unwrap_or("")
            ))),
            // 405 is the spec's "no stream here"; other 4xx mean the same in practice.
            Err(McpError::Http { status, .. }) if (400..500).contains(&status) => {
                Ok(Opened::NotOffered)
            }
            Err(error) => Err(error),
        }
    }

    /// Sends with the session headers and turns non-2xx answers into errors.
    async fn send_checked(
        &self,
        request: HttpRequest,
        abort: &CancelToken,
    ) -> Result<HttpResponse, McpError> {
        let sent_session = request
            .headers
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case(SESSION_HEADER));
        let session_header_missing =
            self.protocol_version.borrow().is_some() && self.session_id.borrow().is_none();
        let response = self
            .http
            .send(request, abort.clone())
            .await
            .map_err(|error| McpError::from_http(&self.url, error))?;
        if (200..300).contains(&response.status) {
            return Ok(response);
        }
        if response.status == 404 && sent_session {
            return Err(McpError::SessionExpired);
        }
        let status = response.status;
        let body = response.text(ERROR_BODY_LIMIT).await.unwrap_or_default();
        let refusal = rpc_error_in(&body);
        // Servers built on the TypeScript SDK (server-everything among them) answer a session id
        // they do not know, after a restart, with 400 "Bad Request: No valid session ID provided".
        if status == 400 && sent_session && refusal.as_ref().is_some_and(names_the_session) {
            return Err(McpError::SessionExpired);
        }
        if let Some(error) = refusal {
            return Err(error);
        }
        Err(McpError::Http {
            status,
            url: self.url.clone(),
            message: describe_status(status, &body, session_header_missing),
        })
    }

    /// The response's events, each cut to `keep` bytes when given (else refused past the message cap).
    fn event_stream(&self, response: HttpResponse, keep: Option<usize>) -> EventStream {
        match keep {
            Some(keep) => SseStream::cutting(response.body, self.max_message_bytes, keep),
            None => SseStream::new(response.body, self.max_message_bytes),
        }
    }

    fn with_headers(&self, request: HttpRequest) -> HttpRequest {
        let mut request = self.with_authorization(request);
        if let Some(session_id) = self.session_id.borrow().as_deref() {
            request = request.header(SESSION_HEADER, session_id);
        }
        if let Some(version) = self.protocol_version.borrow().as_deref() {
            request = request.header(PROTOCOL_VERSION_HEADER, version);
        }
        request
    }

    fn with_authorization(&self, request: HttpRequest) -> HttpRequest {
        match &self.authorization {
            Some(authorization) => request.header("Authorization", authorization.as_str()),
            None => request,
        }
    }

    /// Reads an SSE answer stream until the answer to `waiting`; when the stream drops first and the
    /// server numbered its events, resumes it with a GET carrying `Last-Event-ID`.
    async fn read_answer(
        &self,
        mut stream: EventStream,
        waiting: &RequestId,
        keep: Option<usize>,
        inbound: &Inbound,
        abort: &CancelToken,
    ) -> Result<Value, McpError> {
        let mut last_event_id: Option<String> = None;
        let mut retry_hint = None;
        let mut attempt = 0;
        loop {
            let broke = match self
                .read_stream(&mut stream, waiting, keep, inbound, &mut last_event_id)
                .await
            {
                Stopped::Answered(outcome) => return outcome,
                Stopped::Broke(reason) => reason,
            };
            retry_hint = stream.retry_ms().or(retry_hint);
            let Some(resume_from) = last_event_id.clone() else {
                return Err(broke);
            };
            if matches!(broke, McpError::TooLarge { .. } | McpError::Cancelled)
                || attempt >= self.backoff.max_attempts
            {
                return Err(broke);
            }
            self.clock
                .sleep(self.backoff.delay_ms(attempt, retry_hint))
                .await;
            attempt += 1;
            stream = match self.open_stream(Some(&resume_from), keep, abort).await {
                Ok(Opened::Stream(stream)) => stream,
                Ok(Opened::NotOffered) => return Err(broke),
                // The server took the request and may have acted on it: renewing the session and
                // sending it again could run a tool twice.
                Err(McpError::SessionExpired) => return Err(McpError::SessionEndedBeforeAnswer),
                Err(error) => return Err(error),
            };
        }
    }

    async fn read_stream(
        &self,
        stream: &mut EventStream,
        waiting: &RequestId,
        keep: Option<usize>,
        inbound: &Inbound,
        last_event_id: &mut Option<String>,
    ) -> Stopped {
        while let Some(item) = stream.next().await {
            match item {
                Ok(event) => {
                    if event.id.is_some() {
                        last_event_id.clone_from(&event.id);
                    }
                    if let (Some(cap), true) = (keep, event.dropped > 0) {
                        let total_bytes = event.data.len() + event.dropped;
                        let answer = CutAnswer { kept: event.data, total_bytes, cap };
                        // A cut message on a request's stream is its answer unless it names another id
                        // (servers that put the id after the result leave it in the part dropped).
                        if answer.answer_id().is_none_or(|id| &id == waiting) {
                            return Stopped::Answered(Err(McpError::Cut(answer)));
                        }
                        continue;
                    }
                    if let Some(outcome) = self.handle_event(event, Some(waiting), inbound) {
                        return Stopped::Answered(outcome);
                    }
                }
                Err(error) => return Stopped::Broke(McpError::from_sse(&self.url, error)),
            }
        }
        // Events without data still move the resumption point (the 2025-11-25 priming event).
        if let Some(id) = stream.last_event_id() {
            *last_event_id = Some(id.to_owned());
        }
        Stopped::Broke(McpError::StreamEnded)
    }

    /// Handles one SSE event; returns the outcome when it carries the answer to `waiting`.
    fn handle_event(
        &self,
        event: SseEvent,
        waiting: Option<&RequestId>,
        inbound: &Inbound,
    ) -> Option<Result<Value, McpError>> {
        if event.event != "message" || event.data.trim().is_empty() {
            return None;
        }
        let messages = match Message::parse_all(&event.data) {
            Ok(messages) => messages,
            // A broken message on a request's stream is most likely its answer.
            Err(error) => return waiting.map(|_| Err(not_json_rpc(&event.data, &error))),
        };
        let mut answer = None;
        for message in messages {
            if let Some(outcome) = self.route(message, waiting, inbound) {
                answer = Some(outcome);
            }
        }
        answer
    }

    fn route(
        &self,
        message: Message,
        waiting: Option<&RequestId>,
        inbound: &Inbound,
    ) -> Option<Result<Value, McpError>> {
        match message {
            Message::Response(response) if Some(&response.id) == waiting => {
                Some(Ok(response.result))
            }
            Message::Error(error)
                if waiting.is_some() && (error.id.is_none() || error.id.as_ref() == waiting) =>
            {
                Some(Err(McpError::Rpc {
                    code: error.error.code,
                    message: error.error.message,
                    data: error.error.data,
                }))
            }
            Message::Request(request) => {
                // Answered by the session's task, so the stream is read on while the person is asked.
                // A request on a call's stream belongs to that call; one on the GET stream, to none.
                inbound.ask(request, waiting.map(std::slice::from_ref).unwrap_or_default());
                None
            }
            Message::Notification(notification) => {
                inbound.notification(notification);
                None
            }
            // Late answers to requests given up on.
            Message::Response(_) | Message::Error(_) => None,
        }
    }
}

/// A request's wire text, serialised in place (its arguments are not copied).
pub(crate) fn to_json(request: &Request) -> String {
    serde_json::to_string(request).unwrap_or_default()
}

fn is_event_stream(response: &HttpResponse) -> bool {
    response.header("content-type").is_some_and(|value| {
        value
            .trim_start()
            .to_ascii_lowercase()
            .starts_with(ACCEPT_SSE)
    })
}

/// A JSON-RPC error carried by a non-2xx answer: the server speaks MCP and refused the request.
pub(crate) fn rpc_error_in(body: &str) -> Option<McpError> {
    Message::parse_all(body)
        .ok()?
        .into_iter()
        .find_map(|message| match message {
            Message::Error(error) => Some(McpError::Rpc {
                code: error.error.code,
                message: error.error.message,
                data: error.error.data,
            }),
            _ => None,
        })
}

/// Whether a refusal speaks of the session (unknown, invalid or missing).
fn names_the_session(refusal: &McpError) -> bool {
    matches!(refusal, McpError::Rpc { message, .. } if message.to_ascii_lowercase().contains("session"))
}

fn not_json_rpc(text: &str, error: &serde_json::Error) -> McpError {
    McpError::Protocol(format!(
        "not a JSON-RPC 2.0 message ({error}): {}",
        snippet(text)
    ))
}

/// The server's own words when it gave some, plus what the user can do about common statuses.
pub(crate) fn describe_status(status: u16, body: &str, session_header_missing: bool) -> String {
    let said = snippet(body);
    let mut message = if said.is_empty() {
        reason_phrase(status).to_owned()
    } else {
        said
    };
    match status {
        401 => message.push_str(" (the server needs authorization: set the server's bearer token, or check it)"),
        403 => message.push_str(" (access refused: check the bearer token and the server's allowed origins)"),
        400 if session_header_missing => message.push_str(
            " (the server may need its Mcp-Session-Id header, which a page can only read when the server lists it in Access-Control-Expose-Headers)",
        ),
        _ => {}
    }
    message
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        400 => "bad request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not found",
        405 => "method not allowed",
        406 => "not acceptable",
        415 => "unsupported media type",
        429 => "too many requests",
        500 => "internal server error",
        502 => "bad gateway",
        503 => "service unavailable",
        504 => "gateway timeout",
        _ => "no message",
    }
}

fn snippet(text: &str) -> String {
    const MAX_CHARS: usize = 300;
    let trimmed = text.trim();
    match trimmed.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => format!("{}…", &trimmed[..cut]),
        None => trimmed.to_owned(),
    }
}
