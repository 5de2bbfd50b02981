//! One MCP server connection: picks the transport (auto-detection), shakes hands, pages `tools/list`
//! (and the resource, template and prompt lists the server declares), calls tools (results held
//! against a declared output schema) and reads resources and prompts with a timeout and
//! cancellation, keeps listening, re-lists tools, resources and prompts on their `list_changed`,
//! renews an expired session once per request (one renewal for all the requests that find it expired),
//! and reconnects dropped legacy streams with backoff.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::future::Future;
use std::pin::pin;
use std::rc::Rc;
use std::sync::Arc;

use futures::StreamExt;
use futures::channel::mpsc::{self, UnboundedReceiver, UnboundedSender};
use futures::future::{Either, select};
use futures::lock::Mutex;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::cancel::CancelToken;
use crate::mcp::apps::view::{ViewResource, read_view};
use crate::mcp::config::{McpOptions, ServerConfig, TransportKind};
use crate::mcp::elicit::SharedElicitor;
use crate::mcp::sampling::SharedSampler;
use crate::mcp::model::complete::{ArgumentValue, CompleteContext, CompleteParams, CompleteResult, PromptReference};
use crate::mcp::error::McpError;
use crate::mcp::inbound::{Asked, Inbound, Notice, NoticeSink, Relist};
use crate::mcp::jsonrpc::{Message, Method, Request, RequestId, Version, value_depth};
use crate::mcp::legacy::{EventSourcePort, EventStream, HttpEventSource, LegacyLink};
use crate::mcp::model::call::CallToolResult;
use crate::mcp::model::initialize::{
    InitializeParams, InitializeResult, SUPPORTED_PROTOCOL_VERSIONS,
};
use crate::mcp::model::notify::{CancelledParams, LogLevel, SetLevelParams};
use crate::mcp::model::page::PageParams;
use crate::mcp::model::prompt::{GetPromptParams, GetPromptResult, Prompt};
use crate::mcp::model::resource::{ReadResourceParams, ReadResourceResult, Resource, ResourceTemplate};
use crate::mcp::model::tool::{CallToolParams, RequestMeta, Tool};
use crate::mcp::normalize::{to_resource_result, to_tool_result};
use crate::mcp::output_schema;
use crate::mcp::streamable::StreamableLink;
use crate::ports::{Clock, HttpTransport};
use crate::recipes::validate::SchemaValidator;
use crate::tool::{ToolResult, ToolSpec};

/// The outside world a session talks through.
pub struct SessionPorts<H: ?Sized> {
    pub http: Rc<H>,
    /// Used for legacy servers without a bearer token (with one, the session reads the stream over `http`).
    pub event_sources: Rc<dyn EventSourcePort>,
    pub clock: Rc<dyn Clock>,
}

impl<H: ?Sized> Clone for SessionPorts<H> {
    fn clone(&self) -> SessionPorts<H> {
        SessionPorts {
            http: self.http.clone(),
            event_sources: self.event_sources.clone(),
            clock: self.clock.clone(),
        }
    }
}

/// Deepest input schema a tool may have to be offered: deeper ones are skipped with a note, as the
/// model's provider and the page's own JSON reading (serde_json's 128) would choke on them.
pub const MAX_SCHEMA_DEPTH: usize = 64;

/// The most suggestions kept from one `completion/complete` (the specification's own limit).
pub const MAX_COMPLETIONS: usize = 100;

/// A session the listening stream finds expired this soon after the last renewal counts as the
/// server forgetting sessions at once, not as a restart.
const QUICK_RENEWAL_MS: f64 = 10_000.0;

/// What a server told us about itself, its tools, resources and prompts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServerFacts {
    pub hello: Option<InitializeResult>,
    pub tools: Rc<Vec<ToolSpec>>,
    /// Tools the server described in a way this client could not read, with the reason.
    pub unreadable_tools: Vec<String>,
    pub offers: ServerOffers,
}

/// What a server offers besides tools, as listed when it connected and again when it said a list
/// changed (only the kinds it declared).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServerOffers {
    pub resources: Rc<Vec<Resource>>,
    pub resource_templates: Rc<Vec<ResourceTemplate>>,
    pub prompts: Rc<Vec<Prompt>>,
    /// Resources, templates or prompts this client could not read, or lists that failed, with the reason.
    pub unreadable: Vec<String>,
    /// It declared logging: a log level may be asked for (`logging/setLevel`).
    pub logging: bool,
}

impl ServerOffers {
    /// Whether there is anything to list or read (the agent's resource pseudo-tools).
    pub fn has_resources(&self) -> bool {
        !self.resources.is_empty() || !self.resource_templates.is_empty()
    }
}

/// The notes of the last resource and prompt listings.
#[derive(Default)]
struct OfferNotes {
    resources: Vec<String>,
    prompts: Vec<String>,
}

impl OfferNotes {
    fn all(&self) -> Vec<String> {
        [self.resources.as_slice(), self.prompts.as_slice()].concat()
    }
}

/// One entry of a list method's answer, not yet decoded: its page and place there (from 1).
struct Listed {
    page: usize,
    index: usize,
    raw: Value,
}

pub struct Session<H: ?Sized> {
    config: ServerConfig,
    options: McpOptions,
    clock: Rc<dyn Clock>,
    event_sources: Rc<dyn EventSourcePort>,
    streamable: StreamableLink<H>,
    legacy: LegacyLink<H>,
    active: Cell<Option<TransportKind>>,
    inbound: Inbound,
    relist: RefCell<Option<UnboundedReceiver<Relist>>>,
    /// Notifications sent from [`Session::run`]'s task rather than the caller's: a cancellation
    /// must reach the server even when the caller drops the call right after (Stop, a timeout).
    outbox: UnboundedSender<Message>,
    outbox_queue: RefCell<Option<UnboundedReceiver<Message>>>,
    /// The server's requests, answered from [`Session::run`]'s task so no stream waits on the person.
    questions: RefCell<Option<UnboundedReceiver<Asked>>>,
    next_id: Cell<i64>,
    /// Session renewals made so far: a request notes the count when sent, so that on finding the
    /// session expired it knows whether it was renewed since.
    renewals: Cell<u64>,
    /// Held while renewing, so requests that find the session expired together make one renewal;
    /// it keeps the last renewal's failure for those that waited on it.
    renewing: Mutex<Option<McpError>>,
    facts: RefCell<ServerFacts>,
    /// The output schemas the listed tools declare, by tool name.
    output_schemas: RefCell<HashMap<String, Arc<Value>>>,
    /// Checks results against their tool's output schema; without one, only that
    /// `structuredContent` is there.
    validator: Option<Rc<dyn SchemaValidator>>,
    /// What [`ServerOffers::unreadable`] is made of, by list, so listing one again keeps the other's notes.
    offer_notes: RefCell<OfferNotes>,
    /// MCP Apps views fetched so far, by `ui://` URI (forgotten when the server's resources change).
    views: RefCell<HashMap<String, Rc<ViewResource>>>,
    stop: CancelToken,
}

impl<H: HttpTransport + ?Sized + 'static> Session<H> {
    /// A session that does nothing until [`Session::run`] is polled; `notices` hears what happens.
    pub fn new(
        config: ServerConfig,
        ports: SessionPorts<H>,
        options: McpOptions,
        notices: NoticeSink,
    ) -> Session<H> {
        let authorization = config.authorization();
        let event_sources: Rc<dyn EventSourcePort> = match &authorization {
            Some(value) => Rc::new(HttpEventSource::new(
                ports.http.clone(),
                vec![("Authorization".to_owned(), value.clone())],
                options.max_message_bytes,
            )),
            None => ports.event_sources,
        };
        let (relist_sender, relist_receiver) = mpsc::unbounded();
        let (outbox, outbox_queue) = mpsc::unbounded();
        let (questions_sender, questions) = mpsc::unbounded();
        Session {
            streamable: StreamableLink::new(
                ports.http.clone(),
                ports.clock.clone(),
                &config.url,
                authorization.clone(),
                options.max_message_bytes,
                options.answer_caps(),
                options.backoff.clone(),
            ),
            legacy: LegacyLink::new(ports.http, &config.url, authorization, options.answer_caps()),
            clock: ports.clock,
            event_sources,
            active: Cell::new(None),
            inbound: Inbound::new(notices, relist_sender, questions_sender),
            relist: RefCell::new(Some(relist_receiver)),
            outbox,
            outbox_queue: RefCell::new(Some(outbox_queue)),
            questions: RefCell::new(Some(questions)),
            next_id: Cell::new(0),
            renewals: Cell::new(0),
            renewing: Mutex::new(None),
            facts: RefCell::new(ServerFacts::default()),
            output_schemas: RefCell::default(),
            validator: default_validator(),
            offer_notes: RefCell::default(),
            views: RefCell::new(HashMap::new()),
            stop: CancelToken::new(),
            config,
            options,
        }
    }

    /// Lets `elicitor` answer the server's `elicitation/create` requests (and declares it), naming
    /// this server `server` to whoever is asked.
    pub fn with_elicitor(mut self, elicitor: SharedElicitor, server: &str) -> Session<H> {
        self.inbound.set_elicitor(elicitor, server.to_owned());
        self
    }

    /// Lets `sampler` answer the server's `sampling/createMessage` requests (and declares it),
    /// naming this server `server` to whoever approves them.
    pub fn with_sampler(mut self, sampler: SharedSampler, server: &str) -> Session<H> {
        self.inbound.set_sampler(sampler, server.to_owned());
        self
    }

    /// Lets `validator` check results against their tool's declared output schema.
    pub fn with_validator(mut self, validator: Rc<dyn SchemaValidator>) -> Session<H> {
        self.validator = Some(validator);
        self
    }

    /// The name shown to the person with the server's requests from now on.
    pub fn rename(&self, server: &str) {
        self.inbound.rename(server.to_owned());
    }

    /// The transport in use, once connected.
    pub fn transport(&self) -> Option<TransportKind> {
        self.active.get()
    }

    pub fn facts(&self) -> ServerFacts {
        self.facts.borrow().clone()
    }

    /// Connects, then keeps the connection alive (listening, re-listing tools, reconnecting).
    /// It only returns when it gives up, with the reason; drop it (and call [`Session::close`]) to stop.
    pub async fn run(&self) -> McpError {
        let (Some(relist), Some(outbox), Some(questions)) = (
            self.relist.borrow_mut().take(),
            self.outbox_queue.borrow_mut().take(),
            self.questions.borrow_mut().take(),
        ) else {
            return McpError::Protocol("this session is already running".to_owned());
        };
        // From the start: a legacy server may ask something (a ping) during the handshake.
        let answering = questions.for_each_concurrent(None, |asked| async {
            if let Some(answer) = self.inbound.answer_asked(asked).await {
                // Best effort: if the answer cannot be delivered the server times its request out.
                let _ = self.send_bounded(&answer).await;
            }
        });
        match select(pin!(self.connect_and_listen(relist, outbox)), pin!(answering)).await {
            Either::Left((reason, _)) => reason,
            // The sender lives as long as the session.
            Either::Right(((), _)) => McpError::Closed,
        }
    }

    /// All [`Session::run`] does but answering the server's requests.
    async fn connect_and_listen(
        &self,
        mut relist: UnboundedReceiver<Relist>,
        mut outbox: UnboundedReceiver<Message>,
    ) -> McpError {
        let legacy_stream = match self.establish().await {
            Ok(stream) => stream,
            Err(error) => return error,
        };
        let refresh = async {
            while let Some(first) = relist.next().await {
                // Several notifications in a burst need one listing of each list they name.
                let mut lists = vec![first];
                while let Ok(list) = relist.try_recv() {
                    lists.push(list);
                }
                if lists.contains(&Relist::Tools) {
                    match self.list_tools().await {
                        Ok(()) => {
                            self.inbound.notice(Notice::ToolsChanged);
                            self.prefetch_views().await;
                        }
                        Err(error) => self.inbound.notice(Notice::ToolsRefreshFailed {
                            reason: error.to_string(),
                        }),
                    }
                }
                let resources = lists.contains(&Relist::Resources);
                let prompts = lists.contains(&Relist::Prompts);
                if resources {
                    self.list_resources().await;
                }
                if prompts {
                    self.list_prompts().await;
                }
                if resources || prompts {
                    self.inbound.notice(Notice::OffersChanged);
                }
            }
        };
        let deliver = async {
            while let Some(message) = outbox.next().await {
                // Best effort: the call is over for us either way.
                let _ = self.send_bounded(&message).await;
            }
        };
        let background = futures::future::join3(self.prefetch_views(), refresh, deliver);
        match select(pin!(self.keep_connected(legacy_stream)), pin!(background)).await {
            Either::Left((reason, _)) => reason,
            Either::Right((_, keep)) => keep.await,
        }
    }

    /// Calls `tool` with `arguments`, bounded by the call timeout; cancelling `cancel` tells the
    /// server (`notifications/cancelled`) and aborts. A tool error (`isError`) is an `Ok` result,
    /// and so is a result that breaks the tool's declared output schema, as an error saying how.
    pub async fn call_tool(
        &self,
        tool: &str,
        arguments: Value,
        cancel: &CancelToken,
    ) -> Result<ToolResult, McpError> {
        let id = self.next_request_id();
        let params = CallToolParams {
            name: tool.to_owned(),
            arguments,
            meta: RequestMeta {
                progress_token: id.clone(),
            },
        };
        let request = request(id.clone(), Method::ToolsCall, Some(to_params(&params)));
        self.inbound.call_started(id.clone(), tool);
        let outcome = self
            .exchange_renewing(&request, self.call_timeout_ms(), cancel)
            .await;
        self.inbound.call_ended(&id);
        let value = match outcome {
            Err(McpError::Cut(cut)) => return Ok(cut.into_tool_result()),
            other => other.map_err(McpError::after_connected)?,
        };
        let result: CallToolResult =
            serde_json::from_value(value).map_err(
                |error| McpError::Protocol(format!("the tools/call result is malformed: {error}")),
            )?;
        let result = to_tool_result(result);
        let schema = self.output_schemas.borrow().get(tool).cloned();
        Ok(match schema {
            Some(schema) => output_schema::check(result, &schema, self.validator.as_deref()).await,
            None => result,
        })
    }

    /// Reads the resource at `uri` (`resources/read`), bounded like a tool call. A resource whose
    /// listing declares more text than [`McpOptions::max_resource_bytes`] is not asked for; one
    /// whose text turns out larger is refused the same way. Binary `blob`s are summarised.
    pub async fn read_resource(&self, uri: &str, cancel: &CancelToken) -> Result<ToolResult, McpError> {
        if !self.offers_resources() {
            return Err(McpError::NotOffered("resources"));
        }
        let limit = self.options.max_resource_bytes;
        let declared = self
            .facts
            .borrow()
            .offers
            .resources
            .iter()
            .find(|resource| resource.uri == uri)
            .and_then(|resource| resource.size);
        if let Some(bytes) = declared.filter(|bytes| *bytes > limit as u64) {
            return Err(McpError::ResourceTooLarge { uri: uri.to_owned(), bytes, limit });
        }
        let read = self.read_contents(uri, cancel).await?;
        let text_bytes: usize = read
            .contents
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str))
            .map(str::len)
            .sum();
        if text_bytes > limit {
            return Err(McpError::ResourceTooLarge { uri: uri.to_owned(), bytes: text_bytes as u64, limit });
        }
        Ok(to_resource_result(uri, read.contents))
    }

    /// One `resources/read` exchange for `uri`, its result decoded.
    async fn read_contents(&self, uri: &str, cancel: &CancelToken) -> Result<ReadResourceResult, McpError> {
        let params = ReadResourceParams { uri: uri.to_owned() };
        let request = self.new_request(Method::ResourcesRead, Some(to_params(&params)));
        let result = self
            .exchange_renewing(&request, self.call_timeout_ms(), cancel)
            .await
            .map_err(|error| match error {
                McpError::Cut(cut) => {
                    McpError::ResourceTooLarge { uri: uri.to_owned(), bytes: cut.total_bytes as u64, limit: cut.cap }
                }
                other => McpError::after_connected(other),
            })?;
        serde_json::from_value(result).map_err(|error| {
            McpError::Protocol(format!("the resources/read result for <{uri}> is malformed: {error}"))
        })
    }

    /// Asks the server to say when the resource at `uri` changes (`resources/subscribe`; it then
    /// sends `notifications/resources/updated`), when it declared `resources.subscribe`.
    pub async fn subscribe_resource(&self, uri: &str) -> Result<(), McpError> {
        if !self.offers_subscriptions() {
            return Err(McpError::NotOffered("resource subscriptions"));
        }
        let request = self.new_request(Method::ResourcesSubscribe, Some(serde_json::json!({ "uri": uri })));
        self.exchange_renewing(&request, self.options.connect_timeout_ms, &CancelToken::new())
            .await
            .map(|_| ())
            .map_err(McpError::after_connected)
    }

    /// One page of `resources/list`, `resources/templates/list` or `prompts/list` for an MCP Apps
    /// view, asked with the view's cursor and answered as the server sent it.
    pub async fn list_for_view(&self, method: &str, cursor: Option<String>, cancel: &CancelToken) -> Result<Value, McpError> {
        let (method, offered) = match method {
            "resources/list" => (Method::ResourcesList, self.offers_resources()),
            "resources/templates/list" => (Method::ResourceTemplatesList, self.offers_resources()),
            "prompts/list" => (Method::PromptsList, self.offers_prompts()),
            _ => return Err(McpError::NotOffered("such list")),
        };
        if !offered {
            return Err(McpError::NotOffered(if method == Method::PromptsList { "prompts" } else { "resources" }));
        }
        let request = self.new_request(method, Some(to_params(&PageParams { cursor })));
        self.exchange_renewing(&request, self.call_timeout_ms(), cancel).await.map_err(McpError::after_connected)
    }

    /// Whether the server declared `resources.subscribe` in its `initialize` result.
    pub fn offers_subscriptions(&self) -> bool {
        self.facts.borrow().hello.as_ref().is_some_and(|hello| {
            hello.capabilities.resources.as_ref().is_some_and(|resources| resources.subscribe == Some(true))
        })
    }

    /// The MCP Apps view at `uri` (`ui://`), from the cache or read once (`resources/read`, within
    /// [`McpOptions::max_resource_bytes`]). Servers may leave views out of `resources/list`, so the
    /// read is made whether or not the server declared resources.
    pub async fn view(&self, uri: &str, cancel: &CancelToken) -> Result<Rc<ViewResource>, McpError> {
        if self.inbound.take_views_stale() {
            self.views.borrow_mut().clear();
        }
        if let Some(view) = self.views.borrow().get(uri) {
            return Ok(view.clone());
        }
        let read = self.read_contents(uri, cancel).await?;
        let listed_meta = {
            let facts = self.facts.borrow();
            facts.offers.resources.iter().find(|resource| resource.uri == uri).and_then(|resource| resource.meta.clone())
        };
        let view = read_view(uri, &read.contents, listed_meta.as_ref()).map_err(|error| McpError::Protocol(error.to_string()))?;
        let limit = self.options.max_resource_bytes;
        if view.html.len() > limit {
            return Err(McpError::ResourceTooLarge { uri: uri.to_owned(), bytes: view.html.len() as u64, limit });
        }
        let view = Rc::new(view);
        self.views.borrow_mut().insert(uri.to_owned(), view.clone());
        Ok(view)
    }

    /// Reads every view the tools name that is not cached yet, so the first one shows without a
    /// round trip. A failure is left for [`Session::view`] to report when the view is shown.
    async fn prefetch_views(&self) {
        let uris: HashSet<String> = self.facts.borrow().tools.iter().filter_map(|tool| tool.view_uri().map(str::to_owned)).collect();
        for uri in uris {
            let _ = self.view(&uri, &self.stop).await;
        }
    }

    /// The messages of prompt `name` filled with `arguments` (`prompts/get`).
    pub async fn get_prompt(
        &self,
        name: &str,
        arguments: BTreeMap<String, String>,
        cancel: &CancelToken,
    ) -> Result<GetPromptResult, McpError> {
        if !self.offers_prompts() {
            return Err(McpError::NotOffered("prompts"));
        }
        let params = GetPromptParams { name: name.to_owned(), arguments };
        let request = self.new_request(Method::PromptsGet, Some(to_params(&params)));
        let result = self
            .exchange_renewing(&request, self.options.connect_timeout_ms, cancel)
            .await
            .map_err(McpError::after_connected)?;
        serde_json::from_value(result)
            .map_err(|error| McpError::Protocol(format!("the prompts/get result for \"{name}\" is malformed: {error}")))
    }

    /// The values the server suggests for the prompt `prompt`'s `argument` starting as `value`,
    /// given the arguments already `filled` (`completion/complete`), at most [`MAX_COMPLETIONS`].
    pub async fn complete_prompt_argument(
        &self,
        prompt: &str,
        argument: &str,
        value: &str,
        filled: BTreeMap<String, String>,
        cancel: &CancelToken,
    ) -> Result<Vec<String>, McpError> {
        let declared = self.facts.borrow().hello.as_ref().is_some_and(|hello| hello.capabilities.completions.is_some());
        if !declared {
            return Err(McpError::NotOffered("completions"));
        }
        let params = CompleteParams {
            reference: PromptReference { kind: "ref/prompt", name: prompt.to_owned() },
            argument: ArgumentValue { name: argument.to_owned(), value: value.to_owned() },
            context: (!filled.is_empty()).then_some(CompleteContext { arguments: filled }),
        };
        let request = self.new_request(Method::CompletionComplete, Some(to_params(&params)));
        let result = self
            .exchange_renewing(&request, self.options.connect_timeout_ms, cancel)
            .await
            .map_err(McpError::after_connected)?;
        let mut values = serde_json::from_value::<CompleteResult>(result)
            .map_err(|error| McpError::Protocol(format!("the completion/complete result is malformed: {error}")))?
            .completion
            .values;
        values.truncate(MAX_COMPLETIONS);
        Ok(values)
    }

    /// Asks the server to send log entries from `level` up (`logging/setLevel`).
    pub async fn set_log_level(&self, level: LogLevel) -> Result<(), McpError> {
        if !self.offers_logging() {
            return Err(McpError::NotOffered("logging"));
        }
        let request = self.new_request(Method::LoggingSetLevel, Some(to_params(&SetLevelParams { level })));
        // Not renewing an expired session: this also runs inside the handshake that renewal repeats.
        self.exchange(&request, self.options.connect_timeout_ms, &CancelToken::new())
            .await
            .map(|_| ())
            .map_err(McpError::after_connected)
    }

    /// Whether the server declared logging in its `initialize` result.
    pub fn offers_logging(&self) -> bool {
        self.facts
            .borrow()
            .hello
            .as_ref()
            .is_some_and(|hello| hello.capabilities.logging.is_some())
    }

    /// Whether the server declared resources in its `initialize` result.
    fn offers_resources(&self) -> bool {
        self.facts
            .borrow()
            .hello
            .as_ref()
            .is_some_and(|hello| hello.capabilities.resources.is_some())
    }

    /// Whether the server declared prompts in its `initialize` result.
    fn offers_prompts(&self) -> bool {
        self.facts
            .borrow()
            .hello
            .as_ref()
            .is_some_and(|hello| hello.capabilities.prompts.is_some())
    }

    /// How long one tool call may take: the server's own setting, else the default.
    pub fn call_timeout_ms(&self) -> u32 {
        self.config.call_timeout_ms(&self.options)
    }

    /// Stops listening and ends the server-side session (`DELETE`, best effort).
    pub async fn close(&self) {
        self.stop.cancel();
        if self.active.get() == Some(TransportKind::Streamable) {
            let abort = CancelToken::new();
            let deleting = self.streamable.delete(&abort);
            if self
                .within(self.options.connect_timeout_ms, deleting)
                .await
                .is_none()
            {
                abort.cancel();
            }
        }
        self.active.set(None);
    }

    /// Tries the transports in the configured order. A Streamable HTTP 4xx without a JSON-RPC body,
    /// or a URL without an `endpoint` event, means "try the other one"; anything else is final.
    async fn establish(&self) -> Result<Option<EventStream>, McpError> {
        let order = self.config.transports_to_try();
        let mut mismatches: Vec<(TransportKind, McpError)> = Vec::new();
        for kind in order {
            let attempt = match kind {
                TransportKind::Streamable => self.connect_streamable().await.map(|()| None),
                TransportKind::Sse => self.connect_legacy().await.map(Some),
            };
            match attempt {
                Ok(stream) => return Ok(stream),
                Err(error) if is_wrong_transport(kind, &error) => mismatches.push((kind, error)),
                Err(error) => return Err(error),
            }
        }
        let mut streamable = None;
        let mut legacy = None;
        for (kind, error) in mismatches {
            match kind {
                TransportKind::Streamable => streamable = Some(error),
                TransportKind::Sse => legacy = Some(error),
            }
        }
        Err(match (streamable, legacy) {
            (Some(streamable), Some(legacy)) => McpError::NotMcp {
                url: self.config.url.clone(),
                streamable: streamable.to_string(),
                legacy: legacy.to_string(),
            },
            (Some(only), None) | (None, Some(only)) => only,
            (None, None) => McpError::Closed,
        })
    }

    async fn connect_streamable(&self) -> Result<(), McpError> {
        self.streamable.reset_session();
        self.active.set(Some(TransportKind::Streamable));
        let outcome = self.handshake().await;
        if outcome.is_err() {
            self.active.set(None);
        }
        outcome
    }

    /// Opens the event stream, waits for `endpoint`, and shakes hands while the stream is read
    /// (the answers arrive on it). Returns the stream for [`Session::keep_connected`] to go on reading.
    async fn connect_legacy(&self) -> Result<EventStream, McpError> {
        let mut stream = self.event_sources.open(&self.config.url);
        let timeout_ms = self.options.connect_timeout_ms;
        match self
            .within(timeout_ms, self.legacy.await_endpoint(&mut stream))
            .await
        {
            Some(outcome) => outcome?,
            None => {
                return Err(McpError::NoEndpoint {
                    url: self.config.url.clone(),
                    detail: format!(" within {timeout_ms} ms"),
                });
            }
        }
        self.active.set(Some(TransportKind::Sse));
        let outcome = match select(
            pin!(self.handshake()),
            pin!(self.legacy.pump(&mut stream, &self.inbound)),
        )
        .await
        {
            Either::Left((outcome, _)) => outcome,
            Either::Right((reason, _)) => Err(reason),
        };
        match outcome {
            Ok(()) => Ok(stream),
            Err(error) => {
                self.active.set(None);
                Err(error)
            }
        }
    }

    async fn handshake(&self) -> Result<(), McpError> {
        let request = self.new_request(
            Method::Initialize,
            Some(to_params(&InitializeParams {
                capabilities: self.inbound.capabilities(),
                ..InitializeParams::default()
            })),
        );
        let result = self
            .exchange(
                &request,
                self.options.connect_timeout_ms,
                &CancelToken::new(),
            )
            .await?;
        let hello: InitializeResult = serde_json::from_value(result).map_err(|error| {
            McpError::Protocol(format!("the initialize result is malformed: {error}"))
        })?;
        if !hello.is_supported_version() {
            return Err(McpError::UnsupportedVersion {
                found: hello.protocol_version,
                supported: SUPPORTED_PROTOCOL_VERSIONS.join(", "),
            });
        }
        self.streamable
            .set_protocol_version(&hello.protocol_version);
        self.notify(Method::Initialized, None).await?;
        self.facts.borrow_mut().hello = Some(hello);
        self.list_tools().await?;
        // Connected with its tools: resources and prompts follow, so a slow or broken list of
        // them does not hold the tools back.
        self.inbound.notice(Notice::Connected);
        self.facts.borrow_mut().offers.logging = self.offers_logging();
        self.list_resources().await;
        self.list_prompts().await;
        self.inbound.notice(Notice::OffersChanged);
        // The person's chosen level, asked for again on every connection; a refusal is only logged.
        if let Some(level) = self.config.log_level.filter(|_| self.offers_logging())
            && let Err(error) = self.set_log_level(level).await
        {
            self.inbound.notice(Notice::Log {
                level: "warning".to_owned(),
                logger: None,
                message: format!("the server refused log level {}: {error}", level.as_str()),
            });
        }
        Ok(())
    }

    /// Lists every page of tools, then replaces the tool list at once.
    async fn list_tools(&self) -> Result<(), McpError> {
        let mut tools: Vec<ToolSpec> = Vec::new();
        let mut output_schemas = HashMap::new();
        let mut unreadable = Vec::new();
        let mut names = HashSet::new();
        for listed in self.list_pages(Method::ToolsList, "tools").await? {
            let Listed { page, index, raw } = listed;
            let named = raw.get("name").and_then(Value::as_str).map(str::to_owned);
            let schema_depth = raw.get("inputSchema").map_or(0, value_depth);
            if schema_depth > MAX_SCHEMA_DEPTH {
                let name = named.unwrap_or_else(|| format!("number {index}"));
                unreadable.push(format!(
                    "tool \"{name}\" (tools/list page {page}) is skipped: its input schema is nested \
                     {schema_depth} levels deep, more than the {MAX_SCHEMA_DEPTH} this client accepts"
                ));
                continue;
            }
            match serde_json::from_value::<Tool>(raw) {
                Ok(tool) if names.insert(tool.name.clone()) => {
                    if let Some(schema) = &tool.output_schema {
                        output_schemas.insert(tool.name.clone(), Arc::new(schema.clone()));
                    }
                    let (spec, note) = tool.into_spec();
                    tools.push(spec);
                    unreadable.extend(note);
                }
                Ok(tool) => unreadable.push(format!(
                    "tool \"{}\" is listed twice; the first one is kept",
                    tool.name
                )),
                Err(error) => unreadable.push(match named {
                    Some(name) => format!("tool \"{name}\" (tools/list page {page}) is skipped: {error}"),
                    None => format!("tools/list page {page}, tool {index}: {error}"),
                }),
            }
        }
        *self.output_schemas.borrow_mut() = output_schemas;
        let mut facts = self.facts.borrow_mut();
        facts.tools = Rc::new(tools);
        facts.unreadable_tools = unreadable;
        Ok(())
    }

    /// Lists every page of the resources and resource templates, when the server declared them
    /// (`initialize` capabilities), then replaces them at once. A list that fails, or an entry that
    /// cannot be read, becomes a note: the connection and the server's tools do not depend on them.
    async fn list_resources(&self) {
        let mut notes = Vec::new();
        let mut resources = Vec::new();
        let mut templates = Vec::new();
        if self.offers_resources() {
            resources = self
                .list_decoded(Method::ResourcesList, "resources", "resource", "uri", &mut notes)
                .await;
            templates = self
                .list_decoded(
                    Method::ResourceTemplatesList,
                    "resourceTemplates",
                    "resource template",
                    "uriTemplate",
                    &mut notes,
                )
                .await;
        }
        self.offer_notes.borrow_mut().resources = notes;
        let mut facts = self.facts.borrow_mut();
        facts.offers.resources = Rc::new(resources);
        facts.offers.resource_templates = Rc::new(templates);
        facts.offers.unreadable = self.offer_notes.borrow().all();
    }

    /// Lists every page of the prompts, when the server declared them, then replaces them at once;
    /// failures become notes, as in [`Session::list_resources`].
    async fn list_prompts(&self) {
        let mut notes = Vec::new();
        let mut prompts = Vec::new();
        if self.offers_prompts() {
            prompts = self
                .list_decoded(Method::PromptsList, "prompts", "prompt", "name", &mut notes)
                .await;
        }
        self.offer_notes.borrow_mut().prompts = notes;
        let mut facts = self.facts.borrow_mut();
        facts.offers.prompts = Rc::new(prompts);
        facts.offers.unreadable = self.offer_notes.borrow().all();
    }

    /// Every entry of `method`'s pages that decodes as `T`; the others, and a failed listing, are
    /// noted in `notes` by their `key` field (e.g. a resource's `uri`) and the reason.
    async fn list_decoded<T: DeserializeOwned>(
        &self,
        method: Method,
        field: &str,
        kind: &str,
        key: &str,
        notes: &mut Vec<String>,
    ) -> Vec<T> {
        let listed = match self.list_pages(method.clone(), field).await {
            Ok(listed) => listed,
            Err(error) => {
                notes.push(format!("{method} failed, so no {kind}s are offered: {error}"));
                return Vec::new();
            }
        };
        let mut decoded = Vec::with_capacity(listed.len());
        for Listed { page, index, raw } in listed {
            let named = raw.get(key).and_then(Value::as_str).map(str::to_owned);
            match serde_json::from_value::<T>(raw) {
                Ok(entry) => decoded.push(entry),
                Err(error) => notes.push(match named {
                    Some(name) => format!("{kind} \"{name}\" ({method} page {page}) is skipped: {error}"),
                    None => format!("{method} page {page}, {kind} {index}: {error}"),
                }),
            }
        }
        decoded
    }

    /// Follows `nextCursor` through every page of `method` and returns the entries of each page's
    /// `field` list raw, so one malformed entry does not hide the others.
    async fn list_pages(&self, method: Method, field: &str) -> Result<Vec<Listed>, McpError> {
        let mut entries = Vec::new();
        let mut cursors = HashSet::new();
        let mut cursor = None;
        for page in 1..=self.options.max_tool_pages {
            let request = self.new_request(
                method.clone(),
                Some(to_params(&PageParams {
                    cursor: cursor.take(),
                })),
            );
            let mut result = self
                .exchange(
                    &request,
                    self.options.connect_timeout_ms,
                    &CancelToken::new(),
                )
                .await?;
            let Some(Value::Array(listed)) = result.get_mut(field).map(Value::take) else {
                return Err(McpError::Protocol(format!(
                    "{method} page {page} is malformed: it has no \"{field}\" list"
                )));
            };
            entries.extend(listed.into_iter().enumerate().map(|(index, raw)| Listed {
                page,
                index: index + 1,
                raw,
            }));
            match result
                .get("nextCursor")
                .and_then(Value::as_str)
                .filter(|next| !next.is_empty())
            {
                None => return Ok(entries),
                Some(next) if !cursors.insert(next.to_owned()) => {
                    return Err(McpError::Protocol(format!(
                        "{method} returned cursor \"{next}\" twice"
                    )));
                }
                Some(next) => cursor = Some(next.to_owned()),
            }
        }
        Err(McpError::Protocol(format!(
            "{method} still had more pages after {}",
            self.options.max_tool_pages
        )))
    }

    /// Listens for what the server sends on its own, for as long as the connection can be kept.
    async fn keep_connected(&self, mut legacy_stream: Option<EventStream>) -> McpError {
        // Renewals the listening stream asked for soon after the one before, and when the last was.
        let mut quick_renewals = 0;
        let mut renewed_at: Option<f64> = None;
        loop {
            match self.active.get() {
                Some(TransportKind::Streamable) => {
                    let announces = self
                        .facts
                        .borrow()
                        .hello
                        .as_ref()
                        .is_some_and(InitializeResult::announces_list_changes);
                    // A server may also send requests (elicitation, sampling) on this stream, outside any call,
                    // and announce changes of the resources subscribed to.
                    let announces = announces || self.offers_subscriptions();
                    if !announces && !self.inbound.takes_requests() {
                        // Nothing to listen for: the session lives on through its POSTs.
                        futures::future::pending::<()>().await;
                    }
                    let renewals_before = self.renewals.get();
                    match self.streamable.listen(&self.inbound, &self.stop).await {
                        McpError::SessionExpired => {
                            // A server that forgets each new session at once is not asked for another in
                            // a tight loop: backed off, then reported, as a dropped connection is.
                            if renewed_at.is_some_and(|at| self.clock.now_ms() - at < QUICK_RENEWAL_MS) {
                                if quick_renewals >= self.options.backoff.max_attempts {
                                    return McpError::SessionExpired;
                                }
                                self.clock.sleep(self.options.backoff.delay_ms(quick_renewals, None)).await;
                                quick_renewals += 1;
                            } else {
                                quick_renewals = 0;
                            }
                            if let Err(error) = self.renew_session(renewals_before).await {
                                return error;
                            }
                            renewed_at = Some(self.clock.now_ms());
                        }
                        other => return other,
                    }
                }
                Some(TransportKind::Sse) => {
                    let reason = match legacy_stream.as_mut() {
                        Some(stream) => self.legacy.pump(stream, &self.inbound).await,
                        None => McpError::Closed,
                    };
                    // A legacy session does not survive its stream, nor can its questions be answered.
                    self.inbound.session_ended();
                    match self.reconnect_legacy(reason).await {
                        Ok(stream) => legacy_stream = Some(stream),
                        Err(error) => return error,
                    }
                }
                None => return McpError::Closed,
            }
        }
    }

    /// A legacy session does not survive its stream: open a new one and shake hands again, with backoff.
    async fn reconnect_legacy(&self, mut reason: McpError) -> Result<EventStream, McpError> {
        let backoff = self.options.backoff.clone();
        for attempt in 0..backoff.max_attempts {
            self.inbound.notice(Notice::Reconnecting {
                reason: reason.to_string(),
            });
            self.clock.sleep(backoff.delay_ms(attempt, None)).await;
            match self.connect_legacy().await {
                Ok(stream) => return Ok(stream),
                Err(error) => reason = error,
            }
        }
        Err(reason)
    }

    /// The server forgot our session: shake hands again (`initialize` goes without the old id),
    /// unless it was renewed since the request that found out was sent (`renewals_before`). A
    /// renewal under way is waited for, and its outcome shared.
    async fn renew_session(&self, renewals_before: u64) -> Result<(), McpError> {
        let mut last_failure = self.renewing.lock().await;
        if self.renewals.get() != renewals_before {
            return match &*last_failure {
                Some(error) => Err(error.clone()),
                None => Ok(()),
            };
        }
        self.inbound.notice(Notice::Reconnecting {
            reason: McpError::SessionExpired.to_string(),
        });
        // The server forgot what it asked in the old session.
        self.inbound.session_ended();
        let outcome = self.handshake().await;
        self.renewals.set(renewals_before + 1);
        *last_failure = outcome.clone().err();
        outcome
    }

    /// [`Session::exchange`], renewing an expired session once and trying again.
    async fn exchange_renewing(
        &self,
        request: &Request,
        timeout_ms: u32,
        cancel: &CancelToken,
    ) -> Result<Value, McpError> {
        let renewals_before = self.renewals.get();
        match self.exchange(request, timeout_ms, cancel).await {
            Err(McpError::SessionExpired) => {
                self.renew_session(renewals_before).await?;
                self.exchange(request, timeout_ms, cancel).await
            }
            other => other,
        }
    }

    /// Sends `request` and waits for its answer, at most `timeout_ms` (not counting the time the
    /// server waits on the person for it), unless `cancel` fires first; then the server is told with
    /// `notifications/cancelled` (never for `initialize`). However it ends, what the server asked the
    /// person during it alone is withdrawn.
    async fn exchange(
        &self,
        request: &Request,
        timeout_ms: u32,
        cancel: &CancelToken,
    ) -> Result<Value, McpError> {
        if cancel.is_cancelled() {
            return Err(McpError::Cancelled);
        }
        let _running = self.inbound.request_running(&request.id);
        let abort = CancelToken::new();
        let mut work = pin!(self.send_request(request, &abort));
        let timer = pin!(self.timed_out(&request.id, timeout_ms));
        let stopped = match select(work.as_mut(), select(cancel.cancelled(), timer)).await {
            Either::Left((outcome, _)) => return outcome,
            Either::Right((Either::Left(_), _)) => McpError::Cancelled,
            Either::Right((Either::Right(_), _)) => McpError::Timeout { ms: timeout_ms },
        };
        // Abort while the request is still alive (it lives to the end of this function), so the
        // transport sees a cancellation rather than just a dropped future.
        abort.cancel();
        if request.method != Method::Initialize {
            let reason = match stopped {
                McpError::Cancelled => "cancelled by the user".to_owned(),
                _ => format!("no answer within {timeout_ms} ms"),
            };
            let params = CancelledParams {
                request_id: request.id.clone(),
                reason,
            };
            // Sent by `run`'s task: dropping this call's future must not abort it.
            let _ = self
                .outbox
                .unbounded_send(Message::notification(Method::Cancelled, Some(to_params(&params))));
        }
        Err(stopped)
    }

    /// Resolves once `request` has waited `timeout_ms` for its answer, the time the server waits on
    /// the person for it (a form, a sampling review) aside: the person may take their time, and the
    /// timer starts over once they answered (as the specification lets a client restart it on progress).
    async fn timed_out(&self, request: &RequestId, timeout_ms: u32) {
        loop {
            self.inbound.person_answered(request).await;
            let asked = pin!(self.inbound.person_asked(request));
            if let Either::Left(((), _)) = select(self.clock.sleep(timeout_ms), asked).await {
                return;
            }
        }
    }

    async fn send_request(
        &self,
        request: &Request,
        abort: &CancelToken,
    ) -> Result<Value, McpError> {
        match self.active.get() {
            Some(TransportKind::Streamable) => {
                self.streamable.request(request, &self.inbound, abort).await
            }
            Some(TransportKind::Sse) => self.legacy.request(request, abort).await,
            None => Err(McpError::Closed),
        }
    }

    /// Sends a notification, bounded by the connect timeout.
    async fn notify(&self, method: Method, params: Option<Value>) -> Result<(), McpError> {
        self.send_bounded(&Message::notification(method, params)).await
    }

    /// Sends a message that gets no answer, bounded by the connect timeout.
    async fn send_bounded(&self, message: &Message) -> Result<(), McpError> {
        let abort = CancelToken::new();
        let sending = async {
            match self.active.get() {
                Some(TransportKind::Streamable) => self.streamable.send(message, &abort).await,
                Some(TransportKind::Sse) => self.legacy.send(message, &abort).await,
                None => Err(McpError::Closed),
            }
        };
        let timeout_ms = self.options.connect_timeout_ms;
        match self.within(timeout_ms, sending).await {
            Some(outcome) => outcome,
            None => {
                abort.cancel();
                Err(McpError::Timeout { ms: timeout_ms })
            }
        }
    }

    /// Runs `work` for at most `ms`; `None` when time ran out.
    async fn within<T>(&self, ms: u32, work: impl Future<Output = T>) -> Option<T> {
        match select(pin!(work), pin!(self.clock.sleep(ms))).await {
            Either::Left((value, _)) => Some(value),
            Either::Right(((), _)) => None,
        }
    }

    fn next_request_id(&self) -> RequestId {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        RequestId::Number(id)
    }

    fn new_request(&self, method: Method, params: Option<Value>) -> Request {
        request(self.next_request_id(), method, params)
    }
}

/// Native builds check results in process; the app gives sessions its own validator
/// (`McpHub::set_validator`), which loads the full one only for schemas that need it.
#[cfg(feature = "jsonschema")]
fn default_validator() -> Option<Rc<dyn SchemaValidator>> {
    Some(Rc::new(crate::recipes::validate::in_process::JsonSchemaValidator::default()))
}

#[cfg(not(feature = "jsonschema"))]
fn default_validator() -> Option<Rc<dyn SchemaValidator>> {
    None
}

fn request(id: RequestId, method: Method, params: Option<Value>) -> Request {
    Request {
        jsonrpc: Version,
        id,
        method,
        params,
    }
}

/// Whether a failed attempt says "this URL speaks the other transport" rather than "this server is broken".
fn is_wrong_transport(kind: TransportKind, error: &McpError) -> bool {
    match (kind, error) {
        // 401/403 come from a server that wants credentials, whatever its transport.
        (TransportKind::Streamable, McpError::Http { status, .. }) => {
            (400..500).contains(status) && *status != 401 && *status != 403
        }
        (TransportKind::Sse, McpError::NoEndpoint { .. }) => true,
        _ => false,
    }
}

fn to_params(params: &impl Serialize) -> Value {
    serde_json::to_value(params).unwrap_or(Value::Null)
}
