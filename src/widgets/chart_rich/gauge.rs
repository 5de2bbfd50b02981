//! Gauge: one value on a half-circle dial from `min` to `max` (the first value of the first
//! series), the filled part in the series' colour, the value and its label in the middle, and the
//! range's ends under the dial. A value outside the range fills the dial to its end and says so.

use std::sync::Arc;

use autoui_core::view::chart::{GAUGE_START, arc_path, gauge_angle, gauge_share, num};
use leptos::html::Div;
use leptos::prelude::*;

use crate::widgets::chart_rich::format_value;
use crate::widgets::chart_rich::model::Chart;
use crate::widgets::chart_rich::size::use_element_size;

#[component]
pub fn GaugePlot(chart: Arc<Chart>) -> impl IntoView {
    let node = NodeRef::<Div>::new();
    let size = use_element_size(node, (280.0, 180.0));
    let series = &chart.series[0];
    let value = series.values.iter().flatten().copied().next().unwrap_or(0.0);
    let share = gauge_share(value, chart.min, chart.max);
    let unit = series.unit(&chart).to_owned();
    let (shown, low, high) = (format_value(value, &unit), format_value(chart.min, &unit), format_value(chart.max, &unit));
    let outside = (value < chart.min || value > chart.max).then(|| {
        format!("{} is outside the dial's range ({low} to {high})", shown.clone())
    });
    let color = series.color.clone();
    let label = series.label.clone();
    let description = format!("Gauge{}: {label} {shown}, on a dial from {low} to {high}",
        chart.title.as_deref().map(|t| format!(" of {t}")).unwrap_or_default());

    // The dial's centre sits low, so the half circle fills the box.
    let dial = move || {
        size.with(|&(w, h)| {
            let outer = (w / 2.0 - 8.0).min(h - 34.0).max(24.0);
            ((w / 2.0, outer + 8.0), outer, outer * 0.72)
        })
    };
    let drawing = {
        let (shown, low, high) = (shown.clone(), low.clone(), high.clone());
        move || {
            let ((cx, cy), outer, inner) = dial();
            let track = arc_path((cx, cy), outer, inner, GAUGE_START, gauge_angle(1.0));
            let filled = (share > 0.0).then(|| view! {
                <path class="au-chart-rich__gauge-value" d=arc_path((cx, cy), outer, inner, GAUGE_START, gauge_angle(share))
                    style:fill=color.clone() data-share=format!("{share:.4}") />
            });
            view! {
                <path class="au-chart-rich__gauge-track" d=track />
                {filled}
                <text class="au-chart-rich__gauge-reading" x=num(cx) y=num(cy - inner * 0.28) text-anchor="middle">{shown.clone()}</text>
                <text class="au-chart-rich__total-label" x=num(cx) y=num(cy - 2.0) text-anchor="middle">{label.clone()}</text>
                <text class="au-chart-rich__tick" x=num(cx - (outer + inner) / 2.0) y=num(cy + 16.0) text-anchor="middle">{low.clone()}</text>
                <text class="au-chart-rich__tick" x=num(cx + (outer + inner) / 2.0) y=num(cy + 16.0) text-anchor="middle">{high.clone()}</text>
            }
        }
    };
    let view_box = move || size.with(|(w, h)| format!("0 0 {} {}", num(*w), num(*h)));
    view! {
        <div class="au-chart-rich__plot au-chart-rich__plot--gauge" node_ref=node>
            <svg class="au-chart-rich__svg" viewBox=view_box role="img" aria-label=description>{drawing}</svg>
        </div>
        {outside.map(|note| view! { <p class="au-chart-rich__notes" data-testid="gauge-outside">{note}</p> })}
    }
}
