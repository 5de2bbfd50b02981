//! Parameters of the notifications this client sends (`cancelled`) and reads (`progress`, `message`).

use crate::mcp::jsonrpc::RequestId;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelledParams {
    pub request_id: RequestId,
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

/// `notifications/message`: a log entry the server sends (RFC 5424 level names).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct LoggingMessageParams {
    pub level: String,
    #[serde(default)]
    pub logger: Option<String>,
    #[serde(default)]
    pub data: serde_json::Value,
}
