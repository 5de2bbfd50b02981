//! What a tool's `_meta.ui` says (MCP Apps): the `ui://` view it comes with, and who may call it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The only scheme a view may come from: the server's own resources, never a web page.
pub const VIEW_SCHEME: &str = "ui://";

/// A tool's MCP Apps facts. A tool without any keeps the default: no view, callable by both.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolUi {
    /// The view shown with the tool's result (`_meta.ui.resourceUri`, or the flat `ui/resourceUri`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_uri: Option<String>,
    /// Whether the model may see and call it (`"model"` in `visibility`).
    #[serde(default = "yes")]
    pub model: bool,
    /// Whether a view of the same server may call it (`"app"` in `visibility`).
    #[serde(default = "yes")]
    pub app: bool,
}

fn yes() -> bool {
    true
}

/// A tool's `_meta` read for MCP Apps: its facts (when there are any besides the defaults), and a
/// note when something in it had to be ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadUi {
    pub ui: Option<ToolUi>,
    pub note: Option<String>,
}

/// Reads `_meta.ui.resourceUri` (else the deprecated flat `_meta["ui/resourceUri"]`) and
/// `_meta.ui.visibility`. A URI outside `ui://` is ignored with a note; an unreadable
/// `visibility` keeps the default, so a tool is never hidden by a typo.
pub fn read_tool_ui(tool: &str, meta: Option<&Value>) -> ReadUi {
    let Some(meta) = meta else { return ReadUi::default() };
    let nested = meta.get("ui");
    let uri = nested
        .and_then(|ui| ui.get("resourceUri"))
        .and_then(Value::as_str)
        .or_else(|| meta.get("ui/resourceUri").and_then(Value::as_str))
        .map(str::trim)
        .filter(|uri| !uri.is_empty());
    let mut note = None;
    let resource_uri = match uri {
        Some(uri) if uri.starts_with(VIEW_SCHEME) => Some(uri.to_owned()),
        Some(uri) => {
            note = Some(format!(
                "tool \"{tool}\" names a view at <{uri}>, which is not shown: a view must be a {VIEW_SCHEME} resource"
            ));
            None
        }
        None => None,
    };
    let visibility: Option<Vec<&str>> = nested
        .and_then(|ui| ui.get("visibility"))
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .filter(|list: &Vec<&str>| !list.is_empty());
    let (model, app) = match &visibility {
        Some(list) => (list.contains(&"model"), list.contains(&"app")),
        None => (true, true),
    };
    let ui = (resource_uri.is_some() || !model || !app).then_some(ToolUi { resource_uri, model, app });
    ReadUi { ui, note }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn both_keys_are_read_nested_first() {
        let nested = json!({"ui": {"resourceUri": "ui://a/view.html"}, "ui/resourceUri": "ui://b/old.html"});
        assert_eq!(read_tool_ui("t", Some(&nested)).ui.unwrap().resource_uri.as_deref(), Some("ui://a/view.html"));
        let flat = json!({"ui/resourceUri": "ui://b/old.html"});
        let read = read_tool_ui("t", Some(&flat)).ui.unwrap();
        assert_eq!(read.resource_uri.as_deref(), Some("ui://b/old.html"));
        assert!(read.model && read.app);
    }

    #[test]
    fn only_ui_scheme_views_are_accepted() {
        let web = json!({"ui": {"resourceUri": "https://evil.example/view.html"}});
        let read = read_tool_ui("get-time", Some(&web));
        assert_eq!(read.ui, None);
        assert!(read.note.unwrap().contains("must be a ui:// resource"));
    }

    #[test]
    fn app_only_tools_are_not_for_the_model() {
        let meta = json!({"ui": {"visibility": ["app"]}});
        let ui = read_tool_ui("poll", Some(&meta)).ui.unwrap();
        assert_eq!((ui.model, ui.app, ui.resource_uri), (false, true, None));
        let model_only = json!({"ui": {"visibility": ["model"]}});
        let ui = read_tool_ui("t", Some(&model_only)).ui.unwrap();
        assert_eq!((ui.model, ui.app), (true, false));
    }

    #[test]
    fn plain_tools_have_no_ui_facts() {
        assert_eq!(read_tool_ui("t", None), ReadUi::default());
        assert_eq!(read_tool_ui("t", Some(&json!({"other": 1}))), ReadUi::default());
        // An empty or unreadable visibility keeps the default rather than hiding the tool.
        assert_eq!(read_tool_ui("t", Some(&json!({"ui": {"visibility": []}}))).ui, None);
    }
}
