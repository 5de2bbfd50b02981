//! Keeping work across reloads in the browser store (IndexedDB, `adapters/indexed_db.rs`): the
//! session (canvas, conversation, result buffer, activated servers), the saved dashboards and the MCP
//! server configs are read before the app is mounted, moved over once from the local storage
//! documents of earlier versions, and written back after changes as the record difference the core
//! plans (`autoui_core::store`), one transaction per write. A write the browser refuses changes
//! nothing stored and nothing in the page; the person is told the size and what to do. The code that
//! decodes and writes records comes in a chunk of its own (`state/writing.rs`): a page with nothing
//! stored fetches it after first paint (the gallery at the first sign of something to save), one
//! with records before it.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;

use autoui_core::canvas::model::Canvas;
use autoui_core::canvas::persist::{Dashboard, DashboardLibrary, LibraryError, Saved};
use autoui_core::canvas::share;
use autoui_core::mcp::config::ServerConfig;
use autoui_core::store::library::{delete_dashboard, put_dashboard, read_library};
use autoui_core::store::migrate::{LegacyDocuments, Migration, read_servers, servers_record};
use autoui_core::store::session::{
    SessionState, SessionWriter, keep_set_aside, read_session, read_session_update, written_keys,
};
use autoui_core::store::{SERVERS_KEY, StoreName, StoredRecords, WritePlan};
use leptos::prelude::*;

use crate::adapters::clock::{BrowserRandom, Span};
use crate::adapters::indexed_db::{RecordStore, StoreError};
use crate::adapters::quota;
use crate::adapters::tabs::Channel;
use crate::adapters::visibility::page_visible;
use crate::adapters::storage;
use crate::deferred::{LoadError, after_first_paint};
use crate::state::notices::NoticesCtx;
use crate::state::writing::{self, writing};

const SAVE_DELAY: Duration = Duration::from_millis(250);
/// Where a closing page keeps its last write until the next start commits it.
const KEPT_WRITE_KEY: &str = "autoui.kept-write.v1";

/// What was read before the app was mounted, with the problems to report once notices exist.
#[derive(Default)]
pub struct Restored {
    pub session: SessionState,
    pub library: DashboardLibrary,
    pub servers: Vec<ServerConfig>,
    /// The dashboard of the share link the page was opened with, shown read-only, and its name.
    pub shared: Option<(Canvas, Option<String>)>,
    problems: Vec<String>,
    store: Option<Rc<RecordStore>>,
    writer: SessionWriter,
    /// Copies of what could not be restored, to write before anything else (`keep_set_aside`).
    set_aside: WritePlan,
}

/// Opens the store and reads everything; on a first visit after an update, moves the local storage
/// documents in first; opens the share link the page came from, if any. Never fails: what cannot be
/// read is reported and the app starts without it.
pub async fn restore() -> Restored {
    let (mut restored, (shared, problems)) = futures::join!(restore_store(), open_shared());
    restored.shared = shared;
    restored.problems.extend(problems);
    restored
}

/// The dashboard of the page's share link (`#hs=…`, or `?hs=…` from an older link), with what could
/// not be shown of it.
async fn open_shared() -> (Option<(Canvas, Option<String>)>, Vec<String>) {
    let location = window().location();
    let from_query = || {
        let search = location.search().ok()?;
        web_sys::UrlSearchParams::new_with_str(&search).ok()?.get(share::PARAM)
    };
    let Some(param) = share::fragment_param(&location.hash().unwrap_or_default()).or_else(from_query) else {
        return (None, Vec::new());
    };
    let opened = match writing().load().await {
        Ok(code) => (code.open_share)(&param),
        Err(error) => Err(error.to_string()),
    };
    match opened {
        Ok(imported) => {
            let problems = imported
                .set_aside
                .iter()
                .map(|part| format!("Part of the shared dashboard could not be shown ({}): {}", part.what, part.reason))
                .collect();
            (Some((imported.canvas, imported.title)), problems)
        }
        Err(error) => (None, vec![format!("This share link could not be opened: {error}")]),
    }
}

async fn restore_store() -> Restored {
    // The part of the restore the browser does: what the benchmark reports beside the whole.
    let reading = Span::start("autoui-restore-read");
    let store = match RecordStore::open().await {
        Ok(store) => Rc::new(store),
        Err(error) => {
            let problem = format!("Your work cannot be saved in this browser: {error}. It lasts until this page closes.");
            return Restored { problems: vec![problem], ..Restored::default() };
        }
    };
    let kept = match commit_kept_write(&store).await {
        Ok(problem) => problem,
        // The stored records are older than the kept write: reading them, or saving over them, would
        // lose the last changes. This page reads and saves nothing; a later start commits the write.
        Err(error) => {
            let problem = format!(
                "Your saved work could not be read: {error}. Nothing was changed, and the last changes of the page closed before wait in this browser until a reload can save them."
            );
            return Restored { problems: vec![problem], ..Restored::default() };
        }
    };
    let mut restored = restore_from(store, reading).await;
    restored.problems.extend(kept);
    restored
}

/// Commits the write a closing page kept aside (see [`PersistCtx::flush_for_unload`]), before
/// anything is read; says so when it could not be. Fails, leaving the write where it is, only when the
/// code that commits it could not be loaded.
async fn commit_kept_write(store: &RecordStore) -> Result<Option<String>, LoadError> {
    let Some(text) = storage::get_raw(KEPT_WRITE_KEY) else { return Ok(None) };
    let code = writing().load().await?;
    let committed = match (code.kept)(&text) {
        Ok(plan) => writing::commit(store, &plan).await,
        Err(error) => {
            let kept = storage::set_aside(KEPT_WRITE_KEY, &text);
            let went = storage::where_set_aside(KEPT_WRITE_KEY, kept);
            return Ok(Some(format!("The last changes of the page closed before could not be read ({error}). They were {went}.")));
        }
    };
    Ok(match committed {
        Ok(()) => {
            storage::remove(KEPT_WRITE_KEY);
            None
        }
        // Not tried again at a later start, where it could write over newer work.
        Err(error) => {
            let kept = storage::set_aside(KEPT_WRITE_KEY, &text);
            let went = storage::where_set_aside(KEPT_WRITE_KEY, kept);
            Some(format!("The last changes of the page closed before could not be saved ({error}). They were {went}."))
        }
    })
}

async fn restore_from(store: Rc<RecordStore>, reading: Span) -> Restored {
    let records = match store.read_all().await {
        Ok(records) => records,
        Err(error) => {
            let problem = format!("Your saved work could not be read: {error}. Nothing was changed; try reloading.");
            // Writing over records that could not be read could lose them: this page saves nothing.
            return Restored { problems: vec![problem], ..Restored::default() };
        }
    };
    drop(reading);
    if records.is_empty() {
        let documents = legacy_documents();
        if documents.session.is_some() || documents.dashboards.is_some() || documents.servers.is_some() {
            return match writing().load().await {
                Ok(writing) => match (writing.migrate)(&documents, js_sys::Date::now()) {
                    Some(migration) => moved(store, migration).await,
                    None => nothing_stored(store),
                },
                // Starting empty and saving would bury the documents (see below): this page saves nothing.
                Err(error) => {
                    let problem = format!("Your earlier work could not be moved to this browser's database: {error}. It stays where it was.");
                    Restored { problems: vec![problem], ..Restored::default() }
                }
            };
        }
        return nothing_stored(store);
    }
    // The store only fills after the move was tried, so documents still here were moved (or saved
    // over since) by a page that went away between the commit and their removal.
    use autoui_core::store::migrate::{LEGACY_DASHBOARDS_KEY, LEGACY_SERVERS_KEY, LEGACY_SESSION_KEY};
    for key in [LEGACY_SESSION_KEY, LEGACY_DASHBOARDS_KEY, LEGACY_SERVERS_KEY] {
        storage::remove(key);
    }
    match writing().load().await {
        Ok(writing) => {
            let mut restored = (writing.read)(store, &records);
            restored.keep_set_aside().await;
            restored
        }
        // Writing over records that could not be read could lose them: this page saves nothing.
        Err(error) => {
            let problem = format!("Your saved work could not be read: {error}. Nothing was changed.");
            Restored { problems: vec![problem], ..Restored::default() }
        }
    }
}

/// An empty store, to write to.
fn nothing_stored(store: Rc<RecordStore>) -> Restored {
    Restored { store: Some(store), ..Restored::default() }
}

fn legacy_documents() -> LegacyDocuments {
    use autoui_core::store::migrate::{LEGACY_DASHBOARDS_KEY, LEGACY_SERVERS_KEY, LEGACY_SESSION_KEY};
    LegacyDocuments {
        session: storage::get_raw(LEGACY_SESSION_KEY),
        dashboards: storage::get_raw(LEGACY_DASHBOARDS_KEY),
        servers: storage::get_raw(LEGACY_SERVERS_KEY),
    }
}

/// Commits the move; the old documents leave local storage only once the store has them.
async fn moved(store: Rc<RecordStore>, migration: Migration) -> Restored {
    let mut problems: Vec<String> = migration.set_aside.iter().map(|part| set_aside_problem(part, None)).collect();
    for (key, error) in &migration.unreadable {
        let kept = storage::get_raw(key).is_some_and(|raw| storage::set_aside(key, &raw));
        let went = storage::where_set_aside(key, kept);
        problems.push(format!("Part of your earlier work could not be read ({error}). It was {went}."));
    }
    let mut writer = SessionWriter::default();
    let store = match writing::commit(&store, &migration.plan()).await {
        Ok(()) => {
            for key in &migration.moved {
                storage::remove(key);
            }
            writer.confirm(migration.write);
            Some(store)
        }
        // A later save would fill the store with this page's session alone, and the next start takes
        // a filled store for a finished move and removes the documents: this page saves nothing, and
        // the next one tries the move again.
        Err(error) => {
            problems.push(format!(
                "Your earlier work could not be moved to this browser's database ({error}); it stays where it was and \
                 is shown as saved. Changes made in this page are not saved: reload to try the move again."
            ));
            None
        }
    };
    Restored {
        session: migration.session,
        library: migration.library,
        servers: migration.servers,
        shared: None,
        problems,
        store,
        writer,
        set_aside: WritePlan::default(),
    }
}

/// Decodes the records (in the `writing` chunk: [`restore_store`] calls it from there).
pub(crate) fn read(store: Rc<RecordStore>, records: &StoredRecords) -> Restored {
    let now = js_sys::Date::now();
    let mut problems = Vec::new();
    let mut store = Some(store);
    let mut set_aside = WritePlan::default();
    let (session, writer) = match read_session(records, &BrowserRandom, now) {
        Ok(Some(read)) => {
            let keys;
            (set_aside, keys) = keep_set_aside(&read.loaded.set_aside, records, now);
            problems.extend(read.loaded.set_aside.iter().zip(&keys).map(|(part, key)| set_aside_problem(part, Some(key))));
            let writer = read.writer();
            (read.loaded.value, writer)
        }
        Ok(None) => (SessionState::default(), SessionWriter::default()),
        Err(error) => {
            problems.push(format!(
                "Your last session could not be restored: {error}. It is kept as it is: this page saves nothing over it."
            ));
            store = None;
            (SessionState::default(), SessionWriter::default())
        }
    };
    let library = read_library(records, &BrowserRandom, now);
    problems.extend(library.set_aside.iter().map(|part| format!("A saved dashboard could not be read ({}): {}", part.what, part.reason)));
    let servers = records
        .meta(SERVERS_KEY)
        .map(read_servers)
        .transpose()
        .unwrap_or_else(|error| {
            problems.push(format!("Your MCP server list could not be read: {error}"));
            None
        })
        .unwrap_or_default();
    Restored { session, library: library.value, servers, problems, store, writer, shared: None, set_aside }
}

/// What the person is told of a part of the last session that could not be restored, and where a
/// copy of it is kept.
fn set_aside_problem(part: &autoui_core::canvas::decode::SetAside, kept_as: Option<&str>) -> String {
    let kept = kept_as.map_or_else(String::new, |key| {
        format!(" A copy is kept in this browser's IndexedDB database \u{201c}autoui\u{201d}, store \u{201c}meta\u{201d}, as \u{201c}{key}\u{201d}.")
    });
    format!("Part of your last session could not be restored ({}): {}.{kept}", part.what, part.reason)
}

impl Restored {
    /// Writes the copies of what could not be restored, before any save can write over it.
    async fn keep_set_aside(&mut self) {
        let plan = std::mem::take(&mut self.set_aside);
        let Some(store) = self.store.as_ref().filter(|_| !plan.is_empty()) else { return };
        if let Err(error) = writing::commit(store, &plan).await {
            self.problems.push(format!("What could not be restored of your last session could not be kept aside either: {error}."));
        }
    }
}

/// Why the dashboards did not change.
#[derive(Debug)]
pub enum LibraryChangeError {
    /// The change itself is not possible (no name, no such dashboard).
    Invalid(LibraryError),
    /// The browser refused the write; the person was told why.
    Refused,
}

impl From<LibraryError> for LibraryChangeError {
    fn from(error: LibraryError) -> LibraryChangeError {
        LibraryChangeError::Invalid(error)
    }
}

/// Which tab writes the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The tab asked for the writer's lock and has no answer yet.
    Deciding,
    Writer,
    /// Another tab holds the lock; this one follows what it saves.
    Follower,
}

type Snapshot = Rc<dyn Fn() -> SessionState>;

struct Inner {
    store: Option<Rc<RecordStore>>,
    /// Tells the tabs following this one that a session write committed.
    channel: RefCell<Option<Channel>>,
    writer: RefCell<SessionWriter>,
    servers: RefCell<Vec<ServerConfig>>,
    pending: RefCell<Option<(TimeoutHandle, Snapshot)>>,
    /// A session write is being committed; a flush meanwhile waits for it (`again`).
    writing: Cell<bool>,
    /// What the write being committed saves, until it lands: a page closing meanwhile keeps it,
    /// since Chromium drops a write still uncommitted when the page goes.
    committing: RefCell<Option<Snapshot>>,
    /// A closing page's write is kept in local storage (the page may live on, from the
    /// back/forward cache): the next write that lands supersedes it.
    kept: Cell<bool>,
    again: RefCell<Option<Snapshot>>,
}

/// The page's store: the debounced session saver, the saved dashboards and the server configs.
#[derive(Clone, Copy)]
pub struct PersistCtx {
    inner: StoredValue<Rc<Inner>, LocalStorage>,
    library: RwSignal<DashboardLibrary>,
    /// The last write the browser refused, until a write goes through (shown in Settings).
    refused: RwSignal<Option<String>>,
    /// The browser's answer to the request for persistent storage, once asked.
    persistent: RwSignal<Option<bool>>,
    /// Whether this tab writes the store (`state/tabs.rs`); saves wait while it is not known.
    role: RwSignal<Role>,
    notices: NoticesCtx,
}

impl PersistCtx {
    /// Fetches the code that saves once the page has painted, so it is here before the first change
    /// is saved and a page closed soon after still saves it. The app calls it when nothing more
    /// urgent is loading (`ui/app.rs`); without a store there is nothing to save.
    pub fn fetch_writing_after_first_paint(&self) {
        if self.has_store() {
            after_first_paint(|| writing().request());
        }
    }

    /// Fetches the code that saves now, if it is not here or coming: the person is about to do
    /// something that may be saved.
    pub fn fetch_writing(&self) {
        if self.has_store() {
            writing().request();
        }
    }

    fn has_store(&self) -> bool {
        self.inner.with_value(|inner| inner.store.is_some())
    }

    /// The saved dashboards (tracked).
    pub fn library(&self) -> RwSignal<DashboardLibrary> {
        self.library
    }

    /// Why the last write was refused, if the browser refuses writes now (tracked).
    pub fn refused(&self) -> Option<String> {
        self.refused.get()
    }

    /// Whether the browser granted persistent storage, once asked (tracked).
    pub fn persistent(&self) -> Option<bool> {
        self.persistent.get()
    }

    /// The server configs read at start (the servers panel reconnects them).
    pub fn stored_servers(&self) -> Vec<ServerConfig> {
        self.inner.with_value(|inner| inner.servers.borrow().clone())
    }

    /// Schedules a save of what `snapshot` returns some milliseconds after the last change, so a
    /// burst of edits is one write; a pending save is flushed when the page is hidden or unloaded.
    pub fn schedule(&self, snapshot: impl Fn() -> SessionState + 'static) {
        let ctx = *self;
        let snapshot: Snapshot = Rc::new(snapshot);
        self.inner.with_value(|inner| {
            if let Some((handle, _)) = inner.pending.borrow_mut().take() {
                handle.clear();
            }
            if let Ok(handle) = set_timeout_with_handle(move || ctx.flush(), SAVE_DELAY) {
                *inner.pending.borrow_mut() = Some((handle, snapshot));
            }
        });
    }

    /// The page is going away: the save still waiting (for its delay, or for a write being
    /// committed), or else the write not yet committed, is begun now and also kept in local storage,
    /// which writes at once, because Chromium aborts an IndexedDB write still uncommitted as the page
    /// unloads. The next start commits it.
    fn flush_for_unload(&self) {
        let inner = self.inner.get_value();
        let pending = inner.pending.borrow_mut().take().map(|(handle, snapshot)| {
            handle.clear();
            snapshot
        });
        let waiting = pending.or_else(|| inner.again.borrow_mut().take());
        let Some(snapshot) = waiting.or_else(|| inner.committing.borrow().clone()) else { return };
        let (Some(store), Role::Writer, Some(code)) = (inner.store.clone(), self.role.get_untracked(), writing().ready()) else {
            return;
        };
        // Measured from what was confirmed, so it also carries a write still being committed.
        let write = (code.plan)(&inner.writer.borrow(), snapshot());
        if write.plan.is_empty() {
            return;
        }
        inner.kept.set(storage::set_raw(KEPT_WRITE_KEY, &(code.keep)(&write.plan)));
        let Ok(commit) = (code.begin)(&store, &write.plan) else { return };
        let ctx = *self;
        // Runs only if the page lives on (back/forward cache).
        leptos::task::spawn_local(async move {
            match commit.finished().await {
                Ok(()) => {
                    inner.writer.borrow_mut().confirm(write);
                    ctx.forget_kept_write();
                }
                Err(_) => ctx.write_session(snapshot),
            }
        });
    }

    /// A write measured after the kept one landed: the kept one is not needed any more.
    fn forget_kept_write(&self) {
        if self.inner.with_value(|inner| inner.kept.replace(false)) {
            storage::remove(KEPT_WRITE_KEY);
        }
    }

    /// Writes a scheduled save now, if there is one.
    pub fn flush(&self) {
        let Some(snapshot) = self.inner.with_value(|inner| inner.pending.borrow_mut().take()) else { return };
        snapshot.0.clear();
        self.write_session(snapshot.1);
    }

    fn write_session(&self, snapshot: Snapshot) {
        let inner = self.inner.get_value();
        let Some(store) = inner.store.clone() else { return };
        match self.role.get_untracked() {
            Role::Writer => {}
            // Written once this tab knows it is the writer.
            Role::Deciding => {
                *inner.again.borrow_mut() = Some(snapshot);
                return;
            }
            Role::Follower => return,
        }
        if inner.writing.get() {
            *inner.again.borrow_mut() = Some(snapshot);
            return;
        }
        let ctx = *self;
        let Some(code) = writing().ready() else {
            // The first save fetches the code that writes, then saves what is current by then.
            inner.writing.set(true);
            *inner.again.borrow_mut() = Some(snapshot);
            leptos::task::spawn_local(async move {
                let loaded = writing().load().await;
                inner.writing.set(false);
                let again = inner.again.borrow_mut().take();
                match loaded {
                    Ok(_) => {
                        if let Some(snapshot) = again {
                            ctx.write_session(snapshot);
                        }
                    }
                    Err(error) => ctx.report(&StoreError::NotLoaded(error.to_string()), "Your latest changes"),
                }
            });
            return;
        };
        // The main-thread part of a save: what the benchmark's "save of one small edit" measures.
        let span = Span::start("autoui-save");
        let write = (code.plan)(&inner.writer.borrow(), snapshot());
        if write.plan.is_empty() {
            return;
        }
        let after_kept = inner.kept.get();
        let begun = (code.begin)(&store, &write.plan);
        drop(span);
        inner.writing.set(true);
        *inner.committing.borrow_mut() = Some(snapshot);
        leptos::task::spawn_local(async move {
            let result = match begun {
                Ok(commit) => commit.finished().await,
                Err(error) => Err(error),
            };
            match result {
                Ok(()) => {
                    let note = saved_note(&written_keys(&write.plan));
                    inner.writer.borrow_mut().confirm(write);
                    if after_kept {
                        ctx.forget_kept_write();
                    }
                    ctx.refused.set(None);
                    if let Some(channel) = inner.channel.borrow().as_ref() {
                        channel.post(&note);
                    }
                }
                Err(error) => ctx.report(&error, "Your latest changes"),
            }
            inner.writing.set(false);
            inner.committing.borrow_mut().take();
            let again = inner.again.borrow_mut().take();
            if let Some(snapshot) = again {
                ctx.write_session(snapshot);
            }
        });
    }

    /// Saves `canvas` as the dashboard `name` (replacing one of that name) once the store has it.
    pub async fn save_dashboard(
        &self,
        name: &str,
        canvas: &autoui_core::canvas::model::Canvas,
    ) -> Result<Saved, LibraryChangeError> {
        let mut next = self.library.get_untracked();
        let first = next.list().is_empty();
        let saved = next.save(name, canvas, js_sys::Date::now())?;
        let dashboard = next.open(name)?.clone();
        self.commit(put_dashboard(&dashboard)).await.map_err(|_| LibraryChangeError::Refused)?;
        self.library.set(next);
        // Saved dashboards are work worth keeping: ask the browser not to clear them under pressure.
        if first && self.persistent.get_untracked().is_none() {
            let answer = quota::ask_to_persist().await;
            self.persistent.set(answer);
        }
        Ok(saved)
    }

    /// Adds `dashboards` in one write, none replacing another (a taken name gets a suffix);
    /// returns the names they were added under.
    pub async fn add_dashboards(&self, dashboards: Vec<Dashboard>) -> Result<Vec<String>, LibraryChangeError> {
        let mut next = self.library.get_untracked();
        let mut plan = WritePlan::default();
        let mut names = Vec::new();
        for dashboard in dashboards {
            let name = next.add_unique(dashboard);
            plan.extend(put_dashboard(next.open(&name)?));
            names.push(name);
        }
        self.commit(plan).await.map_err(|_| LibraryChangeError::Refused)?;
        self.library.set(next);
        Ok(names)
    }

    pub async fn delete_dashboard(&self, name: &str) -> Result<Dashboard, LibraryChangeError> {
        let mut next = self.library.get_untracked();
        let deleted = next.delete(name)?;
        self.commit(delete_dashboard(&deleted.name)).await.map_err(|_| LibraryChangeError::Refused)?;
        self.library.set(next);
        Ok(deleted)
    }

    /// Stores the server configs (one small record).
    pub fn save_servers(&self, configs: Vec<ServerConfig>) {
        // A follower reconnecting the stored servers learns their transports: nothing the person did.
        let same_servers = |stored: &Vec<ServerConfig>| {
            stored.iter().map(|config| &config.url).eq(configs.iter().map(|config| &config.url))
        };
        if self.role_now() == Role::Follower && self.inner.with_value(|inner| same_servers(&inner.servers.borrow())) {
            return;
        }
        let mut plan = WritePlan::default();
        plan.put(StoreName::Meta, SERVERS_KEY, servers_record(&configs));
        self.inner.with_value(|inner| *inner.servers.borrow_mut() = configs);
        let ctx = *self;
        leptos::task::spawn_local(async move {
            let _ = ctx.commit(plan).await;
        });
    }

    /// Whether this tab writes the store (tracked).
    pub fn role(&self) -> Role {
        self.role.get()
    }

    pub fn role_now(&self) -> Role {
        self.role.get_untracked()
    }

    /// This tab turned out to be the writer: what waited for that is written now.
    pub fn become_writer(&self, channel: Channel) {
        self.inner.with_value(|inner| *inner.channel.borrow_mut() = Some(channel));
        self.role.set(Role::Writer);
        let waiting = self.inner.with_value(|inner| inner.again.borrow_mut().take());
        if let Some(snapshot) = waiting {
            self.write_session(snapshot);
        }
    }

    /// Another tab writes the store: this one writes nothing and follows it.
    pub fn become_follower(&self) {
        self.role.set(Role::Follower);
        self.inner.with_value(|inner| {
            inner.again.borrow_mut().take();
            if let Some((handle, _)) = inner.pending.borrow_mut().take() {
                handle.clear();
            }
        });
    }

    /// The session as stored now (what the tab this one follows saved).
    pub async fn read_stored_session(&self) -> Option<SessionState> {
        let store = self.inner.with_value(|inner| inner.store.clone())?;
        let records = store.read_all().await.ok()?;
        let read = read_session(&records, &BrowserRandom, js_sys::Date::now()).ok()??;
        Some(read.loaded.value)
    }

    /// The session as stored now, reading only the records under `keys` (what one write put) and
    /// taking the rest from `earlier`; `None` when that cannot be done whole (read everything then).
    pub async fn read_stored_update(&self, keys: &[(StoreName, String)], earlier: &SessionState) -> Option<SessionState> {
        let store = self.inner.with_value(|inner| inner.store.clone())?;
        let records = store.read_keys(keys).await.ok()?;
        let read = read_session_update(&records, earlier, &BrowserRandom, js_sys::Date::now()).ok()??;
        // A record neither read nor known: a later write's, still to come; the whole store says.
        read.loaded.set_aside.is_empty().then_some(read.loaded.value)
    }

    /// Commits `plan`; a refusal is reported and returned as its message.
    async fn commit(&self, plan: WritePlan) -> Result<(), String> {
        let Some(store) = self.inner.with_value(|inner| inner.store.clone()) else {
            // No store: the browser refused one, or the last session could not be read and is kept untouched.
            let text = "This change is not saved: this page has no storage to save it in (see the notice from when it \
                        opened). Export the dashboard to keep it.";
            self.notices.error(text);
            return Err(text.to_owned());
        };
        if self.role.get_untracked() == Role::Follower {
            let text = "This change is not saved: the session is being edited in another tab of this browser.";
            self.notices.error(text);
            return Err(text.to_owned());
        }
        match writing::commit(&store, &plan).await {
            Ok(()) => {
                self.refused.set(None);
                Ok(())
            }
            Err(error) => {
                self.report(&error, "This change");
                Err(error.to_string())
            }
        }
    }

    fn report(&self, error: &StoreError, what: &str) {
        let text = match error {
            StoreError::Quota { bytes } => format!(
                "{what} could not be saved: the browser refused {} (its storage for this site is full). \
                 Everything on screen stays as it is and the last saved state is kept. To make room, delete saved \
                 dashboards or export your work (Export all), then keep going: the next change saves again.",
                megabytes(*bytes)
            ),
            other => format!("{what} could not be saved in this browser: {other}. The last saved state is kept."),
        };
        self.refused.set(Some(text.clone()));
        self.notices.error(text);
    }
}

/// What the writer posts to the tabs following it after a session write: the records it put.
fn saved_note(keys: &[(StoreName, String)]) -> String {
    let keys: Vec<[&str; 2]> = keys.iter().map(|(store, key)| [store.as_str(), key.as_str()]).collect();
    serde_json::json!({ "session": keys }).to_string()
}

/// The records a writer's note says it put; `None` for a note that does not say (read everything).
pub fn saved_keys(note: &str) -> Option<Vec<(StoreName, String)>> {
    let value: serde_json::Value = serde_json::from_str(note).ok()?;
    value
        .get("session")?
        .as_array()?
        .iter()
        .map(|pair| Some((StoreName::from_name(pair.get(0)?.as_str()?)?, pair.get(1)?.as_str()?.to_owned())))
        .collect()
}

/// `12.3 MB` (1 MB = 1,000,000 bytes), for messages.
pub fn megabytes(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1_000_000.0)
}

/// The store for this page from what [`restore`] read; reports its problems.
pub fn provide_persist(restored: &mut Restored, notices: NoticesCtx) -> PersistCtx {
    for problem in restored.problems.drain(..) {
        notices.error(problem);
    }
    // Without a store there is nothing to share with other tabs, nor to write.
    let role = if restored.store.is_some() { Role::Deciding } else { Role::Writer };
    let inner = Inner {
        store: restored.store.take(),
        channel: RefCell::new(None),
        writer: RefCell::new(std::mem::take(&mut restored.writer)),
        servers: RefCell::new(std::mem::take(&mut restored.servers)),
        pending: RefCell::new(None),
        writing: Cell::new(false),
        committing: RefCell::new(None),
        kept: Cell::new(false),
        again: RefCell::new(None),
    };
    let ctx = PersistCtx {
        inner: StoredValue::new_local(Rc::new(inner)),
        library: RwSignal::new(std::mem::take(&mut restored.library)),
        refused: RwSignal::new(None),
        persistent: RwSignal::new(None),
        role: RwSignal::new(role),
        notices,
    };
    let flush = window_event_listener(leptos::ev::pagehide, move |_| ctx.flush_for_unload());
    // A phone may end a hidden page without `pagehide`, and a hidden page's timers may never fire:
    // the save waiting for its delay is begun as soon as the page is hidden.
    let hide = window_event_listener_untyped("visibilitychange", move |_| {
        if !page_visible() {
            ctx.flush();
        }
    });
    on_cleanup(move || {
        flush.remove();
        hide.remove();
    });
    provide_context(ctx);
    ctx
}

pub fn use_persist() -> PersistCtx {
    expect_context::<PersistCtx>()
}
