//! Tool approval: which calls wait for the person before they run, what the person's answers mean,
//! and the [`Approver`] port through which the dispatcher asks (the page's chat card; native tests
//! use a double).
//!
//! The decision is [`gate`]: the built-in servers never ask; a remote server's tool follows the
//! choice the person remembered for it (or for its whole server), else the default, which asks for
//! every tool that is not `readOnlyHint: true` and for every `destructiveHint: true` one. Hints are
//! the server's word, so they can only make a tool ask, never let a tool the person set to "never" run.

use std::collections::BTreeMap;
use std::sync::Arc;

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ids::ServerId;
use crate::recipes::validate::SchemaValidator;
use crate::tool::ToolHints;

/// What the person chose for a tool (or a whole server).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalChoice {
    /// Ask before every call.
    Ask,
    /// Ask once per conversation; allowed for the rest of it.
    AllowForChat,
    /// Never ask.
    AlwaysAllow,
    /// Never run it.
    Never,
}

impl ApprovalChoice {
    pub const ALL: [ApprovalChoice; 4] =
        [ApprovalChoice::Ask, ApprovalChoice::AllowForChat, ApprovalChoice::AlwaysAllow, ApprovalChoice::Never];

    /// As the person reads it.
    pub fn label(self) -> &'static str {
        match self {
            ApprovalChoice::Ask => "Ask every time",
            ApprovalChoice::AllowForChat => "Allow for this chat",
            ApprovalChoice::AlwaysAllow => "Always allow",
            ApprovalChoice::Never => "Never",
        }
    }

    /// The wire name (`ask`, `allow_for_chat`, ...), for form values and test hooks.
    pub fn as_str(self) -> &'static str {
        match self {
            ApprovalChoice::Ask => "ask",
            ApprovalChoice::AllowForChat => "allow_for_chat",
            ApprovalChoice::AlwaysAllow => "always_allow",
            ApprovalChoice::Never => "never",
        }
    }

    pub fn from_name(name: &str) -> Option<ApprovalChoice> {
        ApprovalChoice::ALL.into_iter().find(|choice| choice.as_str() == name)
    }
}

/// One server's remembered choices, stored with its config: one for the whole server and one per
/// tool (a tool's own choice wins).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalRules {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<ApprovalChoice>,
    /// By the tool's real name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tools: BTreeMap<String, ApprovalChoice>,
}

impl ApprovalRules {
    pub fn is_empty(&self) -> bool {
        self.server.is_none() && self.tools.is_empty()
    }

    /// The choice that applies to `tool`, if the person made one.
    pub fn choice_for(&self, tool: &str) -> Option<ApprovalChoice> {
        self.tools.get(tool).copied().or(self.server)
    }

    /// Remembers `choice` for `tool`; `None` forgets it (the default applies again).
    pub fn set_tool(&mut self, tool: &str, choice: Option<ApprovalChoice>) {
        match choice {
            Some(choice) => {
                self.tools.insert(tool.to_owned(), choice);
            }
            None => {
                self.tools.remove(tool);
            }
        }
    }
}

/// Where a tool lives, which decides whether it may ask at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerKind {
    /// The page's own `autoui` and `samples` servers: they never ask.
    BuiltIn,
    /// An MCP server the person added.
    Remote,
}

/// What a server says about a tool, as far as approval cares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToolFacts {
    pub read_only: bool,
    pub hints: ToolHints,
}

/// What happens to a call before it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    Run,
    /// Wait for the person's answer.
    Ask,
    /// The person set it to "never": answered without running.
    Refuse,
}

/// What applies when the person chose nothing for a remote tool.
pub fn default_choice(facts: ToolFacts) -> ApprovalChoice {
    if facts.hints.destructive == Some(true) || !facts.read_only {
        ApprovalChoice::Ask
    } else {
        ApprovalChoice::AlwaysAllow
    }
}

/// Whether a call of a tool runs, asks or is refused. `granted_for_chat`: the person pressed
/// "Allow for this chat" (or "Always allow") for it earlier in this conversation.
pub fn gate(kind: ServerKind, facts: ToolFacts, remembered: Option<ApprovalChoice>, granted_for_chat: bool) -> Gate {
    if kind == ServerKind::BuiltIn {
        return Gate::Run;
    }
    match remembered {
        Some(ApprovalChoice::AlwaysAllow) => Gate::Run,
        Some(ApprovalChoice::Never) => Gate::Refuse,
        // Chosen as such: even a grant made in this chat does not stop it asking.
        Some(ApprovalChoice::Ask) => Gate::Ask,
        Some(ApprovalChoice::AllowForChat) | None if granted_for_chat => Gate::Run,
        Some(ApprovalChoice::AllowForChat) => Gate::Ask,
        None => match default_choice(facts) {
            ApprovalChoice::AlwaysAllow => Gate::Run,
            _ => Gate::Ask,
        },
    }
}

/// Whether a call may run with nobody there to ask (a refresh nobody started, for example): only
/// when it would run without asking in a fresh conversation.
pub fn runs_unattended(kind: ServerKind, facts: ToolFacts, remembered: Option<ApprovalChoice>) -> bool {
    gate(kind, facts, remembered, false) == Gate::Run
}

/// What the person is asked to approve.
#[derive(Clone, Debug, PartialEq)]
pub struct ApprovalRequest {
    /// The server as the agent names it.
    pub server: ServerId,
    /// Its display name.
    pub server_name: String,
    /// The tool's real name.
    pub tool: String,
    pub description: String,
    pub args: Value,
    /// The tool's `inputSchema`, which edited arguments must satisfy.
    pub schema: Arc<Value>,
    pub facts: ToolFacts,
}

/// How far an "allow" reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AllowScope {
    Once,
    /// This call and the tool's later calls in this conversation; remembered as [`ApprovalChoice::AllowForChat`].
    ForChat,
    /// Remembered as [`ApprovalChoice::AlwaysAllow`].
    Always,
}

/// The person's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum ApprovalAnswer {
    /// Run it with `args` (the model's, or the person's edit, already checked by [`check_arguments`]).
    Allow { args: Value, scope: AllowScope },
    Deny,
}

/// Whoever approves calls. Dropping the future [`Approver::ask`] returns (Stop) withdraws the question.
pub trait Approver {
    /// The choice the person remembered for `tool` on `server` (the agent's name for it), read at
    /// each call so a change in the servers panel applies at once.
    fn remembered(&self, server: &ServerId, tool: &str) -> Option<ApprovalChoice>;
    /// Stores a choice made in a card with the server's config.
    fn remember(&self, server: &ServerId, tool: &str, choice: ApprovalChoice);
    fn ask(&self, request: ApprovalRequest) -> LocalBoxFuture<'static, ApprovalAnswer>;
}

/// Why edited arguments were refused, in the person's words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArgumentsRefused {
    #[error("the arguments are not valid JSON: {0}")]
    NotJson(String),
    #[error("the arguments must be a JSON object")]
    NotObject,
    #[error("the arguments do not match the tool's input schema: {0}")]
    Invalid(String),
    #[error("the arguments cannot be checked: {0}")]
    Unchecked(String),
}

/// Reads arguments the person edited and checks them against the tool's `inputSchema`; an
/// unavailable validator refuses (never a pass).
pub async fn check_arguments(
    text: &str,
    schema: &Arc<Value>,
    validator: &dyn SchemaValidator,
) -> Result<Value, ArgumentsRefused> {
    let value: Value = serde_json::from_str(text).map_err(|error| ArgumentsRefused::NotJson(error.to_string()))?;
    if !value.is_object() {
        return Err(ArgumentsRefused::NotObject);
    }
    validator.ready_for(schema).await.map_err(|error| ArgumentsRefused::Unchecked(error.to_string()))?;
    let details = validator.validate(schema, &value).map_err(|error| ArgumentsRefused::Unchecked(error.to_string()))?;
    if details.is_empty() {
        return Ok(value);
    }
    let described: Vec<String> = details
        .iter()
        .map(|detail| match detail.path.as_str() {
            "" => detail.message.clone(),
            path => format!("{path}: {}", detail.message),
        })
        .collect();
    Err(ArgumentsRefused::Invalid(described.join("; ")))
}

/// What the model gets when the person declined a call.
pub fn declined_message(tool: &str, server: &str) -> String {
    format!(
        "The person declined this call: {tool} on the {server} server did not run. Do not call it again unless \
         they ask you to; go on without it, or tell them what you could not do."
    )
}

/// What the model gets for a tool the person set to "never".
pub fn refused_message(tool: &str, server: &str) -> String {
    format!(
        "The person does not allow {tool} on the {server} server (set to \"Never\" in Servers): the call did not \
         run. Go on without it, or tell them what you could not do."
    )
}

/// What the model gets when a call needs approval and this client has nobody to ask.
pub fn unattended_message(tool: &str, server: &str) -> String {
    format!(
        "{tool} on the {server} server needs the person's approval, and nobody is there to give it: the call did \
         not run"
    )
}
