//! `tags` widget: a caption and a wrapping group of pills, the active ones highlighted.

use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::present::display_value;
use leptos::prelude::*;
use serde_json::Value;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, parse};

struct TagsData<'a> {
    label: Option<String>,
    tags: &'a [Value],
}

impl<'a> TagsData<'a> {
    fn read(fields: Fields<'a>) -> Read<Self> {
        Ok(TagsData {
            label: fields.text("label")?,
            tags: fields.list("tags")?,
        })
    }
}

struct Tag {
    text: String,
    active: bool,
}

/// A tag is a string (or any scalar), or `{text, active}`; an object without `text` is refused.
fn tag(value: &Value, index: usize) -> Result<Tag, String> {
    match value {
        Value::Object(fields) => {
            let text = fields
                .get("text")
                .or_else(|| fields.get("label"))
                .filter(|text| !text.is_object() && !text.is_array())
                .map(display_value)
                .ok_or_else(|| format!("tag {} has no text", index + 1))?;
            let active = fields
                .get("active")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            Ok(Tag { text, active })
        }
        Value::Array(_) => Err(format!("tag {} is a list, not text", index + 1)),
        scalar => Ok(Tag {
            text: display_value(scalar),
            active: false,
        }),
    }
}

#[component]
pub fn Tags(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    move || {
        data.with(|value| {
            let parsed = parse(value, TagsData::read).and_then(|data| {
                let tags = data
                    .tags
                    .iter()
                    .enumerate()
                    .map(|(index, value)| tag(value, index))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((data.label.filter(|label| !label.trim().is_empty()), tags))
            });
            match parsed {
                Ok((label, tags)) if tags.is_empty() => view! {
                    <div class="au-tags">
                        {label.map(|label| view! { <p class="au-tags__label">{label}</p> })}
                        <EmptyState message="No tags to show" />
                    </div>
                }
                .into_any(),
                Ok((label, tags)) => tags_view(label, tags).into_any(),
                Err(error) => {
                    view! { <WidgetError message=format!("the tags are not valid: {error}") /> }
                        .into_any()
                }
            }
        })
    }
}

fn tags_view(label: Option<String>, tags: Vec<Tag>) -> impl IntoView {
    let pills = tags
        .into_iter()
        .map(|Tag { text, active }| {
            view! {
                <li class="au-tags__tag" class:au-tags__tag--active=active>
                    {text}
                    {active.then(|| view! { <span class="au-visually-hidden">" (active)"</span> })}
                </li>
            }
        })
        .collect_view();
    let list_label = label.clone().unwrap_or_else(|| "Tags".to_owned());
    view! {
        <div class="au-tags">
            {label.map(|label| view! { <p class="au-tags__label" aria-hidden="true">{label}</p> })}
            <ul class="au-tags__list" aria-label=list_label>{pills}</ul>
        </div>
    }
}
