//! `alert` widget (placeholder: to be implemented from `recipes/alert.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Alert(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-alert">"alert"</div> }
}
