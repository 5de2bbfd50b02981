//! Whether the page is visible (`document.hidden`): interval refreshes pause while it is not, and a
//! save waiting for its delay is begun when it stops being visible (`state/persist.rs`).

pub fn page_visible() -> bool {
    web_sys::window().and_then(|window| window.document()).is_none_or(|document| !document.hidden())
}
