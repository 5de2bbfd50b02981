//! The canvas model: blocks on a 12-column grid, changed only through [`op::Op`]s.

pub mod history;
pub mod layout;
pub mod model;
pub mod op;
pub mod persist;
pub mod share;
pub mod style;
