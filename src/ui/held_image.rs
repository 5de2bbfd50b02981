//! The "Load image" button of a held-back markdown image (see `autoui_core::markdown`): one click
//! handler on the rendered block replaces the placeholder with the image, at the person's request.

use wasm_bindgen::JsCast;
use web_sys::{Element, MouseEvent};

/// Handles clicks on markdown rendered into `inner_html`; other clicks pass through untouched.
pub fn load_held_image(event: MouseEvent) {
    let Some(button) = event
        .target()
        .and_then(|target| target.dyn_into::<Element>().ok())
        .and_then(|target| target.closest("[data-load-image]").ok().flatten())
    else {
        return;
    };
    let (Some(src), Some(placeholder)) = (button.get_attribute("data-load-image"), button.closest(".au-held-image").ok().flatten())
    else {
        return;
    };
    let Some(document) = placeholder.owner_document() else { return };
    let Ok(image) = document.create_element("img") else { return };
    // The URL was written by the model; the person chose to load it, so it goes as an attribute, never markup.
    let _ = image.set_attribute("referrerpolicy", "no-referrer");
    let _ = image.set_attribute("alt", &button.get_attribute("data-alt").unwrap_or_default());
    let _ = image.set_attribute("src", &src);
    let _ = placeholder.replace_with_with_node_1(&image);
}
