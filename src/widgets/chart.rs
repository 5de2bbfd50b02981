//! `chart` widget (placeholder: to be implemented from `recipes/chart.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Chart(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-chart">"chart"</div> }
}
