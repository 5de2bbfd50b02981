//! MCP message shapes (2025-06-18 names), split by topic; only what this client sends or reads.

pub mod call;
pub mod complete;
pub mod content;
pub mod elicit;
pub mod initialize;
pub mod notify;
pub mod page;
pub mod prompt;
pub mod resource;
pub mod sampling;
pub mod tool;
