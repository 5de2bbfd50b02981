//! Parameters of the notifications this client sends and reads (`cancelled`) or only reads
//! (`progress`, `message`), and the log level it may ask for (`logging/setLevel`).

use crate::mcp::jsonrpc::RequestId;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelledParams {
    pub request_id: RequestId,
    /// Optional when a server sends it.
    #[serde(default)]
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressParams {
    pub progress_token: RequestId,
    pub progress: f64,
    #[serde(default)]
    pub total: Option<f64>,
    #[serde(default)]
    pub message: Option<String>,
}

/// The RFC 5424 levels `logging/setLevel` takes, least severe first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

impl LogLevel {
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The name on the wire, which is also what the servers panel shows.
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }

    pub fn from_name(name: &str) -> Option<LogLevel> {
        LogLevel::ALL.into_iter().find(|level| level.as_str() == name)
    }
}

/// `logging/setLevel`: the least severe entries the server should send from now on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SetLevelParams {
    pub level: LogLevel,
}

/// `notifications/message`: a log entry the server sends (RFC 5424 level names).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct LoggingMessageParams {
    pub level: String,
    #[serde(default)]
    pub logger: Option<String>,
    #[serde(default)]
    pub data: serde_json::Value,
}
