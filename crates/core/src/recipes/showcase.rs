//! What the gallery shows of each widget recipe: its description and examples, compiled by
//! `build.rs` into a file a few kilobytes long. The gallery reads this instead of the
//! [`registry`](super::registry), whose schemas and guidance it does not show, so the page that
//! renders every widget does not download every recipe.

use serde::Deserialize;
use serde_json::Value;

use crate::sort::sort_by_key;
use crate::widget_kind::WidgetKind;

const COMPILED: &str = include_str!(concat!(env!("OUT_DIR"), "/showcase.json"));

/// One widget as the gallery shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Showcase {
    pub kind: WidgetKind,
    pub description: String,
    /// The `params` of each of the recipe's example calls, in order.
    pub examples: Vec<Value>,
}

#[derive(Deserialize)]
struct Entry {
    widget: String,
    description: String,
    examples: Vec<Value>,
}

/// Every recipe that loaded, in the registry's order (that of [`WidgetKind::ALL`]). A recipe that
/// does not load is left out here as in the registry (its native self-check test fails on it).
pub fn showcase() -> Vec<Showcase> {
    let entries: Vec<Entry> = serde_json::from_str(COMPILED).unwrap_or_default();
    let mut shown: Vec<Showcase> = entries
        .into_iter()
        .filter_map(|entry| {
            let kind = WidgetKind::from_name(&entry.widget)?;
            Some(Showcase { kind, description: entry.description, examples: entry.examples })
        })
        .collect();
    sort_by_key(&mut shown, |entry| WidgetKind::ALL.iter().position(|kind| *kind == entry.kind));
    shown
}
