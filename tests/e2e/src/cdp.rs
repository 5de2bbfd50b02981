//! Chrome DevTools Protocol commands sent through chromedriver's `goog/cdp/execute` endpoint, for
//! what WebDriver cannot do: scripts that run before the page's own, garbage collection, heap usage.

use fantoccini::Client;
use fantoccini::error::CmdError;
use serde_json::{Value, json};

/// Runs one CDP command (`Domain.method`) on the session's current target and returns its result.
pub async fn cdp(client: &Client, method: &str, params: Value) -> Result<Value, CmdError> {
    client
        .issue_cmd(Command {
            method: method.to_owned(),
            params,
        })
        .await
}

#[derive(Debug)]
struct Command {
    method: String,
    params: Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Command {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _request_url: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({ "cmd": self.method, "params": self.params }).to_string()),
        )
    }
}
