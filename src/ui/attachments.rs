//! What goes with the next message, above the chat's message box, each removable: the widgets
//! pointed at from their frames and the resources attached from the servers panel. Comes with the
//! engine (`chunks::engine`), like the panel that attaches resources.

use leptos::prelude::*;

use crate::state::attachments::use_attachments;
use crate::state::canvas::use_canvas;
use crate::ui::icons::{Icon, IconSvg};

#[component]
pub fn AttachmentsBar() -> impl IntoView {
    let attachments = use_attachments();
    let canvas = use_canvas();
    move || {
        let attachments = attachments?;
        let attached = attachments.list();
        // A widget removed since it was pointed at is no longer offered.
        let on_canvas = canvas.order();
        let pointed: Vec<_> = attachments.pointed().into_iter().filter(|widget| on_canvas.contains(&widget.id)).collect();
        (!attached.is_empty() || !pointed.is_empty()).then(|| view! {
            <ul class="au-chat__attachments" data-testid="chat-attachments" aria-label="Attached to your next message">
                {pointed.into_iter().map(|widget| view! {
                    <Chip testid="chat-pointed-widget" label=format!("\u{21b3} {} ({})", widget.title, widget.kind)
                        remove=format!("Stop pointing at {}", widget.title) on_remove=move || attachments.unpoint(&widget.id) />
                }).collect_view()}
                {attached.into_iter().map(|item| view! {
                    <Chip testid="chat-attachment" label=format!("\u{1f4ce} {} ({})", item.name, item.server)
                        remove=format!("Remove {}", item.name) on_remove=move || attachments.remove(&item.uri) />
                }).collect_view()}
            </ul>
        })
    }
}

/// One thing going with the next message, and its button to take it back.
#[component]
fn Chip(testid: &'static str, label: String, remove: String, on_remove: impl Fn() + 'static) -> impl IntoView {
    view! {
        <li class="au-chat__attachment" data-testid=testid>
            <span>{label}</span>
            <button type="button" class="au-icon-button" aria-label=remove.clone() title=remove on:click=move |_| on_remove()>
                <IconSvg icon=Icon::Close />
            </button>
        </li>
    }
}
