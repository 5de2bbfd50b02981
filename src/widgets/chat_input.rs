//! `chat-input` widget (placeholder: to be implemented from `recipes/chat-input.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn ChatInput(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-chat-input">"chat-input"</div> }
}
