//! Routing one tool call: aliases, pseudo-tools, lazy activation, MCP or local servers, metrics.
