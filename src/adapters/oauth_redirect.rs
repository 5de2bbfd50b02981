//! The full-page fallback of the OAuth sign-in, for a browser that blocked the sign-in window:
//! while this tab is at the authorization server, the pending sign-in (with its PKCE verifier)
//! waits in this tab's `sessionStorage`; `oauth/callback.html`, opened without an opener, puts its
//! URL beside it and replaces itself with the app page it names, which then finishes the sign-in.
//! The code never enters the app page's URL or history; the keys are removed on the way back.

use autoui_core::mcp::oauth::flow::PendingSignIn;

/// The keys `public/oauth/callback.js` reads and writes too.
const PENDING_KEY: &str = "autoui-oauth-pending";
const RETURN_KEY: &str = "autoui-oauth-return";
const CALLBACK_KEY: &str = "autoui-oauth-callback";

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// Keeps `pending` and this page's URL for the way back, then sends the tab to the authorization URL.
pub fn leave_for(pending: &PendingSignIn) -> Result<(), String> {
    let storage = session_storage().ok_or("this browser keeps no session storage for the sign-in")?;
    let window = web_sys::window().ok_or("no window")?;
    let here = window.location().href().map_err(|_| "no page URL")?;
    let kept = serde_json::to_string(pending).map_err(|error| error.to_string())?;
    storage
        .set_item(PENDING_KEY, &kept)
        .and_then(|()| storage.set_item(RETURN_KEY, &here))
        .map_err(|_| "the sign-in could not be kept in session storage (full?)".to_owned())?;
    window.location().assign(&pending.authorization_url).map_err(|_| "the page could not go to the sign-in".to_owned())
}

/// Forgets a sign-in that left this tab and never came back (the person used Back instead).
pub fn forget() {
    if let Some(storage) = session_storage() {
        for key in [PENDING_KEY, RETURN_KEY, CALLBACK_KEY] {
            let _ = storage.remove_item(key);
        }
    }
}

/// The sign-in that left this tab and the authorization server's answer it came back with, taken
/// out of storage; `None` when this page load is not such a return.
pub fn take_returned() -> Option<(PendingSignIn, String)> {
    let storage = session_storage()?;
    let pending = storage.get_item(PENDING_KEY).ok().flatten();
    let callback = storage.get_item(CALLBACK_KEY).ok().flatten();
    forget();
    Some((serde_json::from_str(&pending?).ok()?, callback?))
}
