//! `log` widget (placeholder: to be implemented from `recipes/log.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Log(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-log">"log"</div> }
}
