//! Serde helpers for widget fields that the model sometimes sends with a near-miss type: a figure
//! as a number where the recipe asks for text. They accept what reads unambiguously and refuse the rest
//! with a message that says what was expected.

use serde::de::Error;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::view::present::display_value;

/// An optional text field that also accepts a number or a boolean (`12480` reads as `12,480`).
/// `null` and a missing field are `None`; arrays and objects are refused.
pub fn text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let value = Value::deserialize(deserializer)?;
    scalar_text(&value).map_err(D::Error::custom)
}

/// A scalar as display text; `Ok(None)` for `null`.
pub fn scalar_text(value: &Value) -> Result<Option<String>, String> {
    match value {
        Value::Null => Ok(None),
        Value::String(_) | Value::Number(_) | Value::Bool(_) => Ok(Some(display_value(value))),
        Value::Array(_) => Err("expected text, found a list".to_owned()),
        Value::Object(_) => Err("expected text, found an object".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Deserialize, Debug)]
    struct Figure {
        #[serde(default, deserialize_with = "text")]
        value: Option<String>,
    }

    fn read(data: Value) -> Result<Option<String>, String> {
        Figure::deserialize(&data)
            .map(|figure| figure.value)
            .map_err(|error| error.to_string())
    }

    #[test]
    fn text_fields_take_strings_numbers_and_booleans() {
        assert_eq!(
            read(json!({"value": "12,480"})),
            Ok(Some("12,480".to_owned()))
        );
        assert_eq!(read(json!({"value": 12480})), Ok(Some("12,480".to_owned())));
        assert_eq!(read(json!({"value": true})), Ok(Some("true".to_owned())));
    }

    #[test]
    fn missing_or_null_text_is_none() {
        assert_eq!(read(json!({})), Ok(None));
        assert_eq!(read(json!({"value": null})), Ok(None));
    }

    #[test]
    fn structured_values_are_refused_with_what_was_expected() {
        assert_eq!(
            read(json!({"value": [1]})),
            Err("expected text, found a list".to_owned())
        );
        assert_eq!(
            read(json!({"value": {"a": 1}})),
            Err("expected text, found an object".to_owned())
        );
    }
}
