//! The canvas area: the toolbar, the widgets on a 12-column grid, or the empty state, and the banner
//! of a shared dashboard opened read-only.

use leptos::prelude::*;

use crate::state::canvas::use_canvas;
use crate::ui::canvas_toolbar::CanvasToolbar;
use crate::ui::widget_frame::WidgetFrame;

#[component]
pub fn CanvasArea(#[prop(into)] on_make_copy: Callback<()>) -> impl IntoView {
    let canvas = use_canvas();
    view! {
        <section class="au-canvas" data-testid="canvas" aria-label="Dashboard canvas">
            <Show when=move || canvas.is_read_only() fallback=|| view! { <CanvasToolbar /> }>
                <div class="au-banner" role="status" data-testid="read-only-banner">
                    <span>"You are viewing a shared dashboard. It is read-only."</span>
                    <button class="au-button au-button--primary" data-testid="make-copy" on:click=move |_| on_make_copy.run(())>
                        "Make a copy to edit"
                    </button>
                </div>
            </Show>
            <Show when=move || canvas.is_empty()>
                <div class="au-canvas__empty" data-testid="canvas-empty">
                    <h2>"Your dashboard is empty"</h2>
                    <p>"Ask the agent for what you want to see, for example \u{201c}monthly sales by region as a chart\u{201d}."</p>
                </div>
            </Show>
            <div class="au-canvas__grid" data-testid="canvas-grid">
                <For each=move || canvas.order() key=|id| id.clone() let(id)>
                    {canvas.cell(&id).map(|cell| view! { <WidgetFrame cell read_only=Signal::derive(move || canvas.is_read_only()) /> })}
                </For>
            </div>
        </section>
    }
}
