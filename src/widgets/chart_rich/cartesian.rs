//! Bar (grouped or stacked), line and area plots, and bars with lines (a series' own `type`), with
//! a second value axis at the right for the series that ask for it: axes with nice ticks and
//! gridlines, a zero baseline for negative values, a category tooltip on hover, and marks reachable
//! by keyboard (arrow keys move between points or bars, showing the same tooltip).

use std::fmt::Write;
use std::sync::Arc;

use autoui_core::view::chart::{Band, Linear, Ticks, area_path, line_path, num, stack};
use autoui_core::view::markdown::escape_html;
use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, KeyboardEvent, PointerEvent, SvgElement};

use crate::widgets::chart_rich::model::{Chart, ChartKind, Series};
use crate::widgets::chart_rich::frame::{CENTRED, END_MIDDLE, MIDDLE, Mark, PlotBox, PlotSvg, svg_line, svg_text};
use crate::widgets::chart_rich::size::use_element_size;
use crate::widgets::chart_rich::{LABEL_CHARS, format_value, short_label};

/// What the tooltip is about: a category, and the series under keyboard focus if any.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Active {
    category: usize,
    series: Option<usize>,
}

/// A stacked series' interval per category (`None`: a gap).
type Intervals = Vec<Option<(f64, f64)>>;

/// The plot's geometry at one size and set of visible series.
#[derive(Clone, Debug, PartialEq)]
struct Frame {
    /// The plot's size and the area inside its axes.
    plot: PlotBox,
    ticks: Ticks,
    y: Linear,
    /// The second axis, for the series measured at the right.
    y_right: Option<(Ticks, Linear)>,
    x: Band,
    label_every: usize,
    visible: Vec<usize>,
    /// Stacked bars: each stacked series with its intervals per category.
    stacks: Vec<(usize, Intervals)>,
    /// Visible bar series drawn side by side (after the stacked column, if any), in order.
    grouped: Vec<usize>,
}

/// Whether `series` is drawn as a line (its own `type`, else the chart's).
fn draws_line(chart: &Chart, series: &Series) -> bool {
    series.line.unwrap_or(chart.kind != ChartKind::Bar)
}

/// The lowest and highest of `values`, or `None` when there are none.
fn extent(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.fold(None, |range, v| Some(range.map_or((v, v), |(low, high): (f64, f64)| (low.min(v), high.max(v)))))
}

impl Frame {
    fn new(chart: &Chart, (width, height): (f64, f64), hidden: &[bool]) -> Frame {
        let visible: Vec<usize> = (0..chart.series.len())
            .filter(|&s| !hidden.get(s).copied().unwrap_or(false))
            .collect();
        let bars: Vec<usize> = visible.iter().copied().filter(|&s| !draws_line(chart, &chart.series[s])).collect();
        // `stacked` stacks the bars of the left axis; bars on the right axis stand beside them.
        let (stacked, grouped): (Vec<usize>, Vec<usize>) =
            bars.iter().partition(|&&s| chart.stacked && !chart.series[s].right);
        let values: Vec<&[Option<f64>]> = stacked.iter().map(|&s| chart.series[s].values.as_slice()).collect();
        let stacks: Vec<(usize, Intervals)> = stacked.iter().copied().zip(stack(&values)).collect();
        // Room above the top tick for the units, when there are any.
        let right_series: Vec<usize> = visible.iter().copied().filter(|&s| chart.series[s].right).collect();
        let right_unit = right_series.first().map_or("", |&s| chart.series[s].unit(chart));
        let top = if chart.unit.is_empty() && right_unit.is_empty() { 12.0 } else { 24.0 };
        let bottom = (height - 26.0).max(top + 24.0);
        let target = ((bottom - top) / 44.0).floor().clamp(2.0, 8.0) as usize;
        // Each axis's ticks over its series; bars and areas measure from zero, a line shows its
        // shape (and crosses zero visibly when it does).
        let axis_ticks = |on_right: bool| {
            let mine: Vec<usize> = visible.iter().copied().filter(|&s| chart.series[s].right == on_right).collect();
            let stacked_ends = stacks.iter().filter(|_| !on_right).flat_map(|(_, stack)| stack.iter().flatten().flat_map(|&(a, b)| [a, b]));
            let plain = mine
                .iter()
                .filter(|s| !stacks.iter().any(|(stacked, _)| stacked == *s))
                .flat_map(|&s| chart.series[s].values.iter().flatten().copied());
            let (mut low, mut high) = extent(stacked_ends.chain(plain)).unwrap_or((0.0, 1.0));
            if mine.iter().any(|&s| !draws_line(chart, &chart.series[s]) || chart.kind == ChartKind::Area) {
                (low, high) = (low.min(0.0), high.max(0.0));
            }
            Ticks::nice(low, high, target)
        };
        let ticks = axis_ticks(false);
        let ticks_right = (!right_series.is_empty()).then(|| axis_ticks(true));
        let widest = |ticks: &Ticks| ticks.values().iter().map(|v| ticks.label(*v).chars().count()).max().unwrap_or(1);
        let left = (widest(&ticks) as f64 * 6.8 + 14.0).max(30.0);
        let right_margin = ticks_right.as_ref().map_or(10.0, |ticks| (widest(ticks) as f64 * 6.8 + 14.0).max(30.0));
        let right = (width - right_margin).max(left + 24.0);
        let count = chart.categories.len().max(1);
        let padding = if bars.is_empty() { 0.0 } else { 0.24 };
        let x = Band {
            start: left,
            length: right - left,
            count,
            padding,
        };
        let widest_label = chart
            .categories
            .iter()
            .map(|c| short_label(c, LABEL_CHARS).chars().count())
            .max()
            .unwrap_or(1);
        let slot = (right - left) / count as f64;
        let label_every = ((widest_label as f64 * 6.6 + 10.0) / slot).ceil().max(1.0) as usize;
        Frame {
            plot: PlotBox { width, height, top, bottom, left, right },
            ticks,
            y: Linear {
                domain: (ticks.min, ticks.max),
                range: (bottom, top),
            },
            y_right: ticks_right.map(|ticks| (ticks, Linear { domain: (ticks.min, ticks.max), range: (bottom, top) })),
            x,
            label_every,
            visible,
            stacks,
            grouped,
        }
    }

    /// Where value zero sits on the left axis (the bars' baseline), kept inside the plot.
    fn baseline(&self) -> f64 {
        self.y.map(0.0_f64.max(self.ticks.min).min(self.ticks.max))
    }

    /// The scale of the axis `series` is measured on, and where its zero sits.
    fn scale(&self, chart: &Chart, series: usize) -> (Linear, f64) {
        match &self.y_right {
            Some((ticks, y)) if chart.series[series].right => (*y, y.map(0.0_f64.max(ticks.min).min(ticks.max))),
            _ => (self.y, self.baseline()),
        }
    }

    /// Left edge and width of `series`' bar in category `category`: the stacked column, or its
    /// place among the bars side by side.
    fn bar(&self, category: usize, series: usize) -> (f64, f64) {
        let columns = self.grouped.len() + usize::from(!self.stacks.is_empty());
        let slot = match self.grouped.iter().position(|&s| s == series) {
            Some(index) => index + usize::from(!self.stacks.is_empty()),
            None => 0,
        };
        let count = columns.max(1) as f64;
        let group = self.x.width();
        let gap = if count > 1.0 {
            (group / count * 0.12).min(3.0)
        } else {
            0.0
        };
        let width = (group - gap * (count - 1.0)) / count;
        (
            self.x.position(category) + slot as f64 * (width + gap),
            width,
        )
    }
}

#[component]
pub fn CartesianPlot(chart: Arc<Chart>, hidden: RwSignal<Vec<bool>>) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    let size = use_element_size(node, (480.0, 240.0));
    let frame = Memo::new({
        let chart = chart.clone();
        move |_| hidden.with(|hidden| Frame::new(&chart, size.get(), hidden))
    });
    let active = RwSignal::new(None::<Active>);
    // The plot is one tab stop (roving tabindex): the last focused value, or the first one drawn.
    let tab_stop = RwSignal::new(first_mark(
        &chart,
        &(0..chart.series.len()).collect::<Vec<_>>(),
    ));
    let kind = chart.kind;
    let dimensions = (chart.series.len(), chart.categories.len());

    let on_pointer = {
        let chart = chart.clone();
        move |event: PointerEvent| {
            // Leptos delegates pointermove to the window, so the element is the event's target.
            let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
                return;
            };
            let rect = target.get_bounding_client_rect();
            if rect.width() <= 0.0 || chart.categories.is_empty() {
                return;
            }
            let category = frame.with_untracked(|f| {
                let x = f.plot.left
                    + (f64::from(event.client_x()) - rect.left()) / rect.width()
                        * (f.plot.right - f.plot.left);
                f.x.index_at(x)
            });
            if active.get_untracked()
                != Some(Active {
                    category,
                    series: None,
                })
            {
                active.set(Some(Active {
                    category,
                    series: None,
                }));
            }
        }
    };

    let unit = chart.unit.trim().to_owned();
    let right_unit = chart.series.iter().find(|s| s.right).map(|s| s.unit(&chart).trim().to_owned()).unwrap_or_default();
    // The axes and the category labels are drawn as markup: they take no events and carry no state,
    // and one string is far cheaper to build than an element per tick and label.
    let axes = move || {
        frame.with(|f| {
            let mut out = String::new();
            if !unit.is_empty() {
                svg_text(&mut out, "au-chart-rich__unit", (f.plot.left - 8.0, 10.0), END_MIDDLE, &unit);
            }
            for value in f.ticks.values() {
                let y = f.y.map(value);
                let zero = if value == 0.0 && f.ticks.min < 0.0 { " au-chart-rich__grid--zero" } else { "" };
                svg_line(&mut out, &format!("au-chart-rich__grid{zero}"), (f.plot.left, y), (f.plot.right, y));
                svg_text(&mut out, "au-chart-rich__tick", (f.plot.left - 8.0, y), END_MIDDLE, &f.ticks.label(value));
            }
            if let Some((ticks, y)) = f.y_right {
                svg_line(&mut out, "au-chart-rich__axis", (f.plot.right, f.plot.top), (f.plot.right, f.plot.bottom));
                if !right_unit.is_empty() {
                    svg_text(&mut out, "au-chart-rich__unit", (f.plot.right + 8.0, 10.0), MIDDLE, &right_unit);
                }
                for value in ticks.values() {
                    let class = "au-chart-rich__tick au-chart-rich__tick--right";
                    svg_text(&mut out, class, (f.plot.right + 8.0, y.map(value)), MIDDLE, &ticks.label(value));
                }
            }
            svg_line(&mut out, "au-chart-rich__axis", (f.plot.left, f.baseline()), (f.plot.right, f.baseline()));
            out
        })
    };

    let labels = {
        let chart = chart.clone();
        move || {
            frame.with(|f| {
                let mut out = String::new();
                for (index, label) in chart.categories.iter().enumerate().step_by(f.label_every.max(1)) {
                    let (x, y) = (f.x.center(index), f.plot.bottom + 17.0);
                    svg_text(&mut out, "au-chart-rich__label", (x, y), CENTRED, &short_label(label, LABEL_CHARS));
                }
                out
            })
        }
    };

    let chart_for_spots = chart.clone();
    let highlight = move || {
        let category = active.get()?.category;
        frame.with(|f| {
            Some(match kind {
                ChartKind::Bar if f.visible.iter().all(|&s| !draws_line(&chart_for_spots, &chart_for_spots.series[s])) => {
                    let step = f.x.length / f.x.count.max(1) as f64;
                    view! {
                        <rect class="au-chart-rich__band" x=num(f.x.start + step * category as f64) y=num(f.plot.top)
                            width=num(step) height=num(f.plot.bottom - f.plot.top) />
                    }
                    .into_any()
                }
                _ => {
                    let x = f.x.center(category);
                    let spots = f
                        .visible
                        .iter()
                        .filter_map(|&s| {
                            let series = &chart_for_spots.series[s];
                            let value = series.values.get(category).copied().flatten()?;
                            let (y, _) = f.scale(&chart_for_spots, s);
                            Some(view! {
                                <circle class="au-chart-rich__spot" cx=num(x) cy=num(y.map(value)) r="5"
                                    style:stroke=series.color.clone() />
                            })
                        })
                        .collect_view();
                    view! {
                        <line class="au-chart-rich__cursor" x1=num(x) x2=num(x) y1=num(f.plot.top) y2=num(f.plot.bottom) />
                        {spots}
                    }
                    .into_any()
                }
            })
        })
    };

    let marks = {
        let chart = chart.clone();
        move || {
            frame.with(|f| {
                let wanted = tab_stop.get_untracked();
                let drawn = f.visible.contains(&wanted.0)
                    && chart
                        .series
                        .get(wanted.0)
                        .and_then(|s| s.values.get(wanted.1))
                        .copied()
                        .flatten()
                        .is_some();
                let stop = if drawn {
                    wanted
                } else {
                    first_mark(&chart, &f.visible)
                };
                // Bars first, so lines stay visible over them.
                let (lines, bars): (Vec<usize>, Vec<usize>) =
                    f.visible.iter().partition(|&&s| draws_line(&chart, &chart.series[s]));
                let mut out = String::new();
                for series in bars.into_iter().chain(lines) {
                    series_marks(&mut out, &chart, f, series, stop);
                }
                out
            })
        }
    };

    let tooltip = {
        let chart = chart.clone();
        move || {
            let Active {
                category,
                series: focused,
            } = active.get()?;
            let (x, flip, rows) = frame.with(|f| {
                let x = f.x.center(category);
                let rows: Vec<(usize, Option<f64>)> = f
                    .visible
                    .iter()
                    .map(|&s| (s, chart.series[s].values.get(category).copied().flatten()))
                    .collect();
                (x / f.plot.width * 100.0, x > f.plot.width * 0.6, rows)
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
                                {value.map(|v| format_value(v, s.unit(&chart))).unwrap_or_else(|| "—".to_owned())}
                            </span>
                        </li>
                    }
                })
                .collect_view();
            Some(view! {
                <div class="au-chart-rich__tooltip" class:au-chart-rich__tooltip--flip=flip role="status"
                    data-testid="chart-tooltip" style:left=format!("{x:.2}%")>
                    <strong class="au-chart-rich__tip-title">{chart.categories.get(category).cloned()}</strong>
                    <ul>{rows}</ul>
                </div>
            })
        }
    };

    let description = format!(
        "{} chart{}: {} series, {} categories. Use the arrow keys to move between values.",
        capitalised(kind.as_str()),
        chart
            .title
            .as_deref()
            .map(|t| format!(" of {t}"))
            .unwrap_or_default(),
        chart.series.len(),
        chart.categories.len()
    );
    let on_mark = Callback::new(move |mark: Option<(usize, usize)>| match mark {
        Some((series, category)) => {
            tab_stop.set((series, category));
            active.set(Some(Active { category, series: Some(series) }));
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

/// Appends the marks of one series to `out`: bars, or an area and a line with a focusable dot per
/// value. Marks are static markup (focus and keys are handled once, on the plot), so a long series
/// stays cheap to draw.
fn series_marks(out: &mut String, chart: &Chart, frame: &Frame, series: usize, stop: (usize, usize)) {
    let s = &chart.series[series];
    let (y, baseline) = frame.scale(chart, series);
    let label = |category: usize, value: f64| {
        format!("{}, {}: {}", s.label, chart.categories[category], format_value(value, s.unit(chart)))
    };
    let points = s.values.iter().enumerate().filter_map(|(category, value)| value.map(|v| (category, v)));
    let stacked = frame.stacks.iter().find(|(stacked, _)| *stacked == series).map(|(_, stack)| stack);
    if !draws_line(chart, s) {
        let style = format!("fill:{}", s.color);
        for (category, value) in points {
            let (x, width) = frame.bar(category, series);
            let (y0, y1) = match stacked.and_then(|stack| stack.get(category).copied().flatten()) {
                Some((start, end)) => (y.map(end), y.map(start)),
                None => (y.map(value), baseline),
            };
            let geometry = [
                ("x", x),
                ("y", y0.min(y1)),
                ("width", width.max(1.0)),
                ("height", (y1 - y0).abs().max(1.0)),
                ("rx", (width / 6.0).min(3.0)),
            ];
            let class = if value < 0.0 { "au-chart-rich__bar au-chart-rich__bar--negative" } else { "au-chart-rich__bar" };
            let label = label(category, value);
            Mark { tag: "rect", class, geometry: &geometry, style: &style, at: (series, category), stop: stop == (series, category), label: &label }
                .write(out);
        }
        return;
    }
    let coords: Vec<Option<(f64, f64)>> = s
        .values
        .iter()
        .enumerate()
        .map(|(category, value)| value.map(|v| (frame.x.center(category), y.map(v))))
        .collect();
    let color = escape_html(&s.color);
    let right = if s.right { " au-chart-rich__series--right" } else { "" };
    let _ = write!(out, "<g class=\"au-chart-rich__series{right}\">");
    if chart.kind == ChartKind::Area && s.line.is_none() {
        let _ = write!(out, "<path class=\"au-chart-rich__area\" d=\"{}\" style=\"fill:{color}\"></path>", area_path(&coords, baseline));
    }
    let _ = write!(out, "<path class=\"au-chart-rich__line\" d=\"{}\" style=\"stroke:{color}\"></path>", line_path(&coords));
    // Past a few hundred dots the line says it all: dots then only show when active or focused.
    let class = if chart.categories.len() * chart.series.len() > 240 { "au-chart-rich__dot au-chart-rich__dot--dense" } else { "au-chart-rich__dot" };
    let style = format!("stroke:{}", s.color);
    for (category, value) in points {
        let geometry = [("cx", frame.x.center(category)), ("cy", y.map(value)), ("r", 3.5)];
        let label = label(category, value);
        Mark { tag: "circle", class, geometry: &geometry, style: &style, at: (series, category), stop: stop == (series, category), label: &label }
            .write(out);
    }
    out.push_str("</g>");
}

/// The first value of a visible series in reading order: the plot's tab stop.
pub(crate) fn first_mark(chart: &Chart, visible: &[usize]) -> (usize, usize) {
    visible
        .iter()
        .find_map(|&series| {
            chart.series[series]
                .values
                .iter()
                .position(Option::is_some)
                .map(|category| (series, category))
        })
        .unwrap_or((0, 0))
}

/// Arrow keys move along a series (left/right, Home/End) or across series (up/down), to the nearest
/// mark that is drawn (gaps and hidden series have none).
pub(crate) fn move_focus(
    (series, category): (usize, usize),
    (series_count, count): (usize, usize),
    event: &KeyboardEvent,
) {
    let candidates: Vec<(usize, usize)> = match event.key().as_str() {
        "ArrowRight" => (category + 1..count).map(|c| (series, c)).collect(),
        "ArrowLeft" => (0..category).rev().map(|c| (series, c)).collect(),
        "Home" => (0..count).map(|c| (series, c)).collect(),
        "End" => (0..count).rev().map(|c| (series, c)).collect(),
        "ArrowDown" => (series + 1..series_count).map(|s| (s, category)).collect(),
        "ArrowUp" => (0..series).rev().map(|s| (s, category)).collect(),
        _ => return,
    };
    event.prevent_default();
    let Some(current) = event
        .target()
        .and_then(|target| target.dyn_into::<Element>().ok())
    else {
        return;
    };
    let Some(svg) = current.closest("svg").ok().flatten() else {
        return;
    };
    if let Some(mark) = candidates
        .into_iter()
        .find_map(|(s, c)| {
            svg.query_selector(&format!("[data-mark=\"{s}-{c}\"]"))
                .ok()
                .flatten()
        })
        .and_then(|mark| mark.dyn_into::<SvgElement>().ok())
    {
        let _ = current.set_attribute("tabindex", "-1");
        let _ = mark.set_attribute("tabindex", "0");
        let _ = mark.focus();
    }
}

pub(crate) fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The (series, category) of the mark an event happened on, from its `data-mark`.
pub(crate) fn mark_of(event: &web_sys::Event) -> Option<(usize, usize)> {
    let mark = event
        .target()?
        .dyn_into::<Element>()
        .ok()?
        .get_attribute("data-mark")?;
    let (series, category) = mark.split_once('-')?;
    Some((series.parse().ok()?, category.parse().ok()?))
}
