//! What can go wrong talking to an MCP server, worded so the user (or model) knows what to do next.

use serde_json::Value;

use crate::mcp::cut::CutAnswer;
use crate::mcp::endpoint::EndpointError;
use crate::mcp::sse::SseError;
use crate::ports::{HttpError, Unanswered};

/// The headers a server must send for this page to reach it (shown with every network failure).
pub const CORS_HELP: &str = "if the server is running, it must answer (including OPTIONS preflights) with \
Access-Control-Allow-Origin: <this page's origin or *>, \
Access-Control-Allow-Methods: GET, POST, DELETE, OPTIONS, \
Access-Control-Allow-Headers: Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID, \
and Access-Control-Expose-Headers: Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, Last-Event-Id";

/// What to change for each cause, with the exact headers where CORS is the cause.
fn cause_help(cause: &Unanswered) -> String {
    match cause {
        Unanswered::Down => "Start the server or correct the URL, then press Reconnect in Servers".to_owned(),
        Unanswered::MixedContent => {
            "Serve the MCP server over https, or open this app over http (on your own machine or network)".to_owned()
        }
        Unanswered::NoAllowOrigin { origin } => format!(
            "Have the server send Access-Control-Allow-Origin: {origin} (or *) on every response, with \
             Access-Control-Expose-Headers: Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate, Last-Event-Id"
        ),
        Unanswered::PreflightRefused => "Have the server answer OPTIONS with a 2xx status, \
             Access-Control-Allow-Origin, Access-Control-Allow-Methods: GET, POST, DELETE, OPTIONS and \
             Access-Control-Allow-Headers: Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID"
            .to_owned(),
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum McpError {
    /// No HTTP status at all: from a page, "down" and "refused by CORS" look the same.
    #[error("{url} is unreachable or missing CORS headers ({detail}); {CORS_HELP}")]
    Unreachable { url: String, detail: String },
    /// No HTTP status, and the browser adapter found out why: the message says what to change.
    #[error("{url}: {cause}. {}", cause_help(cause))]
    Unanswered { url: String, cause: Unanswered },
    /// No HTTP status from a server that answered earlier in this session: it went down or is
    /// restarting (CORS cannot be the cause, since it worked).
    #[error(
        "{url} stopped answering ({detail}); it worked earlier in this session, so it is probably down or \
         restarting: check it, then press Reconnect in Servers"
    )]
    Lost { url: String, detail: String },
    #[error("HTTP {status} from {url}: {message}")]
    Http {
        status: u16,
        url: String,
        message: String,
    },
    #[error("server error {code}: {message}")]
    Rpc {
        code: i64,
        message: String,
        data: Option<Value>,
    },
    #[error("invalid message from the server: {0}")]
    Protocol(String),
    #[error(
        "the server speaks MCP protocol {found}, which this client does not support (it supports {supported})"
    )]
    UnsupportedVersion { found: String, supported: String },
    #[error("no answer within {ms} ms")]
    Timeout { ms: u32 },
    #[error("cancelled")]
    Cancelled,
    #[error("the server ended the stream before answering")]
    StreamEnded,
    #[error("the server's event stream dropped: {0}")]
    StreamDropped(String),
    #[error("the server's session expired")]
    SessionExpired,
    /// The session ended while a request's answer was still coming: the server may have acted on
    /// it, so it is not sent again (the next request renews the session).
    #[error("the server ended the session before answering, so the request was not sent again: it may have been carried out")]
    SessionEndedBeforeAnswer,
    #[error("{0}")]
    Endpoint(#[from] EndpointError),
    #[error("{url} did not send the legacy SSE `endpoint` event{detail}")]
    NoEndpoint { url: String, detail: String },
    #[error(
        "{url} is neither a Streamable HTTP endpoint ({streamable}) nor a legacy SSE endpoint ({legacy})"
    )]
    NotMcp {
        url: String,
        streamable: String,
        legacy: String,
    },
    #[error("response larger than {limit} bytes")]
    TooLarge { limit: usize },
    /// A resource whose text would not fit the read cap (declared in its listing, or as read).
    #[error(
        "the resource <{uri}> is {} of text, more than the {} this client reads at once; read a smaller \
         resource or a narrower one from the server's templates", megabytes(*.bytes), megabytes(*.limit as u64)
    )]
    ResourceTooLarge { uri: String, bytes: u64, limit: usize },
    /// An answer larger than its cap, cut while it streamed in (`mcp::cut`); a tool call makes a
    /// result of the part kept, anything else reports the sizes.
    #[error("the answer was {}, more than the {} this client keeps of one answer", megabytes(.0.total_bytes as u64), megabytes(.0.cap as u64))]
    Cut(CutAnswer),
    #[error("this server offers no {0}")]
    NotOffered(&'static str),
    #[error("the connection is closed")]
    Closed,
}

/// `bytes` as a person reads it: "4.2 MB", or "812 bytes" below a kilobyte.
pub(crate) fn megabytes(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} bytes"),
        1_000..1_000_000 => format!("{:.1} kB", bytes as f64 / 1e3),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}

impl McpError {
    pub fn from_http(url: &str, error: HttpError) -> McpError {
        match error {
            HttpError::Network(detail) => McpError::Unreachable {
                url: url.to_owned(),
                detail,
            },
            HttpError::Unanswered { cause, .. } => McpError::Unanswered { url: url.to_owned(), cause },
            HttpError::Aborted => McpError::Cancelled,
            HttpError::TooLarge { limit } => McpError::TooLarge { limit },
            HttpError::Body(detail) => {
                McpError::Protocol(format!("the response body could not be read: {detail}"))
            }
        }
    }

    /// The same error seen on a session that had connected: "unreachable" becomes [`McpError::Lost`].
    pub fn after_connected(self) -> McpError {
        match self {
            McpError::Unreachable { url, detail } => McpError::Lost { url, detail },
            McpError::Unanswered { url, cause: cause @ Unanswered::Down } => McpError::Lost { url, detail: cause.to_string() },
            other => other,
        }
    }

    pub fn from_sse(url: &str, error: SseError) -> McpError {
        match error {
            SseError::EventTooLarge { limit } => McpError::TooLarge { limit },
            SseError::Body(error) => McpError::from_http(url, error),
        }
    }
}
