//! `list` widget (placeholder: to be implemented from `recipes/list.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn List(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-list">"list"</div> }
}
