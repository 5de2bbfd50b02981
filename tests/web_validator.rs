//! Browser tier: the lazy validator when its module cannot be fetched (every validation is then an
//! error saying why, never a pass), and the compact validator, which needs no module for a recipe.
#![cfg(target_arch = "wasm32")]

use std::sync::Arc;

use autoui::adapters::validator::{BrowserPatterns, LazyValidator};
use autoui_core::recipes::registry;
use autoui_core::recipes::validate::compact::CompactValidator;
use autoui_core::recipes::validate::subset::Patterns;
use autoui_core::recipes::validate::{Detail, SchemaValidator, ValidatorError};
use autoui_core::widget_kind::WidgetKind;
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

#[wasm_bindgen_test]
fn patterns_run_in_the_browser_and_one_that_does_not_compile_is_no_answer() {
    assert_eq!(BrowserPatterns.is_match("^[0-9]{2,3}px$", "120px"), Some(true));
    assert_eq!(BrowserPatterns.is_match("^[0-9]{2,3}px$", "1200px"), Some(false));
    assert_eq!(BrowserPatterns.is_match("([", "x"), None);
}

#[wasm_bindgen_test]
async fn a_recipe_is_validated_at_once_without_the_validator_module() {
    // The module does not exist: a recipe's schema must not need it.
    let validator = CompactValidator::new(BrowserPatterns, LazyValidator::new("no-such-validator"));
    let recipe = registry().get(WidgetKind::JsSandbox).expect("the js-sandbox recipe");
    assert_eq!(validator.ready_for(&recipe.schema).await, Ok(()));
    let details = validator.validate(&recipe.schema, &json!({"height": "tall"})).expect("an answer");
    assert_eq!(
        details,
        [
            Detail { path: "/height".into(), message: "\"tall\" does not match \"^[0-9]{2,4}px$\"".into() },
            Detail { path: "/code".into(), message: "required property \"code\" is missing".into() },
        ]
    );
}
