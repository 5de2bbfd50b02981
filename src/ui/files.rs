//! What the UI uses of the file tools (declared in `chunks::files`, carried by the engine's chunk): a
//! canvas or a widget saved to a file, a file read back, share links and backups. None of it is
//! needed before first paint.

use std::sync::Arc;

use autoui_core::widget_kind::WidgetKind;
use futures::future::LocalBoxFuture;
use leptos::prelude::Owner;
use serde_json::Value;
use web_sys::Element;

use crate::deferred::{Part, Slot};
use crate::state::agent::AgentCtx;
use crate::state::canvas::CanvasCtx;
use crate::state::notices::NoticesCtx;
use crate::state::persist::PersistCtx;
use crate::ui::backup::Targets;

/// The formats a widget exports to (its menu offers those that fit its kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WidgetFile {
    Json,
    Csv,
    Svg,
    Png,
}

/// The chunk's entry points.
#[derive(Clone, Copy)]
pub struct Files {
    /// Downloads the canvas as a dashboard file.
    /// (The owner is the toolbar's, under which the engine's servers are found.)
    pub export_canvas: fn(CanvasCtx, Owner),
    /// Reads a dashboard or backup file the person chose.
    pub import_file: fn(web_sys::File, Targets) -> LocalBoxFuture<'static, ()>,
    /// The canvas's share link, copied to the clipboard when the browser allows it.
    pub share_link: fn(CanvasCtx, NoticesCtx, Owner) -> String,
    /// Downloads every saved dashboard and the current session as one file.
    pub export_all: fn(CanvasCtx, AgentCtx, PersistCtx),
    /// Downloads a widget's data or picture; the element is the clicked menu item, in its frame.
    pub export_widget: fn(WidgetKind, Arc<Value>, WidgetFile, Element),
}

/// The file tools, installed by `chunks::install`.
pub static FILES: Slot<Files> = Slot::new();

fn files() -> Part<Files> {
    FILES.part()
}

/// Runs `action` with the file tools, fetching them first if needed; a failed fetch is told to the
/// person, and nothing on the page changes.
pub fn with_files(notices: NoticesCtx, action: impl FnOnce(Files) + 'static) {
    leptos::task::spawn_local(async move {
        match files().load().await {
            Ok(files) => action(files),
            Err(error) => notices.error(error.to_string()),
        }
    });
}
