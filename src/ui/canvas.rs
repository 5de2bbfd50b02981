//! The canvas area where widgets live; for now its empty state.

use leptos::prelude::*;

#[component]
pub fn CanvasArea() -> impl IntoView {
    view! {
        <section class="au-canvas" data-testid="canvas" aria-label="Dashboard canvas">
            <div class="au-canvas__empty" data-testid="canvas-empty">
                <h2>"Your dashboard is empty"</h2>
                <p>"Ask the agent for what you want to see, for example \u{201c}monthly sales by region as a chart\u{201d}."</p>
            </div>
        </section>
    }
}
