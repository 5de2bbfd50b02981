//! The OAuth sign-in window: opened blank inside the person's click (browsers block popups opened
//! later), sent to the authorization URL once the core has it, and answered by the app's own
//! `oauth/callback.html`, which posts its URL back to this page and closes.

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::mcp::oauth::error::CANCELLED;
use autoui_core::mcp::oauth::flow::Authorizer;
use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen::prelude::Closure;

/// What `oauth/callback.html` posts: `{ type: CALLBACK_MESSAGE, url: location.href }`.
pub const CALLBACK_MESSAGE: &str = "autoui-oauth-callback";
/// How often a waiting sign-in checks whether the person closed the window.
const CLOSED_POLL_MS: i32 = 500;

/// Where authorization servers send the person back: `oauth/callback.html` beside the app page.
pub fn redirect_uri() -> String {
    let location = web_sys::window().map(|window| window.location());
    let origin = location.as_ref().and_then(|l| l.origin().ok()).unwrap_or_default();
    let path = location.as_ref().and_then(|l| l.pathname().ok()).unwrap_or_else(|| "/".to_owned());
    let directory = &path[..path.rfind('/').map_or(0, |at| at + 1)];
    let directory = if directory.is_empty() { "/" } else { directory };
    format!("{origin}{directory}oauth/callback.html")
}

/// The [`Authorizer`] of the page. [`PopupAuthorizer::open`] must be called inside the click that
/// starts a sign-in; `authorize` then navigates that window.
#[derive(Default)]
pub struct PopupAuthorizer {
    window: RefCell<Option<web_sys::Window>>,
}

impl PopupAuthorizer {
    /// Opens the blank sign-in window; `Err` when the browser blocked it.
    pub fn open(&self) -> Result<(), String> {
        let window = web_sys::window().ok_or("no window")?;
        let popup = window
            .open_with_url_and_target_and_features("about:blank", "autoui-oauth", "popup,width=520,height=720")
            .ok()
            .flatten()
            .ok_or_else(|| "the browser blocked the sign-in window: allow pop-ups for this page and try again".to_owned())?;
        *self.window.borrow_mut() = Some(popup);
        Ok(())
    }

    /// Closes the window (a sign-in that failed before reaching the authorization server).
    pub fn close(&self) {
        if let Some(popup) = self.window.borrow_mut().take() {
            let _ = popup.close();
        }
    }
}

impl Authorizer for PopupAuthorizer {
    fn authorize(&self, url: String) -> LocalBoxFuture<'_, Result<String, String>> {
        Box::pin(async move {
            let popup = self.window.borrow().clone().ok_or("no sign-in window was opened by a click")?;
            popup.location().set_href(&url).map_err(|_| "the sign-in window could not be navigated".to_owned())?;
            let result = wait_for_callback(&popup).await;
            self.close();
            result
        })
    }
}

/// The callback URL posted by `popup`, from this page's own origin; `Err` when the person closed it.
async fn wait_for_callback(popup: &web_sys::Window) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let own_origin = window.location().origin().map_err(|_| "no origin")?;
    let (sender, receiver) = oneshot::channel::<Result<String, String>>();
    let sender = Rc::new(RefCell::new(Some(sender)));

    let from_popup = popup.clone();
    let on_message_sender = sender.clone();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
        // Only our own callback page, in the window we opened, may answer.
        let same_window = event.source().is_some_and(|source| JsValue::from(source) == JsValue::from(from_popup.clone()));
        if event.origin() != own_origin || !same_window {
            return;
        }
        let data = event.data();
        let kind = js_sys::Reflect::get(&data, &"type".into()).ok().and_then(|v| v.as_string());
        let url = js_sys::Reflect::get(&data, &"url".into()).ok().and_then(|v| v.as_string());
        if let (Some(CALLBACK_MESSAGE), Some(url)) = (kind.as_deref(), url)
            && let Some(sender) = on_message_sender.borrow_mut().take()
        {
            let _ = sender.send(Ok(url));
        }
    });
    let watched = popup.clone();
    let on_tick_sender = sender.clone();
    let on_tick = Closure::<dyn FnMut()>::new(move || {
        if watched.closed().unwrap_or(true)
            && let Some(sender) = on_tick_sender.borrow_mut().take()
        {
            let _ = sender.send(Err(format!("{CANCELLED}: the sign-in window was closed")));
        }
    });
    let _ = window.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    let timer = window
        .set_interval_with_callback_and_timeout_and_arguments_0(on_tick.as_ref().unchecked_ref(), CLOSED_POLL_MS)
        .unwrap_or(0);
    let result = receiver.await.unwrap_or_else(|_| Err(format!("{CANCELLED}: the sign-in stopped")));
    let _ = window.remove_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    window.clear_interval_with_handle(timer);
    result
}
