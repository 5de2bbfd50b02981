//! The OAuth callback page as the app serves it: opened by the app page (as the authorization
//! server's redirect lands in the sign-in window), it posts its URL to its opener on the app's
//! origin, takes the code out of its own address bar and closes; the app page's URL never holds it.
//! The whole sign-in against a real authorization server is not here yet (see the README).

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::with_app;
use serde_json::{Value, json};

const HAND_BACK: &str = r#"
    const [query, done] = arguments;
    const url = new URL('oauth/callback.html' + query, location.href).href;
    const popup = window.open(url, 'autoui-oauth-test');
    const timer = setTimeout(() => done({ error: 'no message within 5 s' }), 5000);
    window.addEventListener('message', (event) => {
      if (event.source !== popup) return;
      clearTimeout(timer);
      setTimeout(() => done({ origin: event.origin, data: event.data, closed: popup.closed, url }), 300);
    });
"#;

#[tokio::test]
async fn the_callback_page_hands_the_code_to_its_opener_on_the_apps_origin_and_closes() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        let answer = page.eval_async(HAND_BACK, vec![json!("?code=c0de&state=st4te&iss=https%3A%2F%2Fas.example")]).await;
        let origin = page.eval("return location.origin", vec![]).await;
        assert_eq!(answer["origin"], origin, "posted from the app's own origin: {answer}");
        assert_eq!(answer["data"]["type"], "autoui-oauth-callback", "{answer}");
        assert_eq!(answer["data"]["url"], answer["url"], "the whole redirect URL, code, state and iss: {answer}");
        assert_eq!(answer["closed"], Value::Bool(true), "the sign-in window closes itself: {answer}");
        let app_url = page.eval("return location.href", vec![]).await;
        assert!(!app_url.as_str().unwrap_or_default().contains("c0de"), "the app page's URL never holds the code: {app_url}");

        let errors = page.console_errors().await;
        assert!(errors.iter().all(|e| !e.contains("Content Security Policy")), "the callback page's own policy lets its script run: {errors:?}");
    })
    .await;
}
