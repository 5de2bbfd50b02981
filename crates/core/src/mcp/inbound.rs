//! What the server sends us unasked: requests we must answer and notifications we surface.
//!
//! Server requests are queued ([`Inbound::ask`]) and answered by the session's own task, so reading a
//! stream never waits on the person. A question to the person (a form, a sampling review) belongs to
//! the requests of ours it was asked during: their timers stop while it is open, and it is withdrawn
//! when they have all ended (the server is told it was cancelled) or when the server cancels it.

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::rc::Rc;
use std::task::{Poll, Waker};

use futures::channel::mpsc::UnboundedSender;
use serde_json::Value;

use crate::cancel::CancelToken;
use crate::mcp::elicit::{self, SharedElicitor};
use crate::mcp::sampling::{self, SamplingError, SharedSampler};
use crate::mcp::jsonrpc::{INVALID_PARAMS, METHOD_NOT_FOUND, Message, Method, Notification, Request, RequestId};
use crate::mcp::model::elicit::{ElicitAction, ElicitResult};
use crate::mcp::model::initialize::{ClientCapabilities, ElicitationCapability, Empty};
use crate::mcp::model::notify::{CancelledParams, LoggingMessageParams, ProgressParams};

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

/// A server request waiting to be answered by the session's task.
pub(crate) struct Asked {
    request: Request,
    withdrawal: Rc<Withdrawal>,
}

/// Why a question was taken away before the person answered.
#[derive(Clone, Copy)]
enum Withdrawn {
    /// The requests it was asked during all ended (answered, Stop, a timeout): the server hears it
    /// was cancelled, so it does not wait for an answer that will never come.
    RequestsEnded,
    /// The server cancelled it (`notifications/cancelled`), or forgot the session it was asked in:
    /// nothing is sent back.
    Unanswered,
}

#[derive(Default)]
struct Withdrawal {
    token: CancelToken,
    reason: Cell<Option<Withdrawn>>,
}

impl Withdrawal {
    /// The first reason holds.
    fn withdraw(&self, reason: Withdrawn) {
        if self.reason.get().is_none() {
            self.reason.set(Some(reason));
            self.token.cancel();
        }
    }
}

/// A question waiting on the person.
struct OpenQuestion {
    /// Our requests it was asked during, still running.
    during: Vec<RequestId>,
    withdrawal: Rc<Withdrawal>,
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
    /// Server requests to answer, taken by the session's task.
    questions: UnboundedSender<Asked>,
    /// Our requests waiting for their answer.
    running: RefCell<HashSet<RequestId>>,
    /// The server's questions waiting on the person, by the server's request id.
    open: RefCell<HashMap<RequestId, OpenQuestion>>,
    /// Timers waiting for a question to open or close.
    watchers: RefCell<Vec<Waker>>,
}

impl Inbound {
    pub(crate) fn new(notices: NoticeSink, relist: UnboundedSender<Relist>, questions: UnboundedSender<Asked>) -> Inbound {
        Inbound {
            notices,
            calls: RefCell::new(HashMap::new()),
            relist,
            elicitor: None,
            sampler: None,
            server_name: RefCell::new(String::new()),
            views_stale: Cell::new(false),
            questions,
            running: RefCell::default(),
            open: RefCell::default(),
            watchers: RefCell::default(),
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

    /// Notes that our request `id` awaits its answer, until the returned guard is dropped (however
    /// the request ends); the questions asked during it alone are then withdrawn.
    pub(crate) fn request_running<'a>(&'a self, id: &RequestId) -> Running<'a> {
        self.running.borrow_mut().insert(id.clone());
        Running { inbound: self, id: id.clone() }
    }

    /// Our requests waiting for their answer.
    pub(crate) fn running(&self) -> Vec<RequestId> {
        self.running.borrow().iter().cloned().collect()
    }

    /// Queues a server request for the session's task to answer; `during` are the requests of ours
    /// it belongs to (none when the server asks on its own).
    pub(crate) fn ask(&self, request: Request, during: &[RequestId]) {
        let withdrawal = Rc::new(Withdrawal::default());
        if self.asks_the_person(&request.method) {
            let question = OpenQuestion { during: during.to_vec(), withdrawal: withdrawal.clone() };
            self.open.borrow_mut().insert(request.id.clone(), question);
            self.questions_changed();
        }
        // The session's task owns the receiver; it is gone only once the session stopped.
        let _ = self.questions.unbounded_send(Asked { request, withdrawal });
    }

    /// The answer to a queued request, or `None` when it was withdrawn with nothing to send back.
    /// Withdrawing drops the question to the person (the page takes its card away).
    pub(crate) async fn answer_asked(&self, asked: Asked) -> Option<Message> {
        let Asked { request, withdrawal } = asked;
        let _closing = Closing { inbound: self, id: &request.id, withdrawal: &withdrawal };
        // One withdrawn before its turn came is never put to the person.
        if !withdrawal.token.is_cancelled()
            && let Some(answer) = withdrawal.token.run(self.answer(&request)).await
        {
            return Some(answer);
        }
        match withdrawal.reason.get() {
            Some(Withdrawn::RequestsEnded) => Some(withdrawn_answer(&request)),
            Some(Withdrawn::Unanswered) | None => None,
        }
    }

    /// The session the questions were asked in is gone: they are withdrawn, unanswered.
    pub(crate) fn session_ended(&self) {
        for question in self.open.borrow().values() {
            question.withdrawal.withdraw(Withdrawn::Unanswered);
        }
    }

    /// Resolves once the server waits on the person for something it asked during our request `id`.
    pub(crate) fn person_asked<'a>(&'a self, id: &'a RequestId) -> impl Future<Output = ()> + 'a {
        self.until(move || self.waits_on_person(id))
    }

    /// Resolves once the server no longer waits on the person for anything asked during our request `id`.
    pub(crate) fn person_answered<'a>(&'a self, id: &'a RequestId) -> impl Future<Output = ()> + 'a {
        self.until(move || !self.waits_on_person(id))
    }

    fn waits_on_person(&self, id: &RequestId) -> bool {
        self.open.borrow().values().any(|question| question.during.contains(id))
    }

    fn until<'a>(&'a self, condition: impl Fn() -> bool + 'a) -> impl Future<Output = ()> + 'a {
        futures::future::poll_fn(move |cx| {
            if condition() {
                return Poll::Ready(());
            }
            let mut watchers = self.watchers.borrow_mut();
            if !watchers.iter().any(|waker| waker.will_wake(cx.waker())) {
                watchers.push(cx.waker().clone());
            }
            Poll::Pending
        })
    }

    fn questions_changed(&self) {
        let watchers = std::mem::take(&mut *self.watchers.borrow_mut());
        for waker in watchers {
            waker.wake();
        }
    }

    fn request_ended(&self, id: &RequestId) {
        self.running.borrow_mut().remove(id);
        for question in self.open.borrow_mut().values_mut() {
            let Some(position) = question.during.iter().position(|request| request == id) else {
                continue;
            };
            question.during.remove(position);
            if question.during.is_empty() {
                question.withdrawal.withdraw(Withdrawn::RequestsEnded);
            }
        }
    }

    /// Whether answering `method` waits on the person.
    fn asks_the_person(&self, method: &Method) -> bool {
        match method {
            Method::ElicitationCreate => self.elicitor.is_some(),
            Method::SamplingCreateMessage => self.sampler.is_some(),
            _ => false,
        }
    }

    /// The answer to a server request: `ping` gets an empty result, `elicitation/create` the
    /// person's answer (when there is someone to ask), `sampling/createMessage` the model's answer
    /// once the person approved it (when there is a sampler), anything else `-32601`.
    async fn answer(&self, request: &Request) -> Message {
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
            Method::Cancelled => {
                let Some(Ok(cancelled)) = notification.params.map(serde_json::from_value::<CancelledParams>) else {
                    return;
                };
                // The server no longer wants the answer: the specification says not to send one.
                if let Some(question) = self.open.borrow().get(&cancelled.request_id) {
                    question.withdrawal.withdraw(Withdrawn::Unanswered);
                }
            }
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

/// Keeps one of our requests among the running ones until it ends ([`Inbound::request_running`]).
pub(crate) struct Running<'a> {
    inbound: &'a Inbound,
    id: RequestId,
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.inbound.request_ended(&self.id);
    }
}

/// Closes a question however its answering ends (answered, withdrawn, the session dropped), so the
/// timers it held resume.
struct Closing<'a> {
    inbound: &'a Inbound,
    id: &'a RequestId,
    withdrawal: &'a Rc<Withdrawal>,
}

impl Drop for Closing<'_> {
    fn drop(&mut self) {
        let mut open = self.inbound.open.borrow_mut();
        // A server may reuse the id of a question it gave up on.
        if open.get(self.id).is_some_and(|question| Rc::ptr_eq(&question.withdrawal, self.withdrawal)) {
            open.remove(self.id);
            drop(open);
            self.inbound.questions_changed();
        }
    }
}

/// What the server hears about a question withdrawn because the requests it was asked during ended.
fn withdrawn_answer(request: &Request) -> Message {
    match request.method {
        Method::ElicitationCreate => {
            let cancelled = ElicitResult { action: ElicitAction::Cancel, content: None };
            Message::response(request.id.clone(), serde_json::to_value(cancelled).unwrap_or(Value::Null))
        }
        _ => Message::error(Some(request.id.clone()), SamplingError::Withdrawn.code(), SamplingError::Withdrawn.to_string()),
    }
}
