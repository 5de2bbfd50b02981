//! `EventSourcePort` over the browser's `EventSource`, for legacy HTTP+SSE MCP servers without a
//! bearer token. The browser's own reconnection is turned off (closed on the first `error`): a
//! legacy session does not survive a new stream, so the core reconnects and shakes hands itself.

use std::cell::Cell;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};

use autoui_core::mcp::legacy::{EventSourcePort, EventStream, SourceError};
use autoui_core::mcp::sse::SseEvent;
use futures::channel::mpsc::{self, UnboundedReceiver};
use futures::stream::{self, Stream, StreamExt};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{EventSource, MessageEvent};

use crate::adapters::http::describe;

/// The event types a legacy MCP stream carries: `endpoint` first, then `message` for every answer.
/// `EventSource` needs one listener per named type (`onmessage` alone never sees `endpoint`).
const FORWARDED_TYPES: [&str; 2] = ["endpoint", "message"];

/// Opens streams with the browser's `EventSource`. Holds no state.
#[derive(Clone, Copy, Debug, Default)]
pub struct BrowserEventSource;

impl EventSourcePort for BrowserEventSource {
    fn open(&self, url: &str) -> EventStream {
        match OpenSource::open(url) {
            Ok(source) => source.boxed_local(),
            Err(reason) => stream::once(async move { Err(SourceError(reason)) }).boxed_local(),
        }
    }
}

type Item = Result<SseEvent, SourceError>;

/// One open `EventSource` and its listeners; dropping it closes the connection.
struct OpenSource {
    source: EventSource,
    events: UnboundedReceiver<Item>,
    on_event: Closure<dyn FnMut(MessageEvent)>,
    /// Kept alive for as long as the browser may call it; freed once it is detached in `drop`.
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

impl OpenSource {
    fn open(url: &str) -> Result<OpenSource, String> {
        let source = EventSource::new(url)
            .map_err(|error| format!("cannot open an event stream on {url}: {}", describe(&error)))?;
        let (sender, events) = mpsc::unbounded::<Item>();
        let received_any = Rc::new(Cell::new(false));

        let on_event = {
            let sender = sender.clone();
            let received_any = received_any.clone();
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                received_any.set(true);
                let _ = sender.unbounded_send(Ok(to_sse_event(&event)));
            })
        };
        for kind in FORWARDED_TYPES {
            source
                .add_event_listener_with_callback(kind, on_event.as_ref().unchecked_ref())
                .map_err(|error| format!("cannot listen to \"{kind}\" events: {}", describe(&error)))?;
        }

        let on_error = {
            let source = source.clone();
            Closure::<dyn FnMut(web_sys::Event)>::new(move |_: web_sys::Event| {
                // Without this the browser would reconnect on its own, into a session the server forgot.
                source.close();
                let _ = sender.unbounded_send(Err(SourceError(failure_reason(received_any.get()))));
                sender.close_channel();
            })
        };
        source.set_onerror(Some(on_error.as_ref().unchecked_ref()));

        Ok(OpenSource { source, events, on_event, _on_error: on_error })
    }
}

/// `EventSource` reports no status or cause, so say what the possibilities are.
fn failure_reason(received_any: bool) -> String {
    if received_any {
        "the event stream was interrupted (the server closed it or went away)".to_owned()
    } else {
        "the event stream could not be opened (the server is down, answered with an HTTP error or without \
         text/event-stream, or is missing CORS headers)"
            .to_owned()
    }
}

fn to_sse_event(event: &MessageEvent) -> SseEvent {
    let id = event.last_event_id();
    SseEvent {
        event: event.type_(),
        data: event.data().as_string().unwrap_or_default(),
        id: (!id.is_empty()).then_some(id),
        dropped: 0,
    }
}

impl Stream for OpenSource {
    type Item = Item;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Item>> {
        self.events.poll_next_unpin(cx)
    }
}

impl Drop for OpenSource {
    fn drop(&mut self) {
        self.source.close();
        for kind in FORWARDED_TYPES {
            let _ = self.source.remove_event_listener_with_callback(kind, self.on_event.as_ref().unchecked_ref());
        }
        self.source.set_onerror(None);
    }
}
