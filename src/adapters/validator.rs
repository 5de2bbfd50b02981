//! The page's validators: `BrowserPatterns` (the `pattern` keyword run by the browser's `RegExp`) for
//! the core's compact validator, and `LazyValidator`, the full validator from its own wasm module
//! (`crates/validator`), fetched only when a schema outside the compact one's subset is validated, so
//! `jsonschema` is not downloaded on a visit. A validation asked for before the module has loaded
//! waits for it; a module that cannot load turns every such validation into an error.
//!
//! The module runs on the main thread: once loaded, a validation is one synchronous call taking JSON
//! text, with no message round trip to a worker.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use autoui_core::recipes::validate::subset::Patterns;
use autoui_core::recipes::validate::{SchemaValidator, ValidatorError, Verdict};
use futures::future::{FutureExt, LocalBoxFuture, Shared};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The validator bundle Trunk writes next to the app (`<name>.js` and `<name>_bg.wasm`).
pub const VALIDATOR_MODULE: &str = "autoui-validator";

// Snippets are served from `snippets/<crate>-<hash>/`, two levels below the bundles. Patterns are
// compiled once each (`null` for one that does not compile: `undefined` goes back to Rust as `None`).
#[wasm_bindgen(inline_js = r#"
const patterns = new Map();
export function pattern_matches(pattern, text) {
  if (!patterns.has(pattern)) {
    let regex = null;
    try { regex = new RegExp(pattern, "u"); } catch {}
    patterns.set(pattern, regex);
  }
  const regex = patterns.get(pattern);
  return regex === null ? undefined : regex.test(text);
}
export function load_validator(name) {
  const base = new URL("../../", import.meta.url);
  return import(new URL(name + ".js", base).href).then(async (module) => {
    await module.default({ module_or_path: new URL(name + "_bg.wasm", base) });
    return module;
  });
}
"#)]
extern "C" {
    fn pattern_matches(pattern: &str, text: &str) -> Option<bool>;

    /// The validator module's exports, once its wasm is instantiated.
    type ValidatorModule;

    #[wasm_bindgen(catch)]
    fn load_validator(name: &str) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch, js_name = validate)]
    fn validate_text(this: &ValidatorModule, schema: &str, instance: &str) -> Result<String, JsValue>;
}

/// ECMA-262 patterns, as JSON Schema defines them, run by the browser.
#[derive(Clone, Copy, Default)]
pub struct BrowserPatterns;

impl Patterns for BrowserPatterns {
    fn is_match(&self, pattern: &str, text: &str) -> Option<bool> {
        pattern_matches(pattern, text)
    }
}

type Loading = Shared<LocalBoxFuture<'static, Result<(), ValidatorError>>>;

/// The page's validator; clones share one module.
#[derive(Clone)]
pub struct LazyValidator {
    inner: Rc<Inner>,
}

struct Inner {
    module: &'static str,
    state: RefCell<State>,
}

enum State {
    Idle,
    Loading(Loading),
    Ready(ValidatorModule),
    Failed(ValidatorError),
}

impl LazyValidator {
    /// A validator that will load the bundle named `module`; nothing is fetched yet.
    pub fn new(module: &'static str) -> LazyValidator {
        LazyValidator { inner: Rc::new(Inner { module, state: RefCell::new(State::Idle) }) }
    }

    /// Resolves when the module is ready, starting the load if nothing has yet.
    fn load(&self) -> LocalBoxFuture<'static, Result<(), ValidatorError>> {
        let mut state = self.inner.state.borrow_mut();
        match &*state {
            State::Ready(_) => futures::future::ready(Ok(())).boxed_local(),
            State::Failed(error) => futures::future::ready(Err(error.clone())).boxed_local(),
            State::Loading(loading) => loading.clone().boxed_local(),
            State::Idle => {
                let inner = self.inner.clone();
                let loading = async move {
                    let outcome = fetch(inner.module).await;
                    let (state, result) = match outcome {
                        Ok(module) => (State::Ready(module), Ok(())),
                        Err(error) => (State::Failed(error.clone()), Err(error)),
                    };
                    *inner.state.borrow_mut() = state;
                    result
                }
                .boxed_local()
                .shared();
                *state = State::Loading(loading.clone());
                loading.boxed_local()
            }
        }
    }
}

impl SchemaValidator for LazyValidator {
    fn ready(&self) -> LocalBoxFuture<'_, Result<(), ValidatorError>> {
        self.load()
    }

    fn validate(&self, schema: &Arc<Value>, instance: &Value) -> Verdict {
        let state = self.inner.state.borrow();
        let module = match &*state {
            State::Ready(module) => module,
            State::Failed(error) => return Err(error.clone()),
            State::Idle | State::Loading(_) => {
                return Err(ValidatorError::Unavailable("it is still loading; try again in a moment".to_owned()));
            }
        };
        let answer = module.validate_text(&schema.to_string(), &instance.to_string()).map_err(|error| {
            ValidatorError::Unavailable(format!("it failed ({}); reload the page", describe(&error)))
        })?;
        // The answer is itself a verdict: details, or the module's own error.
        serde_json::from_str::<Verdict>(&answer).map_err(|error| {
            ValidatorError::Unavailable(format!("its answer could not be read ({error}); reload the page"))
        })?
    }
}

async fn fetch(module: &str) -> Result<ValidatorModule, ValidatorError> {
    let failed = |error: JsValue| {
        ValidatorError::Unavailable(format!(
            "its module did not load ({}); widgets cannot be shown or changed until the page is reloaded",
            describe(&error)
        ))
    };
    let promise = load_validator(module).map_err(failed)?;
    let loaded: ValidatorModule = JsFuture::from(promise).await.map_err(failed)?.unchecked_into();
    // The first validation pays a one-time set-up of the validator (about 60 ms): pay it now.
    let _ = loaded.validate_text("{}", "null");
    Ok(loaded)
}

/// A thrown JS value as text: an `Error`'s name and message, or the value itself.
fn describe(error: &JsValue) -> String {
    match error.dyn_ref::<js_sys::Error>() {
        Some(error) => format!("{}: {}", error.name(), error.message()),
        None => error.as_string().unwrap_or_else(|| format!("{error:?}")),
    }
}
