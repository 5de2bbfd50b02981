//! What the server sends us unasked: requests we must answer and notifications we surface.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use futures::channel::mpsc::UnboundedSender;
use serde_json::Value;

use crate::mcp::elicit::{self, SharedElicitor};
use crate::mcp::sampling::{self, SharedSampler};
use crate::mcp::jsonrpc::{INVALID_PARAMS, METHOD_NOT_FOUND, Message, Method, Notification, Request, RequestId};
use crate::mcp::model::initialize::{ClientCapabilities, ElicitationCapability, Empty};
use crate::mcp::model::notify::{LoggingMessageParams, ProgressParams};

/// Something a session reports to its owner (the hub) as it happens.
#[derive(Clone, Debug, PartialEq)]
pub enum Notice {
    /// A handshake completed (first connection or after a reconnect or expired session).
    Connected,
    /// The tool list was fetched again and may differ.
    ToolsChanged,
    /// The resources, resource templates or prompts were listed (after `Connected`, and again when
    /// the server said they changed).
    OffersChanged,
    /// `notifications/tools/list_changed` arrived but listing the tools again failed.
    ToolsRefreshFailed { reason: String },
    /// The connection dropped; the session is trying again.
    Reconnecting { reason: String },
    /// The server asked for input in a way this client could not show; it was refused with `reason`.
    ElicitationRefused { reason: String },
    /// A sampling request could not be put to the person (malformed, or no key is set); refused with `reason`.
    SamplingRefused { reason: String },
    /// `notifications/message`: a log entry from the server, its data as text.
    Log { level: String, logger: Option<String>, message: String },
    /// `notifications/resources/updated`: a resource we subscribed to changed.
    ResourceUpdated { uri: String },
    /// `notifications/progress` for a running `tools/call`.
    Progress {
        tool: String,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    },
}

pub type NoticeSink = Rc<dyn Fn(Notice)>;

/// A list the server said changed (`notifications/*/list_changed`), for the session to ask again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Relist {
    Tools,
    /// The resources and resource templates.
    Resources,
    Prompts,
}

/// Shared by both transports of one session.
pub(crate) struct Inbound {
    notices: NoticeSink,
    /// Running `tools/call`s by progress token (their request id), to name the tool in progress notices.
    calls: RefCell<HashMap<RequestId, String>>,
    relist: UnboundedSender<Relist>,
    /// Who answers `elicitation/create`.
    elicitor: Option<SharedElicitor>,
    /// Who answers `sampling/createMessage`.
    sampler: Option<SharedSampler>,
    /// The server's name as the person knows it, shown with what it asks them.
    server_name: RefCell<String>,
    /// `notifications/resources/list_changed` arrived: cached views are read again on next use.
    views_stale: Cell<bool>,
}

impl Inbound {
    pub(crate) fn new(notices: NoticeSink, relist: UnboundedSender<Relist>) -> Inbound {
        Inbound {
            notices,
            calls: RefCell::new(HashMap::new()),
            relist,
            elicitor: None,
            sampler: None,
            server_name: RefCell::new(String::new()),
            views_stale: Cell::new(false),
        }
    }

    pub(crate) fn set_elicitor(&mut self, elicitor: SharedElicitor, server: String) {
        self.elicitor = Some(elicitor);
        self.rename(server);
    }

    pub(crate) fn set_sampler(&mut self, sampler: SharedSampler, server: String) {
        self.sampler = Some(sampler);
        self.rename(server);
    }

    /// The name to show the person from now on (a server named after its `serverInfo` once connected).
    pub(crate) fn rename(&self, server: String) {
        *self.server_name.borrow_mut() = server;
    }

    /// Whether the server may send requests of its own (elicitation, sampling), outside any call too.
    pub(crate) fn takes_requests(&self) -> bool {
        self.elicitor.is_some() || self.sampler.is_some()
    }

    /// What the `initialize` request declares: exactly what [`Inbound::answer`] handles.
    pub(crate) fn capabilities(&self) -> ClientCapabilities {
        ClientCapabilities {
            elicitation: self.elicitor.as_ref().map(|elicitor| ElicitationCapability {
                form: Empty {},
                url: elicitor.supports_url().then_some(Empty {}),
            }),
            sampling: self.sampler.as_ref().map(|_| Empty {}),
            ..ClientCapabilities::default()
        }
    }

    pub(crate) fn notice(&self, notice: Notice) {
        (self.notices)(notice);
    }

    /// Whether the server changed its resources since the last call (and forgets it did).
    pub(crate) fn take_views_stale(&self) -> bool {
        self.views_stale.replace(false)
    }

    pub(crate) fn call_started(&self, id: RequestId, tool: &str) {
        self.calls.borrow_mut().insert(id, tool.to_owned());
    }

    pub(crate) fn call_ended(&self, id: &RequestId) {
        self.calls.borrow_mut().remove(id);
    }

    /// The answer to a server request: `ping` gets an empty result, `elicitation/create` the
    /// person's answer (when there is someone to ask), `sampling/createMessage` the model's answer
    /// once the person approved it (when there is a sampler), anything else `-32601`.
    pub(crate) async fn answer(&self, request: &Request) -> Message {
        let server = self.server_name.borrow().clone();
        if let (Method::SamplingCreateMessage, Some(sampler)) = (&request.method, &self.sampler) {
            return self.sample(request, sampler, &server).await;
        }
        match (&request.method, &self.elicitor) {
            (Method::Ping, _) => {
                Message::response(request.id.clone(), Value::Object(Default::default()))
            }
            (Method::ElicitationCreate, Some(elicitor)) => {
                let asked = match elicit::read_request(&server, request.params.clone(), elicitor.supports_url()) {
                    Ok(asked) => asked,
                    Err(error) => {
                        self.notice(Notice::ElicitationRefused { reason: error.to_string() });
                        return Message::error(Some(request.id.clone()), INVALID_PARAMS, error.to_string());
                    }
                };
                let answer = elicitor.elicit(asked.clone()).await;
                let result = elicit::to_result(&asked, answer);
                Message::response(request.id.clone(), serde_json::to_value(result).unwrap_or(Value::Null))
            }
            (other, _) => Message::error(
                Some(request.id.clone()),
                METHOD_NOT_FOUND,
                format!("method not found: this client does not implement \"{other}\""),
            ),
        }
    }

    async fn sample(&self, request: &Request, sampler: &SharedSampler, server: &str) -> Message {
        let answered = match sampling::read_request(server, request.params.clone()) {
            Ok(asked) => sampler.sample(asked).await,
            Err(error) => Err(error),
        };
        match answered {
            Ok(reply) => {
                let result = sampling::to_result(reply);
                Message::response(request.id.clone(), serde_json::to_value(result).unwrap_or(Value::Null))
            }
            Err(error) => {
                if !matches!(error, sampling::SamplingError::Declined) {
                    self.notice(Notice::SamplingRefused { reason: error.to_string() });
                }
                Message::error(Some(request.id.clone()), error.code(), error.to_string())
            }
        }
    }

    pub(crate) fn notification(&self, notification: Notification) {
        match notification.method {
            Method::ToolsListChanged => self.relist(Relist::Tools),
            Method::ResourcesListChanged => {
                // Its MCP Apps views may have changed too.
                self.views_stale.set(true);
                self.relist(Relist::Resources);
            }
            Method::PromptsListChanged => self.relist(Relist::Prompts),
            Method::Progress => {
                let Some(params) = notification.params else {
                    return;
                };
                let Ok(progress) = serde_json::from_value::<ProgressParams>(params) else {
                    return;
                };
                // Progress for a call that already ended (or was never ours) has no one to show it to.
                let Some(tool) = self.calls.borrow().get(&progress.progress_token).cloned() else {
                    return;
                };
                self.notice(Notice::Progress {
                    tool,
                    progress: progress.progress,
                    total: progress.total,
                    message: progress.message,
                });
            }
            Method::LoggingMessage => {
                let Some(Ok(log)) = notification.params.map(serde_json::from_value::<LoggingMessageParams>) else {
                    return;
                };
                let message = match log.data {
                    Value::String(text) => text,
                    other => other.to_string(),
                };
                self.notice(Notice::Log { level: log.level, logger: log.logger, message });
            }
            Method::ResourceUpdated => {
                let uri = notification.params.as_ref().and_then(|params| params.get("uri")).and_then(Value::as_str);
                if let Some(uri) = uri {
                    self.notice(Notice::ResourceUpdated { uri: uri.to_owned() });
                }
            }
            // Other notifications have no consumer in this app.
            _ => {}
        }
    }

    fn relist(&self, list: Relist) {
        // The session's refresh loop owns the receiver; it is gone only once the session stopped.
        let _ = self.relist.unbounded_send(list);
    }
}
