//! `chart` widget: a simple bar chart hand-drawn in SVG (no chart crate: the wasm budget is tight).
//! Bars grow from a zero baseline (negative values hang below it), carry short value labels and a
//! tooltip, and a visually hidden table gives screen readers the same numbers.

use autoui_core::view::bar::{BarScale, compact_number};
use autoui_core::view::numeric::number_in;
use autoui_core::view::present::{display_value, format_number};
use leptos::prelude::*;
use serde_json::Value;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse};

/// Height of the drawing in CSS pixels; the width follows the widget.
const HEIGHT: f64 = 180.0;
/// Room above the plot (and below it when a bar is negative) for value labels.
const LABEL_ROOM: f64 = 18.0;

struct Bar {
    label: String,
    /// `None` when the data gave no readable number: the slot stays, labelled "—".
    value: Option<f64>,
}

/// Reads `bars` in place: `[label, value]` pairs, or `{label, value}` objects (a common near miss).
fn bars(bars: Option<&Value>) -> Result<Vec<Bar>, String> {
    match bars {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(index, item)| {
                bar(item).ok_or_else(|| format!("bar {} is not a [label, value] pair", index + 1))
            })
            .collect(),
        Some(_) => Err("bars must be a list of [label, value] pairs".to_owned()),
    }
}

fn bar(item: &Value) -> Option<Bar> {
    let (label, value) = match item {
        Value::Array(pair) => (pair.first()?, pair.get(1)),
        Value::Object(fields) => (
            fields.get("label").or_else(|| fields.get("name"))?,
            fields.get("value"),
        ),
        _ => return None,
    };
    let label = match label {
        Value::Array(_) | Value::Object(_) => label.to_string(),
        scalar => display_value(scalar),
    };
    Some(Bar {
        label,
        value: value.and_then(number_in),
    })
}

#[component]
pub fn Chart(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    move || {
        data.with(|value| {
            let parsed = parse(value, |fields| fields.text("title")).and_then(|title| Ok((title, bars(value.get("bars"))?)));
            match parsed {
                Ok((title, bars)) if bars.is_empty() => view! {
                    <div class="au-chart">
                        <WidgetTitle title />
                        <EmptyState message="No bars to draw" />
                    </div>
                }
                .into_any(),
                Ok((title, bars)) => chart_view(title, bars).into_any(),
                Err(error) => view! { <WidgetError message=format!("the chart data is not valid: {error}") /> }.into_any(),
            }
        })
    }
}

fn chart_view(title: Option<String>, bars: Vec<Bar>) -> impl IntoView {
    let scale = BarScale::fit(bars.iter().filter_map(|bar| bar.value));
    let bottom_room = if scale.has_negative() {
        LABEL_ROOM
    } else {
        1.0
    };
    let plot = HEIGHT - LABEL_ROOM - bottom_room;
    let baseline = LABEL_ROOM + scale.zero() * plot;
    let count = bars.len();
    let slot = 100.0 / count as f64;
    // Few bars stay slim instead of filling their wide slots.
    let width = slot * (0.62 * count as f64 / 6.0).clamp(0.3, 0.62);

    let drawn = bars
        .iter()
        .enumerate()
        .map(|(index, bar)| {
            let center = slot * (index as f64 + 0.5);
            let tooltip = format!("{}: {}", bar.label, bar.value.map(format_number).unwrap_or_else(|| "no value".to_owned()));
            let Some(value) = bar.value else {
                return view! {
                    <g class="au-chart__bar au-chart__bar--missing">
                        <title>{tooltip}</title>
                        <text class="au-chart__value" x=percent(center) y=px(baseline - 6.0) text-anchor="middle">"—"</text>
                    </g>
                }
                .into_any();
            };
            let span = scale.span(value);
            // A non-zero value always shows at least a sliver.
            let height = if value == 0.0 { 0.0 } else { (span.height * plot).max(2.0) };
            let top = if value < 0.0 { baseline } else { baseline - height };
            let label_y = if value < 0.0 { top + height + 13.0 } else { top - 6.0 };
            view! {
                <g class="au-chart__bar" class:au-chart__bar--negative=value < 0.0>
                    <title>{tooltip}</title>
                    <rect x=percent(center - width / 2.0) width=percent(width) y=px(top) height=px(height) rx="3" />
                    <text class="au-chart__value" x=percent(center) y=px(label_y) text-anchor="middle">
                        {compact_number(value)}
                    </text>
                </g>
            }
            .into_any()
        })
        .collect_view();

    let labels = bars
        .iter()
        .map(|bar| view! { <span class="au-chart__label" title=bar.label.clone()>{bar.label.clone()}</span> })
        .collect_view();
    let rows = bars
        .iter()
        .map(|bar| {
            let value = bar
                .value
                .map(format_number)
                .unwrap_or_else(|| "no value".to_owned());
            view! { <tr><th scope="row">{bar.label.clone()}</th><td>{value}</td></tr> }
        })
        .collect_view();
    let caption = title.clone().unwrap_or_else(|| "Bar chart".to_owned());

    view! {
        <figure class="au-chart">
            <WidgetTitle title />
            <div class="au-chart__plot" aria-hidden="true">
                <svg class="au-chart__svg" width="100%" height=HEIGHT.to_string()>
                    <line class="au-chart__baseline" x1="0" x2="100%" y1=px(baseline) y2=px(baseline) />
                    {drawn}
                </svg>
                <div class="au-chart__labels" style=format!("grid-template-columns: repeat({count}, minmax(0, 1fr))")>
                    {labels}
                </div>
            </div>
            <div class="au-visually-hidden">
                <table>
                    <caption>{caption}</caption>
                    <thead><tr><th scope="col">"Label"</th><th scope="col">"Value"</th></tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </figure>
    }
}

fn percent(value: f64) -> String {
    format!("{value:.3}%")
}

fn px(value: f64) -> String {
    format!("{value:.1}")
}
