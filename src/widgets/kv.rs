//! `kv` widget (placeholder: to be implemented from `recipes/kv.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Kv(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-kv">"kv"</div> }
}
