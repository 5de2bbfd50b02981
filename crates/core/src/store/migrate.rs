//! The move from local storage (layout version 1: `autoui.session.v1`, `autoui.dashboards.v1`,
//! `autoui.servers.v1`) into records. The app writes the plan as one transaction and removes the
//! old documents only once it committed; a document that does not read stays where it was.

use crate::agent::session::SessionSnapshot;
use crate::canvas::decode::SetAside;
use crate::canvas::persist::{DashboardLibrary, PersistError, decode_session};
use crate::mcp::config::ServerConfig;
use crate::ports::Random;
use crate::store::library::put_library;
use crate::store::session::{PendingWrite, SessionState, SessionWriter, from_text};
use crate::store::{SERVERS_KEY, StoreName, WritePlan};

/// The local storage keys of version 1.
pub const LEGACY_SESSION_KEY: &str = "autoui.session.v1";
pub const LEGACY_DASHBOARDS_KEY: &str = "autoui.dashboards.v1";
pub const LEGACY_SERVERS_KEY: &str = "autoui.servers.v1";

/// The version 1 documents found in local storage, as text.
#[derive(Clone, Debug, Default)]
pub struct LegacyDocuments {
    pub session: Option<String>,
    pub dashboards: Option<String>,
    pub servers: Option<String>,
}

/// What the move brings, and the one write that stores it all.
#[derive(Debug)]
pub struct Migration {
    pub session: SessionState,
    pub library: DashboardLibrary,
    pub servers: Vec<ServerConfig>,
    pub set_aside: Vec<SetAside>,
    /// Documents that could not be read at all: they are not moved and stay in local storage.
    pub unreadable: Vec<(&'static str, PersistError)>,
    /// The keys to remove from local storage once `write` committed.
    pub moved: Vec<&'static str>,
    pub write: PendingWrite,
    /// Dashboards and servers, written in the same transaction as `write`.
    pub extra: WritePlan,
}

impl Migration {
    /// Everything to commit in one transaction.
    pub fn plan(&self) -> WritePlan {
        let mut plan = self.write.plan.clone();
        plan.extend(self.extra.clone());
        plan
    }
}

/// `None` when there is nothing to move.
pub fn migrate(documents: &LegacyDocuments, random: &dyn Random, now_ms: f64) -> Option<Migration> {
    if documents.session.is_none() && documents.dashboards.is_none() && documents.servers.is_none() {
        return None;
    }
    let mut set_aside = Vec::new();
    let mut unreadable = Vec::new();
    let mut moved = Vec::new();
    let mut session = SessionState::default();
    if let Some(text) = &documents.session {
        match decode_session(text, random, now_ms) {
            Ok(mut loaded) => {
                set_aside.append(&mut loaded.set_aside);
                let agent = SessionSnapshot { messages: loaded.value.conversation, ..SessionSnapshot::default() };
                session = SessionState { canvas: loaded.value.canvas, agent, imported: false, name: None };
                moved.push(LEGACY_SESSION_KEY);
            }
            Err(error) => unreadable.push((LEGACY_SESSION_KEY, error)),
        }
    }
    let mut library = DashboardLibrary::default();
    if let Some(text) = &documents.dashboards {
        match DashboardLibrary::decode(text, random, now_ms) {
            Ok(mut loaded) => {
                set_aside.append(&mut loaded.set_aside);
                library = loaded.value;
                moved.push(LEGACY_DASHBOARDS_KEY);
            }
            Err(error) => unreadable.push((LEGACY_DASHBOARDS_KEY, error)),
        }
    }
    let mut servers = Vec::new();
    let mut extra = put_library(&library);
    if let Some(text) = &documents.servers {
        match from_text::<Vec<ServerConfig>>(text) {
            Ok(configs) => {
                extra.put(StoreName::Meta, SERVERS_KEY, servers_record(&configs));
                servers = configs;
                moved.push(LEGACY_SERVERS_KEY);
            }
            Err(error) => unreadable.push((
                LEGACY_SERVERS_KEY,
                PersistError::NotJson { expected: "server list", reason: error.to_string() },
            )),
        }
    }
    let write = SessionWriter::default().plan(session.clone());
    Some(Migration { session, library, servers, set_aside, unreadable, moved, write, extra })
}

/// The server configs as their record's value.
pub fn servers_record(configs: &[ServerConfig]) -> String {
    serde_json::to_value(configs).map_or_else(|_| "[]".to_owned(), |value| value.to_string())
}

/// The server configs from their record's value.
pub fn read_servers(text: &str) -> Result<Vec<ServerConfig>, serde_json::Error> {
    from_text(text)
}
