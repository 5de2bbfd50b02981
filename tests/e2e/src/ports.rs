//! Loopback ports for processes the tier starts itself (MCP servers, chromedriver), which must be
//! told a port before they bind it.
//!
//! A port the kernel hands out (`bind` to port 0, then released) is an ephemeral one: between its
//! release and the child's own `bind`, any `bind` to port 0 (the app server, the scripted LLM,
//! Chromium's DevTools) or outgoing connection may take it, and then the child fails to start while
//! the scenario talks to whatever took the port. So these ports come from just below the kernel's
//! ephemeral range, which it never hands out, each checked free and never given twice by one process.

use std::net::TcpListener;
use std::sync::atomic::{AtomicU32, Ordering};

/// How many ports below the ephemeral range this tier may use.
const SPAN: u32 = 10_000;

/// A loopback port nothing listens on right now, outside the ephemeral range.
pub fn free_port() -> u16 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let top = ephemeral_start();
    // Each process starts at its own place, so two test binaries (or a rerun) seldom meet.
    let start = std::process::id() * 97 % SPAN;
    for _ in 0..SPAN {
        let offset = (start + NEXT.fetch_add(1, Ordering::Relaxed)) % SPAN;
        let port = (top - SPAN + offset) as u16;
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free loopback port in {}..{top}", top - SPAN)
}

/// The first port of the kernel's ephemeral range (`net.ipv4.ip_local_port_range`), 32768 if unknown.
fn ephemeral_start() -> u32 {
    std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| range.split_whitespace().next()?.parse().ok())
        .filter(|start| *start > SPAN + 1024)
        .unwrap_or(32_768)
}
