//! The code that reads and changes the browser store, in a small chunk of its own: decoding what the
//! store holds (the session, its conversation, the saved dashboards, the servers) and a share link's
//! dashboard, planning a session save, handing writes to IndexedDB, moving the local storage documents
//! of the previous version in, and a follower tab catching up with the writer's saves. A first visit
//! has nothing to decode, so none of this is in the first load: it is fetched after first paint,
//! before the first change is saved, and without the engine, which an empty canvas fetches only on
//! first use (`state::engine`). A page with something stored, or opened from a share link, fetches it
//! before its first paint (`persist::restore`); its browser has usually kept it from the last visit.

use std::cell::RefCell;
use std::rc::Rc;

use futures::future::LocalBoxFuture;

use autoui_core::canvas::exchange::Imported;
use autoui_core::canvas::share;
use autoui_core::store::{StoredRecords, WritePlan, kept};
use autoui_core::store::migrate::{LegacyDocuments, Migration, migrate};
use autoui_core::store::session::{PendingWrite, SessionState, SessionWriter};

use crate::adapters::clock::BrowserRandom;
use crate::adapters::indexed_db::{Commit, RecordStore, StoreError};
use crate::deferred::part;
use crate::state::agent::AgentCtx;
use crate::state::canvas::CanvasCtx;
use crate::state::persist::{self, PersistCtx, Restored};
use crate::state::tabs::{Following, catch_up};

/// The entry points that change the store (in the `writing` chunk).
#[derive(Clone, Copy)]
pub struct Writing {
    /// The smallest write that makes the store hold the session.
    pub plan: fn(&SessionWriter, SessionState) -> PendingWrite,
    /// Hands a plan to the browser and asks it to commit (the main-thread part of a write).
    pub begin: fn(&RecordStore, &WritePlan) -> Result<Commit, StoreError>,
    /// The previous version's documents as one write, when there are any.
    pub migrate: fn(&LegacyDocuments, f64) -> Option<Migration>,
    /// A follower reads what the writer's saves put (`state/tabs.rs`).
    pub catch_up: fn(Rc<RefCell<Following>>, PersistCtx, CanvasCtx, AgentCtx) -> LocalBoxFuture<'static, ()>,
    /// A closing page's last write as text, and back (`store::kept`).
    pub keep: fn(&WritePlan) -> String,
    pub kept: fn(&str) -> Result<WritePlan, String>,
    /// Decodes what the store holds into what the app starts from (`persist::restore`).
    pub read: fn(Rc<RecordStore>, &StoredRecords) -> Restored,
    /// A share link's dashboard, or why it cannot be opened.
    pub open_share: fn(&str) -> Result<Imported, String>,
}

part! {
    #[chunk(writing, "the code that reads and saves your work")]
    pub fn writing() -> Part<Writing> {
        Writing {
            plan: |writer, state| writer.plan(state),
            begin: |store, plan| store.begin(plan),
            migrate: |documents, now_ms| migrate(documents, &BrowserRandom, now_ms),
            catch_up: |following, persist, canvas, agent| Box::pin(catch_up(following, persist, canvas, agent)),
            keep: kept::keep,
            kept: kept::kept,
            read: persist::read,
            open_share: |param| share::open(param, &BrowserRandom, js_sys::Date::now()).map_err(|error| error.to_string()),
        }
    }
}

/// Commits `plan` whole or not at all, fetching the chunk first if it is not here.
pub async fn commit(store: &RecordStore, plan: &WritePlan) -> Result<(), StoreError> {
    let writing = writing().load().await.map_err(|error| StoreError::NotLoaded(error.to_string()))?;
    (writing.begin)(store, plan)?.finished().await
}
