//! The canvas area: the widgets on a 12-column grid, or the empty state.

use leptos::prelude::*;

use crate::state::canvas::use_canvas;
use crate::ui::widget_frame::WidgetFrame;

#[component]
pub fn CanvasArea() -> impl IntoView {
    let canvas = use_canvas();
    view! {
        <section class="au-canvas" data-testid="canvas" aria-label="Dashboard canvas">
            <Show when=move || canvas.is_empty()>
                <div class="au-canvas__empty" data-testid="canvas-empty">
                    <h2>"Your dashboard is empty"</h2>
                    <p>"Ask the agent for what you want to see, for example \u{201c}monthly sales by region as a chart\u{201d}."</p>
                </div>
            </Show>
            <div class="au-canvas__grid">
                <For each=move || canvas.order() key=|id| id.clone() let(id)>
                    {canvas.cell(&id).map(|cell| view! { <WidgetFrame cell /> })}
                </For>
            </div>
        </section>
    }
}
