//! Undo/redo history of canvas states, bounded in steps and in the memory it keeps alive.
//!
//! Each step is a whole snapshot of the canvas. Blocks hold their data in an `Arc`, so a snapshot
//! costs a few hundred bytes per block and shares every table with the live canvas; the only
//! memory a step really keeps alive is the data its op replaced or removed. That is what
//! [`HistoryLimits::max_bytes`] bounds.

use std::collections::{HashSet, VecDeque};
use std::mem::size_of;
use std::sync::Arc;

use serde_json::Value;

use crate::canvas::model::{Block, Canvas};
use crate::canvas::op::Op;
use crate::ids::BlockId;
use crate::tool::Origin;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryLimits {
    /// Undo steps kept; the oldest go first.
    pub max_steps: usize,
    /// Estimated bytes the steps may keep alive beyond the live canvas. The most recent step is
    /// always kept, even alone over the limit, so the last action (a `clear` of a huge canvas
    /// included) can always be undone.
    pub max_bytes: usize,
}

impl Default for HistoryLimits {
    fn default() -> HistoryLimits {
        HistoryLimits {
            max_steps: 200,
            max_bytes: 32 * 1024 * 1024,
        }
    }
}

/// A snapshot and the bytes it keeps alive that its neighbour state does not.
#[derive(Clone, Debug)]
struct Step {
    canvas: Canvas,
    bytes: usize,
}

impl Step {
    fn new(canvas: Canvas, neighbour: &Canvas) -> Step {
        let bytes = retained_bytes(&canvas, neighbour);
        Step { canvas, bytes }
    }
}

#[derive(Clone, Debug, Default)]
pub struct History {
    limits: HistoryLimits,
    undo: VecDeque<Step>,
    redo: Vec<Step>,
}

impl History {
    pub fn new(limits: HistoryLimits) -> History {
        History {
            limits,
            undo: VecDeque::new(),
            redo: Vec::new(),
        }
    }

    /// Records that the canvas went from `before` to `current`; forgets anything that could be redone.
    pub fn record(&mut self, before: Canvas, current: &Canvas) {
        self.redo.clear();
        self.undo.push_back(Step::new(before, current));
        self.enforce_limits();
    }

    /// The state to go back to, if any; `current` becomes redoable.
    pub fn undo(&mut self, current: &Canvas) -> Option<Canvas> {
        let step = self.undo.pop_back()?;
        self.redo.push(Step::new(current.clone(), &step.canvas));
        self.enforce_limits();
        Some(step.canvas)
    }

    /// The state to go forward to, if any; `current` becomes undoable again.
    pub fn redo(&mut self, current: &Canvas) -> Option<Canvas> {
        let step = self.redo.pop()?;
        self.undo
            .push_back(Step::new(current.clone(), &step.canvas));
        self.enforce_limits();
        Some(step.canvas)
    }

    /// Fits block `id` to `h` rows in every state it can go back or forward to, so undoing
    /// something else does not undo a fit ([`Op::Fit`]).
    pub fn fit(&mut self, id: &BlockId, h: u32, now_ms: f64) {
        for step in self.undo.iter_mut().chain(self.redo.iter_mut()) {
            // A state without the block has nothing to fit.
            let _ = step.canvas.apply(Op::Fit { id: id.clone(), h }, &Origin::User, now_ms);
        }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }

    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// Estimated bytes all steps keep alive beyond the live canvas.
    pub fn retained_bytes(&self) -> usize {
        self.undo
            .iter()
            .chain(&self.redo)
            .map(|step| step.bytes)
            .sum()
    }

    /// Drops the oldest undo steps, then the farthest redo steps, until both limits hold; the byte
    /// limit never drops the last remaining step.
    fn enforce_limits(&mut self) {
        while self.undo.len() > self.limits.max_steps {
            self.undo.pop_front();
        }
        while self.retained_bytes() > self.limits.max_bytes && self.undo.len() + self.redo.len() > 1
        {
            if self.undo.len() > 1 || self.redo.is_empty() {
                self.undo.pop_front();
            } else {
                self.redo.remove(0);
            }
        }
    }
}

/// Bytes `canvas` keeps alive that `neighbour` does not: its block records, plus the data of
/// every block whose `Arc` the neighbour does not share.
fn retained_bytes(canvas: &Canvas, neighbour: &Canvas) -> usize {
    let shared: HashSet<*const Value> = neighbour
        .blocks()
        .iter()
        .map(|block| Arc::as_ptr(&block.data))
        .collect();
    canvas
        .blocks()
        .iter()
        .map(|block| {
            let data = if shared.contains(&Arc::as_ptr(&block.data)) {
                0
            } else {
                value_bytes(&block.data)
            };
            record_bytes(block) + data
        })
        .sum()
}

fn record_bytes(block: &Block) -> usize {
    size_of::<Block>()
        + block.id.as_str().len()
        + block
            .style
            .0
            .iter()
            .map(|(key, value)| key.len() + value.len() + 64)
            .sum::<usize>()
}

/// An estimate of the heap a JSON value occupies.
fn value_bytes(value: &Value) -> usize {
    size_of::<Value>()
        + match value {
            Value::Null | Value::Bool(_) | Value::Number(_) => 0,
            Value::String(text) => text.len(),
            Value::Array(items) => items.iter().map(value_bytes).sum(),
            Value::Object(map) => map
                .iter()
                .map(|(key, item)| size_of::<String>() + key.len() + value_bytes(item))
                .sum(),
        }
}
