//! Several tabs of the app in one browser: one writer, the others follow read-only. The tab holding
//! the Web Lock `autoui-writer` saves the session; every other tab shows the canvas and the
//! conversation read-only and reads them again from the store each time the writer says it saved
//! (`BroadcastChannel`). When the writer closes, the longest-waiting follower gets the lock and
//! reloads, so it starts as the writer from exactly what is stored. Nothing is ever written by two
//! tabs, so no tab's work is overwritten by another's.


use crate::adapters::tabs::{Channel, claim_writer, reload_page};
use crate::state::agent::AgentCtx;
use crate::state::canvas::CanvasCtx;
use crate::state::persist::{PersistCtx, Role};

pub fn share_with_other_tabs(persist: PersistCtx, canvas: CanvasCtx, agent: AgentCtx) {
    if persist.role_now() != Role::Deciding {
        return;
    }
    claim_writer(move |holds| match (holds, persist.role_now()) {
        // It followed another tab until now: what is stored is newer than what it shows.
        (true, Role::Follower) => reload_page(),
        (true, _) => persist.become_writer(Channel::open(|_| {})),
        (false, _) => {
            persist.become_follower();
            canvas.set_following(true);
            let channel = Channel::open(move |_| {
                leptos::task::spawn_local(async move {
                    if let Some(state) = persist.read_stored_session().await {
                        canvas.follow(state.canvas);
                        agent.follow(state.agent);
                    }
                });
            });
            // Listens for as long as the page lives.
            std::mem::forget(channel);
        }
    });
}
