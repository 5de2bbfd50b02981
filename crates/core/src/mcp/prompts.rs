//! The servers' prompts as the chat offers them after `/`: which match what the person typed, which
//! required arguments are still empty, and the text a filled prompt puts at the start of the turn.

use std::collections::BTreeMap;

use crate::ids::ServerId;
use crate::mcp::model::content::{Content, ContentBlock, ResourceContents};
use crate::mcp::model::prompt::{GetPromptResult, Prompt, PromptRole};

/// One prompt of one connected server.
#[derive(Clone, Debug, PartialEq)]
pub struct PromptChoice {
    /// The name the agent knows the server by (its tool prefix), which `McpHub::get_prompt` takes.
    pub server: ServerId,
    pub prompt: Prompt,
}

impl PromptChoice {
    /// What the list shows: the prompt's title, else its name.
    pub fn label(&self) -> &str {
        self.prompt.title.as_deref().filter(|title| !title.trim().is_empty()).unwrap_or(&self.prompt.name)
    }
}

/// Most prompts the list shows at once (typing more narrows it).
pub const MAX_SHOWN: usize = 8;

/// What follows `/` in `draft`, when the draft is a prompt search: it starts with `/` and is one word.
pub fn query(draft: &str) -> Option<&str> {
    let rest = draft.strip_prefix('/')?;
    (!rest.contains(char::is_whitespace)).then_some(rest)
}

/// The prompts whose name, title or server contains `query` (any case), in the order given.
pub fn matching<'c>(choices: &'c [PromptChoice], query: &str) -> Vec<&'c PromptChoice> {
    let query = query.to_lowercase();
    choices
        .iter()
        .filter(|choice| {
            [Some(choice.prompt.name.as_str()), choice.prompt.title.as_deref(), Some(choice.server.as_str())]
                .into_iter()
                .flatten()
                .any(|text| text.to_lowercase().contains(&query))
        })
        .take(MAX_SHOWN)
        .collect()
}

/// Names of the required arguments left empty in `values`, in the prompt's order.
pub fn missing_required(prompt: &Prompt, values: &BTreeMap<String, String>) -> Vec<String> {
    prompt
        .arguments
        .iter()
        .filter(|argument| argument.required)
        .filter(|argument| values.get(&argument.name).is_none_or(|value| value.trim().is_empty()))
        .map(|argument| argument.name.clone())
        .collect()
}

/// The arguments to send: the filled ones, trimmed (an empty optional one is left out).
pub fn filled(values: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    values
        .iter()
        .map(|(name, value)| (name.clone(), value.trim().to_owned()))
        .filter(|(_, value)| !value.is_empty())
        .collect()
}

/// The prompt's messages as the text that starts the person's turn: a single user message as it
/// is; several, each under the role that says it. Images and embedded resources are named, not
/// inlined, since the turn is text the person can still edit.
pub fn turn_text(result: &GetPromptResult) -> String {
    let single_user = result.messages.len() == 1 && result.messages[0].role == PromptRole::User;
    let parts: Vec<String> = result
        .messages
        .iter()
        .map(|message| {
            let text = content_text(&message.content);
            match (single_user, message.role) {
                (true, _) => text,
                (false, PromptRole::User) => format!("User: {text}"),
                (false, PromptRole::Assistant) => format!("Assistant: {text}"),
            }
        })
        .collect();
    parts.join("\n\n")
}

fn content_text(content: &Content) -> String {
    match content {
        Content::Known(ContentBlock::Text { text }) => text.clone(),
        Content::Known(ContentBlock::Image { mime_type, .. }) => format!("[image {mime_type}]"),
        Content::Known(ContentBlock::Audio { mime_type, .. }) => format!("[audio {mime_type}]"),
        Content::Known(ContentBlock::ResourceLink { uri, .. }) => format!("[resource <{uri}>]"),
        Content::Known(ContentBlock::Resource { resource: ResourceContents::Text { uri, text, .. } }) => {
            format!("[resource <{uri}>]\n{text}")
        }
        Content::Known(ContentBlock::Resource { resource: ResourceContents::Blob { uri, mime_type, .. } }) => {
            format!("[resource <{uri}> {}, binary]", mime_type.as_deref().unwrap_or("application/octet-stream"))
        }
        Content::Unknown(value) => value.to_string(),
    }
}
