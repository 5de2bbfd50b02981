//! `recall`: the full stored result of an earlier tool call, or one page of it. The buffer belongs
//! to the agent engine and is read through [`ResultStore`]. A remote server's result comes back under
//! that server's frame line, in a part of its own before every page, as the call's own result did:
//! recall is the built-in server's, but what it returns is still the remote server's data.

use serde_json::{Value, json};

use crate::agent::frame::split_frame;
use crate::autoui::error::AutoUiError;
use crate::recipes::validate::preview;
use crate::tool::{ResultPart, ResultStore, ToolResult};

/// The most characters one call returns, when the model asks for that much with `length`.
pub const MAX_PAGE: usize = 100_000;
/// What one call returns without `length`: about two truncated results, so a recall fits in the
/// request budget the next turn is sent with; longer results are read page by page.
pub const DEFAULT_PAGE: usize = 20_000;
/// How many of the most recent ids an "unknown id" error lists.
const KNOWN_SHOWN: usize = 20;

pub fn recall(results: &dyn ResultStore, args: &Value) -> Result<ToolResult, AutoUiError> {
    let id = match args.get("id") {
        Some(Value::String(id)) if !id.trim().is_empty() => id.trim().to_owned(),
        _ => {
            return Err(AutoUiError::BadArguments(
                "recall needs \"id\": the id of an earlier tool call".to_owned(),
            ));
        }
    };
    let offset = count(args.get("offset"), "offset", 0)?.unwrap_or(0);
    let length = count(args.get("length"), "length", 1)?
        .unwrap_or(DEFAULT_PAGE)
        .min(MAX_PAGE);
    if let Some(capacity) = results.evicted(&id) {
        return Err(AutoUiError::EvictedResult { id, capacity });
    }
    let Some(stored) = results.full_result(&id) else {
        let known = results.known_ids();
        let recent = known[known.len().saturating_sub(KNOWN_SHOWN)..].to_vec();
        return Err(AutoUiError::UnknownResult { id, known: recent });
    };
    // Offsets count the data alone, as the truncation markers that send the model here do.
    let (frame, full) = split_frame(&stored);

    let total = full.chars().count();
    if offset > 0 && offset >= total {
        return Err(AutoUiError::BadArguments(format!(
            "offset {offset} is past the end: the result has {total} characters"
        )));
    }
    let end = offset.saturating_add(length).min(total);
    let next = (end < total).then_some(end);
    let text = if offset == 0 && next.is_none() {
        full.to_owned()
    } else {
        let page = slice_chars(full, offset, end);
        let more = match next {
            Some(next) => format!("next page: recall {{\"id\": \"{id}\", \"offset\": {next}}}"),
            None => "end of the result".to_owned(),
        };
        format!("{page}\n[recall: characters {offset}-{end} of {total}; {more}]")
    };
    let frame = frame.map(|line| ResultPart::Text {
        text: line.to_owned(),
    });
    Ok(ToolResult {
        content: frame
            .into_iter()
            .chain([ResultPart::Text { text }])
            .collect(),
        is_error: false,
        structured: Some(
            json!({ "id": id, "offset": offset, "end": end, "total": total, "next_offset": next }),
        ),
    })
}

/// A non-negative whole number argument (numeric text accepted).
fn count(value: Option<&Value>, name: &str, min: usize) -> Result<Option<usize>, AutoUiError> {
    let number = match value {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::Number(number)) => number.as_u64(),
        Some(Value::String(text)) => text.trim().parse::<u64>().ok(),
        Some(_) => None,
    };
    match number.and_then(|number| usize::try_from(number).ok()) {
        Some(number) if number >= min => Ok(Some(number)),
        _ => Err(AutoUiError::BadArguments(format!(
            "{name} must be a whole number of characters, at least {min}; got {}",
            value.map_or_else(String::new, preview)
        ))),
    }
}

/// Characters `start..end` (not bytes, so multi-byte text is never cut inside a character).
fn slice_chars(text: &str, start: usize, end: usize) -> &str {
    let byte = |index: usize| {
        text.char_indices()
            .nth(index)
            .map_or(text.len(), |(byte, _)| byte)
    };
    &text[byte(start)..byte(end)]
}
