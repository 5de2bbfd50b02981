//! Harness for the end-to-end tier: serve the release build, drive headless Chromium through
//! chromedriver, and tear everything down even when a scenario panics.
//!
//! A scenario is one `#[tokio::test]` that calls [`with_app`] and talks to the [`page::Page`] it gets.

pub mod app_server;
pub mod axe;
pub mod browser;
pub mod cdp;
pub mod llm;
pub mod mcp_server;
pub mod numbers;
pub mod page;
pub mod ports;
pub mod recorder;

use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::time::Duration;

use futures::FutureExt;

use crate::app_server::AppServer;
use crate::browser::{Browser, BrowserOptions};
use crate::page::Page;

/// Serves `dist/`, launches a fresh browser profile, runs `scenario`, then closes the browser and
/// stops the server whatever happened; a panic in the scenario is re-raised after the teardown.
pub async fn with_app<F, Fut>(options: BrowserOptions, scenario: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: Future<Output = ()>,
{
    with_slow_app(Vec::new(), options, scenario).await;
}

/// [`with_app`] on a host that holds each file whose path contains one of `slow`'s patterns for its
/// delay ([`AppServer::start_slowing`]).
pub async fn with_slow_app<F, Fut>(slow: Vec<(String, Duration)>, options: BrowserOptions, scenario: F)
where
    F: FnOnce(Page) -> Fut,
    Fut: Future<Output = ()>,
{
    let app = AppServer::start_slowing(slow).await;
    let browser = Browser::launch(&options).await;
    let page = Page::new(browser.client(), app.base_url()).with_server_log(app.log());
    let outcome = AssertUnwindSafe(scenario(page)).catch_unwind().await;
    browser.close().await;
    app.stop().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}
