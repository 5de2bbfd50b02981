//! The `autoui` server as the dispatcher sees it (name, six tools, tight schemas within a character
//! budget) and its discovery tools: `search_recipes`, `list_recipes`, `get_recipe`.

mod common;

use autoui_core::ids::ServerId;
use autoui_core::tool::LocalServer;
use autoui_core::tool_name::{Protocol, ToolName};
use common::autoui_server::Harness;
use serde_json::{Value, json};

/// What the six tool specs may cost together (descriptions plus input schemas, in characters):
/// they are sent with every request.
const SPEC_BUDGET: usize = 2_400;

#[test]
fn the_server_is_autoui_with_six_tools_in_a_fixed_order() {
    let h = Harness::new();
    assert_eq!(h.ui.name(), "autoui");
    let names: Vec<String> = h.ui.tools().into_iter().map(|tool| tool.name).collect();
    assert_eq!(
        names,
        [
            "search_recipes",
            "list_recipes",
            "get_recipe",
            "widget_display",
            "canvas",
            "recall"
        ]
    );
    let canonical = ToolName::new(
        ServerId::sanitize(h.ui.name()),
        Protocol::WebMcp,
        "widget_display",
    );
    assert_eq!(canonical.to_string(), "autoui_webmcp_widget_display");
}

#[test]
fn reading_tools_are_marked_read_only_and_changing_tools_are_not() {
    let h = Harness::new();
    let read_only: Vec<(String, bool)> =
        h.ui.tools()
            .into_iter()
            .map(|tool| (tool.name, tool.read_only))
            .collect();
    assert_eq!(
        read_only,
        [
            ("search_recipes".into(), true),
            ("list_recipes".into(), true),
            ("get_recipe".into(), true),
            ("widget_display".into(), false),
            ("canvas".into(), false),
            ("recall".into(), true),
        ]
    );
}

#[test]
fn tool_specs_fit_the_character_budget_and_their_schemas_compile() {
    let h = Harness::new();
    let mut total = 0;
    for tool in h.ui.tools() {
        assert!(
            jsonschema::draft202012::new(&tool.input_schema).is_ok(),
            "{}",
            tool.name
        );
        total += tool.description.len() + tool.input_schema.to_string().len();
    }
    assert!(total <= SPEC_BUDGET, "tool specs take {total} characters");
}

#[test]
fn widget_display_names_every_widget_and_lets_flat_params_through() {
    let h = Harness::new();
    let spec =
        h.ui.tools()
            .into_iter()
            .find(|tool| tool.name == "widget_display")
            .unwrap();
    for kind in autoui_core::widget_kind::WidgetKind::ALL {
        assert!(spec.description.contains(kind.as_str()), "{kind}");
    }
    let validator = jsonschema::draft202012::new(&spec.input_schema).unwrap();
    assert!(validator.is_valid(&json!({"name": "stat", "label": "a", "value": "1"})));
    assert!(!validator.is_valid(&json!({"params": {}})));
}

#[test]
fn an_unknown_tool_is_an_error_listing_the_tools() {
    let h = Harness::new();
    let result = h.call("render_stat_card", json!({}));
    assert!(result.is_error);
    assert_eq!(
        result.text_content(),
        "autoui has no tool \"render_stat_card\"; its tools are: search_recipes, list_recipes, get_recipe, widget_display, canvas, recall"
    );
}

fn names(found: &Value) -> Vec<&str> {
    found["recipes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|recipe| recipe["name"].as_str().unwrap())
        .collect()
}

#[test]
fn search_recipes_ranks_name_matches_first_with_name_description_and_group() {
    let h = Harness::new();
    let found = h.ok("search_recipes", json!({"query": "table"}));
    assert_eq!(&names(&found)[..2], ["data-table", "grid-data"]);
    let first = &found["recipes"][0];
    assert_eq!(
        first.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["description", "group", "name"]
    );
    assert_eq!(first["group"], "rich");
    assert!(
        first["description"]
            .as_str()
            .unwrap()
            .contains("sortable table")
    );
}

#[test]
fn search_recipes_matches_tags_and_descriptions() {
    let h = Harness::new();
    assert!(names(&h.ok("search_recipes", json!({"query": "kpi"}))).contains(&"stat-card"));
    assert_eq!(
        names(&h.ok("search_recipes", json!({"query": "assembly seats"})))[0],
        "hemicycle"
    );
    assert!(names(&h.ok("search_recipes", json!({"query": "donut"}))).contains(&"chart-rich"));
}

#[test]
fn a_search_that_finds_nothing_points_to_list_recipes() {
    let h = Harness::new();
    let found = h.ok("search_recipes", json!({"query": "qwxzv"}));
    assert_eq!(found["recipes"], json!([]));
    assert_eq!(
        found["hint"],
        "no widget matches; call list_recipes to see all of them"
    );
}

#[test]
fn list_recipes_lists_all_twenty_seven_widgets_with_their_group() {
    let h = Harness::new();
    let listed = h.ok("list_recipes", json!({}));
    let all = names(&listed);
    assert_eq!(all.len(), 27);
    assert_eq!(all[0], "stat");
    assert_eq!(
        listed["recipes"][24],
        json!({
            "name": "chat-input",
            "group": "interactive",
            "description": "An inline text field with a send button, to ask the user a short free-form question on the canvas."
        })
    );
}

#[test]
fn get_recipe_returns_the_schema_description_and_markdown_body() {
    let h = Harness::new();
    let recipe = h.ok("get_recipe", json!({"name": "stat-card"}));
    assert_eq!(recipe["name"], "stat-card");
    assert_eq!(recipe["group"], "rich");
    assert_eq!(recipe["schema"]["required"], json!(["label", "value"]));
    let body = recipe["recipe"].as_str().unwrap();
    assert!(body.contains("## When to use") && body.contains("```json"));
    assert!(recipe["tags"].as_array().unwrap().contains(&json!("kpi")));
}

#[test]
fn get_recipe_accepts_legacy_names() {
    let h = Harness::new();
    assert_eq!(
        h.ok("get_recipe", json!({"name": "render_data_table"}))["name"],
        "data-table"
    );
}

#[test]
fn get_recipe_for_an_unknown_name_lists_the_closest_names() {
    let h = Harness::new();
    let error = h.err("get_recipe", json!({"name": "datatable"}));
    assert_eq!(error["error"], "no widget named \"datatable\"");
    assert_eq!(error["closest"][0], "data-table");
    assert_eq!(error["closest"].as_array().unwrap().len(), 3);
    assert_eq!(error["hint"], "call list_recipes to see every widget");
}
