//! Browser tier: the servers a dashboard's bindings need (`ui::needed_servers`), over the app's
//! canvas and servers state with no server added: a bound widget's server is listed with Connect,
//! which opens the servers panel with its name filled in and the URL field focused; a dashboard
//! without bindings lists nothing. A binding that carries its server's URL (a shared dashboard)
//! shows the URL's host, and Connect adds that server under the bindings' name and connects it
//! (npm's server-everything from `scripts/test-servers.sh`), or shows why it failed.
#![cfg(target_arch = "wasm32")]

mod support;

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

use autoui::state::canvas::{CanvasCtx, provide_canvas};
use autoui::state::notices::provide_notices;
use autoui::state::persist::{provide_persist, restore};
use autoui::adapters::clock::BrowserClock;
use autoui::state::servers::{ServersCtx, provide_servers};
use autoui::ui::needed_servers::NeededServers;
use autoui::ui::servers::ServersDrawer;
use autoui_core::binding::source::{Binding, Source};
use autoui_core::canvas::model::Canvas;
use autoui_core::canvas::op::Op;
use autoui_core::canvas::style::Style;
use autoui_core::ids::{BlockId, ServerId};
use autoui_core::mcp::hub::ServerStatus;
use autoui_core::ports::Clock;
use autoui_core::tool::Origin;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;
use serde_json::json;
use support::settle;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlInputElement};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

struct Mounted {
    container: HtmlElement,
    canvas: CanvasCtx,
    servers: ServersCtx,
    open: RwSignal<bool>,
    _handle: Box<dyn std::any::Any>,
}

async fn mount() -> Mounted {
    let document = web_sys::window().unwrap().document().unwrap();
    let container = document.create_element("div").unwrap().unchecked_into::<HtmlElement>();
    document.body().unwrap().append_child(&container).unwrap();
    let provided = Rc::new(Cell::new(None));
    let keep = provided.clone();
    let open = RwSignal::new(false);
    let mut restored = restore().await;
    let handle = leptos::mount::mount_to(container.clone(), move || {
        provide_persist(&mut restored, provide_notices());
        let canvas = provide_canvas(Canvas::new());
        keep.set(Some((canvas, provide_servers(autoui::state::autoui::page_validator()))));
        view! {
            <NeededServers open_servers=Callback::new(move |()| open.set(true)) />
            <Show when=move || open.get()><ServersDrawer open /></Show>
        }
    });
    let (canvas, servers) = provided.get().unwrap();
    Mounted { container, canvas, servers, open, _handle: Box::new(handle) }
}

impl Mounted {
    fn add(&self, id: &str, source: Option<serde_json::Value>) {
        self.add_carrying(id, source, None);
    }

    /// Adds a stat card, bound to `source` if any, its binding carrying `server_url` as one
    /// opened from a share link does.
    fn add_carrying(&self, id: &str, source: Option<serde_json::Value>, server_url: Option<&str>) {
        let id = BlockId::new(id);
        let data = Arc::new(json!({"label": "Server time", "value": "05:40"}));
        let add = Op::Add { id: id.clone(), kind: WidgetKind::StatCard, data, layout: None, style: Style::default() };
        self.canvas.apply(add, Origin::User).unwrap();
        if let Some(source) = source {
            let binding = Binding { server_url: server_url.map(str::to_owned), ..Binding::fresh(Source::parse(&source).unwrap(), 0.0) };
            let binding = Some(Arc::new(binding));
            self.canvas.apply(Op::Bind { id, binding }, Origin::User).unwrap();
        }
    }

    fn count(&self, selector: &str) -> u32 {
        self.container.query_selector_all(selector).unwrap().length()
    }

    fn element(&self, selector: &str) -> HtmlElement {
        self.container.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}")).unchecked_into()
    }
}

#[wasm_bindgen_test]
async fn a_bound_widgets_server_is_listed_once_and_connect_opens_the_panel_with_its_name() {
    let page = mount().await;
    page.add("static", None);
    settle().await;
    assert_eq!(page.count("[data-testid=needed-servers]"), 0, "a snapshot needs no server");

    page.add("a", Some(json!({"call": "basic_mcp_get-time", "map": "{value: .time}", "refresh": "on_open"})));
    page.add("b", Some(json!({"call": "basic_mcp_get-time", "refresh": "manual"})));
    page.add("counter", Some(json!({"resource": "live://counter"})));
    settle().await;
    assert_eq!(page.count("[data-testid=needed-server]"), 1, "one entry per server");
    let entry = page.element("[data-testid=needed-server][data-server=basic]");
    assert!(entry.text_content().unwrap_or_default().contains("not added here"), "{:?}", entry.text_content());
    let connect = page.element("[data-testid=needed-server-connect]");
    assert_eq!(connect.get_attribute("aria-label").as_deref(), Some("Connect the basic server"));

    connect.click();
    settle().await;
    settle().await;
    assert!(page.open.get_untracked(), "Connect opens the servers panel");
    let name = page.element("[data-testid=server-name]").unchecked_into::<HtmlInputElement>();
    assert_eq!(name.value(), "basic", "with the server's name filled in");
    let focused = web_sys::window().unwrap().document().unwrap().active_element().and_then(|element| element.get_attribute("data-testid"));
    assert_eq!(focused.as_deref(), Some("server-url"), "and the URL to give next");
}

/// A URL exported by `scripts/test-servers.sh start`, or a failure saying how to get it.
fn server_url(name: &str, value: Option<&'static str>) -> &'static str {
    value.unwrap_or_else(|| panic!("{name} was not set when this test was compiled: start scripts/test-servers.sh"))
}

impl Mounted {
    /// Waits up to 20 s for the server the bindings call `prefix` to reach `status`.
    async fn wait_for_status(&self, prefix: &str, what: &str, status: impl Fn(&ServerStatus) -> bool) {
        for _ in 0..1_000 {
            if self.servers.by_prefix(&ServerId::sanitize(prefix)).is_some_and(|(_, now)| status(&now)) {
                return;
            }
            BrowserClock.sleep(20).await;
        }
        panic!("{what}: the list shows {:?}", self.container.text_content());
    }
}

#[wasm_bindgen_test]
async fn connect_adds_the_server_from_the_url_a_shared_dashboard_carries() {
    let everything = server_url("AUTOUI_MCP_EVERYTHING_STREAMABLE_URL", option_env!("AUTOUI_MCP_EVERYTHING_STREAMABLE_URL"));
    let unreachable = server_url("AUTOUI_MCP_UNREACHABLE_URL", option_env!("AUTOUI_MCP_UNREACHABLE_URL"));
    let page = mount().await;
    page.add_carrying("live", Some(json!({"call": "clock_mcp_get-time", "refresh": "manual"})), Some(everything));
    page.add_carrying("gone", Some(json!({"call": "gone_mcp_get-time", "refresh": "manual"})), Some(unreachable));
    settle().await;
    let host = everything.trim_start_matches("http://").split('/').next().unwrap();
    let entry = page.element("[data-testid=needed-server][data-server=clock]");
    let text = entry.text_content().unwrap_or_default();
    assert!(text.contains(&format!("clock at {host}")), "the host beside the name: {text:?}");

    page.element("[data-server=clock] [data-testid=needed-server-connect]").click();
    page.wait_for_status("clock", "the carried URL connects", |status| matches!(status, ServerStatus::Connected { .. })).await;
    settle().await;
    assert!(!page.open.get_untracked(), "no panel to fill in: the dashboard said where the server lives");
    assert!(page.servers.urls().contains(&(ServerId::sanitize("clock"), everything.to_owned())), "added under the bindings' name");
    assert_eq!(page.count("[data-server=clock]"), 0, "a connected server is no longer listed");

    page.element("[data-server=gone] [data-testid=needed-server-connect]").click();
    page.wait_for_status("gone", "the unreachable URL fails", |status| matches!(status, ServerStatus::Failed { .. })).await;
    settle().await;
    let failed = page.element("[data-server=gone]").text_content().unwrap_or_default();
    assert!(failed.contains("failed:"), "the failure is shown in the list: {failed:?}");

    // Leave this browser's stored servers as the other test expects them: none.
    for id in page.servers.ids() {
        page.servers.remove(&id);
    }
    BrowserClock.sleep(500).await;
}
