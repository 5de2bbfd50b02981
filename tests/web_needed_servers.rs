//! Browser tier: the servers a dashboard's bindings need (`ui::needed_servers`), over the app's
//! canvas and servers state with no server added: a bound widget's server is listed with Connect,
//! which opens the servers panel with its name filled in and the URL field focused; a dashboard
//! without bindings lists nothing.
#![cfg(target_arch = "wasm32")]

mod support;

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

use autoui::state::canvas::{CanvasCtx, provide_canvas};
use autoui::state::notices::provide_notices;
use autoui::state::persist::{provide_persist, restore};
use autoui::state::servers::provide_servers;
use autoui::ui::needed_servers::NeededServers;
use autoui::ui::servers::ServersDrawer;
use autoui_core::binding::source::{Binding, Source};
use autoui_core::canvas::model::Canvas;
use autoui_core::canvas::op::Op;
use autoui_core::canvas::style::Style;
use autoui_core::ids::BlockId;
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
        provide_servers();
        keep.set(Some(canvas));
        view! {
            <NeededServers open_servers=Callback::new(move |()| open.set(true)) />
            <Show when=move || open.get()><ServersDrawer open /></Show>
        }
    });
    Mounted { container, canvas: provided.get().unwrap(), open, _handle: Box::new(handle) }
}

impl Mounted {
    fn add(&self, id: &str, source: Option<serde_json::Value>) {
        let id = BlockId::new(id);
        let data = Arc::new(json!({"label": "Server time", "value": "05:40"}));
        let add = Op::Add { id: id.clone(), kind: WidgetKind::StatCard, data, layout: None, style: Style::default() };
        self.canvas.apply(add, Origin::User).unwrap();
        if let Some(source) = source {
            let binding = Some(Arc::new(Binding::fresh(Source::parse(&source).unwrap(), 0.0)));
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
