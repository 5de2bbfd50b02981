//! autoui, the browser app: adapters to browser APIs, reactive state, UI panels and widgets,
//! on top of the pure `autoui_core`.

pub mod adapters;
pub mod chunks;
pub mod deferred;
pub mod state;
pub mod ui;
pub mod widgets;
