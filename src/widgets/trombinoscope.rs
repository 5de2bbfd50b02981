//! `trombinoscope` widget: a responsive grid of portrait tiles (photo, or initials on a colour derived
//! from the name) with name, subtitle and badge; choosing a person reports them to the agent.

use autoui_core::canvas::event::{WidgetAction, item_payload};
use autoui_core::view::contrast::ink_on;
use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::people::{name_color, people_count};
use autoui_core::view::present::{initials, safe_color, safe_image};
use leptos::prelude::*;
use serde_json::Value;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse};

/// Tiles per row on wide widgets when the data does not say.
const DEFAULT_COLUMNS: u32 = 4;

struct TrombinoscopeData<'a> {
    title: Option<String>,
    people: &'a [Value],
    columns: Option<f64>,
    show_badge: Option<bool>,
    empty_message: Option<String>,
}

impl<'a> TrombinoscopeData<'a> {
    fn read(fields: Fields<'a>) -> Read<Self> {
        Ok(TrombinoscopeData {
            title: fields.text("title")?,
            people: fields.list("people")?,
            columns: fields.number("columns")?,
            show_badge: fields.flag("showBadge")?,
            empty_message: fields.text("emptyMessage")?,
        })
    }
}

struct Person {
    name: Option<String>,
    subtitle: Option<String>,
    avatar: Option<String>,
    badge: Option<String>,
    color: Option<String>,
    badge_color: Option<String>,
}

impl Person {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(Person {
            name: fields.scalar_text("name")?,
            subtitle: fields.scalar_text("subtitle")?,
            avatar: fields.text("avatar")?,
            badge: fields.scalar_text("badge")?,
            color: fields.text("color")?,
            badge_color: fields.text("badgeColor")?,
        })
    }
}

#[component]
pub fn Trombinoscope(props: WidgetProps) -> impl IntoView {
    let WidgetProps { data, emit, .. } = props;
    view! {
        <div class="au-trombinoscope">
            {move || data.with(|data| match parse(data, TrombinoscopeData::read) {
                Err(error) => view! { <WidgetError message=format!("the trombinoscope data is not valid: {error}") /> }
                    .into_any(),
                Ok(group) => render(group, emit),
            })}
        </div>
    }
}

fn render(group: TrombinoscopeData, emit: Callback<(WidgetAction, Value)>) -> AnyView {
    let mut people = Vec::with_capacity(group.people.len());
    for (index, raw) in group.people.iter().enumerate() {
        match parse(raw, Person::read) {
            Ok(person) => people.push((person, raw)),
            Err(error) => {
                let message = format!("person {} is not valid: {error}", index + 1);
                return view! { <WidgetError message /> }.into_any();
            }
        }
    }
    if people.is_empty() {
        let message = group
            .empty_message
            .filter(|m| !m.trim().is_empty())
            .unwrap_or_else(|| "No people to show".to_owned());
        return view! { <WidgetTitle title=group.title /> <EmptyState message /> }.into_any();
    }
    let columns = group.columns.map_or(DEFAULT_COLUMNS, |columns| {
        columns.round().clamp(1.0, 8.0) as u32
    });
    let show_badge = group.show_badge.unwrap_or(true);
    let chosen = RwSignal::new(None::<usize>);
    let count = people_count(people.len());
    let tiles = people
        .into_iter()
        .enumerate()
        .map(|(index, (person, raw))| {
            let name = person.name.filter(|name| !name.trim().is_empty()).unwrap_or_else(|| "Unnamed".to_owned());
            let tint = person.color.as_deref().and_then(safe_color).unwrap_or_else(|| name_color(&name));
            let badge = person.badge.filter(|badge| show_badge && !badge.trim().is_empty()).map(|badge| {
                let fill = person.badge_color.as_deref().and_then(safe_color);
                let ink = fill.as_deref().and_then(ink_on);
                let class = match ink {
                    Some(ink) => format!("au-trombinoscope__badge au-trombinoscope__badge--fill au-trombinoscope__badge--ink-{}", ink.as_str()),
                    None => "au-trombinoscope__badge".to_owned(),
                };
                let style = fill.filter(|_| ink.is_some()).map(|fill| format!("--au-trombinoscope-badge: {fill}"));
                view! { <span class=class style=style>{badge}</span> }
            });
            let subtitle = person
                .subtitle
                .filter(|subtitle| !subtitle.trim().is_empty())
                .map(|subtitle| view! { <span class="au-trombinoscope__subtitle">{subtitle}</span> });
            let payload = item_payload(raw, index);
            view! {
                <li class="au-trombinoscope__item">
                    <button type="button" class="au-trombinoscope__tile" style=format!("--au-trombinoscope-tint: {tint}")
                        aria-pressed=move || (chosen.get() == Some(index)).to_string()
                        on:click=move |_| {
                            chosen.set(Some(index));
                            emit.run((WidgetAction::PersonClick, payload.clone()));
                        }>
                        <Portrait name=name.clone() src=person.avatar.as_deref().and_then(safe_image) />
                        <span class="au-trombinoscope__name">{name}</span>
                        {subtitle}
                        {badge}
                    </button>
                </li>
            }
        })
        .collect_view();
    view! {
        <WidgetTitle title=group.title />
        <ul class="au-trombinoscope__grid" style=format!("--au-trombinoscope-columns: {columns}")>{tiles}</ul>
        <p class="au-trombinoscope__count">{count}</p>
    }
    .into_any()
}

/// A round portrait, or initials on the tile's tint when there is no usable photo or it fails.
#[component]
fn Portrait(name: String, src: Option<String>) -> impl IntoView {
    let failed = RwSignal::new(false);
    let letters = initials(&name);
    view! {
        <span class="au-trombinoscope__avatar">
            {move || match (&src, failed.get()) {
                (Some(src), false) => view! {
                    <img src=src.clone() alt="" loading="lazy" referrerpolicy="no-referrer"
                        on:error=move |_| failed.set(true) />
                }
                .into_any(),
                _ => view! { <span class="au-trombinoscope__initials" aria-hidden="true">{letters.clone()}</span> }
                    .into_any(),
            }}
        </span>
    }
}
