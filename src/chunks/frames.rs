//! The frames chunk: the frame around each widget on the canvas (placement, drag and resize,
//! keyboard moves, its toolbar and export menu, a bound widget's freshness and refresh). The canvas
//! asks for it with the views chunk when it first shows a widget, or when one may soon come
//! (`ui::canvas::request_widget_code`); until it is here each widget's place shows a loading line.

use leptos::prelude::*;

use crate::deferred::part;
use crate::ui::canvas::Frames;
use crate::ui::widget_frame::WidgetFrame;

part! {
    #[chunk(frames, "the widget frames")]
    pub fn frames() -> Part<Frames> {
        Frames {
            frame: |cell, read_only| view! { <WidgetFrame cell read_only /> }.into_any(),
        }
    }
}
