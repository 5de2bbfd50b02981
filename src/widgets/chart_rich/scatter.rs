//! Scatter and bubble plots: x/y points per series on two value axes with nice ticks and optional
//! titles; a bubble's area shows its size. Each point has a tooltip (its label, x, y and size) on
//! hover and keyboard focus; arrow keys move along a series and across series.

use std::sync::Arc;

use autoui_core::view::chart::{Linear, Ticks, bubble_radius};
use autoui_core::view::present::format_number;
use leptos::html::Div;
use leptos::prelude::*;

use crate::widgets::chart_rich::cartesian::mark_of;
use crate::widgets::chart_rich::frame::{CENTRED, END_MIDDLE, Mark, PlotBox, PlotSvg, START_MIDDLE, svg_line, svg_text};
use crate::widgets::chart_rich::model::{Chart, ChartKind};
use crate::widgets::chart_rich::size::use_element_size;
use crate::widgets::chart_rich::tooltip_transform;

/// The largest bubble's radius, in pixels.
const LARGEST_BUBBLE: f64 = 26.0;
const DOT: f64 = 4.5;

/// The plot's geometry at one size and set of visible series.
#[derive(Clone, Debug, PartialEq)]
struct Frame {
    /// The plot's size and the area inside its axes.
    plot: PlotBox,
    x_ticks: Ticks,
    y_ticks: Ticks,
    x: Linear,
    y: Linear,
    visible: Vec<usize>,
    /// The largest bubble size among visible points (bubble charts).
    max_size: f64,
}

impl Frame {
    fn new(chart: &Chart, (width, height): (f64, f64), hidden: &[bool]) -> Frame {
        let visible: Vec<usize> =
            (0..chart.series.len()).filter(|&s| !hidden.get(s).copied().unwrap_or(false)).collect();
        let points = || visible.iter().flat_map(|&s| chart.series[s].points.iter());
        let range = |values: Vec<f64>| {
            let low = values.iter().copied().fold(f64::INFINITY, f64::min);
            let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if low.is_finite() { (low, high) } else { (0.0, 1.0) }
        };
        let (x_low, x_high) = range(points().map(|p| p.x).collect());
        let (y_low, y_high) = range(points().map(|p| p.y).collect());
        let bubbles = chart.kind == ChartKind::Bubble;
        let max_size = points().filter_map(|p| p.size).fold(0.0, f64::max);
        // Bubbles keep clear of the edges by their largest radius.
        let inset = if bubbles { LARGEST_BUBBLE } else { DOT + 2.0 };
        let top = 12.0 + if chart.y_title.is_some() { 14.0 } else { 0.0 } + inset / 2.0;
        let bottom = (height - 26.0 - if chart.x_title.is_some() { 16.0 } else { 0.0 }).max(top + 24.0);
        let y_ticks = Ticks::nice(y_low, y_high, ((bottom - top) / 44.0).floor().clamp(2.0, 8.0) as usize);
        let widest = y_ticks.values().iter().map(|v| y_ticks.label(*v).chars().count()).max().unwrap_or(1);
        let left = (widest as f64 * 6.8 + 14.0).max(30.0);
        let right = (width - 14.0).max(left + 24.0);
        let x_ticks = Ticks::nice(x_low, x_high, ((right - left) / 80.0).floor().clamp(2.0, 8.0) as usize);
        Frame {
            plot: PlotBox { width, height, top, bottom, left, right },
            x_ticks,
            y_ticks,
            x: Linear { domain: (x_ticks.min, x_ticks.max), range: (left, right) },
            y: Linear { domain: (y_ticks.min, y_ticks.max), range: (bottom, top) },
            visible,
            max_size,
        }
    }

    fn radius(&self, kind: ChartKind, size: Option<f64>) -> f64 {
        match kind {
            ChartKind::Bubble => bubble_radius(size.unwrap_or(0.0), self.max_size, LARGEST_BUBBLE),
            _ => DOT,
        }
    }
}

#[component]
pub fn ScatterPlot(chart: Arc<Chart>, hidden: RwSignal<Vec<bool>>) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    let size = use_element_size(node, (480.0, 280.0));
    let frame = Memo::new({
        let chart = chart.clone();
        move |_| hidden.with(|hidden| Frame::new(&chart, size.get(), hidden))
    });
    let active = RwSignal::new(None::<(usize, usize)>);
    let most_points = chart.series.iter().map(|s| s.points.len()).max().unwrap_or(0);
    let dimensions = (chart.series.len(), most_points);
    let kind = chart.kind;

    let (x_title, y_title) = (chart.x_title.clone(), chart.y_title.clone());
    // Markup, as in `cartesian.rs`: no events, no state.
    let axes = move || {
        frame.with(|f| {
            let mut out = String::new();
            for value in f.y_ticks.values() {
                let y = f.y.map(value);
                svg_line(&mut out, "au-chart-rich__grid", (f.plot.left, y), (f.plot.right, y));
                svg_text(&mut out, "au-chart-rich__tick", (f.plot.left - 8.0, y), END_MIDDLE, &f.y_ticks.label(value));
            }
            for value in f.x_ticks.values() {
                let x = f.x.map(value);
                svg_line(&mut out, "au-chart-rich__grid", (x, f.plot.top), (x, f.plot.bottom));
                svg_text(&mut out, "au-chart-rich__tick", (x, f.plot.bottom + 16.0), CENTRED, &f.x_ticks.label(value));
            }
            svg_line(&mut out, "au-chart-rich__axis", (f.plot.left, f.plot.bottom), (f.plot.right, f.plot.bottom));
            if let Some(title) = &x_title {
                let at = ((f.plot.left + f.plot.right) / 2.0, f.plot.height - 4.0);
                svg_text(&mut out, "au-chart-rich__axis-title", at, CENTRED, title);
            }
            if let Some(title) = &y_title {
                svg_text(&mut out, "au-chart-rich__axis-title", (f.plot.left - 8.0, 10.0), START_MIDDLE, title);
            }
            out
        })
    };

    let marks = {
        let chart = chart.clone();
        move || {
            frame.with(|f| {
                let first = f.visible.first().copied().unwrap_or(0);
                let class = if kind == ChartKind::Bubble { "au-chart-rich__point au-chart-rich__point--bubble" } else { "au-chart-rich__point" };
                let mut out = String::new();
                for &series in &f.visible {
                    let s = &chart.series[series];
                    let style = format!("fill:{0};stroke:{0}", s.color);
                    for (index, point) in s.points.iter().enumerate() {
                        let label = format!("{}: {}", s.label, describe(&chart, series, index));
                        let geometry = [("cx", f.x.map(point.x)), ("cy", f.y.map(point.y)), ("r", f.radius(kind, point.size))];
                        let at = (series, index);
                        Mark { tag: "circle", class, geometry: &geometry, style: &style, at, stop: at == (first, 0), label: &label }.write(&mut out);
                    }
                }
                out
            })
        }
    };

    let tooltip = {
        let chart = chart.clone();
        move || {
            let (series, index) = active.get()?;
            let s = chart.series.get(series)?;
            let point = s.points.get(index)?;
            let (x, y) = frame.with(|f| (f.x.map(point.x) / f.plot.width, f.y.map(point.y) / f.plot.height));
            Some(view! {
                <div class="au-chart-rich__tooltip au-chart-rich__tooltip--point" role="status" data-testid="chart-tooltip"
                    style:left=format!("{:.2}%", x * 100.0) style:top=format!("{:.2}%", y * 100.0)
                    style:transform=tooltip_transform(x, y)>
                    <strong class="au-chart-rich__tip-title">{point.label.clone().unwrap_or_else(|| s.label.clone())}</strong>
                    <span class="au-chart-rich__tip-value">{describe(&chart, series, index)}</span>
                </div>
            })
        }
    };

    let description = format!(
        "{} chart{}: {} series, {} points. Use the arrow keys to move between points.",
        if kind == ChartKind::Bubble { "Bubble" } else { "Scatter" },
        chart.title.as_deref().map(|t| format!(" of {t}")).unwrap_or_default(),
        chart.series.len(),
        chart.series.iter().map(|s| s.points.len()).sum::<usize>()
    );
    let on_mark = Callback::new(move |mark: Option<(usize, usize)>| active.set(mark));
    view! {
        <div class="au-chart-rich__plot" node_ref=node>
            <PlotSvg size description dimensions on_mark>
                <g aria-hidden="true" inner_html=axes></g>
                // The pointer over a point shows its tooltip, as focus does.
                <g inner_html=marks on:pointerover=move |event| {
                    if let Some(mark) = mark_of(&event)
                        && active.get_untracked() != Some(mark)
                    {
                        active.set(Some(mark));
                    }
                }></g>
            </PlotSvg>
            {tooltip}
        </div>
    }
}

/// A point's values as its tooltip and label give them: `x 3.2 · y 41 · size 120`, with the axis
/// titles when there are some.
fn describe(chart: &Chart, series: usize, index: usize) -> String {
    let s = &chart.series[series];
    let Some(point) = s.points.get(index) else { return String::new() };
    let x = chart.x_title.as_deref().unwrap_or("x");
    let y = chart.y_title.as_deref().unwrap_or("y");
    let mut text = format!("{}{x} {} · {y} {}", point.label.as_deref().map(|l| format!("{l}, ")).unwrap_or_default(),
        format_number(point.x), format_number(point.y));
    if let (ChartKind::Bubble, Some(size)) = (chart.kind, point.size) {
        text.push_str(&format!(" · size {}", format_number(size)));
    }
    text
}
