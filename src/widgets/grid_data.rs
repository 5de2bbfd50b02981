//! `grid-data` widget (placeholder: to be implemented from `recipes/grid-data.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn GridData(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-grid-data">"grid-data"</div> }
}
