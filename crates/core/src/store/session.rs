//! The current session in records: the canvas (one record per block), the conversation (one per
//! message), the result buffer (one per result) and a small index naming them, written as the
//! difference from what the store is known to hold, so moving one widget writes two small records
//! even when the canvas holds megabytes of tables.

use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::agent::buffer::StoredResult;
use crate::agent::session::{ActivatedServer, SessionSnapshot};
use crate::canvas::decode::{DecodeContext, SetAside, decode_canvas};
use crate::canvas::model::{Block, Canvas};
use crate::canvas::persist::{Loaded, PersistError};
use crate::ids::BlockId;
use crate::llm::message::Message;
use crate::ports::Random;
use crate::store::{LAYOUT_VERSION, SESSION_KEY, StoreName, StoredRecords, WritePlan};
use crate::tool::Origin;

const SESSION: &str = "session";

/// What survives a reload: the canvas and the agent's conversation with its activated servers and
/// the full results `recall` reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SessionState {
    pub canvas: Canvas,
    pub agent: SessionSnapshot,
}

/// The session's index record.
#[derive(Debug, Serialize, Deserialize)]
struct SessionIndex {
    autoui: String,
    version: u64,
    blocks: Vec<String>,
    messages: usize,
    #[serde(default)]
    activated: Vec<ActivatedServer>,
    #[serde(default)]
    results: Vec<String>,
    #[serde(default)]
    evicted: Vec<String>,
}

/// What the store holds as far as this page knows (the last committed write, or what was read).
#[derive(Debug, Default)]
struct Written {
    blocks: HashMap<BlockId, Block>,
    messages: Vec<Message>,
    results: HashMap<String, Arc<str>>,
    index: String,
    /// Records found at start that no index names (left by a write this page did not make); the
    /// next write deletes them.
    orphans: Vec<(StoreName, String)>,
}

/// Turns session states into the smallest write that makes the store hold them.
#[derive(Debug, Default)]
pub struct SessionWriter {
    written: Written,
}

/// A write to commit; hand it back to [`SessionWriter::confirm`] once the store committed it.
#[derive(Debug)]
pub struct PendingWrite {
    pub plan: WritePlan,
    written: Written,
}

impl SessionWriter {
    /// A writer for a store that holds `stored` (what [`read_session`] returned) and `orphans`.
    pub fn restored(stored: &SessionState, orphans: Vec<(StoreName, String)>) -> SessionWriter {
        let mut written = written_from(stored.clone());
        written.orphans = orphans;
        SessionWriter { written }
    }

    /// The write that makes the store hold `state`: changed or new records, deletions of those that
    /// are gone, and the index when it changed. Empty when nothing changed.
    pub fn plan(&self, state: SessionState) -> PendingWrite {
        let mut plan = WritePlan::default();
        let old = &self.written;
        for (store, key) in &old.orphans {
            plan.delete(*store, key.clone());
        }
        for block in state.canvas.blocks() {
            if !old.blocks.get(&block.id).is_some_and(|known| known.same_as(block)) {
                plan.put(StoreName::Blocks, block.id.as_str(), encode_block(block));
            }
        }
        for id in old.blocks.keys() {
            if state.canvas.get(id).is_none() {
                plan.delete(StoreName::Blocks, id.as_str());
            }
        }
        let messages = &state.agent.messages;
        for (position, message) in messages.iter().enumerate() {
            if old.messages.get(position) != Some(message) {
                let text = to_text(message);
                plan.put(StoreName::Messages, message_key(position), text);
            }
        }
        for position in messages.len()..old.messages.len() {
            plan.delete(StoreName::Messages, message_key(position));
        }
        let mut current = HashMap::new();
        for StoredResult { id, text } in &state.agent.results {
            let same = old.results.get(id).is_some_and(|known| Arc::ptr_eq(known, text) || known == text);
            if !same {
                plan.put(StoreName::Results, id.clone(), text.to_string());
            }
            current.insert(id.as_str(), ());
        }
        for id in old.results.keys() {
            if !current.contains_key(id.as_str()) {
                plan.delete(StoreName::Results, id.clone());
            }
        }
        let written = written_from(state);
        if written.index != old.index {
            plan.put(StoreName::Meta, SESSION_KEY, written.index.clone());
        }
        PendingWrite { plan, written }
    }

    /// The store committed `write`: later plans are made against it.
    pub fn confirm(&mut self, write: PendingWrite) {
        self.written = write.written;
    }
}

fn written_from(state: SessionState) -> Written {
    let index = SessionIndex {
        autoui: SESSION.to_owned(),
        version: LAYOUT_VERSION,
        blocks: state.canvas.blocks().iter().map(|block| block.id.as_str().to_owned()).collect(),
        messages: state.agent.messages.len(),
        activated: state.agent.activated,
        results: state.agent.results.iter().map(|result| result.id.clone()).collect(),
        evicted: state.agent.evicted,
    };
    Written {
        blocks: state.canvas.blocks().iter().map(|block| (block.id.clone(), block.clone())).collect(),
        messages: state.agent.messages,
        results: state.agent.results.into_iter().map(|result| (result.id, result.text)).collect(),
        index: to_text(&index),
        orphans: Vec::new(),
    }
}

fn encode_block(block: &Block) -> String {
    to_text(block)
}

/// JSON text through a `Value`: the app already carries the `Value` encoders of these types, and a
/// second, direct-to-text instantiation of each would add to the first load for no gain.
fn to_text(value: &impl Serialize) -> String {
    serde_json::to_value(value).map(|value| value.to_string()).unwrap_or_default()
}

/// A value from JSON text through a `Value`, for the same reason.
pub(crate) fn from_text<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    serde_json::from_str::<Value>(text).and_then(serde_json::from_value)
}

/// Messages sort by key in the store, so positions are zero-padded.
fn message_key(position: usize) -> String {
    format!("{position:08}")
}

/// A session read back, with the records no index named (to delete at the next write).
#[derive(Debug, PartialEq)]
pub struct ReadSession {
    pub loaded: Loaded<SessionState>,
    pub orphans: Vec<(StoreName, String)>,
}

/// Reads the session from `records`; `Ok(None)` when none is stored. A block or result the index
/// names but the store lacks is reported; a conversation with a missing or unreadable message is
/// set aside whole (dropping one could leave a tool call without its result, which providers reject).
pub fn read_session(
    records: &StoredRecords,
    random: &dyn Random,
    now_ms: f64,
) -> Result<Option<ReadSession>, PersistError> {
    let Some(text) = records.meta(SESSION_KEY) else { return Ok(None) };
    let index = read_index(text)?;
    let mut set_aside = Vec::new();

    let blocks: HashMap<&str, &str> = records.blocks.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut items = Vec::new();
    for id in &index.blocks {
        match blocks.get(id.as_str()).map(|text| serde_json::from_str::<Value>(text)) {
            Some(Ok(value)) => items.push(value),
            Some(Err(error)) => set_aside.push(missing(format!("block {id}"), error.to_string(), Value::Null)),
            None => set_aside.push(missing(format!("block {id}"), "its record is missing".to_owned(), Value::Null)),
        }
    }
    let context = DecodeContext { random, now_ms, default_origin: Origin::User };
    let (canvas, skipped) = decode_canvas(&items, &context);
    set_aside.extend(skipped);

    let messages = read_messages(records, index.messages, &mut set_aside);
    let stored: HashMap<&str, &str> = records.results.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let results = index
        .results
        .iter()
        .filter_map(|id| stored.get(id.as_str()).map(|text| StoredResult { id: id.clone(), text: Arc::from(*text) }))
        .collect();

    let orphans = orphans_of(records, &index);
    let agent = SessionSnapshot { messages, activated: index.activated, results, evicted: index.evicted };
    Ok(Some(ReadSession { loaded: Loaded { value: SessionState { canvas, agent }, set_aside }, orphans }))
}

fn read_index(text: &str) -> Result<SessionIndex, PersistError> {
    let value: Value = serde_json::from_str(text)
        .map_err(|error| PersistError::NotJson { expected: SESSION, reason: error.to_string() })?;
    match value.get("version").and_then(Value::as_u64) {
        Some(LAYOUT_VERSION) => {}
        Some(found) if found > LAYOUT_VERSION => {
            return Err(PersistError::NewerVersion { expected: SESSION, found, supported: LAYOUT_VERSION });
        }
        _ => {
            let found = value.get("version").map_or_else(|| "none".to_owned(), Value::to_string);
            return Err(PersistError::UnknownVersion { expected: SESSION, found });
        }
    }
    serde_json::from_value(value).map_err(|error| PersistError::WrongDocument {
        expected: SESSION,
        found: format!("an index that does not read ({error})"),
    })
}

fn read_messages(records: &StoredRecords, count: usize, set_aside: &mut Vec<SetAside>) -> Vec<Message> {
    let stored: HashMap<&str, &str> = records.messages.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut messages = Vec::with_capacity(count);
    let mut raw = Vec::with_capacity(count);
    let mut failure = None;
    for position in 0..count {
        let Some(text) = stored.get(message_key(position).as_str()) else {
            failure.get_or_insert_with(|| format!("message {} is missing", position + 1));
            continue;
        };
        let value = serde_json::from_str::<Value>(text);
        raw.push(value.as_ref().map_or_else(|_| Value::String((*text).to_owned()), Value::clone));
        match value.and_then(serde_json::from_value::<Message>) {
            Ok(message) => messages.push(message),
            Err(error) => {
                failure.get_or_insert_with(|| format!("message {}: {error}", position + 1));
            }
        }
    }
    match failure {
        None => messages,
        Some(reason) => {
            set_aside.push(missing("conversation".to_owned(), reason, Value::Array(raw)));
            Vec::new()
        }
    }
}

fn orphans_of(records: &StoredRecords, index: &SessionIndex) -> Vec<(StoreName, String)> {
    let blocks: std::collections::HashSet<&str> = index.blocks.iter().map(String::as_str).collect();
    let results: std::collections::HashSet<&str> = index.results.iter().map(String::as_str).collect();
    let messages: std::collections::HashSet<String> = (0..index.messages).map(message_key).collect();
    let mut orphans = Vec::new();
    orphans.extend(records.blocks.iter().filter(|(k, _)| !blocks.contains(k.as_str())).map(|(k, _)| (StoreName::Blocks, k.clone())));
    orphans.extend(records.messages.iter().filter(|(k, _)| !messages.contains(k)).map(|(k, _)| (StoreName::Messages, k.clone())));
    orphans.extend(records.results.iter().filter(|(k, _)| !results.contains(k.as_str())).map(|(k, _)| (StoreName::Results, k.clone())));
    orphans
}

fn missing(what: String, reason: String, raw: Value) -> SetAside {
    SetAside { what, reason, raw }
}
