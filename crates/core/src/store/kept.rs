//! A write kept aside as text until it can be committed. Chromium may abort an IndexedDB write
//! begun while the page unloads, so the app also keeps the last save of a closing page in local
//! storage (written at once) and commits it first on the next start.

use serde_json::{Value, json};

use super::{StoreName, WritePlan};

/// `plan` as text: `{"puts": [[store, key, value], …], "deletes": [[store, key], …]}`.
pub fn keep(plan: &WritePlan) -> String {
    let puts: Vec<Value> = plan.puts.iter().map(|record| json!([record.store.as_str(), record.key, record.value])).collect();
    let deletes: Vec<Value> = plan.deletes.iter().map(|(store, key)| json!([store.as_str(), key])).collect();
    json!({"puts": puts, "deletes": deletes}).to_string()
}

/// The plan [`keep`] wrote, or why `text` is not one (then nothing of it is applied).
pub fn kept(text: &str) -> Result<WritePlan, String> {
    let value: Value = serde_json::from_str(text).map_err(|error| format!("not JSON: {error}"))?;
    let mut plan = WritePlan::default();
    for (position, entry) in list(&value, "puts")?.iter().enumerate() {
        match entry.as_array().map(Vec::as_slice) {
            Some([store, Value::String(key), Value::String(text)]) => plan.put(store_name(store)?, key.as_str(), text.as_str()),
            _ => return Err(format!("puts[{position}] is not [store, key, value]")),
        }
    }
    for (position, entry) in list(&value, "deletes")?.iter().enumerate() {
        match entry.as_array().map(Vec::as_slice) {
            Some([store, Value::String(key)]) => plan.delete(store_name(store)?, key.as_str()),
            _ => return Err(format!("deletes[{position}] is not [store, key]")),
        }
    }
    Ok(plan)
}

fn list<'a>(value: &'a Value, field: &str) -> Result<&'a Vec<Value>, String> {
    value.get(field).and_then(Value::as_array).ok_or_else(|| format!("no `{field}` list"))
}

fn store_name(value: &Value) -> Result<StoreName, String> {
    value.as_str().and_then(StoreName::from_name).ok_or_else(|| format!("{value} is not a store"))
}
