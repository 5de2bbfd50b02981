//! `list` widget: a titled list of short lines; clicking (or Enter/Space on) an item reports it.

use autoui_core::canvas::event::WidgetAction;
use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::present::display_value;
use leptos::prelude::*;
use serde_json::{Value, json};

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse};

struct ListData<'a> {
    title: Option<String>,
    items: &'a [Value],
}

impl<'a> ListData<'a> {
    fn read(fields: Fields<'a>) -> Read<Self> {
        Ok(ListData {
            title: fields.text("title")?,
            items: fields.list("items")?,
        })
    }
}

/// An item's line: text as is, numbers formatted, objects (`{"text": …}`, a common near miss) by
/// their text-like field, or as compact JSON when they have none.
fn item_text(item: &Value) -> String {
    match item {
        Value::Object(fields) => ["text", "label", "title", "name"]
            .iter()
            .find_map(|key| {
                fields
                    .get(*key)
                    .filter(|value| !value.is_object() && !value.is_array())
            })
            .map(display_value)
            .unwrap_or_else(|| item.to_string()),
        Value::Array(_) => item.to_string(),
        scalar => display_value(scalar),
    }
}

#[component]
pub fn List(props: WidgetProps) -> impl IntoView {
    let WidgetProps { data, emit, .. } = props;
    move || {
        data.with(|value| match parse(value, ListData::read) {
            Ok(list) if list.items.is_empty() => view! {
                <div class="au-list">
                    <WidgetTitle title=list.title />
                    <EmptyState message="This list has no items" />
                </div>
            }
            .into_any(),
            Ok(list) => list_view(list, emit).into_any(),
            Err(error) => {
                view! { <WidgetError message=format!("the list data is not valid: {error}") /> }
                    .into_any()
            }
        })
    }
}

fn list_view(list: ListData<'_>, emit: Callback<(WidgetAction, Value)>) -> impl IntoView {
    let items = list
        .items
        .iter()
        .cloned()
        .enumerate()
        .map(|(index, item)| {
            let text = item_text(&item);
            view! {
                <li class="au-list__entry">
                    <button type="button" class="au-list__item"
                        on:click=move |_| emit.run((WidgetAction::ItemClick, json!({"index": index, "item": item.clone()})))>
                        {text}
                    </button>
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="au-list">
            <WidgetTitle title=list.title />
            <ul class="au-list__items">{items}</ul>
        </div>
    }
}
