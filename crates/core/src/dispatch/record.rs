//! `CallRecord`: what the console shows for every tool call (and what "copy as JSON" copies).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ids::{CallId, ServerId};
use crate::tool_name::{Protocol, ToolName};

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
    /// The short label of this call in the chat and the console: its tool name, and the widget for
    /// `widget_display`.
    pub fn label(&self) -> String {
        // A call restored from a saved conversation has no routing target; its name still says the tool.
        let tool = self
            .target
            .as_ref()
            .map(|t| t.tool.clone())
            .or_else(|| ToolName::parse(&self.name).ok().map(|name| name.tool))
            .unwrap_or_else(|| self.name.clone());
        let widget = self.args.get("name").and_then(Value::as_str).filter(|_| self.name.ends_with("widget_display"));
        match widget {
            Some(widget) => format!("{tool} \u{b7} {widget}"),
            None => tool,
        }
    }

    pub fn is_error(&self) -> bool {
        matches!(self.outcome, CallOutcome::Failed { .. })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn record(name: &str, args: Value) -> CallRecord {
        CallRecord {
            id: CallId::new("toolu_1"),
            name: name.to_owned(),
            target: None,
            args: Arc::new(args),
            outcome: CallOutcome::Running,
            elapsed_ms: 0,
            guided: false,
            result_bytes: 0,
            truncated: false,
        }
    }

    #[test]
    fn a_label_names_the_tool_and_the_widget_it_shows() {
        let shown = record("autoui_webmcp_widget_display", json!({ "name": "stat-card", "params": {} }));
        assert_eq!(shown.label(), "widget_display \u{b7} stat-card");
        // Restored from a saved conversation: no routing target, the canonical name still says the tool.
        assert_eq!(record("samples_mcp_monthly_sales", json!({ "name": "x" })).label(), "monthly_sales");
        assert_eq!(record("not a tool name", json!({})).label(), "not a tool name");
    }
}
