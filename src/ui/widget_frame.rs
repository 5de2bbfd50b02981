//! The frame around one widget on the canvas: its place on the grid, header and body.

use autoui_core::canvas::event::WidgetAction;
use leptos::prelude::*;
use serde_json::Value;

use crate::state::canvas::BlockCell;
use crate::widgets::{WidgetProps, render};

#[component]
pub fn WidgetFrame(cell: BlockCell) -> impl IntoView {
    let frame = cell.frame.clone();
    let placement = move || {
        frame.with(|f| {
            format!(
                "grid-column: {} / span {}; grid-row: {} / span {}; z-index: {};",
                f.layout.x + 1,
                f.layout.w,
                f.layout.y + 1,
                f.layout.h,
                f.layout.z
            )
        })
    };
    let props = WidgetProps {
        id: cell.id.clone(),
        data: cell.data.clone().into(),
        emit: Callback::new(|_: (WidgetAction, Value)| {}),
    };
    view! {
        <article class="au-frame au-widget" style=placement data-testid="widget" data-widget-id=cell.id.to_string()
            data-widget-type=cell.kind.as_str()>
            <header class="au-frame__header">
                <span class="au-frame__kind">{cell.kind.as_str()}</span>
            </header>
            <div class="au-frame__body">{render(cell.kind, props)}</div>
        </article>
    }
}
