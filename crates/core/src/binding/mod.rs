//! Data bindings: a widget's `source` (a tool call or a resource read, a jq `map` and a `refresh`
//! schedule; `source.rs`), what a result reads as (`result.rs`), the bounded jq engine (`jq.rs`),
//! running a source to the params it produces (`fetch.rs`), the person's edit of a source in the
//! widget menu (`edit.rs`), where a bound server lives as a shared dashboard carries it
//! (`server_url.rs`), the fetcher over the MCP client
//! that never runs a tool needing approval (`remote.rs`), and errors kept short enough to read
//! (`error_text.rs`).

pub mod edit;
pub mod error_text;
pub mod fetch;
pub mod jq;
pub mod remote;
pub mod result;
pub mod server_url;
pub mod source;
