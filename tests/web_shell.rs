//! Browser tier: the whole app mounted in headless Chromium, asserted on the DOM.
#![cfg(target_arch = "wasm32")]

use autoui::ui::app::App;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn mount_app() -> web_sys::HtmlElement {
    autoui::chunks::install();
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

/// Waits until the settings drawer is shown open: its code comes in a chunk (a few ticks here, where
/// the chunk is an ordinary call), unless a test before already fetched it.
async fn settings_shown_open(app: &web_sys::HtmlElement) {
    for _ in 0..50 {
        let drawer = app.query_selector("[data-testid=settings]").unwrap();
        if drawer.is_some_and(|d| !d.unchecked_into::<web_sys::HtmlElement>().hidden()) {
            return;
        }
        leptos::task::tick().await;
    }
    panic!("the settings drawer is shown open");
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
    let closed = app.query_selector("[data-testid=settings]").unwrap();
    assert!(closed.is_none_or(|d| d.unchecked_into::<web_sys::HtmlElement>().hidden()), "settings start closed");
    let input: web_sys::HtmlTextAreaElement = find(&app, "chat-input").unchecked_into();
    input.set_value("show me <b>sales</b>");
    input.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    find(&app, "send").click();
    settings_shown_open(&app).await;
    assert_eq!(input.value(), "show me <b>sales</b>", "nothing typed is lost");
    assert!(find(&app, "transcript").query_selector("b").unwrap().is_none());
}

fn press_escape() {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key("Escape");
    init.set_bubbles(true);
    let event = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    document().body().unwrap().dispatch_event(&event).unwrap();
}

fn focused_test_id() -> Option<String> {
    document().active_element().and_then(|element| element.get_attribute("data-testid").or_else(|| element.get_attribute("aria-label")))
}

#[wasm_bindgen_test]
async fn the_chat_button_hides_and_shows_the_chat_panel() {
    let app = mount_app();
    leptos::task::tick().await;
    let chat = find(&app, "chat");
    let toggle = find(&app, "open-chat");
    let was_hidden = chat.hidden();
    toggle.click();
    leptos::task::tick().await;
    assert_eq!(chat.hidden(), !was_hidden, "one click flips the panel");
    assert_eq!(toggle.get_attribute("aria-expanded").as_deref(), Some(if was_hidden { "true" } else { "false" }));
    toggle.click();
    leptos::task::tick().await;
    assert_eq!(chat.hidden(), was_hidden, "a second click puts it back");
}

#[wasm_bindgen_test]
async fn escape_closes_the_open_drawer_and_focus_goes_back_to_its_header_button() {
    let app = mount_app();
    leptos::task::tick().await;
    find(&app, "open-settings").click();
    settings_shown_open(&app).await;
    leptos::task::tick().await;
    assert_eq!(focused_test_id().as_deref(), Some("Close settings"), "focus moves into the drawer");
    press_escape();
    leptos::task::tick().await;
    leptos::task::tick().await;
    assert!(find(&app, "settings").hidden(), "Escape closes the drawer");
    assert_eq!(focused_test_id().as_deref(), Some("open-settings"), "focus returns to the button that opened it");
}

#[wasm_bindgen_test]
async fn a_suggested_request_without_a_key_opens_settings_and_waits_in_the_message_box() {
    let app = mount_app();
    leptos::task::tick().await;
    let suggestion = find(&app, "chat-suggestion");
    let request = suggestion.text_content().unwrap_or_default();
    assert!(!request.is_empty(), "the empty chat offers requests");
    suggestion.click();
    settings_shown_open(&app).await;
    let input: web_sys::HtmlTextAreaElement = find(&app, "chat-input").unchecked_into();
    assert_eq!(input.value(), request, "the request is kept, ready to send");
}

#[wasm_bindgen_test]
async fn the_gallery_shows_each_chart_rich_example_as_a_variant_of_its_own() {
    window().location().set_hash("#/gallery").unwrap();
    let app = mount_app();
    let examples = autoui_core::recipes::registry()
        .get(autoui_core::widget_kind::WidgetKind::ChartRich)
        .expect("chart-rich")
        .examples
        .clone();
    let mut variants = Vec::new();
    for _ in 0..400 {
        leptos::task::tick().await;
        variants = (1..examples.len())
            .filter_map(|index| app.query_selector(&format!("[data-testid=gallery-variant-chart-rich-{index}]")).unwrap())
            .collect::<Vec<_>>();
        if variants.len() == examples.len() - 1 && variants.iter().all(|v| v.query_selector("svg").unwrap().is_some()) {
            break;
        }
        let promise = js_sys::Promise::new(&mut |resolve, _| {
            drop(window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 25));
        });
        drop(wasm_bindgen_futures::JsFuture::from(promise).await);
    }
    window().location().set_hash("#/").unwrap();
    assert_eq!(variants.len(), examples.len() - 1, "every example after the first has its own gallery cell");
    assert_eq!(app.query_selector_all("[data-testid=gallery-item-chart-rich]").unwrap().length(), 1, "one item per kind still");
    for (variant, example) in variants.iter().zip(examples.iter().skip(1)) {
        let title = example["title"].as_str().unwrap_or_default();
        let text = variant.text_content().unwrap_or_default();
        assert!(text.contains(title), "the cell is captioned with its example's title {title:?}: {text}");
        assert!(variant.query_selector("svg").unwrap().is_some(), "{title}: drawn");
        assert!(variant.query_selector("[data-testid=widget-error]").unwrap().is_none(), "{title}: {text}");
        assert!(variant.query_selector("[data-testid^=gallery-variant-add-chart-rich-]").unwrap().is_some(), "{title}: can be added");
    }
    let titles: Vec<String> = variants.iter().map(|v| v.text_content().unwrap_or_default()).collect();
    for wanted in ["Delivery time by carrier", "Page weight and load time", "Cities: density and rent", "Disk used", "Revenue and orders"] {
        assert!(titles.iter().any(|t| t.contains(wanted)), "{wanted} is in the gallery: {titles:?}");
    }
}

static PART_FETCHES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static PART_VIEWS_BUILT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A chunk that takes 50 ms to arrive, counting how often it is fetched.
fn slow_chunk() -> futures::future::LocalBoxFuture<'static, Result<u32, autoui::deferred::LoadError>> {
    use autoui_core::ports::Clock;
    PART_FETCHES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    Box::pin(async {
        autoui::adapters::clock::BrowserClock.sleep(50).await;
        Ok(7)
    })
}

/// A canvas of many widgets waits on the views chunk: each widget is built once when it arrives (a
/// widget built again is a flash, lost scroll and state, and timers left behind), and it is fetched once.
#[wasm_bindgen_test]
async fn views_waiting_on_one_chunk_fetch_it_once_and_are_built_once_when_it_arrives() {
    use std::sync::atomic::Ordering::SeqCst;
    use autoui_core::ports::Clock;
    let part = autoui::deferred::Part::new("the test chunk", slow_chunk);
    let container = document().create_element("div").unwrap().unchecked_into::<web_sys::HtmlElement>();
    document().body().unwrap().append_child(&container).unwrap();
    let _mounted = leptos::mount::mount_to(container.clone(), move || {
        (0..12)
            .map(|_| {
                part.view(|value| {
                    PART_VIEWS_BUILT.fetch_add(1, SeqCst);
                    view! { <span class="built">{value}</span> }
                })
            })
            .collect_view()
    });
    for _ in 0..100 {
        if container.query_selector_all(".built").unwrap().length() == 12 {
            break;
        }
        autoui::adapters::clock::BrowserClock.sleep(10).await;
    }
    // Time for any later load to finish and rebuild them again.
    autoui::adapters::clock::BrowserClock.sleep(150).await;
    assert_eq!(container.query_selector_all(".built").unwrap().length(), 12, "every view shows the chunk's value");
    assert_eq!(PART_FETCHES.load(SeqCst), 1, "the chunk is fetched once");
    assert_eq!(PART_VIEWS_BUILT.load(SeqCst), 12, "each view is built once");
}
