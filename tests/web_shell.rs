//! Browser tier: the whole app mounted in headless Chromium, asserted on the DOM.
#![cfg(target_arch = "wasm32")]

use autoui::ui::app::App;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn mount_app() -> web_sys::HtmlElement {
    let _ = window().local_storage().ok().flatten().map(|storage| storage.clear());
    let document = document();
    let container = document.create_element("div").unwrap().unchecked_into::<web_sys::HtmlElement>();
    document.body().unwrap().append_child(&container).unwrap();
    std::mem::forget(leptos::mount::mount_to(container.clone(), App));
    container
}

fn find(container: &web_sys::HtmlElement, test_id: &str) -> web_sys::HtmlElement {
    container
        .query_selector(&format!("[data-testid={test_id}]"))
        .unwrap()
        .unwrap_or_else(|| panic!("{test_id} is rendered"))
        .unchecked_into()
}

#[wasm_bindgen_test]
async fn the_app_shows_its_shell_and_the_first_run_paths() {
    let app = mount_app();
    leptos::task::tick().await;
    assert!(find(&app, "header").text_content().unwrap_or_default().contains("autoui"));
    assert!(find(&app, "canvas-empty").text_content().unwrap_or_default().contains("Your dashboard is empty"));
    find(&app, "first-run-key");
    find(&app, "first-run-gallery");
    find(&app, "chat-input");
}

#[wasm_bindgen_test]
async fn sending_without_an_api_key_opens_settings_and_keeps_the_draft() {
    let app = mount_app();
    leptos::task::tick().await;
    let settings = find(&app, "settings");
    assert!(settings.hidden(), "settings start closed");
    let input: web_sys::HtmlTextAreaElement = find(&app, "chat-input").unchecked_into();
    input.set_value("show me <b>sales</b>");
    input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    find(&app, "send").click();
    leptos::task::tick().await;
    assert!(!find(&app, "settings").hidden(), "settings open so the key can be added");
    assert_eq!(input.value(), "show me <b>sales</b>", "nothing typed is lost");
    assert!(find(&app, "transcript").query_selector("b").unwrap().is_none());
}
