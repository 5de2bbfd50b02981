//! Which colour scheme the page shows: the theme the person pinned as `data-theme` on `<html>`
//! (`ui/theme.rs` writes it), else the system's `prefers-color-scheme`.

pub fn system_prefers_dark() -> bool {
    web_sys::window()
        .and_then(|window| window.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|query| query.matches())
}

/// Whether the page shows its dark theme (the person's choice, else the system's).
pub fn shows_dark() -> bool {
    let pinned = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.document_element())
        .and_then(|root| root.get_attribute("data-theme"));
    match pinned.as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => system_prefers_dark(),
    }
}
