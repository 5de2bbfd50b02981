//! `Op`, the only way to change a canvas, and `Canvas::apply`.

use std::collections::HashSet;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::binding::source::Binding;
use crate::canvas::layout;
use crate::canvas::model::{Block, Canvas, Layout, retitled};
use crate::canvas::style::Style;
use crate::ids::BlockId;
use crate::tool::Origin;
use crate::widget_kind::WidgetKind;

/// A change to the canvas. Agent, user and external agents all express their edits as `Op`s.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// Adds a block; without `layout` it is placed in the first free grid slot at its kind's default
    /// size. With one, it takes that spot and the blocks there are pushed down (see `layout.rs`).
    Add {
        id: BlockId,
        kind: WidgetKind,
        data: Arc<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        layout: Option<Layout>,
        /// Already sanitised; a duplicated widget keeps its original's style.
        #[serde(default, skip_serializing_if = "Style::is_empty")]
        style: Style,
    },
    /// Replaces a block's data (callers merge with [`crate::canvas::model::merge_data`] and validate first).
    Update {
        id: BlockId,
        data: Arc<Value>,
    },
    /// Moves a block's top-left corner; it stays inside the columns and no lower than the other blocks' bottom.
    Move {
        id: BlockId,
        x: u32,
        y: u32,
    },
    /// Resizes a block, keeping its top-left corner unless the new width would cross the right edge.
    Resize {
        id: BlockId,
        w: u32,
        h: u32,
    },
    /// Makes a block as tall as its content needs, when the app first shows a block placed at its
    /// kind's default size (`ui::widget_frame`): taller, or shorter for a kind sized by its content
    /// (the blocks resting on its bottom edge then come up with it). Like a refresh, neither a step
    /// to undo nor a change to tell the agent.
    Fit {
        id: BlockId,
        h: u32,
    },
    /// The person names a widget by hand: its kind's name parameter ([`WidgetKind::title_key`]) becomes
    /// `title`, trimmed to one line. A bound widget keeps that name from then on: a refresh whose map
    /// writes it does not undo the rename ([`Binding::renamed`]). Blank, unchanged or for a kind
    /// without a name: nothing changes.
    Rename {
        id: BlockId,
        title: String,
    },
    /// Replaces a block's style (already sanitised).
    Style {
        id: BlockId,
        style: Style,
    },
    /// Binds a block to a source, or unbinds it (`None`); the data stays as it is.
    Bind {
        id: BlockId,
        binding: Option<Arc<Binding>>,
    },
    /// A bound block's refresh: new data (already validated) and when it was fetched, or the
    /// error that left the old data stale. Never changes the block's kind or layout.
    Refreshed {
        id: BlockId,
        outcome: RefreshOutcome,
    },
    Remove {
        id: BlockId,
    },
    BringToFront {
        id: BlockId,
    },
    Clear,
    /// Replaces everything: import, opening a saved dashboard or a share link.
    Replace {
        blocks: Vec<Block>,
    },
}

impl Op {
    /// The block this op targets, if it targets one.
    pub fn target(&self) -> Option<&BlockId> {
        match self {
            Op::Add { id, .. }
            | Op::Update { id, .. }
            | Op::Move { id, .. }
            | Op::Resize { id, .. }
            | Op::Fit { id, .. }
            | Op::Rename { id, .. }
            | Op::Style { id, .. }
            | Op::Bind { id, .. }
            | Op::Refreshed { id, .. }
            | Op::Remove { id }
            | Op::BringToFront { id } => Some(id),
            Op::Clear | Op::Replace { .. } => None,
        }
    }
}

/// What a refresh brought.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum RefreshOutcome {
    Fetched { data: Arc<Value>, fetched_ms: f64 },
    Failed { error: String },
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CanvasError {
    #[error("no widget with id \"{id}\"; existing ids: {}", list_ids(existing))]
    UnknownBlock { id: BlockId, existing: Vec<BlockId> },
    #[error("a widget with id \"{0}\" already exists")]
    DuplicateBlock(BlockId),
    /// The canvas shows a shared dashboard opened read-only; the person must make a copy to change it.
    #[error("this dashboard is open read-only from a shared link; make a copy to change it")]
    ReadOnly,
    /// Another tab of this browser edits the session; this one follows it read-only.
    #[error("this dashboard is being edited in another tab of this browser; change it there, or close that tab to edit here")]
    EditedInAnotherTab,
}

fn list_ids(ids: &[BlockId]) -> String {
    if ids.is_empty() {
        "none (the canvas is empty)".to_owned()
    } else {
        ids.iter()
            .map(BlockId::as_str)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// What an applied op changed: the post-state of every block it touched (including blocks pushed
/// out of the way), and the ids it removed. Empty when the op changed nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Applied {
    pub changed: Vec<Block>,
    pub removed: Vec<BlockId>,
}

impl Applied {
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.removed.is_empty()
    }
}

impl Canvas {
    /// Applies `op` on behalf of `origin` at time `now_ms`. On error the canvas is unchanged; an op
    /// that would change nothing (a move to where the block already is) returns an empty `Applied`.
    pub fn apply(&mut self, op: Op, origin: &Origin, now_ms: f64) -> Result<Applied, CanvasError> {
        match op {
            Op::Add {
                id,
                kind,
                data,
                layout: requested,
                style,
            } => {
                if self.get(&id).is_some() {
                    return Err(CanvasError::DuplicateBlock(id));
                }
                let layout = match requested {
                    Some(layout) => layout::clamp(layout, self.bottom()),
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
                    layout: Layout {
                        z: self.top_z() + 1,
                        ..layout
                    },
                    style,
                    provenance: origin.clone(),
                    created_ms: now_ms,
                    updated_ms: now_ms,
                    binding: None,
                };
                let before = self.layouts();
                self.blocks.push(block);
                let index = self.blocks.len() - 1;
                layout::push_down_from(&mut self.blocks, index);
                Ok(self.changes_since(index, &before))
            }
            Op::Update { id, data } => self.edit(&id, now_ms, |block, _| block.data = data),
            Op::Move { id, x, y } => self.edit(&id, now_ms, |block, max_y| {
                block.layout = layout::clamp(
                    Layout {
                        x,
                        y,
                        ..block.layout
                    },
                    max_y,
                );
            }),
            Op::Resize { id, w, h } => self.edit(&id, now_ms, |block, max_y| {
                block.layout = layout::clamp(
                    Layout {
                        w,
                        h,
                        ..block.layout
                    },
                    max_y,
                );
            }),
            Op::Fit { id, h } => {
                let index = self.index_of(&id)?;
                let old_bottom = self.blocks[index].layout.bottom();
                let shrinks = self.blocks[index].kind.sized_by_content();
                let before = self.layouts();
                let mut applied = self.edit(&id, now_ms, |block, max_y| {
                    if h > block.layout.h || shrinks {
                        block.layout = layout::clamp(Layout { h, ..block.layout }, max_y);
                    }
                })?;
                if self.blocks[index].layout.bottom() < old_bottom {
                    layout::lift_resting_on(&mut self.blocks, index, old_bottom);
                    applied = self.changes_since(index, &before);
                }
                Ok(applied)
            }
            Op::Rename { id, title } => self.edit(&id, now_ms, |block, _| {
                if let Some(renamed) = retitled(block.kind, &block.data, &title) {
                    block.data = Arc::new(renamed);
                    if let Some(binding) = block.binding.as_deref().filter(|binding| !binding.renamed) {
                        block.binding = Some(Arc::new(Binding { renamed: true, ..binding.clone() }));
                    }
                }
            }),
            Op::Style { id, style } => self.edit(&id, now_ms, |block, _| block.style = style),
            Op::Bind { id, binding } => self.edit(&id, now_ms, |block, _| block.binding = binding),
            Op::Refreshed { id, outcome } => {
                let index = self.index_of(&id)?;
                let Some(binding) = self.blocks[index].binding.clone() else {
                    return Ok(Applied::default());
                };
                self.edit(&id, now_ms, |block, _| {
                    let mut binding = Binding::clone(&binding);
                    match outcome {
                        RefreshOutcome::Fetched { data, fetched_ms } => {
                            block.data = data;
                            binding.fetched_ms = Some(fetched_ms);
                            binding.error = None;
                        }
                        RefreshOutcome::Failed { error } => binding.error = Some(error),
                    }
                    block.binding = Some(Arc::new(binding));
                })
            }
            Op::BringToFront { id } => {
                let index = self.index_of(&id)?;
                let top = self.top_z();
                let already_alone_on_top = self.blocks[index].layout.z == top
                    && self
                        .blocks
                        .iter()
                        .filter(|block| block.layout.z == top)
                        .count()
                        == 1;
                if already_alone_on_top {
                    return Ok(Applied::default());
                }
                self.edit(&id, now_ms, |block, _| block.layout.z = top + 1)
            }
            Op::Remove { id } => {
                let index = self.index_of(&id)?;
                self.blocks.remove(index);
                Ok(Applied {
                    changed: vec![],
                    removed: vec![id],
                })
            }
            Op::Clear => {
                let removed = self.ids();
                self.blocks.clear();
                Ok(Applied {
                    changed: vec![],
                    removed,
                })
            }
            Op::Replace { blocks } => {
                let mut seen = HashSet::new();
                if let Some(duplicate) = blocks.iter().find(|block| !seen.insert(&block.id)) {
                    return Err(CanvasError::DuplicateBlock(duplicate.id.clone()));
                }
                let removed = self.ids();
                self.blocks = blocks
                    .into_iter()
                    .map(|block| Block {
                        layout: layout::clamp(block.layout, u32::MAX),
                        ..block
                    })
                    .collect();
                Ok(Applied {
                    changed: self.blocks.clone(),
                    removed,
                })
            }
        }
    }

    fn index_of(&self, id: &BlockId) -> Result<usize, CanvasError> {
        self.blocks
            .iter()
            .position(|block| &block.id == id)
            .ok_or_else(|| CanvasError::UnknownBlock {
                id: id.clone(),
                existing: self.ids(),
            })
    }

    /// Changes one block; `change` also receives the lowest row it may move to (the bottom of the
    /// other blocks). Blocks it lands on are pushed down. A change that changes nothing is dropped.
    fn edit(
        &mut self,
        id: &BlockId,
        now_ms: f64,
        change: impl FnOnce(&mut Block, u32),
    ) -> Result<Applied, CanvasError> {
        let index = self.index_of(id)?;
        let max_y = self
            .blocks
            .iter()
            .enumerate()
            .filter(|&(other, _)| other != index)
            .map(|(_, block)| block.layout.bottom())
            .max()
            .unwrap_or(0);
        let mut edited = self.blocks[index].clone();
        change(&mut edited, max_y);
        if edited.same_as(&self.blocks[index]) {
            return Ok(Applied::default());
        }
        edited.updated_ms = now_ms;
        let layout_changed = edited.layout != self.blocks[index].layout;
        let before = self.layouts();
        self.blocks[index] = edited;
        if layout_changed {
            layout::push_down_from(&mut self.blocks, index);
        }
        Ok(self.changes_since(index, &before))
    }

    fn layouts(&self) -> Vec<Layout> {
        self.blocks.iter().map(|block| block.layout).collect()
    }

    /// The block at `target` and every block whose layout differs from `before` (pushed out of the way).
    fn changes_since(&self, target: usize, before: &[Layout]) -> Applied {
        let changed = self
            .blocks
            .iter()
            .enumerate()
            .filter(|&(index, block)| index == target || before.get(index) != Some(&block.layout))
            .map(|(_, block)| block.clone())
            .collect();
        Applied {
            changed,
            removed: vec![],
        }
    }

    fn top_z(&self) -> u32 {
        self.blocks
            .iter()
            .map(|block| block.layout.z)
            .max()
            .unwrap_or(0)
    }
}

/// The canvas as other layers reach it: the autoui server, WebMCP tools and UI handlers all go
/// through `apply`, so every change is validated once, recorded for undo and persisted.
pub trait CanvasPort {
    fn apply(&self, op: Op, origin: Origin) -> Result<Applied, CanvasError>;
    fn get(&self, id: &BlockId) -> Option<Block>;
    fn blocks(&self) -> Vec<Block>;
}
