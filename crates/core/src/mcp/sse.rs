//! A Server-Sent Events parser (the WHATWG event-stream format), fed bytes in chunks cut anywhere.
//!
//! Used for MCP responses and listening streams, and by anything else that reads SSE over
//! [`HttpTransport`](crate::ports::HttpTransport) (LLM streaming). Lines end with CRLF, LF or CR;
//! `data` lines join with `\n`; `:` lines are comments; `id` and `retry` are tracked for reconnection;
//! one event may not grow past a byte cap, so a hostile stream cannot exhaust memory.

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures::Stream;

use crate::ports::HttpError;

/// One dispatched event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event` field, `"message"` when the server gave none.
    pub event: String,
    /// The `data` lines joined with `\n`.
    pub data: String,
    /// The last event id seen on the stream when this event was dispatched (ids are sticky).
    pub id: Option<String>,
    /// Bytes of the event past the parser's keep cap, counted but not kept (0 when whole).
    pub dropped: usize,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SseError {
    #[error("server-sent event larger than {limit} bytes")]
    EventTooLarge { limit: usize },
    #[error(transparent)]
    Body(#[from] HttpError),
}

/// The incremental parser. Feed it chunks; it returns the events they complete.
#[derive(Debug)]
pub struct SseParser {
    max_event_bytes: usize,
    /// Bytes of one event kept; the rest is counted in `dropped` (see [`SseParser::cutting`]).
    keep_bytes: Option<usize>,
    dropped: usize,
    /// The pending line lost bytes to the cap (so an empty kept part does not end the event).
    line_cut: bool,
    line: Vec<u8>,
    /// A CR ended the previous chunk: an LF starting the next one belongs to it.
    after_cr: bool,
    first_line: bool,
    data: String,
    has_data: bool,
    event: String,
    last_event_id: String,
    retry_ms: Option<u32>,
}

impl SseParser {
    /// `max_event_bytes` bounds one event (its pending line, data and name together).
    pub fn new(max_event_bytes: usize) -> SseParser {
        SseParser {
            max_event_bytes,
            keep_bytes: None,
            dropped: 0,
            line_cut: false,
            line: Vec::new(),
            after_cr: false,
            first_line: true,
            data: String::new(),
            has_data: false,
            event: String::new(),
            last_event_id: String::new(),
            retry_ms: None,
        }
    }

    /// A parser that keeps only the first `keep_bytes` of each event and counts the rest, so an
    /// event of any size streams through in bounded memory; its [`SseEvent::dropped`] says how much
    /// was left out.
    pub fn cutting(max_event_bytes: usize, keep_bytes: usize) -> SseParser {
        SseParser { keep_bytes: Some(keep_bytes.min(max_event_bytes)), ..SseParser::new(max_event_bytes) }
    }

    /// Parses `chunk` and returns the events it completed, in order.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        let mut events = Vec::new();
        let mut rest = chunk;
        // An empty chunk says nothing about whether an LF follows the CR.
        if self.after_cr && !rest.is_empty() {
            if let [b'\n', tail @ ..] = rest {
                rest = tail;
            }
            self.after_cr = false;
        }
        while let Some(end) = rest
            .iter()
            .position(|byte| *byte == b'\n' || *byte == b'\r')
        {
            self.take(&rest[..end]);
            self.check_size()?;
            if let Some(event) = self.end_line() {
                events.push(event);
            }
            let ended_with_cr = rest[end] == b'\r';
            rest = &rest[end + 1..];
            if ended_with_cr {
                match rest {
                    [b'\n', tail @ ..] => rest = tail,
                    [] => self.after_cr = true,
                    _ => {}
                }
            }
        }
        self.take(rest);
        self.check_size()?;
        Ok(events)
    }

    /// Adds `bytes` to the pending line, as far as the keep cap allows.
    fn take(&mut self, bytes: &[u8]) {
        let room = match self.keep_bytes {
            Some(keep) => keep.saturating_sub(self.line.len() + self.data.len()),
            None => bytes.len(),
        };
        let kept = room.min(bytes.len());
        self.line.extend_from_slice(&bytes[..kept]);
        if kept < bytes.len() {
            self.dropped += bytes.len() - kept;
            self.line_cut = true;
        }
    }

    /// The id to send as `Last-Event-ID` when reconnecting, if the server gave one.
    pub fn last_event_id(&self) -> Option<&str> {
        (!self.last_event_id.is_empty()).then_some(self.last_event_id.as_str())
    }

    /// The reconnection delay the server asked for with `retry:`.
    pub fn retry_ms(&self) -> Option<u32> {
        self.retry_ms
    }

    fn check_size(&self) -> Result<(), SseError> {
        if self.line.len() + self.data.len() + self.event.len() > self.max_event_bytes {
            return Err(SseError::EventTooLarge {
                limit: self.max_event_bytes,
            });
        }
        Ok(())
    }

    fn end_line(&mut self) -> Option<SseEvent> {
        let raw = std::mem::take(&mut self.line);
        let cut = std::mem::take(&mut self.line_cut);
        let mut line = String::from_utf8_lossy(&raw).into_owned();
        if self.first_line {
            self.first_line = false;
            if let Some(stripped) = line.strip_prefix('\u{feff}') {
                line = stripped.to_owned();
            }
        }
        if line.is_empty() {
            // A line wholly past the cap is not the blank line that ends an event.
            return if cut { None } else { self.dispatch() };
        }
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_str(), ""),
        };
        match field {
            "event" => self.event = value.to_owned(),
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "id" if !value.contains('\0') => self.last_event_id = value.to_owned(),
            "retry" if !value.is_empty() && value.bytes().all(|byte| byte.is_ascii_digit()) => {
                self.retry_ms = value.parse().ok();
            }
            _ => {}
        }
        None
    }

    /// A blank line ends the event; one without data is dropped (but its id still counts).
    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = std::mem::take(&mut self.event);
        let dropped = std::mem::take(&mut self.dropped);
        if !self.has_data {
            return None;
        }
        self.has_data = false;
        Some(SseEvent {
            event: if event.is_empty() {
                "message".to_owned()
            } else {
                event
            },
            data: std::mem::take(&mut self.data),
            id: self.last_event_id().map(str::to_owned),
            dropped,
        })
    }
}

/// A stream of events read from a stream of byte chunks (such as an [`HttpResponse`](crate::ports::HttpResponse) body).
/// It ends after the first error; an event left incomplete when the body ends is dropped, as the format requires.
pub struct SseStream<S> {
    body: S,
    parser: SseParser,
    ready: VecDeque<SseEvent>,
    finished: bool,
}

impl<S> SseStream<S>
where
    S: Stream<Item = Result<Vec<u8>, HttpError>> + Unpin,
{
    pub fn new(body: S, max_event_bytes: usize) -> SseStream<S> {
        SseStream {
            body,
            parser: SseParser::new(max_event_bytes),
            ready: VecDeque::new(),
            finished: false,
        }
    }

    /// Events cut to `keep_bytes` (see [`SseParser::cutting`]).
    pub fn cutting(body: S, max_event_bytes: usize, keep_bytes: usize) -> SseStream<S> {
        SseStream { parser: SseParser::cutting(max_event_bytes, keep_bytes), ..SseStream::new(body, max_event_bytes) }
    }

    pub fn last_event_id(&self) -> Option<&str> {
        self.parser.last_event_id()
    }

    pub fn retry_ms(&self) -> Option<u32> {
        self.parser.retry_ms()
    }
}

impl<S> Stream for SseStream<S>
where
    S: Stream<Item = Result<Vec<u8>, HttpError>> + Unpin,
{
    type Item = Result<SseEvent, SseError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        loop {
            if let Some(event) = this.ready.pop_front() {
                return Poll::Ready(Some(Ok(event)));
            }
            if this.finished {
                return Poll::Ready(None);
            }
            match Pin::new(&mut this.body).poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => this.finished = true,
                Poll::Ready(Some(Err(error))) => {
                    this.finished = true;
                    return Poll::Ready(Some(Err(SseError::Body(error))));
                }
                Poll::Ready(Some(Ok(chunk))) => match this.parser.feed(&chunk) {
                    Ok(events) => this.ready.extend(events),
                    Err(error) => {
                        this.finished = true;
                        return Poll::Ready(Some(Err(error)));
                    }
                },
            }
        }
    }
}
