//! OAuth 2.1 for remote MCP servers (the MCP authorization specification, 2025-11-25, accepting
//! 2025-03-26 servers). Pure like the rest of `mcp/`: HTTP, randomness, time and the person's trip
//! to the authorization server arrive through ports.
//!
//! - [`challenge`]: the `WWW-Authenticate` Bearer challenge.
//! - [`discovery`]: protected-resource and authorization-server metadata.
//! - [`client`]: the client_id (pre-registered, metadata document, dynamic registration).
//! - [`pkce`]: PKCE S256 and `state`.
//! - [`flow`]: sign-in, token exchange, refresh.
//! - [`transport`]: an `HttpTransport` that signs in, steps up and refreshes for one server.
//! - [`route`]: which server of a page a request is for.

pub mod challenge;
pub mod client;
pub mod discovery;
pub mod error;
pub mod flow;
pub mod pkce;
pub mod route;
pub mod transport;
