//! The `jsonschema` errors turned into details: what was expected, what came, what is allowed.

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use crate::recipes::validate::{Detail, child, preview};

/// The details of one error (several for one `additionalProperties` error naming several keys).
pub(super) fn describe(error: &ValidationError<'_>, schema: &Value) -> Vec<Detail> {
    let path = error.instance_path().as_str().to_owned();
    let at_schema = |suffix: &str| schema_at(schema, error.schema_path().as_str(), suffix);
    let one = |message: String| {
        vec![Detail {
            path: path.clone(),
            message,
        }]
    };
    match error.kind() {
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            vec![Detail {
                path: child(&path, name),
                message: format!("required property \"{name}\" is missing"),
            }]
        }
        ValidationErrorKind::Type { .. } => {
            let owner = at_schema("type");
            let expected = owner
                .map(expected_types)
                .unwrap_or_else(|| "another type".to_owned());
            let hint = owner
                .and_then(|owner| owner.get("description"))
                .and_then(Value::as_str)
                .map(|description| format!(" ({description})"))
                .unwrap_or_default();
            one(format!(
                "expected {expected}, got {}{hint}",
                preview(error.instance())
            ))
        }
        ValidationErrorKind::Enum { options } => one(format!(
            "{} is not allowed; use one of: {}",
            preview(error.instance()),
            list(options)
        )),
        ValidationErrorKind::Constant { expected_value } => {
            one(format!("must be {expected_value}"))
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let allowed = at_schema("additionalProperties")
                .and_then(|owner| owner.get("properties"))
                .and_then(Value::as_object)
                .map(|properties| {
                    properties
                        .keys()
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default();
            unexpected
                .iter()
                .map(|key| Detail {
                    path: child(&path, key),
                    message: format!("unknown property \"{key}\"; allowed properties: {allowed}"),
                })
                .collect()
        }
        ValidationErrorKind::MinItems { limit } => one(format!(
            "needs at least {limit} item(s), got {}",
            array_len(error.instance())
        )),
        ValidationErrorKind::MaxItems { limit } => one(format!(
            "takes at most {limit} item(s), got {}",
            array_len(error.instance())
        )),
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            let options: Vec<String> = context
                .iter()
                .filter_map(|branch| branch.first())
                .flat_map(|first| describe(first, schema))
                .map(|detail| format!("{} at \"{}\"", detail.message, detail.path))
                .collect();
            one(format!(
                "matches none of the accepted forms: {}",
                options.join("; or ")
            ))
        }
        _ => one(error.to_string()),
    }
}

/// The schema object that owns the keyword at `schema_path`, when the path ends with `/<keyword>`.
fn schema_at<'s>(schema: &'s Value, schema_path: &str, keyword: &str) -> Option<&'s Value> {
    schema.pointer(schema_path.strip_suffix(&format!("/{keyword}"))?)
}

/// `"number"`, or `"string or number"`, from the owner of a failed `type` keyword.
fn expected_types(owner: &Value) -> String {
    match owner.get("type") {
        Some(Value::String(single)) => single.clone(),
        Some(Value::Array(many)) => many
            .iter()
            .filter_map(Value::as_str)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "another type".to_owned(),
    }
}

fn list(options: &Value) -> String {
    match options {
        Value::Array(values) => values
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

fn array_len(value: &Value) -> usize {
    value.as_array().map_or(0, Vec::len)
}
