//! Widget interaction events: where each goes (next turn, selection, stop) and the text the agent
//! receives for it.

use autoui_core::canvas::event::{Delivery, WidgetAction, WidgetEvent};
use autoui_core::ids::BlockId;
use autoui_core::widget_kind::WidgetKind;
use serde_json::{Value, json};

fn event(kind: WidgetKind, action: WidgetAction, payload: Value) -> WidgetEvent {
    WidgetEvent {
        widget: BlockId::new("w_k3x9a1"),
        kind,
        action,
        payload,
    }
}

#[test]
fn a_button_click_goes_to_the_agent_as_a_turn_naming_the_button() {
    let click = event(
        WidgetKind::Actions,
        WidgetAction::ButtonClick,
        json!({ "label": "Refresh", "index": 0 }),
    );
    assert_eq!(click.delivery(), Delivery::NextTurn);
    assert_eq!(
        click.agent_text(),
        "[widget interaction] The user clicked the button \"Refresh\" in widget w_k3x9a1 (actions). \
         Details: {\"index\":0,\"label\":\"Refresh\"}"
    );
}

#[test]
fn a_chat_input_submit_goes_to_the_agent_with_the_users_words() {
    let submit = event(
        WidgetKind::ChatInput,
        WidgetAction::Submit,
        json!({ "text": "only 2024, please" }),
    );
    assert_eq!(submit.delivery(), Delivery::NextTurn);
    assert_eq!(
        submit.agent_text(),
        "[widget interaction] The user wrote in widget w_k3x9a1 (chat-input): only 2024, please"
    );
}

#[test]
fn the_chat_input_stop_button_stops_the_run() {
    assert_eq!(
        event(WidgetKind::ChatInput, WidgetAction::Stop, Value::Null).delivery(),
        Delivery::StopRun
    );
}

#[test]
fn row_card_and_node_clicks_become_selections() {
    for action in [
        WidgetAction::RowClick,
        WidgetAction::CardClick,
        WidgetAction::NodeClick,
        WidgetAction::CellClick,
    ] {
        assert_eq!(action.delivery(), Delivery::Selection, "{action:?}");
    }
    let node = event(
        WidgetKind::Sankey,
        WidgetAction::NodeClick,
        json!({ "id": "coal", "label": "Coal" }),
    );
    assert_eq!(
        node.selection_text(),
        "selected a node: {\"id\":\"coal\",\"label\":\"Coal\"}"
    );
}

#[test]
fn a_huge_payload_is_cut_in_the_text_and_says_how_long_it_was() {
    let row = json!({ "notes": "x".repeat(5000) });
    let text = event(WidgetKind::DataTable, WidgetAction::RowClick, row).selection_text();
    assert!(
        text.chars().count() < 700,
        "{} characters",
        text.chars().count()
    );
    assert!(text.ends_with("… (5012 characters in all)"), "{text}");
}

#[test]
fn the_reference_systems_action_names_are_understood() {
    assert_eq!(
        WidgetAction::from_name("rowclick"),
        Some(WidgetAction::RowClick)
    );
    assert_eq!(
        WidgetAction::from_name("node-dblclick"),
        Some(WidgetAction::NodeClick)
    );
    assert_eq!(
        WidgetAction::from_name("click"),
        Some(WidgetAction::ButtonClick)
    );
    assert_eq!(
        WidgetAction::from_name("slide-change"),
        Some(WidgetAction::SlideChange)
    );
    assert_eq!(
        WidgetAction::from_name("Submit"),
        Some(WidgetAction::Submit)
    );
    assert_eq!(WidgetAction::from_name("hover"), None);
}

#[test]
fn events_travel_as_widget_type_action_payload() {
    let submit = event(
        WidgetKind::ChatInput,
        WidgetAction::Submit,
        json!({ "text": "hi" }),
    );
    let value = serde_json::to_value(&submit).unwrap();
    assert_eq!(
        value,
        json!({ "widget": "w_k3x9a1", "type": "chat-input", "action": "submit", "payload": { "text": "hi" } })
    );
    assert_eq!(
        serde_json::from_value::<WidgetEvent>(value).unwrap(),
        submit
    );
}
