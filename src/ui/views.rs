//! What the UI uses of the views chunk (declared in `chunks::views`): its entry points, a widget's
//! component once the chunk is here, and markdown as safe HTML (plain text until then).

use autoui_core::provenance::ImageSources;
use autoui_core::view::markdown::escape_html;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;

use crate::deferred::{Page, Part, Slot, Status};
use crate::widgets::WidgetProps;

/// The chunk's entry points.
#[derive(Clone, Copy)]
pub struct Views {
    pub widget: fn(WidgetKind, WidgetProps) -> AnyView,
    pub gallery: Page,
    pub markdown: fn(&str, ImageSources<'_>) -> String,
}

/// The views chunk, installed by `chunks::install`.
pub static VIEWS: Slot<Views> = Slot::new();

/// The page's views part.
pub fn views() -> Part<Views> {
    VIEWS.part()
}

/// The component for `kind`, once the chunk is here.
pub fn render_widget(kind: WidgetKind, props: WidgetProps) -> AnyView {
    views().view(move |views| (views.widget)(kind, props.clone()))
}

/// `markdown` as HTML that is safe for `inner_html`, web images held back unless `images` allows
/// them (tracked: it changes once the chunk is here); until then the text itself.
pub fn safe_html(markdown: &str, images: ImageSources<'_>) -> String {
    let part = views();
    part.request();
    match part.status() {
        Status::Ready(views) => (views.markdown)(markdown, images),
        _ => format!("<p>{}</p>", escape_html(markdown)),
    }
}
