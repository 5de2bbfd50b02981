//! `AgentSession`: one conversation with its messages, activated servers and result buffer, and
//! what it needs from outside. The app creates one, calls `run` per user turn, and can persist it.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::agent::budget::DEFAULT_REQUEST_BUDGET;
use crate::agent::buffer::{ResultBuffer, StoredResult};
use crate::agent::context::{DEFAULT_KEEP_RECENT, DEFAULT_PREVIEW_CHARS};
use crate::agent::frame::view_said;
use crate::agent::prompt::build_system_prompt;
use crate::agent::run::OutputLimit;
use crate::approval::Approver;
use crate::autoui::AutoUi;
use crate::dispatch::catalog::Catalog;
use crate::dispatch::{DEFAULT_TIMEOUT_MS, Dispatcher};
use crate::ids::ServerId;
use crate::llm::message::{ContentBlock, Message, Role};
use crate::llm::model::ChatModel;
use crate::ports::Clock;
use crate::provenance::UrlLedger;
use crate::remote::RemoteServers;
use crate::settings::Settings;
use crate::tool::{LocalServer, ToolSpec};
use crate::tool_name::{Protocol, ToolName};

/// What a session reaches the outside world through.
pub struct AgentDeps {
    /// `llm::http::HttpChatModel` in the app; a scripted model in tests.
    pub model: Rc<dyn ChatModel>,
    /// In-page servers, `autoui` first.
    pub local: Vec<Rc<dyn LocalServer>>,
    pub remote: Rc<dyn RemoteServers>,
    pub clock: Rc<dyn Clock>,
    /// The buffer `recall` reads: create it first and give the same `Rc` to the autoui server.
    pub results: Rc<ResultBuffer>,
}

/// Engine settings that are not user settings (those come with each run in `Settings`).
#[derive(Clone, Debug, PartialEq)]
pub struct AgentConfig {
    /// How long one tool call may take before it is answered with a timeout error.
    pub tool_timeout_ms: u32,
    /// Replace old tool results and large call inputs by a preview and a recall marker (`false` also
    /// turns the request budget off: the conversation is then never rewritten).
    pub compress_history: bool,
    /// Tool-result turns (iterations) kept in full when compressing.
    pub keep_recent_iterations: usize,
    /// Characters kept as the preview of a compressed result.
    pub preview_chars: usize,
    /// Bytes of request body to stay within by compressing further when a request would be larger
    /// (raised to twice the user's result limit); `None` leaves requests as compression makes them.
    pub request_budget: Option<usize>,
}

impl Default for AgentConfig {
    fn default() -> AgentConfig {
        AgentConfig {
            tool_timeout_ms: DEFAULT_TIMEOUT_MS,
            compress_history: true,
            keep_recent_iterations: DEFAULT_KEEP_RECENT,
            preview_chars: DEFAULT_PREVIEW_CHARS,
            request_budget: Some(DEFAULT_REQUEST_BUDGET),
        }
    }
}

/// What the user sends: content blocks (text, images) and optional context the app adds, such as
/// "canvas changes since your last turn" or a widget interaction event.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UserTurn {
    pub content: Vec<ContentBlock>,
    pub context: Option<String>,
}

impl UserTurn {
    pub fn text(text: impl Into<String>) -> UserTurn {
        UserTurn { content: vec![ContentBlock::Text { text: text.into() }], context: None }
    }

    pub fn with_context(self, context: impl Into<String>) -> UserTurn {
        UserTurn { context: Some(context.into()), ..self }
    }

    /// Puts what MCP Apps views told the model (`(view, text)`, from `ui/update-model-context`)
    /// before the person's words, each in a part of its own framed as that view's data
    /// ([`view_said`]): none of it reads as theirs, and its URLs are not counted as theirs.
    pub fn with_views_said(mut self, said: &[(String, String)]) -> UserTurn {
        let parts = said.iter().map(|(view, text)| ContentBlock::Text { text: view_said(view, text) });
        self.content.splice(0..0, parts);
        self
    }

    /// The user message, context first so the request reads "what changed, then what I want";
    /// `None` for an empty turn, which lets the model go on from where the conversation stopped.
    pub(crate) fn into_message(self) -> Option<Message> {
        let mut content = Vec::with_capacity(self.content.len() + 1);
        if let Some(context) = self.context.filter(|context| !context.trim().is_empty()) {
            content.push(ContentBlock::Text { text: format!("<context>\n{}\n</context>", context.trim()) });
        }
        content.extend(self.content);
        (!content.is_empty()).then_some(Message { role: Role::User, content })
    }
}

/// A server whose tools are all offered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivatedServer {
    pub server: ServerId,
    pub protocol: Protocol,
}

/// An activated remote server's tool list as last seen connected: after a reload its tools are
/// offered from it until the server is connected again, and then its own list replaces it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServerTools {
    pub server: ServerId,
    /// The name the user gave, or the server's own.
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    pub tools: Vec<ToolSpec>,
}

/// A conversation as persisted by the app. `results` may be left out to save space; recall then
/// answers that old results are no longer kept.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionSnapshot {
    pub messages: Vec<Message>,
    #[serde(default)]
    pub activated: Vec<ActivatedServer>,
    /// The tool lists of the activated remote servers.
    #[serde(default)]
    pub tool_lists: Vec<ServerTools>,
    #[serde(default)]
    pub results: Vec<StoredResult>,
    /// Results forgotten to stay within the buffer's capacity, oldest first, so `recall` can say so.
    #[serde(default)]
    pub evicted: Vec<String>,
    /// Taken while a turn was running: `messages` end with what it did so far (the person's
    /// message, then each finished step), and a reload read back from here cut it short.
    #[serde(default)]
    pub in_flight: bool,
    /// The `mcp-app` block of each view a call placed, by the call's id, so the model can show
    /// an earlier call's view again after a reload.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub views: BTreeMap<String, Value>,
}

pub struct AgentSession {
    pub(super) model: Rc<dyn ChatModel>,
    pub(super) results: Rc<ResultBuffer>,
    pub(super) config: AgentConfig,
    pub(super) dispatcher: Dispatcher,
    pub(super) messages: Vec<Message>,
    /// The output token limit of the run in progress.
    pub(super) output: OutputLimit,
    /// The URLs of the data and of the person's messages, which model-made images may load from.
    pub(super) urls: Rc<UrlLedger>,
}

impl AgentSession {
    pub fn new(deps: AgentDeps, config: AgentConfig) -> AgentSession {
        let dispatcher = Dispatcher::new(deps.local, deps.remote, deps.clock, config.tool_timeout_ms);
        AgentSession {
            model: deps.model,
            results: deps.results,
            config,
            dispatcher,
            messages: Vec::new(),
            output: OutputLimit::default(),
            urls: Rc::new(UrlLedger::default()),
        }
    }

    /// Records the conversation's URLs in `urls` (shared with what renders images), starting with
    /// those of the messages so far.
    pub fn with_url_ledger(mut self, urls: Rc<UrlLedger>) -> AgentSession {
        urls.record_conversation(&self.messages, AutoUi::NAME);
        self.urls = urls;
        self
    }

    /// Lets `approver` decide the remote calls that need the person's approval.
    pub fn with_approver(mut self, approver: Rc<dyn Approver>) -> AgentSession {
        self.dispatcher.set_approver(approver);
        self
    }

    /// The URLs model-made images may load from.
    pub fn urls(&self) -> Rc<UrlLedger> {
        self.urls.clone()
    }

    /// A session that continues a persisted conversation.
    pub fn restore(deps: AgentDeps, config: AgentConfig, snapshot: SessionSnapshot) -> AgentSession {
        let mut session = AgentSession::new(deps, config);
        session.replace(snapshot);
        session.urls.record_conversation(&session.messages, AutoUi::NAME);
        session
    }

    /// Continues another persisted conversation instead of this one (a backup read back).
    pub fn replace(&mut self, snapshot: SessionSnapshot) {
        self.messages = snapshot.messages;
        let activated = snapshot.activated.into_iter().map(|active| (active.server, active.protocol)).collect();
        self.dispatcher.restore_activated(activated, snapshot.tool_lists);
        self.dispatcher.restore_views(snapshot.views);
        self.results.restore(snapshot.results, snapshot.evicted);
        // Which results were remote servers' data is not stored with them: the calls say it.
        for (id, server) in remote_calls(&self.messages) {
            self.results.attribute(id, server);
        }
    }

    pub fn snapshot(&self) -> SessionSnapshot {
        SessionSnapshot {
            messages: self.messages.clone(),
            activated: self.activated(),
            tool_lists: self.dispatcher.activated_tool_lists(),
            results: self.results.entries(),
            evicted: self.results.evicted(),
            in_flight: false,
            views: self.dispatcher.views(),
        }
    }

    /// The snapshot of a run that is still going (what [`AgentEvent::ConversationAdvanced`] carries).
    ///
    /// [`AgentEvent::ConversationAdvanced`]: crate::agent::event::AgentEvent::ConversationAdvanced
    pub(super) fn in_flight_snapshot(&self) -> SessionSnapshot {
        SessionSnapshot { in_flight: true, ..self.snapshot() }
    }

    /// Sets the request budget of the next runs (the app derives it from the model profile).
    pub fn set_request_budget(&mut self, budget: Option<usize>) {
        self.config.request_budget = budget;
    }

    /// Sets the bytes of tool definitions one request may carry (part of the request budget); with
    /// one, tools discovery names are offered without activating their server (`dispatch/offer.rs`).
    pub fn set_tool_budget(&mut self, budget: Option<usize>) {
        self.dispatcher.set_tool_budget(budget);
    }

    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    pub fn results(&self) -> Rc<ResultBuffer> {
        self.results.clone()
    }

    /// Servers whose tools are all offered, in activation order.
    pub fn activated(&self) -> Vec<ActivatedServer> {
        self.dispatcher
            .activated()
            .iter()
            .map(|(server, protocol)| ActivatedServer { server: server.clone(), protocol: *protocol })
            .collect()
    }

    /// Every server's tools under the names the model sees (for the servers panel).
    pub fn catalog(&self) -> Catalog {
        self.dispatcher.catalog()
    }

    /// The system prompt the next run would send.
    pub fn system_prompt(&self, settings: &Settings) -> String {
        build_system_prompt(&self.dispatcher.catalog(), &settings.system_prompt_prefix)
    }

    /// Starts a new conversation: messages, activations and stored results are dropped.
    pub fn clear(&mut self) {
        self.messages.clear();
        self.dispatcher.reset();
        self.results.clear();
        self.urls.clear();
    }
}

/// The calls of `messages` made to remote MCP servers: call id and server.
fn remote_calls(messages: &[Message]) -> impl Iterator<Item = (&str, ServerId)> {
    messages.iter().filter(|message| message.role == Role::Assistant).flat_map(|message| &message.content).filter_map(
        |block| match block {
            ContentBlock::ToolUse { id, name, .. } => ToolName::parse(name)
                .ok()
                .filter(|name| name.protocol == Protocol::Mcp)
                .map(|name| (id.as_str(), name.server)),
            _ => None,
        },
    )
}
