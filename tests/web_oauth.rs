//! The sign-in window of the OAuth flow in a real browser: the answer must come from the window the
//! page opened, in this page's origin, as the callback page posts it; closing the window cancels.
//! (The callback page itself is served by the app: the end-to-end tier loads it.)

use autoui::adapters::clock::BrowserClock;
use autoui::adapters::oauth_popup::{CALLBACK_MESSAGE, PopupAuthorizer, redirect_uri};
use autoui_core::mcp::oauth::error::CANCELLED;
use autoui_core::mcp::oauth::flow::Authorizer;
use autoui_core::ports::Clock;
use futures::future::{Either, select};
use std::pin::pin;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

const CALLBACK: &str = "http://127.0.0.1:1/oauth/callback.html?code=c0de&state=st4te";

/// Runs `script` in `target`'s own global (so a `postMessage` there comes from that window).
fn run_in(target: &web_sys::Window, script: &str) {
    let eval = js_sys::Reflect::get(target, &"eval".into()).expect("eval").unchecked_into::<js_sys::Function>();
    eval.call1(&JsValue::UNDEFINED, &script.into()).expect("the script runs");
}

fn message(kind: &str, url: &str) -> String {
    format!("opener.postMessage({{ type: '{kind}', url: '{url}' }}, location.origin === 'null' ? '*' : location.origin)")
}

async fn settle<T>(authorizing: impl std::future::Future<Output = T>) -> Option<T> {
    match select(pin!(authorizing), BrowserClock.sleep(5_000)).await {
        Either::Left((value, _)) => Some(value),
        Either::Right(_) => None,
    }
}

fn opened_popup() -> web_sys::Window {
    web_sys::window()
        .expect("window")
        .open_with_url_and_target("", "autoui-oauth")
        .expect("open")
        .expect("the sign-in window is the one the authorizer opened")
}

#[wasm_bindgen_test]
fn the_redirect_uri_is_the_callback_page_beside_the_app() {
    let location = web_sys::window().expect("window").location();
    let uri = redirect_uri();
    assert!(uri.starts_with(&location.origin().expect("origin")), "{uri}");
    assert!(uri.ends_with("/oauth/callback.html"), "{uri}");
}

#[wasm_bindgen_test]
async fn only_the_callback_message_from_the_opened_window_answers() {
    let authorizer = PopupAuthorizer::default();
    authorizer.open().expect("popups are allowed in the test browser");
    let popup = opened_popup();
    let authorizing = authorizer.authorize("about:blank#signing-in".to_owned());
    let posting = async {
        BrowserClock.sleep(100).await;
        let page = web_sys::window().expect("window");
        // From the app page itself, not the sign-in window: ignored.
        page.post_message(&js_sys::JSON::parse(&format!("{{\"type\":\"{CALLBACK_MESSAGE}\",\"url\":\"http://evil/\"}}")).expect("json"), "*")
            .expect("post");
        // From the sign-in window but not the callback's message: ignored.
        run_in(&popup, &message("something-else", "http://evil/"));
        BrowserClock.sleep(100).await;
        run_in(&popup, &message(CALLBACK_MESSAGE, CALLBACK));
    };
    let (result, ()) = futures::future::join(async { settle(authorizing).await }, posting).await;
    assert_eq!(result, Some(Ok(CALLBACK.to_owned())), "the callback's URL, and nothing posted before it");
    BrowserClock.sleep(50).await;
    assert!(popup.closed().unwrap_or(true), "the sign-in window is closed once answered");
}

#[wasm_bindgen_test]
async fn closing_the_sign_in_window_cancels_the_sign_in() {
    let authorizer = PopupAuthorizer::default();
    authorizer.open().expect("popups are allowed in the test browser");
    let popup = opened_popup();
    let authorizing = authorizer.authorize("about:blank#signing-in".to_owned());
    let closing = async {
        BrowserClock.sleep(200).await;
        popup.close().expect("close");
    };
    let (result, ()) = futures::future::join(async { settle(authorizing).await }, closing).await;
    let error = result.expect("the sign-in ends when the window closes").expect_err("cancelled");
    assert!(error.starts_with(CANCELLED), "{error}");
}
