//! Remote MCP servers as the dispatcher sees them. The MCP client (`mcp/`) implements
//! [`RemoteServers`]; native tests implement it with a double.

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use serde_json::Value;

use crate::cancel::CancelToken;
use crate::ids::ServerId;
use crate::mcp::model::resource::{Resource, ResourceTemplate};
use crate::tool::{ToolResult, ToolSpec};

/// One remote server, as currently known.
#[derive(Clone, Debug, PartialEq)]
pub struct RemoteServerView {
    pub id: ServerId,
    /// The name the user gave, or the server's own `serverInfo.name`.
    pub name: String,
    pub status: RemoteStatus,
    /// The server's tools (all pages of `tools/list`), with their real names.
    pub tools: Vec<ToolSpec>,
    /// `instructions` from the server's `initialize` result.
    pub instructions: Option<String>,
    /// Its resources and resource templates (none when it declares no `resources` capability).
    pub resources: Rc<Vec<Resource>>,
    pub resource_templates: Rc<Vec<ResourceTemplate>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RemoteStatus {
    Connecting,
    Connected,
    Failed(String),
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RemoteCallError {
    #[error("no MCP server \"{0}\" is configured")]
    UnknownServer(ServerId),
    #[error("MCP server \"{server}\" is not connected: {reason}")]
    NotConnected { server: ServerId, reason: String },
    #[error("{0}")]
    Failed(String),
    #[error("cancelled")]
    Cancelled,
    /// The call hit the server's timeout; the server was told to stop (`notifications/cancelled`).
    #[error("MCP server \"{server}\" gave no answer within {seconds} s (its call timeout, set in Servers), so the call was cancelled on the server")]
    TimedOut { server: ServerId, seconds: u32 },
}

pub trait RemoteServers {
    fn servers(&self) -> Vec<RemoteServerView>;
    /// Calls `tool` (its real name) on `server`. A tool that ran and failed (`isError: true`) is an
    /// `Ok` result with `is_error` set; `Err` is for calls that could not be made or completed.
    fn call_tool<'a>(
        &'a self,
        server: &'a ServerId,
        tool: &'a str,
        args: Value,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ToolResult, RemoteCallError>>;

    /// Reads resource `uri` of `server`, its contents as a tool result (text, blobs summarised).
    fn read_resource<'a>(
        &'a self,
        server: &'a ServerId,
        _uri: &'a str,
        _cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ToolResult, RemoteCallError>> {
        Box::pin(async move { Err(RemoteCallError::Failed(format!("MCP server \"{server}\" offers no resources"))) })
    }

    /// How long `server`'s calls may take before [`RemoteServers::call_tool`] gives up by itself
    /// (telling the server); `None` when it sets no limit and the caller must.
    fn call_timeout_ms(&self, _server: &ServerId) -> Option<u32> {
        None
    }
}
