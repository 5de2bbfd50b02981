//! The MCP client core: JSON-RPC framing, SSE parsing, sessions over both HTTP transports.
