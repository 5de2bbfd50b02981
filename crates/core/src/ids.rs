//! Identifiers that cross layers: widget blocks, tool calls and servers.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::ports::Random;

/// A canvas block id, `w_` followed by short base-36 characters; the LLM sees it and uses it in `canvas` calls.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BlockId(String);

impl BlockId {
    /// A fresh id: `w_` and six base-36 characters drawn from `random`.
    pub fn generate(random: &dyn Random) -> BlockId {
        BlockId(format!("w_{}", base36(random.next_u64(), 6)))
    }

    /// Wraps an id that came from outside (the LLM, storage, a share link); callers look it up, never trust it.
    pub fn new(id: impl Into<String>) -> BlockId {
        BlockId(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for BlockId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The id of one tool call, as the LLM gave it in its `tool_use` block (or as we made it for user actions).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CallId(String);

impl CallId {
    pub fn new(id: impl Into<String>) -> CallId {
        CallId(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for CallId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A server name sanitised to `[a-z0-9_]`, the first segment of a canonical tool name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ServerId(String);

impl ServerId {
    /// Sanitises a display name: lower-case, runs of other characters to `_`, and no `mcp`/`webmcp`
    /// segment left inside (those are protocol markers in canonical names).
    pub fn sanitize(name: &str) -> ServerId {
        let lowered: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' })
            .collect();
        let kept: Vec<&str> = lowered
            .split('_')
            .filter(|segment| !segment.is_empty() && *segment != "mcp" && *segment != "webmcp")
            .collect();
        if kept.is_empty() {
            ServerId("server".to_owned())
        } else {
            ServerId(kept.join("_"))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ServerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// `value` in base 36, left-padded or cut to exactly `len` characters.
pub fn base36(mut value: u64, len: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = vec![b'0'; len];
    for slot in out.iter_mut().rev() {
        *slot = DIGITS[(value % 36) as usize];
        value /= 36;
    }
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_names_are_sanitised_to_lowercase_ascii_and_underscores() {
        assert_eq!(ServerId::sanitize("Tricoteuses").as_str(), "tricoteuses");
        assert_eq!(ServerId::sanitize("my-weather MCP").as_str(), "my_weather");
        assert_eq!(ServerId::sanitize("code4code.eu").as_str(), "code4code_eu");
        assert_eq!(ServerId::sanitize("open webmcp kit").as_str(), "open_kit");
        assert_eq!(ServerId::sanitize("MCP").as_str(), "server");
    }

    #[test]
    fn base36_pads_and_cuts_to_the_requested_length() {
        assert_eq!(base36(0, 3), "000");
        assert_eq!(base36(35, 2), "0z");
        assert_eq!(base36(36 * 36, 2), "00");
    }
}
