//! "Export all": every saved dashboard and the current session (canvas and conversation) in one
//! file, and reading such a file back. A file that is not JSON, not an autoui backup or from a newer
//! version is a typed [`PersistError`]; a bad dashboard or block inside is set aside, the rest loads.

use serde_json::{Value, json};

use crate::canvas::decode::{DecodeContext, SetAside, decode_canvas};
use crate::canvas::model::Canvas;
use crate::canvas::persist::{Dashboard, DashboardLibrary, Loaded, PersistError, readable_name};
use crate::llm::message::Message;
use crate::ports::Random;
use crate::tool::Origin;

const BACKUP: &str = "backup";
/// The backup format version this build writes and the newest it reads.
pub const BACKUP_VERSION: u64 = 1;

/// What a backup holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Backup {
    pub canvas: Canvas,
    /// The current canvas's name, when it had one (tidied by [`readable_name`]).
    pub name: Option<String>,
    pub conversation: Vec<Message>,
    pub dashboards: Vec<Dashboard>,
}

/// The backup of the current session (`canvas`, named `name`, and `conversation`) and `library`.
pub fn export_all(
    (canvas, name): (&Canvas, Option<&str>),
    conversation: &[Message],
    library: &DashboardLibrary,
    saved_ms: f64,
) -> String {
    let dashboards: Vec<Value> = library.dashboards().iter().map(Dashboard::entry).collect();
    let mut session = json!({ "canvas": { "blocks": canvas.blocks() }, "conversation": conversation });
    if let Some(name) = name {
        session["name"] = name.into();
    }
    format!(
        "{:#}",
        json!({
            "autoui": BACKUP,
            "version": BACKUP_VERSION,
            "saved_ms": saved_ms,
            "session": session,
            "dashboards": dashboards,
        })
    )
}

/// Whether `text` claims to be a backup (so the import button reads it as one).
pub fn is_backup(text: &str) -> bool {
    serde_json::from_str::<Value>(text.trim_start_matches('\u{feff}'))
        .is_ok_and(|value| value.get("autoui").and_then(Value::as_str) == Some(BACKUP))
}

pub fn read_backup(text: &str, random: &dyn Random, now_ms: f64) -> Result<Loaded<Backup>, PersistError> {
    let value: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|error| PersistError::NotJson { expected: BACKUP, reason: error.to_string() })?;
    match value.get("autoui").and_then(Value::as_str) {
        Some(BACKUP) => {}
        Some(other) => {
            return Err(PersistError::WrongDocument { expected: BACKUP, found: format!("a \"{other}\" document") });
        }
        None => {
            return Err(PersistError::WrongDocument {
                expected: BACKUP,
                found: "a file without an \"autoui\" marker".to_owned(),
            });
        }
    }
    match value.get("version").and_then(Value::as_u64) {
        Some(BACKUP_VERSION) => {}
        Some(found) if found > BACKUP_VERSION => {
            return Err(PersistError::NewerVersion { expected: BACKUP, found, supported: BACKUP_VERSION });
        }
        _ => {
            let found = value.get("version").map_or_else(|| "none".to_owned(), Value::to_string);
            return Err(PersistError::UnknownVersion { expected: BACKUP, found });
        }
    }
    let context = DecodeContext { random, now_ms, default_origin: Origin::User };
    let session = value.get("session").cloned().unwrap_or(Value::Null);
    let blocks = session.pointer("/canvas/blocks").and_then(Value::as_array).cloned().unwrap_or_default();
    let (canvas, mut set_aside) = decode_canvas(blocks, &context);
    let raw_conversation = session.get("conversation").cloned().unwrap_or(Value::Array(Vec::new()));
    let conversation = serde_json::from_value::<Vec<Message>>(raw_conversation.clone()).unwrap_or_else(|error| {
        set_aside.push(SetAside { what: "conversation".to_owned(), reason: error.to_string(), raw: raw_conversation });
        Vec::new()
    });
    let entries = value.get("dashboards").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut library = DashboardLibrary::from_entries(&entries, random, now_ms);
    set_aside.append(&mut library.set_aside);
    let dashboards = library.value.dashboards().to_vec();
    let name = session.get("name").and_then(Value::as_str).and_then(readable_name);
    Ok(Loaded { value: Backup { canvas, name, conversation, dashboards }, set_aside })
}
