//! `cards` widget (placeholder: to be implemented from `recipes/cards.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Cards(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-cards">"cards"</div> }
}
