//! `log` widget: a monospace stream of entries (timestamp, level badge, source, message), oldest
//! first. Level toggles and a search box filter it; it follows new entries at the bottom unless the
//! user scrolled up; long logs render their most recent entries with "show earlier" above them.

use std::sync::Arc;

use autoui_core::view::fields::{Fields, Read};
use leptos::html;
use leptos::prelude::*;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse};

/// Entries rendered at first, and added by each "show earlier" click.
const PAGE: usize = 200;
/// Distance from the bottom (px) within which the user counts as following the log.
const FOLLOW_SLACK: i32 = 24;

#[derive(PartialEq)]
struct LogData {
    title: Option<String>,
    entries: Vec<Entry>,
    empty_message: Option<String>,
}

impl LogData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(LogData {
            title: fields.text("title")?,
            entries: fields.items("entries", Entry::read)?,
            empty_message: fields.text("emptyMessage")?,
        })
    }
}

#[derive(PartialEq)]
struct Entry {
    message: Option<String>,
    timestamp: Option<String>,
    level: Level,
    source: Option<String>,
}

impl Entry {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(Entry {
            message: fields.scalar_text("message")?,
            timestamp: fields.scalar_text("timestamp")?,
            level: fields.scalar_text("level")?.map(|name| Level::from_name(&name)).unwrap_or_default(),
            source: fields.scalar_text("source")?,
        })
    }
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Level {
    Debug,
    #[default]
    Info,
    Warn,
    Error,
}

const LEVELS: [Level; 4] = [Level::Debug, Level::Info, Level::Warn, Level::Error];

impl Level {
    /// `info` when missing or unknown; also reads the usual near misses (`warning`, `fatal`, `trace`).
    fn from_name(name: &str) -> Level {
        match name.trim().to_ascii_lowercase().as_str() {
            "debug" | "trace" | "verbose" => Level::Debug,
            "warn" | "warning" => Level::Warn,
            "error" | "err" | "fatal" | "critical" => Level::Error,
            _ => Level::Info,
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    fn name(self) -> &'static str {
        match self {
            Level::Debug => "debug",
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }

    fn entry_class(self) -> &'static str {
        match self {
            Level::Debug => "au-log__entry au-log__entry--debug",
            Level::Info => "au-log__entry au-log__entry--info",
            Level::Warn => "au-log__entry au-log__entry--warn",
            Level::Error => "au-log__entry au-log__entry--error",
        }
    }

    fn toggle_class(self) -> &'static str {
        match self {
            Level::Debug => "au-log__level-toggle au-log__level-toggle--debug",
            Level::Info => "au-log__level-toggle au-log__level-toggle--info",
            Level::Warn => "au-log__level-toggle au-log__level-toggle--warn",
            Level::Error => "au-log__level-toggle au-log__level-toggle--error",
        }
    }
}

impl Entry {
    fn matches(&self, query: &str) -> bool {
        query.is_empty()
            || [&self.message, &self.source, &self.timestamp]
                .into_iter()
                .flatten()
                .any(|field| field.to_lowercase().contains(query))
    }
}

/// The parsed log, shared by the view's closures; a new parse is always a change.
#[derive(Clone)]
struct Shared(Arc<LogData>);

impl PartialEq for Shared {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// Which of the three faces the widget shows; the list itself survives data updates.
#[derive(Clone, PartialEq)]
enum Phase {
    Invalid(String),
    Empty {
        title: Option<String>,
        message: String,
    },
    Ready,
}

/// What the user set: it outlives data updates.
#[derive(Clone, Copy)]
struct Filters {
    hidden: RwSignal<[bool; 4]>,
    /// The search box's text as typed.
    query: RwSignal<String>,
    limit: RwSignal<usize>,
}

#[component]
pub fn Log(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    let log = Memo::new(move |_| {
        data.with(|value| parse(value, LogData::read).map(|log| Shared(Arc::new(log))))
    });
    let phase = Memo::new(move |_| {
        log.with(|log| match log {
            Err(error) => Phase::Invalid(error.clone()),
            Ok(Shared(log)) if log.entries.is_empty() => Phase::Empty {
                title: log.title.clone(),
                message: log
                    .empty_message
                    .clone()
                    .filter(|m| !m.trim().is_empty())
                    .unwrap_or_else(|| "No log entries".to_owned()),
            },
            Ok(_) => Phase::Ready,
        })
    });
    let filters = Filters {
        hidden: RwSignal::new([false; 4]),
        query: RwSignal::new(String::new()),
        limit: RwSignal::new(PAGE),
    };
    move || match phase.get() {
        Phase::Invalid(error) => {
            view! { <WidgetError message=format!("the log data is not valid: {error}") /> }
                .into_any()
        }
        Phase::Empty { title, message } => view! {
            <div class="au-log">
                <WidgetTitle title />
                <EmptyState message />
            </div>
        }
        .into_any(),
        Phase::Ready => log_view(log, filters).into_any(),
    }
}

fn log_view(log: Memo<Result<Shared, String>>, filters: Filters) -> impl IntoView {
    let Filters {
        hidden,
        query,
        limit,
    } = filters;
    // Indices of the entries that pass the filters, oldest first.
    let matching = Memo::new(move |_| {
        let hidden = hidden.get();
        let needle = query.with(|query| query.trim().to_lowercase());
        with_log(log, |log| {
            log.entries
                .iter()
                .enumerate()
                .filter(|(_, entry)| !hidden[entry.level.index()] && entry.matches(&needle))
                .map(|(index, _)| index)
                .collect::<Vec<_>>()
        })
    });
    let counts = Memo::new(move |_| {
        with_log(log, |log| {
            let mut counts = [0_usize; 4];
            for entry in &log.entries {
                counts[entry.level.index()] += 1;
            }
            counts
        })
    });
    let total = move || counts.with(|counts| counts.iter().sum::<usize>());

    let list_ref = NodeRef::<html::Div>::new();
    let following = StoredValue::new(true);
    // After the list changes, keep the newest entry in view while the user is following. In the next
    // frame, when the browser lays the page out anyway: reading the height now would force a layout.
    Effect::new(move |_| {
        matching.track();
        if list_ref.get().is_some() && following.get_value() {
            // The log may be gone by then (its frame rebuilt or removed).
            request_animation_frame(move || {
                if let Some(Some(list)) = list_ref.try_get_untracked() {
                    list.set_scroll_top(list.scroll_height());
                }
            });
        }
    });
    let on_scroll = move |_| {
        if let Some(list) = list_ref.get_untracked() {
            following.set_value(
                list.scroll_top() + list.client_height() >= list.scroll_height() - FOLLOW_SLACK,
            );
        }
    };

    let toggles = LEVELS
        .iter()
        .map(|&level| {
            let count = move || counts.with(|counts| counts[level.index()]);
            let shown = move || !hidden.with(|hidden| hidden[level.index()]);
            view! {
                <button type="button" class=level.toggle_class() aria-pressed=move || shown().to_string()
                    hidden=move || count() == 0
                    title=move || format!("{} {} entries", if shown() { "Hide" } else { "Show" }, level.name())
                    on:click=move |_| hidden.update(|hidden| hidden[level.index()] = !hidden[level.index()])>
                    <span class="au-log__dot" aria-hidden="true"></span>
                    {level.name()}
                    <span class="au-log__count">{count}</span>
                </button>
            }
        })
        .collect_view();

    let entries = move || {
        matching.with(|matching| {
            let shown = matching.len().min(limit.get());
            let earlier = matching.len() - shown;
            let needle = query.with(|query| query.trim().to_lowercase());
            let rows = with_log(log, |log| {
                let entries = matching[earlier..].iter().filter_map(|&index| log.entries.get(index));
                entries.map(|entry| entry_view(entry, &needle)).collect::<Vec<_>>()
            });
            let more = (earlier > 0).then(|| {
                view! {
                    <li class="au-log__more">
                        <button type="button" class="au-log__more-button" on:click=move |_| limit.update(|limit| *limit += PAGE)>
                            {format!("Show {} earlier entries ({earlier} hidden)", earlier.min(PAGE))}
                        </button>
                    </li>
                }
            });
            let none = matching.is_empty().then(|| {
                view! {
                    <li class="au-log__none">
                        "No entries match the filters. "
                        <button type="button" class="au-log__clear" on:click=move |_| {
                            hidden.set([false; 4]);
                            query.set(String::new());
                        }>"Clear filters"</button>
                    </li>
                }
            });
            view! { {more} {rows} {none} }
        })
    };

    let status = move || {
        let shown = matching.with(Vec::len);
        let total = total();
        match shown == total {
            true => format!("{total} {}", if total == 1 { "entry" } else { "entries" }),
            false => format!("{shown} of {total} entries"),
        }
    };

    view! {
        <div class="au-log">
            <div class="au-log__head">
                {move || view! { <WidgetTitle title=with_log(log, |log| log.title.clone()) /> }}
                <span class="au-log__status" aria-live="polite">{status}</span>
            </div>
            <div class="au-log__toolbar">
                <div class="au-log__levels" role="group" aria-label="Levels shown">{toggles}</div>
                <input type="search" class="au-log__search" placeholder="Search…" aria-label="Search the log"
                    prop:value=move || query.get()
                    on:input=move |event| query.set(event_target_value(&event)) />
            </div>
            // The scrolling region carries the log role; the list inside keeps its list semantics.
            <div class="au-log__entries" role="log" aria-live="polite" aria-label="Log entries" tabindex="0"
                node_ref=list_ref on:scroll=on_scroll>
                <ol class="au-log__rows">{entries}</ol>
            </div>
        </div>
    }
}

/// Reads the parsed log (tracked); a log that failed to parse reads as the default.
fn with_log<T: Default>(log: Memo<Result<Shared, String>>, read: impl FnOnce(&LogData) -> T) -> T {
    log.with(|log| {
        log.as_ref()
            .map(|Shared(log)| read(log))
            .unwrap_or_default()
    })
}

fn entry_view(entry: &Entry, query: &str) -> impl IntoView + use<> {
    let message = highlighted(entry.message.as_deref().unwrap_or_default(), query);
    view! {
        <li class=entry.level.entry_class()>
            // The time cell stays when empty so the columns line up.
            <span class="au-log__time">{entry.timestamp.clone()}</span>
            <span class="au-log__level">{entry.level.name()}</span>
            <span class="au-log__body">
                {entry.source.clone().map(|source| view! { <span class="au-log__source">{source}</span> })}
                <span class="au-log__message">{message}</span>
            </span>
        </li>
    }
}

/// The message with each occurrence of `query` (already lower-cased) in a `<mark>`. Where lower-casing
/// changes the text's length (some non-ASCII letters) the message is shown without marks.
fn highlighted(message: &str, query: &str) -> Vec<AnyView> {
    let lower = message.to_lowercase();
    if query.is_empty() || lower.len() != message.len() {
        return vec![message.to_owned().into_any()];
    }
    let mut parts = Vec::new();
    let mut from = 0;
    for (at, _) in lower.match_indices(query) {
        let end = at + query.len();
        if at < from || !message.is_char_boundary(at) || !message.is_char_boundary(end) {
            continue;
        }
        parts.push(message[from..at].to_owned().into_any());
        parts.push(
            view! { <mark class="au-log__match">{message[at..end].to_owned()}</mark> }.into_any(),
        );
        from = end;
    }
    parts.push(message[from..].to_owned().into_any());
    parts
}
