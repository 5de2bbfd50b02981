//! `Op`, the only way to change a canvas, and `Canvas::apply`.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::canvas::layout;
use crate::canvas::model::{Block, Canvas, GRID_COLUMNS, Layout};
use crate::canvas::style::Style;
use crate::ids::BlockId;
use crate::tool::Origin;
use crate::widget_kind::WidgetKind;

/// A change to the canvas. Agent, user and external agents all express their edits as `Op`s.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// Adds a block; without `layout` it is placed in the first free grid slot at its kind's default size.
    Add {
        id: BlockId,
        kind: WidgetKind,
        data: Arc<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        layout: Option<Layout>,
    },
    /// Replaces a block's data (callers merge and validate first).
    Update { id: BlockId, data: Arc<Value> },
    Move { id: BlockId, x: u32, y: u32 },
    Resize { id: BlockId, w: u32, h: u32 },
    /// Replaces a block's style (already sanitised).
    Style { id: BlockId, style: Style },
    Remove { id: BlockId },
    BringToFront { id: BlockId },
    Clear,
    /// Replaces everything: import, opening a saved dashboard or a share link.
    Replace { blocks: Vec<Block> },
}

impl Op {
    /// The block this op targets, if it targets one.
    pub fn target(&self) -> Option<&BlockId> {
        match self {
            Op::Add { id, .. }
            | Op::Update { id, .. }
            | Op::Move { id, .. }
            | Op::Resize { id, .. }
            | Op::Style { id, .. }
            | Op::Remove { id }
            | Op::BringToFront { id } => Some(id),
            Op::Clear | Op::Replace { .. } => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CanvasError {
    #[error("no widget with id \"{id}\"; existing ids: {}", list_ids(existing))]
    UnknownBlock { id: BlockId, existing: Vec<BlockId> },
    #[error("a widget with id \"{0}\" already exists")]
    DuplicateBlock(BlockId),
}

fn list_ids(ids: &[BlockId]) -> String {
    if ids.is_empty() {
        "none (the canvas is empty)".to_owned()
    } else {
        ids.iter().map(BlockId::as_str).collect::<Vec<_>>().join(", ")
    }
}

/// What an applied op changed: the post-state of every block it touched, and the ids it removed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Applied {
    pub changed: Vec<Block>,
    pub removed: Vec<BlockId>,
}

impl Canvas {
    /// Applies `op` on behalf of `origin` at time `now_ms`. On error the canvas is unchanged.
    pub fn apply(&mut self, op: Op, origin: &Origin, now_ms: f64) -> Result<Applied, CanvasError> {
        match op {
            Op::Add { id, kind, data, layout: requested } => {
                if self.get(&id).is_some() {
                    return Err(CanvasError::DuplicateBlock(id));
                }
                let layout = match requested {
                    Some(layout) => clamp(layout),
                    None => {
                        let (w, h) = kind.default_size();
                        let (x, y) = layout::first_free_slot(self, w, h);
                        Layout { x, y, w, h, z: 0 }
                    }
                };
                let block = Block {
                    id,
                    kind,
                    data,
                    layout: Layout { z: self.top_z() + 1, ..layout },
                    style: Style::default(),
                    provenance: origin.clone(),
                    created_ms: now_ms,
                    updated_ms: now_ms,
                };
                self.blocks.push(block.clone());
                Ok(Applied { changed: vec![block], removed: vec![] })
            }
            Op::Update { id, data } => self.edit(&id, now_ms, |block| block.data = data),
            Op::Move { id, x, y } => self.edit(&id, now_ms, |block| {
                block.layout = clamp(Layout { x, y, ..block.layout });
            }),
            Op::Resize { id, w, h } => self.edit(&id, now_ms, |block| {
                block.layout = clamp(Layout { w, h, ..block.layout });
            }),
            Op::Style { id, style } => self.edit(&id, now_ms, |block| block.style = style),
            Op::BringToFront { id } => {
                let z = self.top_z() + 1;
                self.edit(&id, now_ms, |block| block.layout.z = z)
            }
            Op::Remove { id } => {
                let index = self.index_of(&id)?;
                self.blocks.remove(index);
                Ok(Applied { changed: vec![], removed: vec![id] })
            }
            Op::Clear => {
                let removed = self.ids();
                self.blocks.clear();
                Ok(Applied { changed: vec![], removed })
            }
            Op::Replace { blocks } => {
                let removed = self.ids();
                self.blocks = blocks;
                Ok(Applied { changed: self.blocks.clone(), removed })
            }
        }
    }

    fn index_of(&self, id: &BlockId) -> Result<usize, CanvasError> {
        self.blocks
            .iter()
            .position(|block| &block.id == id)
            .ok_or_else(|| CanvasError::UnknownBlock { id: id.clone(), existing: self.ids() })
    }

    fn edit(&mut self, id: &BlockId, now_ms: f64, change: impl FnOnce(&mut Block)) -> Result<Applied, CanvasError> {
        let index = self.index_of(id)?;
        let block = &mut self.blocks[index];
        change(block);
        block.updated_ms = now_ms;
        Ok(Applied { changed: vec![block.clone()], removed: vec![] })
    }

    fn top_z(&self) -> u32 {
        self.blocks.iter().map(|block| block.layout.z).max().unwrap_or(0)
    }
}

/// Keeps a layout on the grid: 1..=12 columns wide, inside the columns, 1..=40 rows high.
fn clamp(layout: Layout) -> Layout {
    let w = layout.w.clamp(1, GRID_COLUMNS);
    let h = layout.h.clamp(1, 40);
    let x = layout.x.min(GRID_COLUMNS - w);
    Layout { x, w, h, ..layout }
}

/// The canvas as other layers reach it: the autoui server, WebMCP tools and UI handlers all go
/// through `apply`, so every change is validated once, recorded for undo and persisted.
pub trait CanvasPort {
    fn apply(&self, op: Op, origin: Origin) -> Result<Applied, CanvasError>;
    fn get(&self, id: &BlockId) -> Option<Block>;
    fn blocks(&self) -> Vec<Block>;
}
