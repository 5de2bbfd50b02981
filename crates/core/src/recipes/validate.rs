//! Schema validation with `jsonschema` (draft 2020-12), reported as `{path, message}` details a
//! model can fix in one retry: JSON Pointer paths, expected vs got, the allowed values.

use jsonschema::error::ValidationErrorKind;
use jsonschema::{ValidationError, Validator};
use serde::Serialize;
use serde_json::Value;

/// At most this many details are reported; the rest are counted in one last detail.
pub const MAX_DETAILS: usize = 12;

/// One thing wrong with the params: where (JSON Pointer into params, `""` for the root) and what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Detail {
    pub path: String,
    pub message: String,
}

/// Every violation of `schema` by `instance`; empty when it is valid.
pub fn validate(validator: &Validator, schema: &Value, instance: &Value) -> Vec<Detail> {
    // The fast boolean check first: collecting errors costs more, and most calls are valid.
    if validator.is_valid(instance) {
        return Vec::new();
    }
    let mut details: Vec<Detail> = Vec::new();
    let mut total = 0usize;
    for error in validator.iter_errors(instance) {
        total += 1;
        if details.len() < MAX_DETAILS {
            details.extend(describe(&error, schema));
        }
    }
    if total > MAX_DETAILS {
        details.truncate(MAX_DETAILS);
        details.push(Detail {
            path: String::new(),
            message: format!(
                "{} more errors not shown; they are probably the same mistake repeated",
                total - MAX_DETAILS
            ),
        });
    }
    details
}

/// The details of one error (several for one `additionalProperties` error naming several keys).
fn describe(error: &ValidationError<'_>, schema: &Value) -> Vec<Detail> {
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

/// A short description of a value: its type and, for scalars, the value itself.
pub(crate) fn preview(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(flag) => format!("boolean {flag}"),
        Value::Number(number) => format!("number {number}"),
        Value::String(text) => format!("string {}", quote(text)),
        Value::Array(items) => format!("array of {} item(s)", items.len()),
        Value::Object(map) => {
            let keys: Vec<&str> = map.keys().take(6).map(String::as_str).collect();
            format!("object {{{}}}", keys.join(", "))
        }
    }
}

/// A JSON-quoted string cut to 60 characters.
pub(crate) fn quote(text: &str) -> String {
    const LIMIT: usize = 60;
    if text.chars().count() <= LIMIT {
        return Value::String(text.to_owned()).to_string();
    }
    let cut: String = text.chars().take(LIMIT).collect();
    format!("{}…", Value::String(cut))
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

/// `parent` extended by one JSON Pointer segment (RFC 6901 escaping).
pub(crate) fn child(parent: &str, key: &str) -> String {
    let mut path = parent.to_owned();
    push_segment(&mut path, key);
    path
}

/// Appends one JSON Pointer segment to `path` in place (RFC 6901 escaping).
pub(crate) fn push_segment(path: &mut String, segment: &str) {
    path.push('/');
    if segment.bytes().any(|byte| byte == b'~' || byte == b'/') {
        path.push_str(&segment.replace('~', "~0").replace('/', "~1"));
    } else {
        path.push_str(segment);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn check(schema: Value, instance: Value) -> Vec<Detail> {
        let validator = jsonschema::draft202012::new(&schema).unwrap();
        validate(&validator, &schema, &instance)
    }

    #[test]
    fn a_missing_required_property_points_at_the_property() {
        let details = check(json!({"type": "object", "required": ["label"]}), json!({}));
        assert_eq!(
            details,
            vec![Detail {
                path: "/label".into(),
                message: "required property \"label\" is missing".into()
            }]
        );
    }

    #[test]
    fn a_wrong_type_says_what_was_expected_and_what_came() {
        let schema = json!({"type": "object", "properties": {"bars": {"type": "array", "items": {
            "type": "array", "description": "a [label, value] pair"}}}});
        let details = check(schema, json!({"bars": [{"label": "Jan"}]}));
        assert_eq!(details[0].path, "/bars/0");
        assert_eq!(
            details[0].message,
            "expected array, got object {label} (a [label, value] pair)"
        );
    }

    #[test]
    fn a_value_outside_an_enum_lists_the_allowed_values() {
        let schema = json!({"properties": {"level": {"enum": ["info", "warn", "error"]}}});
        let details = check(schema, json!({"level": "fatal"}));
        assert_eq!(
            details[0].message,
            "string \"fatal\" is not allowed; use one of: \"info\", \"warn\", \"error\""
        );
    }

    #[test]
    fn unknown_properties_are_named_with_the_allowed_ones() {
        let schema = json!({"type": "object", "properties": {"label": {}, "value": {}}, "additionalProperties": false});
        let details = check(schema, json!({"label": "a", "value": "b", "valeur": "c"}));
        assert_eq!(
            details,
            vec![Detail {
                path: "/valeur".into(),
                message: "unknown property \"valeur\"; allowed properties: label, value".into()
            }]
        );
    }

    #[test]
    fn any_of_failures_explain_each_accepted_form() {
        let schema = json!({"anyOf": [{"required": ["data"]}, {"required": ["datasets"]}]});
        let details = check(schema, json!({}));
        assert_eq!(
            details[0].message,
            "matches none of the accepted forms: required property \"data\" is missing at \"/data\"; \
             or required property \"datasets\" is missing at \"/datasets\""
        );
    }

    #[test]
    fn many_errors_are_capped_with_a_count() {
        let schema = json!({"type": "array", "items": {"type": "number"}});
        let details = check(schema, json!(vec!["x"; 30]));
        assert_eq!(details.len(), MAX_DETAILS + 1);
        assert!(details[MAX_DETAILS].message.starts_with("18 more errors"));
    }
}
