//! `trombinoscope` widget (placeholder: to be implemented from `recipes/trombinoscope.md`).

use leptos::prelude::*;

use crate::widgets::WidgetProps;

#[component]
pub fn Trombinoscope(props: WidgetProps) -> impl IntoView {
    let _ = props;
    view! { <div class="au-trombinoscope">"trombinoscope"</div> }
}
