//! Content blocks of a tool result, tagged by `type`, with unknown kinds kept rather than rejected.

use serde::Deserialize;
use serde_json::Value;

/// A block this client understands, or any other JSON kept whole so nothing is lost.
///
/// `Known` must stay first: `untagged` tries variants in order and `Value` matches anything
/// (pinned in `tests/mcp_jsonrpc.rs`).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Content {
    Known(ContentBlock),
    Unknown(Value),
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ContentBlock {
    Text {
        text: String,
    },
    Image {
        data: String,
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    Audio {
        data: String,
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    ResourceLink {
        uri: String,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        description: Option<String>,
        #[serde(default, rename = "mimeType")]
        mime_type: Option<String>,
    },
    Resource {
        resource: ResourceContents,
    },
}

/// An embedded resource holds either `text` or a base64 `blob`; the required field decides.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum ResourceContents {
    Text {
        uri: String,
        #[serde(default, rename = "mimeType")]
        mime_type: Option<String>,
        text: String,
    },
    Blob {
        uri: String,
        #[serde(default, rename = "mimeType")]
        mime_type: Option<String>,
        blob: String,
    },
}
