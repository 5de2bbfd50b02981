//! Presenting: the dashboard alone on the screen (a wall display, a meeting room), full screen where
//! the browser allows it, without the header, chat, toolbar or the frames' tools. Bound widgets keep
//! refreshing and widgets stay interactive; only the layout cannot be edited. Escape, the Exit button
//! or leaving full screen ends it.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

#[derive(Clone, Copy)]
pub struct PresentCtx {
    presenting: RwSignal<bool>,
}

impl PresentCtx {
    /// Whether the dashboard is being presented (tracked).
    pub fn is_presenting(&self) -> bool {
        self.presenting.get()
    }

    pub fn is_presenting_untracked(&self) -> bool {
        self.presenting.get_untracked()
    }

    /// Presents the dashboard, full screen if the browser lets the page (in place otherwise).
    pub fn start(&self) {
        self.presenting.set(true);
        // Refused (no user gesture, a frame without the permission): presented in the window, and
        // the refusal, a rejected promise, is no console error.
        let asked = document().document_element().and_then(|root| {
            let request: js_sys::Function = js_sys::Reflect::get(&root, &"requestFullscreen".into()).ok()?.dyn_into().ok()?;
            request.call0(&root).ok()?.dyn_into::<js_sys::Promise>().ok()
        });
        if let Some(asked) = asked {
            leptos::task::spawn_local(async move {
                let _ = wasm_bindgen_futures::JsFuture::from(asked).await;
            });
        }
    }

    pub fn stop(&self) {
        self.presenting.set(false);
        if document().fullscreen_element().is_some() {
            document().exit_fullscreen();
        }
    }
}

pub fn provide_present() -> PresentCtx {
    let present = PresentCtx { presenting: RwSignal::new(false) };
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
    on_cleanup(move || {
        escape.remove();
        left.remove();
    });
    provide_context(present);
    present
}

pub fn use_present() -> PresentCtx {
    expect_context::<PresentCtx>()
}
