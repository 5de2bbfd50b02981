//! The validator module: `jsonschema` behind one function the app calls with JSON text, kept out
//! of the app's first load. Trunk builds it as a second wasm-bindgen bundle from its `data-type="worker"`
//! link in `index.html`: that type is what makes Trunk build a bundle it neither loads nor hashes, though
//! the app runs it on the main thread.
//!
//! The answer is a [`Verdict`] as JSON, produced by the core's in-process validator, so the
//! details are the same ones native code gets.

use std::cell::RefCell;
use std::sync::Arc;

use autoui_core::recipes::validate::in_process::JsonSchemaValidator;
use autoui_core::recipes::validate::{SchemaValidator, ValidatorError, Verdict};
use serde_json::Value;
use wasm_bindgen::prelude::wasm_bindgen;

/// Schemas kept parsed, by text; the validator keeps each one compiled.
const PARSED_SCHEMAS: usize = 64;

thread_local! {
    static VALIDATOR: JsonSchemaValidator = JsonSchemaValidator::default();
    static SCHEMAS: RefCell<Vec<(String, Arc<Value>)>> = const { RefCell::new(Vec::new()) };
}

/// Validates the JSON text `instance` against the JSON text `schema`; answers a [`Verdict`] as JSON.
#[wasm_bindgen]
pub fn validate(schema: &str, instance: &str) -> String {
    // A verdict is only strings, so encoding cannot fail; if it did, the app could not read the
    // empty answer and would report an error, never a pass.
    serde_json::to_string(&verdict(schema, instance)).unwrap_or_default()
}

fn verdict(schema: &str, instance: &str) -> Verdict {
    let schema = parsed(schema)?;
    let instance: Value = serde_json::from_str(instance)
        .map_err(|error| ValidatorError::Unavailable(format!("the data is not JSON: {error}")))?;
    VALIDATOR.with(|validator| validator.validate(&schema, &instance))
}

/// The schema parsed once per text, so the validator finds its compiled form by identity.
fn parsed(text: &str) -> Result<Arc<Value>, ValidatorError> {
    SCHEMAS.with_borrow_mut(|schemas| {
        if let Some((_, schema)) = schemas.iter().find(|(known, _)| known == text) {
            return Ok(schema.clone());
        }
        let schema: Arc<Value> = serde_json::from_str(text)
            .map(Arc::new)
            .map_err(|error| ValidatorError::Schema(format!("the schema is not JSON: {error}")))?;
        if schemas.len() == PARSED_SCHEMAS {
            schemas.remove(0);
        }
        schemas.push((text.to_owned(), schema.clone()));
        Ok(schema)
    })
}

#[cfg(test)]
mod tests {
    use autoui_core::recipes::validate::Detail;
    use serde_json::json;

    use super::*;

    fn answer(schema: Value, instance: Value) -> Verdict {
        serde_json::from_str(&validate(&schema.to_string(), &instance.to_string())).unwrap()
    }

    #[test]
    fn valid_data_gets_no_details() {
        assert_eq!(answer(json!({"type": "object"}), json!({})), Ok(Vec::new()));
    }

    #[test]
    fn the_app_gets_the_same_details_as_native_code() {
        let schema = json!({"type": "object", "required": ["label"]});
        let native = JsonSchemaValidator::default().validate(&Arc::new(schema.clone()), &json!({}));
        let shipped = answer(schema, json!({}));
        assert_eq!(shipped, native);
        assert_eq!(
            shipped,
            Ok(vec![Detail {
                path: "/label".into(),
                message: "required property \"label\" is missing".into()
            }])
        );
    }

    #[test]
    fn a_schema_seen_before_is_not_confused_with_another() {
        for _ in 0..2 {
            assert_eq!(answer(json!({"const": 1}), json!(1)), Ok(Vec::new()));
            assert_eq!(answer(json!({"const": 2}), json!(2)), Ok(Vec::new()));
        }
    }

    #[test]
    fn text_that_is_not_json_is_an_error_never_a_pass() {
        let verdict: Verdict = serde_json::from_str(&validate("{}", "{not json")).unwrap();
        assert!(
            matches!(verdict, Err(ValidatorError::Unavailable(_))),
            "{verdict:?}"
        );
        let verdict: Verdict = serde_json::from_str(&validate("{oops", "{}")).unwrap();
        assert!(
            matches!(verdict, Err(ValidatorError::Schema(_))),
            "{verdict:?}"
        );
    }
}
