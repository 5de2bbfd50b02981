//! The legacy HTTP+SSE transport (2024-11-05): a GET event stream whose first `endpoint` event names
//! the URL to POST to; every answer comes back as a `message` event, matched to its request by id.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use futures::channel::oneshot;
use futures::stream::{self, LocalBoxStream};
use futures::{Stream, StreamExt};
use serde_json::Value;

use crate::cancel::CancelToken;
use crate::mcp::cut::{AnswerCaps, CutAnswer};
use crate::mcp::endpoint;
use crate::mcp::error::McpError;
use crate::mcp::inbound::Inbound;
use crate::mcp::jsonrpc::{Message, Request, RequestId};
use crate::mcp::sse::{SseEvent, SseStream};
use crate::mcp::streamable::{describe_status, rpc_error_in, to_json};
use crate::ports::{HttpRequest, HttpTransport, Method};

/// Events from an open event stream; it ends after its first error.
pub type EventStream = LocalBoxStream<'static, Result<SseEvent, SourceError>>;

/// The browser's `EventSource`, as the core needs it. Adapters must turn the browser's own
/// reconnection off (close on `error`): a legacy session does not survive a new stream, so the
/// client reconnects itself and shakes hands again.
pub trait EventSourcePort {
    /// Opens `url` (GET, `Accept: text/event-stream`). Dropping the stream closes the connection.
    /// The stream must carry at least the `endpoint` and `message` event types (an `EventSource`
    /// needs one listener per named type; `onmessage` alone never sees `endpoint`).
    fn open(&self, url: &str) -> EventStream;
}

/// Why an event stream failed. `EventSource` gives no detail, so adapters say what they can.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SourceError(pub String);

/// An [`EventSourcePort`] over [`HttpTransport`], for what `EventSource` cannot do: send an
/// `Authorization` header (servers with a bearer token) or report HTTP statuses.
pub struct HttpEventSource<H: ?Sized> {
    http: Rc<H>,
    headers: Vec<(String, String)>,
    max_event_bytes: usize,
}

impl<H: HttpTransport + ?Sized> HttpEventSource<H> {
    pub fn new(
        http: Rc<H>,
        headers: Vec<(String, String)>,
        max_event_bytes: usize,
    ) -> HttpEventSource<H> {
        HttpEventSource {
            http,
            headers,
            max_event_bytes,
        }
    }
}

impl<H: HttpTransport + ?Sized + 'static> EventSourcePort for HttpEventSource<H> {
    fn open(&self, url: &str) -> EventStream {
        let mut request = HttpRequest::new(Method::Get, url).header("Accept", "text/event-stream");
        for (name, value) in &self.headers {
            request = request.header(name.as_str(), value.as_str());
        }
        let http = self.http.clone();
        let max_event_bytes = self.max_event_bytes;
        let close = CancelToken::new();
        let abort = close.clone();
        let opened = async move {
            let response = match http.send(request, abort).await {
                Ok(response) => response,
                Err(error) => return failed(error.to_string()),
            };
            if !(200..300).contains(&response.status) {
                let status = response.status;
                let body = response.text(4096).await.unwrap_or_default();
                return failed(format!(
                    "HTTP {status}: {}",
                    describe_status(status, &body, false)
                ));
            }
            SseStream::new(response.body, max_event_bytes)
                .map(|item| item.map_err(|error| SourceError(error.to_string())))
                .boxed_local()
        };
        CloseOnDrop {
            inner: stream::once(opened).flatten().boxed_local(),
            close,
        }
        .boxed_local()
    }
}

fn failed(reason: String) -> EventStream {
    stream::once(async move { Err(SourceError(reason)) }).boxed_local()
}

/// Aborts the underlying request when the stream is dropped.
struct CloseOnDrop {
    inner: EventStream,
    close: CancelToken,
}

impl Stream for CloseOnDrop {
    type Item = Result<SseEvent, SourceError>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        self.inner.poll_next_unpin(cx)
    }
}

impl Drop for CloseOnDrop {
    fn drop(&mut self) {
        self.close.cancel();
    }
}

type Waiter = oneshot::Sender<Result<Value, McpError>>;

/// A request waiting for its answer, and how much of that answer is kept ([`AnswerCaps`]).
struct Waiting {
    keep: Option<usize>,
    waiter: Waiter,
}

pub(crate) struct LegacyLink<H: ?Sized> {
    http: Rc<H>,
    url: String,
    authorization: Option<String>,
    caps: AnswerCaps,
    endpoint: RefCell<Option<String>>,
    waiting: RefCell<HashMap<RequestId, Waiting>>,
}

impl<H: HttpTransport + ?Sized> LegacyLink<H> {
    pub(crate) fn new(http: Rc<H>, url: &str, authorization: Option<String>, caps: AnswerCaps) -> LegacyLink<H> {
        LegacyLink {
            http,
            url: url.to_owned(),
            authorization,
            caps,
            endpoint: RefCell::new(None),
            waiting: RefCell::new(HashMap::new()),
        }
    }

    /// Reads `stream` until the `endpoint` event and adopts the URL it names.
    pub(crate) async fn await_endpoint(&self, stream: &mut EventStream) -> Result<(), McpError> {
        while let Some(item) = stream.next().await {
            match item {
                Ok(event) if event.event == "endpoint" => {
                    let resolved = endpoint::resolve(&self.url, &event.data)?;
                    *self.endpoint.borrow_mut() = Some(resolved);
                    return Ok(());
                }
                Ok(_) => {}
                Err(error) => {
                    return Err(McpError::NoEndpoint {
                        url: self.url.clone(),
                        detail: format!(
                            ": the event stream failed ({error}; unreachable, missing CORS headers, or not an SSE endpoint)"
                        ),
                    });
                }
            }
        }
        Err(McpError::NoEndpoint {
            url: self.url.clone(),
            detail: ": the event stream ended first".to_owned(),
        })
    }

    /// POSTs `request` and waits for the `message` event that answers it (delivered by [`Self::pump`]).
    pub(crate) async fn request(
        &self,
        request: &Request,
        abort: &CancelToken,
    ) -> Result<Value, McpError> {
        let (sender, receiver) = oneshot::channel();
        let keep = self.caps.for_method(&request.method);
        self.waiting.borrow_mut().insert(request.id.clone(), Waiting { keep, waiter: sender });
        let _forget = ForgetOnDrop {
            waiting: &self.waiting,
            id: &request.id,
        };
        self.post(to_json(request), abort).await?;
        receiver.await.unwrap_or(Err(McpError::Closed))
    }

    /// POSTs a notification or a response to the endpoint.
    pub(crate) async fn send(
        &self,
        message: &Message,
        abort: &CancelToken,
    ) -> Result<(), McpError> {
        self.post(message.to_json(), abort).await
    }

    async fn post(&self, body: String, abort: &CancelToken) -> Result<(), McpError> {
        let Some(endpoint) = self.endpoint.borrow().clone() else {
            return Err(McpError::Closed);
        };
        let mut request = HttpRequest::new(Method::Post, &endpoint).json_body(body);
        if let Some(authorization) = &self.authorization {
            request = request.header("Authorization", authorization.as_str());
        }
        let response = self
            .http
            .send(request, abort.clone())
            .await
            .map_err(|error| McpError::from_http(&endpoint, error))?;
        if (200..300).contains(&response.status) {
            return Ok(());
        }
        let status = response.status;
        let body = response.text(64 * 1024).await.unwrap_or_default();
        Err(rpc_error_in(&body).unwrap_or_else(|| McpError::Http {
            status,
            url: endpoint,
            message: describe_status(status, &body, false),
        }))
    }

    /// Reads `stream` until it ends: answers go to their waiting requests, server requests are
    /// queued for answering, notifications forwarded. Returns why the stream ended; waiting
    /// requests then fail.
    pub(crate) async fn pump(&self, stream: &mut EventStream, inbound: &Inbound) -> McpError {
        let reason = loop {
            match stream.next().await {
                None => break McpError::StreamDropped("it ended".to_owned()),
                Some(Err(error)) => break McpError::StreamDropped(error.0),
                Some(Ok(event)) if event.event == "message" && !event.data.trim().is_empty() => {
                    self.deliver(&event.data, inbound);
                }
                Some(Ok(_)) => {}
            }
        };
        *self.endpoint.borrow_mut() = None;
        let waiting: Vec<Waiter> = self
            .waiting
            .borrow_mut()
            .drain()
            .map(|(_, waiting)| waiting.waiter)
            .collect();
        for waiter in waiting {
            let _ = waiter.send(Err(reason.clone()));
        }
        reason
    }

    fn deliver(&self, data: &str, inbound: &Inbound) {
        if let Some((id, cut)) = self.cut_answer(data) {
            self.resolve(&id, Err(McpError::Cut(cut)));
            return;
        }
        // A malformed message names no request we could fail; the request it answered times out.
        let Ok(messages) = Message::parse_all(data) else {
            return;
        };
        for message in messages {
            match message {
                Message::Response(response) => self.resolve(&response.id, Ok(response.result)),
                Message::Error(error) => {
                    let outcome = Err(McpError::Rpc {
                        code: error.error.code,
                        message: error.error.message,
                        data: error.error.data,
                    });
                    if let Some(id) = &error.id {
                        self.resolve(id, outcome);
                    }
                }
                Message::Request(request) => {
                    // Answered by the session's task, so the stream is read on while the person is
                    // asked. One stream carries every request's messages, so it is taken to belong
                    // to the requests of ours running now.
                    inbound.ask(request, &inbound.running());
                }
                Message::Notification(notification) => inbound.notification(notification),
            }
        }
    }

    fn resolve(&self, id: &RequestId, outcome: Result<Value, McpError>) {
        let waiting = self.waiting.borrow_mut().remove(id);
        if let Some(waiting) = waiting {
            let _ = waiting.waiter.send(outcome);
        }
    }

    /// `data` cut to its cap when it answers a request whose answer it exceeds: it came whole
    /// (`EventSource` gives whole messages), but is never parsed or kept whole.
    fn cut_answer(&self, data: &str) -> Option<(RequestId, CutAnswer)> {
        let smallest = self.caps.tool_result.min(self.caps.resource);
        let head = CutAnswer::of_text(data, smallest)?;
        // Servers put the id before or after the result.
        let id = head.answer_id().or_else(|| CutAnswer::trailing_id(data))?;
        let keep = self.waiting.borrow().get(&id)?.keep?;
        Some((id, CutAnswer::of_text(data, keep)?))
    }
}

/// Removes a request from the waiting table however its future ends (answered, cancelled, timed out),
/// so a late answer is dropped.
struct ForgetOnDrop<'a> {
    waiting: &'a RefCell<HashMap<RequestId, Waiting>>,
    id: &'a RequestId,
}

impl Drop for ForgetOnDrop<'_> {
    fn drop(&mut self) {
        self.waiting.borrow_mut().remove(self.id);
    }
}
