//! Context economy: a long tool result is truncated for the model (its full text stays in the result
//! buffer), and results older than the last iterations are compressed to a short preview. Both leave a
//! `recall('<id>')` marker so the model can read the full text when it needs it.

use serde_json::Value;

use crate::agent::buffer::ResultBuffer;
use crate::llm::message::{ContentBlock, Message, Role};
use crate::tool::ResultPart;

/// Characters of a compressed result kept as its preview.
pub const DEFAULT_PREVIEW_CHARS: usize = 200;
/// Tool-result turns kept in full: the results of the last two iterations.
pub const DEFAULT_KEEP_RECENT: usize = 2;

const COMPRESSED_MARK: &str = "… [compressed: ";

/// The text to give the model for a result, or `None` when it fits within `limit` characters.
/// JSON is cut at whole items (of the top-level array, or of an object's largest array) so the
/// model still reads valid JSON; other text is cut at `limit` characters.
pub fn truncate(text: &str, limit: usize, call_id: &str) -> Option<String> {
    let total = text.chars().count();
    if total <= limit {
        return None;
    }
    let recall = format!(
        "The full result is kept: recall('{call_id}') returns it, recall('{call_id}') with offset and length a slice"
    );
    if let Some(shrunk) = shrink_json(text, limit) {
        return Some(format!(
            "{}\n… [truncated: showing {} of {} items ({} of {total} characters). {recall}]",
            shrunk.json,
            shrunk.kept,
            shrunk.total,
            shrunk.json.chars().count()
        ));
    }
    Some(format!("{}\n… [truncated: showing {limit} of {total} characters. {recall}]", prefix_chars(text, limit)))
}

/// Replaces tool results older than the last `keep_recent` tool-result turns by a preview of
/// `preview` characters and a recall marker. Images in them are dropped. Returns how many it compressed.
pub fn compress_history(messages: &mut [Message], keep_recent: usize, preview: usize, buffer: &ResultBuffer) -> usize {
    let turns: Vec<usize> = messages
        .iter()
        .enumerate()
        .filter(|(_, message)| {
            message.role == Role::User
                && message.content.iter().any(|block| matches!(block, ContentBlock::ToolResult { .. }))
        })
        .map(|(position, _)| position)
        .collect();
    let old = turns.len().saturating_sub(keep_recent);
    let threshold = preview + preview / 2;
    let mut compressed = 0;
    for &position in &turns[..old] {
        for block in &mut messages[position].content {
            let ContentBlock::ToolResult { tool_use_id, content, .. } = block else { continue };
            let has_image = content.iter().any(|part| matches!(part, ResultPart::Image { .. }));
            let text = joined_text(content);
            if text.contains(COMPRESSED_MARK) || (!has_image && text.chars().count() <= threshold) {
                continue;
            }
            let original = buffer.get(tool_use_id).map_or_else(|| text.chars().count(), |full| full.chars().count());
            let tail = if buffer.contains(tool_use_id) {
                format!("recall('{tool_use_id}') returns the full result")
            } else {
                "the full result is no longer kept".to_owned()
            };
            let images = if has_image { ", images omitted" } else { "" };
            let summary =
                format!("{}{COMPRESSED_MARK}{original} characters{images}; {tail}]", prefix_chars(&text, preview));
            *content = vec![ResultPart::Text { text: summary }];
            compressed += 1;
        }
    }
    compressed
}

fn joined_text(content: &[ResultPart]) -> String {
    let texts: Vec<&str> = content
        .iter()
        .filter_map(|part| match part {
            ResultPart::Text { text } => Some(text.as_str()),
            ResultPart::Image { .. } => None,
        })
        .collect();
    texts.join("\n")
}

/// The first `count` characters of `text`.
fn prefix_chars(text: &str, count: usize) -> &str {
    match text.char_indices().nth(count) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

struct Shrunk {
    json: String,
    kept: usize,
    total: usize,
}

/// JSON cut at whole items so that it fits in `limit` characters: the top-level array, or the
/// largest array field of a top-level object. `None` if the text is not such JSON or one item is too big.
fn shrink_json(text: &str, limit: usize) -> Option<Shrunk> {
    let trimmed = text.trim_start();
    if !trimmed.starts_with('[') && !trimmed.starts_with('{') {
        return None;
    }
    let value: Value = serde_json::from_str(trimmed).ok()?;
    match value {
        Value::Array(items) => {
            let (kept, json) = fit_items(&items, 2, limit, |kept| Value::Array(kept.to_vec()).to_string())?;
            Some(Shrunk { json, kept, total: items.len() })
        }
        Value::Object(mut fields) => {
            let key = fields
                .iter()
                .filter_map(|(key, value)| value.as_array().map(|items| (key, value.to_string().len(), items.len())))
                .filter(|(_, _, count)| *count > 1)
                .max_by_key(|(_, size, _)| *size)
                .map(|(key, _, _)| key.clone())?;
            let items = match fields.insert(key.clone(), Value::Array(Vec::new())) {
                Some(Value::Array(items)) => items,
                _ => return None,
            };
            let frame = Value::Object(fields.clone()).to_string().chars().count();
            let (kept, json) = fit_items(&items, frame, limit, |kept| {
                let mut object = fields.clone();
                object.insert(key.clone(), Value::Array(kept.to_vec()));
                Value::Object(object).to_string()
            })?;
            Some(Shrunk { json, kept, total: items.len() })
        }
        _ => None,
    }
}

/// The most leading items whose serialised size plus `frame` fits in `limit`, and the rendered JSON.
fn fit_items(
    items: &[Value],
    frame: usize,
    limit: usize,
    render: impl Fn(&[Value]) -> String,
) -> Option<(usize, String)> {
    let mut size = frame;
    let mut kept = 0;
    for (position, item) in items.iter().enumerate() {
        let item_size = item.to_string().chars().count() + usize::from(position > 0);
        if size + item_size > limit {
            break;
        }
        size += item_size;
        kept += 1;
    }
    (kept > 0 && kept < items.len()).then(|| (kept, render(&items[..kept])))
}
