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
        canvas.order();
        let pointed: Vec<_> = attachments
            .pointed()
            .into_iter()
            .filter(|widget| canvas.with_store(|store| store.canvas().get(&widget.id).is_some()))
            .collect();
        (!attached.is_empty() || !pointed.is_empty()).then(|| view! {
            <ul class="au-chat__attachments" data-testid="chat-attachments" aria-label="Attached to your next message">
                {pointed.into_iter().map(|widget| {
                    let label = format!("\u{21b3} {} ({})", widget.title, widget.kind);
                    let remove = format!("Stop pointing at {}", widget.title);
                    view! {
                        <li class="au-chat__attachment" data-testid="chat-pointed-widget">
                            <span>{label}</span>
                            <button type="button" class="au-icon-button" aria-label=remove.clone() title=remove
                                on:click=move |_| attachments.unpoint(&widget.id)>
                                <IconSvg icon=Icon::Close />
                            </button>
                        </li>
                    }
                }).collect_view()}
                {attached.into_iter().map(|item| {
                    let label = format!("\u{1f4ce} {} ({})", item.name, item.server);
                    let remove = format!("Remove {}", item.name);
                    view! {
                        <li class="au-chat__attachment" data-testid="chat-attachment">
                            <span>{label}</span>
                            <button type="button" class="au-icon-button" aria-label=remove.clone() title=remove
                                on:click=move |_| attachments.remove(&item.uri)>
                                <IconSvg icon=Icon::Close />
                            </button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        })
    }
}
