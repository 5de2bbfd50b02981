//! The host side of a view's `postMessage` channel (MCP Apps, JSON-RPC 2.0): the lifecycle
//! (`ui/initialize` answered with the host context, nothing sent before
//! `ui/notifications/initialized`, then the tool input and result), the view's requests turned into
//! work for the page, and a rate limit so a view flooding the channel cannot freeze the canvas.

use serde_json::{Map, Value, json};

use super::asks::{self, DISPLAY_MODES, Download, Link};
use crate::tool::{ResultPart, ToolResult};

/// The protocol revision this host speaks.
pub const PROTOCOL_VERSION: &str = "2026-01-26";

/// Messages a view may send per second before the rest of that second is dropped.
pub const MESSAGES_PER_SECOND: u32 = 200;

/// JSON-RPC error codes used in answers to the view.
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const REFUSED: i64 = -32000;

/// Work the page does for a view message; requests carry the id to answer with [`answer`].
#[derive(Clone, Debug, PartialEq)]
pub enum ViewAction {
    /// Post this message to the view as it is.
    Send(Value),
    /// `tools/call`: the page checks the tool (own server, visibility) and answers.
    CallTool { id: Value, name: String, arguments: Value },
    /// `resources/read` of the view's own server.
    ReadResource { id: Value, uri: String },
    /// `resources/list`, `resources/templates/list` or `prompts/list` (`method`), forwarded with
    /// the view's `params` (its cursor) to the view's own server.
    List { id: Value, method: String, params: Value },
    /// `notifications/message`: a log line for the console.
    Log { level: String, message: String },
    /// `ui/notifications/size-changed`: the view's content size in CSS pixels.
    Resize { width: Option<f64>, height: Option<f64> },
    /// `ui/notifications/request-teardown`: the view asks to be closed.
    RequestTeardown,
    /// `ui/open-link`: open `link` in a new tab once the person agrees (shown its host).
    OpenLink { id: Value, link: Link },
    /// `ui/message`: a user turn from the view (the person confirms the first one per view).
    Message { id: Value, text: String },
    /// `ui/update-model-context`: replaces what the view last told the model; travels with the
    /// next turn. Answered already.
    ModelContext { text: String },
    /// `ui/request-display-mode`: show the view in `mode` (one of [`DISPLAY_MODES`]). Answered already.
    DisplayMode { mode: String },
    /// `ui/download-file`: save these files once the person agrees.
    Download { id: Value, files: Vec<Download> },
    /// The view passed [`MESSAGES_PER_SECOND`]; its messages are dropped until the next second.
    /// Reported once per flood.
    RateLimited,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting for `ui/initialize`.
    New,
    /// Answered `ui/initialize`; waiting for `ui/notifications/initialized`.
    Answered,
    /// The view is ready for notifications.
    Ready,
}

/// One view's channel state.
#[derive(Debug)]
pub struct ViewBridge {
    phase: Phase,
    host_context: Value,
    /// Host-to-view notifications held until the view said it is initialized, in order.
    held: Vec<Value>,
    window_start_ms: f64,
    in_window: u32,
    flood_reported: bool,
    display_mode: &'static str,
}

impl ViewBridge {
    /// A bridge that will answer `ui/initialize` with `host_context` (see [`host_context`]).
    pub fn new(host_context: Value) -> ViewBridge {
        ViewBridge { phase: Phase::New, host_context, held: Vec::new(), window_start_ms: 0.0, in_window: 0, flood_reported: false, display_mode: DISPLAY_MODES[0] }
    }

    /// Whether the view finished its handshake.
    pub fn is_ready(&self) -> bool {
        self.phase == Phase::Ready
    }

    /// What to do about one message from the view, received at `now_ms`.
    pub fn receive(&mut self, message: &Value, now_ms: f64) -> Vec<ViewAction> {
        if now_ms - self.window_start_ms >= 1_000.0 || now_ms < self.window_start_ms {
            self.window_start_ms = now_ms;
            self.in_window = 0;
            self.flood_reported = false;
        }
        self.in_window += 1;
        if self.in_window > MESSAGES_PER_SECOND {
            if self.flood_reported {
                return Vec::new();
            }
            self.flood_reported = true;
            return vec![ViewAction::RateLimited];
        }
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            // Answers to our own requests (e.g. `ui/resource-teardown`) need nothing more.
            return Vec::new();
        };
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        match message.get("id").filter(|id| id.is_string() || id.is_number()).cloned() {
            Some(id) => self.request(id, method, params),
            None => self.notification(method, params),
        }
    }

    fn request(&mut self, id: Value, method: &str, params: Value) -> Vec<ViewAction> {
        let reply = |result: Result<Value, (i64, String)>| vec![ViewAction::Send(answer(id.clone(), result))];
        match method {
            "ui/initialize" => {
                if self.phase == Phase::New {
                    self.phase = Phase::Answered;
                }
                reply(Ok(json!({
                    "protocolVersion": PROTOCOL_VERSION,
                    "hostInfo": {"name": "autoui", "version": env!("CARGO_PKG_VERSION")},
                    "hostCapabilities": {
                        "logging": {},
                        "serverTools": {},
                        "serverResources": {},
                        "sandbox": {},
                        "openLinks": {},
                        "downloadFile": {},
                        "message": {"text": {}},
                        "updateModelContext": {"text": {}, "structuredContent": {}},
                    },
                    "hostContext": self.host_context,
                })))
            }
            "ping" => reply(Ok(json!({}))),
            "tools/call" => match params.get("name").and_then(Value::as_str) {
                Some(name) => vec![ViewAction::CallTool {
                    id,
                    name: name.to_owned(),
                    arguments: params.get("arguments").cloned().unwrap_or_else(|| json!({})),
                }],
                None => reply(Err((INVALID_PARAMS, "tools/call needs a tool name".to_owned()))),
            },
            "resources/read" => match params.get("uri").and_then(Value::as_str) {
                Some(uri) => vec![ViewAction::ReadResource { id, uri: uri.to_owned() }],
                None => reply(Err((INVALID_PARAMS, "resources/read needs a uri".to_owned()))),
            },
            "resources/list" | "resources/templates/list" | "prompts/list" => {
                vec![ViewAction::List { id, method: method.to_owned(), params }]
            }
            "ui/open-link" => match asks::link(&params) {
                Ok(link) => vec![ViewAction::OpenLink { id, link }],
                Err(message) => reply(Err((INVALID_PARAMS, message))),
            },
            "ui/message" => match asks::content_text(params.get("content")) {
                text if text.is_empty() => reply(Err((INVALID_PARAMS, "ui/message needs text content".to_owned()))),
                text => vec![ViewAction::Message { id, text }],
            },
            "ui/update-model-context" => {
                let mut actions = vec![ViewAction::ModelContext { text: asks::model_context(&params) }];
                actions.extend(reply(Ok(json!({}))));
                actions
            }
            "ui/request-display-mode" => {
                let asked = params.get("mode").and_then(Value::as_str).unwrap_or_default();
                if let Some(mode) = DISPLAY_MODES.iter().find(|mode| **mode == asked) {
                    self.display_mode = mode;
                }
                // Answered with the mode actually set: an unknown one leaves the current mode.
                let mut actions = vec![ViewAction::DisplayMode { mode: self.display_mode.to_owned() }];
                actions.extend(reply(Ok(json!({"mode": self.display_mode}))));
                actions
            }
            "ui/download-file" => match asks::downloads(&params) {
                Ok(files) => vec![ViewAction::Download { id, files }],
                Err(message) => reply(Err((INVALID_PARAMS, message))),
            },
            other => reply(Err((METHOD_NOT_FOUND, format!("this host does not implement \"{other}\"")))),
        }
    }

    fn notification(&mut self, method: &str, params: Value) -> Vec<ViewAction> {
        match method {
            "ui/notifications/initialized" if self.phase == Phase::Answered => {
                self.phase = Phase::Ready;
                self.held.drain(..).map(ViewAction::Send).collect()
            }
            "ui/notifications/size-changed" => {
                let number = |key: &str| params.get(key).and_then(Value::as_f64).filter(|n| n.is_finite() && *n >= 0.0);
                vec![ViewAction::Resize { width: number("width"), height: number("height") }]
            }
            "notifications/message" => {
                let level = params.get("level").and_then(Value::as_str).unwrap_or("info").to_owned();
                let message = match params.get("data") {
                    Some(Value::String(text)) => text.clone(),
                    Some(other) => other.to_string(),
                    None => String::new(),
                };
                vec![ViewAction::Log { level, message }]
            }
            "ui/notifications/request-teardown" => vec![ViewAction::RequestTeardown],
            _ => Vec::new(),
        }
    }

    /// `ui/notifications/tool-input-partial`: the arguments so far, while the model writes them.
    /// Before the view is ready only the latest is held (each one replaces the one before).
    pub fn tool_input_partial(&mut self, arguments: Value) -> Vec<Value> {
        const PARTIAL: &str = "ui/notifications/tool-input-partial";
        if self.phase != Phase::Ready {
            self.held.retain(|message| message["method"] != PARTIAL);
        }
        self.notify(PARTIAL, json!({"arguments": arguments}))
    }

    /// `ui/notifications/tool-input`: sent now when the view is ready, else held.
    pub fn tool_input(&mut self, arguments: Value) -> Vec<Value> {
        self.notify("ui/notifications/tool-input", json!({"arguments": arguments}))
    }

    /// `ui/notifications/tool-result` with the whole `CallToolResult`.
    pub fn tool_result(&mut self, result: Value) -> Vec<Value> {
        self.notify("ui/notifications/tool-result", result)
    }

    /// `ui/notifications/tool-cancelled`, when the call never finished (Stop).
    pub fn tool_cancelled(&mut self, reason: &str) -> Vec<Value> {
        self.notify("ui/notifications/tool-cancelled", json!({"reason": reason}))
    }

    /// The `ui/resource-teardown` request to send before the view's frame goes, with the id its
    /// answer will carry; `None` when the view never finished its handshake (nothing to ask).
    pub fn teardown(&mut self) -> Option<(Value, Value)> {
        if self.phase != Phase::Ready {
            return None;
        }
        let id = json!("autoui-teardown");
        let request = json!({"jsonrpc": "2.0", "id": id, "method": "ui/resource-teardown", "params": {}});
        Some((id, request))
    }

    /// `ui/notifications/host-context-changed` with the fields that changed (theme, size).
    /// The person left the fullscreen the view asked for: the view is inline again and is told so.
    pub fn leave_fullscreen(&mut self) -> Vec<Value> {
        self.display_mode = "inline";
        self.host_context_changed(json!({"displayMode": "inline"}))
    }

    pub fn host_context_changed(&mut self, changed: Value) -> Vec<Value> {
        if let (Value::Object(context), Value::Object(changes)) = (&mut self.host_context, &changed) {
            context.extend(changes.clone());
        }
        self.notify("ui/notifications/host-context-changed", changed)
    }

    fn notify(&mut self, method: &str, params: Value) -> Vec<Value> {
        let message = json!({"jsonrpc": "2.0", "method": method, "params": params});
        if self.phase == Phase::Ready {
            vec![message]
        } else {
            self.held.push(message);
            Vec::new()
        }
    }
}

/// A JSON-RPC answer to the view's request `id`: the result, or an error with its code.
pub fn answer(id: Value, result: Result<Value, (i64, String)>) -> Value {
    match result {
        Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
        Err((code, message)) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}),
    }
}

/// A result as the view's `ui/notifications/tool-result` carries it (an MCP `CallToolResult`).
pub fn call_tool_result(result: &ToolResult) -> Value {
    let content: Vec<Value> = result
        .content
        .iter()
        .map(|part| match part {
            ResultPart::Text { text } => json!({"type": "text", "text": text}),
            ResultPart::Image { media_type, data } => json!({"type": "image", "mimeType": media_type, "data": data}),
        })
        .collect();
    let mut value = json!({"content": content, "isError": result.is_error});
    if let Some(structured) = &result.structured {
        value["structuredContent"] = structured.clone();
    }
    value
}

/// The page's design tokens under the specification's standard CSS variable names: (standard
/// name, our token). The page reads each token's computed value for the current theme.
pub const STYLE_VARIABLES: &[(&str, &str)] = &[
    ("--color-background-primary", "--au-surface"),
    ("--color-background-secondary", "--au-surface-2"),
    ("--color-background-tertiary", "--au-bg"),
    ("--color-background-info", "--au-info"),
    ("--color-background-danger", "--au-danger"),
    ("--color-background-success", "--au-success"),
    ("--color-background-warning", "--au-warning"),
    ("--color-text-primary", "--au-text"),
    ("--color-text-secondary", "--au-text-2"),
    ("--color-text-info", "--au-info"),
    ("--color-text-danger", "--au-danger"),
    ("--color-text-success", "--au-success"),
    ("--color-text-warning", "--au-warning"),
    ("--color-border-primary", "--au-border"),
    ("--color-border-secondary", "--au-border-2"),
    ("--color-ring-primary", "--au-focus"),
    ("--font-sans", "--au-font-sans"),
    ("--font-mono", "--au-font-mono"),
    ("--font-text-xs-size", "--au-text-xs"),
    ("--font-text-sm-size", "--au-text-sm"),
    ("--font-text-md-size", "--au-text-md"),
    ("--font-text-lg-size", "--au-text-lg"),
    ("--border-radius-sm", "--au-radius-sm"),
    ("--border-radius-md", "--au-radius"),
    ("--border-radius-lg", "--au-radius-lg"),
    ("--shadow-sm", "--au-shadow"),
    ("--shadow-lg", "--au-shadow-lg"),
];

/// What the page tells a view about where it runs.
#[derive(Clone, Debug, PartialEq)]
pub struct HostFacts {
    pub dark: bool,
    /// Standard variable name to its value (from [`STYLE_VARIABLES`]; empty values left out).
    pub variables: Vec<(String, String)>,
    /// The widget's width when it is known (not before the frame is laid out).
    pub width: Option<u32>,
    pub max_height: u32,
    pub locale: String,
    pub time_zone: String,
    /// The call that made the view: its id and the tool as listed.
    pub tool_call_id: String,
    pub tool: Value,
}

/// `hostContext` of the `ui/initialize` answer.
pub fn host_context(facts: &HostFacts) -> Value {
    let variables: Map<String, Value> = facts
        .variables
        .iter()
        .filter(|(_, value)| !value.trim().is_empty())
        .map(|(name, value)| (name.clone(), Value::String(value.trim().to_owned())))
        .collect();
    json!({
        "toolInfo": {"id": facts.tool_call_id, "tool": facts.tool},
        "theme": theme_name(facts.dark),
        "styles": {"variables": variables},
        "displayMode": "inline",
        "availableDisplayModes": DISPLAY_MODES,
        "containerDimensions": match facts.width {
            Some(width) => json!({"width": width, "maxHeight": facts.max_height}),
            None => json!({"maxHeight": facts.max_height}),
        },
        "locale": facts.locale,
        "timeZone": facts.time_zone,
        "platform": "web",
        "userAgent": "autoui",
    })
}

pub fn theme_name(dark: bool) -> &'static str {
    if dark { "dark" } else { "light" }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(id: i64, method: &str, params: Value) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
    }

    fn notification(method: &str, params: Value) -> Value {
        json!({"jsonrpc": "2.0", "method": method, "params": params})
    }

    fn sent(actions: Vec<ViewAction>) -> Vec<Value> {
        actions
            .into_iter()
            .map(|action| match action {
                ViewAction::Send(message) => message,
                other => panic!("expected a message to send, got {other:?}"),
            })
            .collect()
    }

    fn facts() -> HostFacts {
        HostFacts {
            dark: true,
            variables: vec![("--color-text-primary".into(), " #eee ".into()), ("--font-sans".into(), "".into())],
            width: Some(480),
            max_height: 600,
            locale: "en-GB".into(),
            time_zone: "Europe/Paris".into(),
            tool_call_id: "call_1".into(),
            tool: json!({"name": "get-time"}),
        }
    }

    #[test]
    fn initialize_is_answered_with_the_host_context_and_nothing_is_sent_before_initialized() {
        let mut bridge = ViewBridge::new(host_context(&facts()));
        assert!(bridge.tool_input(json!({"tz": "UTC"})).is_empty(), "held before the handshake");
        let answer = sent(bridge.receive(&request(1, "ui/initialize", json!({"protocolVersion": "1999-01-01"})), 0.0));
        let result = &answer[0]["result"];
        assert_eq!(answer[0]["id"], 1);
        assert_eq!(result["protocolVersion"], PROTOCOL_VERSION, "an unknown version gets ours");
        assert_eq!(result["hostContext"]["theme"], "dark");
        assert_eq!(result["hostContext"]["styles"]["variables"], json!({"--color-text-primary": "#eee"}));
        assert_eq!(result["hostContext"]["containerDimensions"], json!({"width": 480, "maxHeight": 600}));
        assert_eq!(result["hostContext"]["toolInfo"]["tool"]["name"], "get-time");
        assert!(bridge.tool_result(json!({"content": []})).is_empty(), "still held until initialized");
        let released = sent(bridge.receive(&notification("ui/notifications/initialized", json!({})), 1.0));
        let methods: Vec<&str> = released.iter().map(|m| m["method"].as_str().unwrap()).collect();
        assert_eq!(methods, ["ui/notifications/tool-input", "ui/notifications/tool-result"]);
        assert_eq!(released[0]["params"]["arguments"]["tz"], "UTC");
        assert_eq!(bridge.tool_cancelled("stopped")[0]["params"]["reason"], "stopped", "sent at once when ready");
    }

    #[test]
    fn a_view_the_person_takes_out_of_fullscreen_is_told_it_is_inline() {
        let mut bridge = ViewBridge::new(json!({"displayMode": "inline"}));
        bridge.receive(&request(1, "ui/initialize", json!({})), 0.0);
        bridge.receive(&notification("ui/notifications/initialized", json!({})), 0.0);
        bridge.receive(&request(2, "ui/request-display-mode", json!({"mode": "fullscreen"})), 0.0);
        let told = bridge.leave_fullscreen();
        assert_eq!(told.len(), 1, "{told:?}");
        assert_eq!(told[0]["method"], "ui/notifications/host-context-changed");
        assert_eq!(told[0]["params"], json!({"displayMode": "inline"}));
        let asked = bridge.receive(&request(3, "ui/request-display-mode", json!({"mode": "pip"})), 0.0);
        assert_eq!(asked[1], ViewAction::Send(answer(json!(3), Ok(json!({"mode": "inline"})))), "the mode now set");
    }

    #[test]
    fn teardown_is_asked_only_of_a_view_that_finished_its_handshake() {
        let mut bridge = ViewBridge::new(json!({}));
        assert!(bridge.teardown().is_none(), "a view still loading has nothing to save");
        bridge.receive(&request(1, "ui/initialize", json!({})), 0.0);
        bridge.receive(&notification("ui/notifications/initialized", json!({})), 0.0);
        let (id, request) = bridge.teardown().expect("a ready view is asked");
        assert_eq!(request["method"], "ui/resource-teardown");
        assert_eq!(request["id"], id);
        assert!(bridge.receive(&json!({"jsonrpc": "2.0", "id": id, "result": {}}), 1.0).is_empty(), "its answer needs nothing more");
    }

    #[test]
    fn partial_inputs_come_before_the_input_and_only_the_latest_waits_for_the_handshake() {
        let mut bridge = ViewBridge::new(json!({}));
        bridge.tool_input_partial(json!({"city": "Par"}));
        bridge.tool_input_partial(json!({"city": "Paris"}));
        bridge.receive(&request(1, "ui/initialize", json!({})), 0.0);
        let released = sent(bridge.receive(&notification("ui/notifications/initialized", json!({})), 0.0));
        assert_eq!(released.len(), 1, "{released:?}");
        assert_eq!(released[0]["method"], "ui/notifications/tool-input-partial");
        assert_eq!(released[0]["params"]["arguments"]["city"], "Paris");
        let more = bridge.tool_input_partial(json!({"city": "Paris", "days": 3}));
        assert_eq!(more[0]["params"]["arguments"]["days"], 3, "sent at once when ready");
        assert_eq!(bridge.tool_input(json!({"city": "Paris", "days": 3}))[0]["method"], "ui/notifications/tool-input");
    }

    #[test]
    fn initialized_before_initialize_does_not_open_the_channel() {
        let mut bridge = ViewBridge::new(json!({}));
        assert!(bridge.receive(&notification("ui/notifications/initialized", json!({})), 0.0).is_empty());
        assert!(!bridge.is_ready());
        assert!(bridge.tool_input(json!({})).is_empty());
    }

    #[test]
    fn requests_become_work_for_the_page_and_unknown_ones_are_refused() {
        let mut bridge = ViewBridge::new(json!({}));
        assert_eq!(
            bridge.receive(&request(7, "tools/call", json!({"name": "get-time", "arguments": {"a": 1}})), 0.0),
            [ViewAction::CallTool { id: json!(7), name: "get-time".into(), arguments: json!({"a": 1}) }]
        );
        assert_eq!(
            bridge.receive(&request(8, "resources/read", json!({"uri": "ui://x"})), 0.0),
            [ViewAction::ReadResource { id: json!(8), uri: "ui://x".into() }]
        );
        assert_eq!(
            bridge.receive(&request(12, "prompts/list", json!({"cursor": "p2"})), 0.0),
            [ViewAction::List { id: json!(12), method: "prompts/list".into(), params: json!({"cursor": "p2"}) }]
        );
        assert_eq!(
            bridge.receive(&request(13, "resources/templates/list", json!({})), 0.0),
            [ViewAction::List { id: json!(13), method: "resources/templates/list".into(), params: json!({}) }]
        );
        assert_eq!(sent(bridge.receive(&request(9, "ping", json!({})), 0.0))[0]["result"], json!({}));
        let refused = sent(bridge.receive(&request(10, "sampling/createMessage", json!({})), 0.0));
        assert_eq!(refused[0]["error"]["code"], METHOD_NOT_FOUND);
        let nameless = sent(bridge.receive(&request(11, "tools/call", json!({})), 0.0));
        assert_eq!(nameless[0]["error"]["code"], INVALID_PARAMS);
    }

    #[test]
    fn asks_of_the_person_wait_for_the_page_and_display_modes_stay_within_those_offered() {
        let mut bridge = ViewBridge::new(json!({}));
        let link = bridge.receive(&request(1, "ui/open-link", json!({"url": "https://example.org/x"})), 0.0);
        assert!(matches!(&link[..], [ViewAction::OpenLink { link, .. }] if link.host == "example.org"));
        let script = sent(bridge.receive(&request(2, "ui/open-link", json!({"url": "javascript:alert(1)"})), 0.0));
        assert_eq!(script[0]["error"]["code"], INVALID_PARAMS);
        let message = bridge.receive(&request(3, "ui/message", json!({"role": "user", "content": [{"type": "text", "text": "Explain"}]})), 0.0);
        assert_eq!(message, [ViewAction::Message { id: json!(3), text: "Explain".into() }]);
        let context = bridge.receive(&request(4, "ui/update-model-context", json!({"structuredContent": {"a": 1}})), 0.0);
        assert_eq!(context[0], ViewAction::ModelContext { text: "{\"a\":1}".into() });
        assert_eq!(context[1], ViewAction::Send(answer(json!(4), Ok(json!({})))));
        let full = bridge.receive(&request(5, "ui/request-display-mode", json!({"mode": "fullscreen"})), 0.0);
        assert_eq!(full[0], ViewAction::DisplayMode { mode: "fullscreen".into() });
        assert_eq!(full[1], ViewAction::Send(answer(json!(5), Ok(json!({"mode": "fullscreen"})))));
        let pip = bridge.receive(&request(6, "ui/request-display-mode", json!({"mode": "pip"})), 0.0);
        assert_eq!(pip[1], ViewAction::Send(answer(json!(6), Ok(json!({"mode": "fullscreen"})))), "the mode actually set");
        let file = bridge.receive(&request(7, "ui/download-file", json!({"contents": [{"type": "resource", "resource": {"uri": "a.txt", "text": "x"}}]})), 0.0);
        assert!(matches!(&file[..], [ViewAction::Download { files, .. }] if files[0].name == "a.txt"));
    }

    #[test]
    fn notifications_resize_log_and_ask_for_teardown() {
        let mut bridge = ViewBridge::new(json!({}));
        assert_eq!(
            bridge.receive(&notification("ui/notifications/size-changed", json!({"height": 321.5, "width": -3})), 0.0),
            [ViewAction::Resize { width: None, height: Some(321.5) }]
        );
        assert_eq!(
            bridge.receive(&notification("notifications/message", json!({"level": "warning", "data": {"cpu": 99}})), 0.0),
            [ViewAction::Log { level: "warning".into(), message: "{\"cpu\":99}".into() }]
        );
        assert_eq!(bridge.receive(&notification("ui/notifications/request-teardown", json!({})), 0.0), [ViewAction::RequestTeardown]);
    }

    #[test]
    fn a_flood_is_cut_at_the_rate_limit_and_reported_once_per_second() {
        let mut bridge = ViewBridge::new(json!({}));
        let ping = request(1, "ping", json!({}));
        let mut answered = 0;
        let mut reported = 0;
        for n in 0..10_000 {
            for action in bridge.receive(&ping, n as f64 * 0.1) {
                match action {
                    ViewAction::Send(_) => answered += 1,
                    ViewAction::RateLimited => reported += 1,
                    other => panic!("{other:?}"),
                }
            }
        }
        // 10,000 messages over one second: only the first MESSAGES_PER_SECOND are handled.
        assert_eq!(answered, MESSAGES_PER_SECOND);
        assert_eq!(reported, 1);
        assert_eq!(bridge.receive(&ping, 1_000.0).len(), 1, "the next second starts afresh");
    }

    #[test]
    fn a_host_context_change_updates_what_a_later_initialize_gets() {
        let mut bridge = ViewBridge::new(json!({"theme": "light"}));
        assert!(bridge.host_context_changed(json!({"theme": "dark"})).is_empty());
        let answer = sent(bridge.receive(&request(1, "ui/initialize", json!({})), 0.0));
        assert_eq!(answer[0]["result"]["hostContext"]["theme"], "dark");
    }
}
