//! `sampling/createMessage` as the server sends it and the answer this client returns (2025-11-25).

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageParams {
    pub messages: Vec<SamplingMessage>,
    #[serde(default)]
    pub system_prompt: Option<String>,
    pub max_tokens: u32,
    #[serde(default)]
    pub model_preferences: Option<ModelPreferences>,
    /// `"none"`, `"thisServer"` or `"allServers"`: this client adds no context either way.
    #[serde(default)]
    pub include_context: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct SamplingMessage {
    pub role: SamplingRole,
    pub content: OneOrMany,
}

/// A message's content: one block (2025-06-18), or several (2025-11-25).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    One(SamplingContent),
    Many(Vec<SamplingContent>),
}

impl OneOrMany {
    pub fn blocks(&self) -> &[SamplingContent] {
        match self {
            OneOrMany::One(block) => std::slice::from_ref(block),
            OneOrMany::Many(blocks) => blocks,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SamplingRole {
    User,
    Assistant,
}

/// A content block; a kind this client cannot send a model (audio, tool use) is `Other`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum SamplingContent {
    Text { text: String },
    #[serde(rename_all = "camelCase")]
    Image { data: String, mime_type: String },
    #[serde(other)]
    Other,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct ModelPreferences {
    #[serde(default)]
    pub hints: Vec<ModelHint>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct ModelHint {
    #[serde(default)]
    pub name: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateMessageResult {
    pub role: SamplingRole,
    pub content: TextContent,
    pub model: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
}

/// `{"type": "text", "text": ...}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TextContent {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub text: String,
}
