//! `HttpTransport` over reqwest: streamed bodies, aborted when the request's cancel token fires.

use autoui_core::cancel::CancelToken;
use autoui_core::ports::{HttpError, HttpRequest, HttpResponse, HttpTransport, Method};
use futures::future::{Either, LocalBoxFuture, select};
use futures::stream::{self, StreamExt};

pub struct ReqwestTransport {
    client: reqwest::Client,
}

impl ReqwestTransport {
    /// No proxy: the suite's servers listen on loopback, and a proxy from the environment would
    /// not reach them.
    pub fn new() -> Result<ReqwestTransport, reqwest::Error> {
        Ok(ReqwestTransport { client: reqwest::Client::builder().no_proxy().build()? })
    }
}

impl HttpTransport for ReqwestTransport {
    fn send(&self, request: HttpRequest, cancel: CancelToken) -> LocalBoxFuture<'_, Result<HttpResponse, HttpError>> {
        let method = match request.method {
            Method::Get => reqwest::Method::GET,
            Method::Post => reqwest::Method::POST,
            Method::Delete => reqwest::Method::DELETE,
        };
        let mut builder = self.client.request(method, &request.url);
        for (name, value) in &request.headers {
            builder = builder.header(name, value);
        }
        if let Some(body) = request.body {
            builder = builder.body(body);
        }
        Box::pin(async move {
            if cancel.is_cancelled() {
                return Err(HttpError::Aborted);
            }
            let response = match select(Box::pin(builder.send()), cancel.cancelled()).await {
                Either::Left((Ok(response), _)) => response,
                Either::Left((Err(error), _)) => return Err(HttpError::Network(error.to_string())),
                Either::Right(_) => return Err(HttpError::Aborted),
            };
            let status = response.status().as_u16();
            let headers = response
                .headers()
                .iter()
                .map(|(name, value)| (name.as_str().to_owned(), String::from_utf8_lossy(value.as_bytes()).into_owned()))
                .collect();
            // Dropping the body stream (or cancelling) closes the connection.
            let chunks = Box::pin(response.bytes_stream());
            let body = stream::unfold(Some(chunks), move |state| {
                let cancel = cancel.clone();
                async move {
                    let mut chunks = state?;
                    match select(chunks.next(), cancel.cancelled()).await {
                        Either::Left((Some(Ok(bytes)), _)) => Some((Ok(bytes.to_vec()), Some(chunks))),
                        Either::Left((Some(Err(error)), _)) => Some((Err(HttpError::Body(error.to_string())), None)),
                        Either::Left((None, _)) => None,
                        Either::Right(_) => Some((Err(HttpError::Aborted), None)),
                    }
                }
            });
            Ok(HttpResponse { status, headers, body: body.boxed_local() })
        })
    }
}
