//! Prompts as `prompts/list` describes them, and the messages `prompts/get` returns.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::mcp::model::content::Content;

/// A prompt template a server offers; the person picks it and fills its arguments in.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Prompt {
    pub name: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub arguments: Vec<PromptArgument>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct PromptArgument {
    pub name: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub required: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GetPromptParams {
    pub name: String,
    /// Argument values are strings on the wire.
    pub arguments: BTreeMap<String, String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct GetPromptResult {
    #[serde(default)]
    pub description: Option<String>,
    pub messages: Vec<PromptMessage>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct PromptMessage {
    pub role: PromptRole,
    pub content: Content,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PromptRole {
    User,
    Assistant,
}
