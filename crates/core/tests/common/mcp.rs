//! A fake MCP hub: servers with tool lists and statuses, scripted tool behaviour, and a log of calls.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::ids::ServerId;
use autoui_core::mcp::model::resource::{Resource, ResourceTemplate};
use autoui_core::ports::Clock;
use autoui_core::remote::{RemoteCallError, RemoteServerView, RemoteServers, RemoteStatus};
use autoui_core::tool::{ToolResult, ToolSpec};
use futures::future::LocalBoxFuture;
use serde_json::{Value, json};

/// How a fake tool answers.
#[derive(Clone)]
pub enum Behaviour {
    Reply(ToolResult),
    Fail(String),
    /// Answers after `ms` of (virtual) time.
    Slow(u32, ToolResult),
    /// Never answers; records that the call saw the run's Stop.
    Hang,
}

type Handler = Rc<dyn Fn(&Value) -> Behaviour>;

#[derive(Clone, Debug, PartialEq)]
pub struct RemoteCall {
    pub server: String,
    pub tool: String,
    pub args: Value,
}

pub struct FakeMcp {
    servers: RefCell<Vec<RemoteServerView>>,
    /// Resource reads by (server, uri).
    contents: RefCell<HashMap<(String, String), ToolResult>>,
    handlers: RefCell<HashMap<(String, String), Handler>>,
    calls: RefCell<Vec<RemoteCall>>,
    stopped: RefCell<usize>,
    clock: Option<Rc<dyn Clock>>,
    /// The timeout the fake says it enforces itself, as the MCP hub does.
    call_timeout_ms: Option<u32>,
}

pub fn spec(name: &str, description: &str) -> ToolSpec {
    ToolSpec {
        name: name.to_owned(),
        title: None,
        description: description.to_owned(),
        input_schema: json!({ "type": "object", "properties": { "query": { "type": "string" } } }),
        read_only: true,
        hints: Default::default(),
        ui: None,
    }
}

impl FakeMcp {
    pub fn new() -> FakeMcp {
        FakeMcp {
            servers: RefCell::new(Vec::new()),
            contents: RefCell::new(HashMap::new()),
            handlers: RefCell::new(HashMap::new()),
            calls: RefCell::new(Vec::new()),
            stopped: RefCell::new(0),
            clock: None,
            call_timeout_ms: None,
        }
    }

    /// Says its calls time out by themselves after `ms` (the fake itself never times out).
    pub fn with_call_timeout(mut self, ms: u32) -> FakeMcp {
        self.call_timeout_ms = Some(ms);
        self
    }

    /// Slow tools sleep on this clock.
    pub fn with_clock(mut self, clock: Rc<dyn Clock>) -> FakeMcp {
        self.clock = Some(clock);
        self
    }

    pub fn server(self, name: &str, tools: Vec<ToolSpec>) -> FakeMcp {
        self.server_with_status(name, tools, RemoteStatus::Connected)
    }

    pub fn server_with_status(self, name: &str, tools: Vec<ToolSpec>, status: RemoteStatus) -> FakeMcp {
        self.servers.borrow_mut().push(RemoteServerView {
            id: ServerId::sanitize(name),
            name: name.to_owned(),
            status,
            tools,
            instructions: None,
            resources: Rc::default(),
            resource_templates: Rc::default(),
        });
        self
    }

    /// `server` now has `tools` and `status` (it connected, or listed other tools).
    pub fn set_server(&self, name: &str, tools: Vec<ToolSpec>, status: RemoteStatus) {
        for view in self.servers.borrow_mut().iter_mut().filter(|view| view.name == name) {
            view.tools.clone_from(&tools);
            view.status = status.clone();
        }
    }

    /// Gives `server` the `instructions` its `initialize` would send.
    pub fn instructions(self, server: &str, instructions: &str) -> FakeMcp {
        for view in self.servers.borrow_mut().iter_mut().filter(|view| view.name == server) {
            view.instructions = Some(instructions.to_owned());
        }
        self
    }

    /// Gives `server` a resource at `uri` whose text is `text`, listed with `name`.
    pub fn resource(self, server: &str, uri: &str, name: &str, text: &str) -> FakeMcp {
        for view in self.servers.borrow_mut().iter_mut().filter(|view| view.name == server) {
            let listed: Resource =
                serde_json::from_value(json!({ "uri": uri, "name": name, "mimeType": "application/json" })).unwrap();
            Rc::make_mut(&mut view.resources).push(listed);
        }
        self.contents.borrow_mut().insert((ServerId::sanitize(server).to_string(), uri.to_owned()), ToolResult::text(text));
        self
    }

    /// Gives `server` an image resource at `uri` (a base64 `blob` of `media_type`), read as the
    /// hub reads it (`normalize::to_resource_result`).
    pub fn image_resource(self, server: &str, uri: &str, media_type: &str, blob: &str) -> FakeMcp {
        for view in self.servers.borrow_mut().iter_mut().filter(|view| view.name == server) {
            let listed: Resource = serde_json::from_value(json!({ "uri": uri, "name": uri, "mimeType": media_type })).unwrap();
            Rc::make_mut(&mut view.resources).push(listed);
        }
        let read = autoui_core::mcp::normalize::to_resource_result(uri, vec![json!({ "uri": uri, "mimeType": media_type, "blob": blob })]);
        self.contents.borrow_mut().insert((ServerId::sanitize(server).to_string(), uri.to_owned()), read);
        self
    }

    /// Gives `server` a resource template.
    pub fn resource_template(self, server: &str, uri_template: &str, name: &str) -> FakeMcp {
        for view in self.servers.borrow_mut().iter_mut().filter(|view| view.name == server) {
            let template: ResourceTemplate =
                serde_json::from_value(json!({ "uriTemplate": uri_template, "name": name })).unwrap();
            Rc::make_mut(&mut view.resource_templates).push(template);
        }
        self
    }

    pub fn on(self, server: &str, tool: &str, behaviour: Behaviour) -> FakeMcp {
        self.on_args(server, tool, move |_| behaviour.clone())
    }

    pub fn on_args(self, server: &str, tool: &str, handler: impl Fn(&Value) -> Behaviour + 'static) -> FakeMcp {
        self.handlers.borrow_mut().insert((server.to_owned(), tool.to_owned()), Rc::new(handler));
        self
    }

    pub fn calls(&self) -> Vec<RemoteCall> {
        self.calls.borrow().clone()
    }

    /// Calls that were still running when Stop was pressed.
    pub fn stopped(&self) -> usize {
        *self.stopped.borrow()
    }
}

impl RemoteServers for FakeMcp {
    fn servers(&self) -> Vec<RemoteServerView> {
        self.servers.borrow().clone()
    }

    fn call_timeout_ms(&self, _server: &ServerId) -> Option<u32> {
        self.call_timeout_ms
    }

    fn read_resource<'a>(
        &'a self,
        server: &'a ServerId,
        uri: &'a str,
        _cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ToolResult, RemoteCallError>> {
        self.calls.borrow_mut().push(RemoteCall {
            server: server.to_string(),
            tool: "resources/read".to_owned(),
            args: json!({ "uri": uri }),
        });
        let read = self.contents.borrow().get(&(server.to_string(), uri.to_owned())).cloned();
        Box::pin(async move {
            read.ok_or_else(|| {
                RemoteCallError::Failed(format!("reading <{uri}> from {server} failed: server error -32002: Resource not found"))
            })
        })
    }

    fn call_tool<'a>(
        &'a self,
        server: &'a ServerId,
        tool: &'a str,
        args: Value,
        cancel: CancelToken,
    ) -> LocalBoxFuture<'a, Result<ToolResult, RemoteCallError>> {
        self.calls.borrow_mut().push(RemoteCall {
            server: server.to_string(),
            tool: tool.to_owned(),
            args: args.clone(),
        });
        let handler = self.handlers.borrow().get(&(server.to_string(), tool.to_owned())).cloned();
        Box::pin(async move {
            let Some(handler) = handler else {
                return Err(RemoteCallError::Failed(format!("unknown tool {tool}")));
            };
            match handler(&args) {
                Behaviour::Reply(result) => Ok(result),
                Behaviour::Fail(message) => Err(RemoteCallError::Failed(message)),
                Behaviour::Slow(ms, result) => {
                    if let Some(clock) = &self.clock {
                        clock.sleep(ms).await;
                    }
                    Ok(result)
                }
                Behaviour::Hang => {
                    cancel.cancelled().await;
                    *self.stopped.borrow_mut() += 1;
                    Err(RemoteCallError::Cancelled)
                }
            }
        })
    }
}
