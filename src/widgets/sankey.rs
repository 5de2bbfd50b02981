//! `sankey` widget (placeholder: to be implemented from `recipes/sankey.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Sankey(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-sankey">"sankey"</div> }
}
