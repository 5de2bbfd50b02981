//! `mcp-app` widget: an MCP server's own view (MCP Apps). The view's HTML (fetched and cached by
//! the hub, its policy put first in its `<head>`) runs two frames deep: our proxy page
//! (`public/sandbox.html`, or the deployment's `<meta name="autoui-sandbox-url">`) in an
//! `<iframe sandbox="allow-scripts">` (an opaque origin: no access to this page, its storage or its
//! keys) renders it in an inner sandboxed frame. Messages count only from our own frame; the
//! channel's protocol is `autoui_core::mcp::apps::bridge`, and the view's requests go to its own
//! server only (`McpHub::call_from_view`), each shown in the console as coming from the view.
//! The view is placed when its call starts: it gets the input at once and the result (or
//! `tool-cancelled`) when the call ends, in the same frame. Before its block is removed, the view
//! is asked to tear down (`ui/resource-teardown`) and its frame waits for the answer, a bounded time.

use autoui_core::cancel::CancelToken;
use autoui_core::tool::Origin;
use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::canvas::op::Op;
use autoui_core::ids::{BlockId, ServerId};
use autoui_core::mcp::hub::ServerStatus;
use autoui_core::mcp::apps::bridge::{
    HostFacts, REFUSED, STYLE_VARIABLES, ViewAction, ViewBridge, answer, call_tool_result, host_context, theme_name,
};
use autoui_core::view::fields::{Fields, Read};
use leptos::html::Iframe;
use leptos::prelude::*;
use leptos::reactive::owner::LocalStorage;
use serde_json::{Value, json};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::MessageEvent;

use crate::adapters::confirm::confirm;
use crate::adapters::download::download_bytes;
use crate::adapters::theme::shows_dark;
use crate::state::agent::AgentCtx;
use crate::state::canvas::CanvasCtx;
use crate::state::engine::EngineCtx;
use crate::state::servers::ServersCtx;
use crate::state::settings::{SystemDark, use_settings};
use crate::widgets::WidgetProps;
use crate::widgets::common::{ContentResized, WidgetError, WidgetTitle, parse, sandbox_proxy_url};

/// Frame height before the view says its size, and the range a view may ask for, in pixels.
const DEFAULT_HEIGHT: f64 = 320.0;
const HEIGHT_RANGE: (f64, f64) = (60.0, 2_000.0);
/// How long a removed view's frame waits for its answer to `ui/resource-teardown`.
const TEARDOWN_WAIT_MS: u64 = 1_000;
const PROXY_READY: &str = "ui/notifications/sandbox-proxy-ready";
const RESOURCE_READY: &str = "ui/notifications/sandbox-resource-ready";

#[derive(Clone, Debug, Default, PartialEq)]
pub struct McpAppData {
    pub server: String,
    pub tool: String,
    pub uri: String,
    /// Absent while the model is still writing the call.
    pub input: Option<Value>,
    pub result: Value,
    /// Why the call ended without a result (Stop, a timeout, a lost connection).
    pub cancelled: Option<String>,
    pub call_id: Option<String>,
    pub title: Option<String>,
}

impl McpAppData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(McpAppData {
            server: fields.required_text("server")?,
            tool: fields.required_text("tool")?,
            uri: fields.required_text("uri")?,
            input: fields.value("input").cloned(),
            result: fields.value("result").cloned().unwrap_or_default(),
            cancelled: fields.text("cancelled")?,
            call_id: fields.text("call_id")?,
            title: fields.text("title")?,
        })
    }
}

/// How a view's call ended, when it did.
#[derive(Clone, Debug, PartialEq)]
pub enum CallEnd {
    Result(Value),
    Cancelled(String),
}

impl CallEnd {
    fn of(app: &McpAppData) -> Option<CallEnd> {
        match (&app.result, &app.cancelled) {
            (Value::Null, None) => None,
            (Value::Null, Some(reason)) => Some(CallEnd::Cancelled(reason.clone())),
            (result, _) => Some(CallEnd::Result(result.clone())),
        }
    }
}

#[component]
pub fn McpApp(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    let block = props.id;
    let parsed = Memo::new(move |_| data.with(|value| parse(value, McpAppData::read)));
    // The frame is made from the call as it started; its end and its title (a rename) reach the
    // running view, which a new frame would start over.
    let app = Memo::new(move |_| {
        parsed.get().map(|app| McpAppData { input: None, result: Value::Null, cancelled: None, title: None, ..app })
    });
    let title = Memo::new(move |_| parsed.with(|app| app.as_ref().ok().and_then(|app| app.title.clone())));
    let call = Memo::new(move |_| parsed.with(|app| app.as_ref().ok().map(|app| (app.input.clone(), CallEnd::of(app)))));
    // Absent where a widget is mounted alone (browser tests): then there is no server to ask.
    let engine = use_context::<EngineCtx>();
    // A canvas from a share link or a file names a server and a tool; the view runs only once the
    // person asks, and only from their own connection to that server (never HTML from the link).
    let foreign = use_context::<CanvasCtx>().is_some_and(|canvas| canvas.foreign_untracked().is_some());
    let connect = RwSignal::new(!foreign);
    Effect::new(move |_| {
        if let (true, Some(engine)) = (connect.get(), engine) {
            engine.request();
        }
    });
    // A view restored with the page waits for its server, which the engine connects again once it
    // starts (and provides the servers then); once shown, it stays through a reconnection rather
    // than restarting.
    let server_up = Memo::new(move |was: Option<&bool>| {
        if was.copied().unwrap_or(false) {
            return true;
        }
        if !engine.is_some_and(|engine| engine.is_ready()) {
            return false;
        }
        app.with(|app| app.as_ref().ok().map(|app| ServerId::sanitize(&app.server)))
            .and_then(|prefix| use_context::<ServersCtx>()?.by_prefix(&prefix))
            .is_none_or(|(_, status)| !matches!(status, ServerStatus::Connecting | ServerStatus::Reconnecting { .. }))
    });
    move || match app.get() {
        Err(message) => view! { <WidgetError message /> }.into_any(),
        Ok(app) if !connect.get() => view! {
            <div class="au-mcp-app au-mcp-app--card" data-testid="mcp-app-card">
                {move || view! { <WidgetTitle title=title.get() /> }}
                <p class="au-mcp-app__status">{format!("An interactive view of \"{}\" from the MCP server \"{}\".", app.tool, app.server)}</p>
                <button class="au-button" data-testid="mcp-app-connect" on:click=move |_| connect.set(true)>"Connect to view"</button>
            </div>
        }
        .into_any(),
        // The hub lives in the engine: a view restored before it started, or before its server
        // connected, waits.
        Ok(_) if !server_up.get() => view! {
            <div class="au-mcp-app"><p class="au-mcp-app__status">"Connecting to the view's server…"</p></div>
        }
        .into_any(),
        Ok(app) => match (use_context::<ServersCtx>(), use_context::<ViewFrames>()) {
            (Some(servers), Some(frames)) => (frames.0)(app, title, call, block.clone(), servers),
            _ => view! { <WidgetError message="No MCP servers here to show this view" /> }.into_any(),
        },
    }
}

/// Makes a view's frames; provided by the engine chunk, whose hub the frames talk to. The widget
/// reaches them only through this context, so the hub's code is not downloaded with the widgets
/// (the gallery renders every widget without it).
#[derive(Clone, Copy)]
pub struct ViewFrames(pub fn(McpAppData, Memo<Option<String>>, CallSoFar, BlockId, ServersCtx) -> AnyView);

/// The view's call as it goes: its input once complete, and how it ended once it did.
pub type CallSoFar = Memo<Option<(Option<Value>, Option<CallEnd>)>>;

impl ViewFrames {
    pub fn provide() {
        provide_context(ViewFrames(|app, title, call, block, servers| view! { <ViewFrame app title call block servers /> }.into_any()));
    }
}

/// The frames for one view, its channel and what it asks of the page.
#[component]
fn ViewFrame(
    app: McpAppData,
    title: Memo<Option<String>>,
    call: CallSoFar,
    block: BlockId,
    servers: ServersCtx,
) -> impl IntoView {
    let end = Memo::new(move |_| call.with(|call| call.as_ref().and_then(|(_, end)| end.clone())));
    let frame = NodeRef::<Iframe>::new();
    // The view's document and the device permissions the person granted it (the frame's
    // `allow`); the frames are made once both are known, since `allow` counts only at load.
    let document_html = RwSignal::new(None::<(String, String)>);
    let proxy_ready = RwSignal::new(false);
    let failure = RwSignal::new(None::<String>);
    let height = RwSignal::new(DEFAULT_HEIGHT);
    // The canvas frame around the view, which may grow to the height the view says.
    let resized = use_context::<ContentResized>();
    let fullscreen = RwSignal::new(false);
    // The person agreed to this view sending turns as them (asked once per view).
    let messages_agreed = StoredValue::new(false);
    let server = ServerId::sanitize(&app.server);
    let agent = use_context::<AgentCtx>();
    let settings = use_settings();

    let facts = HostFacts {
        dark: shows_dark(),
        variables: style_variables(),
        width: None,
        max_height: HEIGHT_RANGE.1 as u32,
        locale: window().navigator().language().unwrap_or_else(|| "en".to_owned()),
        time_zone: time_zone(),
        tool_call_id: app.call_id.clone().unwrap_or_default(),
        // The tool as MCP lists it (the view's SDK checks its shape).
        tool: servers.tools_of(&server).iter().find(|tool| tool.name == app.tool).map_or_else(
            || json!({"name": app.tool, "inputSchema": {"type": "object"}}),
            |tool| {
                let mut listed = json!({"name": tool.name, "description": tool.description, "inputSchema": tool.input_schema});
                if let Some(title) = &tool.title {
                    listed["title"] = json!(title);
                }
                listed
            },
        ),
    };
    let bridge = StoredValue::new_local(ViewBridge::new(host_context(&facts)));

    let hub = servers.hub();
    {
        let (hub, server, uri) = (hub.clone(), server.clone(), app.uri.clone());
        let asker = format!("The view of \"{}\" ({})", app.server, app.tool);
        wasm_bindgen_futures::spawn_local(async move {
            match hub.view(&server, &uri, CancelToken::new()).await {
                Ok(view) => {
                    let asked = view.meta.permissions.asked();
                    let words: Vec<&str> = asked.iter().map(|(_, words)| *words).collect();
                    let granted = !asked.is_empty()
                        && confirm(&format!("{asker} asks to use {}. Allow it?", words.join(", ")));
                    let allow = if granted { view.meta.permissions.allow_attribute() } else { String::new() };
                    document_html.try_set(Some((view.sandboxed_document(), allow)));
                }
                Err(error) => {
                    failure.try_set(Some(error));
                }
            }
        });
    }

    // Also called when a view's request is answered, which may be after the widget was removed.
    let post = move |message: &Value| {
        let Some(target) = frame.try_get_untracked().flatten().and_then(|f| f.content_window()) else { return };
        if let Ok(value) = js_sys::JSON::parse(&message.to_string()) {
            // The proxy has an opaque origin, which no target origin but "*" names.
            let _ = target.post_message(&value, "*");
        }
    };
    // The call as it goes, in the specification's order: the arguments as the model writes them
    // (`tool-input-partial`), then once each, the complete input and the end (result or
    // cancellation). At once for a view restored with them; as they come for one placed as its
    // call started. A call still running when the page was reloaded never ends.
    let running = move || agent.is_some_and(|agent| agent.is_running());
    let call_id = app.call_id.clone().unwrap_or_default();
    let (input_sent, ended) = (StoredValue::new(false), StoredValue::new(false));
    Effect::new(move |_| {
        let (input, end) = call.get().unwrap_or_default();
        let end = end.or_else(|| {
            (!running()).then(|| CallEnd::Cancelled("its result never reached this page (it was reloaded while the call ran)".to_owned()))
        });
        let mut outgoing = Vec::new();
        bridge.try_update_value(|bridge| {
            match input {
                Some(input) if !input_sent.get_value() => {
                    input_sent.set_value(true);
                    outgoing.extend(bridge.tool_input(input));
                }
                None => {
                    let partial = agent.and_then(|agent| agent.partial_input(&call_id));
                    outgoing.extend(partial.map(|partial| bridge.tool_input_partial(partial)).unwrap_or_default());
                }
                Some(_) => {}
            }
            if let Some(end) = end.filter(|_| !ended.get_value()) {
                ended.set_value(true);
                outgoing.extend(match end {
                    CallEnd::Result(result) => bridge.tool_result(result),
                    CallEnd::Cancelled(reason) => bridge.tool_cancelled(&reason),
                });
            }
        });
        outgoing.iter().for_each(post);
    });
    // Asked to tear down before the block goes (see `tear_down`).
    let canvas = use_context::<CanvasCtx>();
    let own_block = block.clone();
    if let Some(canvas) = canvas {
        let (agent, name) = (agent, format!("{server} (view)"));
        let token = canvas.before_removal(block.clone(), move || tear_down(frame, bridge, agent, name));
        on_cleanup(move || canvas.forget_before_removal(&block, token));
    }
    // The view's HTML goes to the proxy once both are there, once.
    Effect::new(move |sent: Option<bool>| {
        if sent == Some(true) {
            return true;
        }
        let ready = proxy_ready.get();
        match document_html.get() {
            Some((html, allow)) if ready => {
                post(&json!({"jsonrpc": "2.0", "method": RESOURCE_READY,
                    "params": {"html": html, "sandbox": "allow-scripts allow-forms", "allow": allow}}));
                true
            }
            _ => false,
        }
    });
    // A theme switch, the person's or the system's, reaches the view as a host context change.
    let system_dark = use_context::<SystemDark>();
    Effect::new(move |first: Option<()>| {
        settings.0.with(|settings| settings.theme);
        if let Some(SystemDark(dark)) = system_dark {
            dark.track();
        }
        if first.is_none() {
            return;
        }
        // After the theme attribute changed: read the tokens on the next task.
        set_timeout(
            move || {
                let changed = json!({"theme": theme_name(shows_dark()), "styles": {"variables": variables_json()}});
                let outgoing = bridge.try_update_value(|bridge| bridge.host_context_changed(changed)).unwrap_or_default();
                outgoing.iter().for_each(post);
            },
            std::time::Duration::ZERO,
        );
    });

    let view_name = StoredValue::new(format!("{server} (view)"));
    let described = StoredValue::new(format!("the view of \"{}\" ({})", app.server, app.tool));
    let log = move |level: &str, message: String| {
        if let (Some(agent), Some(name)) = (agent, view_name.try_get_value()) {
            agent.server_log(name, level.to_owned(), Some("view".to_owned()), message);
        }
    };
    let server_for_messages = ServerId::sanitize(&app.server);
    let listener = window_event_listener(leptos::ev::message, move |event: MessageEvent| {
        let Some(own) = frame.get_untracked().and_then(|f| f.content_window()) else { return };
        let own: &JsValue = own.as_ref();
        if event.source().is_none_or(|source| AsRef::<JsValue>::as_ref(&source) != own) {
            return;
        }
        let Some(message) = js_sys::JSON::stringify(&event.data())
            .ok()
            .and_then(|text| text.as_string())
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        else {
            return;
        };
        if message.get("method").and_then(Value::as_str) == Some(PROXY_READY) {
            proxy_ready.set(true);
            return;
        }
        let now = window().performance().map_or(0.0, |performance| performance.now());
        let actions = bridge.try_update_value(|bridge| bridge.receive(&message, now)).unwrap_or_default();
        for action in actions {
            match action {
                ViewAction::Send(reply) => post(&reply),
                ViewAction::CallTool { id, name, arguments } => {
                    let (hub, server) = (hub.clone(), server_for_messages.clone());
                    wasm_bindgen_futures::spawn_local(async move {
                        let outcome = hub.call_from_view(&server, &name, arguments, CancelToken::new()).await;
                        let (level, line) = match &outcome {
                            Ok(result) if result.is_error => ("warning", format!("tools/call {name}: the tool failed")),
                            Ok(_) => ("info", format!("tools/call {name}")),
                            Err(error) => ("warning", format!("tools/call {name} refused: {error}")),
                        };
                        log(level, line);
                        post(&answer(id, outcome.map(|result| call_tool_result(&result)).map_err(|error| (REFUSED, error))));
                    });
                }
                ViewAction::ReadResource { id, uri } => {
                    let (hub, server) = (hub.clone(), server_for_messages.clone());
                    wasm_bindgen_futures::spawn_local(async move {
                        use autoui_core::remote::RemoteServers;
                        let outcome = hub.read_resource(&server, &uri, CancelToken::new()).await;
                        let result = outcome
                            .map(|read| json!({"contents": [{"uri": uri, "text": read.text_content()}]}))
                            .map_err(|error| (REFUSED, error.to_string()));
                        post(&answer(id, result));
                    });
                }
                ViewAction::List { id, method, params } => {
                    let (hub, server) = (hub.clone(), server_for_messages.clone());
                    wasm_bindgen_futures::spawn_local(async move {
                        let cursor = params.get("cursor").and_then(Value::as_str).map(str::to_owned);
                        let outcome = hub.list_for_view(&server, &method, cursor, CancelToken::new()).await;
                        match &outcome {
                            Ok(_) => log("info", method),
                            Err(error) => log("warning", format!("{method} refused: {error}")),
                        }
                        post(&answer(id, outcome.map_err(|error| (REFUSED, error))));
                    });
                }
                ViewAction::Log { level, message } => log(&level, message),
                ViewAction::Resize { height: Some(asked), .. } => {
                    height.set(asked.clamp(HEIGHT_RANGE.0, HEIGHT_RANGE.1));
                    if let Some(ContentResized(resized)) = resized {
                        resized.run(());
                    }
                }
                ViewAction::Resize { .. } => {}
                ViewAction::OpenLink { id, link } => {
                    let question = format!(
                        "{} wants to open a page on {}:\n{}\n\nOpen it in a new tab?",
                        capitalised(&described.get_value()),
                        link.host,
                        link.url
                    );
                    let opened = confirm(&question)
                        && window().open_with_url_and_target_and_features(&link.url, "_blank", "noopener,noreferrer").is_ok();
                    log("info", format!("ui/open-link {}: {}", link.url, if opened { "opened" } else { "declined" }));
                    post(&answer(id, Ok(if opened { json!({}) } else { json!({"isError": true}) })));
                }
                ViewAction::Message { id, text } => {
                    let agreed = messages_agreed.get_value()
                        || confirm(&format!(
                            "{} wants to send this message to the assistant as you:\n\n{text}\n\nSend it (and its later messages)?",
                            capitalised(&described.get_value())
                        ));
                    messages_agreed.set_value(agreed);
                    match agent.filter(|_| agreed) {
                        Some(agent) => {
                            let turn = format!("[From {}] {text}", described.get_value());
                            agent.send_shown(turn.clone(), turn);
                            post(&answer(id, Ok(json!({}))));
                        }
                        None => {
                            log("info", "ui/message: declined".to_owned());
                            post(&answer(id, Ok(json!({"isError": true}))));
                        }
                    }
                }
                ViewAction::ModelContext { text } => {
                    if let Some(agent) = agent {
                        agent.set_view_context(capitalised(&described.get_value()), text);
                    }
                }
                ViewAction::DisplayMode { mode } => {
                    fullscreen.set(mode == "fullscreen");
                    let changed = json!({"displayMode": mode});
                    let outgoing = bridge.try_update_value(|bridge| bridge.host_context_changed(changed)).unwrap_or_default();
                    outgoing.iter().for_each(post);
                }
                ViewAction::Download { id, files } => {
                    let names: Vec<&str> = files.iter().map(|file| file.name.as_str()).collect();
                    let question =
                        format!("{} wants to save {}. Save?", capitalised(&described.get_value()), names.join(", "));
                    let saved = confirm(&question)
                        && files.iter().all(|file| download_bytes(&file.name, &file.mime_type, &file.bytes));
                    log("info", format!("ui/download-file {}: {}", names.join(", "), if saved { "saved" } else { "declined" }));
                    post(&answer(id, Ok(if saved { json!({}) } else { json!({"isError": true}) })));
                }
                ViewAction::RequestTeardown => {
                    let close = confirm(&format!("{} asks to be closed. Remove it from the canvas?", capitalised(&described.get_value())));
                    let removed = close
                        && canvas.is_some_and(|canvas| canvas.apply(Op::Remove { id: own_block.clone() }, Origin::User).is_ok());
                    if !removed {
                        log("info", "the view asked to be closed; it stays".to_owned());
                    }
                }
                ViewAction::RateLimited => log(
                    "warning",
                    format!(
                        "the view sent more than {} messages in a second; the rest of that second were dropped",
                        autoui_core::mcp::apps::bridge::MESSAGES_PER_SECOND
                    ),
                ),
            }
        }
    });
    on_cleanup(move || listener.remove());

    // The view is told its container's width once it is laid out, and again as the widget is resized.
    let wrapper = NodeRef::<leptos::html::Div>::new();
    let told_width = StoredValue::new(None::<u32>);
    let observer = StoredValue::new_local(None::<(web_sys::ResizeObserver, Closure<dyn FnMut()>)>);
    Effect::new(move |_| {
        let Some(element) = wrapper.get() else { return };
        if observer.with_value(Option::is_some) {
            return;
        }
        let measured = element.clone();
        let callback = Closure::<dyn FnMut()>::new(move || {
            let width = u32::try_from(measured.client_width()).unwrap_or(0);
            if width == 0 || told_width.get_value() == Some(width) {
                return;
            }
            told_width.set_value(Some(width));
            let changed = json!({"containerDimensions": {"width": width, "maxHeight": HEIGHT_RANGE.1 as u32}});
            let outgoing = bridge.try_update_value(|bridge| bridge.host_context_changed(changed)).unwrap_or_default();
            outgoing.iter().for_each(post);
        });
        if let Ok(resize) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
            resize.observe(&element);
            observer.set_value(Some((resize, callback)));
        }
    });
    on_cleanup(move || {
        observer.try_update_value(|slot| {
            if let Some((resize, _callback)) = slot.take() {
                resize.disconnect();
            }
        });
    });

    // The view may ask for fullscreen and never ask back: the person can always leave it (the button,
    // or Escape while the focus is on the page rather than in the view).
    let leave_fullscreen = move || {
        fullscreen.set(false);
        let outgoing = bridge.try_update_value(|bridge| bridge.leave_fullscreen()).unwrap_or_default();
        outgoing.iter().for_each(post);
    };
    let escape = window_event_listener(leptos::ev::keydown, move |event| {
        if event.key() == "Escape" && fullscreen.get_untracked() {
            event.prevent_default();
            leave_fullscreen();
        }
    });
    on_cleanup(move || escape.remove());

    // Fullscreen covers the page: what is behind it is made inert, so Tab never reaches what cannot
    // be seen (the exit button is inside the widget).
    let made_inert = StoredValue::new_local(Vec::<web_sys::Element>::new());
    let release = move || {
        made_inert.try_update_value(|elements| {
            for element in elements.drain(..) {
                let _ = element.remove_attribute("inert");
            }
        });
    };
    Effect::new(move |_| {
        let covering = fullscreen.get();
        release();
        let Some(widget) = wrapper.get_untracked().filter(|_| covering) else { return };
        let mut current: web_sys::Element = widget.into();
        let mut behind = Vec::new();
        while let Some(parent) = current.parent_element() {
            let siblings = parent.children();
            for index in 0..siblings.length() {
                if let Some(sibling) = siblings.item(index)
                    && sibling != current
                    && !sibling.has_attribute("inert")
                {
                    let _ = sibling.set_attribute("inert", "");
                    behind.push(sibling);
                }
            }
            if parent.tag_name() == "BODY" {
                break;
            }
            current = parent;
        }
        made_inert.set_value(behind);
    });
    on_cleanup(release);

    let unnamed = format!("{} · {}", app.server, app.tool);
    let frame_title = move || title.get().unwrap_or_else(|| unnamed.clone());
    view! {
        <div class="au-mcp-app" class:au-mcp-app--fullscreen=move || fullscreen.get() data-testid="mcp-app" node_ref=wrapper>
            {move || view! { <WidgetTitle title=title.get() /> }}
            {move || fullscreen.get().then(|| view! {
                <button class="au-button au-mcp-app__exit" data-testid="mcp-app-exit-fullscreen"
                    on:click=move |_| {
                        leave_fullscreen();
                        // The button goes with fullscreen: the focus goes back to the view, not to the page's start.
                        if let Some(frame) = frame.get_untracked() {
                            let _ = frame.focus();
                        }
                    }>"Exit full screen (Esc)"</button>
            })}
            {move || failure.get().map(|message| view! {
                <p class="au-mcp-app__error" role="alert" data-testid="mcp-app-error">{message}</p>
            })}
            {move || match end.get() {
                None if running() => Some(view! {
                    <p class="au-mcp-app__status" data-testid="mcp-app-status">"Waiting for the tool's result…"</p>
                }.into_any()),
                Some(CallEnd::Cancelled(reason)) => Some(view! {
                    <p class="au-mcp-app__status" data-testid="mcp-app-status">{format!("The call ended without a result: {reason}")}</p>
                }.into_any()),
                _ => None,
            }}
            {move || document_html.with(|document| document.as_ref().map(|(_, allow)| allow.clone())).map(|allow| view! {
                <iframe class="au-mcp-app__frame" node_ref=frame sandbox="allow-scripts" src=sandbox_proxy_url()
                    allow=(!allow.is_empty()).then_some(allow)
                    referrerpolicy="no-referrer" title=frame_title.clone() data-testid="mcp-app-frame"
                    style:height=move || format!("{}px", height.get().round())></iframe>
            })}
        </div>
    }
}

/// Before the view's block goes: asks a ready view to tear down (`ui/resource-teardown`) and keeps
/// its frame, moved out of the widget with `moveBefore` (which keeps a frame running; Chromium 133
/// and later), until it answers or [`TEARDOWN_WAIT_MS`] passed, then removes it. Said in the console.
fn tear_down(frame: NodeRef<Iframe>, bridge: StoredValue<ViewBridge, LocalStorage>, agent: Option<AgentCtx>, name: String) {
    let log = move |message: String| {
        if let Some(agent) = agent {
            agent.server_log(name.clone(), "info".to_owned(), Some("view".to_owned()), message);
        }
    };
    let Some(element) = frame.get_untracked() else { return };
    let Some((id, request)) = bridge.try_update_value(ViewBridge::teardown).flatten() else { return };
    let Some(target) = element.content_window() else { return };
    let Some(body) = document().body() else { return };
    let kept = js_sys::Reflect::get(&body, &"moveBefore".into())
        .ok()
        .and_then(|method| method.dyn_into::<js_sys::Function>().ok())
        .is_some_and(|move_before| move_before.call2(&body, &element, &JsValue::NULL).is_ok());
    if let Ok(value) = js_sys::JSON::parse(&request.to_string()) {
        let _ = target.post_message(&value, "*");
    }
    if !kept {
        log("ui/resource-teardown sent; this browser cannot keep the frame while the view answers".to_owned());
        return;
    }
    let _ = element.set_attribute("style", "position:fixed;left:-10000px;top:0;width:1px;height:1px;visibility:hidden");
    let _ = element.set_attribute("aria-hidden", "true");
    let started = js_sys::Date::now();
    let listener = Rc::new(RefCell::new(None::<WindowListenerHandle>));
    let finish = {
        let (listener, element) = (listener.clone(), element.clone());
        Rc::new(move |answered: bool| {
            let Some(handle) = listener.borrow_mut().take() else { return };
            handle.remove();
            element.remove();
            log(if answered {
                format!("the view answered ui/resource-teardown in {} ms and was closed", (js_sys::Date::now() - started).round())
            } else {
                format!("the view did not answer ui/resource-teardown within {TEARDOWN_WAIT_MS} ms; closed anyway")
            });
        })
    };
    let on_answer = finish.clone();
    let own: JsValue = target.into();
    *listener.borrow_mut() = Some(window_event_listener(leptos::ev::message, move |event: MessageEvent| {
        let from_view = event.source().is_some_and(|source| AsRef::<JsValue>::as_ref(&source) == &own);
        let answers = js_sys::Reflect::get(&event.data(), &"id".into()).ok().and_then(|got| got.as_string()) == id.as_str().map(str::to_owned);
        if from_view && answers {
            on_answer(true);
        }
    }));
    set_timeout(move || finish(false), std::time::Duration::from_millis(TEARDOWN_WAIT_MS));
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// Our design tokens' current values under the specification's names.
fn style_variables() -> Vec<(String, String)> {
    let style = document()
        .document_element()
        .and_then(|root| window().get_computed_style(&root).ok().flatten());
    let Some(style) = style else { return Vec::new() };
    STYLE_VARIABLES
        .iter()
        .map(|(name, token)| ((*name).to_owned(), style.get_property_value(token).unwrap_or_default()))
        .collect()
}

fn variables_json() -> Value {
    let variables: serde_json::Map<String, Value> = style_variables()
        .into_iter()
        .filter(|(_, value)| !value.trim().is_empty())
        .map(|(name, value)| (name, Value::String(value.trim().to_owned())))
        .collect();
    Value::Object(variables)
}

fn time_zone() -> String {
    let options = js_sys::Intl::DateTimeFormat::new(&js_sys::Array::new(), &js_sys::Object::new()).resolved_options();
    js_sys::Reflect::get(&options, &"timeZone".into())
        .ok()
        .and_then(|zone| zone.as_string())
        .unwrap_or_else(|| "UTC".to_owned())
}
