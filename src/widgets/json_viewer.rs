//! `json-viewer` widget (placeholder: to be implemented from `recipes/json-viewer.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn JsonViewer(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-json-viewer">"json-viewer"</div> }
}
