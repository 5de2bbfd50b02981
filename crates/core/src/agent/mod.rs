//! The agent engine: a session owns the conversation, runs the loop over the dispatcher, keeps the
//! context small (truncation, compression, the request budget, the recall buffer) and reports every step as an event.

pub mod budget;
pub mod buffer;
mod condense;
pub mod context;
pub mod event;
pub mod frame;
pub mod json_text;
pub mod prompt;
pub mod run;
pub mod session;
pub mod stop;
