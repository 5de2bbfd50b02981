//! The six `autoui` tools as the model sees them: names, short descriptions, tight input schemas.
//! Every character here is sent with each request, so descriptions say only what the model needs.

use serde_json::{Value, json};

use crate::tool::ToolSpec;
use crate::widget_kind::WidgetKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    SearchRecipes,
    ListRecipes,
    GetRecipe,
    WidgetDisplay,
    Canvas,
    Recall,
}

impl Tool {
    pub const ALL: [Tool; 6] = [
        Tool::SearchRecipes,
        Tool::ListRecipes,
        Tool::GetRecipe,
        Tool::WidgetDisplay,
        Tool::Canvas,
        Tool::Recall,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Tool::SearchRecipes => "search_recipes",
            Tool::ListRecipes => "list_recipes",
            Tool::GetRecipe => "get_recipe",
            Tool::WidgetDisplay => "widget_display",
            Tool::Canvas => "canvas",
            Tool::Recall => "recall",
        }
    }

    pub fn from_name(name: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|tool| tool.as_str() == name)
    }

    pub fn spec(self) -> ToolSpec {
        let (description, input_schema, read_only) = match self {
            Tool::SearchRecipes => (
                "Find widgets for what you want to show (e.g. \"kpi\", \"table\", \"people\", \"flow\"). \
                 Returns name, description, group, best first; then call get_recipe."
                    .to_owned(),
                object(json!({ "query": { "type": "string", "description": "a few words" } }), &["query"]),
                true,
            ),
            Tool::ListRecipes => {
                ("List every widget with its name, description and group.".to_owned(), object(json!({}), &[]), true)
            }
            Tool::GetRecipe => (
                "Get a widget's params schema, usage guide and examples. Call it before first showing that widget."
                    .to_owned(),
                object(json!({ "name": { "type": "string", "description": "widget name, e.g. stat-card" } }), &["name"]),
                true,
            ),
            Tool::WidgetDisplay => (widget_display_description(), widget_display_schema(), false),
            Tool::Canvas => (
                "Change widgets already shown (ids come from widget_display or list). Actions: list; \
                 update {data:{fields to change}} (or {source} to bind, {source:null} to unbind); move {x,y}; resize {width,height} (grid units, 12 columns); \
                 style {styles:{css}}; remove; clear. Prefer update to showing a new widget."
                    .to_owned(),
                canvas_schema(),
                false,
            ),
            Tool::Recall => (
                "Re-read the full result of an earlier tool call that was shortened. \
                 offset/length (characters) page through long results."
                    .to_owned(),
                object(
                    json!({
                        "id": { "type": "string", "description": "the tool call id" },
                        "offset": { "type": "integer", "minimum": 0 },
                        "length": { "type": "integer", "minimum": 1 },
                    }),
                    &["id"],
                ),
                true,
            ),
        };
        ToolSpec {
            name: self.as_str().to_owned(),
            title: None,
            description,
            input_schema,
            read_only,
            hints: Default::default(),
            ui: None,
        }
    }
}

fn widget_display_description() -> String {
    let names: Vec<&str> = WidgetKind::ALL.iter().map(|kind| kind.as_str()).collect();
    format!(
        "Show a widget on the canvas; get_recipe gives its params. Returns its id (for canvas) and the data as \
         rendered. Widgets: {}.",
        names.join(", ")
    )
}

/// Not closed with `additionalProperties: false` and `params` not required: a call with params
/// passed flat must reach autoui, which repairs it and says so.
fn widget_display_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": { "type": "string", "description": "widget name, e.g. stat-card" },
            "params": { "type": "object", "description": "the widget's params, per its recipe" },
            "source": {
                "type": "object",
                "description": "bind to data that changes: {call: tool name, arguments, map: jq from the result \
                    (structuredContent, else text as JSON) to params or some of them, refresh: manual|on_open|every 5m} \
                    or {resource: uri, map, refresh}; runs at once, then the app refreshes it",
            },
        },
        "required": ["name"],
    })
}

/// Open for the same reason: `{action: "move", id, x, y}` without `params` is accepted.
fn canvas_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "action": { "type": "string", "enum": ["list", "update", "move", "resize", "style", "remove", "clear"] },
            "id": { "type": "string", "description": "widget id, e.g. w_a3f2k9" },
            "params": { "type": "object" },
        },
        "required": ["action"],
    })
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false })
}
