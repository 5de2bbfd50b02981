//! Widget interactions on their way to the agent: every event is recorded on the canvas store
//! (clicks become the widget's selection), and button clicks, chat-input submits and stops go to
//! whoever handles the agent (the chat) through one handler.

use autoui_core::canvas::event::{Delivery, WidgetAction, WidgetEvent};
use autoui_core::ids::BlockId;
use autoui_core::tool::Origin;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;
use serde_json::Value;

use crate::state::canvas::CanvasCtx;

/// Context handle; `Copy`.
#[derive(Clone, Copy)]
pub struct WidgetEventsCtx {
    canvas: CanvasCtx,
    handler: StoredValue<Option<Callback<(WidgetEvent, Delivery)>>>,
    /// The latest event, for the status line and tests.
    last: RwSignal<Option<WidgetEvent>>,
}

impl WidgetEventsCtx {
    pub fn emit(&self, widget: BlockId, kind: WidgetKind, action: WidgetAction, payload: Value) {
        let event = WidgetEvent { widget, kind, action, payload };
        let delivery = self
            .canvas
            .update_store(|store| store.record_event(event.clone(), &Origin::User))
            .unwrap_or(Delivery::Selection);
        self.last.set(Some(event.clone()));
        if delivery != Delivery::Selection {
            if let Some(handler) = self.handler.get_value() {
                handler.run((event, delivery));
            }
        }
    }

    /// Sets who receives next-turn events and stop requests (the chat, which runs the agent).
    pub fn set_handler(&self, handler: Callback<(WidgetEvent, Delivery)>) {
        self.handler.set_value(Some(handler));
    }

    pub fn last(&self) -> Option<WidgetEvent> {
        self.last.get()
    }
}

pub fn provide_widget_events(canvas: CanvasCtx) -> WidgetEventsCtx {
    let ctx = WidgetEventsCtx { canvas, handler: StoredValue::new(None), last: RwSignal::new(None) };
    provide_context(ctx);
    ctx
}

pub fn use_widget_events() -> WidgetEventsCtx {
    expect_context::<WidgetEventsCtx>()
}
