//! Asking the person yes or no before something is replaced (`window.confirm`).

/// `true` when the person accepts; `false` when they cancel or the browser cannot ask.
pub fn confirm(question: &str) -> bool {
    web_sys::window().and_then(|window| window.confirm_with_message(question).ok()).unwrap_or(false)
}
