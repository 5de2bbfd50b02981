//! Tools as `tools/list` describes them, the paging cursor, and the `tools/call` request.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::mcp::apps::tool_ui::{ReadUi, read_tool_ui};
use crate::mcp::jsonrpc::RequestId;
use crate::tool::{ToolHints, ToolSpec};

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    pub name: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub input_schema: Option<Value>,
    #[serde(default)]
    pub annotations: Option<ToolAnnotations>,
    #[serde(default, rename = "_meta")]
    pub meta: Option<Value>,
}

/// Hints only: servers are not trusted to tell the truth about them.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub read_only_hint: Option<bool>,
    #[serde(default)]
    pub destructive_hint: Option<bool>,
    #[serde(default)]
    pub idempotent_hint: Option<bool>,
    #[serde(default)]
    pub open_world_hint: Option<bool>,
}

impl Tool {
    /// The tool as the client keeps it, and a note when part of its MCP Apps `_meta` was ignored.
    pub fn into_spec(self) -> (ToolSpec, Option<String>) {
        let annotations = self.annotations.unwrap_or_default();
        let ReadUi { ui, note } = read_tool_ui(&self.name, self.meta.as_ref());
        let spec = ToolSpec {
            name: self.name,
            title: self.title.or(annotations.title),
            description: self.description.unwrap_or_default(),
            input_schema: self
                .input_schema
                .unwrap_or_else(|| serde_json::json!({ "type": "object", "properties": {} })),
            read_only: annotations.read_only_hint.unwrap_or(false),
            hints: ToolHints {
                destructive: annotations.destructive_hint,
                idempotent: annotations.idempotent_hint,
                open_world: annotations.open_world_hint,
            },
            ui,
        };
        (spec, note)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallToolParams {
    pub name: String,
    pub arguments: Value,
    #[serde(rename = "_meta")]
    pub meta: RequestMeta,
}

/// `_meta` of a request: the progress token opts into `notifications/progress` for it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RequestMeta {
    pub progress_token: RequestId,
}
