//! `text` widget: markdown prose. The core turns it into HTML where raw HTML is text and every
//! link and image URL is checked (`autoui_core::view::markdown`); that HTML, and only that, goes into
//! `inner_html`.

use autoui_core::view::markdown::to_safe_html;
use leptos::prelude::*;
use serde::Deserialize;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse};

#[derive(Deserialize)]
struct TextData {
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    content: Option<String>,
}

#[component]
pub fn Text(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    move || {
        data.with(|value| match parse::<TextData>(value) {
            Ok(TextData {
                title,
                content: Some(content),
            }) if !content.trim().is_empty() => view! {
                <div class="au-text">
                    <WidgetTitle title />
                    <div class="au-text__body" inner_html=to_safe_html(&content)></div>
                </div>
            }
            .into_any(),
            Ok(TextData { title, .. }) => view! {
                <div class="au-text">
                    <WidgetTitle title />
                    <EmptyState message="No text to show" />
                </div>
            }
            .into_any(),
            Err(error) => {
                view! { <WidgetError message=format!("the text data is not valid: {error}") /> }
                    .into_any()
            }
        })
    }
}
