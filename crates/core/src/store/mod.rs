//! The record layout of the browser store (IndexedDB in the app): which object stores exist, what
//! one record under one key holds, and the write plans the app commits as one transaction each.
//!
//! Big things are split so that one small edit rewrites little: one record per canvas block, per
//! conversation message, per stored result and per saved dashboard. A small `meta` record says
//! which blocks, how many messages and which results make the current session, so a record that is
//! written but not (yet) named by it is never read. The adapter only moves these strings.

pub mod backup;
pub mod kept;
pub mod library;
pub mod migrate;
pub mod session;

use crate::sort::sort;

/// Version of the record layout (the localStorage documents were version 1).
pub const LAYOUT_VERSION: u64 = 2;

/// The object stores, each holding string values under string keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StoreName {
    /// Small documents: the session's index (`session`), the MCP server configs (`servers`).
    Meta,
    /// One canvas block per record, keyed by block id.
    Blocks,
    /// One conversation message per record, keyed by its zero-padded position.
    Messages,
    /// One full tool result per record, keyed by call id (the text as stored, not JSON).
    Results,
    /// One saved dashboard per record, keyed by its name.
    Dashboards,
}

impl StoreName {
    pub const ALL: [StoreName; 5] =
        [StoreName::Meta, StoreName::Blocks, StoreName::Messages, StoreName::Results, StoreName::Dashboards];

    pub fn from_name(name: &str) -> Option<StoreName> {
        StoreName::ALL.into_iter().find(|store| store.as_str() == name)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            StoreName::Meta => "meta",
            StoreName::Blocks => "blocks",
            StoreName::Messages => "messages",
            StoreName::Results => "results",
            StoreName::Dashboards => "dashboards",
        }
    }
}

/// Key of the session's index in [`StoreName::Meta`].
pub const SESSION_KEY: &str = "session";
/// Key of the MCP server configs in [`StoreName::Meta`].
pub const SERVERS_KEY: &str = "servers";

/// One value to write.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub store: StoreName,
    pub key: String,
    pub value: String,
}

/// What one transaction writes: every put and delete commits together or not at all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WritePlan {
    pub puts: Vec<Record>,
    pub deletes: Vec<(StoreName, String)>,
}

impl WritePlan {
    pub fn is_empty(&self) -> bool {
        self.puts.is_empty() && self.deletes.is_empty()
    }

    /// Bytes of text written (what a quota refusal reports as not fitting).
    pub fn bytes(&self) -> usize {
        self.puts.iter().map(|record| record.key.len() + record.value.len()).sum()
    }

    /// The stores the transaction must cover.
    pub fn stores(&self) -> Vec<StoreName> {
        let mut stores: Vec<StoreName> = self
            .puts
            .iter()
            .map(|record| record.store)
            .chain(self.deletes.iter().map(|(store, _)| *store))
            .collect();
        sort(&mut stores);
        stores.dedup();
        stores
    }

    pub fn put(&mut self, store: StoreName, key: impl Into<String>, value: impl Into<String>) {
        self.puts.push(Record { store, key: key.into(), value: value.into() });
    }

    pub fn delete(&mut self, store: StoreName, key: impl Into<String>) {
        self.deletes.push((store, key.into()));
    }

    pub fn extend(&mut self, other: WritePlan) {
        self.puts.extend(other.puts);
        self.deletes.extend(other.deletes);
    }
}

/// Everything read back from the store: each store's `(key, value)` pairs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StoredRecords {
    pub meta: Vec<(String, String)>,
    pub blocks: Vec<(String, String)>,
    pub messages: Vec<(String, String)>,
    pub results: Vec<(String, String)>,
    pub dashboards: Vec<(String, String)>,
}

impl StoredRecords {
    pub fn store_mut(&mut self, store: StoreName) -> &mut Vec<(String, String)> {
        match store {
            StoreName::Meta => &mut self.meta,
            StoreName::Blocks => &mut self.blocks,
            StoreName::Messages => &mut self.messages,
            StoreName::Results => &mut self.results,
            StoreName::Dashboards => &mut self.dashboards,
        }
    }

    pub fn meta(&self, key: &str) -> Option<&str> {
        self.meta.iter().find(|(found, _)| found == key).map(|(_, value)| value.as_str())
    }

    /// Applies a committed plan (tests and the in-memory double use it to play a store).
    pub fn apply(&mut self, plan: &WritePlan) {
        for (store, key) in &plan.deletes {
            self.store_mut(*store).retain(|(found, _)| found != key);
        }
        for record in &plan.puts {
            let records = self.store_mut(record.store);
            match records.iter_mut().find(|(found, _)| *found == record.key) {
                Some(existing) => existing.1 = record.value.clone(),
                None => records.push((record.key.clone(), record.value.clone())),
            }
        }
    }

    /// Nothing of ours is stored yet (a first visit, or one before the move from local storage).
    pub fn is_empty(&self) -> bool {
        self.meta.is_empty() && self.dashboards.is_empty()
    }
}
