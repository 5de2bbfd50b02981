//! `text` widget: markdown prose. The core turns it into HTML where raw HTML is text and every
//! link and image URL is checked (`autoui_core::view::markdown`); that HTML, and only that, goes into
//! `inner_html`. Web images load only from the conversation's data (else a "Load image" button).

use autoui_core::provenance::ImageSources;
use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::markdown::to_safe_html_with;
use leptos::prelude::*;

use crate::state::autoui::AutoUiCtx;
use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, load_held_image, parse};

struct TextData {
    title: Option<String>,
    content: Option<String>,
}

impl TextData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(TextData {
            title: fields.text("title")?,
            content: fields.text("content")?,
        })
    }
}

#[component]
pub fn Text(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    // Mounted on its own (widget tests) there is no conversation to hold images to.
    let autoui = use_context::<AutoUiCtx>();
    let render = move |content: &str| match autoui {
        Some(autoui) => autoui.with_image_sources(|images| to_safe_html_with(content, images)),
        None => to_safe_html_with(content, ImageSources::Any),
    };
    move || {
        data.with(|value| match parse(value, TextData::read) {
            Ok(TextData {
                title,
                content: Some(content),
            }) if !content.trim().is_empty() => view! {
                <div class="au-text">
                    <WidgetTitle title />
                    <div class="au-text__body" on:click=load_held_image inner_html=render(&content)></div>
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
