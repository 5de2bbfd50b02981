//! Loads the recipes `build.rs` compiled into `OUT_DIR/recipes.json` into typed [`Recipe`]s.

use std::collections::HashSet;

use serde::Deserialize;
use serde_json::Value;

use crate::recipes::{Recipe, RecipeError, RecipeGroup};
use crate::widget_kind::WidgetKind;

const COMPILED: &str = include_str!(concat!(env!("OUT_DIR"), "/recipes.json"));

/// One file as the build step left it.
#[derive(Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
enum Compiled {
    Loaded {
        file: String,
        frontmatter: Value,
        body: String,
        examples: Vec<Value>,
    },
    Failed {
        file: String,
        error: String,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Frontmatter {
    widget: String,
    description: String,
    group: RecipeGroup,
    #[serde(default)]
    tags: Vec<String>,
    schema: Value,
}

pub(crate) fn load() -> (Vec<Recipe>, Vec<RecipeError>) {
    let compiled: Vec<Compiled> = match serde_json::from_str(COMPILED) {
        Ok(compiled) => compiled,
        Err(error) => {
            let failure = RecipeError::Unparsed {
                file: "*".to_owned(),
                reason: error.to_string(),
            };
            return (Vec::new(), vec![failure]);
        }
    };
    let mut recipes: Vec<Recipe> = Vec::new();
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    for entry in compiled {
        match convert(entry) {
            Ok(recipe) if !seen.insert(recipe.kind) => {
                errors.push(RecipeError::Duplicate(recipe.kind))
            }
            Ok(recipe) => recipes.push(recipe),
            Err(error) => errors.push(error),
        }
    }
    (recipes, errors)
}

fn convert(entry: Compiled) -> Result<Recipe, RecipeError> {
    let (file, frontmatter, body, examples) = match entry {
        Compiled::Loaded {
            file,
            frontmatter,
            body,
            examples,
        } => (file, frontmatter, body, examples),
        Compiled::Failed { file, error } => {
            return Err(RecipeError::Unparsed {
                file,
                reason: error,
            });
        }
    };
    let front: Frontmatter =
        serde_json::from_value(frontmatter).map_err(|error| RecipeError::Unparsed {
            file: file.clone(),
            reason: format!("frontmatter: {error}"),
        })?;
    if front.widget != file {
        return Err(RecipeError::NameMismatch {
            file,
            widget: front.widget,
        });
    }
    let kind = WidgetKind::ALL
        .iter()
        .copied()
        .find(|kind| kind.as_str() == file)
        .ok_or(RecipeError::UnknownWidget { file })?;
    let params = examples
        .into_iter()
        .enumerate()
        .map(|(index, call)| example_params(kind, index + 1, call))
        .collect::<Result<Vec<Value>, RecipeError>>()?;
    Ok(Recipe::new(
        kind,
        front.description,
        front.group,
        front.tags,
        front.schema,
        body,
        params,
    ))
}

/// The `params` of a complete example call `{"name": "<widget>", "params": {...}}`.
fn example_params(kind: WidgetKind, index: usize, call: Value) -> Result<Value, RecipeError> {
    let Value::Object(mut call) = call else {
        return Err(RecipeError::Example {
            widget: kind,
            index,
        });
    };
    let named_right = call.get("name").and_then(Value::as_str) == Some(kind.as_str());
    match call.remove("params") {
        Some(params @ Value::Object(_)) if named_right && call.len() == 1 => Ok(params),
        _ => Err(RecipeError::Example {
            widget: kind,
            index,
        }),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn compiled(file: &str, frontmatter: Value, examples: Vec<Value>) -> Compiled {
        Compiled::Loaded {
            file: file.to_owned(),
            frontmatter,
            body: "## When to use".to_owned(),
            examples,
        }
    }

    fn frontmatter(widget: &str) -> Value {
        json!({"widget": widget, "description": "d", "group": "simple", "schema": {"type": "object"}})
    }

    #[test]
    fn a_file_that_failed_to_parse_at_build_time_is_an_error() {
        let entry = Compiled::Failed {
            file: "stat".to_owned(),
            error: "frontmatter is not valid YAML".to_owned(),
        };
        let error = convert(entry).unwrap_err();
        assert_eq!(
            error.to_string(),
            "recipe stat.md does not parse: frontmatter is not valid YAML"
        );
    }

    #[test]
    fn the_widget_name_must_match_the_file_name_and_a_kind() {
        let error = convert(compiled("stat", frontmatter("kpi"), vec![])).unwrap_err();
        assert!(matches!(error, RecipeError::NameMismatch { .. }));
        let error = convert(compiled("pie", frontmatter("pie"), vec![])).unwrap_err();
        assert_eq!(
            error,
            RecipeError::UnknownWidget {
                file: "pie".to_owned()
            }
        );
    }

    #[test]
    fn unknown_frontmatter_keys_are_refused() {
        let mut front = frontmatter("stat");
        front["servers"] = json!(["autoui"]);
        assert!(matches!(
            convert(compiled("stat", front, vec![])),
            Err(RecipeError::Unparsed { .. })
        ));
    }

    #[test]
    fn examples_must_be_complete_calls_to_their_own_widget() {
        let good = json!({"name": "stat", "params": {"label": "a", "value": "1"}});
        let recipe = convert(compiled("stat", frontmatter("stat"), vec![good])).unwrap();
        assert_eq!(recipe.examples, vec![json!({"label": "a", "value": "1"})]);
        for bad in [
            json!({"label": "a"}),
            json!({"name": "kv", "params": {}}),
            json!({"name": "stat", "params": []}),
        ] {
            let error = convert(compiled("stat", frontmatter("stat"), vec![bad])).unwrap_err();
            assert_eq!(
                error,
                RecipeError::Example {
                    widget: WidgetKind::Stat,
                    index: 1
                }
            );
        }
    }
}
