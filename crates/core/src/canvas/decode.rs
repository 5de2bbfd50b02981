//! Lenient block decoding for everything read from outside (storage, files, share links): each
//! block is read field by field, whatever can be repaired is, and whatever cannot is set aside
//! whole with the reason, so one bad block never costs the others.

use std::collections::HashSet;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::binding::source::Binding;
use crate::canvas::layout;
use crate::canvas::model::{Block, Canvas, Layout};
use crate::canvas::style::{Style, StyleError};
use crate::ids::BlockId;
use crate::ports::Random;
use crate::tool::Origin;
use crate::widget_kind::WidgetKind;

/// Something that could not be loaded, kept whole so the app can offer it back (download, report).
#[derive(Clone, Debug, PartialEq)]
pub struct SetAside {
    /// Which part: `block 3`, `conversation`, `dashboard "Sales"`.
    pub what: String,
    pub reason: String,
    pub raw: Value,
}

/// Where decoded blocks come from: it decides how far their ids and times are trusted.
pub struct DecodeContext<'a> {
    pub random: &'a dyn Random,
    /// Unix ms, for blocks that carry no times.
    pub now_ms: f64,
    /// Who gets the blocks that carry no provenance.
    pub default_origin: Origin,
}

/// Decodes `items` into a canvas. Blocks without a usable layout are placed in the first free slot
/// after those that have one; ids that are missing, malformed or repeated are replaced by fresh ones.
/// Takes the items by value: a block's `data` (a 10,000-row table, say) moves into it uncopied.
pub fn decode_canvas(items: Vec<Value>, context: &DecodeContext<'_>) -> (Canvas, Vec<SetAside>) {
    let mut set_aside = Vec::new();
    let mut taken = HashSet::new();
    let mut decoded = Vec::new();
    for (index, item) in items.into_iter().enumerate() {
        let style = item.get("style").cloned();
        match decode_block(item, context, &mut taken) {
            Ok(block) => {
                if !block.rejected_style.is_empty() {
                    let reasons: Vec<String> = block
                        .rejected_style
                        .iter()
                        .map(ToString::to_string)
                        .collect();
                    set_aside.push(SetAside {
                        what: format!("block {}, style", index + 1),
                        reason: reasons.join("; "),
                        raw: style.unwrap_or(Value::Null),
                    });
                }
                decoded.push(block);
            }
            Err((reason, raw)) => set_aside.push(SetAside {
                what: format!("block {}", index + 1),
                reason,
                raw,
            }),
        }
    }
    (place(decoded), set_aside)
}

struct DecodedBlock {
    block: Block,
    /// No usable layout came with it.
    needs_place: bool,
    /// Style declarations the allow-list refused (a share link is anyone's input).
    rejected_style: Vec<StyleError>,
}

/// A block, or why not with the item as it came.
fn decode_block(
    item: Value,
    context: &DecodeContext<'_>,
    taken: &mut HashSet<BlockId>,
) -> Result<DecodedBlock, (String, Value)> {
    let Value::Object(mut fields) = item else {
        return Err(("not a JSON object".to_owned(), item));
    };
    let kind = match fields.get("type") {
        Some(Value::String(name)) => match WidgetKind::from_name(name) {
            Some(kind) => kind,
            None => {
                let reason = format!(
                    "\"{name}\" is not one of the {} widget types of this app",
                    WidgetKind::ALL.len()
                );
                return Err((reason, Value::Object(fields)));
            }
        },
        Some(_) => return Err(("\"type\" is not a string".to_owned(), Value::Object(fields))),
        None => return Err(("no \"type\"".to_owned(), Value::Object(fields))),
    };
    // Taken, not removed: the rest of the item is dropped next, and removal code would weigh on
    // the first load.
    let data = fields
        .get_mut("data")
        .map_or_else(|| Value::Object(Map::new()), Value::take);
    let fields = &fields;
    let id = match fields.get("id").and_then(Value::as_str) {
        Some(id) if is_block_id(id) && !taken.contains(&BlockId::new(id)) => BlockId::new(id),
        _ => fresh_id(context.random, taken),
    };
    taken.insert(id.clone());
    let layout: Option<Layout> = field(fields, "layout");
    let mut style: Style = field(fields, "style").unwrap_or_default();
    let rejected_style = style.retain_safe();
    let created_ms = fields
        .get("created_ms")
        .and_then(Value::as_f64)
        .unwrap_or(context.now_ms);
    let block = Block {
        id,
        kind,
        data: Arc::new(data),
        layout: layout
            .map(|layout| layout::clamp(layout, u32::MAX))
            .unwrap_or(Layout {
                x: 0,
                y: 0,
                w: 1,
                h: 1,
                z: 0,
            }),
        style,
        provenance: field(fields, "provenance").unwrap_or_else(|| context.default_origin.clone()),
        created_ms,
        updated_ms: fields
            .get("updated_ms")
            .and_then(Value::as_f64)
            .unwrap_or(created_ms),
        // A binding that does not read is dropped: the widget keeps its data, unbound.
        binding: field::<Binding>(fields, "binding").map(Arc::new),
    };
    Ok(DecodedBlock {
        block,
        needs_place: layout.is_none(),
        rejected_style,
    })
}

fn field<T: DeserializeOwned>(fields: &Map<String, Value>, key: &str) -> Option<T> {
    fields
        .get(key)
        .and_then(|value| serde_json::from_value(value.clone()).ok())
}

/// Our ids: `w_` and 1 to 32 lower-case base-36 characters (the reference system's ids fit too).
fn is_block_id(id: &str) -> bool {
    id.strip_prefix("w_").is_some_and(|rest| {
        (1..=32).contains(&rest.len())
            && rest
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
    })
}

fn fresh_id(random: &dyn Random, taken: &HashSet<BlockId>) -> BlockId {
    loop {
        let id = BlockId::generate(random);
        if !taken.contains(&id) {
            return id;
        }
    }
}

/// Places the blocks that need a place, in order, around those that have one; keeps the order.
fn place(decoded: Vec<DecodedBlock>) -> Canvas {
    let mut canvas = Canvas::default();
    // The original index of each block in `canvas.blocks`, to slot placed blocks back in order.
    let mut origins: Vec<usize> = Vec::new();
    let mut unplaced = Vec::new();
    for (
        index,
        DecodedBlock {
            block, needs_place, ..
        },
    ) in decoded.into_iter().enumerate()
    {
        if needs_place {
            unplaced.push((index, block));
        } else {
            origins.push(index);
            canvas.blocks.push(block);
        }
    }
    let top_z = canvas
        .blocks
        .iter()
        .map(|block| block.layout.z)
        .max()
        .unwrap_or(0);
    for (z, (index, mut block)) in (top_z + 1..).zip(unplaced) {
        let (w, h) = block.kind.default_size();
        let (x, y) = layout::first_free_slot(&canvas, w, h);
        block.layout = Layout { x, y, w, h, z };
        let position = origins
            .iter()
            .position(|&original| original > index)
            .unwrap_or(origins.len());
        origins.insert(position, index);
        canvas.blocks.insert(position, block);
    }
    canvas
}
