//! The views the first screen can do without, in one chunk: every widget component, the gallery and
//! recipes pages, and markdown (the parser's tables are large). The page fetches it as soon as a
//! widget or a chat message is shown, the person types in the chat, a turn starts or another agent
//! lists the page's tools (never for an empty canvas alone); until it is here a widget shows a
//! loading line in its frame and markdown
//! shows as plain text.

use autoui_core::markdown::{escape_html, to_safe_html};
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;

use crate::deferred::{Page, Status, part};
use crate::ui::gallery::Gallery;
use crate::ui::recipes::RecipesBrowser;
use crate::widgets::{WidgetProps, render};

/// The chunk's entry points.
#[derive(Clone, Copy)]
pub struct Views {
    pub widget: fn(WidgetKind, WidgetProps) -> AnyView,
    pub gallery: Page,
    pub recipes: Page,
    pub markdown: fn(&str) -> String,
}

part! {
    #[chunk(views, "the widgets")]
    pub fn views() -> Part<Views> {
        Views {
            widget: render,
            gallery: || view! { <Gallery /> }.into_any(),
            recipes: || view! { <RecipesBrowser /> }.into_any(),
            markdown: to_safe_html,
        }
    }
}

/// The component for `kind`, once the chunk is here.
pub fn render_widget(kind: WidgetKind, props: WidgetProps) -> AnyView {
    views().view(move |views| (views.widget)(kind, props.clone()))
}

/// `markdown` as HTML that is safe for `inner_html` (tracked: it changes once the chunk is here);
/// until then the text itself.
pub fn safe_html(markdown: &str) -> String {
    let part = views();
    part.request();
    match part.status() {
        Status::Ready(views) => (views.markdown)(markdown),
        _ => format!("<p>{}</p>", escape_html(markdown)),
    }
}
