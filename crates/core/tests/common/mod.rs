//! Test doubles for the agent engine: a virtual clock, a scripted HTTP transport, a scripted LLM,
//! a fake MCP hub, a fake `autoui` server with a recording canvas, and a harness that wires them.
// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

pub mod autoui;
pub mod clock;
pub mod harness;
pub mod mcp;
pub mod model;
pub mod transport;

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use autoui_core::ports::Random;

/// Returns `Pending` once, so that other futures in a `join!` get to run.
pub fn yield_now() -> impl Future<Output = ()> {
    struct YieldNow(bool);
    impl Future for YieldNow {
        type Output = ();
        fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
            if self.0 {
                Poll::Ready(())
            } else {
                self.0 = true;
                cx.waker().wake_by_ref();
                Poll::Pending
            }
        }
    }
    YieldNow(false)
}

/// A deterministic random source: 0, 1, 2, ...
#[derive(Default)]
pub struct Counter(std::cell::Cell<u64>);

impl Random for Counter {
    fn next_u64(&self) -> u64 {
        let value = self.0.get();
        self.0.set(value + 1);
        value
    }
}

/// Reads a fixture under `tests/fixtures/llm/`.
pub fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/llm/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("fixture {path}: {error}"))
}
