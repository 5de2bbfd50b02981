//! Widget interaction events (a button click, a chat-input submit, a row or node click) and the
//! text the agent receives for them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ids::BlockId;
use crate::widget_kind::WidgetKind;

/// Longest payload excerpt put into text meant for the model, in characters.
pub const PAYLOAD_TEXT_LIMIT: usize = 600;

/// What the user did inside a widget. The wire names are kebab-case (`row-click`); [`WidgetAction::from_name`]
/// also reads the reference system's names (`rowclick`, `node-dblclick`, `click`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WidgetAction {
    /// A button of `actions` or `profile`; payload `{label, index}`.
    ButtonClick,
    /// `chat-input` sent text; payload `{text}`.
    Submit,
    /// `chat-input`'s stop button.
    Stop,
    /// A `list` item.
    ItemClick,
    /// A `data-table` row; payload is the row.
    RowClick,
    /// A `cards` card.
    CardClick,
    /// A `timeline` event.
    EventClick,
    /// A `trombinoscope` person.
    PersonClick,
    /// A `hemicycle` group.
    GroupClick,
    /// A `grid-data` cell; payload `{row, col, value}`.
    CellClick,
    /// A `sankey` node.
    NodeClick,
    /// A `sankey` flow.
    LinkClick,
    /// A `gallery` image.
    ImageClick,
    /// A `carousel` slide came into view.
    SlideChange,
}

/// Where an event goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// Shown in the chat and sent to the agent as the next user turn.
    NextTurn,
    /// Kept as the widget's current selection and reported with the next canvas change summary.
    Selection,
    /// Stops the agent's current run.
    StopRun,
}

impl WidgetAction {
    const ALL: &'static [WidgetAction] = &[
        WidgetAction::ButtonClick,
        WidgetAction::Submit,
        WidgetAction::Stop,
        WidgetAction::ItemClick,
        WidgetAction::RowClick,
        WidgetAction::CardClick,
        WidgetAction::EventClick,
        WidgetAction::PersonClick,
        WidgetAction::GroupClick,
        WidgetAction::CellClick,
        WidgetAction::NodeClick,
        WidgetAction::LinkClick,
        WidgetAction::ImageClick,
        WidgetAction::SlideChange,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            WidgetAction::ButtonClick => "button-click",
            WidgetAction::Submit => "submit",
            WidgetAction::Stop => "stop",
            WidgetAction::ItemClick => "item-click",
            WidgetAction::RowClick => "row-click",
            WidgetAction::CardClick => "card-click",
            WidgetAction::EventClick => "event-click",
            WidgetAction::PersonClick => "person-click",
            WidgetAction::GroupClick => "group-click",
            WidgetAction::CellClick => "cell-click",
            WidgetAction::NodeClick => "node-click",
            WidgetAction::LinkClick => "link-click",
            WidgetAction::ImageClick => "image-click",
            WidgetAction::SlideChange => "slide-change",
        }
    }

    /// Reads our names and the reference system's (`rowclick`, `node-dblclick`, `click`), in any case.
    pub fn from_name(name: &str) -> Option<WidgetAction> {
        let squashed: String = name
            .trim()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        match squashed.as_str() {
            "click" => return Some(WidgetAction::ButtonClick),
            "nodedblclick" => return Some(WidgetAction::NodeClick),
            _ => {}
        }
        WidgetAction::ALL
            .iter()
            .copied()
            .find(|action| action.as_str().replace('-', "") == squashed)
    }

    pub fn delivery(self) -> Delivery {
        match self {
            WidgetAction::ButtonClick | WidgetAction::Submit => Delivery::NextTurn,
            WidgetAction::Stop => Delivery::StopRun,
            _ => Delivery::Selection,
        }
    }

    /// What was acted on, for sentences ("a row", "a node").
    fn thing(self) -> &'static str {
        match self {
            WidgetAction::ButtonClick | WidgetAction::Stop => "button",
            WidgetAction::Submit => "text",
            WidgetAction::ItemClick => "item",
            WidgetAction::RowClick => "row",
            WidgetAction::CardClick => "card",
            WidgetAction::EventClick => "event",
            WidgetAction::PersonClick => "person",
            WidgetAction::GroupClick => "group",
            WidgetAction::CellClick => "cell",
            WidgetAction::NodeClick => "node",
            WidgetAction::LinkClick => "flow",
            WidgetAction::ImageClick => "image",
            WidgetAction::SlideChange => "slide",
        }
    }
}

/// One user gesture inside a widget.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WidgetEvent {
    pub widget: BlockId,
    #[serde(rename = "type")]
    pub kind: WidgetKind,
    pub action: WidgetAction,
    #[serde(default)]
    pub payload: Value,
}

impl WidgetEvent {
    pub fn delivery(&self) -> Delivery {
        self.action.delivery()
    }

    /// The user turn the agent receives for a [`Delivery::NextTurn`] event.
    pub fn agent_text(&self) -> String {
        let widget = format!("widget {} ({})", self.widget, self.kind);
        match self.action {
            WidgetAction::Submit => {
                let text = self
                    .payload
                    .get("text")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                format!("[widget interaction] The user wrote in {widget}: {text}")
            }
            WidgetAction::ButtonClick => {
                let label = self.label().unwrap_or_else(|| "(no label)".to_owned());
                let details = excerpt(&self.payload.to_string(), PAYLOAD_TEXT_LIMIT);
                format!(
                    "[widget interaction] The user clicked the button \"{label}\" in {widget}. Details: {details}"
                )
            }
            WidgetAction::Stop => {
                format!("[widget interaction] The user pressed stop in {widget}.")
            }
            _ => format!(
                "[widget interaction] The user {} in {widget}.",
                self.selection_text()
            ),
        }
    }

    /// A short phrase for the change summary: `selected a row {"name":"Alice"}`.
    pub fn selection_text(&self) -> String {
        let verb = if self.action == WidgetAction::SlideChange {
            "moved to"
        } else {
            "selected"
        };
        let thing = self.action.thing();
        match &self.payload {
            Value::Null => format!("{verb} a {thing}"),
            payload => format!(
                "{verb} a {thing}: {}",
                excerpt(&payload.to_string(), PAYLOAD_TEXT_LIMIT)
            ),
        }
    }

    /// The label a button payload carries (`label`, `name` or `title`).
    fn label(&self) -> Option<String> {
        ["label", "name", "title"]
            .iter()
            .find_map(|key| self.payload.get(key).and_then(Value::as_str))
            .map(|label| excerpt(label, 120))
    }
}

/// The payload for a chosen item of a list-like widget (a timeline event, a card, a person): the
/// item as the data gave it plus its 0-based `index`, so the agent can tell equal items apart.
pub fn item_payload(item: &Value, index: usize) -> Value {
    match item {
        Value::Object(fields) => {
            let mut fields = fields.clone();
            fields.insert("index".to_owned(), Value::from(index));
            Value::Object(fields)
        }
        other => serde_json::json!({"index": index, "item": other}),
    }
}

/// `text` cut to at most `limit` characters, marking the cut.
pub fn excerpt(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!(
            "{}… ({} characters in all)",
            &text[..cut],
            text.chars().count()
        ),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_item_payload_is_the_item_with_its_position() {
        assert_eq!(
            item_payload(&json!({"title": "Vote", "status": "done"}), 2),
            json!({"title": "Vote", "status": "done", "index": 2})
        );
        assert_eq!(
            item_payload(&json!("Vote"), 0),
            json!({"index": 0, "item": "Vote"})
        );
    }
}
