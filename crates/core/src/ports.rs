//! The traits through which the core reaches the outside world: HTTP, time, randomness and the
//! chart engine.
//! The browser implements them in `src/adapters/`; native tests implement them with fakes.

use futures::future::LocalBoxFuture;
use futures::stream::{LocalBoxStream, StreamExt};

use crate::cancel::CancelToken;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
    Delete,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Delete => "DELETE",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    pub method: Method,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
}

impl HttpRequest {
    pub fn new(method: Method, url: impl Into<String>) -> HttpRequest {
        HttpRequest { method, url: url.into(), headers: Vec::new(), body: None }
    }

    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> HttpRequest {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub fn json_body(mut self, body: String) -> HttpRequest {
        self.headers.push(("Content-Type".to_owned(), "application/json".to_owned()));
        self.body = Some(body);
        self
    }
}

/// A response whose body arrives as chunks, so SSE streams can be read while they flow.
pub struct HttpResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: LocalBoxStream<'static, Result<Vec<u8>, HttpError>>,
}

impl HttpResponse {
    /// Case-insensitive header lookup.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    /// Reads the whole body as UTF-8 (lossy), refusing bodies over `limit` bytes.
    pub async fn text(mut self, limit: usize) -> Result<String, HttpError> {
        let mut bytes = Vec::new();
        while let Some(chunk) = self.body.next().await {
            bytes.extend_from_slice(&chunk?);
            if bytes.len() > limit {
                return Err(HttpError::TooLarge { limit });
            }
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Reads the whole body, keeping its first `keep` bytes as UTF-8 (lossy) and counting the rest:
    /// the text kept and the body's whole size.
    pub async fn text_cut(mut self, keep: usize) -> Result<(String, usize), HttpError> {
        let mut bytes = Vec::new();
        let mut total = 0;
        while let Some(chunk) = self.body.next().await {
            let chunk = chunk?;
            total += chunk.len();
            let room = keep.saturating_sub(bytes.len()).min(chunk.len());
            bytes.extend_from_slice(&chunk[..room]);
        }
        Ok((String::from_utf8_lossy(&bytes).into_owned(), total))
    }
}

impl std::fmt::Debug for HttpResponse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpResponse").field("status", &self.status).field("headers", &self.headers).finish()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HttpError {
    /// The request failed without an HTTP status: the host is down, or the browser refused the
    /// response because of CORS (the two are indistinguishable from a page).
    #[error("unreachable or missing CORS headers: {0}")]
    Network(String),
    /// The request failed without an HTTP status, and the browser adapter found out why by asking
    /// again in ways the browser answers differently (see [`Unanswered`]).
    #[error("{cause} ({detail})")]
    Unanswered { detail: String, cause: Unanswered },
    #[error("request aborted")]
    Aborted,
    #[error("response body larger than {limit} bytes")]
    TooLarge { limit: usize },
    #[error("response body could not be read: {0}")]
    Body(String),
}

/// Why a request got no HTTP status, as far as a page can tell: a `no-cors` request reaches a server
/// that answers (its response is opaque but arrives), and a simple request (no custom headers, so no
/// preflight) shows whether the server sends `Access-Control-Allow-Origin` at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unanswered {
    /// Nothing answers at that address: the server is down, or the host or port is wrong.
    #[error("nothing answers there: the server is not running, or the address is wrong")]
    Down,
    /// A plain-http URL from a page served over https: the browser blocks it before sending.
    #[error("the browser blocks plain http from this https page (mixed content)")]
    MixedContent,
    /// The server answers, but without `Access-Control-Allow-Origin` for this page's origin.
    #[error("the server answers, but not to this page: its responses have no Access-Control-Allow-Origin for {origin}")]
    NoAllowOrigin { origin: String },
    /// Simple requests get through, but the preflight (`OPTIONS`) for the real request is refused.
    #[error(
        "the server answers simple requests from this page but refuses the preflight (OPTIONS) its real requests need"
    )]
    PreflightRefused,
}

pub trait HttpTransport {
    /// Sends `request`; cancelling `cancel` aborts it (and any body still streaming).
    fn send(&self, request: HttpRequest, cancel: CancelToken) -> LocalBoxFuture<'_, Result<HttpResponse, HttpError>>;
}

pub trait Clock {
    /// Milliseconds since some fixed origin; only differences are meaningful.
    fn now_ms(&self) -> f64;
    /// Wall-clock milliseconds since the Unix epoch, for timestamps users read.
    fn unix_ms(&self) -> f64;
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()>;
}

pub trait Random {
    fn next_u64(&self) -> u64;
}

/// What the chart engine said about a spec: errors stop it from drawing, warnings do not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChartVerdict {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
}

/// Compiles a `vega-lite` widget's spec as the page will draw it, so Vega-Lite's errors and
/// warnings reach the model with its `widget_display` call instead of showing on a broken widget.
/// `Err` when the engine cannot run (not loaded): the widget then says so itself.
pub trait ChartCompiler {
    /// Starts readying the engine (a download, say) as soon as a call is known to need it, so it
    /// overlaps the call's other checks. Compiling waits for it either way.
    fn prepare(&self) {}

    fn compile<'a>(&'a self, spec: &'a serde_json::Value) -> LocalBoxFuture<'a, Result<ChartVerdict, String>>;
}
