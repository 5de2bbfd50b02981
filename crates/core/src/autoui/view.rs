//! How blocks look in tool results: grid layout, one-line summary, and the data echo (long arrays
//! elided when the data is large, so a 1,000-row table does not come back into the context).

use serde_json::{Map, Value, json};

use crate::canvas::model::{Block, Layout};
use crate::recipes::validate::child;
use crate::widget_kind::WidgetKind;

/// Data up to about this many characters of JSON is echoed whole.
const ECHO_BUDGET: usize = 4_000;
/// In larger data, arrays longer than this keep only their first [`ECHO_KEEP`] items.
const ECHO_MAX_ITEMS: usize = 5;
const ECHO_KEEP: usize = 3;
const SUMMARY_MAX_CHARS: usize = 80;

/// `{x, y, width, height}` in grid units, as `move` and `resize` take them.
pub fn layout_json(layout: &Layout) -> Value {
    json!({ "x": layout.x, "y": layout.y, "width": layout.w, "height": layout.h })
}

/// `{id, type, layout, summary}` plus `style` when set, and the echoed `data` when asked.
pub fn block_json(block: &Block, with_data: bool) -> Value {
    let mut body = json!({
        "id": block.id,
        "type": block.kind.as_str(),
        "layout": layout_json(&block.layout),
        "summary": summary(block),
    });
    if !block.style.is_empty() {
        body["style"] = json!(block.style);
    }
    if let Some(binding) = &block.binding {
        body["binding"] = binding.to_json();
    }
    if with_data {
        let (data, elided) = echo(&block.data);
        body["data"] = data;
        if !elided.is_empty() {
            body["data_elided"] = json!(elided);
        }
    }
    body
}

/// The data to show the model, and one note per array it shortened.
pub fn echo(data: &Value) -> (Value, Vec<String>) {
    let mut budget = ECHO_BUDGET;
    if fits(data, &mut budget) {
        return (data.clone(), Vec::new());
    }
    let mut notes = Vec::new();
    let shown = elide(data, "", &mut notes);
    (shown, notes)
}

/// Whether the JSON text of `value` is (about) no longer than `budget`; stops counting early.
fn fits(value: &Value, budget: &mut usize) -> bool {
    let own = match value {
        Value::Null | Value::Bool(_) => 5,
        Value::Number(_) => 8,
        Value::String(text) => text.len() + 2,
        Value::Array(items) => items.len() + 2,
        Value::Object(map) => map.keys().map(|key| key.len() + 4).sum::<usize>() + 2,
    };
    let Some(left) = budget.checked_sub(own) else {
        return false;
    };
    *budget = left;
    match value {
        Value::Array(items) => items.iter().all(|item| fits(item, budget)),
        Value::Object(map) => map.values().all(|item| fits(item, budget)),
        _ => true,
    }
}

fn elide(value: &Value, path: &str, notes: &mut Vec<String>) -> Value {
    match value {
        Value::Array(items) if items.len() > ECHO_MAX_ITEMS => {
            notes.push(format!(
                "{}: first {ECHO_KEEP} of {} items shown; the widget has all of them",
                if path.is_empty() { "data" } else { path },
                items.len()
            ));
            Value::Array(
                items
                    .iter()
                    .take(ECHO_KEEP)
                    .enumerate()
                    .map(|(i, item)| elide(item, &child(path, &i.to_string()), notes))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| elide(item, &child(path, &i.to_string()), notes))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, item)| (key.clone(), elide(item, &child(path, key), notes)))
                .collect::<Map<_, _>>(),
        ),
        other => other.clone(),
    }
}

/// One line naming a block: its title or label (with the value, for KPIs), else the start of its
/// text, else its type.
pub fn summary(block: &Block) -> String {
    let data = &*block.data;
    let kpi = matches!(block.kind, WidgetKind::Stat | WidgetKind::StatCard);
    match (text(data, "label"), data.get("value")) {
        (Some(label), Some(value)) if kpi => {
            let value = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
            let unit = text(data, "unit").map(|unit| format!(" {unit}")).unwrap_or_default();
            shorten(&format!("{label}: {value}{unit}"))
        }
        _ => name(block),
    }
}

/// [`summary`] without a KPI's value: what the widget is, which stays the same while its numbers
/// change (the per-widget WebMCP tools are described by it, so a refreshed value does not
/// re-register them).
pub fn name(block: &Block) -> String {
    let line = ["title", "label", "name", "content", "message", "placeholder", "code"]
        .iter()
        .find_map(|key| text(&block.data, key))
        .and_then(|found| found.lines().map(str::trim).find(|line| !line.is_empty()))
        .map(|line| line.trim_start_matches('#').trim().to_owned())
        .unwrap_or_else(|| format!("untitled {}", block.kind));
    shorten(&line)
}

/// The non-blank text of field `key`, trimmed.
fn text<'a>(data: &'a Value, key: &str) -> Option<&'a str> {
    data.get(key).and_then(Value::as_str).map(str::trim).filter(|text| !text.is_empty())
}

fn shorten(line: &str) -> String {
    if line.chars().count() <= SUMMARY_MAX_CHARS {
        return line.to_owned();
    }
    let cut: String = line.chars().take(SUMMARY_MAX_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}
