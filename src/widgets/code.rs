//! `code` widget (placeholder: to be implemented from `recipes/code.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Code(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-code">"code"</div> }
}
