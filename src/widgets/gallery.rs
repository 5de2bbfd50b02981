//! `gallery` widget (placeholder: to be implemented from `recipes/gallery.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Gallery(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-gallery">"gallery"</div> }
}
