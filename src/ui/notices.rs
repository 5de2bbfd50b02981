//! The toast stack showing notices; errors stay until dismissed, information fades by itself.

use leptos::prelude::*;

use crate::state::notices::{NoticeLevel, use_notices};
use crate::ui::icons::{Icon, IconSvg};

#[component]
pub fn Notices() -> impl IntoView {
    let notices = use_notices();
    view! {
        <div class="au-notices" aria-live="polite" data-testid="notices">
            <For each=move || notices.list() key=|n| n.id let(notice)>
                <div class="au-notice" class:au-notice--error=notice.level == NoticeLevel::Error
                    role=if notice.level == NoticeLevel::Error { "alert" } else { "status" } data-testid="notice">
                    <span>{notice.text.clone()}</span>
                    <button class="au-icon-button" aria-label="Dismiss this notice" title="Dismiss" on:click=move |_| notices.dismiss(notice.id)>
                        <IconSvg icon=Icon::Close />
                    </button>
                </div>
            </For>
        </div>
    }
}
