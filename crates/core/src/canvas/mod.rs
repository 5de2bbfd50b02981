//! The canvas model: blocks on a 12-column grid, changed only through [`op::Op`]s applied by a
//! [`store::CanvasStore`] that keeps the undo history, the agent's change log and the selections;
//! plus its storage format, file export/import and share links.

pub mod changes;
pub mod decode;
pub mod diff;
pub mod event;
pub mod exchange;
pub mod history;
pub mod layout;
pub mod model;
pub mod op;
pub mod persist;
pub mod share;
pub mod store;
pub mod style;
