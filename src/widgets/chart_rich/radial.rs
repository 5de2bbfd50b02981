//! Pie and donut plots: one slice per category of the first series, a legend with values and
//! shares, the total in the donut's hole, and a tooltip on hover or keyboard focus.

use std::sync::Arc;

use autoui_core::view::bar::compact_number;
use autoui_core::view::chart::{Slice, arc_path, hole_text, num, pie, polar};
use autoui_core::view::present::{format_number, series_color};
use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, FocusEvent, KeyboardEvent, SvgElement};

use crate::widgets::chart_rich::model::{Chart, ChartKind};
use crate::widgets::chart_rich::size::use_element_size;
use crate::widgets::chart_rich::{format_value, tooltip_transform};

/// How far the hovered slice moves out, in pixels.
const POP: f64 = 6.0;

#[component]
pub fn RadialPlot(chart: Arc<Chart>) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    let size = use_element_size(node, (240.0, 220.0));
    let active = RwSignal::new(None::<usize>);
    let values: Vec<f64> = chart.series[0]
        .values
        .iter()
        .map(|v| v.unwrap_or(0.0))
        .collect();
    let slices: Arc<Vec<Slice>> = Arc::new(pie(&values));
    let total: f64 = slices.iter().map(|slice| values[slice.index]).sum();
    let donut = chart.kind == ChartKind::Donut;
    let circle = move || {
        size.with(|(w, h)| {
            let radius = (w.min(*h) / 2.0 - POP - 2.0).max(12.0);
            (
                (w / 2.0, h / 2.0),
                radius,
                if donut { radius * 0.6 } else { 0.0 },
            )
        })
    };
    let first = slices.first().map(|slice| slice.index).unwrap_or(0);
    let count = chart.categories.len();

    let paths = {
        let (chart, slices) = (chart.clone(), slices.clone());
        move || {
            let (centre, outer, inner) = circle();
            slices
                .iter()
                .map(|slice| {
                    let index = slice.index;
                    let (dx, dy) = polar((0.0, 0.0), POP, slice.mid());
                    let label = format!(
                        "{}: {} ({})",
                        chart.categories[index],
                        format_value(values_at(&chart, index), &chart.unit),
                        percent(slice.fraction)
                    );
                    view! {
                        <path class="au-chart-rich__slice" d=arc_path(centre, outer, inner, slice.start, slice.end)
                            style:fill=series_color(index) data-mark=index.to_string()
                            transform=move || (active.get() == Some(index)).then(|| format!("translate({} {})", num(dx), num(dy)))
                            tabindex=if index == first { "0" } else { "-1" } role="img" aria-label=label
                            on:pointerenter=move |_| active.set(Some(index))
                            on:focus=move |_: FocusEvent| active.set(Some(index)) on:blur=move |_| active.set(None)
                            on:keydown=move |event: KeyboardEvent| move_focus(index, count, &event) />
                    }
                })
                .collect_view()
        }
    };

    let hole = {
        // The total's two forms do not change with the size: only which one shows, and how large.
        let (full, compact) = (format_value(total, &chart.unit), format!("{}{}", compact_number(total), chart.unit));
        donut.then_some(
            move || {
                let ((cx, cy), _, inner) = circle();
                let (text, size) = hole_text(&full, &compact, inner);
                view! {
                    <g class="au-chart-rich__hole" aria-hidden="true">
                        <text class="au-chart-rich__total" x=num(cx) y=num(cy - inner * 0.08) text-anchor="middle"
                            dominant-baseline="middle" style:font-size=format!("{}px", num(size))>{text.to_owned()}</text>
                        <text class="au-chart-rich__total-label" x=num(cx) y=num(cy + inner * 0.3) text-anchor="middle"
                            dominant-baseline="middle">"Total"</text>
                    </g>
                }
            }
        )
    };

    // Values already in percent of a whole repeat their share: show the share alone.
    let values_are_shares = chart.unit == "%" && (total - 100.0).abs() < 0.5;
    let tooltip = {
        let (chart, slices) = (chart.clone(), slices.clone());
        move || {
            let index = active.get()?;
            let slice = slices.iter().find(|slice| slice.index == index)?;
            let ((x, y), (w, h)) = {
                let (centre, outer, inner) = circle();
                (
                    polar(centre, (outer + inner.max(outer * 0.3)) / 2.0, slice.mid()),
                    size.get(),
                )
            };
            let value = format_value(values_at(&chart, index), &chart.unit);
            let detail = if values_are_shares {
                value
            } else {
                format!("{value} · {}", percent(slice.fraction))
            };
            Some(view! {
                <div class="au-chart-rich__tooltip au-chart-rich__tooltip--point" role="status" data-testid="chart-tooltip"
                    style:left=format!("{:.2}%", x / w * 100.0) style:top=format!("{:.2}%", y / h * 100.0)
                    style:transform=tooltip_transform(x / w, y / h)>
                    <strong class="au-chart-rich__tip-title">{chart.categories[index].clone()}</strong>
                    <span class="au-chart-rich__tip-value">{detail}</span>
                </div>
            })
        }
    };

    let legend = chart.legend.then(|| {
        let items = chart
            .categories
            .iter()
            .enumerate()
            .map(|(index, label)| {
                let share = slices.iter().find(|slice| slice.index == index).map(|slice| percent(slice.fraction));
                let value = chart.series[0].values.get(index).copied().flatten();
                let left_out = share.is_none();
                view! {
                    <li class="au-chart-rich__legend-row" class:au-chart-rich__legend-row--active=move || active.get() == Some(index)
                        class:au-chart-rich__legend-row--out=left_out
                        on:pointerenter=move |_| active.set(Some(index)) on:pointerleave=move |_| active.set(None)>
                        <span class="au-chart-rich__swatch" style:background=series_color(index)></span>
                        <span class="au-chart-rich__legend-label">{label.clone()}</span>
                        {(!values_are_shares).then(|| view! {
                            <span class="au-chart-rich__legend-value">
                                {value.map(|v| format_value(v, &chart.unit)).unwrap_or_else(|| "—".to_owned())}
                            </span>
                        })}
                        <span class="au-chart-rich__legend-share">{share.unwrap_or_default()}</span>
                    </li>
                }
            })
            .collect_view();
        view! {
            <ul class="au-chart-rich__pie-legend" class:au-chart-rich__pie-legend--shares=values_are_shares aria-label="Legend">
                {items}
            </ul>
        }
    });

    let view_box = move || size.with(|(w, h)| format!("0 0 {} {}", num(*w), num(*h)));
    let description = format!(
        "{} chart{}: {} slices. Use the arrow keys to move between slices.",
        if donut { "Donut" } else { "Pie" },
        chart
            .title
            .as_deref()
            .map(|t| format!(" of {t}"))
            .unwrap_or_default(),
        slices.len()
    );
    view! {
        <div class="au-chart-rich__radial">
            <div class="au-chart-rich__plot au-chart-rich__plot--radial" node_ref=node>
                <svg class="au-chart-rich__svg" viewBox=view_box role="group" aria-label=description
                    on:pointerleave=move |_| active.set(None)>
                    {paths}
                    {hole}
                </svg>
                {tooltip}
            </div>
            {legend}
        </div>
    }
}

fn values_at(chart: &Chart, index: usize) -> f64 {
    chart.series[0]
        .values
        .get(index)
        .copied()
        .flatten()
        .unwrap_or(0.0)
}

/// A share as a percentage with one decimal under 10 % (`4.2%`) and none above (`65%`).
fn percent(fraction: f64) -> String {
    let pct = fraction * 100.0;
    let rounded = if pct < 10.0 {
        (pct * 10.0).round() / 10.0
    } else {
        pct.round()
    };
    format!("{}%", format_number(rounded))
}

/// Any arrow key moves to the next or previous drawn slice, wrapping around.
fn move_focus(index: usize, count: usize, event: &KeyboardEvent) {
    let forward = match event.key().as_str() {
        "ArrowRight" | "ArrowDown" => true,
        "ArrowLeft" | "ArrowUp" => false,
        _ => return,
    };
    event.prevent_default();
    let Some(svg) = event
        .target()
        .and_then(|target| target.dyn_into::<Element>().ok())
        .and_then(|slice| slice.closest("svg").ok().flatten())
    else {
        return;
    };
    let order = (1..count).map(|step| {
        if forward {
            (index + step) % count
        } else {
            (index + count - step) % count
        }
    });
    if let Some(slice) = order
        .filter_map(|i| {
            svg.query_selector(&format!("[data-mark=\"{i}\"]"))
                .ok()
                .flatten()
        })
        .find_map(|slice| slice.dyn_into::<SvgElement>().ok())
    {
        let _ = slice.focus();
    }
}
