//! The result buffer: the full, untruncated text of every tool result of the conversation, so
//! `recall` can return what truncation and compression took out of the model's context. A remote
//! server's result is handed back to `recall` under that server's frame line, as the model first saw it.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::agent::frame::framed;
use crate::ids::ServerId;
use crate::tool::ResultStore;

/// Memory the buffer may hold before it forgets its oldest results; the store keeps the same.
pub const DEFAULT_CAPACITY_BYTES: usize = 64_000_000;
/// How many forgotten ids are remembered, so `recall` can tell "forgotten" from "never was".
const EVICTED_REMEMBERED: usize = 1_000;

/// Shared as `Rc<ResultBuffer>` between the agent session (which fills it) and the `recall` tool (which reads it).
#[derive(Debug)]
pub struct ResultBuffer {
    state: RefCell<State>,
}

#[derive(Debug)]
struct State {
    results: HashMap<String, Arc<str>>,
    /// The remote server each result of a remote server came from (not persisted: the calls say it).
    servers: HashMap<String, ServerId>,
    order: VecDeque<String>,
    bytes: usize,
    capacity: usize,
    evicted: VecDeque<String>,
}

/// One stored result, for persisting a conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredResult {
    pub id: String,
    pub text: Arc<str>,
}

impl Default for ResultBuffer {
    fn default() -> ResultBuffer {
        ResultBuffer::with_capacity(DEFAULT_CAPACITY_BYTES)
    }
}

impl ResultBuffer {
    pub fn new() -> ResultBuffer {
        ResultBuffer::default()
    }

    /// A buffer that forgets its oldest results once they add up to more than `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> ResultBuffer {
        ResultBuffer {
            state: RefCell::new(State {
                results: HashMap::new(),
                servers: HashMap::new(),
                order: VecDeque::new(),
                bytes: 0,
                capacity,
                evicted: VecDeque::new(),
            }),
        }
    }

    /// Stores the full result of call `id` (replacing an earlier one with the same id).
    pub fn insert(&self, id: &str, text: Arc<str>) {
        let mut state = self.state.borrow_mut();
        state.servers.remove(id);
        if let Some(previous) = state.results.insert(id.to_owned(), text.clone()) {
            state.bytes -= previous.len();
            state.order.retain(|known| known != id);
        }
        state.bytes += text.len();
        state.order.push_back(id.to_owned());
        state.evicted.retain(|forgotten| forgotten != id);
        // The newest result is kept even if it alone exceeds the capacity.
        while state.bytes > state.capacity && state.order.len() > 1 {
            let Some(oldest) = state.order.pop_front() else { break };
            if let Some(dropped) = state.results.remove(&oldest) {
                state.bytes -= dropped.len();
            }
            state.servers.remove(&oldest);
            state.remember_evicted(oldest);
        }
    }

    /// Stores the full result of call `id`, which the remote MCP server `server` sent.
    pub fn insert_from(&self, id: &str, text: Arc<str>, server: ServerId) {
        self.insert(id, text);
        self.attribute(id, server);
    }

    /// Notes that the stored result of call `id` came from the remote MCP server `server` (a
    /// restored conversation's calls say which did).
    pub fn attribute(&self, id: &str, server: ServerId) {
        let mut state = self.state.borrow_mut();
        if state.results.contains_key(id) {
            state.servers.insert(id.to_owned(), server);
        }
    }

    pub fn get(&self, id: &str) -> Option<Arc<str>> {
        self.state.borrow().results.get(id).cloned()
    }

    pub fn contains(&self, id: &str) -> bool {
        self.state.borrow().results.contains_key(id)
    }

    pub fn len(&self) -> usize {
        self.state.borrow().results.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn clear(&self) {
        let mut state = self.state.borrow_mut();
        state.results.clear();
        state.servers.clear();
        state.order.clear();
        state.bytes = 0;
        state.evicted.clear();
    }

    /// Ids forgotten to stay within the capacity, oldest first (the newest [`EVICTED_REMEMBERED`]).
    pub fn evicted(&self) -> Vec<String> {
        self.state.borrow().evicted.iter().cloned().collect()
    }

    /// Everything stored, oldest first.
    pub fn entries(&self) -> Vec<StoredResult> {
        let state = self.state.borrow();
        state
            .order
            .iter()
            .filter_map(|id| state.results.get(id).map(|text| StoredResult { id: id.clone(), text: text.clone() }))
            .collect()
    }

    /// Replaces the contents with `entries` and the list of forgotten ids (restoring a persisted
    /// conversation).
    pub fn restore(&self, entries: Vec<StoredResult>, evicted: Vec<String>) {
        self.clear();
        for id in evicted {
            self.state.borrow_mut().remember_evicted(id);
        }
        for entry in entries {
            self.insert(&entry.id, entry.text);
        }
    }
}

impl State {
    fn remember_evicted(&mut self, id: String) {
        self.evicted.push_back(id);
        if self.evicted.len() > EVICTED_REMEMBERED {
            self.evicted.pop_front();
        }
    }
}

impl ResultStore for ResultBuffer {
    /// A remote server's result comes under its frame line: `recall` belongs to the built-in server,
    /// and what it hands back must still read as that server's data.
    fn full_result(&self, call_id: &str) -> Option<String> {
        let state = self.state.borrow();
        let text = state.results.get(call_id)?;
        Some(match state.servers.get(call_id) {
            Some(server) => framed(server, text),
            None => text.to_string(),
        })
    }

    fn known_ids(&self) -> Vec<String> {
        self.state.borrow().order.iter().cloned().collect()
    }

    fn evicted(&self, call_id: &str) -> Option<usize> {
        let state = self.state.borrow();
        state.evicted.iter().any(|id| id == call_id).then_some(state.capacity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_results_are_forgotten_past_the_capacity_but_never_the_newest() {
        let buffer = ResultBuffer::with_capacity(10);
        buffer.insert("a", Arc::from("12345"));
        buffer.insert("b", Arc::from("12345"));
        buffer.insert("c", Arc::from("12345"));
        assert_eq!(buffer.known_ids(), ["b", "c"]);
        buffer.insert("huge", Arc::from("x".repeat(50).as_str()));
        assert_eq!(buffer.known_ids(), ["huge"]);
        assert_eq!(buffer.evicted(), ["a", "b", "c"]);
        assert_eq!(ResultStore::evicted(&buffer, "a"), Some(10));
        assert_eq!(ResultStore::evicted(&buffer, "never"), None);
    }

    #[test]
    fn a_remote_servers_result_is_handed_back_under_its_frame_line_and_stored_as_sent() {
        let buffer = ResultBuffer::new();
        let people = ServerId::sanitize("people");
        buffer.insert_from("a", Arc::from("rows"), people.clone());
        assert_eq!(buffer.full_result("a"), Some(framed(&people, "rows")));
        assert_eq!(buffer.get("a").as_deref(), Some("rows"));
        buffer.insert("a", Arc::from("local"));
        assert_eq!(buffer.full_result("a").as_deref(), Some("local"), "a result stored again is the new one's");
        buffer.attribute("never", people);
        assert_eq!(buffer.full_result("never"), None);
    }

    #[test]
    fn storing_an_id_again_replaces_it() {
        let buffer = ResultBuffer::new();
        buffer.insert("a", Arc::from("old"));
        buffer.insert("a", Arc::from("new"));
        assert_eq!(buffer.full_result("a").as_deref(), Some("new"));
        assert_eq!(buffer.known_ids(), ["a"]);
    }
}
