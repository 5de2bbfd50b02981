//! `carousel` widget (placeholder: to be implemented from `recipes/carousel.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Carousel(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-carousel">"carousel"</div> }
}
