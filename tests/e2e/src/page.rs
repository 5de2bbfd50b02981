//! A page object for scenarios: open routes, wait for elements, read text, type and click.

use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, Locator};
use serde_json::{Value, json};

use crate::app_server::RequestLog;
use crate::browser::console_errors;
use crate::cdp::cdp;

/// Reads every store of the `autoui` database in one transaction; an upgrade request means the
/// database does not exist yet, and is aborted so the app later creates it itself.
const READ_STORE: &str = r#"
const done = arguments[arguments.length - 1];
const open = indexedDB.open('autoui');
open.onupgradeneeded = () => open.transaction.abort();
open.onerror = () => done({});
open.onsuccess = () => {
  const db = open.result;
  const names = [...db.objectStoreNames];
  if (names.length === 0) { db.close(); done({}); return; }
  const tx = db.transaction(names, 'readonly');
  const out = {};
  for (const name of names) {
    const store = tx.objectStore(name);
    const keys = store.getAllKeys();
    const values = store.getAll();
    values.onsuccess = () => { out[name] = Object.fromEntries(keys.result.map((key, i) => [key, values.result[i]])); };
  }
  tx.oncomplete = () => { db.close(); done(out); };
  tx.onerror = () => { db.close(); done({ error: String(tx.error) }); };
};"#;

/// Calls a WebMCP tool, retrying while the engine has not registered it yet.
const CALL_TOOL: &str = r#"
const [name, input, done] = arguments;
const attempt = async (left) => {
  try {
    done(await document.modelContext.executeTool(name, input));
  } catch (error) {
    if (left > 0) setTimeout(() => attempt(left - 1), 100);
    else done(JSON.stringify({ isError: true, error: String(error) }));
  }
};
attempt(100);"#;

/// How long a scenario waits for the app to reach a state before failing.
pub const WAIT: Duration = Duration::from_secs(10);

pub struct Page {
    client: Client,
    base_url: String,
    server_log: RequestLog,
}

impl Page {
    pub fn new(client: Client, base_url: String) -> Page {
        Page { client, base_url, server_log: RequestLog::default() }
    }

    /// Reads the app server's request lines through `log`.
    pub fn with_server_log(self, server_log: RequestLog) -> Page {
        Page { server_log, ..self }
    }

    /// The request lines the app's static server received so far.
    pub fn server_requests(&self) -> Vec<String> {
        self.server_log.lock().expect("request log").clone()
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    pub async fn open(&self, path: &str) {
        self.client
            .goto(&self.url(path))
            .await
            .unwrap_or_else(|e| panic!("cannot open {path}: {e}"));
    }

    /// Waits until an element matching `css` exists and returns it.
    pub async fn find(&self, css: &str) -> Element {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Ok(element) = self.client.find(Locator::Css(css)).await {
                return element;
            }
            assert!(
                Instant::now() < deadline,
                "no element matches `{css}` after {WAIT:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until the first element matching `css` has text containing `expected`.
    pub async fn wait_for_text(&self, css: &str, expected: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let text = self.text(css).await;
            if text.contains(expected) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "`{css}` shows {text:?}, never {expected:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The visible text of the first element matching `css` (empty when there is none).
    pub async fn text(&self, css: &str) -> String {
        match self.client.find(Locator::Css(css)).await {
            Ok(element) => element.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        }
    }

    /// Waits until `script` (a function body) returns `true` in the page; `what` names the state in
    /// the failure message.
    pub async fn wait_until(&self, what: &str, script: &str) {
        let deadline = Instant::now() + WAIT;
        while self.eval(script, vec![]).await != Value::Bool(true) {
            assert!(
                Instant::now() < deadline,
                "never happened within {WAIT:?}: {what}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The whole text of the first element matching `css`, hidden parts included (a closed drawer,
    /// a tool line's result in a closed `<details>`); empty when there is none.
    pub async fn text_content(&self, css: &str) -> String {
        let value = self
            .eval(
                "return document.querySelector(arguments[0])?.textContent ?? '';",
                vec![Value::from(css)],
            )
            .await;
        value.as_str().unwrap_or_default().to_owned()
    }

    /// The visible text of every element matching `css`, in document order.
    pub async fn texts(&self, css: &str) -> Vec<String> {
        let elements = self
            .client
            .find_all(Locator::Css(css))
            .await
            .unwrap_or_default();
        let mut texts = Vec::with_capacity(elements.len());
        for element in elements {
            texts.push(element.text().await.unwrap_or_default());
        }
        texts
    }

    /// The kinds of the widgets on the canvas right now, in the page's order.
    pub async fn widget_types(&self) -> Vec<String> {
        let types = self
            .eval("return [...document.querySelectorAll('[data-testid=widget]')].map((w) => w.dataset.widgetType);", vec![])
            .await;
        serde_json::from_value(types).unwrap_or_default()
    }

    /// Clicks Share and returns the link the dialog shows (empty when it shows none).
    pub async fn share_link(&self) -> String {
        self.click("[data-testid=share]").await;
        self.find("[data-testid=share-link]").await.prop("value").await.ok().flatten().unwrap_or_default()
    }

    /// How many elements match `css` right now.
    pub async fn count(&self, css: &str) -> usize {
        self.client
            .find_all(Locator::Css(css))
            .await
            .map(|found| found.len())
            .unwrap_or(0)
    }

    /// Waits until exactly `expected` elements match `css`.
    pub async fn wait_for_count(&self, css: &str, expected: usize) {
        let deadline = Instant::now() + WAIT;
        loop {
            let count = self.count(css).await;
            if count == expected {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{count} elements match `{css}`, never {expected}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Waits until no element matches `css`.
    pub async fn wait_until_gone(&self, css: &str) {
        self.wait_for_count(css, 0).await;
    }

    pub async fn is_displayed(&self, css: &str) -> bool {
        match self.client.find(Locator::Css(css)).await {
            Ok(element) => element.is_displayed().await.unwrap_or(false),
            Err(_) => false,
        }
    }

    /// Clicks the element matching `css`. An element re-rendered between finding and clicking it
    /// (a stale reference) is found again, and one that something else covered at that instant (a
    /// page still laying out, moving it under its neighbour) is clicked again a moment later, as a
    /// person would click the one on screen.
    pub async fn click(&self, css: &str) {
        for _ in 0..5 {
            match self.find(css).await.click().await {
                Ok(()) => return,
                Err(error) if error.to_string().contains("stale element") => continue,
                Err(error) if error.to_string().contains("click intercepted") => tokio::time::sleep(Duration::from_millis(150)).await,
                Err(error) => panic!("cannot click `{css}`: {error}"),
            }
        }
        panic!("cannot click `{css}`: it was re-rendered or covered under every attempt");
    }

    pub async fn type_into(&self, css: &str, text: &str) {
        self.find(css)
            .await
            .send_keys(text)
            .await
            .unwrap_or_else(|e| panic!("cannot type into `{css}`: {e}"));
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the page and returns its value.
    pub async fn eval(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute(script, args)
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Runs `script` (a function body whose last argument is the callback to call with the result)
    /// in the page and returns what it passed to the callback.
    pub async fn eval_async(&self, script: &str, args: Vec<Value>) -> Value {
        self.client
            .execute_async(script, args)
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Every record of the app's IndexedDB database, as `{store: {key: value}}` (`{}` when there is
    /// none yet: the script never creates the database itself).
    pub async fn stored_records(&self) -> Value {
        self.eval_async(READ_STORE, vec![]).await
    }

    /// Waits until the app's stored records contain `needle` (a save went through).
    pub async fn wait_for_stored(&self, what: &str, needle: &str) {
        let deadline = Instant::now() + WAIT;
        while !self.stored_records().await.to_string().contains(needle) {
            assert!(Instant::now() < deadline, "never stored within {WAIT:?}: {what}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Calls one of the page's WebMCP tools through `document.modelContext`, as another agent
    /// would, once the engine registered it; returns the parsed result.
    pub async fn call_tool(&self, name: &str, input: Value) -> Value {
        let result = self
            .eval_async(CALL_TOOL, vec![Value::from(name), input])
            .await;
        let text = result.as_str().unwrap_or_default();
        serde_json::from_str(text).unwrap_or_else(|_| panic!("{name} answered: {result}"))
    }

    pub async fn reload(&self) {
        self.client.refresh().await.expect("reload");
    }

    /// Presses Ctrl and `key` together, as a keyboard shortcut (to whatever holds the focus).
    pub async fn press_ctrl(&self, key: char) {
        use fantoccini::actions::{InputSource, KeyAction, KeyActions};
        use fantoccini::key::Key;
        let keys = KeyActions::new("keyboard".to_owned())
            .then(KeyAction::Down { value: Key::Control.into() })
            .then(KeyAction::Down { value: key })
            .then(KeyAction::Up { value: key })
            .then(KeyAction::Up { value: Key::Control.into() });
        self.client.perform_actions(keys).await.unwrap_or_else(|e| panic!("cannot press Ctrl+{key}: {e}"));
    }

    /// Minimizes the browser window, so the page is hidden (`document.visibilityState`), as when the
    /// person switches away; returns once the page sees it.
    pub async fn hide_window(&self) {
        self.set_window("minimized", "hidden").await;
    }

    /// Restores the browser window after [`Page::hide_window`]; returns once the page is visible.
    pub async fn show_window(&self) {
        self.set_window("normal", "visible").await;
    }

    async fn set_window(&self, state: &str, visibility: &str) {
        let window = cdp(&self.client, "Browser.getWindowForTarget", json!({})).await.expect("the window");
        cdp(&self.client, "Browser.setWindowBounds", json!({"windowId": window["windowId"], "bounds": {"windowState": state}}))
            .await
            .expect("set the window's state");
        self.wait_until(&format!("the page is {visibility}"), &format!("return document.visibilityState === '{visibility}';"))
            .await;
    }

    /// Points the app at an LLM endpoint (provider `anthropic` or `open_ai`) through stored
    /// settings, then reloads so the app starts with them.
    pub async fn configure_llm(&self, provider: &str, base_url: &str) {
        self.configure_llm_with(provider, base_url, serde_json::json!({})).await;
    }

    /// As `configure_llm`, with more settings fields (e.g. a model with a known profile, timeouts).
    /// The scripted model runs with the fixed limits (25 KB requests, 10,000-character results, 12
    /// iterations, every tool of an activated server offered) unless `extra` sets
    /// `limits_from_profile`: the app would give a model it does not know an 8k window's limits.
    pub async fn configure_llm_with(&self, provider: &str, base_url: &str, extra: Value) {
        let mut settings = serde_json::json!({
            "provider": provider, "model": "scripted-model", "base_url": base_url, "api_key": "test-key",
            "limits_from_profile": false,
        });
        if let (Some(fields), Value::Object(extra)) = (settings.as_object_mut(), extra) {
            fields.extend(extra);
        }
        self.eval(
            "localStorage.setItem('autoui.settings.v1', arguments[0]);",
            vec![Value::String(settings.to_string())],
        )
        .await;
        self.reload().await;
    }

    /// Keeps the next file the page downloads (through a Blob URL) for [`Page::downloaded_text`].
    pub async fn catch_downloads(&self) {
        self.eval(
            "const make = URL.createObjectURL.bind(URL); \
             URL.createObjectURL = (blob) => { window.__exported = blob; return make(blob); };",
            vec![],
        )
        .await;
    }

    /// The text of the last file downloaded since [`Page::catch_downloads`], waiting up to [`WAIT`]
    /// for one (the file tools may still be coming with their chunk); `None` if none came.
    pub async fn downloaded_text(&self) -> Option<String> {
        let deadline = Instant::now() + WAIT;
        while self.eval("return Boolean(window.__exported);", vec![]).await != Value::Bool(true) && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let script = "const done = arguments[arguments.length - 1]; \
                      window.__exported ? window.__exported.text().then(done) : done(null);";
        self.eval_async(script, vec![]).await.as_str().map(str::to_owned)
    }

    /// Gives the import button a file named `name` holding `text`, as a person picking it would.
    pub async fn import_file(&self, text: &str, name: &str) {
        self.eval(
            "const [text, name] = arguments; \
             const input = document.querySelector('[data-testid=import-file]'); \
             const files = new DataTransfer(); \
             files.items.add(new File([text], name, { type: 'application/json' })); \
             input.files = files.files; \
             input.dispatchEvent(new Event('change', { bubbles: true }));",
            vec![Value::from(text), Value::from(name)],
        )
        .await;
    }

    /// Types `text` into the chat and sends it.
    pub async fn say(&self, text: &str) {
        self.type_into("[data-testid=chat-input]", text).await;
        self.click("[data-testid=send]").await;
    }

    /// Waits until `runs` agent runs have finished since the page loaded.
    pub async fn wait_for_runs(&self, runs: u32) {
        let selector = format!("[data-testid=chat][data-finished-runs='{runs}']");
        let deadline = Instant::now() + WAIT * 3;
        while self.client.find(Locator::Css(&selector)).await.is_err() {
            let seen = self
                .find("[data-testid=chat]")
                .await
                .attr("data-finished-runs")
                .await
                .ok()
                .flatten();
            assert!(
                Instant::now() < deadline,
                "the agent did not finish run {runs} in time (finished: {seen:?})"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Adds an MCP server through the servers panel (URL and name typed in, transport auto-detected),
    /// waits until it is connected, closes the panel and returns the status line it showed.
    /// Adds a server the scenario trusts: "Always allow" for all its tools, so none waits for
    /// approval (the approval scenario uses [`Page::add_server_asking`]).
    pub async fn add_server(&self, url: &str, name: &str) -> String {
        let status = self.connect_server(url, name).await;
        let all = format!("[data-server-id='{name}'] [data-testid=server-approval-all] option[value=always_allow]");
        self.click(&all).await;
        self.close_servers().await;
        status
    }

    /// Adds a server with the default approval policy (tools that may change things ask first).
    pub async fn add_server_asking(&self, url: &str, name: &str) -> String {
        let status = self.connect_server(url, name).await;
        self.close_servers().await;
        status
    }

    async fn connect_server(&self, url: &str, name: &str) -> String {
        self.click("[data-testid=open-servers]").await;
        self.type_into("[data-testid=server-url]", url).await;
        self.type_into("[data-testid=server-name]", name).await;
        self.click("[data-testid=server-add]").await;
        self.wait_for_server(name, "connected with").await
    }

    /// Replaces the value of the text field `css` as typing would (an `input` event).
    pub async fn set_value(&self, css: &str, value: &str) {
        self.find(css).await;
        self.eval(
            "const field = document.querySelector(arguments[0]); field.value = arguments[1]; \
             field.dispatchEvent(new Event('input', { bubbles: true }));",
            vec![Value::from(css), Value::from(value)],
        )
        .await;
    }

    /// Waits until the status line of the server named `name` (its id: a sanitised name) contains `expected`.
    pub async fn wait_for_server(&self, name: &str, expected: &str) -> String {
        let status =
            format!("[data-testid=server][data-server-id='{name}'] [data-testid=server-status]");
        let deadline = Instant::now() + WAIT * 2;
        loop {
            let text = self.text(&status).await;
            if text.contains(expected) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "server {name} shows {text:?}, never {expected:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn close_servers(&self) {
        self.click("[data-testid=servers] [aria-label='Close servers']")
            .await;
    }

    /// Every console message (all levels) logged since the last read of the browser's log.
    pub async fn console_messages(&self) -> Vec<String> {
        crate::browser::console_messages(&self.client).await
    }

    /// Console errors so far; scenarios assert this is empty at the end.
    pub async fn console_errors(&self) -> Vec<String> {
        console_errors(&self.client).await
    }
}
