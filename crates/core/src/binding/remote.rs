//! The [`SourceFetcher`] over the MCP client: a source's tool is called, or its resource read, on
//! its server only when nobody has to be asked (`approval::runs_unattended`): a tool that needs the
//! person's approval is never run by a binding. A source names its tool as the model was offered it,
//! an alias when the real name has dots or slashes or is long, resolved as the dispatcher resolves
//! the model's calls. Each call is reported to an observer (the console, origin "refresh").

use std::rc::Rc;

use futures::future::LocalBoxFuture;

use crate::approval::{ApprovalRules, ServerKind, ToolFacts, runs_unattended};
use crate::binding::fetch::SourceFetcher;
use crate::binding::source::Target;
use crate::cancel::CancelToken;
use crate::dispatch::catalog::{Catalog, Entry};
use crate::ids::ServerId;
use crate::remote::{RemoteServerView, RemoteServers, RemoteStatus};
use crate::tool::ToolResult;
use crate::tool_name::{Protocol, ToolName};

/// One call a binding made, for the console.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceCall {
    /// The tool's exposed name, or the resource's uri.
    pub label: String,
    pub server: Option<ServerId>,
    /// The result's text, or the error.
    pub outcome: Result<String, String>,
}

pub struct RemoteFetcher {
    remote: Rc<dyn RemoteServers>,
    /// The person's remembered approval choices for a server.
    approvals: Rc<dyn Fn(&ServerId) -> ApprovalRules>,
    observer: Rc<dyn Fn(SourceCall)>,
}

impl RemoteFetcher {
    pub fn new(
        remote: Rc<dyn RemoteServers>,
        approvals: Rc<dyn Fn(&ServerId) -> ApprovalRules>,
        observer: Rc<dyn Fn(SourceCall)>,
    ) -> RemoteFetcher {
        RemoteFetcher { remote, approvals, observer }
    }

    async fn call(&self, name: &str, arguments: &serde_json::Value, cancel: CancelToken) -> Result<ToolResult, String> {
        let (server, real) = self.resolve(name)?;
        let server = self.connected(&server)?;
        let tool = server.tools.iter().find(|tool| tool.name == real).ok_or_else(|| {
            format!("MCP server \"{}\" has no tool \"{real}\"", server.id)
        })?;
        let facts = ToolFacts { read_only: tool.read_only, hints: tool.hints };
        let remembered = (self.approvals)(&server.id).choice_for(&tool.name);
        if !runs_unattended(ServerKind::Remote, facts, remembered) {
            return Err(format!(
                "{} on the {} server needs the person's approval for each call, so it is not run by a binding \
                 (the person can set it to \"Always allow\" in Servers)",
                tool.name, server.name
            ));
        }
        self.remote.call_tool(&server.id, &tool.name, arguments.clone(), cancel).await.map_err(|error| error.to_string())
    }

    /// The server and real tool name `name` calls, resolved as the dispatcher resolves the model's
    /// calls: the name the model was offered first (an alias when the real name has characters
    /// providers refuse or is too long: `dispatch::alias`), then `{server}_mcp_{real name}`.
    fn resolve(&self, name: &str) -> Result<(ServerId, String), String> {
        // An alias is `{server}_mcp_{tool}` made provider-safe, or cut and ended with a stable hash of
        // it (`NameAllocator`), so a stored source still resolves after a reload; only tools whose
        // names clean to one alias depend on the order they are listed in. Local servers' names have
        // `_webmcp_` where these have `_mcp_`, so the remote servers alone get the model's aliases.
        let catalog = Catalog::build(&[], &self.remote.servers());
        match catalog.lookup(name) {
            Some(Entry::Tool { server, tool }) => {
                let server = catalog.get(server);
                Ok((server.id.clone(), server.tools[tool].real.clone()))
            }
            Some(Entry::Pseudo { .. }) => Err(format!(
                "{name} lists or reads what a server offers; it is not one of the server's own tools, so it cannot be bound \
                 (bind one of its tools, or a resource by its uri)"
            )),
            None => {
                let parsed = ToolName::parse(name).map_err(|error| error.to_string())?;
                if parsed.protocol != Protocol::Mcp {
                    return Err(format!("only an MCP server's tool can be bound ({name} is a {} tool)", parsed.protocol.as_str()));
                }
                Ok((parsed.server, parsed.tool))
            }
        }
    }

    async fn read(&self, uri: &str, cancel: CancelToken) -> Result<ToolResult, String> {
        let servers = self.remote.servers();
        let server = servers
            .iter()
            .find(|server| server.resources.iter().any(|resource| resource.uri == uri))
            .ok_or_else(|| format!("no connected MCP server lists the resource {uri}"))?;
        let server = self.connected(&server.id)?;
        self.remote.read_resource(&server.id, uri, cancel).await.map_err(|error| error.to_string())
    }

    fn connected(&self, id: &ServerId) -> Result<RemoteServerView, String> {
        let server = self
            .remote
            .servers()
            .into_iter()
            .find(|server| &server.id == id)
            .ok_or_else(|| format!("no MCP server \"{id}\" is configured"))?;
        match &server.status {
            RemoteStatus::Connected => Ok(server),
            RemoteStatus::Connecting => Err(format!("MCP server \"{id}\" is still connecting")),
            RemoteStatus::Failed(reason) => Err(format!("MCP server \"{id}\" is not connected: {reason}")),
        }
    }
}

impl SourceFetcher for RemoteFetcher {
    fn fetch<'a>(&'a self, target: &'a Target, cancel: CancelToken) -> LocalBoxFuture<'a, Result<ToolResult, String>> {
        Box::pin(async move {
            let (label, outcome) = match target {
                Target::Call { call, arguments } => (call, self.call(call, arguments, cancel).await),
                Target::Resource { resource } => (resource, self.read(resource, cancel).await),
            };
            let server = match target {
                Target::Call { call, .. } => ToolName::parse(call).ok().map(|name| name.server),
                Target::Resource { .. } => None,
            };
            let text = outcome.as_ref().map(ToolResult::text_content).map_err(Clone::clone);
            (self.observer)(SourceCall { label: label.clone(), server, outcome: text });
            outcome
        })
    }
}
