//! The canvas toolbar: undo/redo (also Ctrl+Z / Ctrl+Shift+Z), clear, named dashboards (and "Export
//! all", `backup.rs`), file export/import (a backup file is read back as one), print (the browser's
//! dialog, which also saves a PDF) and share links.

use autoui_core::canvas::exchange;
use autoui_core::canvas::model::Canvas;
use autoui_core::canvas::op::Op;
use autoui_core::canvas::persist::Saved;
use autoui_core::canvas::share;
use autoui_core::ids::ServerId;
use autoui_core::tool::Origin;
use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::adapters::clock::{BrowserRandom, local_date_time};
use crate::adapters::confirm::confirm;
use crate::adapters::download::{download_text, timestamped_name};
use crate::state::engine::use_engine;
use crate::state::refresh::use_refresh;
use crate::state::agent::use_agent;
use crate::state::canvas::{CanvasCtx, Foreign, use_canvas};
use crate::state::notices::{NoticesCtx, use_notices};
use crate::state::paper::use_paper;
use crate::state::persist::{LibraryChangeError, use_persist};
use crate::state::servers::ServersCtx;
use crate::ui::backup::{Targets, import_backup, is_backup};
use crate::ui::files::with_files;
use crate::ui::icons::{Icon, IconSvg};
use crate::ui::present::{PresentCtx, use_present};
use crate::ui::shortcuts::{modal_open, typing_in_field};

/// Ctrl+Z undoes and Ctrl+Shift+Z (or Ctrl+Y) redoes, unless the person is typing in a field; Ctrl+S
/// runs `to_save` (the browser would save the app's page, which keeps no dashboard) wherever the focus is.
/// None of them while the dashboard is presented, which no key changes, nor under a modal dialog (a
/// widget expanded, the shortcuts), which hides what they would change.
fn install_shortcuts(canvas: CanvasCtx, present: PresentCtx, to_save: impl Fn() + 'static) {
    let handle = window_event_listener(ev::keydown, move |event| {
        if !(event.ctrl_key() || event.meta_key()) || present.is_presenting_untracked() || modal_open() {
            return;
        }
        if event.key().eq_ignore_ascii_case("s") && !event.shift_key() {
            event.prevent_default();
            to_save();
            return;
        }
        if typing_in_field(&event) {
            return;
        }
        match (event.key().to_ascii_lowercase().as_str(), event.shift_key()) {
            ("z", false) => {
                event.prevent_default();
                canvas.undo();
            }
            ("z", true) | ("y", false) => {
                event.prevent_default();
                canvas.redo();
            }
            _ => {}
        }
    });
    on_cleanup(move || handle.remove());
}

pub fn widget_count(widgets: usize) -> String {
    if widgets == 1 { "1 widget".to_owned() } else { format!("{widgets} widgets") }
}

/// Whether the canvas was replaced.
fn replace_canvas(canvas: CanvasCtx, notices: NoticesCtx, next: Canvas, what: &str) -> bool {
    match canvas.apply(Op::Replace { blocks: next.blocks().to_vec() }, Origin::User) {
        Ok(_) => {
            notices.info(format!("{what}. Undo (Ctrl+Z) brings back the previous canvas."));
            true
        }
        Err(error) => {
            notices.error(format!("{what} failed: {error}"));
            false
        }
    }
}

/// Downloads the canvas as a dashboard file, saying where the servers its bindings call live.
pub fn export_canvas(canvas: CanvasCtx, owner: Owner) {
    let urls = server_urls(&owner);
    let name = canvas.name_untracked();
    let text = canvas.with_store(|store| exchange::export_file(store.canvas(), name.as_deref(), &urls));
    download_text(&timestamped_name("dashboard", "json"), "application/json", &text);
}

/// The servers added in this page, by tool prefix, with their URLs (none before the engine is here).
fn server_urls(owner: &Owner) -> Vec<(ServerId, String)> {
    owner.with(use_context::<ServersCtx>).map(|servers| servers.urls()).unwrap_or_default()
}

/// Reads a file the person chose: a backup (`backup.rs`) or a dashboard, which replaces the canvas
/// (undoable) with its buttons held until the person allows them.
pub async fn import_file(file: web_sys::File, targets: Targets) {
    let Targets { canvas, notices, .. } = targets;
    let text = JsFuture::from(file.text()).await.ok().and_then(|value| value.as_string()).unwrap_or_default();
    if is_backup(&text) {
        import_backup(&text, &file.name(), targets).await;
        return;
    }
    match exchange::import(&text, &BrowserRandom, js_sys::Date::now()) {
        Ok(imported) => {
            for part in &imported.set_aside {
                notices.error(format!("Part of the file was not imported ({}): {}", part.what, part.reason));
            }
            // Someone else's dashboard: its buttons wait until the person allows them.
            if replace_canvas(canvas, notices, imported.canvas, &format!("Imported {}", file.name())) {
                canvas.set_foreign(Some(Foreign::Imported));
                canvas.set_name(imported.title);
            }
        }
        Err(error) => notices.error(format!("{} could not be imported: {error}", file.name())),
    }
}

/// The canvas's read-only share link, copied to the clipboard when the browser allows it. It says
/// where the servers its bindings call live (their URLs without credentials), never their tokens.
pub fn share_link(canvas: CanvasCtx, notices: NoticesCtx, owner: Owner) -> String {
    let urls = server_urls(&owner);
    let name = canvas.name_untracked();
    let param = canvas.with_store(|store| share::encode_param(store.canvas(), name.as_deref(), &urls));
    let location = window().location();
    let base = format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_else(|_| "/".to_owned())
    );
    let link = share::link(&base, &param);
    let clipboard = window().navigator().clipboard();
    let copied = link.clone();
    leptos::task::spawn_local(async move {
        match JsFuture::from(clipboard.write_text(&copied)).await {
            Ok(_) => notices.info("Share link copied. It opens this dashboard read-only in any browser."),
            Err(_) => notices.info("Copy the share link below; it opens this dashboard read-only."),
        }
    });
    link
}

#[component]
pub fn CanvasToolbar() -> impl IntoView {
    let canvas = use_canvas();
    let notices = use_notices();
    // The servers come with the engine, after this toolbar: the file tools look them up under this owner.
    let owner = Owner::current().unwrap_or_default();
    let dashboards_menu = NodeRef::<leptos::html::Details>::new();
    let name_box = NodeRef::<leptos::html::Input>::new();
    // Ctrl+S opens the dashboards menu at the name box: Enter saves under the name there.
    let present = use_present();
    let to_save = move || {
        if let (Some(menu), Some(name_box)) = (dashboards_menu.get_untracked(), name_box.get_untracked()) {
            menu.set_open(true);
            let _ = name_box.focus();
            name_box.select();
        }
    };
    install_shortcuts(canvas, present, to_save);
    let persist = use_persist();
    let agent = use_agent();
    let library = persist.library();
    // The name box starts from the dashboard's name, and follows it when an import or another tab
    // names the dashboard.
    let dashboard_name = RwSignal::new(String::new());
    Effect::new(move || dashboard_name.set(canvas.name().unwrap_or_default()));
    let share_link = RwSignal::new(None::<String>);

    // A saved dashboard of the same name is replaced only once the person agreed, however the name got
    // there (typed, or kept from the dashboard last opened or saved, so that Save updates it).
    let save_dashboard = move |_| {
        let name = dashboard_name.get_untracked().trim().to_owned();
        let current = canvas.with_store(|store| store.canvas().clone());
        let taken = library.with_untracked(|l| l.list().into_iter().find(|saved| saved.name == name));
        if let Some(taken) = taken {
            let question = format!(
                "\u{201c}{name}\u{201d} is saved already ({}, saved {}). Replace it with this canvas ({})?",
                widget_count(taken.widgets),
                local_date_time(taken.saved_ms),
                widget_count(current.len())
            );
            if !confirm(&question) {
                return;
            }
        }
        leptos::task::spawn_local(async move {
            match persist.save_dashboard(&name, &current).await {
                Ok(saved) => {
                    canvas.set_name(Some(name.clone()));
                    notices.info(match saved {
                        Saved::Created => format!("Saved \u{201c}{name}\u{201d}."),
                        Saved::Replaced => format!("Replaced the saved \u{201c}{name}\u{201d} with this canvas."),
                    });
                }
                Err(LibraryChangeError::Invalid(error)) => {
                    notices.error(format!("The dashboard could not be saved: {error}"))
                }
                // The store told the person why already.
                Err(LibraryChangeError::Refused) => {}
            }
        });
    };
    let open_dashboard = move |name: String| {
        let found = library.with_untracked(|l| l.open(&name).map(|d| d.canvas.clone()));
        match found {
            Ok(saved) => {
                // One of the person's own dashboards: its buttons work.
                if replace_canvas(canvas, notices, saved, &format!("Opened \u{201c}{name}\u{201d}")) {
                    canvas.set_foreign(None);
                    canvas.set_name(Some(name));
                }
            }
            Err(error) => notices.error(error.to_string()),
        }
    };
    // A saved dashboard deleted is gone (no undo reaches the library): the person confirms first.
    let delete_dashboard = move |name: String| {
        let Some(saved) = library.with_untracked(|l| l.list().into_iter().find(|saved| saved.name == name)) else { return };
        let question = format!(
            "Delete the saved dashboard \u{201c}{name}\u{201d} ({}, saved {})? This cannot be undone.",
            widget_count(saved.widgets),
            local_date_time(saved.saved_ms)
        );
        if !confirm(&question) {
            return;
        }
        leptos::task::spawn_local(async move {
            match persist.delete_dashboard(&name).await {
                Ok(_) => {
                    if dashboard_name.get_untracked().trim() == name {
                        dashboard_name.set(String::new());
                    }
                    if canvas.name_untracked().as_deref() == Some(name.as_str()) {
                        canvas.set_name(None);
                    }
                    notices.info(format!("Deleted \u{201c}{name}\u{201d}."));
                }
                Err(LibraryChangeError::Invalid(error)) => notices.error(error.to_string()),
                Err(LibraryChangeError::Refused) => {}
            }
        });
    };
    let export_owner = owner.clone();
    let export_file = move |_| {
        let owner = export_owner.clone();
        with_files(notices, move |files| (files.export_canvas)(canvas, owner));
    };
    let import_file = move |event: ev::Event| {
        let Some(input) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(file) = input.files().and_then(|files| files.get(0)) else { return };
        input.set_value("");
        let targets = Targets { canvas, agent, persist, notices };
        with_files(notices, move |files| leptos::task::spawn_local((files.import_file)(file, targets)));
    };
    let share = move |_| {
        let owner = owner.clone();
        with_files(notices, move |files| share_link.set(Some((files.share_link)(canvas, notices, owner))));
    };

    let engine = use_engine();
    let paper = use_paper();
    view! {
        <div class="au-canvas-toolbar" role="toolbar" aria-label="Canvas">
            <button class="au-button au-button--ghost" data-testid="undo" title="Undo (Ctrl+Z)"
                disabled=move || !canvas.undo_state().can_undo on:click=move |_| canvas.undo()>"\u{21b6} Undo"</button>
            <button class="au-button au-button--ghost" data-testid="redo" title="Redo (Ctrl+Shift+Z)"
                disabled=move || !canvas.undo_state().can_redo on:click=move |_| canvas.redo()>"\u{21b7} Redo"</button>
            {move || engine.is_ready().then(use_refresh).flatten().filter(|refresher| refresher.any_bound() && !canvas.is_read_only()).map(|refresher| view! {
                <button class="au-button au-button--ghost" data-testid="refresh-all" title="Fetch every bound widget's data again"
                    on:click=move |_| refresher.refresh_all()>"\u{21bb} Refresh all"</button>
            })}
            <button class="au-button au-button--ghost" data-testid="clear-canvas" title="Remove every widget (undoable)"
                disabled=move || canvas.is_empty()
                on:click=move |_| {
                    if canvas.apply(Op::Clear, Origin::User).is_ok() {
                        notices.info("Canvas cleared. Undo (Ctrl+Z) brings it back.");
                    }
                }>"Clear"</button>
            // The dashboard's name, once it has one; a click goes where it is saved under another.
            {move || canvas.name().map(|name| view! {
                <button class="au-button au-button--ghost au-canvas-toolbar__name" data-testid="dashboard-title"
                    title="This dashboard's name. Save it under another name from Dashboards (Ctrl+S)"
                    on:click=move |_| to_save()>{name}</button>
            })}
            <span class="au-canvas-toolbar__spacer"></span>
            <details class="au-menu" data-testid="dashboards" node_ref=dashboards_menu>
                <summary class="au-button au-button--ghost" title="Save this dashboard, or open a saved one (Ctrl+S)">"Dashboards"</summary>
                <div class="au-menu__panel">
                    <form class="au-menu__row" on:submit=move |e: ev::SubmitEvent| { e.prevent_default(); save_dashboard(()); }>
                        <input type="text" placeholder="Name this dashboard" aria-label="Dashboard name" maxlength="80"
                            data-testid="dashboard-name" node_ref=name_box prop:value=move || dashboard_name.get()
                            on:input=move |e| dashboard_name.set(event_target_value(&e)) />
                        <button type="submit" class="au-button" data-testid="dashboard-save">"Save"</button>
                    </form>
                    <ul class="au-menu__list">
                        <For each=move || library.with(|l| l.list()) key=|d| (d.name.clone(), d.saved_ms.to_bits()) let(dashboard)>
                            {
                                let open_name = dashboard.name.clone();
                                let delete_name = dashboard.name.clone();
                                view! {
                                    <li class="au-menu__item">
                                        <button class="au-menu__open" data-testid="dashboard-open"
                                            on:click=move |_| open_dashboard(open_name.clone())>
                                            <span>{dashboard.name.clone()}</span>
                                            <small>{format!("{} \u{b7} {}", widget_count(dashboard.widgets), local_date_time(dashboard.saved_ms))}</small>
                                        </button>
                                        <button class="au-icon-button" aria-label=format!("Delete {}", dashboard.name)
                                            title="Delete" data-testid="dashboard-delete" on:click=move |_| delete_dashboard(delete_name.clone())>
                                            <IconSvg icon=Icon::Close />
                                        </button>
                                    </li>
                                }
                            }
                        </For>
                    </ul>
                    <Show when=move || library.with(|l| l.list().is_empty())>
                        <p class="au-menu__empty">"No saved dashboards yet."</p>
                    </Show>
                    <button class="au-button au-button--ghost" data-testid="export-all"
                        title="Download every saved dashboard and the current canvas and conversation as one file (Import reads it back)"
                        on:click=move |_| with_files(notices, move |files| (files.export_all)(canvas, agent, persist))>"Export all"</button>
                </div>
            </details>
            <button class="au-button au-button--ghost" data-testid="export-file" on:click=export_file title="Download the canvas as a JSON file">"Export"</button>
            // The browser's print dialog, which also saves a PDF; app.css's print rules leave the dashboard alone on the page.
            <button class="au-button au-button--ghost" data-testid="print" title="Print the dashboard or save it as a PDF (Ctrl+P)"
                disabled=move || canvas.is_empty()
                on:click=move |_| paper.print()>"Print"</button>
            <button class="au-button au-button--ghost" data-testid="present" title="Show the dashboard alone, full screen (Esc ends it)"
                disabled=move || canvas.is_empty()
                on:click=move |_| present.start()>"Present"</button>
            <label class="au-button au-button--ghost" title="Open a dashboard file">
                "Import"
                <input type="file" accept="application/json,.json,.md" class="au-visually-hidden" data-testid="import-file" on:change=import_file />
            </label>
            <button class="au-button au-button--ghost" data-testid="share" on:click=share disabled=move || canvas.is_empty()>"Share"</button>
            <Show when=move || share_link.get().is_some()>
                <input class="au-canvas-toolbar__link" readonly data-testid="share-link" aria-label="Share link"
                    prop:value=move || share_link.get().unwrap_or_default()
                    on:focus=|e| { if let Some(i) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) { i.select(); } } />
            </Show>
        </div>
    }
}
