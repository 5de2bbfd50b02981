//! Widget interactions on their way to the agent: every event is recorded on the canvas store
//! (clicks become the widget's selection), and button clicks, chat-input submits and stops go to
//! whoever handles the agent (the chat) through one handler. A canvas from a share link or a file
//! cannot start a turn until the person makes it their own: the click says so instead.

use autoui_core::canvas::event::{Delivery, WidgetAction, WidgetEvent};
use autoui_core::ids::BlockId;
use autoui_core::tool::Origin;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;
use serde_json::Value;

use crate::state::canvas::{CanvasCtx, Foreign};
use crate::state::notices::NoticesCtx;

/// Context handle; `Copy`.
#[derive(Clone, Copy)]
pub struct WidgetEventsCtx {
    canvas: CanvasCtx,
    handler: StoredValue<Option<Callback<(WidgetEvent, Delivery)>>>,
    notices: Option<NoticesCtx>,
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
        if let (Delivery::NextTurn, Some(foreign)) = (delivery, self.canvas.foreign_untracked()) {
            if let Some(notices) = self.notices {
                notices.error(refusal(foreign));
            }
            return;
        }
        if delivery != Delivery::Selection
            && let Some(handler) = self.handler.get_value()
        {
            handler.run((event, delivery));
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

/// Why a foreign canvas's button did not reach the agent, and what to do about it.
fn refusal(foreign: Foreign) -> &'static str {
    match foreign {
        Foreign::Shared => {
            "This button would send a message to your agent. A shared dashboard cannot: make a copy first to use its buttons."
        }
        Foreign::Imported => {
            "This button would send a message to your agent. An imported dashboard cannot until you allow its buttons (above the canvas)."
        }
    }
}

pub fn provide_widget_events(canvas: CanvasCtx) -> WidgetEventsCtx {
    let notices = use_context::<NoticesCtx>();
    let ctx = WidgetEventsCtx { canvas, handler: StoredValue::new(None), notices, last: RwSignal::new(None) };
    provide_context(ctx);
    ctx
}

pub fn use_widget_events() -> WidgetEventsCtx {
    expect_context::<WidgetEventsCtx>()
}
