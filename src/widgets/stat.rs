//! `stat` widget: one key figure with its small label and an optional trend line with an arrow.

use autoui_core::view::fields::{Fields, Read};
use leptos::prelude::*;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, parse};

struct StatData {
    label: Option<String>,
    value: Option<String>,
    trend: Option<String>,
    trend_dir: Option<String>,
}

impl StatData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(StatData {
            label: fields.scalar_text("label")?,
            value: fields.scalar_text("value")?,
            trend: fields.scalar_text("trend")?,
            trend_dir: fields.text("trendDir")?,
        })
    }
}

/// The arrow and colour of the trend line.
#[derive(Clone, Copy)]
enum TrendDir {
    Up,
    Down,
    Neutral,
}

impl TrendDir {
    /// Reads `up`/`down`/`neutral` and the near misses the model writes (`increase`, `decrease`).
    fn from_name(name: Option<&str>) -> TrendDir {
        match name.map(|n| n.trim().to_ascii_lowercase()).as_deref() {
            Some("up" | "increase" | "rising") => TrendDir::Up,
            Some("down" | "decrease" | "falling") => TrendDir::Down,
            _ => TrendDir::Neutral,
        }
    }

    fn class(self) -> &'static str {
        match self {
            TrendDir::Up => "au-stat__trend au-stat__trend--up",
            TrendDir::Down => "au-stat__trend au-stat__trend--down",
            TrendDir::Neutral => "au-stat__trend au-stat__trend--neutral",
        }
    }

    fn arrow(self) -> &'static str {
        match self {
            TrendDir::Up => "↑",
            TrendDir::Down => "↓",
            TrendDir::Neutral => "→",
        }
    }

    /// What the arrow says to a screen reader.
    fn spoken(self) -> &'static str {
        match self {
            TrendDir::Up => "Up: ",
            TrendDir::Down => "Down: ",
            TrendDir::Neutral => "Trend: ",
        }
    }
}

#[component]
pub fn Stat(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    move || {
        data.with(|value| match parse(value, StatData::read) {
            Ok(stat) if stat.label.is_none() && stat.value.is_none() => {
                view! { <EmptyState message="No figure to show yet" /> }.into_any()
            }
            Ok(stat) => stat_view(stat).into_any(),
            Err(error) => {
                view! { <WidgetError message=format!("the stat data is not valid: {error}") /> }
                    .into_any()
            }
        })
    }
}

fn stat_view(stat: StatData) -> impl IntoView {
    let direction = TrendDir::from_name(stat.trend_dir.as_deref());
    let trend = stat
        .trend
        .filter(|trend| !trend.trim().is_empty())
        .map(|trend| {
            view! {
                <p class=direction.class()>
                    <span class="au-stat__arrow" aria-hidden="true">{direction.arrow()}</span>
                    <span class="au-visually-hidden">{direction.spoken()}</span>
                    {trend}
                </p>
            }
        });
    view! {
        <div class="au-stat">
            {stat.label.map(|label| view! { <p class="au-stat__label">{label}</p> })}
            <p class="au-stat__value">{stat.value.unwrap_or_else(|| "—".to_owned())}</p>
            {trend}
        </div>
    }
}
