//! `stat` widget (placeholder: to be implemented from `recipes/stat.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Stat(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-stat">"stat"</div> }
}
