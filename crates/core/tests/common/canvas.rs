//! A real `Canvas` behind the `CanvasPort`, recording every op with its origin.

use std::cell::RefCell;

use autoui_core::canvas::model::{Block, Canvas};
use autoui_core::canvas::op::{Applied, CanvasError, CanvasPort, Op};
use autoui_core::ids::BlockId;
use autoui_core::tool::Origin;
use autoui_core::widget_kind::WidgetKind;
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

    /// (kind, data) of every block now on the canvas.
    pub fn widgets(&self) -> Vec<(WidgetKind, Value)> {
        self.canvas.borrow().blocks().iter().map(|block| (block.kind, (*block.data).clone())).collect()
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
