//! `stat-card` widget (placeholder: to be implemented from `recipes/stat-card.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn StatCard(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-stat-card">"stat-card"</div> }
}
