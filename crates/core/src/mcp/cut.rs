//! Answers too large to keep whole: a `tools/call` (or `resources/read`) answer is cut to a stated
//! cap while it streams in, so a 20 MB result never has to be held, parsed or stored at once, and
//! what the model (and `recall`) gets is the text read from the part kept, with a line saying so.
//! Reading a large body also yields to the page every [`YIELD_EVERY_BYTES`], so no single task
//! of the page's main thread handles more than that much of it.

use std::rc::Rc;

use futures::StreamExt;
use futures::stream::{self, LocalBoxStream};

use crate::mcp::error::megabytes;
use crate::mcp::jsonrpc::{Method, RequestId};
use crate::ports::{Clock, HttpError};
use crate::tool::{ResultPart, ToolResult};

/// Bytes of a body read between two yields to the page's event loop.
pub const YIELD_EVERY_BYTES: usize = 1024 * 1024;

/// What was kept of an answer larger than its cap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutAnswer {
    /// The answer's first `cap` bytes as they came: JSON cut anywhere.
    pub kept: String,
    /// The whole answer's size in bytes (as far as it was read).
    pub total_bytes: usize,
    pub cap: usize,
}

/// How much of one answer is kept, by the request it answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnswerCaps {
    pub tool_result: usize,
    pub resource: usize,
}

impl AnswerCaps {
    /// The cap for answers to `method`; `None` for answers read whole (lists, handshakes), which
    /// only the message cap bounds.
    pub fn for_method(&self, method: &Method) -> Option<usize> {
        match method {
            Method::ToolsCall => Some(self.tool_result),
            Method::ResourcesRead => Some(self.resource),
            _ => None,
        }
    }
}

impl CutAnswer {
    /// The part kept of the text of `data` when it is longer than `cap` (a whole message already
    /// in memory, as `EventSource` gives it).
    pub fn of_text(data: &str, cap: usize) -> Option<CutAnswer> {
        if data.len() <= cap {
            return None;
        }
        let mut end = cap;
        while !data.is_char_boundary(end) {
            end -= 1;
        }
        Some(CutAnswer { kept: data[..end].to_owned(), total_bytes: data.len(), cap })
    }

    /// The id of the request this answer is for, read from its first bytes (`None` when the id
    /// was not among them, or the message is not an answer).
    pub fn answer_id(&self) -> Option<RequestId> {
        // Only before the result: the result's own objects may have `id` keys.
        let envelope = match self.kept.find("\"result\":") {
            Some(result) => &self.kept[..result],
            None => self.kept.as_str(),
        };
        id_at(&self.kept, envelope.find(ID_KEY)?)
    }

    /// The id of the request a whole message `data` answers when the id comes after the result
    /// (as it does from servers that write the result first): the last id in its closing bytes.
    pub fn trailing_id(data: &str) -> Option<RequestId> {
        let mut tail = data.len().saturating_sub(128);
        while !data.is_char_boundary(tail) {
            tail += 1;
        }
        id_at(data, tail + data[tail..].rfind(ID_KEY)?)
    }

    /// The readable text of the part kept: the `text` strings it holds, in order (the last one
    /// as far as it got), else its raw JSON from the result on.
    pub fn readable_text(&self) -> String {
        let body = match self.kept.find("\"result\":") {
            Some(start) => &self.kept[start + "\"result\":".len()..],
            None => self.kept.as_str(),
        };
        let texts = text_strings(body);
        if texts.is_empty() { body.trim_start().to_owned() } else { texts.join("\n") }
    }

    /// The line that tells the model what happened and what to do.
    pub fn note(&self) -> String {
        format!(
            "[result cut: the server sent {}, more than the {} this client keeps of one result, so only \
             its first {} were kept as it streamed in (recall returns no more); ask the tool for less, \
             such as a page, a filter or fewer fields]",
            megabytes(self.total_bytes as u64),
            megabytes(self.cap as u64),
            megabytes(self.cap as u64)
        )
    }

    /// A tool result the model can use: the note, then the text kept.
    pub fn into_tool_result(self) -> ToolResult {
        let text = format!("{}\n{}", self.note(), self.readable_text());
        ToolResult { content: vec![ResultPart::Text { text }], is_error: false, structured: None }
    }
}

/// Yields to the event loop (a zero-delay sleep, a new task in a browser) every `every` bytes of
/// `body`, so reading a large answer never holds the page's main thread in one long task.
pub fn yielding(
    body: LocalBoxStream<'static, Result<Vec<u8>, HttpError>>,
    clock: Rc<dyn Clock>,
    every: usize,
) -> LocalBoxStream<'static, Result<Vec<u8>, HttpError>> {
    stream::unfold((body, clock, 0usize), move |(mut body, clock, mut since)| async move {
        if since >= every {
            clock.sleep(0).await;
            since = 0;
        }
        let chunk = body.next().await?;
        if let Ok(bytes) = &chunk {
            since += bytes.len();
        }
        Some((chunk, (body, clock, since)))
    })
    .boxed_local()
}

const ID_KEY: &str = "\"id\":";

/// The request id whose key starts at `at` in `text`.
fn id_at(text: &str, at: usize) -> Option<RequestId> {
    let rest = text[at + ID_KEY.len()..].trim_start();
    let mut value = serde_json::Deserializer::from_str(rest).into_iter::<RequestId>();
    value.next()?.ok()
}

/// Every JSON string value under a `"text"` key in `json`, decoded; the last may be cut short.
/// Inside a JSON string every quote is escaped, so the pattern only ever matches a real key.
fn text_strings(json: &str) -> Vec<String> {
    const KEY: &str = "\"text\":";
    let mut texts = Vec::new();
    let mut rest = json;
    while let Some(at) = rest.find(KEY) {
        let after = rest[at + KEY.len()..].trim_start();
        let Some(string) = after.strip_prefix('"') else {
            rest = after;
            continue;
        };
        match closing_quote(string) {
            Some(end) => {
                texts.push(decode(&string[..end]));
                rest = &string[end + 1..];
            }
            None => {
                texts.push(decode(without_broken_escape(string)));
                break;
            }
        }
    }
    texts
}

/// Where the JSON string starting at `string` (after its opening quote) ends.
fn closing_quote(string: &str) -> Option<usize> {
    let mut escaped = false;
    for (index, byte) in string.bytes().enumerate() {
        match byte {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            b'"' => return Some(index),
            _ => {}
        }
    }
    None
}

/// `string` without an escape sequence the cut left unfinished (`\`, `\u12`).
fn without_broken_escape(string: &str) -> &str {
    let trailing = string.bytes().rev().take_while(|byte| *byte == b'\\').count();
    let string = if trailing % 2 == 1 { &string[..string.len() - 1] } else { string };
    match string.rfind("\\u") {
        Some(at) if string.len() - at < 6 && is_escape_start(string, at) => &string[..at],
        _ => string,
    }
}

/// Whether the backslash at `at` starts an escape (is not itself escaped).
fn is_escape_start(string: &str, at: usize) -> bool {
    string[..at].bytes().rev().take_while(|byte| *byte == b'\\').count() % 2 == 0
}

/// The text of a JSON string's contents; a cut surrogate pair loses its half, anything else
/// undecodable is kept as it came.
fn decode(contents: &str) -> String {
    let quoted = |contents: &str| serde_json::from_str::<String>(&format!("\"{contents}\""));
    quoted(contents)
        .or_else(|error| match contents.rfind("\\u") {
            Some(at) if is_escape_start(contents, at) => quoted(&contents[..at]),
            _ => Err(error),
        })
        .unwrap_or_else(|_| contents.to_owned())
}
