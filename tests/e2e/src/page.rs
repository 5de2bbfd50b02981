//! A page object for scenarios: open routes, wait for elements, read text, type and click.

use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, Locator};
use serde_json::Value;

use crate::browser::console_errors;

/// How long a scenario waits for the app to reach a state before failing.
pub const WAIT: Duration = Duration::from_secs(10);

pub struct Page {
    client: Client,
    base_url: String,
}

impl Page {
    pub fn new(client: Client, base_url: String) -> Page {
        Page { client, base_url }
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base_url)
    }

    pub async fn open(&self, path: &str) {
        self.client.goto(&self.url(path)).await.unwrap_or_else(|e| panic!("cannot open {path}: {e}"));
    }

    /// Waits until an element matching `css` exists and returns it.
    pub async fn find(&self, css: &str) -> Element {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Ok(element) = self.client.find(Locator::Css(css)).await {
                return element;
            }
            assert!(Instant::now() < deadline, "no element matches `{css}` after {WAIT:?}");
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
            assert!(Instant::now() < deadline, "`{css}` shows {text:?}, never {expected:?}");
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

    pub async fn is_displayed(&self, css: &str) -> bool {
        match self.client.find(Locator::Css(css)).await {
            Ok(element) => element.is_displayed().await.unwrap_or(false),
            Err(_) => false,
        }
    }

    pub async fn click(&self, css: &str) {
        self.find(css).await.click().await.unwrap_or_else(|e| panic!("cannot click `{css}`: {e}"));
    }

    pub async fn type_into(&self, css: &str, text: &str) {
        self.find(css).await.send_keys(text).await.unwrap_or_else(|e| panic!("cannot type into `{css}`: {e}"));
    }

    /// Runs `script` (a function body; `arguments` holds `args`) in the page and returns its value.
    pub async fn eval(&self, script: &str, args: Vec<Value>) -> Value {
        self.client.execute(script, args).await.unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    pub async fn reload(&self) {
        self.client.refresh().await.expect("reload");
    }

    /// Points the app at an LLM endpoint (provider `anthropic` or `open_ai`) through stored
    /// settings, then reloads so the app starts with them.
    pub async fn configure_llm(&self, provider: &str, base_url: &str) {
        let settings = serde_json::json!({
            "provider": provider, "model": "scripted-model", "base_url": base_url, "api_key": "test-key",
        });
        self.eval(
            "localStorage.setItem('autoui.settings.v1', arguments[0]);",
            vec![Value::String(settings.to_string())],
        )
        .await;
        self.reload().await;
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
            let seen = self.find("[data-testid=chat]").await.attr("data-finished-runs").await.ok().flatten();
            assert!(Instant::now() < deadline, "the agent did not finish run {runs} in time (finished: {seen:?})");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Console errors so far; scenarios assert this is empty at the end.
    pub async fn console_errors(&self) -> Vec<String> {
        console_errors(&self.client).await
    }
}
