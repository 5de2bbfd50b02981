//! The change log the agent reads at the start of its next turn: what the user and external agents
//! did to the canvas (moves, resizes, styles, data edits, removals, selections) since a mark.

use crate::canvas::diff::{BlockDiff, diff};
use crate::canvas::event::{WidgetEvent, excerpt};
use crate::canvas::model::{Block, Canvas};
use crate::canvas::style::Style;
use crate::ids::BlockId;
use crate::sort::{sort, sort_by_key};
use crate::tool::Origin;
use crate::widget_kind::WidgetKind;

/// Entries kept between two marks; older ones are counted, not described.
const MAX_ENTRIES: usize = 100;
/// Lines in one summary.
const MAX_LINES: usize = 20;

/// Who made a change the agent did not make itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Actor {
    User,
    ExternalAgent,
}

impl Actor {
    /// `None` for the in-app agent: it knows what it did.
    pub fn from_origin(origin: &Origin) -> Option<Actor> {
        match origin {
            Origin::Agent { .. } => None,
            Origin::User => Some(Actor::User),
            Origin::ExternalAgent => Some(Actor::ExternalAgent),
        }
    }

    fn as_subject(self) -> &'static str {
        match self {
            Actor::User => "the user",
            Actor::ExternalAgent => "an external agent",
        }
    }
}

/// What produced a change of state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cause {
    /// An op aimed at one block (or none); other blocks that moved were pushed out of its way.
    Edit {
        target: Option<BlockId>,
    },
    Clear,
    Replace,
    Undo,
    Redo,
}

/// One thing that happened to one block.
#[derive(Clone, Debug, PartialEq)]
pub enum BlockChange {
    Added,
    Removed,
    Moved {
        x: u32,
        y: u32,
    },
    /// Pushed down to make room for another block.
    PushedDown {
        y: u32,
        by: BlockId,
    },
    Resized {
        w: u32,
        h: u32,
    },
    Restyled {
        style: Style,
    },
    /// The top-level keys whose values changed (empty when the data is not an object).
    DataEdited {
        keys: Vec<String>,
    },
    BroughtToFront,
    /// The widget's selection, as [`WidgetEvent::selection_text`] words it.
    Selected {
        text: String,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    Block {
        id: BlockId,
        kind: WidgetKind,
        change: BlockChange,
    },
    Cleared {
        count: usize,
    },
    Replaced {
        count: usize,
    },
}

/// Set on a change that came from undo or redo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replay {
    Undo,
    Redo,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ChangeEntry {
    pub actor: Actor,
    pub via: Option<Replay>,
    pub change: Change,
}

#[derive(Clone, Debug, Default)]
pub struct ChangeLog {
    entries: Vec<ChangeEntry>,
    dropped: usize,
}

impl ChangeLog {
    pub fn entries(&self) -> &[ChangeEntry] {
        &self.entries
    }

    /// Forgets everything: the agent has been told.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.dropped = 0;
    }

    /// Records what `actor` changed going from `before` to `after`.
    pub fn record(&mut self, actor: Actor, cause: &Cause, before: &Canvas, after: &Canvas) {
        let via = match cause {
            Cause::Undo => Some(Replay::Undo),
            Cause::Redo => Some(Replay::Redo),
            _ => None,
        };
        match cause {
            Cause::Clear => self.push(ChangeEntry {
                actor,
                via,
                change: Change::Cleared {
                    count: before.len(),
                },
            }),
            Cause::Replace => self.push(ChangeEntry {
                actor,
                via,
                change: Change::Replaced { count: after.len() },
            }),
            Cause::Edit { target } => self.record_diff(actor, via, target.as_ref(), before, after),
            Cause::Undo | Cause::Redo => self.record_diff(actor, via, None, before, after),
        }
    }

    /// Records a click that set a widget's selection.
    pub fn record_selection(&mut self, actor: Actor, event: &WidgetEvent) {
        let change = BlockChange::Selected {
            text: event.selection_text(),
        };
        self.push(ChangeEntry {
            actor,
            via: None,
            change: Change::Block {
                id: event.widget.clone(),
                kind: event.kind,
                change,
            },
        });
    }

    /// "Canvas changes since your last turn: ..." with the most recent changes, or `None` when
    /// nothing happened.
    pub fn summary(&self) -> Option<String> {
        if self.entries.is_empty() {
            return None;
        }
        let mut text =
            String::from("Canvas changes since your last turn (made by others, not by you):");
        let skipped = self.entries.len().saturating_sub(MAX_LINES);
        let earlier = skipped + self.dropped;
        if earlier > 0 {
            text.push_str(&format!("\n- … {earlier} earlier changes not listed"));
        }
        for entry in &self.entries[skipped..] {
            text.push_str("\n- ");
            text.push_str(&describe(entry));
        }
        Some(text)
    }

    fn record_diff(
        &mut self,
        actor: Actor,
        via: Option<Replay>,
        target: Option<&BlockId>,
        before: &Canvas,
        after: &Canvas,
    ) {
        let mut differences = diff(before, after);
        // The block the op aimed at first, then the ones it pushed.
        sort_by_key(&mut differences, |difference| Some(&difference_block(difference).id) != target);
        for difference in differences {
            for (block, change) in block_changes(difference, target) {
                let change = Change::Block {
                    id: block.id.clone(),
                    kind: block.kind,
                    change,
                };
                self.push(ChangeEntry { actor, via, change });
            }
        }
    }

    /// Appends `entry`, folding it into an earlier entry of the same kind for the same block so
    /// five arrow-key moves read as one move to the final place.
    fn push(&mut self, mut entry: ChangeEntry) {
        if let Some(index) = self
            .entries
            .iter()
            .rposition(|earlier| folds_into(earlier, &entry))
        {
            let earlier = self.entries.remove(index);
            merge_keys(&earlier, &mut entry);
        }
        self.entries.push(entry);
        if self.entries.len() > MAX_ENTRIES {
            self.entries.remove(0);
            self.dropped += 1;
        }
    }
}

fn difference_block<'a>(difference: &BlockDiff<'a>) -> &'a Block {
    match *difference {
        BlockDiff::Added(block)
        | BlockDiff::Removed(block)
        | BlockDiff::Changed { after: block, .. } => block,
    }
}

fn block_changes<'a>(
    difference: BlockDiff<'a>,
    target: Option<&BlockId>,
) -> Vec<(&'a Block, BlockChange)> {
    match difference {
        BlockDiff::Added(block) => vec![(block, BlockChange::Added)],
        BlockDiff::Removed(block) => vec![(block, BlockChange::Removed)],
        BlockDiff::Changed { before, after } => {
            let mut changes = Vec::new();
            let (old, new) = (before.layout, after.layout);
            if (old.x, old.y) != (new.x, new.y) {
                match target {
                    Some(by) if by != &after.id && old.x == new.x && new.y > old.y => {
                        changes.push(BlockChange::PushedDown {
                            y: new.y,
                            by: by.clone(),
                        });
                    }
                    _ => changes.push(BlockChange::Moved { x: new.x, y: new.y }),
                }
            }
            if (old.w, old.h) != (new.w, new.h) {
                changes.push(BlockChange::Resized { w: new.w, h: new.h });
            }
            if before.style != after.style {
                changes.push(BlockChange::Restyled {
                    style: after.style.clone(),
                });
            }
            if !std::sync::Arc::ptr_eq(&before.data, &after.data) {
                changes.push(BlockChange::DataEdited {
                    keys: changed_keys(&before.data, &after.data),
                });
            }
            if new.z > old.z {
                changes.push(BlockChange::BroughtToFront);
            }
            changes.into_iter().map(|change| (after, change)).collect()
        }
    }
}

fn changed_keys(before: &serde_json::Value, after: &serde_json::Value) -> Vec<String> {
    let (Some(before), Some(after)) = (before.as_object(), after.as_object()) else {
        return Vec::new();
    };
    let mut keys: Vec<String> = after
        .iter()
        .filter(|(key, value)| before.get(*key) != Some(*value))
        .map(|(key, _)| key.clone())
        .chain(
            before
                .keys()
                .filter(|key| !after.contains_key(*key))
                .cloned(),
        )
        .collect();
    sort(&mut keys);
    keys
}

fn folds_into(earlier: &ChangeEntry, later: &ChangeEntry) -> bool {
    let (
        Change::Block {
            id: earlier_id,
            change: earlier_change,
            ..
        },
        Change::Block {
            id: later_id,
            change: later_change,
            ..
        },
    ) = (&earlier.change, &later.change)
    else {
        return false;
    };
    let same_kind = std::mem::discriminant(earlier_change) == std::mem::discriminant(later_change);
    let foldable = !matches!(later_change, BlockChange::Added | BlockChange::Removed);
    earlier.actor == later.actor
        && earlier.via == later.via
        && earlier_id == later_id
        && same_kind
        && foldable
}

/// A folded data edit lists the keys of both edits.
fn merge_keys(earlier: &ChangeEntry, later: &mut ChangeEntry) {
    if let (
        Change::Block {
            change: BlockChange::DataEdited { keys: old },
            ..
        },
        Change::Block {
            change: BlockChange::DataEdited { keys: new },
            ..
        },
    ) = (&earlier.change, &mut later.change)
    {
        new.extend(old.iter().cloned());
        sort(new);
        new.dedup();
    }
}

fn describe(entry: &ChangeEntry) -> String {
    let subject = match &entry.via {
        Some(Replay::Undo) => format!("{} (undo)", entry.actor.as_subject()),
        Some(Replay::Redo) => format!("{} (redo)", entry.actor.as_subject()),
        None => entry.actor.as_subject().to_owned(),
    };
    match &entry.change {
        Change::Cleared { count } => {
            format!("{subject} cleared the canvas ({count} widgets removed)")
        }
        Change::Replaced { count } => {
            format!(
                "{subject} replaced the whole canvas with {count} widgets (opened a dashboard, a file or a link)"
            )
        }
        Change::Block { id, kind, change } => {
            let widget = format!("{id} ({kind})");
            match change {
                BlockChange::Added => format!("{subject} added {widget}"),
                BlockChange::Removed => format!("{subject} removed {widget}"),
                BlockChange::Moved { x, y } => format!("{subject} moved {widget} to x={x}, y={y}"),
                BlockChange::PushedDown { y, by } => {
                    format!("{widget} was pushed down to y={y} to make room for {by}")
                }
                BlockChange::Resized { w, h } => {
                    format!("{subject} resized {widget} to {w} columns x {h} rows")
                }
                BlockChange::Restyled { style } if style.is_empty() => {
                    format!("{subject} reset the style of {widget}")
                }
                BlockChange::Restyled { style } => {
                    let properties: Vec<String> = style
                        .0
                        .iter()
                        .map(|(key, value)| format!("{key}: {value}"))
                        .collect();
                    format!(
                        "{subject} restyled {widget}: {}",
                        excerpt(&properties.join("; "), 200)
                    )
                }
                BlockChange::DataEdited { keys } if keys.is_empty() => {
                    format!("{subject} edited the data of {widget}")
                }
                BlockChange::DataEdited { keys } => {
                    format!(
                        "{subject} edited the data of {widget} (changed: {})",
                        keys.join(", ")
                    )
                }
                BlockChange::BroughtToFront => format!("{subject} brought {widget} to the front"),
                BlockChange::Selected { text } => format!("in {widget}, {subject} {text}"),
            }
        }
    }
}
