//! Closing what is open the way people expect: Escape closes the open drawer or menu (a modal dialog
//! above them alone), a click outside a
//! menu closes it, and focus moves into a drawer when it opens and back to its header button when it
//! closes, so keyboard users never lose their place.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::ui::shortcuts::modal_open;
use crate::widgets::common::matching;

/// The pop-up menus built on `<details>` (dashboards, a widget's export).
const MENUS: &str = "details.au-menu[open], details.au-export[open]";

fn open_menus() -> Vec<web_sys::Element> {
    document().document_element().map(|root| matching(&root, MENUS)).unwrap_or_default()
}

/// Escape closes the open menus, else the open drawers; a pointer press outside a menu closes it.
pub fn install_dismiss(drawers: [RwSignal<bool>; 3]) {
    let keys = window_event_listener(ev::keydown, move |event| {
        // A modal dialog (a widget expanded, the shortcuts) is the browser's to close, and only it.
        if event.key() != "Escape" || modal_open() {
            return;
        }
        let menus = open_menus();
        if !menus.is_empty() {
            for menu in menus {
                let _ = menu.remove_attribute("open");
                if let Ok(Some(summary)) = menu.query_selector("summary") {
                    let _ = summary.unchecked_into::<web_sys::HtmlElement>().focus();
                }
            }
            return;
        }
        for drawer in drawers.into_iter().filter(|d| d.get_untracked()) {
            drawer.set(false);
        }
    });
    let presses = window_event_listener(ev::pointerdown, move |event| {
        let target = event
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Node>().ok());
        for menu in open_menus() {
            if !target.as_ref().is_some_and(|t| menu.contains(Some(t))) {
                let _ = menu.remove_attribute("open");
            }
        }
    });
    on_cleanup(move || {
        keys.remove();
        presses.remove();
    });
}

/// Focuses the drawer's close button when it opens; when it closes with focus inside it (or lost),
/// focuses the header button with `data-testid=opener` in the same app. A drawer whose code came
/// in a chunk is first shown already open: its close button takes focus then too.
pub fn follow_focus(open: RwSignal<bool>, close: NodeRef<html::Button>, opener: &'static str) {
    // What the last run with the button there saw (`None`: no such run yet).
    Effect::new(move |seen: Option<Option<bool>>| {
        let is_open = open.get();
        let button = close.get()?;
        match (seen.flatten(), is_open) {
            (None | Some(false), true) => {
                let _ = button.focus();
            }
            (Some(true), false) => {
                let drawer = button.closest(".au-drawer").ok().flatten();
                let active = document().active_element();
                let lost = active.as_ref().is_none_or(|a| a.tag_name() == "BODY");
                let inside = active
                    .zip(drawer)
                    .is_some_and(|(a, d)| d.contains(Some(&a)));
                // The opener in this app (a test page can mount several apps).
                let header_button = button.closest(".au-app").ok().flatten().and_then(|app| {
                    app.query_selector(&format!("[data-testid={opener}]"))
                        .ok()
                        .flatten()
                });
                if let Some(header_button) = header_button.filter(|_| lost || inside) {
                    let _ = header_button
                        .unchecked_into::<web_sys::HtmlElement>()
                        .focus();
                }
            }
            _ => {}
        }
        Some(is_open)
    });
}
