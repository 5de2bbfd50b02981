//! What every tool has in common, wherever it runs: its description for the model and its result.

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cancel::CancelToken;
use crate::ids::{CallId, ServerId};
use crate::mcp::apps::tool_ui::ToolUi;

/// A tool as a server describes it (real name, not yet prefixed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default)]
    pub description: String,
    #[serde(rename = "inputSchema", default = "empty_object_schema")]
    pub input_schema: Value,
    #[serde(rename = "readOnly", default)]
    pub read_only: bool,
    /// The server's other annotations (hints, not promises).
    #[serde(default, skip_serializing_if = "ToolHints::is_empty")]
    pub hints: ToolHints,
    /// MCP Apps: the view it comes with and who may call it; `None` is no view, callable by both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ui: Option<ToolUi>,
}

impl ToolSpec {
    /// Whether the model may see and call it (an app-only tool exists for its server's views).
    pub fn for_model(&self) -> bool {
        self.ui.as_ref().is_none_or(|ui| ui.model)
    }

    /// Whether a view of its server may call it.
    pub fn for_views(&self) -> bool {
        self.ui.as_ref().is_none_or(|ui| ui.app)
    }

    /// The `ui://` view shown with its result, when it has one.
    pub fn view_uri(&self) -> Option<&str> {
        self.ui.as_ref().and_then(|ui| ui.resource_uri.as_deref())
    }
}

/// What a server says about a tool besides `readOnlyHint` (MCP tool annotations): hints only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolHints {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world: Option<bool>,
}

impl ToolHints {
    pub fn is_empty(&self) -> bool {
        *self == ToolHints::default()
    }
}

fn empty_object_schema() -> Value {
    serde_json::json!({ "type": "object", "properties": {} })
}

/// One piece of a tool result as the model will see it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ResultPart {
    Text { text: String },
    Image { media_type: String, data: String },
}

/// A tool result, normalised from MCP, a local server or the dispatcher itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    pub content: Vec<ResultPart>,
    #[serde(default)]
    pub is_error: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured: Option<Value>,
}

impl ToolResult {
    pub fn text(text: impl Into<String>) -> ToolResult {
        ToolResult { content: vec![ResultPart::Text { text: text.into() }], is_error: false, structured: None }
    }

    /// A JSON result: compact text for the model, and the value itself for programmatic readers.
    pub fn json(value: Value) -> ToolResult {
        ToolResult {
            content: vec![ResultPart::Text { text: value.to_string() }],
            is_error: false,
            structured: Some(value),
        }
    }

    pub fn error(message: impl Into<String>) -> ToolResult {
        ToolResult { content: vec![ResultPart::Text { text: message.into() }], is_error: true, structured: None }
    }

    /// An error the model can act on, carried as JSON (e.g. a validation failure with its schema).
    pub fn error_json(value: Value) -> ToolResult {
        ToolResult { is_error: true, ..ToolResult::json(value) }
    }

    /// All text parts joined with newlines (images are left out).
    pub fn text_content(&self) -> String {
        joined_text(&self.content)
    }
}

/// The text parts of a result joined with newlines (images are left out).
pub fn joined_text(content: &[ResultPart]) -> String {
    let texts: Vec<&str> = content
        .iter()
        .filter_map(|part| match part {
            ResultPart::Text { text } => Some(text.as_str()),
            ResultPart::Image { .. } => None,
        })
        .collect();
    texts.join("\n")
}

/// Who caused a change; recorded on canvas blocks and shown in the provenance badge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Origin {
    /// The in-app agent, through tool call `call_id`; `source` names the MCP server and tool whose data
    /// the agent most recently read, when there is one.
    Agent {
        call_id: CallId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<DataSource>,
    },
    /// The person using the page (toolbar, drag, keyboard, gallery insert, import).
    User,
    /// Another agent calling this page's WebMCP tools.
    ExternalAgent,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataSource {
    pub server: ServerId,
    pub tool: String,
}

/// What a local server learns about the call it is answering.
#[derive(Clone, Debug)]
pub struct CallContext {
    pub origin: Origin,
    pub cancel: CancelToken,
}

/// A tool server running in this page (protocol `webmcp`), such as `autoui` or `samples`.
pub trait LocalServer {
    /// The display name; its sanitised form is the first segment of canonical tool names.
    fn name(&self) -> &str;
    fn description(&self) -> &str;
    fn tools(&self) -> Vec<ToolSpec>;
    fn call<'a>(&'a self, tool: &'a str, args: Value, context: CallContext) -> LocalBoxFuture<'a, ToolResult>;
}

/// Full, untruncated results of earlier tool calls. The agent engine owns the buffer; the
/// `recall` tool reads it through this trait.
pub trait ResultStore {
    fn full_result(&self, call_id: &str) -> Option<String>;
    /// Ids that can be recalled, oldest first (for "unknown id" errors).
    fn known_ids(&self) -> Vec<String>;
    /// The result of `call_id` was kept once and forgotten to make room: `Some(capacity in bytes)`.
    fn evicted(&self, _call_id: &str) -> Option<usize> {
        None
    }
}
