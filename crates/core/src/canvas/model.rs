//! `Canvas`, `Block` and `Layout`: the single source of truth for what is on screen.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::canvas::style::Style;
use crate::ids::BlockId;
use crate::tool::Origin;
use crate::widget_kind::WidgetKind;

/// Number of grid columns; widths are in these units.
pub const GRID_COLUMNS: u32 = 12;

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
}
