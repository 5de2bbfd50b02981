//! The other tabs of this app in the same browser: the Web Lock that makes one tab the writer of the
//! stored session, and a `BroadcastChannel` on which the writer says what it saved.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function claim(name, onRole) {
  if (!navigator.locks) { onRole(true); return; }
  // Held until the page goes away: the promise never settles.
  const hold = () => new Promise(() => {});
  navigator.locks.request(name, { ifAvailable: true }, (lock) => {
    if (lock) { onRole(true); return hold(); }
    onRole(false);
    navigator.locks.request(name, () => { onRole(true); return hold(); });
    return undefined;
  });
}
export function listen(name, onMessage) {
  if (typeof BroadcastChannel === 'undefined') return null;
  const channel = new BroadcastChannel(name);
  channel.onmessage = (event) => onMessage(String(event.data));
  return channel;
}
export function post(channel, text) {
  if (channel) channel.postMessage(text);
}
"#)]
extern "C" {
    fn claim(name: &str, on_role: &Closure<dyn FnMut(bool)>);
    fn listen(name: &str, on_message: &Closure<dyn FnMut(String)>) -> JsValue;
    fn post(channel: &JsValue, text: &str);
}

const WRITER_LOCK: &str = "autoui-writer";
const CHANNEL: &str = "autoui-saved";

/// Asks to be the writer: `on_role(true)` once this tab holds the lock (at once, or when the tab
/// holding it goes away), `on_role(false)` first if another tab holds it. Without Web Locks this
/// tab is the writer.
pub fn claim_writer(on_role: impl FnMut(bool) + 'static) {
    let callback = Closure::<dyn FnMut(bool)>::new(on_role);
    claim(WRITER_LOCK, &callback);
    // Called for as long as the page lives.
    callback.forget();
}

/// The channel between this app's tabs.
pub struct Channel(JsValue);

impl Channel {
    /// Opens the channel; `on_message` gets what other tabs post (never this tab's own posts).
    pub fn open(on_message: impl FnMut(String) + 'static) -> Channel {
        let callback = Closure::<dyn FnMut(String)>::new(on_message);
        let channel = listen(CHANNEL, &callback);
        callback.forget();
        Channel(channel)
    }

    pub fn post(&self, text: &str) {
        post(&self.0, text);
    }
}

/// Reloads the page (a follower that became the writer starts again from what is stored).
pub fn reload_page() {
    if let Some(window) = web_sys::window() {
        let _ = window.location().reload();
    }
}
