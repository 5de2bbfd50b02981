//! The MCP client core: JSON-RPC framing, SSE parsing, sessions over both HTTP transports, and the
//! hub of servers the dispatcher calls. Pure: HTTP, `EventSource` and time come through ports, so
//! the browser adapters stay thin and native tests drive everything with scripted fakes.
//!
//! - [`jsonrpc`], [`model`]: the wire; nothing outside `mcp/` sees JSON-RPC.
//! - [`sse`]: the event-stream parser (also for LLM streaming).
//! - [`streamable`], [`legacy`]: the two transports; [`legacy::EventSourcePort`] is the browser's `EventSource`.
//! - [`cut`]: answers larger than their cap, cut as they stream in (what the model gets of them).
//! - [`output_schema`]: a tool's declared output schema held against its results.
//! - [`elicit`]: server requests for input (`elicitation/create`), as forms the person fills.
//! - [`sampling`]: server requests for a completion (`sampling/createMessage`), approved by the person.
//! - [`session`]: one server (detection, handshake, paging, calls, listening, recovery).
//! - [`hub`]: all servers, their states and events; implements [`crate::remote::RemoteServers`].
//! - [`oauth`]: signing in to servers that require OAuth 2.1 (an `HttpTransport` decorator).
//! - [`prompts`]: the servers' prompts as the chat offers them after `/`.
//! - [`apps`]: MCP Apps, tools with an interactive view (`ui://` resources) and the view's protocol.

pub mod apps;
pub mod config;
pub mod cut;
pub mod elicit;
pub mod endpoint;
pub mod error;
pub mod hub;
pub mod inbound;
pub mod jsonrpc;
pub mod legacy;
pub mod model;
pub mod normalize;
pub mod oauth;
pub mod output_schema;
pub mod prompts;
pub mod sampling;
pub mod session;
pub mod sse;
pub mod streamable;
