//! A harness over the real `autoui` server: a recording canvas, a result store, and the tools called
//! like the dispatcher calls them.

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::autoui::AutoUi;
use autoui_core::cancel::CancelToken;
use autoui_core::canvas::model::Block;
use autoui_core::canvas::op::CanvasPort;
use autoui_core::ids::{BlockId, CallId};
use autoui_core::tool::{CallContext, LocalServer, Origin, ResultStore, ToolResult};
use futures::executor::block_on;
use serde_json::Value;

use super::Counter;
use super::canvas::RecordingCanvas;

/// Stored results by call id, in insertion order.
#[derive(Default)]
pub struct Results(RefCell<Vec<(String, String)>>);

impl Results {
    pub fn store(&self, id: &str, text: &str) {
        self.0.borrow_mut().push((id.to_owned(), text.to_owned()));
    }
}

impl ResultStore for Results {
    fn full_result(&self, call_id: &str) -> Option<String> {
        self.0
            .borrow()
            .iter()
            .find(|(id, _)| id == call_id)
            .map(|(_, text)| text.clone())
    }

    fn known_ids(&self) -> Vec<String> {
        self.0.borrow().iter().map(|(id, _)| id.clone()).collect()
    }
}

pub fn agent(call: &str) -> Origin {
    Origin::Agent {
        call_id: CallId::new(call),
        source: None,
    }
}

pub struct Harness {
    pub ui: AutoUi,
    pub canvas: Rc<RecordingCanvas>,
    pub results: Rc<Results>,
}

impl Harness {
    pub fn new() -> Harness {
        Harness::with_random(Counter::new(1))
    }

    pub fn with_random(random: Counter) -> Harness {
        let canvas = Rc::new(RecordingCanvas::default());
        let results = Rc::new(Results::default());
        let ui = AutoUi::new(canvas.clone(), results.clone(), Rc::new(random));
        Harness {
            ui,
            canvas,
            results,
        }
    }

    /// Calls `tool` as the in-app agent's tool call `toolu_test`.
    pub fn call(&self, tool: &str, args: Value) -> ToolResult {
        let context = CallContext {
            origin: agent("toolu_test"),
            cancel: CancelToken::new(),
        };
        block_on(self.ui.call(tool, args, context))
    }

    /// The JSON of a successful call; fails the test with the error otherwise.
    pub fn ok(&self, tool: &str, args: Value) -> Value {
        let result = self.call(tool, args);
        let text = result.text_content();
        assert!(!result.is_error, "{tool} failed: {text}");
        result.structured.unwrap_or(Value::String(text))
    }

    /// The JSON of a failed call; fails the test if the call succeeded.
    pub fn err(&self, tool: &str, args: Value) -> Value {
        let result = self.call(tool, args);
        assert!(
            result.is_error,
            "{tool} should have failed: {}",
            result.text_content()
        );
        let text = result.text_content();
        result.structured.unwrap_or(Value::String(text))
    }

    /// Shows a widget and returns its id.
    pub fn show(&self, name: &str, params: Value) -> String {
        let shown = self.ok(
            "widget_display",
            serde_json::json!({ "name": name, "params": params }),
        );
        shown["id"].as_str().unwrap_or_default().to_owned()
    }

    pub fn block(&self, id: &str) -> Block {
        self.canvas
            .get(&BlockId::new(id))
            .unwrap_or_else(|| panic!("no block {id}"))
    }
}
