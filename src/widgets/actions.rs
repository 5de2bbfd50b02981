//! `actions` widget (placeholder: to be implemented from `recipes/actions.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Actions(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-actions">"actions"</div> }
}
