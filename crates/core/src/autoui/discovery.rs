//! `search_recipes`, `list_recipes` and `get_recipe`: how the model finds a widget and learns its params.

use serde_json::{Value, json};

use crate::autoui::error::AutoUiError;
use crate::recipes::{Recipe, Registry};

/// How many names an "unknown widget" error suggests.
const CLOSEST: usize = 3;

pub fn search_recipes(registry: &Registry, args: &Value) -> Value {
    let query = args.get("query").map(text_of).unwrap_or_default();
    let found: Vec<Value> = registry
        .search(&query)
        .into_iter()
        .map(Recipe::summary_json)
        .collect();
    let none = found.is_empty();
    let mut body = json!({ "query": query, "recipes": found });
    if none {
        body["hint"] = json!("no widget matches; call list_recipes to see all of them");
    }
    body
}

pub fn list_recipes(registry: &Registry) -> Value {
    json!({ "recipes": registry.all().iter().map(Recipe::summary_json).collect::<Vec<_>>() })
}

pub fn get_recipe(registry: &Registry, args: &Value) -> Result<Value, AutoUiError> {
    let name = args.get("name").map(text_of).unwrap_or_default();
    let recipe = find(registry, &name)?;
    Ok(json!({
        "name": recipe.name(),
        "description": recipe.description,
        "group": recipe.group.as_str(),
        "tags": recipe.tags,
        "schema": recipe.schema.as_ref(),
        "recipe": recipe.body,
    }))
}

/// The recipe for a name as the model wrote it (legacy `render_*` included), or an error naming the closest.
pub fn find<'r>(registry: &'r Registry, name: &str) -> Result<&'r Recipe, AutoUiError> {
    registry
        .find(name)
        .ok_or_else(|| AutoUiError::UnknownWidget {
            name: name.to_owned(),
            closest: registry.closest(name, CLOSEST),
        })
}

/// A string argument as text; `null` is empty and other JSON is read as its JSON text.
fn text_of(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}
