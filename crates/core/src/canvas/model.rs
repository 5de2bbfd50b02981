//! `Canvas`, `Block` and `Layout`: the single source of truth for what is on screen.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::binding::source::Binding;
use crate::canvas::style::Style;
use crate::ids::BlockId;
use crate::tool::Origin;
use crate::widget_kind::WidgetKind;

/// Number of grid columns; widths are in these units.
pub const GRID_COLUMNS: u32 = 12;

/// Tallest a block may be, in grid rows.
pub const MAX_BLOCK_ROWS: u32 = 40;

/// Position and size in grid units, and stacking order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
    #[serde(default)]
    pub z: u32,
}

impl Layout {
    /// The first row below this block.
    pub fn bottom(&self) -> u32 {
        self.y.saturating_add(self.h)
    }
}

/// One widget on the canvas. `data` is validated JSON, shared (never deep-cloned) with the components.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub id: BlockId,
    #[serde(rename = "type")]
    pub kind: WidgetKind,
    pub data: Arc<Value>,
    pub layout: Layout,
    #[serde(default, skip_serializing_if = "Style::is_empty")]
    pub style: Style,
    pub provenance: Origin,
    pub created_ms: f64,
    pub updated_ms: f64,
    /// Where the data comes from when it refreshes by itself (see `binding/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binding: Option<Arc<Binding>>,
}

impl Block {
    /// Equality that compares `data` by identity, not content: cheap even for a 10,000-row table,
    /// and exact for the canvas because every data change installs a new `Arc`.
    pub fn same_as(&self, other: &Block) -> bool {
        self.id == other.id
            && self.kind == other.kind
            && Arc::ptr_eq(&self.data, &other.data)
            && self.layout == other.layout
            && self.style == other.style
            && self.provenance == other.provenance
            && self.created_ms == other.created_ms
            && self.updated_ms == other.updated_ms
            && self.binding == other.binding
    }
}

/// The blocks in creation order. Mutated only by `Canvas::apply` (see `op.rs`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Canvas {
    pub(crate) blocks: Vec<Block>,
}

impl Canvas {
    pub fn new() -> Canvas {
        Canvas::default()
    }

    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    pub fn get(&self, id: &BlockId) -> Option<&Block> {
        self.blocks.iter().find(|block| &block.id == id)
    }

    pub fn ids(&self) -> Vec<BlockId> {
        self.blocks.iter().map(|block| block.id.clone()).collect()
    }

    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// The blocks' ids in reading order: row by row, then column by column, in creation order where
    /// two start at the same place. The order the page reads them in (app.css's `reading-flow`).
    pub fn reading_order(&self) -> Vec<BlockId> {
        let mut blocks: Vec<&Block> = self.blocks.iter().collect();
        crate::sort::sort_by_key(&mut blocks, |block| (block.layout.y, block.layout.x));
        blocks.into_iter().map(|block| block.id.clone()).collect()
    }

    /// The block that takes `gone`'s place once a change removed it: in `before`, the reading order
    /// before the change, the next block still on this canvas, else the nearest one before it (`None`
    /// when none is left, or `gone` was not in `before`).
    pub fn taking_place_of(&self, before: &[BlockId], gone: &BlockId) -> Option<BlockId> {
        let at = before.iter().position(|shown| shown == gone)?;
        let remains = |id: &&BlockId| self.get(id).is_some();
        before[at + 1..].iter().find(remains).or_else(|| before[..at].iter().rev().find(remains)).cloned()
    }

    /// The first row below every block (0 for an empty canvas).
    pub fn bottom(&self) -> u32 {
        self.blocks
            .iter()
            .map(|block| block.layout.bottom())
            .max()
            .unwrap_or(0)
    }
}

/// `data` with its widget renamed `title` (trimmed, as one line) under its kind's
/// [`WidgetKind::title_key`]; `None` when the kind has no name, the title is blank or unchanged.
pub fn retitled(kind: WidgetKind, data: &Value, title: &str) -> Option<Value> {
    let key = kind.title_key()?;
    let title = title.split_whitespace().collect::<Vec<_>>().join(" ");
    if title.is_empty() || data.get(key).and_then(Value::as_str) == Some(title.as_str()) {
        return None;
    }
    Some(merge_data(data, &serde_json::json!({ key: title })))
}

/// The data an agent `update` produces: `patch`'s top-level keys replace those of `base`, other keys
/// are kept. A patch that is not an object (or a base that is not one) replaces the data whole.
/// The result still has to be validated against the widget's schema before it becomes an `Op::Update`.
pub fn merge_data(base: &Value, patch: &Value) -> Value {
    match (base, patch) {
        (Value::Object(base), Value::Object(patch)) => {
            let mut merged = base.clone();
            for (key, value) in patch {
                merged.insert(key.clone(), value.clone());
            }
            Value::Object(merged)
        }
        _ => patch.clone(),
    }
}
