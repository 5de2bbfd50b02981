//! `profile` widget (placeholder: to be implemented from `recipes/profile.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Profile(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-profile">"profile"</div> }
}
