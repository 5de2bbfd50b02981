//! The app's few icons as inline SVG (stroke drawn in `currentColor`), so they render the same in every
//! browser and font, follow the theme, and stay decorative: the button around each carries the name.

use leptos::prelude::*;

/// Which icon to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icon {
    Chat,
    Console,
    Servers,
    Settings,
    Sun,
    Moon,
    Auto,
    Duplicate,
    Download,
    Close,
    Grip,
    Source,
    Expand,
}

impl Icon {
    /// Path data on a 16 x 16 grid.
    fn path(self) -> &'static str {
        match self {
            Icon::Chat => "M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z",
            Icon::Console => "M2 3h12v10H2zM4.5 6.5l2 1.5-2 1.5M8 10h3.5",
            Icon::Servers => "M2.5 2.5h11v4.5h-11zM2.5 9h11v4.5h-11zM5 4.75h.01M5 11.25h.01",
            Icon::Settings => "M2 4h7M12 4h2M2 12h2M7 12h7M9 2.5v3M12 2.5v3M4 10.5v3M7 10.5v3",
            Icon::Sun => {
                "M8 5a3 3 0 1 0 0 6 3 3 0 1 0 0-6zM8 1v1.5M8 13.5V15M1 8h1.5M13.5 8H15M3 3l1 1M12 12l1 1M3 13l1-1M12 4l1-1"
            }
            Icon::Moon => "M13 9.5A5.5 5.5 0 0 1 6.5 3a5.5 5.5 0 1 0 6.5 6.5z",
            Icon::Auto => "M8 2a6 6 0 1 0 0 12A6 6 0 1 0 8 2zM8 2v12",
            Icon::Duplicate => "M5.5 5.5h8v8h-8zM10.5 5.5v-3h-8v8h3",
            Icon::Download => "M8 2.5v8M4.5 7l3.5 3.5L11.5 7M3 13.5h10",
            Icon::Close => "M4 4l8 8M12 4l-8 8",
            Icon::Grip => "M6 4h.01M10 4h.01M6 8h.01M10 8h.01M6 12h.01M10 12h.01",
            Icon::Source => "M5.5 4L2 8l3.5 4M10.5 4L14 8l-3.5 4",
            Icon::Expand => "M9.5 2.5h4v4M13.5 2.5L9 7M6.5 13.5h-4v-4M2.5 13.5L7 9",
        }
    }
}

/// An icon at the current font size, hidden from assistive technology.
#[component]
pub fn IconSvg(icon: Icon) -> impl IntoView {
    view! {
        <svg class="au-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
            <path d=icon.path() />
        </svg>
    }
}
