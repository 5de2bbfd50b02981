//! The reactive canvas: one core `CanvasStore` behind per-block signals, so a change to one widget
//! re-renders only that widget. Every change, from the agent, the user or another agent, goes
//! through [`CanvasCtx::apply`] (also reachable as the core's `CanvasPort`).

use std::collections::HashMap;
use std::sync::Arc;

use autoui_core::binding::source::Binding;
use autoui_core::canvas::history::HistoryLimits;
use autoui_core::canvas::model::{Block, Canvas, Layout};
use autoui_core::canvas::op::{Applied, CanvasError, CanvasPort, Op};
use autoui_core::canvas::store::CanvasStore;
use autoui_core::canvas::style::Style;
use autoui_core::ids::BlockId;
use autoui_core::tool::Origin;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;
use serde_json::Value;

/// What a widget frame shows around the widget: position, size, style and provenance.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameState {
    pub layout: Layout,
    pub style: Style,
    pub provenance: Origin,
    pub updated_ms: f64,
    /// The widget's data source, with when it was fetched and the last refresh's error.
    pub binding: Option<Arc<Binding>>,
}

/// The signals of one block. `data` only fires when the data itself changed (a new `Arc`), so
/// moving or styling a 10,000-row table never re-renders its rows.
#[derive(Clone)]
pub struct BlockCell {
    pub id: BlockId,
    pub kind: WidgetKind,
    pub data: ArcRwSignal<Arc<Value>>,
    pub frame: ArcRwSignal<FrameState>,
}

impl BlockCell {
    fn new(block: &Block) -> BlockCell {
        BlockCell {
            id: block.id.clone(),
            kind: block.kind,
            data: ArcRwSignal::new(block.data.clone()),
            frame: ArcRwSignal::new(frame_of(block)),
        }
    }

    fn sync(&self, block: &Block) {
        if !self.data.with_untracked(|data| Arc::ptr_eq(data, &block.data)) {
            self.data.set(block.data.clone());
        }
        let frame = frame_of(block);
        if self.frame.with_untracked(|current| current != &frame) {
            self.frame.set(frame);
        }
    }
}

fn frame_of(block: &Block) -> FrameState {
    FrameState {
        layout: block.layout,
        style: block.style.clone(),
        provenance: block.provenance.clone(),
        updated_ms: block.updated_ms,
        binding: block.binding.clone(),
    }
}

/// Undo/redo availability, for the buttons.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UndoState {
    pub can_undo: bool,
    pub can_redo: bool,
}

/// What to do before a block's widget goes: its block, the registering component's token, the hook.
type BeforeRemoval = (BlockId, u64, Box<dyn FnOnce()>);

/// Context handle for the canvas; `Copy`, so event handlers capture it freely.
#[derive(Clone, Copy)]
pub struct CanvasCtx {
    store: StoredValue<CanvasStore>,
    cells: StoredValue<HashMap<BlockId, BlockCell>>,
    order: RwSignal<Vec<BlockId>>,
    /// Block ids in reading order, row by row (`Canvas::reading_order`); set only when that changes.
    reading: RwSignal<Vec<BlockId>>,
    undo: RwSignal<UndoState>,
    revision: RwSignal<u64>,
    read_only: RwSignal<bool>,
    /// Another tab edits the session and this one follows it (`state/tabs.rs`).
    following: RwSignal<bool>,
    foreign: RwSignal<Option<Foreign>>,
    /// The dashboard's name (`SessionState::name`): it titles the page, a print, a file and a link.
    name: RwSignal<Option<String>>,
    /// What to do before a block's widget goes, by block (an MCP Apps view is asked to tear down
    /// first; the frame holding the focus hands it on), with each registration's token.
    before_removal: StoredValue<Vec<BeforeRemoval>, LocalStorage>,
    /// Blocks added at their kind's default size in this page and not fitted yet: their frame grows
    /// them to their content when it first shows them (`ui::widget_frame`), unless somebody sizes
    /// them first. A few at most: a list.
    unfitted: StoredValue<Vec<BlockId>>,
}

/// Where a canvas the person has not made their own came from. Its widgets cannot start an agent
/// turn (an `actions` button would otherwise speak under the viewer's key and MCP credentials).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Foreign {
    /// Opened from a share link (read-only until "Make a copy").
    Shared,
    /// Imported from a file (until the person allows its buttons).
    Imported,
}

impl CanvasCtx {
    pub fn new(canvas: Canvas) -> CanvasCtx {
        let cells: HashMap<BlockId, BlockCell> =
            canvas.blocks().iter().map(|block| (block.id.clone(), BlockCell::new(block))).collect();
        let order = canvas.ids();
        let reading = canvas.reading_order();
        CanvasCtx {
            store: StoredValue::new(CanvasStore::new(canvas, HistoryLimits::default())),
            cells: StoredValue::new(cells),
            order: RwSignal::new(order),
            reading: RwSignal::new(reading),
            undo: RwSignal::new(UndoState::default()),
            revision: RwSignal::new(0),
            read_only: RwSignal::new(false),
            following: RwSignal::new(false),
            foreign: RwSignal::new(None),
            name: RwSignal::new(None),
            before_removal: StoredValue::new_local(Vec::new()),
            unfitted: StoredValue::new(Vec::new()),
        }
    }

    /// Where the canvas came from, while the person has not made it their own (tracked).
    pub fn foreign(&self) -> Option<Foreign> {
        self.foreign.get()
    }

    pub fn foreign_untracked(&self) -> Option<Foreign> {
        self.foreign.get_untracked()
    }

    pub fn set_foreign(&self, foreign: Option<Foreign>) {
        self.foreign.set(foreign);
    }

    /// The dashboard's name, if it has one (tracked).
    pub fn name(&self) -> Option<String> {
        self.name.get()
    }

    pub fn name_untracked(&self) -> Option<String> {
        self.name.get_untracked()
    }

    /// Names the dashboard; notifies even when the name is the same (the Dashboards menu's box shows
    /// the name again after a save or an open).
    pub fn set_name(&self, name: Option<String>) {
        self.name.set(name);
    }

    /// A shared dashboard opened from a link is read-only until the person makes a copy; a tab
    /// following another one is read-only while it follows.
    pub fn is_read_only(&self) -> bool {
        self.read_only.get() || self.following.get()
    }

    /// Read-only because another tab edits the session (tracked).
    pub fn is_following(&self) -> bool {
        self.following.get()
    }

    pub fn is_following_now(&self) -> bool {
        self.following.get_untracked()
    }

    pub fn set_following(&self, following: bool) {
        self.following.set(following);
    }

    /// Shows `canvas` as the tab this one follows saved it.
    pub fn follow(&self, canvas: Canvas) {
        let op = Op::Replace { blocks: canvas.blocks().to_vec() };
        let now = js_sys::Date::now();
        if let Some(Ok(applied)) = self.store.try_update_value(|store| store.apply(op, &Origin::User, now)) {
            self.sync(&applied);
        }
    }

    /// Runs `hook` when block `id` is removed, before its widget leaves the page (a block may have
    /// several); returns the registration's token for [`CanvasCtx::forget_before_removal`].
    pub fn before_removal(&self, id: BlockId, hook: impl FnOnce() + 'static) -> u64 {
        thread_local!(static LAST: std::cell::Cell<u64> = const { std::cell::Cell::new(0) });
        let token = LAST.with(|last| {
            last.set(last.get() + 1);
            last.get()
        });
        self.before_removal.update_value(|hooks| hooks.push((id, token, Box::new(hook))));
        token
    }

    pub fn forget_before_removal(&self, id: &BlockId, token: u64) {
        self.before_removal.try_update_value(|hooks| hooks.retain(|(known, held, _)| known != id || *held != token));
    }

    /// The block that takes removed block `gone`'s place in reading order (`Canvas::taking_place_of`).
    /// Meaningful in a [`CanvasCtx::before_removal`] hook, while the reading order is still the one
    /// before the removal.
    pub fn taking_place_of(&self, gone: &BlockId) -> Option<BlockId> {
        self.reading
            .with_untracked(|before| self.store.with_value(|store| store.canvas().taking_place_of(before, gone)))
    }

    pub fn set_read_only(&self, read_only: bool) {
        self.read_only.set(read_only);
    }

    /// Applies `op` for `origin`; on error nothing changes and the error says why.
    pub fn apply(&self, op: Op, origin: Origin) -> Result<Applied, CanvasError> {
        if self.read_only.get_untracked() {
            return Err(CanvasError::ReadOnly);
        }
        if self.following.get_untracked() {
            return Err(CanvasError::EditedInAnotherTab);
        }
        let now = js_sys::Date::now();
        // A block added at its default size waits for its fit, unless somebody sizes it first.
        let added_at_default_size = matches!(op, Op::Add { layout: None, .. });
        let resized = matches!(op, Op::Resize { .. });
        let target = op.target().cloned();
        // The store lives as long as the app's root owner, which outlives every handle.
        let applied = self
            .store
            .try_update_value(|store| store.apply(op, &origin, now))
            .expect("the canvas store outlives its handles")?;
        if let Some(id) = target {
            if added_at_default_size {
                self.unfitted.update_value(|unfitted| unfitted.push(id));
            } else if resized {
                self.end_fit(&id);
            }
        }
        self.sync(&applied);
        Ok(applied)
    }

    /// Whether block `id` waits for its fit: added at its kind's default size in this page, and
    /// neither fitted nor sized by anybody since.
    pub fn awaits_fit(&self, id: &BlockId) -> bool {
        self.unfitted.with_value(|unfitted| unfitted.contains(id))
    }

    /// Ends block `id`'s wait for its fit; whether it was still waiting.
    pub fn end_fit(&self, id: &BlockId) -> bool {
        let waited = self.unfitted.try_update_value(|unfitted| {
            let before = unfitted.len();
            unfitted.retain(|unfitted| unfitted != id);
            unfitted.len() < before
        });
        waited.unwrap_or(false)
    }

    pub fn undo(&self) {
        if self.is_read_only_untracked() {
            return;
        }
        if let Some(Some(applied)) = self.store.try_update_value(|store| store.undo(&Origin::User)) {
            self.sync(&applied);
        }
    }

    pub fn redo(&self) {
        if self.is_read_only_untracked() {
            return;
        }
        if let Some(Some(applied)) = self.store.try_update_value(|store| store.redo(&Origin::User)) {
            self.sync(&applied);
        }
    }

    /// Block ids in creation order (tracked).
    pub fn order(&self) -> Vec<BlockId> {
        self.order.get()
    }

    /// Where block `id` stands in reading order, row by row as the page reads the canvas (tracked:
    /// changes only when that order does).
    pub fn reading_position(&self, id: &BlockId) -> Option<usize> {
        self.reading.with(|reading| reading.iter().position(|shown| shown == id))
    }

    pub fn is_empty(&self) -> bool {
        self.order.with(Vec::is_empty)
    }

    pub fn undo_state(&self) -> UndoState {
        self.undo.get()
    }

    /// Bumps on every change; persistence and WebMCP registration follow it.
    pub fn revision(&self) -> u64 {
        self.revision.get()
    }

    pub fn cell(&self, id: &BlockId) -> Option<BlockCell> {
        self.cells.with_value(|cells| cells.get(id).cloned())
    }

    /// Reads the core store without tracking (for encoders, summaries and tools).
    pub fn with_store<T>(&self, read: impl FnOnce(&CanvasStore) -> T) -> T {
        self.store.with_value(read)
    }

    /// Runs `change` on the core store (change log marks, selections), then re-syncs the signals.
    pub fn update_store<T>(&self, change: impl FnOnce(&mut CanvasStore) -> T) -> Option<T> {
        self.store.try_update_value(change)
    }

    pub fn is_read_only_untracked(&self) -> bool {
        self.read_only.get_untracked() || self.following.get_untracked()
    }

    fn sync(&self, applied: &Applied) {
        if applied.is_empty() {
            return;
        }
        // Every frame registers a hook: a change that removes nothing (most, a refresh's) skips them.
        if !applied.removed.is_empty() {
            let due = self.before_removal.try_update_value(|hooks| {
                let (due, kept): (Vec<_>, Vec<_>) = std::mem::take(hooks).into_iter().partition(|(id, _, _)| applied.removed.contains(id));
                *hooks = kept;
                due
            });
            for (_, _, hook) in due.unwrap_or_else(Vec::new) {
                hook();
            }
        }
        self.unfitted.update_value(|unfitted| unfitted.retain(|id| !applied.removed.contains(id)));
        self.cells.update_value(|cells| {
            for id in &applied.removed {
                cells.remove(id);
            }
            for block in &applied.changed {
                match cells.get(&block.id) {
                    Some(cell) if cell.kind == block.kind => cell.sync(block),
                    _ => {
                        cells.insert(block.id.clone(), BlockCell::new(block));
                    }
                }
            }
        });
        let (ids, reading) = self.store.with_value(|store| (store.canvas().ids(), store.canvas().reading_order()));
        if self.order.with_untracked(|order| order != &ids) {
            self.order.set(ids);
        }
        if self.reading.with_untracked(|known| known != &reading) {
            self.reading.set(reading);
        }
        let undo = self.store.with_value(|store| UndoState {
            can_undo: store.history().can_undo(),
            can_redo: store.history().can_redo(),
        });
        if self.undo.get_untracked() != undo {
            self.undo.set(undo);
        }
        self.revision.update(|revision| *revision += 1);
    }
}

impl CanvasPort for CanvasCtx {
    fn apply(&self, op: Op, origin: Origin) -> Result<Applied, CanvasError> {
        CanvasCtx::apply(self, op, origin)
    }

    fn get(&self, id: &BlockId) -> Option<Block> {
        self.store.with_value(|store| store.canvas().get(id).cloned())
    }

    fn blocks(&self) -> Vec<Block> {
        self.store.with_value(|store| store.canvas().blocks().to_vec())
    }
}

pub fn provide_canvas(canvas: Canvas) -> CanvasCtx {
    let ctx = CanvasCtx::new(canvas);
    provide_context(ctx);
    ctx
}

pub fn use_canvas() -> CanvasCtx {
    expect_context::<CanvasCtx>()
}
