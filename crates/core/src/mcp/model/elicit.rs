//! `elicitation/create` as the server sends it and the answer this client returns (2025-11-25).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ElicitParams {
    /// `"form"` (the default when absent) or `"url"`.
    #[serde(default)]
    pub mode: Option<String>,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub requested_schema: Option<Value>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub elicitation_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ElicitResult {
    pub action: ElicitAction,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<Map<String, Value>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ElicitAction {
    Accept,
    Decline,
    Cancel,
}
