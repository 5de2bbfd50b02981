//! The chat's `/` prompt picker, natively: which prompts match what follows `/`, required arguments
//! left empty, the arguments sent, and the text a filled prompt puts at the start of the turn.

use std::collections::BTreeMap;

use autoui_core::ids::ServerId;
use autoui_core::mcp::model::prompt::{GetPromptResult, Prompt};
use autoui_core::mcp::prompts::{PromptChoice, filled, matching, missing_required, query, turn_text};
use serde_json::json;

fn choice(server: &str, prompt: serde_json::Value) -> PromptChoice {
    PromptChoice { server: ServerId::sanitize(server), prompt: serde_json::from_value(prompt).unwrap() }
}

fn choices() -> Vec<PromptChoice> {
    vec![
        choice("everything", json!({"name": "simple-prompt", "title": "Simple Prompt"})),
        choice("everything", json!({"name": "args-prompt", "title": "Arguments Prompt", "arguments": [
            {"name": "city", "required": true}, {"name": "state"}
        ]})),
        choice("sales", json!({"name": "quarterly_review"})),
    ]
}

fn names<'c>(found: &[&'c PromptChoice]) -> Vec<&'c str> {
    found.iter().map(|choice| choice.prompt.name.as_str()).collect()
}

#[test]
fn only_a_draft_that_is_a_slash_and_one_word_searches_prompts() {
    assert_eq!(query("/"), Some(""));
    assert_eq!(query("/args"), Some("args"));
    assert_eq!(query("/args and more"), None, "a sentence after the slash is a message");
    assert_eq!(query("show /args"), None);
    assert_eq!(query(""), None);
}

#[test]
fn prompts_match_by_name_title_or_server_in_any_case() {
    let choices = choices();
    assert_eq!(names(&matching(&choices, "")), ["simple-prompt", "args-prompt", "quarterly_review"]);
    assert_eq!(names(&matching(&choices, "ARG")), ["args-prompt"]);
    assert_eq!(names(&matching(&choices, "weather")), Vec::<&str>::new());
    assert_eq!(names(&matching(&choices, "sales")), ["quarterly_review"]);
    assert_eq!(names(&matching(&choices, "prompt")), ["simple-prompt", "args-prompt"]);
    assert_eq!(choices[1].label(), "Arguments Prompt");
    assert_eq!(choices[2].label(), "quarterly_review");
}

#[test]
fn a_required_argument_left_blank_is_named_and_blank_optional_ones_are_not_sent() {
    let prompt: Prompt = choices()[1].prompt.clone();
    let mut values = BTreeMap::from([("city".to_owned(), "  ".to_owned()), ("state".to_owned(), String::new())]);
    assert_eq!(missing_required(&prompt, &values), ["city"]);
    values.insert("city".to_owned(), " Lyon ".to_owned());
    assert!(missing_required(&prompt, &values).is_empty());
    assert_eq!(filled(&values), BTreeMap::from([("city".to_owned(), "Lyon".to_owned())]));
}

#[test]
fn a_single_user_message_becomes_the_turn_as_it_is() {
    let result: GetPromptResult = serde_json::from_value(json!({"messages": [
        {"role": "user", "content": {"type": "text", "text": "What's weather in Lyon?"}}
    ]}))
    .unwrap();
    assert_eq!(turn_text(&result), "What's weather in Lyon?");
}

#[test]
fn several_messages_keep_their_roles_and_embedded_parts_are_named() {
    let result: GetPromptResult = serde_json::from_value(json!({"messages": [
        {"role": "user", "content": {"type": "text", "text": "Review this quarter."}},
        {"role": "assistant", "content": {"type": "text", "text": "Which region?"}},
        {"role": "user", "content": {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}},
        {"role": "user", "content": {"type": "resource", "resource": {"uri": "demo://doc", "text": "Q3 notes"}}},
    ]}))
    .unwrap();
    assert_eq!(
        turn_text(&result),
        "User: Review this quarter.\n\nAssistant: Which region?\n\nUser: [image image/png]\n\nUser: [resource <demo://doc>]\nQ3 notes"
    );
}
