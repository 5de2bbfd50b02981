//! `data-table` widget (placeholder: to be implemented from `recipes/data-table.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn DataTable(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-data-table">"data-table"</div> }
}
