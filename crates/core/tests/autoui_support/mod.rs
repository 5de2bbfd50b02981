//! Doubles for the `autoui` server tests: a canvas port that records every op with its origin, a
//! result store, a counting random source, and a harness that calls the tools like the dispatcher.
// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use autoui_core::autoui::AutoUi;
use autoui_core::cancel::CancelToken;
use autoui_core::canvas::model::{Block, Canvas};
use autoui_core::canvas::op::{Applied, CanvasError, CanvasPort, Op};
use autoui_core::ids::{BlockId, CallId};
use autoui_core::ports::Random;
use autoui_core::tool::{CallContext, LocalServer, Origin, ResultStore, ToolResult};
use futures::executor::block_on;
use serde_json::Value;

/// A real `Canvas` behind the port, with a log of `(op, origin)` for every apply.
#[derive(Default)]
pub struct RecordingCanvas {
    canvas: RefCell<Canvas>,
    log: RefCell<Vec<(Op, Origin)>>,
}

impl RecordingCanvas {
    pub fn log(&self) -> Vec<(Op, Origin)> {
        self.log.borrow().clone()
    }

    pub fn len(&self) -> usize {
        self.canvas.borrow().len()
    }
}

impl CanvasPort for RecordingCanvas {
    fn apply(&self, op: Op, origin: Origin) -> Result<Applied, CanvasError> {
        self.log.borrow_mut().push((op.clone(), origin.clone()));
        self.canvas.borrow_mut().apply(op, &origin, 0.0)
    }

    fn get(&self, id: &BlockId) -> Option<Block> {
        self.canvas.borrow().get(id).cloned()
    }

    fn blocks(&self) -> Vec<Block> {
        self.canvas.borrow().blocks().to_vec()
    }
}

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

/// Yields `start`, `start`, ... `repeat` times, then counts up: a source that collides on demand.
pub struct Counter {
    next: Cell<u64>,
    repeat: Cell<u32>,
}

impl Counter {
    pub fn new(start: u64) -> Counter {
        Counter::repeating(start, 0)
    }

    pub fn repeating(start: u64, repeat: u32) -> Counter {
        Counter {
            next: Cell::new(start),
            repeat: Cell::new(repeat),
        }
    }
}

impl Random for Counter {
    fn next_u64(&self) -> u64 {
        let value = self.next.get();
        if self.repeat.get() > 0 {
            self.repeat.set(self.repeat.get() - 1);
        } else {
            self.next.set(value + 1);
        }
        value
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
