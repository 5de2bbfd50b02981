//! The versioned storage format for the current session (canvas and conversation) and for the
//! library of named dashboards.
//!
//! Every stored document starts with `{"autoui": "<kind>", "version": <n>}`. Reading never panics:
//! a document that is not ours, not JSON or from a newer version is a typed [`PersistError`] (the
//! app reports it and sets the raw text aside); inside a readable document, a bad block, message
//! list or dashboard is set aside on its own ([`Loaded::set_aside`]) and the rest loads.
//! Version 1 is the first format; when a version 2 comes, `decode_*` gains a migration step from 1.

use serde_json::{Map, Value, json};

use crate::canvas::decode::{DecodeContext, SetAside, decode_canvas};
use crate::canvas::model::Canvas;
use crate::llm::message::Message;
use crate::ports::Random;
use crate::sort::sort_by;
use crate::tool::Origin;

/// The storage format version this build writes and the newest it reads.
pub const STORAGE_VERSION: u64 = 1;
/// Longest dashboard name, in characters.
pub const MAX_NAME_CHARS: usize = 80;

/// A name from outside (a file's or a share link's title) as the app shows and saves names: one line,
/// control and bidirectional-override characters as spaces, runs of spaces as one, at most
/// [`MAX_NAME_CHARS`] (cut with "…"); `None` when nothing readable is left.
pub fn readable_name(raw: &str) -> Option<String> {
    let spaced: String = raw
        .chars()
        .map(|c| if c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') { ' ' } else { c })
        .collect();
    let name = spaced.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        return None;
    }
    if name.chars().count() <= MAX_NAME_CHARS {
        return Some(name);
    }
    let kept: String = name.chars().take(MAX_NAME_CHARS - 1).collect();
    Some(format!("{}\u{2026}", kept.trim_end()))
}

const SESSION: &str = "session";
const LIBRARY: &str = "dashboards";

/// What survives a reload.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Session {
    pub canvas: Canvas,
    pub conversation: Vec<Message>,
}

/// A value read from storage, and the parts of it that could not be read.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded<T> {
    pub value: T,
    pub set_aside: Vec<SetAside>,
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PersistError {
    #[error("the stored {expected} is not valid JSON: {reason}")]
    NotJson {
        expected: &'static str,
        reason: String,
    },
    #[error("the stored document is not an autoui {expected} (it is {found})")]
    WrongDocument {
        expected: &'static str,
        found: String,
    },
    #[error(
        "the stored {expected} was written by a newer autoui (format {found}); this version reads up to {supported}"
    )]
    NewerVersion {
        expected: &'static str,
        found: u64,
        supported: u64,
    },
    #[error("the stored {expected} has no readable version (found {found})")]
    UnknownVersion {
        expected: &'static str,
        found: String,
    },
}

pub fn encode_session(session: &Session, saved_ms: f64) -> String {
    json!({
        "autoui": SESSION,
        "version": STORAGE_VERSION,
        "saved_ms": saved_ms,
        "canvas": { "blocks": session.canvas.blocks() },
        "conversation": session.conversation,
    })
    .to_string()
}

/// Reads a stored session. A conversation that does not decode is set aside whole (dropping single
/// messages could leave a tool call without its result, which providers reject).
pub fn decode_session(
    text: &str,
    random: &dyn Random,
    now_ms: f64,
) -> Result<Loaded<Session>, PersistError> {
    let document = open_document(text, SESSION)?;
    let context = DecodeContext {
        random,
        now_ms,
        default_origin: Origin::User,
    };
    let (canvas, mut set_aside) = read_canvas(document.get("canvas"), &context, "canvas");
    let raw_conversation = document
        .get("conversation")
        .cloned()
        .unwrap_or(Value::Array(Vec::new()));
    let conversation = match serde_json::from_value::<Vec<Message>>(raw_conversation.clone()) {
        Ok(messages) => messages,
        Err(error) => {
            set_aside.push(SetAside {
                what: "conversation".to_owned(),
                reason: error.to_string(),
                raw: raw_conversation,
            });
            Vec::new()
        }
    };
    Ok(Loaded {
        value: Session {
            canvas,
            conversation,
        },
        set_aside,
    })
}

/// A saved dashboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Dashboard {
    pub name: String,
    pub saved_ms: f64,
    pub canvas: Canvas,
}

impl Dashboard {
    /// The dashboard as one entry of a library document (and one record of the store).
    pub fn entry(&self) -> Value {
        json!({
            "name": self.name,
            "saved_ms": self.saved_ms,
            "canvas": { "blocks": self.canvas.blocks() },
        })
    }
}

/// One line of the "open a dashboard" list.
#[derive(Clone, Debug, PartialEq)]
pub struct DashboardSummary {
    pub name: String,
    pub saved_ms: f64,
    pub widgets: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saved {
    Created,
    /// A dashboard of that name existed and was overwritten.
    Replaced,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LibraryError {
    #[error("a dashboard needs a name")]
    EmptyName,
    #[error("a dashboard name has at most {limit} characters")]
    NameTooLong { limit: usize },
    #[error(
        "no dashboard named \"{name}\"; saved dashboards: {}",
        list_names(existing)
    )]
    NotFound { name: String, existing: Vec<String> },
}

fn list_names(names: &[String]) -> String {
    if names.is_empty() {
        "none yet".to_owned()
    } else {
        names.join(", ")
    }
}

/// Named dashboards, stored as one document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DashboardLibrary {
    dashboards: Vec<Dashboard>,
}

impl DashboardLibrary {
    /// Saves `canvas` under `name` (trimmed), replacing a dashboard of the same name.
    pub fn save(
        &mut self,
        name: &str,
        canvas: &Canvas,
        now_ms: f64,
    ) -> Result<Saved, LibraryError> {
        let name = name.trim();
        if name.is_empty() {
            return Err(LibraryError::EmptyName);
        }
        if name.chars().count() > MAX_NAME_CHARS {
            return Err(LibraryError::NameTooLong {
                limit: MAX_NAME_CHARS,
            });
        }
        let dashboard = Dashboard {
            name: name.to_owned(),
            saved_ms: now_ms,
            canvas: canvas.clone(),
        };
        match self
            .dashboards
            .iter_mut()
            .find(|existing| existing.name == name)
        {
            Some(existing) => {
                *existing = dashboard;
                Ok(Saved::Replaced)
            }
            None => {
                self.dashboards.push(dashboard);
                Ok(Saved::Created)
            }
        }
    }

    pub fn open(&self, name: &str) -> Result<&Dashboard, LibraryError> {
        let name = name.trim();
        self.dashboards
            .iter()
            .find(|dashboard| dashboard.name == name)
            .ok_or_else(|| self.not_found(name))
    }

    pub fn delete(&mut self, name: &str) -> Result<Dashboard, LibraryError> {
        let name = name.trim();
        match self
            .dashboards
            .iter()
            .position(|dashboard| dashboard.name == name)
        {
            Some(index) => Ok(self.dashboards.remove(index)),
            None => Err(self.not_found(name)),
        }
    }

    /// Most recently saved first.
    pub fn list(&self) -> Vec<DashboardSummary> {
        let mut summaries: Vec<DashboardSummary> = self
            .dashboards
            .iter()
            .map(|dashboard| DashboardSummary {
                name: dashboard.name.clone(),
                saved_ms: dashboard.saved_ms,
                widgets: dashboard.canvas.len(),
            })
            .collect();
        sort_by(&mut summaries, |a, b| b.saved_ms.total_cmp(&a.saved_ms));
        summaries
    }

    pub fn encode(&self) -> String {
        let dashboards: Vec<Value> = self.dashboards.iter().map(Dashboard::entry).collect();
        json!({ "autoui": LIBRARY, "version": STORAGE_VERSION, "dashboards": dashboards })
            .to_string()
    }

    /// Reads a stored library; a dashboard without a name is set aside, a repeated name gets a suffix.
    pub fn decode(
        text: &str,
        random: &dyn Random,
        now_ms: f64,
    ) -> Result<Loaded<DashboardLibrary>, PersistError> {
        let document = open_document(text, LIBRARY)?;
        let entries = document
            .get("dashboards")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default();
        Ok(DashboardLibrary::from_entries(entries, random, now_ms))
    }

    /// Reads dashboards from their `{"name", "saved_ms", "canvas": {"blocks": [...]}}` entries; one
    /// without a name is set aside, a repeated name gets a suffix.
    pub fn from_entries(
        entries: &[Value],
        random: &dyn Random,
        now_ms: f64,
    ) -> Loaded<DashboardLibrary> {
        let context = DecodeContext {
            random,
            now_ms,
            default_origin: Origin::User,
        };
        let mut library = DashboardLibrary::default();
        let mut set_aside = Vec::new();
        for (index, entry) in entries.iter().enumerate() {
            let name = entry
                .get("name")
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|name| !name.is_empty());
            let Some(name) = name else {
                let reason = "no name".to_owned();
                set_aside.push(SetAside {
                    what: format!("dashboard {}", index + 1),
                    reason,
                    raw: entry.clone(),
                });
                continue;
            };
            let name = library.unused_name(name);
            let (canvas, skipped) = read_canvas(
                entry.get("canvas"),
                &context,
                &format!("dashboard \"{name}\""),
            );
            set_aside.extend(skipped);
            let saved_ms = entry
                .get("saved_ms")
                .and_then(Value::as_f64)
                .unwrap_or(now_ms);
            library.dashboards.push(Dashboard {
                name,
                saved_ms,
                canvas,
            });
        }
        Loaded {
            value: library,
            set_aside,
        }
    }

    /// Adds `dashboard` without replacing any: a name already taken gets a ` (2)`-style suffix.
    /// Returns the name it was added under.
    pub fn add_unique(&mut self, mut dashboard: Dashboard) -> String {
        dashboard.name = self.unused_name(&dashboard.name);
        let name = dashboard.name.clone();
        self.dashboards.push(dashboard);
        name
    }

    /// Every dashboard, in the order they were first saved.
    pub fn dashboards(&self) -> &[Dashboard] {
        &self.dashboards
    }

    fn not_found(&self, name: &str) -> LibraryError {
        let existing = self
            .list()
            .into_iter()
            .map(|summary| summary.name)
            .collect();
        LibraryError::NotFound {
            name: name.to_owned(),
            existing,
        }
    }

    fn unused_name(&self, name: &str) -> String {
        let taken = |candidate: &str| {
            self.dashboards
                .iter()
                .any(|dashboard| dashboard.name == candidate)
        };
        let mut candidate = name.to_owned();
        let mut counter = 2;
        while taken(&candidate) {
            candidate = format!("{name} ({counter})");
            counter += 1;
        }
        candidate
    }
}

/// Parses `text` and checks it is an autoui document of `kind` in a version we read.
fn open_document(text: &str, kind: &'static str) -> Result<Map<String, Value>, PersistError> {
    let value: Value = serde_json::from_str(text).map_err(|error| PersistError::NotJson {
        expected: kind,
        reason: error.to_string(),
    })?;
    let Value::Object(document) = value else {
        return Err(PersistError::WrongDocument {
            expected: kind,
            found: json_type(&value).to_owned(),
        });
    };
    match document.get("autoui").and_then(Value::as_str) {
        Some(found) if found == kind => {}
        Some(found) => {
            return Err(PersistError::WrongDocument {
                expected: kind,
                found: format!("a \"{found}\" document"),
            });
        }
        None => {
            return Err(PersistError::WrongDocument {
                expected: kind,
                found: "an object without an \"autoui\" marker".to_owned(),
            });
        }
    }
    match document.get("version") {
        Some(Value::Number(number)) => match number.as_u64() {
            Some(STORAGE_VERSION) => Ok(document),
            Some(found) if found > STORAGE_VERSION => Err(PersistError::NewerVersion {
                expected: kind,
                found,
                supported: STORAGE_VERSION,
            }),
            _ => Err(PersistError::UnknownVersion {
                expected: kind,
                found: number.to_string(),
            }),
        },
        Some(other) => Err(PersistError::UnknownVersion {
            expected: kind,
            found: other.to_string(),
        }),
        None => Err(PersistError::UnknownVersion {
            expected: kind,
            found: "none".to_owned(),
        }),
    }
}

/// Reads `{"blocks": [...]}`; a canvas that is missing or not of that shape is set aside whole.
fn read_canvas(
    value: Option<&Value>,
    context: &DecodeContext<'_>,
    what: &str,
) -> (Canvas, Vec<SetAside>) {
    match value
        .and_then(|canvas| canvas.get("blocks"))
        .and_then(Value::as_array)
    {
        Some(blocks) => {
            let (canvas, mut set_aside) = decode_canvas(blocks.clone(), context);
            for item in &mut set_aside {
                item.what = format!("{what}, {}", item.what);
            }
            (canvas, set_aside)
        }
        None => {
            let raw = value.cloned().unwrap_or(Value::Null);
            let reason = "expected {\"blocks\": [...]}".to_owned();
            let set_aside = if raw.is_null() {
                Vec::new()
            } else {
                vec![SetAside {
                    what: what.to_owned(),
                    reason,
                    raw,
                }]
            };
            (Canvas::default(), set_aside)
        }
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
