//! [`JsonSchemaValidator`]: the validation port implemented in process with `jsonschema`
//! (draft 2020-12), each schema compiled once.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use futures::future::LocalBoxFuture;
use serde_json::Value;

use crate::recipes::validate::{self, SchemaValidator, ValidatorError, Verdict};

/// Compiled schemas kept; far more than the recipes and tool schemas a page validates against.
const CACHED_SCHEMAS: usize = 64;

/// Validates in this thread, at once: always ready.
#[derive(Default)]
pub struct JsonSchemaValidator {
    compiled: RefCell<Vec<Compiled>>,
}

struct Compiled {
    schema: Arc<Value>,
    validator: Result<Rc<jsonschema::Validator>, String>,
}

impl JsonSchemaValidator {
    /// The compiled `schema`: found by identity (recipes keep one `Arc` per schema), then by value
    /// (tool schemas are rebuilt per call), else compiled and kept.
    fn compiled(&self, schema: &Arc<Value>) -> Result<Rc<jsonschema::Validator>, String> {
        let mut cache = self.compiled.borrow_mut();
        let known = cache
            .iter()
            .position(|entry| Arc::ptr_eq(&entry.schema, schema))
            .or_else(|| cache.iter().position(|entry| *entry.schema == **schema));
        if let Some(index) = known {
            return cache[index].validator.clone();
        }
        let validator = jsonschema::draft202012::new(schema)
            .map(Rc::new)
            .map_err(|error| error.to_string());
        if cache.len() == CACHED_SCHEMAS {
            cache.remove(0);
        }
        cache.push(Compiled {
            schema: schema.clone(),
            validator: validator.clone(),
        });
        validator
    }
}

impl SchemaValidator for JsonSchemaValidator {
    fn ready(&self) -> LocalBoxFuture<'_, Result<(), ValidatorError>> {
        Box::pin(futures::future::ready(Ok(())))
    }

    fn validate(&self, schema: &Arc<Value>, instance: &Value) -> Verdict {
        let validator = self.compiled(schema).map_err(ValidatorError::Schema)?;
        Ok(validate::validate(&validator, schema, instance))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::recipes::validate::{Detail, MAX_DETAILS};

    fn check(schema: Value, instance: Value) -> Vec<Detail> {
        JsonSchemaValidator::default()
            .validate(&Arc::new(schema), &instance)
            .unwrap()
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

    #[test]
    fn a_schema_that_does_not_compile_is_an_error_never_a_pass() {
        let verdict = JsonSchemaValidator::default()
            .validate(&Arc::new(json!({"type": "no-such-type"})), &json!(1));
        assert!(
            matches!(verdict, Err(ValidatorError::Schema(_))),
            "{verdict:?}"
        );
    }

    #[test]
    fn schemas_built_and_dropped_one_after_another_are_never_confused() {
        // Each schema is dropped before the next is built, so the allocator may reuse its address:
        // more of them than the cache holds, then the first ones again.
        let validator = JsonSchemaValidator::default();
        for round in 0..2 {
            for expected in 0..(CACHED_SCHEMAS as u64 + 6) {
                let schema = Arc::new(json!({"const": expected}));
                let verdict = validator.validate(&schema, &json!(expected)).unwrap();
                assert!(verdict.is_empty(), "round {round}, {expected}: {verdict:?}");
                let wrong = validator.validate(&schema, &json!(expected + 1)).unwrap();
                assert_eq!(wrong[0].message, format!("must be {expected}"));
            }
        }
    }
}
