//! `js-sandbox` widget (placeholder: to be implemented from `recipes/js-sandbox.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn JsSandbox(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-js-sandbox">"js-sandbox"</div> }
}
