//! Data bindings: a widget's `source` (a tool call or a resource read, a jq `map` and a `refresh`
//! schedule; `source.rs`), what a result reads as (`result.rs`), the bounded jq engine (`jq.rs`),
//! and running a source to the params it produces (`fetch.rs`).

pub mod fetch;
pub mod jq;
pub mod result;
pub mod source;
