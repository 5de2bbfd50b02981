//! What the user configures per server (persisted by the app) and the client's limits and delays.

use serde::{Deserialize, Serialize};

use crate::mcp::cut::AnswerCaps;
use crate::mcp::model::notify::LogLevel;
use crate::mcp::oauth::client::Credentials;
use crate::mcp::oauth::flow::Grant;
use crate::approval::ApprovalRules;

/// The transport the user asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TransportChoice {
    /// Streamable HTTP first, legacy HTTP+SSE when the URL answers 4xx without JSON-RPC.
    #[default]
    Auto,
    Streamable,
    Sse,
}

/// The transport a connection actually uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TransportKind {
    Streamable,
    Sse,
}

impl TransportKind {
    pub fn label(self) -> &'static str {
        match self {
            TransportKind::Streamable => "Streamable HTTP",
            TransportKind::Sse => "HTTP+SSE (legacy)",
        }
    }
}

/// One server as the user added it. The bearer token never appears in `Debug` output.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerConfig {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bearer_token: Option<String>,
    #[serde(default)]
    pub transport: TransportChoice,
    /// What auto-detection found last time, tried first on the next connection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detected: Option<TransportKind>,
    /// How long one of this server's tool calls may take, in seconds, when not the default
    /// ([`McpOptions::call_timeout_ms`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_timeout_s: Option<u32>,
    /// The least severe log entries to ask this server for (`logging/setLevel` on each connection),
    /// when the person chose one; else the server's own default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_level: Option<LogLevel>,
    /// The person's remembered approval choices for this server's tools.
    #[serde(default, skip_serializing_if = "ApprovalRules::is_empty")]
    pub approvals: ApprovalRules,
    /// A client registered with this server's authorization server by the person (client_id, and
    /// secret for a confidential client), used before any other way of getting one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oauth_client: Option<Credentials>,
    /// The OAuth grant (tokens, bound to their issuer and this server) from the last sign-in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oauth_grant: Option<Grant>,
}

impl ServerConfig {
    pub fn new(url: impl Into<String>) -> ServerConfig {
        ServerConfig {
            url: url.into(),
            name: None,
            bearer_token: None,
            transport: TransportChoice::Auto,
            detected: None,
            call_timeout_s: None,
            log_level: None,
            approvals: ApprovalRules::default(),
            oauth_client: None,
            oauth_grant: None,
        }
    }

    /// This server's call timeout: its own setting, else `options`'.
    pub fn call_timeout_ms(&self, options: &McpOptions) -> u32 {
        self.call_timeout_s
            .filter(|seconds| *seconds > 0)
            .map_or(options.call_timeout_ms, |seconds| seconds.saturating_mul(1_000))
    }

    /// Transports to try, in order: the user's choice alone, or both with the cached verdict first.
    pub fn transports_to_try(&self) -> Vec<TransportKind> {
        match (self.transport, self.detected) {
            (TransportChoice::Streamable, _) => vec![TransportKind::Streamable],
            (TransportChoice::Sse, _) => vec![TransportKind::Sse],
            (TransportChoice::Auto, Some(TransportKind::Sse)) => {
                vec![TransportKind::Sse, TransportKind::Streamable]
            }
            (TransportChoice::Auto, _) => vec![TransportKind::Streamable, TransportKind::Sse],
        }
    }

    /// The `Authorization` header value, when a token is set.
    pub fn authorization(&self) -> Option<String> {
        self.bearer_token
            .as_deref()
            .map(str::trim)
            .filter(|token| !token.is_empty())
            .map(|token| format!("Bearer {token}"))
    }
}

impl std::fmt::Debug for ServerConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerConfig")
            .field("url", &self.url)
            .field("name", &self.name)
            .field(
                "bearer_token",
                &self.bearer_token.as_ref().map(|_| "<redacted>"),
            )
            .field("transport", &self.transport)
            .field("detected", &self.detected)
            .field("call_timeout_s", &self.call_timeout_s)
            .field("log_level", &self.log_level)
            .field("approvals", &self.approvals)
            .field("oauth_client", &self.oauth_client)
            .field("oauth_grant", &self.oauth_grant)
            .finish()
    }
}

/// Limits and delays; the defaults suit a browser talking to ordinary servers.
#[derive(Clone, Debug, PartialEq)]
pub struct McpOptions {
    /// How long one `tools/call` may take before it is cancelled (and the server told), unless the
    /// server's config sets its own: the one timeout policy for MCP calls (the dispatcher defers to it).
    pub call_timeout_ms: u32,
    /// How long each step of connecting (endpoint event, `initialize`, `tools/list` pages) may take.
    pub connect_timeout_ms: u32,
    /// Bound on one JSON response body or one SSE event.
    pub max_message_bytes: usize,
    /// Pages of one list (`tools/list`, `resources/list`, ...) followed before giving up on a
    /// server that never stops paging.
    pub max_tool_pages: usize,
    /// Bytes of text one `resources/read` may bring back (binary blobs are only summarised).
    pub max_resource_bytes: usize,
    /// Bytes of one `tools/call` answer kept as it streams in; the rest is counted, not kept, and
    /// the model is told (`mcp::cut`). It bounds what `recall` keeps of the result too.
    pub max_result_bytes: usize,
    pub backoff: Backoff,
}

impl Default for McpOptions {
    fn default() -> McpOptions {
        McpOptions {
            call_timeout_ms: 120_000,
            connect_timeout_ms: 15_000,
            max_message_bytes: 32 * 1024 * 1024,
            max_tool_pages: 100,
            max_resource_bytes: 4 * 1024 * 1024,
            max_result_bytes: 1024 * 1024,
            backoff: Backoff::default(),
        }
    }
}

impl McpOptions {
    /// How much of one answer the transports keep, by what it answers.
    pub fn answer_caps(&self) -> AnswerCaps {
        AnswerCaps { tool_result: self.max_result_bytes, resource: self.max_resource_bytes }
    }
}

/// Reconnection delays: doubling from `initial_ms` up to `max_ms`, unless the server sent `retry:`.
#[derive(Clone, Debug, PartialEq)]
pub struct Backoff {
    pub initial_ms: u32,
    pub max_ms: u32,
    /// Failed attempts in a row before a dropped connection is reported as failed.
    pub max_attempts: u32,
}

impl Default for Backoff {
    fn default() -> Backoff {
        Backoff {
            initial_ms: 500,
            max_ms: 30_000,
            max_attempts: 6,
        }
    }
}

impl Backoff {
    /// The delay before attempt `attempt` (0-based); a server's `retry:` hint wins.
    pub fn delay_ms(&self, attempt: u32, server_hint: Option<u32>) -> u32 {
        server_hint.unwrap_or_else(|| {
            self.initial_ms
                .saturating_mul(1 << attempt.min(16))
                .min(self.max_ms)
        })
    }
}
