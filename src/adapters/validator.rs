//! `LazyValidator`: the schema validator from its own wasm module (`crates/validator`), fetched after
//! first paint so `jsonschema` stays out of the first load. A validation asked for before the module
//! has loaded waits for it; a module that cannot load turns every validation into an error.
//!
//! The module runs on the main thread: once loaded, a validation is one synchronous call taking JSON
//! text, with no message round trip to a worker between `widget_display` and the painted widget.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use autoui_core::recipes::validate::{SchemaValidator, ValidatorError, Verdict};
use futures::future::{FutureExt, LocalBoxFuture, Shared};
use leptos::prelude::{request_animation_frame, set_timeout};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The validator bundle Trunk writes next to the app (`<name>.js` and `<name>_bg.wasm`).
pub const VALIDATOR_MODULE: &str = "autoui-validator";

// Snippets are served from `snippets/<crate>-<hash>/`, two levels below the bundles.
#[wasm_bindgen(inline_js = r#"
export function load_validator(name) {
  const base = new URL("../../", import.meta.url);
  return import(new URL(name + ".js", base).href).then(async (module) => {
    await module.default({ module_or_path: new URL(name + "_bg.wasm", base) });
    return module;
  });
}
"#)]
extern "C" {
    /// The validator module's exports, once its wasm is instantiated.
    type ValidatorModule;

    #[wasm_bindgen(catch)]
    fn load_validator(name: &str) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(method, catch, js_name = validate)]
    fn validate_text(this: &ValidatorModule, schema: &str, instance: &str) -> Result<String, JsValue>;
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

    /// Starts loading once the page has painted: a timeout queued from an animation frame runs after
    /// that frame is painted. A validation asked for earlier starts the load itself. Once loaded, each
    /// of `schemas` is compiled in turn, one per idle moment, so the first `widget_display` of a kind
    /// does not pay for compiling its schema.
    pub fn load_after_first_paint(&self, schemas: Vec<Arc<Value>>) {
        let validator = self.clone();
        request_animation_frame(move || {
            set_timeout(
                move || {
                    leptos::task::spawn_local(async move {
                        if validator.load().await.is_err() {
                            return;
                        }
                        for schema in schemas {
                            idle().await;
                            // The verdict does not matter: validating compiles and keeps the schema.
                            let _ = validator.validate(&schema, &Value::Null);
                        }
                    })
                },
                Duration::ZERO,
            );
        });
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
    // The first validation pays a one-time set-up of the validator (about 60 ms): pay it now, while
    // the page is idle after first paint, rather than in the first `widget_display`.
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

/// Resolves at the browser's next idle moment (a short timeout where `requestIdleCallback` is missing).
async fn idle() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let scheduled = web_sys::window().is_some_and(|window| {
            window.request_idle_callback(&resolve).is_ok()
                || window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 16).is_ok()
        });
        if !scheduled {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
