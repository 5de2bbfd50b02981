//! The resources attached to the next message (from the servers panel), above the chat's message
//! box, each removable. Comes with the engine (`chunks::engine`), like the panel that attaches them.

use leptos::prelude::*;

use crate::state::attachments::use_attachments;
use crate::ui::icons::{Icon, IconSvg};

#[component]
pub fn AttachmentsBar() -> impl IntoView {
    let attachments = use_attachments();
    move || {
        let attachments = attachments?;
        let attached = attachments.list();
        (!attached.is_empty()).then(|| view! {
            <ul class="au-chat__attachments" data-testid="chat-attachments" aria-label="Attached to your next message">
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
