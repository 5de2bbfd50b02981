//! Shared helpers for browser tests: mount a widget with data, collect its events, query the DOM.
#![allow(dead_code)] // each test file uses a different subset

use std::sync::{Arc, Mutex};

use autoui::widgets::common::SandboxProxy;
use autoui::widgets::{WidgetProps, render};
use autoui_core::canvas::event::WidgetAction;
use autoui_core::ids::BlockId;
use autoui_core::recipes::registry;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// Strings that would run script or inject markup if a widget rendered data as HTML. Each sets
/// `window.__pwned`, which [`assert_not_pwned`] checks.
pub const HOSTILE: &[&str] = &[
    "<script>window.__pwned = 1</script>",
    "<img src=x onerror=\"window.__pwned = 1\">",
    "<b onmouseover=\"window.__pwned = 1\">bold?</b>",
    "javascript:window.__pwned = 1",
];

/// A widget mounted in its own container; `data` can be set to drive updates.
pub struct Mounted {
    pub container: HtmlElement,
    pub data: RwSignal<Arc<Value>>,
    pub events: Arc<Mutex<Vec<(WidgetAction, Value)>>>,
}

impl Mounted {
    pub fn query(&self, selector: &str) -> Option<Element> {
        self.container.query_selector(selector).ok().flatten()
    }

    pub fn query_all(&self, selector: &str) -> Vec<Element> {
        let list = self.container.query_selector_all(selector).expect("valid selector");
        (0..list.length()).filter_map(|i| list.item(i)).filter_map(|n| n.dyn_into::<Element>().ok()).collect()
    }

    pub fn text(&self) -> String {
        self.container.text_content().unwrap_or_default()
    }

    /// Clicks the first element matching `selector`.
    pub fn click(&self, selector: &str) {
        self.query(selector)
            .unwrap_or_else(|| panic!("no element matches {selector}"))
            .unchecked_into::<HtmlElement>()
            .click();
    }

    pub fn events(&self) -> Vec<(WidgetAction, Value)> {
        self.events.lock().map(|events| events.clone()).unwrap_or_default()
    }
}

/// Mounts the `kind` component with `data` in a fresh container appended to the body.
pub fn mount_widget(kind: WidgetKind, data: Value) -> Mounted {
    let document = document();
    let container = document.create_element("div").expect("div").unchecked_into::<HtmlElement>();
    container.set_attribute("data-test-widget", kind.as_str()).expect("attribute");
    document.body().expect("body").append_child(&container).expect("append");
    let data = RwSignal::new(Arc::new(data));
    let events = Arc::new(Mutex::new(Vec::new()));
    let sink = events.clone();
    let emit = Callback::new(move |event: (WidgetAction, Value)| {
        if let Ok(mut events) = sink.lock() {
            events.push(event);
        }
    });
    let props = WidgetProps { id: BlockId::new(format!("w_test_{}", kind.as_str())), data: data.into(), emit };
    // The handle is leaked on purpose: tests inspect the DOM after mounting and the page is thrown away.
    std::mem::forget(leptos::mount::mount_to(container.clone(), move || {
        provide_context(SandboxProxy(sandbox_proxy_url()));
        render(kind, props)
    }));
    Mounted { container, data, events }
}

/// The app's sandbox proxy page (`public/sandbox.html`) as a `blob:` URL: the test runner serves no
/// static files of the app.
fn sandbox_proxy_url() -> String {
    thread_local! {
        static URL: String = {
            let parts = js_sys::Array::of1(&include_str!("../../public/sandbox.html").into());
            let options = web_sys::BlobPropertyBag::new();
            options.set_type("text/html");
            let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).expect("blob");
            web_sys::Url::create_object_url_with_blob(&blob).expect("blob URL")
        };
    }
    URL.with(String::clone)
}

/// The params of the first example call in `kind`'s recipe.
pub fn example(kind: WidgetKind) -> Value {
    registry()
        .get(kind)
        .and_then(|recipe| recipe.examples.first().cloned())
        .unwrap_or_else(|| panic!("recipe {kind} has an example"))
}

/// Lets Leptos flush effects and the DOM settle.
pub async fn settle() {
    leptos::task::tick().await;
    leptos::task::tick().await;
}

/// Waits for the next animation frame, when the browser runs layout, resize observers and the work
/// widgets leave for that frame, then lets the DOM settle.
pub async fn next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        drop(window().request_animation_frame(&resolve));
    });
    drop(wasm_bindgen_futures::JsFuture::from(promise).await);
    settle().await;
}

/// Waits `ms` milliseconds of the page's clock (for work that is timed, not tied to frames).
pub async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        drop(window().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms));
    });
    drop(wasm_bindgen_futures::JsFuture::from(promise).await);
}

/// Fails if any hostile string ran script (set `window.__pwned`).
pub fn assert_not_pwned() {
    let pwned = js_sys::Reflect::get(&window(), &"__pwned".into()).unwrap_or(wasm_bindgen::JsValue::UNDEFINED);
    assert!(pwned.is_undefined(), "a hostile string ran script");
}

/// Fails if the container holds markup that only hostile data could have produced.
pub fn assert_no_injected_markup(mounted: &Mounted) {
    assert!(mounted.query("script").is_none(), "a <script> element was injected");
    assert!(mounted.query("[onerror], [onmouseover], [onclick]").is_none(), "an inline event handler was injected");
    for link in mounted.query_all("a[href]") {
        let href = link.get_attribute("href").unwrap_or_default().to_ascii_lowercase();
        assert!(!href.trim_start().starts_with("javascript:"), "a javascript: link was rendered: {href}");
    }
}
