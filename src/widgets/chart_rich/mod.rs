//! `chart-rich` widget: bar (grouped, stacked, horizontal), line, area, bar + line on two axes,
//! scatter, bubble, pie, donut and gauge charts, hand-drawn as SVG at the plot's measured size (no
//! chart crate: the wasm budget is tight), with a legend that shows and hides series, nice axis
//! ticks, tooltips on hover and keyboard focus, and the numbers as a table.

mod cartesian;
mod frame;
mod gauge;
mod horizontal;
mod model;
mod radial;
mod scatter;
pub(crate) mod size;

use std::sync::Arc;

use autoui_core::view::present::format_number;
use leptos::html::Details;
use leptos::prelude::*;

use crate::widgets::WidgetProps;
use crate::widgets::chart_rich::cartesian::CartesianPlot;
use crate::widgets::chart_rich::gauge::GaugePlot;
use crate::widgets::chart_rich::horizontal::HorizontalPlot;
use crate::widgets::chart_rich::model::{Chart, ChartKind, ChartProblem};
use crate::widgets::chart_rich::radial::RadialPlot;
use crate::widgets::chart_rich::scatter::ScatterPlot;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle};

/// Longest category label drawn on the x axis; the tooltip and table show it whole.
pub(crate) const LABEL_CHARS: usize = 14;

#[component]
pub fn ChartRich(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    let chart = Memo::new(move |_| data.with(|value| Chart::from_value(value).map(Arc::new)));
    move || match chart.get() {
        Ok(chart) => view! { <ChartView chart /> }.into_any(),
        Err(ChartProblem::Empty(message)) => view! { <EmptyState message /> }.into_any(),
        Err(ChartProblem::Invalid(message)) => view! { <WidgetError message /> }.into_any(),
    }
}

#[component]
fn ChartView(chart: Arc<Chart>) -> impl IntoView {
    let hidden = RwSignal::new(vec![false; chart.series.len()]);
    let kind = chart.kind;
    let plot = if kind.is_radial() {
        view! { <RadialPlot chart=chart.clone() /> }.into_any()
    } else if kind == ChartKind::Gauge {
        view! { <GaugePlot chart=chart.clone() /> }.into_any()
    } else if kind.plots_points() {
        view! { <ScatterPlot chart=chart.clone() hidden /> }.into_any()
    } else if chart.horizontal {
        view! { <HorizontalPlot chart=chart.clone() hidden /> }.into_any()
    } else {
        view! { <CartesianPlot chart=chart.clone() hidden /> }.into_any()
    };
    let legend = (!kind.is_radial() && kind != ChartKind::Gauge && chart.legend).then(|| series_legend(&chart, hidden));
    let orientation = chart.horizontal.then_some("horizontal");
    let notes = (!chart.notes.is_empty()).then(|| {
        let items = chart
            .notes
            .iter()
            .map(|note| view! { <li>{note.clone()}</li> })
            .collect_view();
        view! { <ul class="au-chart-rich__notes" data-testid="chart-notes">{items}</ul> }
    });
    view! {
        <figure class=format!("au-chart-rich au-chart-rich--{}", kind.as_str()) data-chart-type=kind.as_str()
            data-orientation=orientation>
            <div class="au-chart-rich__head">
                <WidgetTitle title=chart.title.clone() />
                {legend}
            </div>
            {plot}
            {notes}
            <DataTable chart />
        </figure>
    }
}

/// Series names with their colours; with several series each one is a toggle.
fn series_legend(chart: &Chart, hidden: RwSignal<Vec<bool>>) -> AnyView {
    let toggles = chart.series.len() > 1;
    let items = chart
        .series
        .iter()
        .enumerate()
        .map(|(index, series)| {
            let swatch = view! { <span class="au-chart-rich__swatch" style:background=series.color.clone()></span> };
            let label = if series.right { format!("{} (right axis)", series.label) } else { series.label.clone() };
            if toggles {
                let shown = move || hidden.with(|h| !h.get(index).copied().unwrap_or(false));
                view! {
                    <li>
                        <button type="button" class="au-chart-rich__legend-item" class:au-chart-rich__legend-item--off=move || !shown()
                            aria-pressed=move || shown().to_string()
                            title=move || if shown() { format!("Hide {label}") } else { format!("Show {label}") }
                            on:click=move |_| hidden.update(|h| {
                                // Keep at least one series on screen.
                                let visible = h.iter().filter(|off| !**off).count();
                                if let Some(off) = h.get_mut(index)
                                    && (*off || visible > 1)
                                {
                                    *off = !*off;
                                }
                            })>
                            {swatch}
                            {label.clone()}
                        </button>
                    </li>
                }
                .into_any()
            } else {
                view! { <li class="au-chart-rich__legend-item">{swatch}{label}</li> }.into_any()
            }
        })
        .collect_view();
    view! { <ul class="au-chart-rich__legend" aria-label="Series">{items}</ul> }.into_any()
}

/// The chart's numbers as a table, for screen readers and anyone who wants the exact values. Its
/// rows are built when it is first opened, so a long series costs nothing until then.
#[component]
fn DataTable(chart: Arc<Chart>) -> impl IntoView {
    let details = NodeRef::<Details>::new();
    let opened = RwSignal::new(false);
    let table = move || {
        opened.get().then(|| {
            if chart.kind.plots_points() {
                return points_table(&chart).into_any();
            }
            let radial = chart.kind.is_radial();
            let cell = |value: Option<f64>, unit: &str| value.map(|v| format_value(v, unit)).unwrap_or_else(|| "—".to_owned());
            let head =
                chart.series.iter().map(|series| view! { <th scope="col">{series.label.clone()}</th> }).collect_view();
            let rows = chart
                .categories
                .iter()
                .enumerate()
                .map(|(index, category)| {
                    let cells = chart
                        .series
                        .iter()
                        .map(|series| view! { <td>{cell(series.values.get(index).copied().flatten(), series.unit(&chart))}</td> })
                        .collect_view();
                    view! { <tr><th scope="row">{category.clone()}</th>{cells}</tr> }
                })
                .collect_view();
            view! {
                <div class="au-chart-rich__table-scroll">
                    <table>
                        <thead><tr><th scope="col">{if radial { "Slice" } else { "Label" }}</th>{head}</tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            }
            .into_any()
        })
    };
    view! {
        <details class="au-chart-rich__table" node_ref=details
            // `toggle` is queued: it may arrive after the chart was removed.
            on:toggle=move |_| {
                if details.try_get_untracked().flatten().is_some_and(|d| d.open()) {
                    opened.set(true);
                }
            }>
            <summary>"Data table"</summary>
            {table}
        </details>
    }
}

/// A scatter or bubble chart's points: one row each, with its series.
fn points_table(chart: &Chart) -> impl IntoView + use<> {
    let bubbles = chart.kind == ChartKind::Bubble;
    let rows = chart
        .series
        .iter()
        .flat_map(|series| {
            series.points.iter().map(move |point| {
                view! {
                    <tr>
                        <th scope="row">{series.label.clone()}</th>
                        <td>{point.label.clone().unwrap_or_default()}</td>
                        <td>{format_number(point.x)}</td>
                        <td>{format_number(point.y)}</td>
                        {bubbles.then(|| view! { <td>{point.size.map(format_number).unwrap_or_else(|| "—".to_owned())}</td> })}
                    </tr>
                }
            })
        })
        .collect_view();
    let (x, y) = (chart.x_title.clone().unwrap_or_else(|| "x".to_owned()), chart.y_title.clone().unwrap_or_else(|| "y".to_owned()));
    view! {
        <div class="au-chart-rich__table-scroll">
            <table>
                <thead><tr><th scope="col">"Series"</th><th scope="col">"Point"</th><th scope="col">{x}</th><th scope="col">{y}</th>
                    {bubbles.then(|| view! { <th scope="col">"Size"</th> })}</tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
}

/// A value with its unit: `31.5 °C`, `65%`.
pub(crate) fn format_value(value: f64, unit: &str) -> String {
    format!("{}{unit}", format_number(value))
}

/// The CSS transform of a tooltip pointing at `(x, y)`, given as fractions of its plot: its anchor
/// slides along its width with `x`, so it never leaves the plot sideways, and it sits above the
/// point unless the point is near the top.
pub(crate) fn tooltip_transform(x: f64, y: f64) -> String {
    let shift = (x.clamp(0.0, 1.0) * 100.0).round();
    if y < 0.35 {
        format!("translate(-{shift}%, 12px)")
    } else {
        format!("translate(-{shift}%, calc(-100% - 12px))")
    }
}

/// `label` cut to at most `limit` characters, marking the cut; the full text is shown elsewhere.
pub(crate) fn short_label(label: &str, limit: usize) -> String {
    match label.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}…", label[..cut].trim_end()),
        None => label.to_owned(),
    }
}
