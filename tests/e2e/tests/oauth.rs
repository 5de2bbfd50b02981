//! The OAuth callback page as the app serves it: opened by the app page (as the authorization
//! server's redirect lands in the sign-in window), it posts its URL to its opener on the app's
//! origin, takes the code out of its own address bar and closes; the app page's URL never holds it.
//! Then the whole sign-in against a real authorization server, and how each way it can fail shows.

use std::time::{Duration, Instant};

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm, tool_results};
use autoui_e2e::mcp_server::{McpServer, Transport, free_port};
use autoui_e2e::page::{Page, WAIT};
use autoui_e2e::with_app;
use fantoccini::wd::WindowHandle;
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

// The whole sign-in against a real authorization server: tests/oauth-server (npm oidc-provider)
// in front of tests/servers/protected_server.py, which accepts only that issuer's JWT access tokens
// for its own URL. The test fills the provider's own login and consent pages in the sign-in window.

const SERVER: &str = "notes";
const WHOAMI: &str = "notes_mcp_whoami";

/// The authorization server and the protected MCP server it issues tokens for.
struct SignInRig {
    provider: McpServer,
    resource: McpServer,
}

impl SignInRig {
    /// `mode` is the provider's OAUTH_MODE; its access tokens live `access_ttl_s` seconds.
    async fn start(page: &Page, mode: &str, access_ttl_s: u32) -> SignInRig {
        let (provider_port, resource_port) = (free_port(), free_port());
        let issuer = format!("http://127.0.0.1:{provider_port}");
        let resource = McpServer::python_on(
            "protected_server.py",
            Transport::Streamable,
            resource_port,
            vec![("PROTECTED_ISSUER".into(), issuer)],
        )
        .await;
        let provider = McpServer::oauth_provider(
            provider_port,
            vec![
                ("OAUTH_RESOURCE".into(), resource.url()),
                ("OAUTH_APP_ORIGIN".into(), page.url("")),
                ("OAUTH_ACCESS_TTL".into(), access_ttl_s.to_string()),
                ("OAUTH_MODE".into(), mode.into()),
            ],
        )
        .await;
        SignInRig { provider, resource }
    }

    fn issuer(&self) -> String {
        self.provider.base_url()
    }
}

fn in_row(css: &str) -> String {
    format!("[data-testid=server][data-server-id='{SERVER}'] {css}")
}

/// Adds the protected server in the servers panel (left open) and waits for "Sign in required".
async fn add_protected_server(page: &Page, rig: &SignInRig) {
    page.click("[data-testid=open-servers]").await;
    page.type_into("[data-testid=server-url]", &rig.resource.url()).await;
    page.type_into("[data-testid=server-name]", SERVER).await;
    page.click("[data-testid=server-add]").await;
    let auth = page.wait_for_text(&in_row("[data-auth=sign-in-required]"), "Sign in required").await;
    assert!(!auth.contains("failed"), "no error before the person tried: {auth}");
}

/// Presses Sign in and returns the sign-in window's handle, switched to, once it has opened.
async fn press_sign_in(page: &Page) -> (WindowHandle, WindowHandle) {
    let client = page.client();
    let app = client.window().await.expect("the app's window");
    page.click(&in_row("[data-testid=server-sign-in]")).await;
    let deadline = Instant::now() + WAIT;
    let popup = loop {
        let windows = client.windows().await.expect("windows");
        if let Some(popup) = windows.into_iter().find(|w| *w != app) {
            break popup;
        }
        assert!(Instant::now() < deadline, "no sign-in window opened");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    client.switch_to_window(popup.clone()).await.expect("to the sign-in window");
    (app, popup)
}

/// Fills oidc-provider's login page, then its consent page, in the current (sign-in) window.
async fn log_in_and_consent(page: &Page) {
    page.find("input[name=login]").await;
    page.eval(
        "document.querySelector('input[name=login]').value = 'ada'; \
         document.querySelector('input[name=password]').value = 'correct horse'; \
         document.querySelector('form').submit();",
        vec![],
    )
    .await;
    page.find("input[name=prompt][value=consent]").await;
    // The submit navigates to the app's callback page, which closes this window.
    page.eval("setTimeout(() => document.querySelector('form').submit(), 0);", vec![]).await;
}

/// The whole sign-in: Sign in, the provider's pages, back in the app's window once the sign-in
/// window has closed itself.
async fn sign_in(page: &Page) {
    let (app, _popup) = press_sign_in(page).await;
    log_in_and_consent(page).await;
    page.client().switch_to_window(app).await.expect("back to the app");
    wait_for_windows(page, 1).await;
}

async fn wait_for_windows(page: &Page, count: usize) {
    let deadline = Instant::now() + WAIT;
    while page.client().windows().await.expect("windows").len() != count {
        assert!(Instant::now() < deadline, "never {count} windows");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Every string stored under `key` anywhere in `value`.
fn strings_under(value: &Value, key: &str, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (name, inner) in map {
                match inner {
                    Value::String(text) if name == key => found.push(text.clone()),
                    _ => strings_under(inner, key, found),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| strings_under(item, key, found)),
        Value::String(text) if text.starts_with('{') || text.starts_with('[') => {
            if let Ok(inner) = serde_json::from_str::<Value>(text) {
                strings_under(&inner, key, found);
            }
        }
        _ => {}
    }
}

/// Who am I: whoami, a card, an answer; asked again later: whoami and an answer.
fn who_script(_request: &Value, index: usize) -> Reply {
    match index {
        0 | 3 => Reply::tool(WHOAMI, json!({})),
        1 => Reply::tool("autoui_webmcp_widget_display", json!({"name": "stat-card", "params": {"label": "Signed in", "value": "ada"}})),
        2 => Reply::text("You are ada."),
        _ => Reply::text("Still ada."),
    }
}

#[tokio::test]
async fn signing_in_at_oidc_provider_connects_the_server_refreshes_its_token_and_never_shows_it() {
    const TTL_S: u32 = 8;
    let llm = ScriptedLlm::start(who_script).await;
    let base = llm.base_url();
    let llm_ref = &llm;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        let rig = SignInRig::start(&page, "normal", TTL_S).await;
        add_protected_server(&page, &rig).await;

        sign_in(&page).await;
        let signed_in_at = Instant::now();
        let status = page.wait_for_server(SERVER, "connected with").await;
        assert!(status.contains("1 tool"), "whoami listed: {status}");
        let auth = page.text(&in_row("[data-auth=signed-in]")).await;
        assert!(auth.contains(&format!("Signed in at {}", rig.issuer())) && auth.contains("notes:read"), "{auth}");
        page.click(&in_row("[data-testid=server-approval-all] option[value=always_allow]")).await;
        page.close_servers().await;

        page.say("Who am I?").await;
        page.wait_for_runs(1).await;
        let answered = tool_results(&llm_ref.requests()[1]).join("\n");
        assert!(answered.contains("signed in as ada via "), "the server accepted the provider's token: {answered}");
        page.wait_for_count("[data-testid=widget]", 1).await;

        // Reloaded: still signed in, no new sign-in.
        page.reload().await;
        page.click("[data-testid=open-servers]").await;
        page.wait_for_server(SERVER, "connected with").await;
        page.find(&in_row("[data-auth=signed-in]")).await;
        page.close_servers().await;

        // Past the first access token's lifetime the server refuses it; the call still works
        // because the app refreshed it with the refresh token.
        let expired = signed_in_at + Duration::from_secs(u64::from(TTL_S) + 2);
        tokio::time::sleep(expired.saturating_duration_since(Instant::now())).await;
        page.say("And now?").await;
        page.wait_for_runs(1).await; // since the reload
        let requests = llm_ref.requests();
        let again = tool_results(&requests[requests.len() - 1]).join("\n");
        assert!(again.contains("signed in as ada via "), "a refreshed token was accepted: {again}");

        // Nothing secret leaves the app's storage: not in the console, an export, a share link or the URL.
        let stored = page.stored_records().await;
        let mut secrets = Vec::new();
        for key in ["access_token", "refresh_token"] {
            strings_under(&stored, key, &mut secrets);
        }
        assert!(secrets.len() >= 2, "the grant is stored with its tokens: {stored}");
        page.catch_downloads().await;
        page.click("[data-testid=export-file]").await;
        let export = page.downloaded_text().await.expect("the dashboard was downloaded");
        let link = page.share_link().await;
        let url = page.eval("return location.href + ' ' + history.length", vec![]).await.to_string();
        let console = page.console_messages().await.join("\n");
        for (place, text) in [("the console", &console), ("the export", &export), ("the share link", &link), ("the page URL", &url)] {
            for secret in &secrets {
                assert!(!text.contains(secret.as_str()), "a token in {place}");
            }
            for marker in ["code=", "code_verifier", "refresh_token", "access_token"] {
                assert!(!text.contains(marker), "{marker} in {place}: {text}");
            }
        }
        assert!(!link.is_empty() && !export.is_empty(), "there was something to check");

        // Sign out: the refresh token is revoked at the provider, and the server asks again.
        page.click("[data-testid=open-servers]").await;
        page.click(&in_row("[data-testid=server-sign-out]")).await;
        page.find(&in_row("[data-auth=sign-in-required]")).await;
    })
    .await;
    llm.stop().await;
}

#[tokio::test]
async fn a_forged_state_is_refused_and_a_closed_sign_in_window_just_cancels() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        let rig = SignInRig::start(&page, "normal", 3600).await;
        add_protected_server(&page, &rig).await;

        // An answer with another state (a forged or stale redirect) reaches the app's callback page.
        let (app, _popup) = press_sign_in(&page).await;
        page.find("input[name=login]").await;
        let forged = page.url("/oauth/callback.html?code=forged-code&state=not-this-sign-ins");
        page.eval("location.href = arguments[0];", vec![json!(forged)]).await;
        page.client().switch_to_window(app.clone()).await.expect("back to the app");
        wait_for_windows(&page, 1).await;
        let error = page.wait_for_text(&in_row("[data-testid=server-auth-error]"), "state").await;
        assert!(error.starts_with("OAuth authorization failed at "), "the step is named: {error}");
        assert!(error.contains("does not match"), "{error}");
        page.find(&in_row("[data-auth=sign-in-required]")).await;

        // The person closes the sign-in window: no error, Sign in again possible.
        let (app, popup) = press_sign_in(&page).await;
        page.find("input[name=login]").await;
        page.client().close_window().await.expect("the person closes the sign-in window");
        page.client().switch_to_window(app).await.expect("back to the app");
        let _ = popup;
        page.wait_until_gone(&in_row("[data-auth=signing-in]")).await;
        page.find(&in_row("[data-auth=sign-in-required] [data-testid=server-sign-in]")).await;
        assert_eq!(page.count(&in_row("[data-testid=server-auth-error]")).await, 0, "closing the window is not an error");
        let url = page.eval("return location.href", vec![]).await;
        assert!(!url.to_string().contains("code="), "{url}");
    })
    .await;
}

#[tokio::test]
async fn a_token_endpoint_without_cors_and_a_refused_registration_are_named() {
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        let rig = SignInRig::start(&page, "no-token-cors", 3600).await;
        add_protected_server(&page, &rig).await;
        sign_in(&page).await;
        let error = page.wait_for_text(&in_row("[data-testid=server-auth-error]"), "failed").await;
        let token_endpoint = format!("{}/token", rig.issuer());
        assert!(error.starts_with(&format!("OAuth token request failed at {token_endpoint}:")), "{error}");
        assert!(
            error.contains(&format!("no Access-Control-Allow-Origin for {}", page.url(""))),
            "the missing header is named, for this page's origin: {error}"
        );
    })
    .await;

    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        let rig = SignInRig::start(&page, "refuse-registration", 3600).await;
        add_protected_server(&page, &rig).await;
        page.click(&in_row("[data-testid=server-sign-in]")).await;
        let error = page.wait_for_text(&in_row("[data-testid=server-auth-error]"), "failed").await;
        let registration = format!("{}/reg", rig.issuer());
        assert!(error.starts_with(&format!("OAuth client registration failed at {registration}:")), "{error}");
        wait_for_windows(&page, 1).await;
        page.find(&in_row("[data-testid=server-sign-in]")).await;
    })
    .await;
}

fn revoked_script(_request: &Value, index: usize) -> Reply {
    match index {
        0 | 2 => Reply::tool(WHOAMI, json!({})),
        _ => Reply::text("Done."),
    }
}

#[tokio::test]
async fn a_revoked_refresh_token_asks_for_a_sign_in_again_and_loses_nothing_else() {
    const TTL_S: u32 = 5;
    let other = McpServer::python("table_server.py", Transport::Streamable).await;
    let llm = ScriptedLlm::start(revoked_script).await;
    let base = llm.base_url();
    let other_url = other.url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.add_server(&other_url, "table").await;
        let rig = SignInRig::start(&page, "normal", TTL_S).await;
        add_protected_server(&page, &rig).await;
        sign_in(&page).await;
        let signed_in_at = Instant::now();
        page.wait_for_server(SERVER, "connected with").await;
        page.click(&in_row("[data-testid=server-approval-all] option[value=always_allow]")).await;
        page.close_servers().await;
        page.say("Who am I?").await;
        page.wait_for_runs(1).await;
        let card = page.call_tool("widget_display", json!({"name": "stat-card", "params": {"label": "Kept", "value": "7"}})).await;
        assert!(card["structuredContent"]["id"].is_string(), "{card}");

        // The person revokes the app's access at the provider; the access token then runs out.
        let revoked = rig.provider.post_json("/test/revoke-refresh-tokens").await;
        assert!(revoked["revoked"].as_u64().unwrap_or(0) >= 1, "{revoked}");
        let expired = signed_in_at + Duration::from_secs(u64::from(TTL_S) + 2);
        tokio::time::sleep(expired.saturating_duration_since(Instant::now())).await;
        page.say("And now?").await;
        page.click("[data-testid=open-servers]").await;
        page.find(&in_row("[data-auth=sign-in-required] [data-testid=server-sign-in]")).await;

        // Nothing else lost: the conversation, the canvas, the other server.
        let transcript = page.text("[data-testid=transcript]").await;
        assert!(transcript.contains("Who am I?") && transcript.contains("And now?"), "{transcript}");
        assert_eq!(page.count("[data-testid=widget]").await, 1, "the canvas keeps its card");
        page.wait_for_server("table", "connected with").await;
    })
    .await;
    llm.stop().await;
}

/// `scripts/oauth-client.sh` (the build's hook) with `AUTOUI_PUBLIC_URL` set to `public`, writing
/// into a fresh directory: its exit success and the document, if any.
fn client_document(public: &str) -> (bool, Option<Value>) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = std::env::temp_dir().join(format!("autoui-oauth-client-{}-{}", std::process::id(), public.len()));
    let status = std::process::Command::new("bash")
        .arg(root.join("scripts/oauth-client.sh"))
        .arg(&out)
        .env("AUTOUI_PUBLIC_URL", public)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("bash runs the script");
    let document = std::fs::read_to_string(out.join("oauth/client.json")).ok().map(|text| serde_json::from_str(&text).expect("valid JSON"));
    let _ = std::fs::remove_dir_all(&out);
    (status.success(), document)
}

#[test]
fn the_client_metadata_document_is_generated_for_the_configured_deployment_only() {
    let (ok, document) = client_document("https://dash.example.com/autoui/");
    let document = document.filter(|_| ok).expect("written");
    assert_eq!(document["client_id"], "https://dash.example.com/autoui/oauth/client.json", "its own URL is the client_id");
    assert_eq!(document["redirect_uris"], json!(["https://dash.example.com/autoui/oauth/callback.html"]));
    assert_eq!(document["token_endpoint_auth_method"], "none");
    assert_eq!(document["application_type"], "web");

    assert_eq!(client_document(""), (true, None), "nothing configured, nothing written");
    let (ok, document) = client_document("http://dash.example.com/");
    assert!(!ok && document.is_none(), "an http URL is refused");
    let (ok, _) = client_document("https://dash.example.com/\"}");
    assert!(!ok, "a URL that would break the JSON is refused");
}

fn chat_script(_request: &Value, _index: usize) -> Reply {
    Reply::text("Noted.")
}

#[tokio::test]
async fn with_the_sign_in_window_blocked_the_page_signs_in_by_redirect_and_keeps_its_work() {
    let llm = ScriptedLlm::start(chat_script).await;
    let base = llm.base_url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        let rig = SignInRig::start(&page, "normal", 3600).await;
        page.say("Remember the redirect").await;
        page.wait_for_runs(1).await;
        let card = page.call_tool("widget_display", json!({"name": "stat-card", "params": {"label": "Kept", "value": "7"}})).await;
        assert!(card["structuredContent"]["id"].is_string(), "{card}");
        add_protected_server(&page, &rig).await;

        // The browser blocks the sign-in window (window.open gives null, as a popup blocker does).
        page.eval("window.open = () => null;", vec![]).await;
        page.click(&in_row("[data-testid=server-sign-in]")).await;
        log_in_and_consent(&page).await;

        // Back on the app page, in the same window: signed in, and nothing of the work lost.
        page.click("[data-testid=open-servers]").await;
        let status = page.wait_for_server(SERVER, "connected with").await;
        assert!(status.contains("1 tool"), "{status}");
        let auth = page.text(&in_row("[data-auth=signed-in]")).await;
        assert!(auth.contains(&format!("Signed in at {}", rig.issuer())), "{auth}");
        page.close_servers().await;
        let transcript = page.text("[data-testid=transcript]").await;
        assert!(transcript.contains("Remember the redirect") && transcript.contains("Noted."), "the conversation survives: {transcript}");
        page.wait_for_count("[data-testid=widget]", 1).await;

        let url = page.eval("return location.href", vec![]).await.to_string();
        assert!(!url.contains("code=") && !url.contains("state="), "the app page's URL holds no code: {url}");
        let left = page.eval("return Object.keys(sessionStorage).filter(k => k.startsWith('autoui-oauth')).length", vec![]).await;
        assert_eq!(left, json!(0), "the pending sign-in is gone from session storage");
        assert_eq!(page.client().windows().await.expect("windows").len(), 1, "no window was opened");
    })
    .await;
    llm.stop().await;
}
