//! A scripted HTTP transport: answers requests in order with canned responses whose bodies arrive
//! in chunks cut anywhere, and records every request it was sent.

use std::cell::RefCell;
use std::collections::VecDeque;

use autoui_core::cancel::CancelToken;
use autoui_core::ports::{HttpError, HttpRequest, HttpResponse, HttpTransport};
use futures::future::LocalBoxFuture;
use futures::stream::{self, StreamExt};

pub enum Scripted {
    Respond {
        status: u16,
        headers: Vec<(String, String)>,
        chunks: Vec<Vec<u8>>,
    },
    /// Sends `chunks`, then keeps the body open until the request is cancelled.
    StreamThenHang {
        chunks: Vec<Vec<u8>>,
    },
    /// Never answers; cancelling the request aborts it.
    Hang,
    NetworkError(String),
}

impl Scripted {
    /// A 200 event stream whose body is `body` cut into `chunk_size`-byte pieces.
    pub fn sse(body: &str, chunk_size: usize) -> Scripted {
        Scripted::Respond {
            status: 200,
            headers: vec![("content-type".to_owned(), "text/event-stream".to_owned())],
            chunks: split(body.as_bytes(), chunk_size),
        }
    }

    pub fn status(status: u16, headers: &[(&str, &str)], body: &str) -> Scripted {
        Scripted::Respond {
            status,
            headers: headers.iter().map(|(name, value)| ((*name).to_owned(), (*value).to_owned())).collect(),
            chunks: vec![body.as_bytes().to_vec()],
        }
    }
}

pub fn split(bytes: &[u8], chunk_size: usize) -> Vec<Vec<u8>> {
    bytes.chunks(chunk_size.max(1)).map(<[u8]>::to_vec).collect()
}

#[derive(Default)]
pub struct FakeTransport {
    script: RefCell<VecDeque<Scripted>>,
    requests: RefCell<Vec<HttpRequest>>,
    aborted: RefCell<usize>,
}

impl FakeTransport {
    pub fn new(script: impl IntoIterator<Item = Scripted>) -> FakeTransport {
        FakeTransport { script: RefCell::new(script.into_iter().collect()), ..FakeTransport::default() }
    }

    pub fn requests(&self) -> Vec<HttpRequest> {
        self.requests.borrow().clone()
    }

    /// Requests that were aborted by their cancel token while in flight.
    pub fn aborted(&self) -> usize {
        *self.aborted.borrow()
    }
}

impl HttpTransport for FakeTransport {
    fn send(&self, request: HttpRequest, cancel: CancelToken) -> LocalBoxFuture<'_, Result<HttpResponse, HttpError>> {
        self.requests.borrow_mut().push(request);
        let next = self.script.borrow_mut().pop_front();
        Box::pin(async move {
            match next {
                None => Err(HttpError::Network("no scripted response left".to_owned())),
                Some(Scripted::NetworkError(detail)) => Err(HttpError::Network(detail)),
                Some(Scripted::Hang) => {
                    cancel.cancelled().await;
                    *self.aborted.borrow_mut() += 1;
                    Err(HttpError::Aborted)
                }
                Some(Scripted::Respond { status, headers, chunks }) => {
                    Ok(HttpResponse { status, headers, body: stream::iter(chunks.into_iter().map(Ok)).boxed_local() })
                }
                Some(Scripted::StreamThenHang { chunks }) => {
                    let aborted = stream::once(async move {
                        cancel.cancelled().await;
                        Err(HttpError::Aborted)
                    });
                    Ok(HttpResponse {
                        status: 200,
                        headers: vec![("content-type".to_owned(), "text/event-stream".to_owned())],
                        body: stream::iter(chunks.into_iter().map(Ok)).chain(aborted).boxed_local(),
                    })
                }
            }
        })
    }
}
