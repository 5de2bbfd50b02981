//! `CallRecord`: what the console shows for every tool call (and what "copy as JSON" copies).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ids::{CallId, ServerId};
use crate::tool_name::Protocol;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CallRecord {
    pub id: CallId,
    /// The name as the model called it.
    pub name: String,
    /// Where it was routed, when the name resolved to a known server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<CallTarget>,
    pub args: Arc<Value>,
    pub outcome: CallOutcome,
    pub elapsed_ms: u64,
    /// A discovery call (recipe search/read, tool search/list) came earlier in this run.
    pub guided: bool,
    /// Size of the full result text in bytes (before truncation).
    pub result_bytes: usize,
    /// The model was given a shortened result (the full one stays recallable).
    pub truncated: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallTarget {
    pub server: ServerId,
    pub protocol: Protocol,
    /// The tool's real name on that server.
    pub tool: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum CallOutcome {
    Running,
    /// The full result text, shared with the result buffer.
    Succeeded {
        result: Arc<str>,
    },
    Failed {
        error: Arc<str>,
    },
}

impl CallRecord {
    pub fn is_error(&self) -> bool {
        matches!(self.outcome, CallOutcome::Failed { .. })
    }
}
