//! "Export all" and reading a backup back: every saved dashboard and the current session in one
//! file. Importing adds the backup's dashboards beside the saved ones (a taken name gets a suffix)
//! and replaces the current canvas and conversation only if the person says so, after keeping the
//! current canvas as a saved dashboard.

use autoui_core::agent::session::SessionSnapshot;
use autoui_core::canvas::op::Op;
use autoui_core::store::backup::{export_all, read_backup};
use autoui_core::tool::Origin;
use leptos::prelude::*;

use crate::adapters::clock::BrowserRandom;
use crate::adapters::confirm::confirm;
use crate::adapters::download::{download_text, timestamped_name};
use crate::state::agent::AgentCtx;
use crate::state::canvas::CanvasCtx;
use crate::state::notices::NoticesCtx;
use crate::state::persist::PersistCtx;

pub use autoui_core::store::backup::is_backup;

/// Downloads the backup file.
pub fn download_backup(canvas: CanvasCtx, agent: AgentCtx, persist: PersistCtx) {
    let conversation = agent.snapshot().messages;
    let text = persist
        .library()
        .with_untracked(|library| {
            let name = canvas.name_untracked();
            canvas.with_store(|store| export_all((store.canvas(), name.as_deref()), &conversation, library, js_sys::Date::now()))
        });
    download_text(&timestamped_name("autoui-backup", "json"), "application/json", &text);
}

pub struct Targets {
    pub canvas: CanvasCtx,
    pub agent: AgentCtx,
    pub persist: PersistCtx,
    pub notices: NoticesCtx,
}

/// Reads the backup `text` from the file `file`.
pub async fn import_backup(text: &str, file: &str, targets: Targets) {
    let Targets { canvas, agent, persist, notices } = targets;
    let loaded = match read_backup(text, &BrowserRandom, js_sys::Date::now()) {
        Ok(loaded) => loaded,
        Err(error) => {
            notices.error(format!("{file} could not be imported: {error}. Nothing was changed."));
            return;
        }
    };
    for part in &loaded.set_aside {
        notices.error(format!("Part of {file} was not imported ({}): {}", part.what, part.reason));
    }
    let backup = loaded.value;
    let count = backup.dashboards.len();
    if count > 0 && persist.add_dashboards(backup.dashboards).await.is_err() {
        // The store said why; the session is not touched either.
        return;
    }
    let mut done = format!("Imported {count} saved dashboard{} from {file}", if count == 1 { "" } else { "s" });
    let has_session = !backup.canvas.is_empty() || !backup.conversation.is_empty();
    let current_empty = canvas.is_empty() && agent.snapshot().messages.is_empty();
    let replace = has_session
        && (current_empty
            || confirm(
                "Replace the current canvas and conversation with the ones in this backup? Your current canvas is kept as a saved dashboard. Cancel keeps them as they are.",
            ));
    if replace {
        let current = canvas.with_store(|store| store.canvas().clone());
        if !current.is_empty() {
            let name = format!("Before importing {file}");
            if persist.save_dashboard(&name, &current).await.is_err() {
                return;
            }
        }
        let replaced = canvas.apply(Op::Replace { blocks: backup.canvas.blocks().to_vec() }, Origin::User).is_ok()
            && agent.replace_conversation(SessionSnapshot { messages: backup.conversation, ..SessionSnapshot::default() });
        if replaced {
            // The backup's name for its canvas, or none: the one the page had was another canvas's.
            canvas.set_name(backup.name);
            done.push_str(", with its canvas and conversation");
        } else {
            notices.error("The backup's canvas and conversation were not loaded: a run is going or this tab is read-only.");
        }
    }
    notices.info(format!("{done}."));
}
