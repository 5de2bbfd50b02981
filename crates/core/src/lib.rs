//! The pure core of autoui: everything that is not DOM, fetch or storage.
//!
//! Invariants (checked by `tests/tidy.rs`):
//! - no dependency on leptos, web-sys, js-sys, wasm-bindgen or gloo;
//! - no I/O and no clock: time, HTTP and randomness arrive through the traits in [`ports`];
//! - async code needs no runtime and no `Send` bounds, so native tests drive it with `block_on`;
//! - data flows one way: LLM tool call -> [`agent`] -> [`dispatch`] -> [`autoui`] -> [`canvas`] `Op`s.

pub mod agent;
pub mod approval;
pub mod autoui;
pub mod binding;
pub mod cancel;
pub mod canvas;
pub mod dispatch;
pub mod ids;
pub mod llm;
pub mod mcp;
pub mod ports;
pub mod provenance;
pub mod recipes;
pub mod remote;
pub mod samples;
pub mod settings;
pub mod sort;
pub mod store;
pub mod tool;
pub mod tool_name;
pub mod view;
pub mod weburl;
pub mod widget_kind;
