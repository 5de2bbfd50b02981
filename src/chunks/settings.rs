//! The settings chunk: the settings drawer (provider, model, key, limits, storage, theme). It is
//! fetched when the drawer is first opened, or earlier at the person's first press, key or focus
//! move anywhere in the page, so it is usually here by the time a click opens it.

use leptos::prelude::*;

use crate::deferred::{Drawer, part};
use crate::ui::settings::SettingsDrawer;

part! {
    #[chunk(settings, "the settings")]
    pub fn settings() -> Part<Drawer> {
        (|open| view! { <SettingsDrawer open /> }.into_any()) as Drawer
    }
}
