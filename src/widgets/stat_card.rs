//! `stat-card` widget: a KPI card with its unit, a delta with a trend arrow coloured by whether the
//! change is good news, the previous value, and a top edge in the variant's colour.

use autoui_core::view::lenient;
use leptos::prelude::*;
use serde::Deserialize;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, parse};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct StatCardData {
    #[serde(default, deserialize_with = "lenient::text")]
    label: Option<String>,
    #[serde(default, deserialize_with = "lenient::text")]
    value: Option<String>,
    #[serde(default)]
    unit: Option<String>,
    #[serde(default, deserialize_with = "lenient::text")]
    delta: Option<String>,
    #[serde(default)]
    trend: Option<Trend>,
    #[serde(default, deserialize_with = "lenient::text")]
    previous_value: Option<String>,
    #[serde(default)]
    variant: Option<String>,
}

/// `"up"`, or `{direction, value, positive}` when a rise is bad news (costs, latency).
#[derive(Deserialize)]
#[serde(untagged)]
enum Trend {
    Direction(String),
    Detailed {
        direction: String,
        #[serde(default, deserialize_with = "lenient::text")]
        value: Option<String>,
        #[serde(default)]
        positive: Option<bool>,
    },
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

#[component]
pub fn StatCard(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    move || {
        data.with(|value| match parse::<StatCardData>(value) {
            Ok(card) if card.label.is_none() && card.value.is_none() => {
                view! { <EmptyState message="No figure to show yet" /> }.into_any()
            }
            Ok(card) => card_view(card).into_any(),
            Err(error) => view! { <WidgetError message=format!("the stat-card data is not valid: {error}") /> }.into_any(),
        })
    }
}

fn card_view(card: StatCardData) -> impl IntoView {
    let class = card.variant_class();
    let trend = card.trend_line().map(|TrendLine { direction, text, mood }| {
        let spoken = format!(
            "{}{}: ",
            direction.map(|d| d.spoken()).unwrap_or("change"),
            mood.spoken()
        );
        view! {
            <p class=mood.class()>
                {direction.map(|d| view! { <span class="au-stat-card__arrow" aria-hidden="true">{d.arrow()}</span> })}
                <span class="au-visually-hidden">{spoken}</span>
                {text}
            </p>
        }
    });
    let unit = card.unit.filter(|unit| !unit.trim().is_empty());
    view! {
        <div class=class>
            {card.label.map(|label| view! { <p class="au-stat-card__label">{label}</p> })}
            <p class="au-stat-card__figure">
                <span class="au-stat-card__value">{card.value.unwrap_or_else(|| "—".to_owned())}</span>
                {unit.map(|unit| view! { <span class="au-stat-card__unit">{unit}</span> })}
            </p>
            {trend}
            {card.previous_value.filter(|p| !p.trim().is_empty()).map(|previous| view! {
                <p class="au-stat-card__previous">"prev: " {previous}</p>
            })}
        </div>
    }
}
