//! The servers a dashboard's bindings call that are not connected in this page (a share link, an
//! import, a server removed), above the canvas, each with "Connect" (in the engine chunk,
//! `chunks::engine`): a server that is added here connects again; one that is not is added from the
//! URL the dashboard carries (its host shown beside the name; the click is the person's consent)
//! and connected, or, when the dashboard carries none, the servers panel opens with its name filled
//! in for the person to give its URL. Nothing runs from this list: the bindings run once the
//! dashboard is the person's own and its server is connected (`state::refresh`).

use autoui_core::binding::source::{NeededServer, servers_needed};
use autoui_core::ids::ServerId;
use autoui_core::mcp::hub::ServerStatus;
use leptos::prelude::*;

use crate::state::canvas::use_canvas;
use crate::state::servers::use_servers;

#[component]
pub fn NeededServers(open_servers: Callback<()>) -> impl IntoView {
    let canvas = use_canvas();
    let servers = use_servers();
    let needed = Memo::new(move |_| {
        canvas.revision();
        canvas.with_store(|store| servers_needed(store.canvas().blocks()))
    });
    let missing = move || -> Vec<(NeededServer, Option<(ServerId, ServerStatus)>)> {
        needed
            .get()
            .into_iter()
            .map(|needed| {
                let added = servers.by_prefix(&needed.server);
                (needed, added)
            })
            // One still connecting is not listed: a reload reconnects the stored servers at once.
            .filter(|(_, added)| matches!(added, None | Some((_, ServerStatus::Failed { .. }))))
            .collect()
    };
    let connect = move |needed: &NeededServer, added: Option<ServerId>| match (added, &needed.url) {
        (Some(id), _) => servers.reconnect(&id),
        // Already added under another name, say: the panel shows it and takes the person's URL.
        (None, Some(url)) if servers.add_named(&needed.server, url).is_ok() => {}
        (None, _) => {
            servers.want(needed.server.to_string());
            open_servers.run(());
        }
    };
    move || {
        let missing = missing();
        (!missing.is_empty()).then(|| {
            let read_only = canvas.is_read_only();
            view! {
                <div class="au-banner au-needed" role="region" aria-label="Servers this dashboard needs" data-testid="needed-servers">
                    <span>{if read_only {
                        "Its live data comes from these servers. They are called only once you make the dashboard your own and connect them:"
                    } else {
                        "Its live data comes from these servers, not connected here; its widgets keep their last data until they are:"
                    }}</span>
                    <ul class="au-needed__list">
                        {missing.into_iter().map(|(needed, added)| {
                            let state = match &added {
                                Some((_, ServerStatus::Failed { reason })) => format!("failed: {reason}"),
                                _ => "not added here".to_owned(),
                            };
                            let id = added.map(|(id, _)| id);
                            let prefix = needed.server.to_string();
                            let label = format!("Connect the {prefix} server");
                            let host = needed.host().map(|host| format!(" at {host}"));
                            let name = prefix.clone();
                            view! {
                                <li data-testid="needed-server" data-server=name>
                                    <strong>{prefix}</strong>{host}" "<span class="au-needed__state">{format!("({state})")}</span>" "
                                    <button class="au-button" data-testid="needed-server-connect" aria-label=label
                                        on:click=move |_| connect(&needed, id.clone())>"Connect"</button>
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                </div>
            }
        })
    }
}
