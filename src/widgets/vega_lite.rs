//! `vega-lite` widget: any chart written as a Vega-Lite v6 spec, drawn by vega as SVG, or on a
//! canvas above `SVG_MAX_ROWS` rows (`adapters::vega`, its engine fetched when the first such widget
//! renders). The spec is checked
//! by the core first (inline data within its cap, no URL), so a refused spec loads nothing; while
//! the engine loads the widget says it is drawing; the engine's errors and warnings (or why it could
//! not be loaded) are shown in the widget with a pointer to the recipe.

use std::sync::Arc;

use autoui_core::view::vega_lite;
use leptos::html::Div;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;

use crate::adapters::theme::shows_dark;
use crate::adapters::vega::{self, Chart};
use crate::state::paper::PaperCtx;
use crate::state::settings::{SettingsCtx, SystemDark};
use crate::widgets::WidgetProps;
use crate::widgets::chart_rich::size::use_element_size;
use crate::widgets::common::WidgetError;

/// Where the widget is: drawing (the engine may still be loading), drawn with Vega-Lite's
/// warnings, or stopped by an error.
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Drawing,
    Drawn(Vec<String>),
    Failed(String),
}

#[component]
pub fn VegaLite(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    let host = NodeRef::<Div>::new();
    let tip = NodeRef::<Div>::new();
    let size = use_element_size(host, (480.0, 300.0));
    let status = RwSignal::new(Status::Drawing);
    let chart = StoredValue::new_local(None::<Chart>);
    // Each draw's number: a draw that finishes after a newer one started is dropped.
    let draws = StoredValue::new(0_u64);

    // A chart on a canvas has the theme's colours written in: a theme switch draws it again, on the
    // next task (once the page's theme attribute has changed).
    let redraws = RwSignal::new(0_u32);
    let settings = use_context::<SettingsCtx>();
    let system_dark = use_context::<SystemDark>();
    Effect::new(move |first: Option<()>| {
        if let Some(settings) = settings {
            settings.0.with(|settings| settings.theme);
        }
        if let Some(SystemDark(dark)) = system_dark {
            dark.track();
        }
        if first.is_some() && data.with_untracked(|spec| vega_lite::drawn_on_canvas(spec)) {
            set_timeout(move || redraws.update(|n| *n += 1), std::time::Duration::ZERO);
        }
    });

    // Paper is light: a chart on a canvas drawn in the dark theme's colours is drawn again for the
    // print at once (within the print's microtasks, `state::paper`), and again after it.
    let paper = use_context::<PaperCtx>();
    Effect::new(move |first: Option<()>| {
        if let Some(paper) = paper {
            paper.printing();
        }
        if first.is_some() && shows_dark() && data.with_untracked(|spec| vega_lite::drawn_on_canvas(spec)) {
            redraws.update(|n| *n += 1);
        }
    });

    Effect::new(move |_| {
        redraws.track();
        let spec: Arc<Value> = data.get();
        let (Some(host), Some(tip)) = (host.get(), tip.get()) else { return };
        let draw = draws.with_value(|n| n + 1);
        draws.set_value(draw);
        if let Some(problem) = vega_lite::check(&spec).into_iter().next() {
            chart.set_value(None);
            status.set(Status::Failed(format!("{} (at {})", problem.message, path_or_root(&problem.path))));
            return;
        }
        status.set(Status::Drawing);
        leptos::task::spawn_local(async move {
            // Reading the box makes the browser lay the page out: that waits for the engine (at
            // once when it is loaded), so a page drawing its first chart is not held up by it.
            let _ = vega::load_engine().await;
            if draws.try_get_value() != Some(draw) {
                return;
            }
            // The box as laid out now: the observer's first report may still be on its way, and
            // drawing at the fallback size would mean drawing twice.
            let (width, height) = box_size(&host);
            let measured = if width >= 1.0 && height >= 1.0 { (width, height) } else { size.get_untracked() };
            let tip: web_sys::HtmlElement = tip.unchecked_into();
            let for_paper = paper.is_some_and(|paper| paper.printing_untracked());
            let drawn = vega::draw(&host, &tip, &spec, measured, for_paper).await;
            if draws.try_get_value() != Some(draw) {
                return;
            }
            match drawn {
                Ok((drawn, warnings)) => {
                    chart.set_value(Some(drawn));
                    // The widget may have been resized while the engine loaded. Measured again here:
                    // the observer's size may still be the fallback, which would draw it twice.
                    let (width, height) = box_size(&host);
                    if (width, height) != measured && width >= 1.0 && height >= 1.0 {
                        chart.with_value(|chart| chart.as_ref().map(|chart| chart.resize(width, height)));
                    }
                    status.set(Status::Drawn(warnings));
                }
                Err(error) => {
                    chart.set_value(None);
                    status.set(Status::Failed(error));
                }
            }
        });
    });
    Effect::new(move |_| {
        let (width, height) = size.get();
        chart.with_value(|chart| chart.as_ref().map(|chart| chart.resize(width, height)));
    });

    let failed = move || match status.get() {
        Status::Failed(error) => Some(view! {
            <WidgetError message=format!("Vega-Lite: {error}. The vega-lite recipe shows the spec it takes.") />
        }),
        _ => None,
    };
    // While the engine is fetched (a chart restored with the canvas, say), the widget says so.
    let loading = move || {
        (status.get() == Status::Drawing && !vega::engine_loaded()).then(|| view! {
            <p class="au-vega-lite__status" role="status" data-testid="vega-lite-loading">"Drawing the chart…"</p>
        })
    };
    let warnings = move || match status.get() {
        Status::Drawn(warnings) if !warnings.is_empty() => {
            let items = warnings.into_iter().map(|warning| view! { <li>{warning}</li> }).collect_view();
            Some(view! { <ul class="au-vega-lite__warnings" data-testid="vega-lite-warnings">{items}</ul> })
        }
        _ => None,
    };
    view! {
        <figure class="au-vega-lite" data-status=move || match status.get() {
            Status::Drawing => "drawing",
            Status::Drawn(_) => "drawn",
            Status::Failed(_) => "failed",
        }>
            {failed}
            {loading}
            <div class="au-vega-lite__plot" class:au-vega-lite__plot--failed=move || matches!(status.get(), Status::Failed(_))>
                <div class="au-vega-lite__chart" node_ref=host data-testid="vega-lite-chart"></div>
                <div class="au-vega-lite__tooltip" node_ref=tip role="tooltip" hidden></div>
            </div>
            {warnings}
        </figure>
    }
}

/// The chart's box as laid out now, rounded down as the size observer rounds it (so its report of
/// the same box does not run the chart again).
fn box_size(host: &web_sys::Element) -> (f64, f64) {
    let rect = host.get_bounding_client_rect();
    (rect.width().floor(), rect.height().floor())
}

fn path_or_root(path: &str) -> &str {
    if path.is_empty() { "the spec" } else { path }
}
