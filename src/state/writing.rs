//! The code that changes the browser store, in a chunk of its own (`storage`): planning a session
//! save, handing writes to IndexedDB, moving the local storage documents of the previous version in,
//! and the "Export all" file read and written. The first screen only reads the store, so none of
//! this is in the first load: the first scheduled save fetches it (a follower tab never does).

use autoui_core::canvas::model::Canvas;
use autoui_core::canvas::persist::{DashboardLibrary, Loaded, PersistError};
use autoui_core::llm::message::Message;
use autoui_core::store::WritePlan;
use autoui_core::store::backup::{Backup, export_all, read_backup};
use autoui_core::store::migrate::{LegacyDocuments, Migration, migrate};
use autoui_core::store::session::{PendingWrite, SessionState, SessionWriter};

use crate::adapters::clock::BrowserRandom;
use crate::adapters::indexed_db::{Commit, RecordStore, StoreError};
use crate::deferred::part;

/// The storage chunk's entry points.
#[derive(Clone, Copy)]
pub struct Writing {
    /// The smallest write that makes the store hold the session.
    pub plan: fn(&SessionWriter, SessionState) -> PendingWrite,
    /// Hands a plan to the browser and asks it to commit (the main-thread part of a write).
    pub begin: fn(&RecordStore, &WritePlan) -> Result<Commit, StoreError>,
    /// The previous version's documents as one write, when there are any.
    pub migrate: fn(&LegacyDocuments, f64) -> Option<Migration>,
    /// The "Export all" file: every saved dashboard, the canvas and the conversation.
    pub export_all: fn(&Canvas, &[Message], &DashboardLibrary, f64) -> String,
    /// Reads an "Export all" file back.
    pub read_backup: fn(&str, f64) -> Result<Loaded<Backup>, PersistError>,
}

part! {
    #[chunk(storage, "the code that saves your work")]
    pub fn writing() -> Part<Writing> {
        Writing {
            plan: |writer, state| writer.plan(state),
            begin: |store, plan| store.begin(plan),
            migrate: |documents, now_ms| migrate(documents, &BrowserRandom, now_ms),
            export_all,
            read_backup: |text, now_ms| read_backup(text, &BrowserRandom, now_ms),
        }
    }
}

/// Commits `plan` whole or not at all, fetching the chunk first if it is not here.
pub async fn commit(store: &RecordStore, plan: &WritePlan) -> Result<(), StoreError> {
    let writing = writing().load().await.map_err(|error| StoreError::NotLoaded(error.to_string()))?;
    (writing.begin)(store, plan)?.finished().await
}
