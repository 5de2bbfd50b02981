//! `completion/complete` for a prompt's argument: what the person typed so far, and the values the
//! server suggests.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompleteParams {
    #[serde(rename = "ref")]
    pub reference: PromptReference,
    pub argument: ArgumentValue,
    /// The arguments already filled, which a server may use to narrow its suggestions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<CompleteContext>,
}

/// `{"type": "ref/prompt", "name": ...}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PromptReference {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ArgumentValue {
    pub name: String,
    pub value: String,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompleteContext {
    pub arguments: BTreeMap<String, String>,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct CompleteResult {
    pub completion: Completion,
}

#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Completion {
    #[serde(default)]
    pub values: Vec<String>,
}
