//! What can go wrong in an `autoui` tool, and the JSON error result the model sees for each.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::canvas::op::CanvasError;
use crate::canvas::style::StyleError;
use crate::ids::BlockId;
use crate::recipes::check::Rejected;
use crate::recipes::repair;
use crate::recipes::validate::ValidatorError;
use crate::tool::ToolResult;
use crate::widget_kind::WidgetKind;

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AutoUiError {
    #[error("no widget named \"{name}\"")]
    UnknownWidget {
        name: String,
        closest: Vec<&'static str>,
    },
    #[error("no recipe is embedded for {0}")]
    NoRecipe(WidgetKind),
    /// The params (or the data after an update) do not match the widget's schema.
    #[error("validation failed for {widget}")]
    Invalid {
        widget: WidgetKind,
        id: Option<BlockId>,
        rejected: Rejected,
        schema: Arc<Value>,
    },
    #[error("no widget with id \"{id}\" on the canvas")]
    UnknownBlock { id: BlockId, existing: Vec<BlockId> },
    #[error("\"id\" is required for the {action} action")]
    MissingId {
        action: &'static str,
        existing: Vec<BlockId>,
    },
    #[error("{0}")]
    BadArguments(String),
    /// A `source` that does not read, could not be fetched or whose map failed.
    #[error("source: {0}")]
    Source(String),
    /// The params a source's map produced do not match the widget's schema.
    #[error("{invalid}")]
    MappedInvalid { invalid: Box<AutoUiError>, mapped: Value },
    #[error("no stored result for id \"{id}\"")]
    UnknownResult { id: String, known: Vec<String> },
    #[error(
        "the full result of \"{id}\" is no longer kept: the result buffer keeps the newest {} MB of results and forgot the oldest first; call the tool again for its data",
        capacity / 1_000_000
    )]
    EvictedResult { id: String, capacity: usize },
    #[error("no style was applied: every declaration was refused")]
    StyleRejected(Vec<StyleError>),
    #[error("the canvas did not keep widget \"{0}\"")]
    Vanished(BlockId),
    #[error(transparent)]
    Canvas(#[from] CanvasError),
    /// The validator could not run, so no widget data can be accepted.
    #[error(transparent)]
    Validator(#[from] ValidatorError),
}

impl AutoUiError {
    /// The error object returned to the model: `error` plus what it needs to fix the call.
    pub fn to_json(&self) -> Value {
        let error = self.to_string();
        match self {
            AutoUiError::UnknownWidget { closest, .. } => json!({
                "error": error,
                "closest": closest,
                "hint": "call list_recipes to see every widget",
            }),
            AutoUiError::Invalid {
                widget,
                id,
                rejected,
                schema,
            } => {
                let mut body = json!({
                    "error": "Validation failed",
                    "widget": widget.as_str(),
                    "details": rejected.details,
                    "expected_schema": schema.as_ref(),
                });
                if let Some(id) = id {
                    body["id"] = json!(id);
                }
                if !rejected.repairs.is_empty() {
                    body["repairs"] = json!(repair::summarise(&rejected.repairs));
                }
                if !rejected.dropped.is_empty() {
                    body["dropped"] = json!(rejected.dropped);
                }
                body
            }
            AutoUiError::MappedInvalid { invalid, mapped } => {
                let mut body = invalid.to_json();
                body["map_output"] = mapped.clone();
                body["hint"] = json!(
                    "the params checked were source.map's output merged over params: change the map (or params) so they match expected_schema"
                );
                body
            }
            AutoUiError::Source(_) => json!({ "error": error, "usage": crate::binding::source::SOURCE_USAGE }),
            AutoUiError::UnknownBlock { existing, .. }
            | AutoUiError::MissingId { existing, .. } => {
                json!({ "error": error, "existing_ids": existing, "hint": existing_hint(existing) })
            }
            AutoUiError::Canvas(CanvasError::UnknownBlock { existing, .. }) => {
                json!({ "error": error, "existing_ids": existing, "hint": existing_hint(existing) })
            }
            AutoUiError::UnknownResult { known, .. } => {
                json!({ "error": error, "known_ids": known })
            }
            AutoUiError::StyleRejected(rejected) => json!({
                "error": error,
                "rejected": rejected.iter().map(ToString::to_string).collect::<Vec<_>>(),
            }),
            _ => json!({ "error": error }),
        }
    }

    pub fn to_result(&self) -> ToolResult {
        ToolResult::error_json(self.to_json())
    }
}

fn existing_hint(existing: &[BlockId]) -> &'static str {
    if existing.is_empty() {
        "the canvas is empty; create widgets with widget_display"
    } else {
        "use one of existing_ids, or canvas {\"action\": \"list\"} to see them with their titles"
    }
}
