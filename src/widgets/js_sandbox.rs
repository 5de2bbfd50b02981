//! `js-sandbox` widget: the author's HTML, CSS and JavaScript run in a document built by
//! `autoui_core::view::sandbox_doc` with a strict inner policy (no network), inside the app's sandbox
//! proxy page (`public/sandbox.html`) loaded in an `<iframe sandbox="allow-scripts">`: never
//! `allow-same-origin`, so the frame has an opaque origin and cannot reach this page, its storage or
//! its keys. The proxy holds the document in a frame of its own, so the app's policy can refuse
//! inline scripts while the author's still run. Errors show inside the frame, and the frame's error
//! report is shown under it.

use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::numeric::{number_in, parse_decimal};
use autoui_core::view::sandbox_doc::{ERROR_MESSAGE_TYPE, SandboxSource, sandbox_document};
use leptos::html::Iframe;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsValue;
use web_sys::MessageEvent;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse, sandbox_proxy_url};

/// Frame height when the data gives none, and the accepted range in pixels.
const DEFAULT_HEIGHT: u32 = 300;
const HEIGHT_RANGE: (u32, u32) = (60, 2_000);
/// Longest error text shown under the frame.
const ERROR_CHARS: usize = 300;
/// The proxy's handshake (the MCP Apps host protocol): it says it is ready, then gets the document.
const PROXY_READY: &str = "ui/notifications/sandbox-proxy-ready";
const RESOURCE_READY: &str = "ui/notifications/sandbox-resource-ready";

#[derive(Clone, Debug, Default, PartialEq)]
pub struct JsSandboxData {
    pub title: Option<String>,
    pub code: Option<String>,
    pub html: Option<String>,
    pub css: Option<String>,
    pub height: Option<Value>,
}

impl JsSandboxData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(JsSandboxData {
            title: fields.text("title")?,
            code: fields.text("code")?,
            html: fields.text("html")?,
            css: fields.text("css")?,
            height: fields.value("height").cloned(),
        })
    }

    /// The complete document the frame runs; also what an HTML export should save.
    pub fn srcdoc(&self) -> String {
        sandbox_document(SandboxSource {
            html: self.html.as_deref().unwrap_or_default(),
            css: self.css.as_deref().unwrap_or_default(),
            code: self.code.as_deref().unwrap_or_default(),
        })
    }

    /// The frame height in pixels: `"260px"`, `"260"` or `260`, kept within a sane range.
    pub fn height_px(&self) -> u32 {
        let pixels = match &self.height {
            Some(Value::String(text)) => parse_decimal(text.trim().trim_end_matches("px").trim()),
            Some(other) => number_in(other),
            None => None,
        };
        pixels.map_or(DEFAULT_HEIGHT, |p| (p.round().max(0.0) as u32).clamp(HEIGHT_RANGE.0, HEIGHT_RANGE.1))
    }

    fn is_empty(&self) -> bool {
        [&self.code, &self.html]
            .into_iter()
            .flatten()
            .all(|text| text.trim().is_empty())
    }
}

/// What the widget shows. Only a change of this replaces the frame: a new version of the code goes
/// to the frame already there, so the frame never depends on being rebuilt to run it.
#[derive(Clone, PartialEq)]
enum Shown {
    Error(String),
    Empty(Option<String>),
    Frame,
}

#[component]
pub fn JsSandbox(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    let sandbox = Memo::new(move |_| data.with(|value| parse(value, JsSandboxData::read)));
    let shown = Memo::new(move |_| {
        sandbox.with(|sandbox| match sandbox {
            Err(message) => Shown::Error(message.clone()),
            Ok(sandbox) if sandbox.is_empty() => Shown::Empty(sandbox.title.clone()),
            Ok(_) => Shown::Frame,
        })
    });
    move || match shown.get() {
        Shown::Error(message) => view! { <WidgetError message /> }.into_any(),
        Shown::Empty(title) => view! {
            <div class="au-js-sandbox">
                <WidgetTitle title />
                <EmptyState message="No code to run yet" />
            </div>
        }
        .into_any(),
        Shown::Frame => view! { <SandboxFrame sandbox /> }.into_any(),
    }
}

/// The frame, kept while there is code to run, with the error the current code reported, if any.
/// The proxy gets the current document when it says it is ready, and every later version at once:
/// it replaces its inner frame, so the old code stops and the new one starts from a clean page.
#[component]
fn SandboxFrame(sandbox: Memo<Result<JsSandboxData, String>>) -> impl IntoView {
    let frame = NodeRef::<Iframe>::new();
    let error = RwSignal::new(None::<String>);
    let proxy_ready = StoredValue::new(false);
    let title = Memo::new(move |_| sandbox.with(|sandbox| sandbox.as_ref().ok().and_then(|s| s.title.clone())));
    let height = Memo::new(move |_| sandbox.with(|sandbox| sandbox.as_ref().map_or(DEFAULT_HEIGHT, JsSandboxData::height_px)));
    let document = Memo::new(move |_| sandbox.with(|sandbox| sandbox.as_ref().ok().map(JsSandboxData::srcdoc)));
    let send_document = move || {
        let own = frame.get_untracked().and_then(|frame| frame.content_window());
        if let (Some(own), Some(document)) = (own, document.get_untracked()) {
            // The proxy's origin is opaque: "*" is the only target origin that reaches it.
            let _ = own.post_message(&resource_ready(&document), "*");
        }
    };
    // Only messages from our own frame count; their content is shown as text, never as markup.
    let listener = window_event_listener(leptos::ev::message, move |event: MessageEvent| {
        let Some(own) = frame.get_untracked().and_then(|f| f.content_window()) else {
            return;
        };
        if event
            .source()
            .is_none_or(|source| AsRef::<JsValue>::as_ref(&source) != AsRef::<JsValue>::as_ref(&own))
        {
            return;
        }
        let data = event.data();
        let field = |name: &str| {
            js_sys::Reflect::get(&data, &name.into())
                .ok()
                .and_then(|v| v.as_string())
        };
        if field("method").as_deref() == Some(PROXY_READY) {
            proxy_ready.set_value(true);
            send_document();
        } else if field("type").as_deref() == Some(ERROR_MESSAGE_TYPE) {
            error.set(Some(shorten(
                &field("message").unwrap_or_else(|| "unknown error".to_owned()),
            )));
        }
    });
    on_cleanup(move || listener.remove());
    // A new version of the code, once the proxy listens (before that, its ready message sends it).
    Effect::new(move |first: Option<()>| {
        document.track();
        if first.is_none() || !proxy_ready.get_value() {
            return;
        }
        error.set(None);
        send_document();
    });

    view! {
        <div class="au-js-sandbox">
            {move || view! { <WidgetTitle title=title.get() /> }}
            <iframe class="au-js-sandbox__frame" node_ref=frame sandbox="allow-scripts" src=sandbox_proxy_url()
                referrerpolicy="no-referrer" title=move || title.get().unwrap_or_else(|| "Sandboxed script".to_owned())
                style:height=move || format!("{}px", height.get()) data-testid="sandbox-frame"></iframe>
            <p class="au-js-sandbox__status">
                {move || match error.get() {
                    Some(message) => view! {
                        <span class="au-js-sandbox__error" role="alert" data-testid="sandbox-error">
                            {format!("The script stopped: {message}")}
                        </span>
                    }
                    .into_any(),
                    None => view! {
                        <span class="au-js-sandbox__note">"Sandboxed: no network, no access to this page"</span>
                    }
                    .into_any(),
                }}
            </p>
        </div>
    }
}

/// The handshake's second message: the document for the proxy's inner frame, scripts only.
fn resource_ready(document: &str) -> JsValue {
    let message = serde_json::json!({
        "jsonrpc": "2.0",
        "method": RESOURCE_READY,
        "params": { "html": document, "sandbox": "allow-scripts" },
    });
    js_sys::JSON::parse(&message.to_string()).unwrap_or(JsValue::NULL)
}

fn shorten(text: &str) -> String {
    match text.char_indices().nth(ERROR_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}
