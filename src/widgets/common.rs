//! Pieces every widget shares: typed parsing of its data, empty and error states, the title, the
//! host shown beside a link, the "Load image" click of a held-back markdown image, the elements a
//! selector finds.
//! Pure presentation rules (safe URLs, numbers, colours, initials) live in `autoui_core::view::present`.

use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::present::link_host;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, MouseEvent};
use serde_json::Value;

/// Reads a widget's data into its typed form with `read` (see `autoui_core::view::fields`).
pub fn parse<'a, T>(data: &'a Value, read: fn(Fields<'a>) -> Read<T>) -> Result<T, String> {
    Ok(Fields::of(data).and_then(read)?)
}

/// Shown instead of a widget whose data cannot be rendered, saying why.
#[component]
pub fn WidgetError(#[prop(into)] message: String) -> impl IntoView {
    view! {
        <div class="au-widget-error" role="alert" data-testid="widget-error">
            <strong>"This widget cannot be shown"</strong>
            <span>{message}</span>
        </div>
    }
}

/// A considered empty state: the widget rendered, there is just nothing in it yet.
#[component]
pub fn EmptyState(#[prop(into)] message: String) -> impl IntoView {
    view! { <div class="au-empty" data-testid="widget-empty">{message}</div> }
}

/// A widget's optional title, as the card heading.
#[component]
pub fn WidgetTitle(#[prop(into)] title: Option<String>) -> impl IntoView {
    title.filter(|t| !t.trim().is_empty()).map(|title| view! { <h3 class="au-widget-title">{title}</h3> })
}

/// The host a web link goes to, shown beside its label so a label cannot pass for another site.
#[component]
pub fn LinkHost(#[prop(into)] href: String) -> impl IntoView {
    link_host(&href).map(|host| view! { <span class="au-link-host" data-testid="link-host">{format!(" ({host})")}</span> })
}

/// Handles clicks on markdown rendered into `inner_html`; other clicks pass through untouched.
pub fn load_held_image(event: MouseEvent) {
    let Some(button) = event
        .target()
        .and_then(|target| target.dyn_into::<Element>().ok())
        .and_then(|target| target.closest("[data-load-image]").ok().flatten())
    else {
        return;
    };
    let (Some(src), Some(placeholder)) = (button.get_attribute("data-load-image"), button.closest(".au-held-image").ok().flatten())
    else {
        return;
    };
    let Some(document) = placeholder.owner_document() else { return };
    let Ok(image) = document.create_element("img") else { return };
    // The URL was written by the model; the person chose to load it, so it goes as an attribute, never markup.
    let _ = image.set_attribute("referrerpolicy", "no-referrer");
    let _ = image.set_attribute("alt", &button.get_attribute("data-alt").unwrap_or_default());
    let _ = image.set_attribute("src", &src);
    let _ = placeholder.replace_with_with_node_1(&image);
}

/// What a widget whose height comes later (an MCP Apps view says its size once loaded) tells the
/// frame around it on the canvas: that frame, if it still waits for its fit, fits the widget to its
/// content now. Absent where there is no frame (gallery, chat).
#[derive(Clone, Copy)]
pub struct ContentResized(pub Callback<()>);

/// Where the sandbox proxy page is, when a test gives its own (the browser tests' runner serves no
/// static files of the app, so they pass a `blob:` URL of `public/sandbox.html`).
#[derive(Clone, Debug)]
pub struct SandboxProxy(pub String);

/// The sandbox proxy page untrusted documents run in (js-sandbox widgets, MCP Apps views): a test's
/// [`SandboxProxy`], else the deployment's `<meta name="autoui-sandbox-url" content="…">` (e.g. on a
/// second origin), else `sandbox.html` beside the app's page (relative, so a sub-path works too).
pub fn sandbox_proxy_url() -> String {
    if let Some(SandboxProxy(url)) = use_context::<SandboxProxy>() {
        return url;
    }
    document()
        .query_selector("meta[name=autoui-sandbox-url]")
        .ok()
        .flatten()
        .and_then(|meta| meta.get_attribute("content"))
        .filter(|url| !url.trim().is_empty())
        .unwrap_or_else(|| "sandbox.html".to_owned())
}

/// The elements under `root` that match `selector` and are a `T` (an `HtmlElement`, say).
pub fn matching<T: JsCast>(root: &Element, selector: &str) -> Vec<T> {
    let Ok(found) = root.query_selector_all(selector) else { return Vec::new() };
    (0..found.length()).filter_map(|i| found.item(i)?.dyn_into::<T>().ok()).collect()
}
