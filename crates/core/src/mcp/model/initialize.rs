//! The `initialize` handshake: protocol versions, our honest capabilities and client info, the server's answer.

use serde::{Deserialize, Serialize};

use crate::mcp::apps::view::VIEW_MIME_TYPE;

/// The version this client asks for first.
pub const LATEST_PROTOCOL_VERSION: &str = "2025-11-25";

/// Versions this client can speak, newest first; a server answering with another one is refused.
pub const SUPPORTED_PROTOCOL_VERSIONS: [&str; 4] =
    ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeParams {
    pub protocol_version: String,
    pub capabilities: ClientCapabilities,
    pub client_info: Implementation,
}

impl Default for InitializeParams {
    fn default() -> InitializeParams {
        InitializeParams {
            protocol_version: LATEST_PROTOCOL_VERSION.to_owned(),
            capabilities: ClientCapabilities::default(),
            client_info: Implementation {
                name: "autoui".to_owned(),
                title: Some("autoui".to_owned()),
                version: env!("CARGO_PKG_VERSION").to_owned(),
            },
        }
    }
}

/// Only what this session really handles: elicitation when it has someone to ask (form mode,
/// URL mode too when that is handled), sampling when it has a model and someone to approve, and
/// MCP Apps views. No roots: servers would get `-32601` for those.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClientCapabilities {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<ElicitationCapability>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sampling: Option<Empty>,
    pub extensions: Extensions,
}

/// `extensions`: the MCP Apps views this client shows (`io.modelcontextprotocol/ui`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Extensions {
    #[serde(rename = "io.modelcontextprotocol/ui")]
    pub ui: UiExtension,
}

impl Default for Extensions {
    fn default() -> Extensions {
        Extensions { ui: UiExtension { mime_types: vec![VIEW_MIME_TYPE.to_owned()] } }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UiExtension {
    pub mime_types: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ElicitationCapability {
    pub form: Empty,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<Empty>,
}

/// `{}` on the wire.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Empty {}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Implementation {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Required by the spec, but some servers leave it out.
    #[serde(default)]
    pub version: String,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeResult {
    pub protocol_version: String,
    #[serde(default)]
    pub capabilities: ServerCapabilities,
    #[serde(default)]
    pub server_info: Option<Implementation>,
    #[serde(default)]
    pub instructions: Option<String>,
}

impl InitializeResult {
    pub fn is_supported_version(&self) -> bool {
        SUPPORTED_PROTOCOL_VERSIONS.contains(&self.protocol_version.as_str())
    }

    /// Whether the server announced `list_changed` notifications for its tools, resources or
    /// prompts, which need a listening stream.
    pub fn announces_list_changes(&self) -> bool {
        let tools = self.capabilities.tools.as_ref().and_then(|tools| tools.list_changed);
        let resources = self.capabilities.resources.as_ref().and_then(|resources| resources.list_changed);
        let prompts = self.capabilities.prompts.as_ref().and_then(|prompts| prompts.list_changed);
        [tools, resources, prompts].contains(&Some(true))
    }
}

/// What the server offers besides tools; a kind it does not declare is never asked for.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct ServerCapabilities {
    #[serde(default)]
    pub tools: Option<ToolsCapability>,
    #[serde(default)]
    pub resources: Option<ResourcesCapability>,
    #[serde(default)]
    pub prompts: Option<ToolsCapability>,
    /// `{}` when the server suggests argument values (`completion/complete`).
    #[serde(default)]
    pub completions: Option<serde_json::Value>,
    /// `{}` when the server sends `notifications/message` and takes `logging/setLevel`.
    #[serde(default)]
    pub logging: Option<serde_json::Value>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourcesCapability {
    #[serde(default)]
    pub subscribe: Option<bool>,
    #[serde(default)]
    pub list_changed: Option<bool>,
}

/// `tools` or `prompts`: both only say whether their list may change.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolsCapability {
    #[serde(default)]
    pub list_changed: Option<bool>,
}
