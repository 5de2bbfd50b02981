//! `chart-rich` widget (placeholder: to be implemented from `recipes/chart-rich.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn ChartRich(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-chart-rich">"chart-rich"</div> }
}
