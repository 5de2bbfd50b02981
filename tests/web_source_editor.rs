//! Browser tier: a bound widget's source editor (`ui::source_editor`) over the app's canvas and
//! autoui server, fetching from a stand-in tool. It shows the source, says where the arguments'
//! JSON and the map's jq are wrong as they are typed, applies an edit by running it once (a schema
//! error changes nothing and stays shown with its paths), and unbinds keeping the data.
#![cfg(target_arch = "wasm32")]

mod support;

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use autoui::adapters::clock::BrowserClock;
use autoui::state::autoui::provide_autoui_with_sources;
use autoui::state::canvas::{CanvasCtx, provide_canvas};
use autoui::ui::source_editor::SourceEditor;
use autoui_core::autoui::bind::Sources;
use autoui_core::binding::fetch::SourceFetcher;
use autoui_core::binding::source::{Binding, Source, Target};
use autoui_core::cancel::CancelToken;
use autoui_core::canvas::model::Canvas;
use autoui_core::canvas::op::Op;
use autoui_core::canvas::style::Style;
use autoui_core::ids::BlockId;
use autoui_core::recipes::validate::in_process::JsonSchemaValidator;
use autoui_core::tool::{Origin, ToolResult};
use autoui_core::widget_kind::WidgetKind;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;
use serde_json::{Value, json};
use support::settle;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlTextAreaElement};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// A `get-time` that answers `{"time": "T<n>"}` for its n-th call, recording the arguments.
#[derive(Default)]
struct Clock {
    calls: RefCell<Vec<Value>>,
}

impl SourceFetcher for Clock {
    fn fetch<'a>(&'a self, target: &'a Target, _: CancelToken) -> LocalBoxFuture<'a, Result<ToolResult, String>> {
        let Target::Call { arguments, .. } = target else { return Box::pin(async { Err("no resources here".to_owned()) }) };
        self.calls.borrow_mut().push(arguments.clone());
        let time = format!("T{}", self.calls.borrow().len());
        Box::pin(async move { Ok(ToolResult { structured: Some(json!({"time": time})), ..ToolResult::text("") }) })
    }
}

struct Editor {
    container: HtmlElement,
    canvas: CanvasCtx,
    id: BlockId,
    clock: Rc<Clock>,
    closed: Arc<AtomicU32>,
    _mounted: Box<dyn std::any::Any>,
}

/// A stat card bound to `get-time` with `{"tz": "UTC"}` and `{value: .time}`, and its editor open.
async fn open_editor() -> Editor {
    let document = web_sys::window().unwrap().document().unwrap();
    let container = document.create_element("div").unwrap().unchecked_into::<HtmlElement>();
    document.body().unwrap().append_child(&container).unwrap();
    let clock = Rc::new(Clock::default());
    let closed = Arc::new(AtomicU32::new(0));
    let id = BlockId::new("card");
    let provided = Rc::new(Cell::new(None));
    let (keep, fetcher, counter, block) = (provided.clone(), clock.clone(), closed.clone(), id.clone());
    let mounted = leptos::mount::mount_to(container.clone(), move || {
        let canvas = provide_canvas(Canvas::new());
        let sources = Sources { fetcher: fetcher.clone(), clock: Rc::new(BrowserClock) };
        provide_autoui_with_sources(canvas, Rc::new(JsonSchemaValidator::default()), sources);
        let data = Arc::new(json!({"label": "Server time", "value": "T0"}));
        canvas.apply(Op::Add { id: block.clone(), kind: WidgetKind::StatCard, data, layout: None, style: Style::default() }, Origin::User).unwrap();
        let source = Source::parse(&json!({"call": "basic_mcp_get-time", "arguments": {"tz": "UTC"}, "map": "{value: .time}", "refresh": "on_open"})).unwrap();
        let binding = Some(Arc::new(Binding::fresh(source, 0.0)));
        canvas.apply(Op::Bind { id: block.clone(), binding }, Origin::User).unwrap();
        keep.set(Some(canvas));
        let counter = counter.clone();
        view! { <SourceEditor id=block.clone() close=Callback::new(move |()| { counter.fetch_add(1, Ordering::SeqCst); }) /> }
    });
    settle().await;
    Editor { container, canvas: provided.get().unwrap(), id, clock, closed, _mounted: Box::new(mounted) }
}

impl Editor {
    fn element(&self, test_id: &str) -> HtmlElement {
        self.container
            .query_selector(&format!("[data-testid={test_id}]"))
            .unwrap()
            .unwrap_or_else(|| panic!("no {test_id}"))
            .unchecked_into()
    }

    fn text(&self, test_id: &str) -> String {
        self.element(test_id).text_content().unwrap_or_default().trim().to_owned()
    }

    async fn type_into(&self, test_id: &str, text: &str) {
        let area = self.element(test_id).unchecked_into::<HtmlTextAreaElement>();
        area.set_value(text);
        area.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
        settle().await;
    }

    fn apply_disabled(&self) -> bool {
        self.element("source-apply").has_attribute("disabled")
    }

    fn data(&self) -> Value {
        self.canvas.cell(&self.id).unwrap().data.get_untracked().as_ref().clone()
    }

    fn binding(&self) -> Option<Arc<Binding>> {
        self.canvas.cell(&self.id).unwrap().frame.with_untracked(|frame| frame.binding.clone())
    }

    /// Clicks Apply and waits for the run to end (the button's label comes back).
    async fn apply(&self) {
        self.element("source-apply").click();
        for _ in 0..100 {
            settle().await;
            if self.text("source-apply") == "Apply" {
                return;
            }
        }
        panic!("Apply did not finish: {}", self.container.text_content().unwrap_or_default());
    }
}

#[wasm_bindgen_test]
async fn the_editor_shows_the_source_in_a_labelled_modal_dialog() {
    let editor = open_editor().await;
    let dialog = editor.element("source-editor").unchecked_into::<web_sys::HtmlDialogElement>();
    assert!(dialog.open(), "the dialog is open, as a modal");
    assert_eq!(editor.text("source-target"), "basic_mcp_get-time");
    assert_eq!(editor.text("source-refresh"), "on_open");
    let arguments = editor.element("source-arguments").unchecked_into::<HtmlTextAreaElement>();
    assert_eq!(arguments.value(), "{\n  \"tz\": \"UTC\"\n}");
    assert_eq!(editor.element("source-map").unchecked_into::<HtmlTextAreaElement>().value(), "{value: .time}");
    // Each field has a label and names its error line.
    for field in ["source-arguments", "source-map"] {
        let element = editor.element(field);
        let label = editor.container.query_selector(&format!("label[for='{}']", element.id())).unwrap();
        assert!(label.is_some(), "{field} has a label");
        let described = element.get_attribute("aria-describedby").unwrap();
        assert!(editor.container.query_selector(&format!("[id='{described}']")).unwrap().is_some(), "{field} names its error line");
    }
    assert!(!editor.apply_disabled());
}

#[wasm_bindgen_test]
async fn json_and_jq_errors_show_where_as_they_are_typed_and_block_apply() {
    let editor = open_editor().await;
    editor.type_into("source-arguments", "{\n  \"tz\" \"CET\"\n}").await;
    assert_eq!(editor.text("source-arguments-error"), "line 2, column 8: expected `:`");
    assert_eq!(editor.element("source-arguments").get_attribute("aria-invalid").as_deref(), Some("true"));
    assert!(editor.apply_disabled(), "a JSON error blocks Apply");

    editor.type_into("source-arguments", "{\"tz\": \"CET\"}").await;
    assert_eq!(editor.text("source-arguments-error"), "");
    assert!(!editor.apply_disabled());

    editor.type_into("source-map", "{value: .time) | x").await;
    let error = editor.text("source-map-error");
    assert!(error.starts_with("the map is not a valid jq program") && error.contains("at character 14"), "{error}");
    assert_eq!(editor.element("source-map").get_attribute("aria-invalid").as_deref(), Some("true"));
    assert!(editor.apply_disabled(), "a jq error blocks Apply");
    assert!(editor.clock.calls.borrow().is_empty(), "nothing was called while typing");
}

#[wasm_bindgen_test]
async fn a_schema_error_on_apply_changes_nothing_and_stays_shown_with_its_path() {
    let editor = open_editor().await;
    editor.type_into("source-map", "{value: .time, variant: 7}").await;
    editor.apply().await;

    let error = editor.text("source-schema-errors");
    assert!(error.contains("/variant"), "the error names the path: {error}");
    assert!(editor.text("source-apply-error").contains("\"variant\": 7"), "the map's output is shown");
    assert_eq!(editor.data(), json!({"label": "Server time", "value": "T0"}), "the widget kept its data");
    assert_eq!(editor.binding().unwrap().source.map.as_deref(), Some("{value: .time}"), "and its source");
    assert_eq!(editor.closed.load(Ordering::SeqCst), 0, "the editor stays open");
}

#[wasm_bindgen_test]
async fn apply_runs_the_edited_source_once_and_the_widget_shows_its_output() {
    let editor = open_editor().await;
    editor.type_into("source-arguments", "{\"tz\": \"CET\"}").await;
    editor.type_into("source-map", "{value: .time, label: \"Time in CET\"}").await;
    editor.apply().await;

    assert_eq!(*editor.clock.calls.borrow(), vec![json!({"tz": "CET"})], "one call, with the new arguments");
    assert_eq!(editor.data(), json!({"label": "Time in CET", "value": "T1"}));
    let binding = editor.binding().unwrap();
    assert_eq!(binding.source.map.as_deref(), Some("{value: .time, label: \"Time in CET\"}"));
    assert_eq!(editor.closed.load(Ordering::SeqCst), 1, "the editor closes");
}

#[wasm_bindgen_test]
async fn unbind_keeps_the_data_as_a_snapshot() {
    let editor = open_editor().await;
    editor.element("source-unbind").click();
    settle().await;
    assert!(editor.binding().is_none(), "no source any more");
    assert_eq!(editor.data(), json!({"label": "Server time", "value": "T0"}), "the data stays");
    assert!(editor.clock.calls.borrow().is_empty());
    assert_eq!(editor.closed.load(Ordering::SeqCst), 1);
}
