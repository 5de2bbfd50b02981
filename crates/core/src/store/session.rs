//! The current session in records: the canvas (one record per block), the conversation (one per
//! message), the result buffer (one per result) and a small index naming them, written as the
//! difference from what the store is known to hold, so moving one widget writes two small records
//! even when the canvas holds megabytes of tables.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::agent::buffer::StoredResult;
use crate::agent::session::{ActivatedServer, ServerTools, SessionSnapshot};
use crate::canvas::decode::{DecodeContext, SetAside, decode_canvas};
use crate::canvas::model::{Block, Canvas};
use crate::canvas::persist::{Loaded, PersistError};
use crate::ids::{BlockId, ServerId};
use crate::llm::message::{ContentBlock, Message, Role};
use crate::ports::Random;
use crate::store::{LAYOUT_VERSION, Record, SESSION_KEY, StoreName, StoredRecords, WritePlan};
use crate::tool::Origin;

const SESSION: &str = "session";

/// What survives a reload: the canvas and the agent's conversation with its activated servers and
/// the full results `recall` reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SessionState {
    pub canvas: Canvas,
    pub agent: SessionSnapshot,
    /// The canvas came from an imported file and the person has not allowed its buttons to message
    /// the agent yet: a reload must not allow them.
    pub imported: bool,
    /// The dashboard's name: the one it was last saved or opened under, or its file's or link's title.
    pub name: Option<String>,
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
    /// Servers whose tool lists are stored, each in its own record (`tools_key`).
    #[serde(default)]
    tool_lists: Vec<ServerId>,
    #[serde(default)]
    in_flight: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    imported: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    /// The views the conversation's calls placed, by call id (small: a view's input and result).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    views: BTreeMap<String, Value>,
}

/// What the store holds as far as this page knows (the last committed write, or what was read).
#[derive(Debug, Default)]
struct Written {
    blocks: HashMap<BlockId, Block>,
    messages: Vec<Message>,
    results: HashMap<String, Arc<str>>,
    tool_lists: HashMap<ServerId, ServerTools>,
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
        for list in &state.agent.tool_lists {
            if old.tool_lists.get(&list.server) != Some(list) {
                plan.put(StoreName::Meta, tools_key(&list.server), to_text(list));
            }
        }
        for server in old.tool_lists.keys() {
            if !state.agent.tool_lists.iter().any(|list| &list.server == server) {
                plan.delete(StoreName::Meta, tools_key(server));
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
        tool_lists: state.agent.tool_lists.iter().map(|list| list.server.clone()).collect(),
        in_flight: state.agent.in_flight,
        imported: state.imported,
        name: state.name,
        views: state.agent.views,
    };
    Written {
        blocks: state.canvas.blocks().iter().map(|block| (block.id.clone(), block.clone())).collect(),
        messages: state.agent.messages,
        results: state.agent.results.into_iter().map(|result| (result.id, result.text)).collect(),
        tool_lists: state.agent.tool_lists.into_iter().map(|list| (list.server.clone(), list)).collect(),
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

/// Key of a server's tool list in [`StoreName::Meta`].
fn tools_key(server: &ServerId) -> String {
    format!("{TOOLS_PREFIX}{server}")
}

const TOOLS_PREFIX: &str = "tools/";

/// The write that keeps what a read set aside, so the next write (which stores the session as it
/// loaded) does not lose it: each part in [`StoreName::Meta`] under `set-aside/<time>/<what>`, a key
/// no session index names and no write deletes, unless `stored` already keeps it (a reload before
/// the next write finds the same part again). Returns the plan and each part's key.
pub fn keep_set_aside(parts: &[SetAside], stored: &StoredRecords, now_ms: f64) -> (WritePlan, Vec<String>) {
    let mut plan = WritePlan::default();
    let keys = parts
        .iter()
        .map(|part| {
            let value = serde_json::json!({ "what": part.what, "raw": part.raw }).to_string();
            let kept = stored.meta.iter().find(|(key, text)| key.starts_with(SET_ASIDE_PREFIX) && *text == value);
            match kept {
                Some((key, _)) => key.clone(),
                None => {
                    let key = format!("{SET_ASIDE_PREFIX}{}/{}", now_ms as u64, part.what);
                    plan.puts.push(Record { store: StoreName::Meta, key: key.clone(), value });
                    key
                }
            }
        })
        .collect();
    (plan, keys)
}

const SET_ASIDE_PREFIX: &str = "set-aside/";

/// Messages sort by key in the store, so positions are zero-padded.
fn message_key(position: usize) -> String {
    format!("{position:08}")
}

/// A session read back, with the records no index named (to delete at the next write).
#[derive(Debug, PartialEq)]
pub struct ReadSession {
    pub loaded: Loaded<SessionState>,
    pub orphans: Vec<(StoreName, String)>,
    /// Something was set aside, so the stored index names records the session no longer holds:
    /// the next write rewrites it.
    index_stale: bool,
}

impl ReadSession {
    /// The writer for the store this was read from; its next write deletes the orphans and, when
    /// something was set aside, the records of it and the index naming them (a copy kept by
    /// [`keep_set_aside`] stays).
    pub fn writer(&self) -> SessionWriter {
        let mut writer = SessionWriter::restored(&self.loaded.value, self.orphans.clone());
        if self.index_stale {
            writer.written.index.clear();
        }
        writer
    }
}

/// Reads the session from `records`; `Ok(None)` when none is stored. A block or result the index
/// names but the store lacks is reported; a conversation with a missing or unreadable message is
/// set aside whole and its readable part up to the last finished answer kept (dropping one message
/// could leave a tool call without its result, which providers reject).
pub fn read_session(
    records: &StoredRecords,
    random: &dyn Random,
    now_ms: f64,
) -> Result<Option<ReadSession>, PersistError> {
    read_over::<false>(records, None, random, now_ms)
}

/// The session after a write another tab committed, read from `records` holding the index and the
/// records that write put (see [`written_keys`]): what the index names and `records` lacks is taken
/// from `earlier` as it is, so an unchanged block keeps its data (`Arc`) and is not shown again.
pub fn read_session_update(
    records: &StoredRecords,
    earlier: &SessionState,
    random: &dyn Random,
    now_ms: f64,
) -> Result<Option<ReadSession>, PersistError> {
    read_over::<true>(records, Some(earlier), random, now_ms)
}

/// The records a committed `plan` put, with the session's index, which a tab following the writer
/// reads to catch up (deleted records need no reading: the index no longer names them).
pub fn written_keys(plan: &WritePlan) -> Vec<(StoreName, String)> {
    let mut keys: Vec<(StoreName, String)> = plan.puts.iter().map(|record| (record.store, record.key.clone())).collect();
    if !keys.iter().any(|(store, key)| *store == StoreName::Meta && key == SESSION_KEY) {
        keys.push((StoreName::Meta, SESSION_KEY.to_owned()));
    }
    keys
}

/// `FOLLOWING` makes two copies: a restore's has none of the code that takes records from
/// `earlier`, so that code is not in the first load.
fn read_over<const FOLLOWING: bool>(
    records: &StoredRecords,
    earlier: Option<&SessionState>,
    random: &dyn Random,
    now_ms: f64,
) -> Result<Option<ReadSession>, PersistError> {
    let earlier = if FOLLOWING { earlier } else { None };
    let Some(text) = records.meta(SESSION_KEY) else { return Ok(None) };
    let index = read_index(text)?;
    let mut set_aside = Vec::new();

    let mut orphans = match earlier {
        Some(_) => Vec::new(),
        None => orphans_of(records, &index),
    };
    let blocks: HashMap<&str, &str> = records.blocks.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut items = Vec::new();
    let mut kept = HashMap::new();
    for id in &index.blocks {
        let earlier_block = || earlier.and_then(|state| state.canvas.get(&BlockId::new(id.as_str())));
        match blocks.get(id.as_str()).map(|text| (text, serde_json::from_str::<Value>(text))) {
            Some((_, Ok(value))) => items.push(value),
            // Kept as its text, so what could not be read is not lost with the next write.
            Some((text, Err(error))) => {
                set_aside.push(missing(format!("block {id}"), error.to_string(), Value::String((*text).to_owned())))
            }
            None => match earlier_block() {
                Some(block) => {
                    kept.insert(id.as_str(), block.clone());
                }
                None => set_aside.push(missing(format!("block {id}"), "its record is missing".to_owned(), Value::Null)),
            },
        }
    }
    let context = DecodeContext { random, now_ms, default_origin: Origin::User };
    let (decoded, skipped) = decode_canvas(items, &context);
    set_aside.extend(skipped);
    let canvas = if kept.is_empty() {
        decoded
    } else {
        // In the index's order, each block as read or as it was.
        let mut read: HashMap<BlockId, Block> = decoded.blocks.into_iter().map(|block| (block.id.clone(), block)).collect();
        let blocks = index
            .blocks
            .iter()
            .filter_map(|id| kept.remove(id.as_str()).or_else(|| read.remove(&BlockId::new(id.as_str()))))
            .collect();
        Canvas { blocks }
    };

    let messages = read_messages(records, index.messages, earlier.map(|state| state.agent.messages.as_slice()), &mut set_aside);
    let stored: HashMap<&str, &str> = records.results.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let earlier_results: HashMap<&str, &Arc<str>> = earlier
        .map(|state| state.agent.results.iter().map(|result| (result.id.as_str(), &result.text)).collect())
        .unwrap_or_default();
    let results = index
        .results
        .iter()
        .filter_map(|id| match stored.get(id.as_str()) {
            Some(text) => Some(StoredResult { id: id.clone(), text: Arc::from(*text) }),
            None => earlier_results.get(id.as_str()).map(|text| StoredResult { id: id.clone(), text: Arc::clone(text) }),
        })
        .collect();

    // A tool list that does not read is only a head start lost: the server's own list comes on connecting.
    let tool_lists = index
        .tool_lists
        .iter()
        .filter_map(|server| match records.meta(&tools_key(server)) {
            Some(text) => from_text::<ServerTools>(text).ok(),
            None => earlier.and_then(|state| state.agent.tool_lists.iter().find(|list| &list.server == server)).cloned(),
        })
        .collect();


    let agent = SessionSnapshot {
        messages,
        activated: index.activated,
        tool_lists,
        results,
        evicted: index.evicted,
        in_flight: index.in_flight,
        views: index.views,
    };
    let index_stale = !FOLLOWING && !set_aside.is_empty();
    if index_stale {
        // What was set aside is kept apart (see `keep_set_aside`), not under the session's keys.
        let cut = agent.messages.len()..index.messages;
        orphans.extend(
            records
                .messages
                .iter()
                .filter(|(key, _)| key.parse::<usize>().is_ok_and(|position| cut.contains(&position)))
                .map(|(key, _)| (StoreName::Messages, key.clone())),
        );
        orphans.extend(
            index
                .blocks
                .iter()
                .filter(|id| canvas.get(&BlockId::new(id.as_str())).is_none() && blocks.contains_key(id.as_str()))
                .map(|id| (StoreName::Blocks, id.clone())),
        );
    }
    let value = SessionState { canvas, agent, imported: index.imported, name: index.name };
    Ok(Some(ReadSession { loaded: Loaded { value, set_aside }, orphans, index_stale }))
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

/// The conversation's `count` messages: each from its record, else (following a writer) as it was in
/// `earlier`.
fn read_messages(
    records: &StoredRecords,
    count: usize,
    earlier: Option<&[Message]>,
    set_aside: &mut Vec<SetAside>,
) -> Vec<Message> {
    let stored: HashMap<&str, &str> = records.messages.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut messages = Vec::with_capacity(count);
    let mut texts = Vec::with_capacity(count);
    let mut failure = None;
    for position in 0..count {
        let Some(text) = stored.get(message_key(position).as_str()) else {
            match earlier.and_then(|earlier| earlier.get(position)) {
                Some(message) => messages.push(message.clone()),
                None => {
                    failure.get_or_insert_with(|| (position, format!("message {} is missing", position + 1)));
                }
            }
            continue;
        };
        texts.push(*text);
        match from_text::<Message>(text) {
            Ok(message) => messages.push(message),
            Err(error) => {
                failure.get_or_insert_with(|| (position, format!("message {}: {error}", position + 1)));
            }
        }
    }
    match failure {
        None => messages,
        Some((position, reason)) => {
            // Kept as read: each message as JSON when it is JSON, else as its text.
            let raw = texts
                .iter()
                .map(|text| serde_json::from_str::<Value>(text).unwrap_or_else(|_| Value::String((*text).to_owned())))
                .collect();
            messages.truncate(position);
            messages.truncate(last_finished_turn(&messages));
            let reason = match messages.len() {
                0 => reason,
                kept => format!("{reason}; the conversation up to message {kept}, where an answer ended, was kept"),
            };
            set_aside.push(missing("conversation".to_owned(), reason, Value::Array(raw)));
            messages
        }
    }
}

/// How many of `messages` to keep so the conversation ends on a finished answer: an assistant
/// message that calls no tool (a cut inside a turn could leave a tool call without its result,
/// which providers reject).
fn last_finished_turn(messages: &[Message]) -> usize {
    messages
        .iter()
        .rposition(|message| {
            message.role == Role::Assistant
                && !message.content.iter().any(|block| matches!(block, ContentBlock::ToolUse { .. }))
        })
        .map_or(0, |position| position + 1)
}

fn orphans_of(records: &StoredRecords, index: &SessionIndex) -> Vec<(StoreName, String)> {
    let blocks: std::collections::HashSet<&str> = index.blocks.iter().map(String::as_str).collect();
    let results: std::collections::HashSet<&str> = index.results.iter().map(String::as_str).collect();
    let messages: std::collections::HashSet<String> = (0..index.messages).map(message_key).collect();
    let tool_lists: std::collections::HashSet<String> = index.tool_lists.iter().map(tools_key).collect();
    let mut orphans = Vec::new();
    orphans.extend(
        records
            .meta
            .iter()
            .filter(|(k, _)| k.starts_with(TOOLS_PREFIX) && !tool_lists.contains(k))
            .map(|(k, _)| (StoreName::Meta, k.clone())),
    );
    orphans.extend(records.blocks.iter().filter(|(k, _)| !blocks.contains(k.as_str())).map(|(k, _)| (StoreName::Blocks, k.clone())));
    orphans.extend(records.messages.iter().filter(|(k, _)| !messages.contains(k)).map(|(k, _)| (StoreName::Messages, k.clone())));
    orphans.extend(records.results.iter().filter(|(k, _)| !results.contains(k.as_str())).map(|(k, _)| (StoreName::Results, k.clone())));
    orphans
}

fn missing(what: String, reason: String, raw: Value) -> SetAside {
    SetAside { what, reason, raw }
}
