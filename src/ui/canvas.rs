//! The canvas area: the toolbar, the widgets on a 12-column grid, or the empty state, the banner
//! of a shared dashboard opened read-only, and (once the engine is here) the servers its bindings
//! need that are not connected. The frames around the widgets (`ui::widget_frame`) come in a chunk
//! of their own (`chunks::frames`), fetched with the views chunk when a widget is first shown or may
//! soon be: an empty canvas and the gallery do not download them.

use autoui_core::canvas::model::Layout;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;

use crate::adapters::clock::local_date_time_year;
use crate::deferred::{Part, Slot, Status};
use crate::state::agent::use_agent;
use crate::state::canvas::{BlockCell, Foreign, use_canvas};
use crate::state::engine::use_engine;
use crate::state::paper::use_paper;
use crate::state::settings::use_settings;
use crate::ui::canvas_toolbar::{CanvasToolbar, widget_count};
use crate::ui::present::use_present;
use crate::ui::views::views;

/// The frames chunk's entry point: a widget's frame on the canvas, given its block and whether the
/// canvas is read-only.
#[derive(Clone, Copy)]
pub struct Frames {
    pub frame: fn(BlockCell, Signal<bool>) -> AnyView,
}

/// The frames chunk, installed by `chunks::install`.
pub static FRAMES: Slot<Frames> = Slot::new();

/// The page's frames part.
pub fn frames() -> Part<Frames> {
    FRAMES.part()
}

/// Starts fetching what a widget on the canvas needs, its frame and its component, when one is
/// shown or about to be (the person typing, a turn, another agent listing the page's tools).
pub fn request_widget_code() {
    frames().request();
    views().request();
}

/// Where a frame stands in the canvas grid: its place in the 12 columns, and for a canvas too narrow
/// for them (app.css reflows it), its span, height and place in reading order.
pub fn placement(layout: Layout) -> String {
    let Layout { x, y, w, h, z } = layout;
    let order = y.saturating_mul(12).saturating_add(x);
    format!(
        "grid-column: {} / span {w}; grid-row: {} / span {h}; z-index: {z}; --au-span: {}; --au-h: {h}; --au-order: {order};",
        x + 1,
        y + 1,
        reflow_span(w)
    )
}

/// The columns (of 12) a frame `w` wide spans when the canvas reflows: half the row up to half wide,
/// else the whole row.
fn reflow_span(w: u32) -> u32 {
    if w <= 6 { 6 } else { 12 }
}

/// A block's frame once the chunk is here; until then a placeholder of the widget's size saying
/// the frames are loading, or why they could not be, with a way to try again. A new frame is a new
/// attempt after a failure, as a new widget is for the views chunk.
fn framed(cell: BlockCell, read_only: Signal<bool>) -> impl IntoView {
    let part = frames();
    part.retry();
    views().request();
    let layout = cell.frame.with_untracked(|frame| frame.layout);
    move || match part.status() {
        Status::Ready(frames) => untrack(|| (frames.frame)(cell.clone(), read_only)),
        _ => view! {
            <div class="au-frame au-widget au-frame--pending" data-testid="widget-frame-waiting"
                style=placement(layout)>
                {part.waiting()}
            </div>
        }
        .into_any(),
    }
}

/// The first thing a newcomer sees: what autoui does, the paths that need no key, and the key path.
#[component]
fn FirstRun(on_open_settings: Callback<()>, on_prompt: Callback<String>) -> impl IntoView {
    let settings = use_settings().0;
    view! {
        <div class="au-canvas__empty au-first-run" data-testid="canvas-empty">
            <h2>"Your dashboard is empty"</h2>
            <ol class="au-first-run__steps">
                <li>"Tell the agent what you want to see; it finds the data and builds the dashboard here."</li>
                <li>"Refine it by talking (\u{201c}make the chart a donut\u{201d}) or by hand: drag, resize, undo."</li>
                <li>"Save it, export it, or share a read-only link."</li>
            </ol>
            <div class="au-first-run__paths">
                <Show when=move || settings.with(|s| s.missing_key())
                    fallback=move || view! {
                        <button class="au-button au-button--primary" data-testid="first-run-sample"
                            on:click=move |_| on_prompt.run("Build me a sales dashboard from the sample data".to_owned())>
                            "Try: \u{201c}Build me a sales dashboard\u{201d}"
                        </button>
                    }>
                    <button class="au-button au-button--primary" data-testid="first-run-key" on:click=move |_| on_open_settings.run(())>
                        "Add an LLM API key (or a local model)"
                    </button>
                </Show>
                <a class="au-button" href="#/gallery" data-testid="first-run-gallery">"Browse the widget gallery (no key needed)"</a>
            </div>
            <p class="au-first-run__note">
                {move || if settings.with(|s| s.missing_key()) {
                    "Without a key you can also import a dashboard file (Import, above) or open a share link."
                } else {
                    "Or describe the dashboard you want in the chat, in your own words."
                }}
            </p>
        </div>
    }
}

/// What a printed dashboard says at its top (app.css shows it only on paper): its name, and when it
/// was printed, as a dashboard's numbers are those of that moment.
#[component]
fn PrintHeading() -> impl IntoView {
    let canvas = use_canvas();
    let widgets = canvas.with_store(|store| store.canvas().len());
    let printed = format!("Printed {} \u{b7} {}", local_date_time_year(js_sys::Date::now()), widget_count(widgets));
    view! {
        <header class="au-print-heading" data-testid="print-heading">
            <h1>{canvas.name_untracked().unwrap_or_else(|| "Dashboard".to_owned())}</h1>
            <p>{printed}</p>
        </header>
    }
}

#[component]
pub fn CanvasArea(
    #[prop(into)] on_make_copy: Callback<()>,
    #[prop(into)] on_open_settings: Callback<()>,
    #[prop(into)] on_prompt: Callback<String>,
    #[prop(into)] on_open_servers: Callback<()>,
) -> impl IntoView {
    let canvas = use_canvas();
    let agent = use_agent();
    let engine = use_engine();
    let paper = use_paper();
    let present = use_present();
    let needed_servers = move || {
        engine.is_ready().then(|| engine.view(move |loaded| (loaded.needed_servers)(on_open_servers)))
    };
    view! {
        <section class="au-canvas" data-testid="canvas" aria-label="Dashboard canvas">
            <Show when=move || canvas.is_read_only() fallback=|| view! { <CanvasToolbar /> }>
                <Show when=move || !canvas.is_following() fallback=|| view! {
                    <div class="au-banner" role="status" data-testid="other-tab-banner">
                        <span>"This session is open in another tab of this browser, which saves it. This tab follows it read-only; close the other tab to edit here."</span>
                    </div>
                }>
                    <div class="au-banner" role="status" data-testid="read-only-banner">
                        <span>{move || match canvas.name() {
                            Some(name) => format!("You are viewing a shared dashboard, \u{201c}{name}\u{201d}. It is read-only."),
                            None => "You are viewing a shared dashboard. It is read-only.".to_owned(),
                        }}</span>
                        <button class="au-button au-button--primary" data-testid="make-copy" on:click=move |_| on_make_copy.run(())>
                            "Make a copy to edit"
                        </button>
                        <button class="au-button" data-testid="print-shared" title="Print the dashboard or save it as a PDF (Ctrl+P)"
                            on:click=move |_| paper.print()>"Print"</button>
                        <button class="au-button" data-testid="present-shared" title="Show the dashboard alone, full screen (Esc ends it)"
                            on:click=move |_| present.start()>"Present"</button>
                    </div>
                </Show>
            </Show>
            {needed_servers}
            <Show when=move || canvas.foreign() == Some(Foreign::Imported)>
                <div class="au-banner" role="status" data-testid="imported-banner">
                    <span>"This dashboard came from a file: its buttons cannot message your agent until you allow them."</span>
                    <button class="au-button" data-testid="allow-buttons" on:click=move |_| canvas.set_foreign(None)>
                        "Allow its buttons"
                    </button>
                </div>
            </Show>
            <Show when=move || canvas.is_empty()>
                <FirstRun on_open_settings on_prompt />
            </Show>
            <Show when=move || paper.printing()>
                <PrintHeading />
            </Show>
            <div class="au-canvas__grid" data-testid="canvas-grid">
                <For each=move || canvas.order() key=|id| id.clone() let(id)>
                    {canvas.cell(&id).map(|cell| framed(cell, Signal::derive(move || canvas.is_read_only() || present.is_presenting())))}
                </For>
                <For each=move || agent.pending() key=|pending| pending.call_id.clone() let(pending)>
                    {
                        let kind = pending.widget.as_deref().and_then(WidgetKind::from_name);
                        let (w, h) = kind.map(WidgetKind::default_size).unwrap_or((4, 3));
                        let label = kind.map(|k| format!("Building a {k}\u{2026}")).unwrap_or_else(|| "Building a widget\u{2026}".to_owned());
                        view! {
                            <div class="au-frame au-widget au-frame--pending" data-testid="widget-pending"
                                style=format!("grid-column: span {w}; grid-row: span {h}; --au-span: {}; --au-h: {h};", reflow_span(w)) aria-busy="true">
                                <span class="au-spinner" aria-hidden="true"></span>
                                <span>{label}</span>
                            </div>
                        }
                    }
                </For>
            </div>
        </section>
    }
}
