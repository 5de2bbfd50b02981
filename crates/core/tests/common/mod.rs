//! Test doubles for the core: a virtual clock, a scripted HTTP transport, a scripted LLM, a fake MCP
//! hub, a stand-in `autoui` server for the agent's tests and a harness over the real one for its own,
//! a recording canvas, and a harness that wires the agent's parts.
// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

pub mod autoui;
pub mod autoui_server;
pub mod canvas;
pub mod clock;
pub mod harness;
pub mod mcp;
pub mod model;
pub mod transport;

use std::cell::Cell;
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

/// A deterministic random source: `start` (0 by default) `repeat` times more, then counting up, so it
/// collides on demand.
#[derive(Default)]
pub struct Counter {
    next: Cell<u64>,
    repeat: Cell<u32>,
}

impl Counter {
    pub fn new(start: u64) -> Counter {
        Counter::repeating(start, 0)
    }

    pub fn repeating(start: u64, repeat: u32) -> Counter {
        Counter {
            next: Cell::new(start),
            repeat: Cell::new(repeat),
        }
    }
}

impl Random for Counter {
    fn next_u64(&self) -> u64 {
        let value = self.next.get();
        if self.repeat.get() > 0 {
            self.repeat.set(self.repeat.get() - 1);
        } else {
            self.next.set(value + 1);
        }
        value
    }
}

/// Reads a fixture under `tests/fixtures/llm/`.
pub fn fixture(name: &str) -> String {
    let path = format!("{}/tests/fixtures/llm/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("fixture {path}: {error}"))
}
