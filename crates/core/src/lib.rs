//! The pure core of autoui: everything that is not DOM, fetch or storage.
//!
//! Invariants (checked by `tests/tidy.rs`):
//! - no dependency on leptos, web-sys, js-sys, wasm-bindgen or gloo;
//! - no I/O and no clock: time, HTTP and randomness arrive through the traits in [`ports`];
//! - async code needs no runtime and no `Send` bounds, so native tests drive it with `block_on`;
//! - data flows one way: LLM tool call -> [`agent`] -> [`dispatch`] -> [`autoui`] -> [`canvas`] `Op`s.

pub mod agent;
pub mod autoui;
pub mod bar_layout;
pub mod cancel;
pub mod canvas;
pub mod chart_math;
pub mod contrast;
pub mod dispatch;
pub mod export;
pub mod hemicycle_layout;
pub mod ids;
pub mod lenient;
pub mod llm;
pub mod markdown;
pub mod mcp;
pub mod people;
pub mod ports;
pub mod present;
pub mod provenance;
pub mod recipes;
pub mod remote;
pub mod samples;
pub mod sandbox_doc;
pub mod sankey_layout;
pub mod settings;
pub mod table;
pub mod tool;
pub mod tool_name;
pub mod weburl;
pub mod widget_kind;
