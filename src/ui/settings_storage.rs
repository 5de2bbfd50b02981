//! The Storage section of Settings: whether the browser keeps this site's data when space runs low
//! (asked when the first dashboard is saved), the space used and available, and the last write the
//! browser refused.

use leptos::prelude::*;

use crate::adapters::quota::{Estimate, estimate, persisted};
use crate::state::persist::{megabytes, use_persist};

fn persistence_text(persistent: Option<bool>) -> &'static str {
    match persistent {
        Some(true) => "Persistent: the browser keeps this site's data even when space runs low.",
        Some(false) => {
            "Not persistent: the browser may clear this site's data when space runs low. Export your dashboards to keep a copy."
        }
        None => "The browser does not say whether it keeps this site's data when space runs low.",
    }
}

fn space_text(estimate: Option<Estimate>) -> String {
    match estimate {
        Some(Estimate { usage, quota }) => format!(
            "Space: {} used of {} available to this site.",
            megabytes(usage as usize),
            megabytes(quota as usize)
        ),
        None => "Space: this browser does not tell how much is used.".to_owned(),
    }
}

#[component]
pub fn StorageSection(open: RwSignal<bool>) -> impl IntoView {
    let persist = use_persist();
    let figures = RwSignal::new(None::<(Option<bool>, Option<Estimate>)>);
    // Read again each time the drawer opens, after a dashboard is saved and after a refusal.
    Effect::new(move |_| {
        if !open.get() {
            return;
        }
        let _ = persist.refused();
        let asked = persist.persistent();
        let _ = persist.library().with(|library| library.list().len());
        leptos::task::spawn_local(async move {
            let persistent = match asked {
                Some(answer) => Some(answer),
                None => persisted().await,
            };
            figures.set(Some((persistent, estimate().await)));
        });
    });
    view! {
        <section class="au-settings__section" aria-labelledby="settings-storage" data-testid="settings-storage">
            <h3 id="settings-storage">"Storage"</h3>
            {move || figures.get().map(|(persistent, estimate)| view! {
                <p class="au-field__note" data-testid="settings-storage-persistent">{persistence_text(persistent)}</p>
                <p class="au-field__note" data-testid="settings-storage-space">{space_text(estimate)}</p>
            })}
            {move || persist.refused().map(|refused| view! {
                <p class="au-field__note au-field__note--error" role="alert" data-testid="settings-storage-refused">{refused}</p>
            })}
        </section>
    }
}
