//! `text` widget (placeholder: to be implemented from `recipes/text.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Text(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-text">"text"</div> }
}
