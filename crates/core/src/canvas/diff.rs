//! Block-by-block differences between two canvas states, for undo/redo and the agent's change log.

use std::collections::HashMap;

use crate::canvas::model::{Block, Canvas};
use crate::canvas::op::Applied;
use crate::ids::BlockId;

/// How one block differs between two states.
#[derive(Clone, Copy, Debug)]
pub enum BlockDiff<'a> {
    Added(&'a Block),
    Removed(&'a Block),
    Changed { before: &'a Block, after: &'a Block },
}

/// Every block that differs, in `after`'s order, then the removed ones in `before`'s order. Data is
/// compared by identity ([`Block::same_as`]), so this stays cheap on large tables.
pub fn diff<'a>(before: &'a Canvas, after: &'a Canvas) -> Vec<BlockDiff<'a>> {
    let old: HashMap<&BlockId, &Block> = before
        .blocks()
        .iter()
        .map(|block| (&block.id, block))
        .collect();
    let mut diffs: Vec<BlockDiff<'a>> = after
        .blocks()
        .iter()
        .filter_map(|block| match old.get(&block.id) {
            None => Some(BlockDiff::Added(block)),
            Some(previous) if !previous.same_as(block) => Some(BlockDiff::Changed {
                before: previous,
                after: block,
            }),
            Some(_) => None,
        })
        .collect();
    diffs.extend(
        before
            .blocks()
            .iter()
            .filter(|block| after.get(&block.id).is_none())
            .map(BlockDiff::Removed),
    );
    diffs
}

/// The `Applied` that turns `before` into `after`, as if one op had done it.
pub fn applied_between(before: &Canvas, after: &Canvas) -> Applied {
    let mut applied = Applied::default();
    for change in diff(before, after) {
        match change {
            BlockDiff::Added(block) | BlockDiff::Changed { after: block, .. } => {
                applied.changed.push(block.clone())
            }
            BlockDiff::Removed(block) => applied.removed.push(block.id.clone()),
        }
    }
    applied
}
