//! Whether the page is visible (`document.hidden`): interval refreshes pause while it is not.

pub fn page_visible() -> bool {
    web_sys::window().and_then(|window| window.document()).is_none_or(|document| !document.hidden())
}
