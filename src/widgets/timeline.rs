//! `timeline` widget: a vertical list of dated events with done / active / pending dots joined by a
//! connector, optional source links and tags; choosing an event reports it to the agent.

use autoui_core::canvas::event::{WidgetAction, item_payload};
use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::present::{link_host, safe_color, safe_link};
use autoui_core::view::table::parse_date;
use leptos::prelude::*;
use serde_json::Value;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse};

struct TimelineData<'a> {
    title: Option<String>,
    events: &'a [Value],
    empty_message: Option<String>,
}

impl<'a> TimelineData<'a> {
    fn read(fields: Fields<'a>) -> Read<Self> {
        Ok(TimelineData {
            title: fields.text("title")?,
            events: fields.list("events")?,
            empty_message: fields.text("emptyMessage")?,
        })
    }
}

struct Event {
    title: Option<String>,
    date: Option<String>,
    description: Option<String>,
    status: Option<String>,
    color: Option<String>,
    href: Option<String>,
    tags: Vec<String>,
}

impl Event {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(Event {
            title: fields.text("title")?,
            date: fields.text("date")?,
            description: fields.text("description")?,
            status: fields.text("status")?,
            color: fields.text("color")?,
            href: fields.text("href")?,
            tags: fields.texts("tags")?,
        })
    }
}

/// Where an event stands; unknown words read as pending rather than failing the whole timeline.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Done,
    Active,
    Pending,
}

impl Status {
    fn read(status: Option<&str>) -> Status {
        match status.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
            Some("done" | "completed" | "complete" | "finished") => Status::Done,
            Some("active" | "current" | "in progress" | "in-progress" | "ongoing") => {
                Status::Active
            }
            _ => Status::Pending,
        }
    }

    fn class(self) -> &'static str {
        match self {
            Status::Done => "au-timeline__event au-timeline__event--done",
            Status::Active => "au-timeline__event au-timeline__event--active",
            Status::Pending => "au-timeline__event au-timeline__event--pending",
        }
    }

    /// Said to screen readers, since the dot's colour is not.
    fn words(self) -> &'static str {
        match self {
            Status::Done => "Done",
            Status::Active => "In progress",
            Status::Pending => "Pending",
        }
    }
}

#[component]
pub fn Timeline(props: WidgetProps) -> impl IntoView {
    let WidgetProps { data, emit, .. } = props;
    view! {
        <div class="au-timeline">
            {move || data.with(|data| match parse(data, TimelineData::read) {
                Err(error) => view! { <WidgetError message=format!("the timeline data is not valid: {error}") /> }
                    .into_any(),
                Ok(timeline) => render(timeline, emit),
            })}
        </div>
    }
}

fn render(timeline: TimelineData<'_>, emit: Callback<(WidgetAction, Value)>) -> AnyView {
    let mut events = Vec::with_capacity(timeline.events.len());
    for (index, raw) in timeline.events.iter().enumerate() {
        match parse(raw, Event::read) {
            Ok(event) => events.push((event, raw)),
            Err(error) => {
                let message = format!("event {} is not valid: {error}", index + 1);
                return view! { <WidgetError message /> }.into_any();
            }
        }
    }
    if events.is_empty() {
        let message = timeline
            .empty_message
            .filter(|m| !m.trim().is_empty())
            .unwrap_or_else(|| "No events".to_owned());
        return view! { <WidgetTitle title=timeline.title /> <EmptyState message /> }.into_any();
    }
    let chosen = RwSignal::new(None::<usize>);
    let items = events
        .into_iter()
        .enumerate()
        .map(|(index, (event, raw))| {
            let status = Status::read(event.status.as_deref());
            let title = event.title.filter(|t| !t.trim().is_empty()).unwrap_or_else(|| "Untitled event".to_owned());
            let dot_style = event.color.as_deref().and_then(safe_color).map(|color| format!("--au-timeline-dot: {color}"));
            let date = event.date.filter(|d| !d.trim().is_empty()).map(|date| {
                // ISO dates get a machine-readable `datetime` and read as "12 Mar 2024".
                let parsed = parse_date(&date);
                let shown = parsed.as_ref().map_or_else(|| date.clone(), ToString::to_string);
                let machine = parsed.map(|_| date.trim().to_owned());
                view! { <time class="au-timeline__date" datetime=machine>{shown}</time> }
            });
            let description = event
                .description
                .filter(|d| !d.trim().is_empty())
                .map(|text| view! { <span class="au-timeline__description">{text}</span> });
            let link = event.href.as_deref().and_then(safe_link).map(|href| {
                let host = link_host(&href).map(|host| host.trim_start_matches("www.").to_owned()).unwrap_or_default();
                let label = if host.is_empty() { "Open source".to_owned() } else { host };
                view! {
                    <a class="au-timeline__link" href=href target="_blank" rel="noopener noreferrer nofollow">
                        {label}<span aria-hidden="true">" ↗"</span>
                    </a>
                }
            });
            let tags = event
                .tags
                .into_iter()
                .filter(|tag| !tag.trim().is_empty())
                .map(|tag| view! { <li class="au-timeline__tag">{tag}</li> })
                .collect::<Vec<_>>();
            let has_meta = link.is_some() || !tags.is_empty();
            let meta = has_meta.then(|| {
                view! {
                    <div class="au-timeline__meta">
                        {link}
                        {(!tags.is_empty()).then(|| view! { <ul class="au-timeline__tags" aria-label="Tags">{tags}</ul> })}
                    </div>
                }
            });
            let payload = item_payload(raw, index);
            let choose = move |_| {
                chosen.set(Some(index));
                emit.run((WidgetAction::EventClick, payload.clone()));
            };
            view! {
                <li class=status.class() style=dot_style aria-current=(status == Status::Active).then_some("step")>
                    <span class="au-timeline__dot" aria-hidden="true"></span>
                    <div class="au-timeline__body">
                        <button type="button" class="au-timeline__select" on:click=choose
                            aria-pressed=move || (chosen.get() == Some(index)).to_string()>
                            {date}
                            <span class="au-timeline__title">{title}</span>
                            <span class="au-visually-hidden">{format!(", {}", status.words())}</span>
                            {description}
                        </button>
                        {meta}
                    </div>
                </li>
            }
        })
        .collect_view();
    view! {
        <WidgetTitle title=timeline.title />
        <ol class="au-timeline__list">{items}</ol>
    }
    .into_any()
}
