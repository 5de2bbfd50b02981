//! The canvas as a JSON document, for file export/import and share links, and the reader for the
//! dashboard shapes the reference system (webmcp-auto-ui) produces, so its dashboards open here.
//!
//! We write one shape, readable by the reference viewer too (it reads `content.blocks[].type/data`):
//! `{"meta": {"format": "autoui-canvas", "format_version": 1, "title"?, "provenance"?: {"mcpServers":
//! [{"name", "url"}]}}, "content": {"blocks": [Block...]}}`, where each block keeps its id, layout,
//! style, provenance and binding. Where each server the bindings call lives (only shareable URLs, see
//! `binding/server_url.rs`) is written into those bindings (`server_url`), so the person who opens it
//! can connect them without looking for their URLs and a copy keeps it, and listed in `mcpServers`
//! as the reference writes it. Opening a document does no work for this (it is in the first load):
//! the bindings read as they are written.
//! We read that shape, the reference's meta/content shape (`content.blocks: [{type, data}]`), its
//! flat "canvas skill" (`{version, name, mcp, blocks: [{type, data}]}`) and a markdown recipe
//! (shown as one `text` widget).

use serde_json::{Map, Value, json};

use crate::binding::server_url;
use crate::binding::source::{Source, servers_needed};
use crate::canvas::decode::{DecodeContext, SetAside, decode_canvas};
use crate::canvas::model::Canvas;
use crate::canvas::persist::readable_name;
use crate::ids::ServerId;
use crate::ports::Random;
use crate::tool::Origin;

const FORMAT: &str = "autoui-canvas";
/// The canvas document version this build writes and the newest it reads.
pub const CANVAS_FORMAT_VERSION: u64 = 1;
/// Largest document read, in bytes.
pub const MAX_DOCUMENT_BYTES: usize = 16 * 1024 * 1024;

/// Which producer's shape a document had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceFormat {
    Autoui,
    /// The reference viewer's `{meta, content: {blocks}}`.
    ReferenceMetaContent,
    /// The reference composer's flat `{version, name, mcp, blocks}`.
    ReferenceFlat,
    /// A markdown recipe, shown as one `text` widget.
    Markdown,
}

/// A document turned into a canvas ready for `Op::Replace`.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    pub canvas: Canvas,
    pub title: Option<String>,
    /// MCP server URLs the document says its data came from (its bindings carry their own, in
    /// `Binding::server_url`).
    pub mcp_servers: Vec<String>,
    pub source: SourceFormat,
    /// Blocks that could not be read, whole.
    pub set_aside: Vec<SetAside>,
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ImportError {
    #[error("the document is empty")]
    Empty,
    #[error("the document is {bytes} bytes; the limit is {limit}")]
    TooLarge { bytes: usize, limit: usize },
    #[error("the document is not valid JSON: {0}")]
    NotJson(String),
    #[error(
        "the document was written by a newer autoui (canvas format {found}); this version reads up to {supported}"
    )]
    NewerFormat { found: u64, supported: u64 },
    #[error(
        "the document holds no dashboard: expected {{\"content\": {{\"blocks\": [...]}}}} or {{\"blocks\": [...]}}"
    )]
    NotADashboard,
}

/// The canvas as a pretty-printed JSON file. `servers` are the servers added in this page, by
/// tool prefix, with their URLs: where the bindings' servers are said to live (else where the
/// dashboard said they did when it was opened here).
pub fn export_file(canvas: &Canvas, title: Option<&str>, servers: &[(ServerId, String)]) -> String {
    format!("{:#}", document(canvas, title, servers))
}

/// The canvas as compact JSON (what a share link carries); `servers` as for [`export_file`].
pub fn export_compact(canvas: &Canvas, title: Option<&str>, servers: &[(ServerId, String)]) -> String {
    document(canvas, title, servers).to_string()
}

fn document(canvas: &Canvas, title: Option<&str>, servers: &[(ServerId, String)]) -> Value {
    let mut meta = Map::new();
    meta.insert("format".to_owned(), json!(FORMAT));
    meta.insert("format_version".to_owned(), json!(CANVAS_FORMAT_VERSION));
    if let Some(title) = title {
        meta.insert("title".to_owned(), json!(title));
    }
    let located = located_servers(canvas, servers);
    let mut blocks = json!(canvas.blocks());
    for block in blocks.as_array_mut().into_iter().flatten() {
        let Some(binding) = block.get_mut("binding").and_then(Value::as_object_mut) else { continue };
        let server = serde_json::from_value::<Source>(binding.get("source").cloned().unwrap_or_default()).ok().and_then(|source| source.server());
        match located.iter().find(|(name, _)| server.as_ref() == Some(name)) {
            Some((_, url)) => binding.insert("server_url".to_owned(), json!(url)),
            None => binding.remove("server_url"),
        };
    }
    if !located.is_empty() {
        let listed: Vec<Value> = located.iter().map(|(name, url)| json!({ "name": name.to_string(), "url": url })).collect();
        meta.insert("provenance".to_owned(), json!({ "mcpServers": listed }));
    }
    json!({ "meta": meta, "content": { "blocks": blocks } })
}

/// Each server the bindings call whose URL is known, with that URL in its shareable form.
fn located_servers(canvas: &Canvas, servers: &[(ServerId, String)]) -> Vec<(ServerId, String)> {
    servers_needed(canvas.blocks())
        .into_iter()
        .filter_map(|needed| {
            let added = servers.iter().find(|(prefix, _)| prefix == &needed.server);
            let url = added.and_then(|(_, url)| server_url::shareable(url)).or(needed.url)?;
            Some((needed.server, url))
        })
        .collect()
}

/// Reads a document in any supported shape. Blocks of other systems get fresh ids and places, and
/// `User` provenance; blocks that cannot be read are set aside, never dropped silently.
pub fn import(text: &str, random: &dyn Random, now_ms: f64) -> Result<Imported, ImportError> {
    if text.len() > MAX_DOCUMENT_BYTES {
        return Err(ImportError::TooLarge {
            bytes: text.len(),
            limit: MAX_DOCUMENT_BYTES,
        });
    }
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if trimmed.is_empty() {
        return Err(ImportError::Empty);
    }
    if !trimmed.starts_with(['{', '[']) {
        return Ok(markdown(trimmed, random, now_ms));
    }
    let value: Value =
        serde_json::from_str(trimmed).map_err(|error| ImportError::NotJson(error.to_string()))?;
    import_value(&value, random, now_ms)
}

fn import_value(value: &Value, random: &dyn Random, now_ms: f64) -> Result<Imported, ImportError> {
    let meta = value.get("meta");
    let (source, blocks) = if meta
        .and_then(|meta| meta.get("format"))
        .and_then(Value::as_str)
        == Some(FORMAT)
    {
        let found = meta
            .and_then(|meta| meta.get("format_version"))
            .and_then(Value::as_u64)
            .unwrap_or(0);
        if found > CANVAS_FORMAT_VERSION {
            return Err(ImportError::NewerFormat {
                found,
                supported: CANVAS_FORMAT_VERSION,
            });
        }
        (SourceFormat::Autoui, value.pointer("/content/blocks"))
    } else if let Some(blocks) = value
        .pointer("/content/blocks")
        .filter(|blocks| blocks.is_array())
    {
        // The reference viewer leaves a stale top-level `blocks` beside `content.blocks`: content wins.
        (SourceFormat::ReferenceMetaContent, Some(blocks))
    } else {
        (SourceFormat::ReferenceFlat, value.get("blocks"))
    };
    let Some(blocks) = blocks.and_then(Value::as_array) else {
        return Err(ImportError::NotADashboard);
    };
    let context = DecodeContext {
        random,
        now_ms,
        default_origin: Origin::User,
    };
    let (canvas, set_aside) = if source == SourceFormat::Autoui {
        decode_canvas(blocks.clone(), &context)
    } else {
        decode_canvas(foreign_blocks(blocks), &context)
    };
    let title = [meta.and_then(|meta| meta.get("title")), value.get("name")]
        .into_iter()
        .flatten()
        .find_map(Value::as_str)
        .and_then(readable_name);
    Ok(Imported {
        canvas,
        title,
        mcp_servers: mcp_servers(value),
        source,
        set_aside,
    })
}

/// Another system's blocks, reduced to what we can trust from it: type and data (its ids and
/// layout mean nothing here).
fn foreign_blocks(blocks: &[Value]) -> Vec<Value> {
    blocks
        .iter()
        .map(|block| match block.as_object() {
            Some(fields) => {
                let kept: Map<String, Value> = fields
                    .iter()
                    .filter(|(key, _)| matches!(key.as_str(), "type" | "data"))
                    .map(|(key, value)| (key.clone(), value.clone()))
                    .collect();
                Value::Object(kept)
            }
            None => block.clone(),
        })
        .collect()
}

/// Server URLs from `mcp`, `meta.mcp` and `meta.provenance.mcpServers` (strings or `{url}`), deduplicated.
fn mcp_servers(value: &Value) -> Vec<String> {
    let mut urls: Vec<String> = Vec::new();
    let listed = value
        .pointer("/meta/provenance/mcpServers")
        .and_then(Value::as_array)
        .into_iter()
        .flatten();
    let candidates = [value.get("mcp"), value.pointer("/meta/mcp")]
        .into_iter()
        .flatten()
        .chain(listed.map(|server| server.get("url").unwrap_or(server)));
    for url in candidates.filter_map(Value::as_str) {
        let url = url.trim();
        if url.starts_with("http") && !urls.iter().any(|known| known == url) {
            urls.push(url.to_owned());
        }
    }
    urls
}

/// A markdown recipe (front matter optional) as one `text` widget; its `title` or `name` becomes the title.
fn markdown(text: &str, random: &dyn Random, now_ms: f64) -> Imported {
    let (front, body) = split_front_matter(text);
    let title = front.and_then(|front| {
        front.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            matches!(key.trim(), "title" | "name")
                .then(|| readable_name(value.trim().trim_matches(['"', '\''])))
                .flatten()
        })
    });
    let block = json!({ "type": "text", "data": { "content": body.trim() } });
    let context = DecodeContext {
        random,
        now_ms,
        default_origin: Origin::User,
    };
    let (canvas, set_aside) = decode_canvas(vec![block], &context);
    Imported {
        canvas,
        title,
        mcp_servers: Vec::new(),
        source: SourceFormat::Markdown,
        set_aside,
    }
}

fn split_front_matter(text: &str) -> (Option<&str>, &str) {
    let Some(rest) = text.strip_prefix("---") else {
        return (None, text);
    };
    let rest = rest
        .trim_start_matches([' ', '\t'])
        .strip_prefix('\n')
        .or_else(|| rest.strip_prefix("\r\n"));
    match rest.and_then(|rest| rest.find("\n---").map(|end| (rest, end))) {
        Some((rest, end)) => {
            let after = &rest[end + 4..];
            (
                Some(&rest[..end]),
                after.split_once('\n').map_or("", |(_, body)| body),
            )
        }
        None => (None, text),
    }
}
