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
    /// The JSON Schema its results' `structuredContent` must match (MCP 2025-06-18 on).
    #[serde(default)]
    pub output_schema: Option<Value>,
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

/// Most field names of an output schema the tool's description names.
const OUTPUT_FIELDS_NAMED: usize = 12;

impl Tool {
    /// The tool as the client keeps it, and a note when part of its MCP Apps `_meta` was ignored.
    /// A declared output schema is told in a line of the description (see [`output_line`]).
    pub fn into_spec(self) -> (ToolSpec, Option<String>) {
        let annotations = self.annotations.unwrap_or_default();
        let ReadUi { ui, note } = read_tool_ui(&self.name, self.meta.as_ref());
        let description = self.description.unwrap_or_default();
        let description = match self.output_schema.as_ref().map(output_line) {
            Some(line) if description.trim().is_empty() => line,
            Some(line) => format!("{description}\n{line}"),
            None => description,
        };
        let spec = ToolSpec {
            name: self.name,
            title: self.title.or(annotations.title),
            description,
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

/// What the model learns of an output schema: that results carry `structuredContent` (what a
/// binding's `map` reads first) and its top-level fields. The schema itself would be sent with
/// every request; these few words are enough to write a map.
fn output_line(schema: &Value) -> String {
    let fields: Vec<&str> = schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| properties.keys().map(String::as_str).collect())
        .unwrap_or_default();
    match fields.len() {
        0 => "Returns structuredContent.".to_owned(),
        count if count <= OUTPUT_FIELDS_NAMED => format!("Returns structuredContent with: {}.", fields.join(", ")),
        count => format!(
            "Returns structuredContent with: {} and {} more.",
            fields[..OUTPUT_FIELDS_NAMED].join(", "),
            count - OUTPUT_FIELDS_NAMED
        ),
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
