//! Browser tier for the MCP Apps sandbox (`public/sandbox.html`, the proxy page every `mcp-app`
//! view runs in): loaded in an `<iframe sandbox="allow-scripts">` as the widget loads it, it says
//! it is ready, renders the view it is sent in an inner frame under the view's policy (put first in
//! its `<head>` by the core), relays the view's messages to the page, and cuts a flood. A view
//! there reaches neither this page's DOM nor its storage nor the network.

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::mcp::apps::view::{ViewMeta, ViewResource};
use serde_json::{Value, json};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{HtmlIFrameElement, MessageEvent};

wasm_bindgen_test_configure!(run_in_browser);

const PROXY: &str = include_str!("../public/sandbox.html");

/// The proxy frame and every message it posted to this page, in order.
struct Proxy {
    frame: HtmlIFrameElement,
    received: Rc<RefCell<Vec<Value>>>,
    _listener: Closure<dyn FnMut(MessageEvent)>,
}

impl Proxy {
    /// The proxy page in a sandboxed frame, as the widget makes it (here from a Blob URL: this
    /// runner serves no files of the app).
    fn open() -> Proxy {
        let window = web_sys::window().expect("window");
        let document = window.document().expect("document");
        let parts = js_sys::Array::of1(&PROXY.into());
        let options = web_sys::BlobPropertyBag::new();
        options.set_type("text/html");
        let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).expect("blob");
        let url = web_sys::Url::create_object_url_with_blob(&blob).expect("blob url");
        let frame: HtmlIFrameElement = document.create_element("iframe").expect("iframe").unchecked_into();
        frame.set_attribute("sandbox", "allow-scripts").expect("sandbox");
        frame.set_src(&url);
        let received = Rc::new(RefCell::new(Vec::new()));
        let (sink, own) = (received.clone(), frame.clone());
        let listener = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let from_proxy = event.source().zip(own.content_window()).is_some_and(|(source, window)| {
                AsRef::<wasm_bindgen::JsValue>::as_ref(&source) == AsRef::<wasm_bindgen::JsValue>::as_ref(&window)
            });
            if !from_proxy {
                return;
            }
            let text = js_sys::JSON::stringify(&event.data()).map(String::from).unwrap_or_default();
            sink.borrow_mut().push(serde_json::from_str(&text).unwrap_or(Value::Null));
        });
        window.add_event_listener_with_callback("message", listener.as_ref().unchecked_ref()).expect("listen");
        document.body().expect("body").append_child(&frame).expect("mount");
        Proxy { frame, received, _listener: listener }
    }

    fn post(&self, message: &Value) {
        let target = self.frame.content_window().expect("the proxy's window");
        let value = js_sys::JSON::parse(&message.to_string()).expect("json");
        target.post_message(&value, "*").expect("post");
    }

    /// Waits (up to 10 s) until a received message satisfies `found`, and returns it.
    async fn wait_for(&self, what: &str, found: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..200 {
            if let Some(message) = self.received.borrow().iter().find(|message| found(message)) {
                return message.clone();
            }
            sleep(50).await;
        }
        panic!("no {what} from the proxy; got {:?}", self.received.borrow());
    }

    /// Sends the view, once the proxy said it is ready.
    async fn show(&self, html: &str) {
        self.wait_for("ready", |message| message["method"] == "ui/notifications/sandbox-proxy-ready").await;
        let view = ViewResource { uri: "ui://test/view.html".into(), html: html.into(), meta: ViewMeta::default() };
        self.post(&json!({"jsonrpc": "2.0", "method": "ui/notifications/sandbox-resource-ready",
            "params": {"html": view.sandboxed_document(), "sandbox": "allow-scripts allow-same-origin allow-top-navigation"}}));
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.frame.remove();
    }
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let window = web_sys::window().expect("window");
        window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms).expect("timer");
    });
    drop(JsFuture::from(promise).await);
}

#[wasm_bindgen_test]
async fn a_view_in_the_proxy_reaches_neither_the_page_nor_its_storage_nor_the_network() {
    let storage = web_sys::window().and_then(|w| w.local_storage().ok().flatten()).expect("local storage");
    storage.set_item("autoui.settings.v1", "{\"sentinel\":true}").expect("seed storage");
    let page = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    let view = format!(
        r#"<!DOCTYPE html><html><head><title>probe</title></head><body><script>
const report = {{ violations: [] }};
document.addEventListener('securitypolicyviolation', e => report.violations.push(e.effectiveDirective));
const attempt = (name, f) => {{ try {{ report[name] = 'reached: ' + String(f()); }} catch (e) {{ report[name] = 'blocked: ' + e.name; }} }};
attempt('proxyDocument', () => parent.document.title);
attempt('appDocument', () => parent.parent.document.title);
attempt('appStorage', () => parent.parent.localStorage.getItem('autoui.settings.v1'));
attempt('storage', () => {{ localStorage.setItem('autoui.settings.v1', 'pwned'); return 'written'; }});
attempt('topNavigation', () => {{ top.location.href = 'https://example.com/'; return 'navigated'; }});
report.origin = String(window.origin);
fetch({page:?}).then(() => {{ report.fetch = 'reached'; }}, e => {{ report.fetch = 'blocked: ' + e.name; }})
  .then(() => new Promise(done => setTimeout(done, 300)))
  .then(() => parent.postMessage({{ jsonrpc: '2.0', method: 'probe', params: report }}, '*'));
</script></body></html>"#
    );
    let proxy = Proxy::open();
    proxy.show(&view).await;
    let report = proxy.wait_for("probe report", |message| message["method"] == "probe").await["params"].clone();
    for probe in ["proxyDocument", "appDocument", "appStorage", "storage", "fetch", "topNavigation"] {
        let outcome = report[probe].as_str().unwrap_or_default();
        assert!(outcome.starts_with("blocked"), "{probe} must be blocked, got {outcome:?} in {report}");
    }
    assert_eq!(report["origin"], "null", "the view has an opaque origin: {report}");
    assert!(
        report["violations"].as_array().is_some_and(|v| v.contains(&json!("connect-src"))),
        "the view's own policy stopped fetch: {report}"
    );
    let inner = proxy.frame.content_document();
    assert!(inner.is_none(), "the page cannot reach into the proxy either (opaque origin)");
    assert_eq!(
        storage.get_item("autoui.settings.v1").ok().flatten().as_deref(),
        Some("{\"sentinel\":true}"),
        "the app's storage is untouched"
    );
}

#[wasm_bindgen_test]
async fn a_view_flooding_the_channel_is_cut_at_the_limit_and_the_page_is_told() {
    let view = r#"<!DOCTYPE html><html><head></head><body><script>
for (let i = 0; i < 10000; i++) parent.postMessage({ jsonrpc: '2.0', method: 'flood', params: { i } }, '*');
</script></body></html>"#;
    let proxy = Proxy::open();
    proxy.show(view).await;
    let warning = proxy
        .wait_for("flood warning", |message| {
            message["method"] == "notifications/message" && message["params"]["level"] == "warning"
        })
        .await;
    assert!(warning["params"]["data"].as_str().unwrap_or_default().contains("more than 200 messages"), "{warning}");
    sleep(300).await;
    let relayed = proxy.received.borrow().iter().filter(|message| message["method"] == "flood").count();
    assert!(relayed > 0 && relayed <= 200 * 2, "at most the limit per second is relayed, got {relayed}");
}

#[wasm_bindgen_test]
async fn a_view_moved_out_of_its_widget_keeps_running_and_answers_its_teardown() {
    // What the widget does before its block is removed: it moves the frame out with `moveBefore`
    // (which keeps a frame's document alive) and asks the view to tear down.
    let view = r#"<!DOCTYPE html><html><body><script>
window.addEventListener('message', (event) => {
  const message = event.data || {};
  if (message.method === 'ui/resource-teardown') {
    parent.postMessage({ jsonrpc: '2.0', id: message.id, result: { savedAt: 'teardown' } }, '*');
  }
});
parent.postMessage({ jsonrpc: '2.0', method: 'loaded' }, '*');
</script></body></html>"#;
    let proxy = Proxy::open();
    proxy.show(view).await;
    proxy.wait_for("the view's first load", |message| message["method"] == "loaded").await;
    let document = web_sys::window().and_then(|w| w.document()).expect("document");
    let holder = document.create_element("div").expect("div");
    document.body().expect("body").append_child(&holder).expect("mount the holder");
    let move_before: js_sys::Function =
        js_sys::Reflect::get(&holder, &"moveBefore".into()).expect("moveBefore").dyn_into().expect("moveBefore is a function");
    move_before.call2(&holder, &proxy.frame, &wasm_bindgen::JsValue::NULL).expect("move the frame");
    proxy.post(&json!({"jsonrpc": "2.0", "id": "autoui-teardown", "method": "ui/resource-teardown", "params": {}}));
    let answer = proxy.wait_for("the teardown answer", |message| message["id"] == "autoui-teardown").await;
    assert_eq!(answer["result"]["savedAt"], "teardown");
    let loads = proxy.received.borrow().iter().filter(|message| message["method"] == "loaded").count();
    assert_eq!(loads, 1, "the move did not reload the view");
    holder.remove();
}
