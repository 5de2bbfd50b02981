//! The other tabs of this app in the same browser: the Web Lock that makes one tab the writer of the
//! stored session, and a `BroadcastChannel` on which the writer says what it saved.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = r#"
export function claim(name, onRole) {
  if (!navigator.locks) { claimLease(name, onRole); return; }
  // Held until the page goes away: the promise never settles.
  const hold = () => new Promise(() => {});
  navigator.locks.request(name, { ifAvailable: true }, (lock) => {
    if (lock) { onRole(true); return hold(); }
    onRole(false);
    navigator.locks.request(name, () => { onRole(true); return hold(); });
    return undefined;
  });
}
// Without Web Locks (a page not served from a secure context: plain http on a LAN) a lease in local
// storage stands in for the lock: its holder renews it every second, another tab takes it once it
// is three seconds old, and a holder that finds another's lease (it was frozen meanwhile) starts
// again as a follower.
function claimLease(name, onRole) {
  let storage = null;
  try { storage = window.localStorage; } catch (e) { storage = null; }
  if (!storage) { onRole(true); return; }
  const key = `${name}.lease`;
  const me = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  const read = () => { try { return JSON.parse(storage.getItem(key) || 'null'); } catch (e) { return null; } };
  const take = () => { try { storage.setItem(key, JSON.stringify({ id: me, until: Date.now() + 3000 })); } catch (e) {} };
  const othersLive = (lease) => !!lease && lease.id !== me && lease.until > Date.now();
  let role = null;
  const settle = (writer) => { if (role !== writer) { role = writer; onRole(writer); } };
  const hold = () => {
    settle(true);
    setInterval(() => { if (othersLive(read())) location.reload(); else take(); }, 1000);
    addEventListener('pagehide', () => { const lease = read(); if (lease && lease.id === me) storage.removeItem(key); });
  };
  const attempt = () => {
    if (othersLive(read())) { settle(false); setTimeout(attempt, 1000); return; }
    take();
    // Two tabs may take a free lease at once: the one whose id reads back keeps it.
    setTimeout(() => {
      const lease = read();
      if (lease && lease.id === me) hold(); else { settle(false); setTimeout(attempt, 1000); }
    }, 50);
  };
  attempt();
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
/// holding it goes away), `on_role(false)` first if another tab holds it. Without Web Locks (an
/// insecure context) a lease in local storage stands in; without local storage either, this tab is
/// the writer.
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
