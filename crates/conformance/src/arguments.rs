//! Arguments for a tool the runner knows nothing about, from its input schema: every required
//! property (and every one with a default) gets its default, its first `enum` value, or a plain
//! value of its type.

use serde_json::{Map, Value, json};

pub fn sample_arguments(schema: &Value) -> Value {
    Value::Object(sample_object(schema))
}

fn sample_object(schema: &Value) -> Map<String, Value> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Map::new();
    };
    properties
        .iter()
        .filter(|(name, property)| required.contains(&name.as_str()) || property.get("default").is_some())
        .map(|(name, property)| (name.clone(), sample_value(property)))
        .collect()
}

fn sample_value(schema: &Value) -> Value {
    if let Some(default) = schema.get("default") {
        return default.clone();
    }
    if let Some(first) = schema.get("enum").and_then(Value::as_array).and_then(|values| values.first()) {
        return first.clone();
    }
    let minimum = schema.get("minimum").and_then(Value::as_f64);
    match schema.get("type").and_then(Value::as_str) {
        Some("integer") => json!(minimum.map_or(1, |min| min.ceil() as i64)),
        Some("number") => json!(minimum.unwrap_or(1.0)),
        Some("boolean") => json!(true),
        Some("array") => json!([]),
        Some("object") => Value::Object(sample_object(schema)),
        Some("null") => Value::Null,
        _ => json!("conformance"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_numbers_get_numbers_and_optional_fields_without_defaults_are_left_out() {
        let schema = json!({
            "type": "object",
            "properties": {
                "a": {"type": "number"},
                "b": {"type": "integer", "minimum": 3},
                "unit": {"type": "string", "enum": ["m", "km"]},
                "note": {"type": "string"},
                "verbose": {"type": "boolean", "default": false}
            },
            "required": ["a", "b", "unit"]
        });
        assert_eq!(sample_arguments(&schema), json!({"a": 1.0, "b": 3, "unit": "m", "verbose": false}));
    }
}
