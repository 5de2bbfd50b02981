//! MCP Apps (the `io.modelcontextprotocol/ui` extension, revision 2026-01-26): tools that come
//! with an interactive HTML view. `tool_ui.rs` reads a tool's `_meta.ui`, `view.rs` a fetched
//! view and its sandbox policy, `bridge.rs` the host side of the view's `postMessage` protocol, `asks.rs` what a view asks of
//! the person and the model.

pub mod asks;
pub mod bridge;
pub mod tool_ui;
pub mod view;

/// The extension's name in `initialize` capabilities.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
