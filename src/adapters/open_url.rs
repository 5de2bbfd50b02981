//! Opening a page a server asked the person to visit (URL-mode elicitation), in a new tab that
//! cannot reach back into this one. Called inside the person's click, so no popup blocker stops it.

/// Opens `url` in a new tab; `false` when the browser refused.
pub fn open_in_new_tab(url: &str) -> bool {
    web_sys::window()
        .and_then(|window| window.open_with_url_and_target_and_features(url, "_blank", "noopener,noreferrer").ok())
        .is_some()
}
