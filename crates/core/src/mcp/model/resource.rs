//! Resources as `resources/list` and `resources/templates/list` describe them, and `resources/read`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One resource a server offers, read by its `uri`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    pub uri: String,
    pub name: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub mime_type: Option<String>,
    /// Bytes, as the server declares them (before any encoding).
    #[serde(default)]
    pub size: Option<u64>,
    /// For an MCP Apps view, its `ui` (policy, permissions) when the read content has none.
    #[serde(default, rename = "_meta")]
    pub meta: Option<Value>,
}

/// A family of resources: the model fills the RFC 6570 `uriTemplate` in and reads the result.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate {
    pub uri_template: String,
    pub name: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub mime_type: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReadResourceParams {
    pub uri: String,
}

/// `resources/read`: contents kept raw so one unreadable part does not hide the others.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ReadResourceResult {
    pub contents: Vec<Value>,
}
