//! Context economy: a tool result is shown to the model minified and, when long, truncated (its full
//! text stays in the result buffer); results and large call arguments older than the last iterations
//! are compressed to a short preview. Every cut leaves a `recall('<id>')` marker saying what was
//! removed and how to read it back.

use std::borrow::Cow;
use std::io;
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use crate::agent::buffer::ResultBuffer;
use crate::agent::frame::is_frame_line;
use crate::agent::json_text;
use crate::dispatch::catalog::{Catalog, Entry, ToolRole};
use crate::llm::message::{ContentBlock, Message, Role};
use crate::tool::{ResultPart, joined_text};

/// Characters of a compressed result kept as its preview.
pub const DEFAULT_PREVIEW_CHARS: usize = 200;
/// Tool-result turns kept in full: the results of the last two iterations.
pub const DEFAULT_KEEP_RECENT: usize = 2;

const COMPRESSED_MARK: &str = "[compressed: ";

/// A result as the model gets it.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// The text to send, or `None` to send the result's text as it is.
    pub text: Option<String>,
    /// Whether something was cut (minifying JSON loses nothing and does not count).
    pub truncated: bool,
}

/// How a result of `text` is shown: JSON minified, then cut to `limit` characters with a recall marker.
pub fn shown(text: &str, limit: usize, call_id: &str) -> Shown {
    Showable::new(text).at(limit, call_id)
}

/// The text to give the model for a result, or `None` when it fits within `limit` characters.
/// JSON is cut at whole items (of the top-level array, or of an object's largest array) so the
/// model still reads valid JSON, exactly as the server wrote it; other text is cut at `limit` characters.
pub fn truncate(text: &str, limit: usize, call_id: &str) -> Option<String> {
    Showable::prepare(Cow::Borrowed(text), text.chars().count()).at(limit, call_id).text
}

/// A stored result prepared once (minified, its items found) to be shown at any limit.
pub(crate) struct Showable<'a> {
    /// The text to cut: the result, minified when it is JSON.
    body: Cow<'a, str>,
    body_chars: usize,
    /// Where the items of its main array are, when it is JSON that has one.
    items: Option<json_text::Items>,
    /// Characters of the stored result, which `recall` offsets count in.
    total: usize,
}

impl<'a> Showable<'a> {
    pub(crate) fn new(text: &'a str) -> Showable<'a> {
        let body = json_text::minify(text).map_or(Cow::Borrowed(text), Cow::Owned);
        Showable::prepare(body, text.chars().count())
    }

    fn prepare(body: Cow<'a, str>, total: usize) -> Showable<'a> {
        let items = json_text::is_container(&body).then(|| json_text::Items::of(&body)).flatten();
        Showable { body_chars: body.chars().count(), body, items, total }
    }

    pub(crate) fn at(&self, limit: usize, call_id: &str) -> Shown {
        if self.body_chars <= limit {
            let minified = matches!(self.body, Cow::Owned(_));
            return Shown { text: minified.then(|| self.body.to_string()), truncated: false };
        }
        let total = self.total;
        let recall = format!(
            "The full result is kept: recall('{call_id}') returns it, recall('{call_id}') with offset and length a slice"
        );
        let text = match self.items.as_ref().and_then(|items| items.cut(&self.body, limit)) {
            Some(cut) => format!(
                "{}\n… [truncated: showing {} of {} items ({} of {total} characters). {recall}]",
                cut.json,
                cut.kept,
                cut.total,
                cut.json.chars().count()
            ),
            None => {
                format!(
                    "{}\n… [truncated: showing {limit} of {total} characters. {recall}]",
                    prefix_chars(&self.body, limit)
                )
            }
        };
        Shown { text: Some(text), truncated: true }
    }
}

/// What compression needs to know about a conversation: how much to keep, where full results are,
/// and which tool each exposed name is.
pub struct Economy<'a> {
    /// Tool-result turns (iterations) kept in full.
    pub keep_recent: usize,
    /// Characters kept as the preview of a compressed result.
    pub preview: usize,
    pub buffer: &'a ResultBuffer,
    pub catalog: &'a Catalog,
}

impl Economy<'_> {
    /// Compresses the results and large call inputs of tool-result turns older than the last
    /// `keep_recent`. Returns the request bytes this saved.
    pub fn compress_history(&self, messages: &mut [Message]) -> usize {
        let turns = result_turns(messages);
        let old = turns.len().saturating_sub(self.keep_recent);
        turns[..old]
            .iter()
            .map(|&turn| {
                self.compress_inputs(messages, turn, usize::MAX) + self.compress_results(messages, turn, usize::MAX)
            })
            .sum()
    }

    /// Compresses the results of the turn at `turn`, in order, until `need` bytes are saved.
    pub(crate) fn compress_results(&self, messages: &mut [Message], turn: usize, need: usize) -> usize {
        let mut saved = 0;
        for block in &mut messages[turn].content {
            if saved >= need {
                break;
            }
            saved += self.compress_result(block);
        }
        saved
    }

    /// Compresses the large inputs of the calls answered by the turn at `turn` (they sit in the
    /// assistant message just before it, as both providers require) until `need` bytes are saved.
    pub(crate) fn compress_inputs(&self, messages: &mut [Message], turn: usize, need: usize) -> usize {
        let Some(position) = turn.checked_sub(1) else { return 0 };
        let (before, after) = messages.split_at_mut(turn);
        let (calls, answers) = (&mut before[position], &after[0]);
        if calls.role != Role::Assistant {
            return 0;
        }
        let mut saved = 0;
        for block in &mut calls.content {
            if saved >= need {
                break;
            }
            saved += self.compress_input(block, answers);
        }
        saved
    }

    /// Replaces a result by a preview of `preview` characters and a recall marker; images are dropped.
    fn compress_result(&self, block: &mut ContentBlock) -> usize {
        let ContentBlock::ToolResult { tool_use_id, content, .. } = &*block else { return 0 };
        let has_image = content.iter().any(|part| matches!(part, ResultPart::Image { .. }));
        // The line naming a remote server's data stays in front of the preview.
        let (frame, data): (Vec<ResultPart>, Vec<ResultPart>) =
            content.iter().cloned().partition(|part| matches!(part, ResultPart::Text { text } if is_frame_line(text)));
        let text = joined_text(&data);
        let threshold = self.preview + self.preview / 2;
        if text.contains(COMPRESSED_MARK) || (!has_image && text.chars().count() <= threshold) {
            return 0;
        }
        let original = self.buffer.get(tool_use_id).map_or_else(|| text.chars().count(), |full| full.chars().count());
        let tail = if self.buffer.contains(tool_use_id) {
            format!("recall('{tool_use_id}') returns the full result")
        } else {
            "the full result is no longer kept".to_owned()
        };
        let images = if has_image { ", images omitted" } else { "" };
        let summary =
            format!("{}… {COMPRESSED_MARK}{original} characters{images}; {tail}]", prefix_chars(&text, self.preview));
        let before = wire_len(block);
        if let ContentBlock::ToolResult { content, .. } = block {
            *content = frame;
            content.push(ResultPart::Text { text: summary });
        }
        before.saturating_sub(wire_len(block))
    }

    /// Cuts the compressed results of the turn at `turn` down to their recall marker (preview and
    /// server line dropped). Returns the request bytes this saved.
    pub(crate) fn strip_previews(&self, messages: &mut [Message], turn: usize) -> usize {
        messages[turn].content.iter_mut().map(strip_preview).sum()
    }

    /// Replaces the top-level fields of a call's input that are longer than a compressed result
    /// (their JSON, over 1.5 × `preview` characters) by a marker naming what holds the data now: the
    /// widget the call showed, and the full input, stored for `recall('<id>:input')`. Small fields
    /// (a widget name, an action, an id) stay, so the call still reads as what it did.
    fn compress_input(&self, block: &mut ContentBlock, answers: &Message) -> usize {
        let ContentBlock::ToolUse { id, name, input: Value::Object(fields) } = &*block else { return 0 };
        let threshold = self.preview + self.preview / 2;
        let large: Vec<String> = fields
            .iter()
            .filter(|(_, value)| !is_marker(value) && json_chars(value) > threshold)
            .map(|(key, _)| key.clone())
            .collect();
        if large.is_empty() {
            return 0;
        }
        let stored = format!("{id}:input");
        self.buffer.insert(&stored, Arc::from(serde_json::to_string(fields).unwrap_or_default()));
        let holder = self
            .widget_of(name, id, answers)
            .map_or_else(String::new, |widget| format!("widget {widget} holds this data; "));
        let before = wire_len(block);
        let ContentBlock::ToolUse { input: Value::Object(fields), .. } = block else { return 0 };
        for key in large {
            if let Some(value) = fields.get_mut(&key) {
                let marker = format!(
                    "{COMPRESSED_MARK}{} characters; {holder}recall('{stored}') returns the full input]",
                    json_chars(value)
                );
                *value = Value::String(marker);
            }
        }
        before.saturating_sub(wire_len(block))
    }

    /// The widget a successful `widget_display` or `canvas` call showed or changed, read from its
    /// stored result (`{"id": …}` or `{"widget": {"id": …}}`).
    fn widget_of(&self, name: &str, id: &str, answers: &Message) -> Option<String> {
        let Entry::Tool { server, tool } = self.catalog.lookup(name)? else { return None };
        if self.catalog.get(server).tools[tool].role != ToolRole::Canvas || is_error_answer(answers, id) {
            return None;
        }
        let result: Value = serde_json::from_str(&self.buffer.get(id)?).ok()?;
        let widget = result.get("id").or_else(|| result.pointer("/widget/id"))?;
        widget.as_str().map(str::to_owned)
    }

    /// The role of the tool whose call `call_id` the turn before `turn` made.
    pub(crate) fn role_of_call(&self, messages: &[Message], turn: usize, call_id: &str) -> Option<ToolRole> {
        let calls = &messages[turn.checked_sub(1)?];
        let name = calls.content.iter().find_map(|block| match block {
            ContentBlock::ToolUse { id, name, .. } if id == call_id => Some(name),
            _ => None,
        })?;
        match self.catalog.lookup(name)? {
            Entry::Tool { server, tool } => Some(self.catalog.get(server).tools[tool].role),
            Entry::Pseudo { .. } => None,
        }
    }
}

/// Positions of the user messages that carry tool results, oldest first.
pub(crate) fn result_turns(messages: &[Message]) -> Vec<usize> {
    messages
        .iter()
        .enumerate()
        .filter(|(_, message)| {
            message.role == Role::User
                && message.content.iter().any(|block| matches!(block, ContentBlock::ToolResult { .. }))
        })
        .map(|(position, _)| position)
        .collect()
}

/// A compressed result cut to its marker: `[compressed: 51234 characters; recall('r1') returns …]`.
fn strip_preview(block: &mut ContentBlock) -> usize {
    let ContentBlock::ToolResult { content, .. } = &*block else { return 0 };
    let text = joined_text(content);
    // The marker ends the text; a preview could hold the same words, so the last one counts.
    let Some(start) = text.rfind(COMPRESSED_MARK).filter(|&start| start > 0) else { return 0 };
    let marker = text[start..].to_owned();
    let before = wire_len(block);
    if let ContentBlock::ToolResult { content, .. } = block {
        *content = vec![ResultPart::Text { text: marker }];
    }
    before.saturating_sub(wire_len(block))
}

fn is_error_answer(answers: &Message, call_id: &str) -> bool {
    answers.content.iter().any(
        |block| matches!(block, ContentBlock::ToolResult { tool_use_id, is_error: true, .. } if tool_use_id == call_id),
    )
}

fn is_marker(value: &Value) -> bool {
    value.as_str().is_some_and(|text| text.starts_with(COMPRESSED_MARK))
}

/// The first `count` characters of `text`.
fn prefix_chars(text: &str, count: usize) -> &str {
    match text.char_indices().nth(count) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// Bytes of `value` as JSON, as it weighs in a request body (escapes included), without building the text.
pub(crate) fn wire_len(value: &impl Serialize) -> usize {
    let mut counter = Counter::default();
    // Writing to a counter cannot fail, and a neutral message always serialises.
    serde_json::to_writer(&mut counter, value).map_or(0, |()| counter.bytes)
}

/// Characters of `value` as JSON.
fn json_chars(value: &impl Serialize) -> usize {
    let mut counter = Counter::default();
    serde_json::to_writer(&mut counter, value).map_or(0, |()| counter.chars)
}

#[derive(Default)]
struct Counter {
    bytes: usize,
    chars: usize,
}

impl io::Write for Counter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.bytes += bytes.len();
        // UTF-8 continuation bytes do not start a character.
        self.chars += bytes.iter().filter(|&&byte| byte & 0xC0 != 0x80).count();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
