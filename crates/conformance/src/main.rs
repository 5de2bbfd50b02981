//! The MCP conformance suite's client under test. Contract: the server URL is the last argument,
//! the scenario's name is in `MCP_CONFORMANCE_SCENARIO` (the client behaves the same for every
//! scenario), pre-registered OAuth credentials in `MCP_CONFORMANCE_CONTEXT`; exit 0 on success.

mod arguments;
mod auth;
mod client;
mod clock;
mod http;

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(url) = std::env::args().skip(1).last() else {
        eprintln!("usage: autoui-conformance <server URL>");
        return ExitCode::from(2);
    };
    let scenario = std::env::var("MCP_CONFORMANCE_SCENARIO").unwrap_or_default();
    println!("scenario \"{scenario}\" against {url}");
    let context = std::env::var("MCP_CONFORMANCE_CONTEXT").ok();
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("no async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    // The core's futures are not `Send`: everything runs on this thread.
    let local = tokio::task::LocalSet::new();
    match local.block_on(&runtime, client::run(&url, context.as_deref())) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("failed: {error}");
            ExitCode::FAILURE
        }
    }
}
