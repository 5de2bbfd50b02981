//! Several tabs of the app in one browser: one writer, the others follow read-only. The tab holding
//! the Web Lock `autoui-writer` saves the session; every other tab shows the canvas and the
//! conversation read-only and catches up each time the writer says it saved (`BroadcastChannel`):
//! the writer names the records it put, and the follower reads only those, keeping every block it
//! already shows as it is (the first time, or when that cannot be done whole, it reads everything).
//! When the writer closes, the longest-waiting follower gets the lock and reloads, so it starts as
//! the writer from exactly what is stored. Nothing is ever written by two tabs, so no tab's work is
//! overwritten by another's.

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::store::StoreName;
use autoui_core::store::session::SessionState;

use crate::adapters::tabs::{Channel, claim_writer, reload_page};
use crate::state::agent::AgentCtx;
use crate::state::canvas::{CanvasCtx, Foreign};
use crate::state::persist::{PersistCtx, Role, saved_keys};
use crate::state::writing::writing;

/// What a follower has still to read: the records some writes put, or everything.
enum Behind {
    Records(Vec<(StoreName, String)>),
    Everything,
}

/// A follower's catching up, one read at a time, each from the state the previous one left.
#[derive(Default)]
pub struct Following {
    /// The session as last shown (none after a read that failed: the next one is a whole one).
    shown: Option<SessionState>,
    behind: Option<Behind>,
    reading: bool,
}

impl Following {
    /// Adds what one note says to what is still to read.
    fn fall_behind(&mut self, note: &str) {
        self.behind = match (self.behind.take(), saved_keys(note)) {
            (Some(Behind::Records(mut keys)), Some(more)) => {
                keys.extend(more);
                Some(Behind::Records(keys))
            }
            (None, Some(keys)) => Some(Behind::Records(keys)),
            _ => Some(Behind::Everything),
        };
    }
}

/// Reads what the writer's notes said until there is nothing left to read (the store-writing part's
/// entry point: none of this is needed before a follower hears from the writer).
pub async fn catch_up(following: Rc<RefCell<Following>>, persist: PersistCtx, canvas: CanvasCtx, agent: AgentCtx) {
    loop {
        let (behind, shown) = {
            let mut following = following.borrow_mut();
            let Some(behind) = following.behind.take() else {
                following.reading = false;
                return;
            };
            (behind, following.shown.take())
        };
        let read = match (behind, shown) {
            (Behind::Records(keys), Some(shown)) => match persist.read_stored_update(&keys, &shown).await {
                Some(state) => Some(state),
                None => persist.read_stored_session().await,
            },
            _ => persist.read_stored_session().await,
        };
        if let Some(state) = read {
            canvas.follow(state.canvas.clone());
            canvas.set_name(state.name.clone());
            agent.follow(state.agent.clone());
            following.borrow_mut().shown = Some(state);
        }
    }
}

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
            let imported = canvas.foreign_untracked() == Some(Foreign::Imported);
            let shown = SessionState {
                canvas: canvas.with_store(|store| store.canvas().clone()),
                agent: agent.snapshot(),
                imported,
                name: canvas.name_untracked(),
            };
            let following = Rc::new(RefCell::new(Following { shown: Some(shown), ..Following::default() }));
            let channel = Channel::open(move |note| {
                let start = {
                    let mut state = following.borrow_mut();
                    state.fall_behind(&note);
                    !std::mem::replace(&mut state.reading, true)
                };
                if start {
                    let following = following.clone();
                    leptos::task::spawn_local(async move {
                        match writing().load().await {
                            Ok(code) => (code.catch_up)(following, persist, canvas, agent).await,
                            // The next note tries again (the chunk is fetched again).
                            Err(_) => following.borrow_mut().reading = false,
                        }
                    });
                }
            });
            // Listens for as long as the page lives.
            std::mem::forget(channel);
        }
    });
}
