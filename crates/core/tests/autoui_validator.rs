//! The validation port as the tools use it: a call that needs validation waits until the validator
//! is ready, and a validator that cannot run turns that call into an error saying why, never a pass.
//! The browser's validator loads after first paint, so the first `widget_display` can come first.

mod common;

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

use autoui_core::autoui::AutoUi;
use autoui_core::autoui::error::AutoUiError;
use autoui_core::cancel::CancelToken;
use autoui_core::canvas::op::CanvasPort;
use autoui_core::ids::BlockId;
use autoui_core::recipes::validate::in_process::JsonSchemaValidator;
use autoui_core::recipes::validate::{SchemaValidator, ValidatorError, Verdict};
use autoui_core::samples::Samples;
use autoui_core::tool::{CallContext, LocalServer, Origin, ToolResult};
use common::Counter;
use common::autoui_server::{Results, agent};
use common::canvas::RecordingCanvas;
use futures::channel::oneshot;
use futures::executor::{LocalPool, block_on};
use futures::future::{FutureExt, LocalBoxFuture, Shared};
use futures::task::LocalSpawnExt;
use serde_json::{Value, json};

/// Like the browser's validator: not ready until its module "arrives", and refusing until then.
struct Loading {
    arrived: Shared<oneshot::Receiver<Result<(), ValidatorError>>>,
    loaded: Cell<bool>,
    inner: JsonSchemaValidator,
}

impl Loading {
    fn new() -> (Rc<Loading>, oneshot::Sender<Result<(), ValidatorError>>) {
        let (arrive, arrived) = oneshot::channel();
        let validator = Loading {
            arrived: arrived.shared(),
            loaded: Cell::new(false),
            inner: JsonSchemaValidator::default(),
        };
        (Rc::new(validator), arrive)
    }
}

impl SchemaValidator for Loading {
    fn ready(&self) -> LocalBoxFuture<'_, Result<(), ValidatorError>> {
        Box::pin(async move {
            let outcome = self
                .arrived
                .clone()
                .await
                .unwrap_or_else(|_| Err(unavailable("the loader went away")));
            self.loaded.set(outcome.is_ok());
            outcome
        })
    }

    fn validate(&self, schema: &Arc<Value>, instance: &Value) -> Verdict {
        if !self.loaded.get() {
            return Err(unavailable("it is still loading; try again in a moment"));
        }
        self.inner.validate(schema, instance)
    }
}

fn unavailable(reason: &str) -> ValidatorError {
    ValidatorError::Unavailable(reason.to_owned())
}

struct Page {
    ui: Rc<AutoUi>,
    canvas: Rc<RecordingCanvas>,
}

fn page(validator: Rc<dyn SchemaValidator>) -> Page {
    let canvas = Rc::new(RecordingCanvas::default());
    let ui = AutoUi::with_validator(
        canvas.clone(),
        Rc::new(Results::default()),
        Rc::new(Counter::new(1)),
        validator,
    );
    Page {
        ui: Rc::new(ui),
        canvas,
    }
}

fn context() -> CallContext {
    CallContext {
        origin: agent("toolu_test"),
        cancel: CancelToken::new(),
    }
}

/// Starts `tool` on `pool`; the returned cell holds the result once the call has finished.
fn start(
    pool: &LocalPool,
    server: Rc<dyn LocalServer>,
    tool: &'static str,
    args: Value,
) -> Rc<Cell<Option<ToolResult>>> {
    let done = Rc::new(Cell::new(None));
    let finished = done.clone();
    pool.spawner()
        .spawn_local(async move { finished.set(Some(server.call(tool, args, context()).await)) })
        .expect("the pool accepts the call");
    done
}

/// Lets the validator fail to load while the call in `done` waits for it, and checks the call
/// answers with the reason as an error.
fn validator_fails_to_load(
    arrive: oneshot::Sender<Result<(), ValidatorError>>,
    pool: &mut LocalPool,
    done: &Cell<Option<ToolResult>>,
) {
    arrive
        .send(Err(unavailable("its module did not load (404)")))
        .expect("the call is waiting");
    pool.run_until_stalled();
    let result = done.take().expect("the call finished");
    assert!(result.is_error);
    assert_eq!(
        result.structured,
        Some(
            json!({"error": "the schema validator is not available: its module did not load (404)"})
        )
    );
}

fn stat_card() -> Value {
    json!({"name": "stat-card", "params": {"label": "Revenue", "value": "142.3"}})
}

#[test]
fn a_widget_display_before_the_validator_has_loaded_waits_for_it_then_shows_the_widget() {
    let (validator, arrive) = Loading::new();
    let page = page(validator);
    let mut pool = LocalPool::new();

    let done = start(&pool, page.ui.clone(), "widget_display", stat_card());
    pool.run_until_stalled();
    let pending = done.take();
    assert!(
        pending.is_none(),
        "the call answered before the validator was there: {pending:?}"
    );
    assert_eq!(page.canvas.len(), 0);

    arrive.send(Ok(())).expect("the call is still waiting");
    pool.run_until_stalled();
    let result = done
        .take()
        .expect("the call finished once the validator was ready");
    assert!(!result.is_error, "{}", result.text_content());
    assert_eq!(page.canvas.len(), 1);
}

#[test]
fn when_the_validator_cannot_load_widget_display_says_why_and_shows_nothing() {
    let (validator, arrive) = Loading::new();
    let page = page(validator);
    let mut pool = LocalPool::new();

    let done = start(&pool, page.ui.clone(), "widget_display", stat_card());
    validator_fails_to_load(arrive, &mut pool, &done);
    assert_eq!(page.canvas.len(), 0);
}

#[test]
fn canvas_actions_that_validate_nothing_do_not_wait_for_the_validator() {
    let (validator, _arrive) = Loading::new();
    let page = page(validator);
    let mut pool = LocalPool::new();

    let done = start(&pool, page.ui.clone(), "canvas", json!({"action": "list"}));
    pool.run_until_stalled();
    let result = done
        .take()
        .expect("list answers while the validator is still loading");
    assert_eq!(
        result.structured,
        Some(json!({"action": "list", "widgets": []}))
    );
}

/// A canvas with one stat-card on it, shown through a ready validator; and the card's id.
fn canvas_with_a_stat_card() -> (Rc<RecordingCanvas>, BlockId) {
    let shown = page(Rc::new(JsonSchemaValidator::default()));
    let result = block_on(shown.ui.call("widget_display", stat_card(), context()));
    let id = result
        .structured
        .as_ref()
        .and_then(|body| body["id"].as_str())
        .expect("the widget is shown");
    (shown.canvas.clone(), BlockId::new(id))
}

/// A server over `canvas` whose validator has not loaded yet.
fn loading_server(
    canvas: Rc<RecordingCanvas>,
) -> (Rc<AutoUi>, oneshot::Sender<Result<(), ValidatorError>>) {
    let (validator, arrive) = Loading::new();
    let ui = AutoUi::with_validator(
        canvas,
        Rc::new(Results::default()),
        Rc::new(Counter::new(9)),
        validator,
    );
    (Rc::new(ui), arrive)
}

#[test]
fn a_canvas_update_waits_for_the_validator_then_is_checked_by_it() {
    let (canvas, id) = canvas_with_a_stat_card();
    let (ui, arrive) = loading_server(canvas);
    let mut pool = LocalPool::new();

    let update = json!({"action": "update", "id": id, "params": {"data": {"trend": "sideways"}}});
    let done = start(&pool, ui, "canvas", update);
    pool.run_until_stalled();
    assert!(
        done.take().is_none(),
        "the update answered before the validator was there"
    );
    arrive.send(Ok(())).expect("the update is waiting");
    pool.run_until_stalled();
    let result = done.take().expect("the update finished");
    assert!(result.is_error);
    let details = &result.structured.expect("a JSON error")["details"];
    assert_eq!(details[0]["path"], "/trend", "{details}");
}

#[test]
fn update_block_while_the_validator_is_loading_refuses_instead_of_letting_data_through() {
    let (canvas, id) = canvas_with_a_stat_card();
    let (ui, _arrive) = loading_server(canvas.clone());

    let refused = ui.update_block(&id, json!({"value": "7"}), Origin::ExternalAgent);
    assert_eq!(
        refused,
        Err(AutoUiError::Validator(unavailable(
            "it is still loading; try again in a moment"
        )))
    );
    let kept = canvas.get(&id).expect("the widget is still there");
    assert_eq!(kept.data["value"], "142.3");
}

#[test]
fn samples_tools_wait_for_the_validator_and_report_when_it_cannot_load() {
    let (validator, arrive) = Loading::new();
    let samples: Rc<dyn LocalServer> = Rc::new(Samples::new(validator));
    let mut pool = LocalPool::new();

    let done = start(&pool, samples.clone(), "list_recipes", json!({}));
    pool.run_until_stalled();
    assert!(
        done.take().is_none(),
        "list_recipes checks its arguments, so it waits"
    );
    validator_fails_to_load(arrive, &mut pool, &done);
}
