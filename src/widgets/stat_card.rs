//! `stat-card` widget: a KPI card with its unit, a delta with a trend arrow coloured by whether the
//! change is good news, the previous value, and a top edge in the variant's colour.

use autoui_core::view::fields::{Fields, Read};
use leptos::prelude::*;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, parse};

struct StatCardData {
    label: Option<String>,
    value: Option<String>,
    unit: Option<String>,
    delta: Option<String>,
    trend: Option<Trend>,
    previous_value: Option<String>,
    variant: Option<String>,
}

impl StatCardData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(StatCardData {
            label: fields.scalar_text("label")?,
            value: fields.scalar_text("value")?,
            unit: fields.text("unit")?,
            delta: fields.scalar_text("delta")?,
            trend: fields.text_or_object("trend", Trend::direction, Trend::detailed)?,
            previous_value: fields.scalar_text("previousValue")?,
            variant: fields.text("variant")?,
        })
    }
}

/// `"up"`, or `{direction, value, positive}` when a rise is bad news (costs, latency).
enum Trend {
    Direction(String),
    Detailed {
        direction: String,
        value: Option<String>,
        positive: Option<bool>,
    },
}

impl Trend {
    fn direction(name: &str) -> Trend {
        Trend::Direction(name.to_owned())
    }

    fn detailed(fields: Fields<'_>) -> Read<Trend> {
        Ok(Trend::Detailed {
            direction: fields.required_text("direction")?,
            value: fields.scalar_text("value")?,
            positive: fields.flag("positive")?,
        })
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Direction {
    Up,
    Down,
    Flat,
}

impl Direction {
    fn from_name(name: &str) -> Direction {
        match name.trim().to_ascii_lowercase().as_str() {
            "up" | "increase" | "rising" => Direction::Up,
            "down" | "decrease" | "falling" => Direction::Down,
            _ => Direction::Flat,
        }
    }

    fn arrow(self) -> &'static str {
        match self {
            Direction::Up => "↑",
            Direction::Down => "↓",
            Direction::Flat => "→",
        }
    }

    fn spoken(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
            Direction::Flat => "unchanged",
        }
    }
}

/// Whether a change reads as good, bad or neither: it picks the colour.
#[derive(Clone, Copy)]
enum Mood {
    Good,
    Bad,
    Neutral,
}

impl Mood {
    fn class(self) -> &'static str {
        match self {
            Mood::Good => "au-stat-card__trend au-stat-card__trend--good",
            Mood::Bad => "au-stat-card__trend au-stat-card__trend--bad",
            Mood::Neutral => "au-stat-card__trend au-stat-card__trend--neutral",
        }
    }

    fn spoken(self) -> &'static str {
        match self {
            Mood::Good => ", favourable",
            Mood::Bad => ", unfavourable",
            Mood::Neutral => "",
        }
    }
}

/// The trend line as shown: arrow (if any), text and mood.
struct TrendLine {
    direction: Option<Direction>,
    text: Option<String>,
    mood: Mood,
}

impl StatCardData {
    /// A rise is good news unless `positive` says otherwise; flat is neutral unless `positive` is given.
    fn trend_line(&self) -> Option<TrendLine> {
        let delta = self.delta.clone().filter(|delta| !delta.trim().is_empty());
        let line = match &self.trend {
            Some(Trend::Direction(name)) => {
                let direction = Direction::from_name(name);
                let mood = match direction {
                    Direction::Up => Mood::Good,
                    Direction::Down => Mood::Bad,
                    Direction::Flat => Mood::Neutral,
                };
                TrendLine {
                    direction: Some(direction),
                    text: delta,
                    mood,
                }
            }
            Some(Trend::Detailed {
                direction,
                value,
                positive,
            }) => {
                let direction = Direction::from_name(direction);
                let mood = match (positive, direction) {
                    (Some(true), _) => Mood::Good,
                    (Some(false), _) => Mood::Bad,
                    (None, Direction::Up) => Mood::Good,
                    (None, Direction::Down) => Mood::Bad,
                    (None, Direction::Flat) => Mood::Neutral,
                };
                let text = value
                    .clone()
                    .filter(|value| !value.trim().is_empty())
                    .or(delta);
                TrendLine {
                    direction: Some(direction),
                    text,
                    mood,
                }
            }
            None => TrendLine {
                direction: None,
                text: delta,
                mood: Mood::Neutral,
            },
        };
        (line.direction.is_some() || line.text.is_some()).then_some(line)
    }

    fn variant_class(&self) -> &'static str {
        match self
            .variant
            .as_deref()
            .map(|v| v.trim().to_ascii_lowercase())
            .as_deref()
        {
            Some("success") => "au-stat-card au-stat-card--success",
            Some("warning" | "warn") => "au-stat-card au-stat-card--warning",
            Some("error" | "danger") => "au-stat-card au-stat-card--error",
            Some("info") => "au-stat-card au-stat-card--info",
            _ => "au-stat-card au-stat-card--default",
        }
    }
}

/// A card as shown: its texts and classes, read from the data once per change.
#[derive(Clone, PartialEq)]
struct Shown {
    class: &'static str,
    label: Option<String>,
    value: String,
    unit: Option<String>,
    trend: Option<ShownTrend>,
    previous: Option<String>,
}

#[derive(Clone, PartialEq)]
struct ShownTrend {
    class: &'static str,
    arrow: Option<&'static str>,
    spoken: String,
    text: Option<String>,
}

impl Shown {
    fn of(card: StatCardData) -> Shown {
        let trend = card.trend_line().map(|TrendLine { direction, text, mood }| ShownTrend {
            class: mood.class(),
            arrow: direction.map(Direction::arrow),
            spoken: format!("{}{}: ", direction.map(|d| d.spoken()).unwrap_or("change"), mood.spoken()),
            text,
        });
        Shown {
            class: card.variant_class(),
            trend,
            label: card.label,
            value: card.value.unwrap_or_else(|| "—".to_owned()),
            unit: card.unit.filter(|unit| !unit.trim().is_empty()),
            previous: card.previous_value.filter(|p| !p.trim().is_empty()),
        }
    }

    /// Which parts the card has: its elements change only when this does.
    fn parts(&self) -> Parts {
        Parts {
            label: self.label.is_some(),
            unit: self.unit.is_some(),
            trend: self.trend.as_ref().map(|trend| (trend.arrow.is_some(), trend.text.is_some())),
            previous: self.previous.is_some(),
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
struct Parts {
    label: bool,
    unit: bool,
    /// Whether the trend line has an arrow and a text.
    trend: Option<(bool, bool)>,
    previous: bool,
}

/// What the widget shows: a card with these parts, a state without a card, or why it cannot.
#[derive(Clone, PartialEq)]
enum Layout {
    Card(Parts),
    Empty,
    Invalid(String),
}

/// A refreshed figure changes the texts it touches and nothing else: the card's elements are built
/// again only when its parts change (a trend appears, the unit goes).
#[component]
pub fn StatCard(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    let shown = Memo::new(move |_| {
        data.with(|value| match parse(value, StatCardData::read) {
            Ok(card) if card.label.is_none() && card.value.is_none() => Ok(None),
            Ok(card) => Ok(Some(Shown::of(card))),
            Err(error) => Err(error),
        })
    });
    let layout = Memo::new(move |_| {
        shown.with(|shown| match shown {
            Ok(Some(card)) => Layout::Card(card.parts()),
            Ok(None) => Layout::Empty,
            Err(error) => Layout::Invalid(error.clone()),
        })
    });
    move || match layout.get() {
        Layout::Card(parts) => card_view(shown, parts).into_any(),
        Layout::Empty => view! { <EmptyState message="No figure to show yet" /> }.into_any(),
        Layout::Invalid(error) => view! { <WidgetError message=format!("the stat-card data is not valid: {error}") /> }.into_any(),
    }
}

type ShownCard = Memo<Result<Option<Shown>, String>>;

/// A text of the card as it is now (empty while the card is not shown).
fn text(shown: ShownCard, pick: fn(&Shown) -> Option<String>) -> impl Fn() -> String + Copy {
    move || shown.with(|shown| shown.as_ref().ok().and_then(Option::as_ref).and_then(pick).unwrap_or_default())
}

/// A class of the card as it is now.
fn class(shown: ShownCard, pick: fn(&Shown) -> &'static str) -> impl Fn() -> &'static str + Copy {
    move || shown.with(|shown| shown.as_ref().ok().and_then(Option::as_ref).map_or("", pick))
}

/// The card with `parts`, its texts and classes following `shown`.
fn card_view(shown: ShownCard, parts: Parts) -> impl IntoView {
    let trend = parts.trend.map(|(arrow, with_text)| {
        view! {
            <p class=class(shown, |card| card.trend.as_ref().map_or("", |trend| trend.class))>
                {arrow.then(|| view! {
                    <span class="au-stat-card__arrow" aria-hidden="true">
                        {text(shown, |card| card.trend.as_ref()?.arrow.map(str::to_owned))}
                    </span>
                })}
                <span class="au-visually-hidden">{text(shown, |card| card.trend.as_ref().map(|trend| trend.spoken.clone()))}</span>
                {with_text.then(|| text(shown, |card| card.trend.as_ref()?.text.clone()))}
            </p>
        }
    });
    view! {
        <div class=class(shown, |card| card.class)>
            {parts.label.then(|| view! { <p class="au-stat-card__label">{text(shown, |card| card.label.clone())}</p> })}
            <p class="au-stat-card__figure">
                <span class="au-stat-card__value">{text(shown, |card| Some(card.value.clone()))}</span>
                {parts.unit.then(|| view! { <span class="au-stat-card__unit">{text(shown, |card| card.unit.clone())}</span> })}
            </p>
            {trend}
            {parts.previous.then(|| view! {
                <p class="au-stat-card__previous">"prev: " {text(shown, |card| card.previous.clone())}</p>
            })}
        </div>
    }
}
