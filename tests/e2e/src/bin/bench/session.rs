//! One benchmark browser: a fresh Chromium profile (cold cache) with the probe installed before the
//! app's scripts, on one route of the served release build.

use std::time::{Duration, Instant};

use autoui_e2e::browser::{Browser, BrowserOptions};
use autoui_e2e::cdp::cdp;
use fantoccini::Client;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::BenchError;

const PROBE: &str = include_str!("probe.js");

/// How long the app may take to register its tools on the page's model context.
const APP_READY: Duration = Duration::from_secs(20);

/// What `__bench.timed` reports for one action, in ms from its start.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Timed {
    /// The action's promise settled (for a tool call: the result came back).
    pub returned: f64,
    /// The DOM first showed the action's effect.
    pub dom: f64,
    /// The next animation frame after that began.
    pub frame: f64,
    #[serde(default)]
    pub value: Value,
    /// Distinct DOM nodes changed, added or removed until the action settled.
    pub touched: usize,
    /// Those of them outside the element the action was allowed to change.
    pub outside: usize,
    pub outside_sample: Vec<String>,
}

pub struct Session {
    browser: Browser,
    client: Client,
    base_url: String,
}

impl Session {
    /// Launches a fresh browser, installs the probe, and navigates to `path` (waits for `load`).
    pub async fn open(base_url: &str, path: &str) -> Result<Session, BenchError> {
        let session = Session::launch(base_url).await?;
        session.navigate(path).await?;
        Ok(session)
    }

    /// A fresh browser with the probe installed, on no page yet.
    pub async fn launch(base_url: &str) -> Result<Session, BenchError> {
        let browser = Browser::launch(&BrowserOptions::default()).await;
        let client = browser.client();
        cdp(
            &client,
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": PROBE }),
        )
        .await
        .map_err(|error| BenchError::Browser(format!("cannot install the probe: {error}")))?;
        let session = Session {
            browser,
            client,
            base_url: base_url.to_owned(),
        };
        Ok(session)
    }

    pub async fn navigate(&self, path: &str) -> Result<(), BenchError> {
        let url = format!("{}{path}", self.base_url);
        self.client
            .goto(&url)
            .await
            .map_err(|error| BenchError::Browser(format!("cannot open {url}: {error}")))
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Runs `script` (a function body; `arguments` holds `args`; a returned Promise is awaited) and
    /// reads its value as `T`. `what` names the step in errors.
    pub async fn eval<T: DeserializeOwned>(
        &self,
        what: &str,
        script: &str,
        args: Vec<Value>,
    ) -> Result<T, BenchError> {
        let value =
            self.client
                .execute(script, args)
                .await
                .map_err(|error| BenchError::Script {
                    what: what.to_owned(),
                    error: error.to_string(),
                })?;
        serde_json::from_value(value.clone()).map_err(|error| BenchError::Script {
            what: what.to_owned(),
            error: format!("unexpected answer {value}: {error}"),
        })
    }

    /// Runs a CDP command on this browser's page.
    pub async fn cdp(&self, method: &str, params: Value) -> Result<Value, BenchError> {
        cdp(&self.client, method, params)
            .await
            .map_err(|error| BenchError::Browser(format!("{method}: {error}")))
    }

    /// With `AUTOUI_CPU_PROFILE=<file>` set, starts Chromium's sampling profiler; [`Session::stop_profile`]
    /// writes what ran meanwhile there (a `.cpuprofile` for Chromium's performance panel, best on a
    /// build that keeps its functions' names: scripts/split-wasm.sh).
    pub async fn start_profile(&self) -> Result<(), BenchError> {
        if std::env::var_os("AUTOUI_CPU_PROFILE").is_some() {
            self.cdp("Profiler.enable", json!({})).await?;
            self.cdp("Profiler.setSamplingInterval", json!({"interval": 100})).await?;
            self.cdp("Profiler.start", json!({})).await?;
        }
        Ok(())
    }

    pub async fn stop_profile(&self) -> Result<(), BenchError> {
        if let Some(path) = std::env::var_os("AUTOUI_CPU_PROFILE") {
            let stopped = self.cdp("Profiler.stop", json!({})).await?;
            std::fs::write(&path, stopped["profile"].to_string())
                .map_err(|error| BenchError::Io(format!("the CPU profile could not be written: {error}")))?;
        }
        Ok(())
    }

    /// Waits until the app has registered `widget_display` on `document.modelContext`.
    pub async fn wait_for_tools(&self) -> Result<(), BenchError> {
        let deadline = Instant::now() + APP_READY;
        let script = "return (async () => { const context = document.modelContext; \
                      if (!context?.getTools) return false; \
                      return (await context.getTools()).some((tool) => tool.name === 'widget_display'); })();";
        while !self
            .eval::<bool>("waiting for the page tools", script, vec![])
            .await?
        {
            if Instant::now() > deadline {
                return Err(BenchError::Missing(format!(
                    "widget_display was not registered within {APP_READY:?}"
                )));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(())
    }

    /// Waits `ms` milliseconds in the page (lets deferred work such as saves finish).
    pub async fn idle(&self, ms: u64) -> Result<(), BenchError> {
        self.eval::<Value>(
            "waiting",
            "return __bench.settle(arguments[0]).then(() => null);",
            vec![json!(ms)],
        )
        .await?;
        Ok(())
    }

    pub async fn close(self) {
        self.browser.close().await;
    }
}
