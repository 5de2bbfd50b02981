//! Reading the recipe lists other servers return from their `list_recipes`-like tools, whatever
//! shape they use: a JSON array, or an object holding one under `recipes`/`items`/`results`, in the
//! structured content or in the first JSON text part; entries named by `name` or `id`.

use serde_json::Value;

use crate::tool::{ResultPart, ToolResult};

/// One recipe as a server lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecipeSummary {
    pub name: String,
    pub description: String,
}

/// The recipes in a listing result; empty when the result holds none (or is an error).
pub fn parse_recipe_list(result: &ToolResult) -> Vec<RecipeSummary> {
    if result.is_error {
        return Vec::new();
    }
    let from_text = || {
        result.content.iter().find_map(|part| match part {
            ResultPart::Text { text } => serde_json::from_str::<Value>(text).ok(),
            ResultPart::Image { .. } => None,
        })
    };
    let Some(value) = result.structured.clone().or_else(from_text) else { return Vec::new() };
    let entries = match &value {
        Value::Array(entries) => entries.as_slice(),
        Value::Object(object) => ["recipes", "items", "results"]
            .iter()
            .find_map(|key| object.get(*key).and_then(Value::as_array))
            .map(Vec::as_slice)
            .unwrap_or_default(),
        _ => &[],
    };
    entries
        .iter()
        .filter_map(|entry| {
            let name = entry.get("name").or_else(|| entry.get("id")).and_then(Value::as_str)?.trim();
            (!name.is_empty()).then(|| RecipeSummary {
                name: name.to_owned(),
                description: entry
                    .get("description")
                    .or_else(|| entry.get("when"))
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
            })
        })
        .collect()
}

/// The readable body of a `get_recipe`-like result: its `body`/`recipe`/`content` field when it is
/// JSON, else the text as is.
pub fn recipe_body(result: &ToolResult) -> String {
    let text = result.text_content();
    let value = result.structured.clone().or_else(|| serde_json::from_str::<Value>(&text).ok());
    value
        .as_ref()
        .and_then(|v| ["body", "recipe", "content"].iter().find_map(|key| v.get(*key).and_then(Value::as_str)))
        .map(str::to_owned)
        .unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn names(result: &ToolResult) -> Vec<String> {
        parse_recipe_list(result).into_iter().map(|r| r.name).collect()
    }

    #[test]
    fn arrays_and_wrapped_lists_in_text_or_structured_content_are_read() {
        let array = ToolResult::text(r#"[{"name": "weather-kpis", "description": "KPIs"}, {"id": "map"}]"#);
        assert_eq!(names(&array), ["weather-kpis", "map"]);
        let wrapped = ToolResult::json(json!({"recipes": [{"name": "a"}]}));
        assert_eq!(names(&wrapped), ["a"]);
        let items = ToolResult::text(r#"{"items": [{"name": "b", "when": "for b"}]}"#);
        assert_eq!(parse_recipe_list(&items)[0].description, "for b");
    }

    #[test]
    fn errors_prose_and_unnamed_entries_give_nothing() {
        assert!(names(&ToolResult::error("boom")).is_empty());
        assert!(names(&ToolResult::text("Here are my recipes: none")).is_empty());
        assert!(names(&ToolResult::text(r#"[{"description": "no name"}, {"name": " "}]"#)).is_empty());
    }

    #[test]
    fn a_recipe_body_is_its_body_field_or_the_text() {
        assert_eq!(recipe_body(&ToolResult::json(json!({"name": "a", "body": "## Steps"}))), "## Steps");
        assert_eq!(recipe_body(&ToolResult::text("# Plain markdown")), "# Plain markdown");
    }
}
