//! The views chunk: every widget component, the gallery page, and markdown (the parser's tables are
//! large). The page fetches it as soon as a widget or a chat message is shown, the person
//! types in the chat, a turn starts or another agent lists the page's tools (never for an empty canvas
//! alone); until it is here a widget shows a loading line in its frame and markdown shows as plain text
//! (`ui::views`). The widgets' stylesheet comes with it (`style/widgets/<kind>.css`, one file per
//! widget, joined at build time; only the shared `_common.css` is in the first load).

use autoui_core::view::markdown::to_safe_html_with;
use leptos::prelude::*;

use crate::deferred::part;
use crate::ui::gallery::Gallery;
use crate::ui::views::Views;
use crate::widgets::render;

part! {
    #[chunk(views, "the widgets", styles = "widgets.css")]
    pub fn views() -> Part<Views> {
        Views {
            widget: render,
            gallery: || view! { <Gallery /> }.into_any(),
            markdown: to_safe_html_with,
        }
    }
}
