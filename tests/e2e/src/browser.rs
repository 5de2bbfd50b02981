//! Headless Chromium through chromedriver, one fresh profile per scenario.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Map, Value, json};

use crate::ports::free_port;

/// Extra switches for one scenario's browser.
#[derive(Clone, Debug, Default)]
pub struct BrowserOptions {
    /// Chromium features to enable, e.g. `WebMCP` for the native `document.modelContext`.
    pub enable_features: Vec<String>,
    /// Host names the browser resolves to loopback (`--host-resolver-rules`), so a scenario can
    /// use a name that looks like another machine while every byte stays on 127.0.0.1.
    pub loopback_hosts: Vec<String>,
}

pub struct Browser {
    client: Client,
    driver: Child,
    profile: PathBuf,
}

impl Browser {
    pub async fn launch(options: &BrowserOptions) -> Browser {
        let port = free_port();
        let driver_path =
            std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".to_owned());
        let driver = Command::new(&driver_path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| {
                panic!(
                    "cannot start {driver_path}: {error} (the test script installs chromium-driver)"
                )
            });
        let profile =
            std::env::temp_dir().join(format!("autoui-e2e-profile-{}-{port}", std::process::id()));
        let mut args = vec![
            "--headless=new".to_owned(),
            "--no-sandbox".to_owned(),
            "--disable-gpu".to_owned(),
            "--disable-dev-shm-usage".to_owned(),
            "--disable-quic".to_owned(),
            "--no-first-run".to_owned(),
            "--disable-background-networking".to_owned(),
            "--disable-component-update".to_owned(),
            "--disable-sync".to_owned(),
            "--window-size=1400,900".to_owned(),
            format!("--user-data-dir={}", profile.display()),
        ];
        if !options.enable_features.is_empty() {
            args.push(format!(
                "--enable-features={}",
                options.enable_features.join(",")
            ));
        }
        if !options.loopback_hosts.is_empty() {
            let rules: Vec<String> = options.loopback_hosts.iter().map(|host| format!("MAP {host} 127.0.0.1")).collect();
            args.push(format!("--host-resolver-rules={}", rules.join(",")));
        }
        let mut capabilities = Map::new();
        capabilities.insert(
            "goog:chromeOptions".to_owned(),
            json!({ "binary": std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned()), "args": args }),
        );
        capabilities.insert("goog:loggingPrefs".to_owned(), json!({ "browser": "ALL" }));

        let url = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        let client = loop {
            let attempt = ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&url)
                .await;
            match attempt {
                Ok(client) => break client,
                Err(error) if Instant::now() < deadline => {
                    let _ = error;
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(error) => panic!("chromedriver did not start a session within 20 s: {error}"),
            }
        };
        Browser {
            client,
            driver,
            profile,
        }
    }

    pub fn client(&self) -> Client {
        self.client.clone()
    }

    /// Ends the WebDriver session (closing Chromium), stops chromedriver and removes the profile.
    pub async fn close(mut self) {
        let _ = self.client.clone().close().await;
        self.stop_driver();
    }

    fn stop_driver(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.stop_driver();
    }
}

/// Messages Chromium logged to the console at level SEVERE (errors, uncaught exceptions, failed loads).
pub async fn console_errors(client: &Client) -> Vec<String> {
    let entries = client.issue_cmd(BrowserLog).await.unwrap_or(Value::Null);
    entries
        .as_array()
        .into_iter()
        .flatten()
        .filter(|entry| entry["level"] == "SEVERE")
        .map(|entry| entry["message"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Every message Chromium logged to the console since the log was last read, at any level.
pub async fn console_messages(client: &Client) -> Vec<String> {
    let entries = client.issue_cmd(BrowserLog).await.unwrap_or(Value::Null);
    entries.as_array().into_iter().flatten().map(|entry| entry["message"].as_str().unwrap_or_default().to_owned()).collect()
}

/// chromedriver's log endpoint (`POST /session/{id}/se/log`), not part of the W3C command set.
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/se/log",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({ "type": "browser" }).to_string()),
        )
    }
}
