//! Keeping the session across reloads: the canvas and the conversation are read from local storage at
//! start and written back, debounced, after changes (never during rendering). A stored document that
//! cannot be read is set aside under `<key>.corrupt` and reported, never a crash.

use std::time::Duration;

use autoui_core::canvas::model::Canvas;
use autoui_core::canvas::persist::{DashboardLibrary, Session, decode_session, encode_session};
use autoui_core::llm::message::Message;
use leptos::prelude::*;

use crate::adapters::clock::BrowserRandom;
use crate::adapters::storage;
use crate::state::notices::NoticesCtx;

pub const SESSION_KEY: &str = "autoui.session.v1";
pub const DASHBOARDS_KEY: &str = "autoui.dashboards.v1";
const SAVE_DELAY: Duration = Duration::from_millis(250);

/// What was restored at start, with notices already raised for anything set aside.
pub fn restore_session(notices: NoticesCtx) -> Session {
    let Some(text) = storage::get_raw(SESSION_KEY) else { return Session::default() };
    match decode_session(&text, &BrowserRandom, js_sys::Date::now()) {
        Ok(loaded) => {
            for part in &loaded.set_aside {
                notices.error(format!("Part of your last session could not be restored ({}): {}", part.what, part.reason));
            }
            loaded.value
        }
        Err(error) => {
            storage::set_aside(SESSION_KEY, &text);
            notices.error(format!(
                "Your last session could not be restored: {error}. It was kept aside in this browser as \u{201c}{SESSION_KEY}.corrupt\u{201d}."
            ));
            Session::default()
        }
    }
}

type Snapshot = std::sync::Arc<dyn Fn() -> (Canvas, Vec<Message>) + Send + Sync>;

/// Writes the session some milliseconds after the last change, so a burst of edits is one write;
/// a pending write is flushed when the page is hidden or unloaded, so a quick reload loses nothing.
#[derive(Clone, Copy)]
pub struct SessionSaver {
    pending: StoredValue<Option<(TimeoutHandle, Snapshot)>>,
    notices: NoticesCtx,
}

impl SessionSaver {
    pub fn new(notices: NoticesCtx) -> SessionSaver {
        let saver = SessionSaver { pending: StoredValue::new(None), notices };
        let flush = window_event_listener(leptos::ev::pagehide, move |_| saver.flush());
        on_cleanup(move || flush.remove());
        saver
    }

    /// Schedules a save of what `snapshot` returns when the timer fires.
    pub fn schedule(&self, snapshot: impl Fn() -> (Canvas, Vec<Message>) + Send + Sync + 'static) {
        if let Some((handle, _)) = self.pending.get_value() {
            handle.clear();
        }
        let saver = *self;
        let handle = set_timeout_with_handle(move || saver.flush(), SAVE_DELAY).ok();
        let snapshot: Snapshot = std::sync::Arc::new(snapshot);
        self.pending.set_value(handle.map(|handle| (handle, snapshot)));
    }

    /// Writes a scheduled save now, if there is one.
    pub fn flush(&self) {
        let Some((handle, snapshot)) = self.pending.get_value() else { return };
        handle.clear();
        self.pending.set_value(None);
        let (canvas, conversation) = snapshot();
        let text = encode_session(&Session { canvas, conversation }, js_sys::Date::now());
        if let Err(reason) = storage::set_raw(SESSION_KEY, &text) {
            self.notices.error(format!("Your work could not be saved in this browser: {reason}"));
        }
    }
}

/// The saved dashboards, or an empty library (with a notice) when the stored one cannot be read.
pub fn load_library(notices: NoticesCtx) -> DashboardLibrary {
    let Some(text) = storage::get_raw(DASHBOARDS_KEY) else { return DashboardLibrary::default() };
    match DashboardLibrary::decode(&text, &BrowserRandom, js_sys::Date::now()) {
        Ok(loaded) => {
            for part in &loaded.set_aside {
                notices.error(format!("A saved dashboard could not be read ({}): {}", part.what, part.reason));
            }
            loaded.value
        }
        Err(error) => {
            storage::set_aside(DASHBOARDS_KEY, &text);
            notices.error(format!("Your saved dashboards could not be read: {error}. They were kept aside."));
            DashboardLibrary::default()
        }
    }
}

pub fn save_library(library: &DashboardLibrary) -> Result<(), String> {
    storage::set_raw(DASHBOARDS_KEY, &library.encode())
}
