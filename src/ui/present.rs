//! Presenting: the dashboard alone on the screen (a wall display, a meeting room), full screen where
//! the browser allows it, without the header, chat, toolbar or the frames' tools. Bound widgets keep
//! refreshing, widgets stay interactive and the screen stays on (a wake lock); only the layout cannot
//! be edited. Escape, the Exit button or leaving full screen ends it. A page opened at `#/present`
//! presents from the start.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

use crate::ui::route::{leave_present_address, opened_to_present};

#[derive(Clone, Copy)]
pub struct PresentCtx {
    presenting: RwSignal<bool>,
    /// The screen wake lock held while presenting (a wall display must not go to sleep).
    wake_lock: StoredValue<Option<JsValue>, LocalStorage>,
    /// What had the focus when the presentation started (Present, usually), to give it back.
    returns_to: StoredValue<Option<web_sys::Element>, LocalStorage>,
}

impl PresentCtx {
    /// Whether the dashboard is being presented (tracked).
    pub fn is_presenting(&self) -> bool {
        self.presenting.get()
    }

    pub fn is_presenting_untracked(&self) -> bool {
        self.presenting.get_untracked()
    }

    /// Presents the dashboard, full screen if the browser lets the page (in place otherwise), and
    /// keeps the screen on meanwhile where it can.
    pub fn start(&self) {
        self.returns_to.set_value(document().active_element());
        self.presenting.set(true);
        if let Some(root) = document().document_element() {
            ask(&root, "requestFullscreen", None, Box::new(|_| {}));
        }
        self.keep_screen_on();
    }

    pub fn stop(&self) {
        self.presenting.set(false);
        // The Exit button had the focus and goes: it returns to what had it before (Present), once
        // that shows again.
        let returns_to = self.returns_to.try_update_value(Option::take).flatten();
        request_animation_frame(move || {
            let body: Option<web_sys::Element> = document().body().map(Into::into);
            let focused = document().active_element();
            if (focused.is_none() || focused == body)
                && let Some(element) = returns_to.and_then(|element| element.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = element.focus();
            }
        });
        leave_present_address();
        if document().fullscreen_element().is_some() {
            document().exit_fullscreen();
        }
        if let Some(held) = self.wake_lock.try_update_value(Option::take).flatten() {
            ask(&held, "release", None, Box::new(|_| {}));
        }
    }

    /// Asks for a screen wake lock (the browser drops it when the page is hidden: asked again when
    /// it shows).
    fn keep_screen_on(&self) {
        let Ok(lock) = js_sys::Reflect::get(&window().navigator(), &"wakeLock".into()) else { return };
        let present = *self;
        ask(&lock, "request", Some("screen".into()), Box::new(move |held| {
            // A lock asked for twice (a page shown again as it started) is held once.
            let unwanted = match present.is_presenting_untracked() {
                true => present.wake_lock.try_update_value(|lock| lock.replace(held)).flatten(),
                false => Some(held),
            };
            if let Some(unwanted) = unwanted {
                ask(&unwanted, "release", None, Box::new(|_| {}));
            }
        }));
    }
}

/// Calls `target.name(arg)` where the browser has it and hands what its promise gives to `then`. A
/// refusal (no user gesture, a frame without the permission, a page hidden) changes nothing, and is
/// no console error.
fn ask(target: &JsValue, name: &str, arg: Option<JsValue>, then: Box<dyn FnOnce(JsValue)>) {
    let Some(method) = js_sys::Reflect::get(target, &name.into()).ok().and_then(|m| m.dyn_into::<js_sys::Function>().ok()) else {
        return;
    };
    let called = match arg {
        Some(arg) => method.call1(target, &arg),
        None => method.call0(target),
    };
    let Some(promise) = called.ok().and_then(|value| value.dyn_into::<js_sys::Promise>().ok()) else { return };
    leptos::task::spawn_local(async move {
        if let Ok(value) = wasm_bindgen_futures::JsFuture::from(promise).await {
            then(value);
        }
    });
}

pub fn provide_present() -> PresentCtx {
    let present = PresentCtx {
        presenting: RwSignal::new(false),
        wake_lock: StoredValue::new_local(None),
        returns_to: StoredValue::new_local(None),
    };
    let escape = window_event_listener(ev::keydown, move |event| {
        if event.key() == "Escape" && present.is_presenting_untracked() {
            present.stop();
        }
    });
    // Full screen left another way (the browser's own Escape, F11): the presentation ends with it.
    let left = window_event_listener(ev::fullscreenchange, move |_| {
        if document().fullscreen_element().is_none() && present.is_presenting_untracked() {
            present.stop();
        }
    });
    let shown = window_event_listener(ev::visibilitychange, move |_| {
        if present.is_presenting_untracked() && !document().hidden() {
            present.keep_screen_on();
        }
    });
    on_cleanup(move || {
        escape.remove();
        left.remove();
        shown.remove();
    });
    provide_context(present);
    // A page opened at `#/present` (a wall display) presents at once: in the window, as full screen
    // needs a gesture (a kiosk browser is full screen already).
    if opened_to_present() {
        present.start();
    }
    present
}

pub fn use_present() -> PresentCtx {
    expect_context::<PresentCtx>()
}
