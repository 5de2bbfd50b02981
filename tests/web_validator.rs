//! Browser tier: the lazy validator when its module cannot be fetched. Every validation is then an
//! error saying why, never a pass. (Loading the real module is covered end to end.)
#![cfg(target_arch = "wasm32")]

use std::sync::Arc;

use autoui::adapters::validator::LazyValidator;
use autoui_core::recipes::validate::{SchemaValidator, ValidatorError};
use serde_json::json;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn a_validator_whose_module_cannot_load_makes_every_validation_an_error_saying_so() {
    let validator = LazyValidator::new("no-such-validator");
    let schema = Arc::new(json!({"type": "object", "required": ["label"]}));

    assert_eq!(
        validator.validate(&schema, &json!({})),
        Err(ValidatorError::Unavailable("it is still loading; try again in a moment".to_owned())),
        "nothing passes before the module is there"
    );
    let Err(ValidatorError::Unavailable(reason)) = validator.ready().await else {
        panic!("a module that does not exist was reported as loaded");
    };
    assert!(reason.starts_with("its module did not load ("), "{reason}");
    assert!(reason.ends_with("widgets cannot be shown or changed until the page is reloaded"), "{reason}");
    assert_eq!(validator.validate(&schema, &json!({})), Err(ValidatorError::Unavailable(reason.clone())));
    assert_eq!(validator.ready().await, Err(ValidatorError::Unavailable(reason)), "a failed load is not retried silently");
}
