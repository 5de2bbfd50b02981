//! Untrusted scripts under the app's real policy: the page's Content-Security-Policy names no inline
//! script (only the hash of Trunk's loader), and a js-sandbox widget's code still runs, inside the
//! sandbox proxy page (`sandbox.html`) with an opaque origin, where it reaches neither the app's
//! document, nor its storage, nor the network.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::with_app;
use serde_json::json;

/// Collects the messages posted to the app's window (what the sandboxed code reports).
const LISTEN: &str = r#"
window.__messages = [];
window.addEventListener('message', (event) => window.__messages.push(event.data));"#;

/// The js-sandbox code: tries each way out and posts what happened.
const PROBE: &str = r#"
const report = {};
const attempt = (name, f) => { try { report[name] = 'reached: ' + String(f()); } catch (e) { report[name] = 'blocked: ' + e.name; } };
attempt('appDocument', () => top.document.title);
attempt('appStorage', () => top.localStorage.getItem('autoui.settings.v1'));
attempt('storage', () => localStorage.getItem('autoui.settings.v1'));
attempt('cookie', () => document.cookie);
fetch('/index.html').then(() => { report.fetch = 'reached'; }, (e) => { report.fetch = 'blocked: ' + e.name; })
  .then(() => parent.postMessage({ type: 'probe', report }, '*'));"#;

#[tokio::test]
async fn sandboxed_code_runs_under_a_policy_without_inline_scripts_and_reaches_nothing_of_the_app() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.find("[data-testid=canvas]").await;
        let policy = page
            .eval("return document.querySelector('meta[http-equiv=Content-Security-Policy]').content;", vec![])
            .await;
        let policy = policy.as_str().expect("the page has a policy").to_owned();
        let scripts = policy.split(';').find(|part| part.trim().starts_with("script-src")).expect("script-src");
        assert!(!scripts.contains("'unsafe-inline'"), "{scripts}");
        assert!(scripts.contains("'sha256-"), "Trunk's loader is allowed by its hash: {scripts}");

        page.eval(LISTEN, vec![]).await;
        let display = r#"
const [params] = arguments;
return (async () => JSON.parse(await document.modelContext.executeTool('widget_display', params)))();"#;
        let params = json!({ "name": "js-sandbox", "params": { "title": "Probe", "code": PROBE } });
        let shown = page.eval(display, vec![params]).await;
        assert!(shown.get("isError").is_none(), "{shown}");
        page.find("[data-widget-type=js-sandbox] [data-testid=sandbox-frame]").await;

        page.wait_until("the sandboxed code reported", "return window.__messages.some((m) => m && m.type === 'probe');").await;
        let report = page.eval("return window.__messages.find((m) => m && m.type === 'probe').report;", vec![]).await;
        for probe in ["appDocument", "appStorage", "storage", "cookie", "fetch"] {
            let outcome = report[probe].as_str().unwrap_or_default();
            assert!(outcome.starts_with("blocked"), "{probe} must be blocked, got {outcome:?} in {report}");
        }

        // The probe's own fetch is refused (and logged as such); nothing else may be.
        let errors: Vec<String> = page
            .console_errors()
            .await
            .into_iter()
            .filter(|error| !(error.contains("connect-src") || error.contains("Failed to fetch")))
            .collect();
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}
