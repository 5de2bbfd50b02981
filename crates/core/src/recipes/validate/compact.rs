//! [`CompactValidator`]: the validation port the app uses. A schema within [`subset`] (every recipe's,
//! the built-in tools') is checked at once, in the first load; any other (an MCP tool's input schema)
//! goes to a full validator, which is loaded only when such a schema is really validated.

use std::sync::Arc;

use futures::future::LocalBoxFuture;
use serde_json::Value;

use crate::recipes::validate::subset::{self, Patterns};
use crate::recipes::validate::{SchemaValidator, ValidatorError, Verdict};

/// [`subset`] with `patterns` first, `full` for every schema outside it.
pub struct CompactValidator<P, F> {
    patterns: P,
    full: F,
}

impl<P: Patterns, F: SchemaValidator> CompactValidator<P, F> {
    pub fn new(patterns: P, full: F) -> Self {
        CompactValidator { patterns, full }
    }

    fn in_subset(&self, schema: &Value) -> bool {
        subset::supports(schema, &self.patterns)
    }
}

impl<P: Patterns, F: SchemaValidator> SchemaValidator for CompactValidator<P, F> {
    fn ready(&self) -> LocalBoxFuture<'_, Result<(), ValidatorError>> {
        self.full.ready()
    }

    fn ready_for(&self, schema: &Arc<Value>) -> LocalBoxFuture<'_, Result<(), ValidatorError>> {
        if self.in_subset(schema) {
            Box::pin(futures::future::ready(Ok(())))
        } else {
            self.full.ready_for(schema)
        }
    }

    fn validate(&self, schema: &Arc<Value>, instance: &Value) -> Verdict {
        if self.in_subset(schema) {
            Ok(subset::validate(schema, instance, &self.patterns))
        } else {
            self.full.validate(schema, instance)
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use futures::executor::block_on;
    use serde_json::json;

    use super::*;
    use crate::recipes::registry;
    use crate::recipes::validate::Detail;

    /// Every text matches, and only `([` does not compile: enough to see which validator answered.
    struct AnyText;

    impl Patterns for AnyText {
        fn is_match(&self, pattern: &str, _text: &str) -> Option<bool> {
            (pattern != "([").then_some(true)
        }
    }

    /// A full validator that is never loaded: it counts how often it was asked for.
    #[derive(Default)]
    struct NotLoaded {
        asked: Cell<usize>,
    }

    impl SchemaValidator for NotLoaded {
        fn ready(&self) -> LocalBoxFuture<'_, Result<(), ValidatorError>> {
            self.asked.set(self.asked.get() + 1);
            Box::pin(futures::future::ready(Err(ValidatorError::Unavailable("not loaded".to_owned()))))
        }

        fn validate(&self, _: &Arc<Value>, _: &Value) -> Verdict {
            self.asked.set(self.asked.get() + 1);
            Err(ValidatorError::Unavailable("not loaded".to_owned()))
        }
    }

    fn compact() -> CompactValidator<AnyText, NotLoaded> {
        CompactValidator::new(AnyText, NotLoaded::default())
    }

    #[test]
    fn every_recipe_is_validated_without_the_full_validator() {
        let validator = compact();
        for recipe in registry().all() {
            assert_eq!(block_on(validator.ready_for(&recipe.schema)), Ok(()), "{}", recipe.name());
            let verdict = validator.validate(&recipe.schema, &json!({}));
            assert!(verdict.is_ok(), "{}: {verdict:?}", recipe.name());
        }
        assert_eq!(validator.full.asked.get(), 0);
    }

    #[test]
    fn a_schema_outside_the_subset_waits_for_the_full_validator() {
        let validator = compact();
        let schema = Arc::new(json!({"type": "object", "properties": {"at": {"format": "date-time"}}}));
        assert!(block_on(validator.ready_for(&schema)).is_err());
        assert_eq!(
            validator.validate(&schema, &json!({})),
            Err(ValidatorError::Unavailable("not loaded".to_owned())),
            "never a pass"
        );
        assert_eq!(validator.full.asked.get(), 2);
    }

    #[test]
    fn a_schema_in_the_subset_gets_details_at_once() {
        let schema = Arc::new(json!({"type": "object", "required": ["label"]}));
        assert_eq!(
            compact().validate(&schema, &json!({})),
            Ok(vec![Detail { path: "/label".into(), message: "required property \"label\" is missing".into() }])
        );
    }

    #[test]
    fn a_malformed_schema_is_left_to_the_full_validator_which_says_why() {
        let validator = compact();
        for schema in [json!({"type": "no-such-type"}), json!({"minItems": -1}), json!({"pattern": "(["})] {
            assert!(validator.validate(&Arc::new(schema), &json!(1)).is_err());
        }
        assert_eq!(validator.full.asked.get(), 3);
    }
}
