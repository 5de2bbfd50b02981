//! Browser tier: the shell's components mounted in headless Chromium, asserted on the DOM.
#![cfg(target_arch = "wasm32")]

use autoui::ui::chat::ChatPanel;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn fresh_container() -> web_sys::HtmlElement {
    let document = document();
    let container = document.create_element("div").unwrap().unchecked_into::<web_sys::HtmlElement>();
    document.body().unwrap().append_child(&container).unwrap();
    container
}

#[wasm_bindgen_test]
async fn sending_a_message_puts_it_in_the_transcript_and_clears_the_input() {
    let container = fresh_container();
    let _handle = leptos::mount::mount_to(container.clone(), ChatPanel);

    let input = container
        .query_selector("[data-testid=chat-input]")
        .unwrap()
        .expect("chat input rendered")
        .unchecked_into::<web_sys::HtmlTextAreaElement>();
    input.set_value("show me <b>sales</b>");
    input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    container
        .query_selector("[data-testid=send]")
        .unwrap()
        .expect("send button rendered")
        .unchecked_into::<web_sys::HtmlElement>()
        .click();
    leptos::task::tick().await;

    let transcript = container.query_selector("[data-testid=transcript]").unwrap().expect("transcript");
    assert_eq!(transcript.text_content().unwrap_or_default(), "show me <b>sales</b>");
    assert!(transcript.query_selector("b").unwrap().is_none(), "user text is rendered as text, never as markup");
    assert_eq!(input.value(), "");
}
