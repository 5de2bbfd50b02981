//! `tags` widget (placeholder: to be implemented from `recipes/tags.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Tags(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-tags">"tags"</div> }
}
