//! Which main view is showing, kept in the URL hash (`#/gallery`) so it survives reloads and links.

use autoui_core::canvas::share;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Canvas,
    Gallery,
    Recipes,
}

impl View {
    fn from_hash(hash: &str) -> View {
        match hash.trim_start_matches('#').trim_start_matches('/') {
            "gallery" => View::Gallery,
            "recipes" => View::Recipes,
            _ => View::Canvas,
        }
    }
}

/// The canvas's presentation's own address (a wall display's browser opens it), the canvas view.
const PRESENT: &str = "#/present";

/// Whether the page was opened to present its dashboard (`#/present`).
pub fn opened_to_present() -> bool {
    current_hash() == PRESENT
}

/// Once the presentation ends, the address is the canvas's again (a reload does not present), with
/// no entry added to the history.
pub fn leave_present_address() {
    if current_hash() == PRESENT
        && let Ok(history) = window().history()
    {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some("#/"));
    }
}

/// The view the page was opened on.
pub fn initial_view() -> View {
    View::from_hash(&current_hash())
}

fn current_hash() -> String {
    window().location().hash().unwrap_or_default()
}

/// The current view, following `hashchange` (back/forward and links work). A share link opened in this
/// page (`#hs=…` pasted into the address bar, or a link to one followed) loads the page again: the app
/// reads a link's dashboard as it starts, so the link opens as it would in a new tab.
pub fn use_view() -> RwSignal<View> {
    let view = RwSignal::new(View::from_hash(&current_hash()));
    let on_change = Closure::<dyn Fn()>::new(move || {
        let hash = current_hash();
        if share::fragment_param(&hash).is_some() {
            let _ = window().location().reload();
            return;
        }
        view.set(View::from_hash(&hash));
    });
    let _ = window().add_event_listener_with_callback("hashchange", on_change.as_ref().unchecked_ref());
    // The listener lives as long as the page: the app is mounted once.
    on_change.forget();
    view
}
