//! `timeline` widget (placeholder: to be implemented from `recipes/timeline.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Timeline(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-timeline">"timeline"</div> }
}
