//! `hemicycle` widget (placeholder: to be implemented from `recipes/hemicycle.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Hemicycle(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-hemicycle">"hemicycle"</div> }
}
