//! Horizontal bars (`horizontal: true`): labels on the left, bars running left to right from zero
//! (grouped, or stacked into one row per label), value ticks under the plot, a tooltip per label on
//! hover, and bars reachable by keyboard like the vertical ones.

use std::sync::Arc;

use autoui_core::view::chart::{Band, Linear, Ticks, num, stack};
use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, PointerEvent};

use crate::widgets::chart_rich::cartesian::first_mark;
use crate::widgets::chart_rich::frame::{CENTRED, END_MIDDLE, Mark, PlotBox, PlotSvg, svg_line, svg_text};
use crate::widgets::chart_rich::model::Chart;
use crate::widgets::chart_rich::size::use_element_size;
use crate::widgets::chart_rich::{LABEL_CHARS, format_value, short_label, tooltip_transform};

/// The plot's geometry at one size and set of visible series.
#[derive(Clone, Debug, PartialEq)]
struct Frame {
    /// The plot's size and the area inside its axes.
    plot: PlotBox,
    ticks: Ticks,
    /// Values along x.
    x: Linear,
    /// Labels down y.
    y: Band,
    visible: Vec<usize>,
    /// Stacked bars: each visible series' intervals, by its slot; empty otherwise.
    stacks: Vec<Vec<Option<(f64, f64)>>>,
}

impl Frame {
    fn new(chart: &Chart, (width, height): (f64, f64), hidden: &[bool]) -> Frame {
        let visible: Vec<usize> =
            (0..chart.series.len()).filter(|&s| !hidden.get(s).copied().unwrap_or(false)).collect();
        let stacks = if chart.stacked {
            let values: Vec<&[Option<f64>]> = visible.iter().map(|&s| chart.series[s].values.as_slice()).collect();
            stack(&values)
        } else {
            Vec::new()
        };
        let ends: Vec<f64> = if chart.stacked {
            stacks.iter().flatten().flatten().flat_map(|&(a, b)| [a, b]).collect()
        } else {
            visible.iter().flat_map(|&s| chart.series[s].values.iter().flatten().copied()).collect()
        };
        // Bars measure from zero.
        let low = ends.iter().copied().fold(0.0, f64::min);
        let high = ends.iter().copied().fold(0.0, f64::max);
        let widest_label = chart.categories.iter().map(|c| short_label(c, LABEL_CHARS).chars().count()).max().unwrap_or(1);
        let left = (widest_label as f64 * 6.6 + 16.0).clamp(40.0, width * 0.4);
        let right = (width - 18.0).max(left + 24.0);
        let top = if chart.unit.is_empty() { 8.0 } else { 20.0 };
        let bottom = (height - 24.0).max(top + 24.0);
        let target = ((right - left) / 80.0).floor().clamp(2.0, 8.0) as usize;
        let ticks = Ticks::nice(low, high, target);
        Frame {
            plot: PlotBox { width, height, top, bottom, left, right },
            ticks,
            x: Linear { domain: (ticks.min, ticks.max), range: (left, right) },
            y: Band { start: top, length: bottom - top, count: chart.categories.len().max(1), padding: 0.24 },
            visible,
            stacks,
        }
    }

    /// Where value zero sits (the bars' baseline), kept inside the plot.
    fn baseline(&self) -> f64 {
        self.x.map(0.0_f64.max(self.ticks.min).min(self.ticks.max))
    }

    /// Top edge and thickness of series `slot` (its position among visible series) in row `category`.
    fn bar(&self, category: usize, slot: usize) -> (f64, f64) {
        if !self.stacks.is_empty() {
            return (self.y.position(category), self.y.width());
        }
        let count = self.visible.len().max(1) as f64;
        let row = self.y.width();
        let gap = if count > 1.0 { (row / count * 0.12).min(3.0) } else { 0.0 };
        let thickness = (row - gap * (count - 1.0)) / count;
        (self.y.position(category) + slot as f64 * (thickness + gap), thickness)
    }

    /// The left and right ends of `series`' bar in `category` (at `slot`), or `None` for a gap.
    fn ends(&self, chart: &Chart, slot: usize, series: usize, category: usize) -> Option<(f64, f64)> {
        let value = chart.series[series].values.get(category).copied().flatten()?;
        let (start, end) = match self.stacks.get(slot) {
            Some(stack) => stack.get(category).copied().flatten()?,
            None => (0.0, value),
        };
        let (a, b) = (self.x.map(start.max(self.ticks.min)), self.x.map(end));
        Some((a.min(b), a.max(b)))
    }
}

#[component]
pub fn HorizontalPlot(chart: Arc<Chart>, hidden: RwSignal<Vec<bool>>) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    let size = use_element_size(node, (480.0, 240.0));
    let frame = Memo::new({
        let chart = chart.clone();
        move |_| hidden.with(|hidden| Frame::new(&chart, size.get(), hidden))
    });
    let active = RwSignal::new(None::<(usize, Option<usize>)>);
    let tab_stop = RwSignal::new(first_mark(&chart, &(0..chart.series.len()).collect::<Vec<_>>()));
    let dimensions = (chart.series.len(), chart.categories.len());

    let on_pointer = move |event: PointerEvent| {
        let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else { return };
        let rect = target.get_bounding_client_rect();
        if rect.height() <= 0.0 {
            return;
        }
        let category = frame.with_untracked(|f| {
            f.y.index_at(f.plot.top + (f64::from(event.client_y()) - rect.top()) / rect.height() * (f.plot.bottom - f.plot.top))
        });
        if active.get_untracked() != Some((category, None)) {
            active.set(Some((category, None)));
        }
    };

    let unit = chart.unit.trim().to_owned();
    // Markup, as in `cartesian.rs`: no events, no state.
    let axes = move || {
        frame.with(|f| {
            let mut out = String::new();
            if !unit.is_empty() {
                svg_text(&mut out, "au-chart-rich__unit", (f.plot.right, 10.0), END_MIDDLE, &unit);
            }
            for value in f.ticks.values() {
                let x = f.x.map(value);
                let zero = if value == 0.0 && f.ticks.min < 0.0 { " au-chart-rich__grid--zero" } else { "" };
                svg_line(&mut out, &format!("au-chart-rich__grid{zero}"), (x, f.plot.top), (x, f.plot.bottom));
                svg_text(&mut out, "au-chart-rich__tick", (x, f.plot.bottom + 16.0), CENTRED, &f.ticks.label(value));
            }
            svg_line(&mut out, "au-chart-rich__axis", (f.baseline(), f.plot.top), (f.baseline(), f.plot.bottom));
            out
        })
    };

    let labels = {
        let chart = chart.clone();
        move || {
            frame.with(|f| {
                let mut out = String::new();
                for (index, label) in chart.categories.iter().enumerate() {
                    let at = (f.plot.left - 8.0, f.y.center(index));
                    svg_text(&mut out, "au-chart-rich__label", at, END_MIDDLE, &short_label(label, LABEL_CHARS));
                }
                out
            })
        }
    };

    let highlight = move || {
        let (category, _) = active.get()?;
        frame.with(|f| {
            let step = f.y.length / f.y.count.max(1) as f64;
            Some(view! {
                <rect class="au-chart-rich__band" x=num(f.plot.left) y=num(f.y.start + step * category as f64)
                    width=num(f.plot.right - f.plot.left) height=num(step) />
            })
        })
    };

    let marks = {
        let chart = chart.clone();
        move || {
            frame.with(|f| {
                let wanted = tab_stop.get_untracked();
                let stop = if f.visible.contains(&wanted.0) { wanted } else { first_mark(&chart, &f.visible) };
                let mut out = String::new();
                for (slot, &series) in f.visible.iter().enumerate() {
                    let s = &chart.series[series];
                    let style = format!("fill:{}", s.color);
                    for category in 0..chart.categories.len() {
                        let (Some((x0, x1)), Some(value)) = (f.ends(&chart, slot, series, category), s.values[category]) else {
                            continue;
                        };
                        let (y, thickness) = f.bar(category, slot);
                        let label = format!("{}, {}: {}", s.label, chart.categories[category], format_value(value, &chart.unit));
                        let geometry = [
                            ("x", x0),
                            ("y", y),
                            ("width", (x1 - x0).max(1.0)),
                            ("height", thickness.max(1.0)),
                            ("rx", (thickness / 6.0).min(3.0)),
                        ];
                        let class = if value < 0.0 { "au-chart-rich__bar au-chart-rich__bar--negative" } else { "au-chart-rich__bar" };
                        let at = (series, category);
                        Mark { tag: "rect", class, geometry: &geometry, style: &style, at, stop: stop == at, label: &label }.write(&mut out);
                    }
                }
                out
            })
        }
    };

    let tooltip = {
        let chart = chart.clone();
        move || {
            let (category, focused) = active.get()?;
            let (x, y, rows) = frame.with(|f| {
                let far = f
                    .visible
                    .iter()
                    .enumerate()
                    .filter_map(|(slot, &s)| f.ends(&chart, slot, s, category).map(|(_, end)| end))
                    .fold(f.baseline(), f64::max);
                let rows: Vec<(usize, Option<f64>)> =
                    f.visible.iter().map(|&s| (s, chart.series[s].values.get(category).copied().flatten())).collect();
                (far / f.plot.width, f.y.position(category) / f.plot.height, rows)
            });
            let rows = rows
                .into_iter()
                .map(|(series, value)| {
                    let s = &chart.series[series];
                    view! {
                        <li class="au-chart-rich__tip-row" class:au-chart-rich__tip-row--focus=focused == Some(series)>
                            <span class="au-chart-rich__swatch" style:background=s.color.clone()></span>
                            <span class="au-chart-rich__tip-series">{s.label.clone()}</span>
                            <span class="au-chart-rich__tip-value">
                                {value.map(|v| format_value(v, &chart.unit)).unwrap_or_else(|| "—".to_owned())}
                            </span>
                        </li>
                    }
                })
                .collect_view();
            Some(view! {
                <div class="au-chart-rich__tooltip au-chart-rich__tooltip--point" role="status" data-testid="chart-tooltip"
                    style:left=format!("{:.2}%", x * 100.0) style:top=format!("{:.2}%", y * 100.0)
                    style:transform=tooltip_transform(x, y)>
                    <strong class="au-chart-rich__tip-title">{chart.categories.get(category).cloned()}</strong>
                    <ul>{rows}</ul>
                </div>
            })
        }
    };

    let description = format!(
        "Horizontal bar chart{}: {} series, {} categories. Use the arrow keys to move between values.",
        chart.title.as_deref().map(|t| format!(" of {t}")).unwrap_or_default(),
        chart.series.len(),
        chart.categories.len()
    );
    let on_mark = Callback::new(move |mark: Option<(usize, usize)>| match mark {
        Some((series, category)) => {
            tab_stop.set((series, category));
            active.set(Some((category, Some(series))));
        }
        None => active.set(None),
    });
    let area = Memo::new(move |_| frame.with(|f| f.plot));
    view! {
        <div class="au-chart-rich__plot" node_ref=node>
            <PlotSvg size description dimensions on_mark hit=(area, Callback::new(on_pointer))>
                <g aria-hidden="true" inner_html=axes></g>
                {highlight}
                <g inner_html=labels></g>
                <g inner_html=marks></g>
            </PlotSvg>
            {tooltip}
        </div>
    }
}
