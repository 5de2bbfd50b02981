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

use std::fmt::Write as _;
use std::sync::Arc;

use autoui_core::view::markdown::escape_html;
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
/// rows are built when it is first opened, so a long series costs nothing until then; they are
/// markup the browser parses in one call (every text in it escaped), as they never change.
#[component]
fn DataTable(chart: Arc<Chart>) -> impl IntoView {
    let details = NodeRef::<Details>::new();
    let opened = RwSignal::new(false);
    let table = move || if opened.get() { table_markup(&chart) } else { String::new() };
    view! {
        <details class="au-chart-rich__table" node_ref=details
            // `toggle` is queued: it may arrive after the chart was removed.
            on:toggle=move |_| {
                if details.try_get_untracked().flatten().is_some_and(|d| d.open()) {
                    opened.set(true);
                }
            }>
            <summary>"Data table"</summary>
            <div class="au-chart-rich__table-scroll" inner_html=table></div>
        </details>
    }
}

/// The table's markup: a row per category (a slice, for a pie), or per point of a scatter or
/// bubble chart with its series.
fn table_markup(chart: &Chart) -> String {
    let mut out = String::from("<table><thead><tr>");
    let head = |out: &mut String, text: &str| {
        let _ = write!(out, r#"<th scope="col">{}</th>"#, escape_html(text));
    };
    if chart.kind.plots_points() {
        let bubbles = chart.kind == ChartKind::Bubble;
        head(&mut out, "Series");
        head(&mut out, "Point");
        head(&mut out, chart.x_title.as_deref().unwrap_or("x"));
        head(&mut out, chart.y_title.as_deref().unwrap_or("y"));
        if bubbles {
            head(&mut out, "Size");
        }
        out.push_str("</tr></thead><tbody>");
        for series in &chart.series {
            for point in &series.points {
                row_start(&mut out, &series.label);
                cell(&mut out, point.label.as_deref().unwrap_or_default());
                cell(&mut out, &format_number(point.x));
                cell(&mut out, &format_number(point.y));
                if bubbles {
                    cell(&mut out, &point.size.map_or_else(|| "—".to_owned(), format_number));
                }
                out.push_str("</tr>");
            }
        }
    } else {
        head(&mut out, if chart.kind.is_radial() { "Slice" } else { "Label" });
        for series in &chart.series {
            head(&mut out, &series.label);
        }
        out.push_str("</tr></thead><tbody>");
        for (index, category) in chart.categories.iter().enumerate() {
            row_start(&mut out, category);
            for series in &chart.series {
                let value = series.values.get(index).copied().flatten();
                cell(&mut out, &value.map_or_else(|| "—".to_owned(), |v| format_value(v, series.unit(chart))));
            }
            out.push_str("</tr>");
        }
    }
    out.push_str("</tbody></table>");
    out
}

/// Opens a body row headed by `label`.
fn row_start(out: &mut String, label: &str) {
    let _ = write!(out, r#"<tr><th scope="row">{}</th>"#, escape_html(label));
}

fn cell(out: &mut String, text: &str) {
    let _ = write!(out, "<td>{}</td>", escape_html(text));
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
