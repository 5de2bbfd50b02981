//! The `tools/call` result as the server sends it (normalised for the model in `mcp::normalize`).

use serde::Deserialize;
use serde_json::Value;

use crate::mcp::model::content::Content;

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    #[serde(default)]
    pub content: Vec<Content>,
    #[serde(default)]
    pub structured_content: Option<Value>,
    #[serde(default)]
    pub is_error: Option<bool>,
}
