//! Local storage of small JSON documents (settings; the documents of earlier versions that move to
//! IndexedDB once), failing soft when storage is unavailable.

use serde::Serialize;
use serde::de::DeserializeOwned;

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Why a stored document could not be read.
#[derive(Debug, PartialEq, Eq)]
pub enum LoadError {
    /// Present but not in the expected shape; the raw text is returned so it can be set aside.
    Corrupt { raw: String, reason: String },
}

/// Reads `key`; `Ok(None)` when absent or when storage is unavailable (private mode, disabled).
pub fn load<T: DeserializeOwned>(key: &str) -> Result<Option<T>, LoadError> {
    let Some(raw) = local_storage().and_then(|storage| storage.get_item(key).ok().flatten()) else {
        return Ok(None);
    };
    serde_json::from_str(&raw)
        .map(Some)
        .map_err(|error| LoadError::Corrupt { raw, reason: error.to_string() })
}

/// Writes `value` under `key`; returns false when storage refused (quota, disabled).
pub fn save<T: Serialize>(key: &str, value: &T) -> bool {
    let Ok(text) = serde_json::to_string(value) else {
        return false;
    };
    local_storage().is_some_and(|storage| storage.set_item(key, &text).is_ok())
}

/// Moves an unreadable document aside under `<key>.corrupt` so it is kept for inspection but no
/// longer loaded; whether the copy was kept (storage may be full), which is what the person is told.
pub fn set_aside(key: &str, raw: &str) -> bool {
    let Some(storage) = local_storage() else { return false };
    let kept = storage.set_item(&format!("{key}.corrupt"), raw).is_ok();
    let _ = storage.remove_item(key);
    kept
}

/// How a message names where a document set aside under `key` went.
pub fn where_set_aside(key: &str, kept: bool) -> String {
    match kept {
        true => format!("kept aside in this browser as \u{201c}{key}.corrupt\u{201d}"),
        false => "not kept: this browser's storage refused a copy (it may be full)".to_owned(),
    }
}

/// Writes `text` under `key` as it is; returns false when storage refused (quota, disabled).
pub fn set_raw(key: &str, text: &str) -> bool {
    local_storage().is_some_and(|storage| storage.set_item(key, text).is_ok())
}

/// The raw text stored under `key`.
pub fn get_raw(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok().flatten()
}

/// Removes `key` (a document moved elsewhere).
pub fn remove(key: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.remove_item(key);
    }
}
