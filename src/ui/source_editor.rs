//! The source of a bound widget, opened from its menu (in the engine chunk, `chunks::engine`): the
//! tool (or resource), arguments, map and refresh schedule it shows; the arguments (JSON) and the
//! map (jq) are checked as the person types, with where each is wrong; Apply runs the source once
//! (on success the widget shows its output, on failure nothing changes and the error stays, a
//! schema error with each path); Unbind keeps the data as a snapshot. A modal `<dialog>`: Escape
//! closes it and focus goes back to the button that opened it.

use autoui_core::autoui::bind::RebindError;
use autoui_core::binding::edit;
use autoui_core::binding::source::{Source, Target};
use autoui_core::canvas::op::Op;
use autoui_core::ids::BlockId;
use autoui_core::tool::Origin;
use leptos::html::Dialog;
use leptos::prelude::*;

use crate::adapters::clock::local_time;
use crate::state::autoui::use_autoui;
use crate::state::canvas::use_canvas;

/// Characters of the map's output shown under a schema error.
const OUTPUT_PREVIEW_CHARS: usize = 800;

/// Where an Apply stands.
#[derive(Clone, Debug, PartialEq)]
enum Applying {
    Idle,
    Running,
    Failed(RebindError),
}

#[component]
pub fn SourceEditor(id: BlockId, close: Callback<()>) -> impl IntoView {
    let canvas = use_canvas();
    let autoui = use_autoui();
    let binding = canvas.cell(&id).and_then(|cell| cell.frame.with_untracked(|frame| frame.binding.clone()));
    let Some(binding) = binding else {
        // Unbound meanwhile (another tab, the model): nothing to edit.
        close.run(());
        return ().into_any();
    };
    let source: Source = binding.source.clone();
    let dom_id = format!("au-source-{id}");
    let (arguments_id, map_id) = (format!("{dom_id}-arguments"), format!("{dom_id}-map"));
    let (arguments_error_id, map_error_id) = (format!("{arguments_id}-error"), format!("{map_id}-error"));
    let title_id = format!("{dom_id}-title");

    let arguments = RwSignal::new(edit::arguments_text(&source).unwrap_or_default());
    let map = RwSignal::new(source.map.clone().unwrap_or_default());
    let has_arguments = matches!(source.target, Target::Call { .. });
    let arguments_error = Memo::new(move |_| match has_arguments {
        true => arguments.with(|text| edit::read_arguments(text).err()),
        false => None,
    });
    let map_error = Memo::new(move |_| map.with(|text| edit::read_map(text).err()));
    let applying = RwSignal::new(Applying::Idle);
    let blocked = move || arguments_error.with(Option::is_some) || map_error.with(Option::is_some) || applying.with(|a| *a == Applying::Running);

    let dialog = NodeRef::<Dialog>::new();
    Effect::new(move |_| {
        if let Some(dialog) = dialog.get()
            && !dialog.open()
        {
            let _ = dialog.show_modal();
        }
    });

    let apply = {
        let (id, source) = (id.clone(), source.clone());
        move |_| {
            let Ok(edited) = arguments.with_untracked(|a| map.with_untracked(|m| edit::edited(&source, a, m))) else { return };
            applying.set(Applying::Running);
            let (id, server) = (id.clone(), autoui.server());
            leptos::task::spawn_local(async move {
                match server.rebind(&id, edited).await {
                    Ok(()) => {
                        applying.set(Applying::Idle);
                        close.run(());
                    }
                    Err(error) => applying.set(Applying::Failed(error)),
                }
            });
        }
    };
    let unbind = {
        let id = id.clone();
        move |_| match canvas.apply(Op::Bind { id: id.clone(), binding: None }, Origin::User) {
            Ok(_) => close.run(()),
            Err(error) => applying.set(Applying::Failed(RebindError::Other(error.to_string()))),
        }
    };

    let (what, target) = match &source.target {
        Target::Call { call, .. } => ("Tool", call.clone()),
        Target::Resource { resource } => ("Resource", resource.clone()),
    };
    let fetched = binding.fetched_ms.map(local_time).unwrap_or_else(|| "not yet".to_owned());
    let failure = move || {
        let Applying::Failed(error) = applying.get() else { return None };
        Some(match error {
            RebindError::Schema { details, mapped } => {
                let mut output = serde_json::to_string_pretty(&mapped).unwrap_or_default();
                if output.chars().count() > OUTPUT_PREVIEW_CHARS {
                    output = output.chars().take(OUTPUT_PREVIEW_CHARS).chain(['\u{2026}']).collect();
                }
                view! {
                    <div class="au-source__failure" role="alert" data-testid="source-apply-error">
                        <p>"The map's output does not fit this widget; nothing was changed."</p>
                        <ul data-testid="source-schema-errors">
                            {details.into_iter().map(|detail| view! {
                                <li><code>{if detail.path.is_empty() { "/".to_owned() } else { detail.path }}</code>" "{detail.message}</li>
                            }).collect_view()}
                        </ul>
                        <p>"The map produced:"</p>
                        <pre class="au-source__output" tabindex="0">{output}</pre>
                    </div>
                }
                .into_any()
            }
            RebindError::Source(message) | RebindError::Other(message) => view! {
                <div class="au-source__failure" role="alert" data-testid="source-apply-error">
                    <p>{format!("Not applied, nothing was changed: {message}")}</p>
                </div>
            }
            .into_any(),
        })
    };

    view! {
        <dialog class="au-source" node_ref=dialog aria-labelledby=title_id.clone() data-testid="source-editor"
            on:close=move |_| close.run(())>
            <form class="au-source__form" method="dialog" on:submit=|event| event.prevent_default()>
                <h2 class="au-source__title" id=title_id.clone()>"Data source"</h2>
                <dl class="au-source__facts">
                    <dt>{what}</dt><dd><code data-testid="source-target">{target}</code></dd>
                    <dt>"Refresh"</dt><dd data-testid="source-refresh">{source.refresh.to_string()}</dd>
                    <dt>"Fetched"</dt><dd>{fetched}</dd>
                    {binding.error.clone().map(|error| view! { <dt>"Last refresh"</dt><dd>{format!("failed: {error}")}</dd> })}
                </dl>
                {has_arguments.then(|| view! {
                    <label class="au-source__label" for=arguments_id.clone()>"Arguments (JSON object)"</label>
                    <textarea class="au-source__code" id=arguments_id.clone() rows="4" spellcheck="false" data-testid="source-arguments"
                        aria-invalid=move || arguments_error.with(Option::is_some).to_string()
                        aria-describedby=arguments_error_id.clone()
                        prop:value=move || arguments.get() on:input=move |event| arguments.set(event_target_value(&event))></textarea>
                    <p class="au-source__error" id=arguments_error_id.clone() aria-live="polite" data-testid="source-arguments-error">
                        {move || arguments_error.get().unwrap_or_default()}
                    </p>
                })}
                <label class="au-source__label" for=map_id.clone()>"Map (jq, from the result to the widget's params)"</label>
                <textarea class="au-source__code" id=map_id rows="4" spellcheck="false" data-testid="source-map"
                    aria-invalid=move || map_error.with(Option::is_some).to_string()
                    aria-describedby=map_error_id.clone()
                    prop:value=move || map.get() on:input=move |event| map.set(event_target_value(&event))></textarea>
                <p class="au-source__error" id=map_error_id aria-live="polite" data-testid="source-map-error">
                    {move || map_error.get().unwrap_or_default()}
                </p>
                {failure}
                <div class="au-source__actions">
                    <button type="button" class="au-button au-button--primary" data-testid="source-apply"
                        disabled=blocked on:click=apply>
                        {move || if applying.with(|a| *a == Applying::Running) { "Applying\u{2026}" } else { "Apply" }}
                    </button>
                    <button type="button" class="au-button" data-testid="source-unbind"
                        title="Keep the data shown now and stop refreshing it" on:click=unbind>"Unbind"</button>
                    <button type="button" class="au-button" data-testid="source-close" on:click=move |_| close.run(())>"Close"</button>
                </div>
            </form>
        </dialog>
    }
    .into_any()
}
