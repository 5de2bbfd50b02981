//! Canonical tool names `{server}_{protocol}_{tool}`: the only place that builds or splits them.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ids::ServerId;

/// Where a tool runs: on a remote MCP server, or in this page (a local WebMCP server such as `autoui`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    Mcp,
    WebMcp,
}

impl Protocol {
    pub fn as_str(self) -> &'static str {
        match self {
            Protocol::Mcp => "mcp",
            Protocol::WebMcp => "webmcp",
        }
    }
}

/// A parsed canonical tool name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ToolName {
    pub server: ServerId,
    pub protocol: Protocol,
    pub tool: String,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown tool name format \"{0}\": expected {{server}}_{{mcp|webmcp}}_{{tool}}")]
pub struct ToolNameError(pub String);

impl ToolName {
    pub fn new(server: ServerId, protocol: Protocol, tool: impl Into<String>) -> ToolName {
        ToolName { server, protocol, tool: tool.into() }
    }

    /// Splits at the first `_mcp_` or `_webmcp_` marker (the seed's non-greedy rule), so server names
    /// with underscores work: `my_weather_mcp_get_forecast` is server `my_weather`, tool `get_forecast`.
    pub fn parse(name: &str) -> Result<ToolName, ToolNameError> {
        let bytes = name.as_bytes();
        for (start, _) in name.match_indices('_') {
            if start == 0 {
                continue;
            }
            for protocol in [Protocol::Mcp, Protocol::WebMcp] {
                let marker = protocol.as_str();
                let after = start + 1;
                let end = after + marker.len();
                if end < name.len() && &name[after..end] == marker && bytes[end] == b'_' && end + 1 < name.len() {
                    return Ok(ToolName {
                        server: ServerId::sanitize(&name[..start]),
                        protocol,
                        tool: name[end + 1..].to_owned(),
                    });
                }
            }
        }
        Err(ToolNameError(name.to_owned()))
    }
}

impl fmt::Display for ToolName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}_{}_{}", self.server, self.protocol.as_str(), self.tool)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_splits_at_the_first_protocol_marker() {
        let name = ToolName::parse("my_weather_mcp_get_forecast").unwrap();
        assert_eq!(name.server.as_str(), "my_weather");
        assert_eq!(name.protocol, Protocol::Mcp);
        assert_eq!(name.tool, "get_forecast");

        let name = ToolName::parse("autoui_webmcp_widget_display").unwrap();
        assert_eq!(name.server.as_str(), "autoui");
        assert_eq!(name.protocol, Protocol::WebMcp);
        assert_eq!(name.tool, "widget_display");
    }

    #[test]
    fn a_tool_named_like_a_marker_stays_in_the_tool_part() {
        let name = ToolName::parse("db_mcp_mcp_status").unwrap();
        assert_eq!(name.server.as_str(), "db");
        assert_eq!(name.tool, "mcp_status");
    }

    #[test]
    fn names_without_a_marker_or_parts_are_rejected() {
        for bad in ["widget_display", "_mcp_x", "srv_mcp_", "render_stat_card", ""] {
            assert!(ToolName::parse(bad).is_err(), "{bad} should not parse");
        }
    }

    #[test]
    fn display_round_trips() {
        let name = ToolName::new(ServerId::sanitize("Everything"), Protocol::Mcp, "get-sum");
        assert_eq!(name.to_string(), "everything_mcp_get-sum");
        assert_eq!(ToolName::parse(&name.to_string()).unwrap(), name);
    }
}
