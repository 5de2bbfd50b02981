//! `CanvasStore`: the canvas with its undo/redo history, its change log for the agent and the
//! widgets' current selections. The app's reactive wrapper owns one and routes every change through it.

use std::collections::BTreeMap;

use crate::canvas::changes::{Actor, Cause, ChangeLog};
use crate::canvas::diff::applied_between;
use crate::canvas::event::{Delivery, WidgetEvent};
use crate::canvas::history::{History, HistoryLimits};
use crate::canvas::model::Canvas;
use crate::canvas::op::{Applied, CanvasError, Op};
use crate::ids::BlockId;
use crate::tool::Origin;

#[derive(Clone, Debug, Default)]
pub struct CanvasStore {
    canvas: Canvas,
    history: History,
    changes: ChangeLog,
    selections: BTreeMap<BlockId, WidgetEvent>,
}

impl CanvasStore {
    /// A store showing `canvas` (a restored session, or empty), with nothing to undo.
    pub fn new(canvas: Canvas, limits: HistoryLimits) -> CanvasStore {
        CanvasStore {
            canvas,
            history: History::new(limits),
            changes: ChangeLog::default(),
            selections: BTreeMap::new(),
        }
    }

    pub fn canvas(&self) -> &Canvas {
        &self.canvas
    }

    /// Applies `op` for `origin`: the only way to change the canvas. Changes land on the history,
    /// and those not made by the in-app agent on the change log.
    pub fn apply(&mut self, op: Op, origin: &Origin, now_ms: f64) -> Result<Applied, CanvasError> {
        let cause = match &op {
            Op::Clear => Cause::Clear,
            Op::Replace { .. } => Cause::Replace,
            other => Cause::Edit {
                target: other.target().cloned(),
            },
        };
        // A refresh is the data's own news and a fit the app's own tidying, nobody's edit: not a step
        // to undo, nothing to tell the agent.
        let fit = match &op {
            Op::Fit { id, h } => Some((id.clone(), *h)),
            _ => None,
        };
        let not_an_edit = fit.is_some() || matches!(op, Op::Refreshed { .. });
        let before = self.canvas.clone();
        let applied = self.canvas.apply(op, origin, now_ms)?;
        if let Some((id, h)) = fit
            && !applied.is_empty()
        {
            self.history.fit(&id, h, now_ms);
        }
        if !applied.is_empty() && !not_an_edit {
            self.after_change(before, &applied, origin, &cause);
        }
        Ok(applied)
    }

    /// Goes back one step; `None` when there is nothing to undo.
    pub fn undo(&mut self, origin: &Origin) -> Option<Applied> {
        let previous = self.history.undo(&self.canvas)?;
        Some(self.restore(previous, origin, &Cause::Undo))
    }

    /// Goes forward one undone step; `None` when there is nothing to redo.
    pub fn redo(&mut self, origin: &Origin) -> Option<Applied> {
        let next = self.history.redo(&self.canvas)?;
        Some(self.restore(next, origin, &Cause::Redo))
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    /// Handles a widget interaction: a click becomes the widget's selection (and a change-log line);
    /// returns where the event goes so the app can send next-turn events and stop requests on.
    pub fn record_event(&mut self, event: WidgetEvent, origin: &Origin) -> Delivery {
        let delivery = event.delivery();
        if delivery == Delivery::Selection && self.canvas.get(&event.widget).is_some() {
            if let Some(actor) = Actor::from_origin(origin) {
                self.changes.record_selection(actor, &event);
            }
            self.selections.insert(event.widget.clone(), event);
        }
        delivery
    }

    /// The last click-selection in `id`, if it still exists.
    pub fn selection(&self, id: &BlockId) -> Option<&WidgetEvent> {
        self.selections.get(id)
    }

    pub fn changes(&self) -> &ChangeLog {
        &self.changes
    }

    /// The text to put before the agent's next turn, if anything changed since the last mark.
    pub fn changes_since_mark(&self) -> Option<String> {
        self.changes.summary()
    }

    /// Marks that the agent has been told about every change so far.
    pub fn mark(&mut self) {
        self.changes.clear();
    }

    fn restore(&mut self, state: Canvas, origin: &Origin, cause: &Cause) -> Applied {
        let before = std::mem::replace(&mut self.canvas, state);
        let applied = applied_between(&before, &self.canvas);
        if let Some(actor) = Actor::from_origin(origin) {
            self.changes.record(actor, cause, &before, &self.canvas);
        }
        self.forget_removed_selections(&applied);
        applied
    }

    fn after_change(&mut self, before: Canvas, applied: &Applied, origin: &Origin, cause: &Cause) {
        if let Some(actor) = Actor::from_origin(origin) {
            self.changes.record(actor, cause, &before, &self.canvas);
        }
        self.history.record(before, &self.canvas);
        self.forget_removed_selections(applied);
    }

    fn forget_removed_selections(&mut self, applied: &Applied) {
        for id in &applied.removed {
            self.selections.remove(id);
        }
    }
}
