//! `kv` widget: the details of one record as key/value pairs, keys on the left, stacked when narrow.

use autoui_core::view::present::{display_value, safe_link};
use leptos::prelude::*;
use serde_json::Value;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse};

struct Pair {
    key: String,
    value: String,
}

/// The pairs to show, read from `rows` without copying the JSON first. Pairs are the recipe's shape;
/// an object (`{"Status": "Adopted"}`) and `{key, value}` rows are the model's near misses and read too.
/// A pair's third and later items are appended to its value so nothing is lost.
fn pairs(rows: Option<&Value>) -> Result<Vec<Pair>, String> {
    match rows {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(map)) => Ok(map
            .iter()
            .map(|(key, value)| Pair {
                key: key.clone(),
                value: cell_text(value),
            })
            .collect()),
        Some(Value::Array(rows)) => rows
            .iter()
            .enumerate()
            .map(|(index, row)| {
                row_pair(row).ok_or_else(|| format!("row {} is not a [key, value] pair", index + 1))
            })
            .collect(),
        Some(_) => Err("rows must be a list of [key, value] pairs".to_owned()),
    }
}

fn row_pair(row: &Value) -> Option<Pair> {
    match row {
        Value::Array(cells) => {
            let key = cells.first().map(cell_text).unwrap_or_default();
            let value = cells
                .iter()
                .skip(1)
                .map(cell_text)
                .collect::<Vec<_>>()
                .join(" · ");
            Some(Pair { key, value })
        }
        Value::Object(fields) => {
            let key = ["key", "label", "name"]
                .iter()
                .find_map(|name| fields.get(*name))?;
            let value = fields.get("value").map(cell_text).unwrap_or_default();
            Some(Pair {
                key: cell_text(key),
                value,
            })
        }
        _ => None,
    }
}

/// A cell as text; nested lists and objects are shown as compact JSON rather than refused.
fn cell_text(value: &Value) -> String {
    match value {
        Value::Array(_) | Value::Object(_) => value.to_string(),
        scalar => display_value(scalar),
    }
}

#[component]
pub fn Kv(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    move || {
        data.with(|value| {
            let parsed =
                parse(value, |fields| fields.text("title")).and_then(|title| Ok((title, pairs(value.get("rows"))?)));
            match parsed {
                Ok((title, pairs)) if pairs.is_empty() => view! {
                    <div class="au-kv">
                        <WidgetTitle title />
                        <EmptyState message="No details to show" />
                    </div>
                }
                .into_any(),
                Ok((title, pairs)) => kv_view(title, pairs).into_any(),
                Err(error) => view! {
                    <WidgetError message=format!("the key/value data is not valid: {error}") />
                }
                .into_any(),
            }
        })
    }
}

fn kv_view(title: Option<String>, pairs: Vec<Pair>) -> impl IntoView {
    let rows = pairs
        .into_iter()
        .map(|Pair { key, value }| {
            // A value that is exactly a web link is clickable; anything else is plain text.
            let value = match value
                .starts_with("http")
                .then(|| safe_link(&value))
                .flatten()
            {
                Some(href) => view! {
                    <a href=href target="_blank" rel="noopener noreferrer">{value}</a>
                }
                .into_any(),
                None => value.into_any(),
            };
            view! {
                <div class="au-kv__row">
                    <dt class="au-kv__key">{key}</dt>
                    <dd class="au-kv__value">{value}</dd>
                </div>
            }
        })
        .collect_view();
    view! {
        <div class="au-kv">
            <WidgetTitle title />
            <dl class="au-kv__list">{rows}</dl>
        </div>
    }
}
