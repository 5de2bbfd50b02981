//! The chat's `/` prompt picker: a draft that is `/` and one word lists the connected servers'
//! prompts that match it; choosing one shows its argument form (required ones marked), and the
//! filled prompt's messages (`prompts/get`) replace the draft, to be edited and sent as the start of
//! the turn. An argument's box offers the server's suggestions (`completion/complete`) when it has
//! any. A prompt the server fails to give is a clear error here; the draft and the values typed
//! stay. Comes with the engine (`chunks::engine`), like the servers it reads.

use std::collections::BTreeMap;

use autoui_core::cancel::CancelToken;
use autoui_core::mcp::model::prompt::PromptArgument;
use autoui_core::mcp::prompts::{PromptChoice, filled, matching, missing_required, query, turn_text};
use leptos::prelude::*;

use crate::state::servers::use_servers;

/// Where getting the chosen prompt stands.
#[derive(Clone, Debug, PartialEq)]
enum Fetch {
    Idle,
    Running,
    Failed(String),
}

/// The list of matching prompts, or the chosen prompt's form. `picking` is set while either shows,
/// so Enter in the message box does not send the `/` search as a message.
#[component]
pub fn PromptPicker(draft: RwSignal<String>, picking: RwSignal<bool>) -> impl IntoView {
    let servers = use_servers();
    let chosen = RwSignal::new(None::<PromptChoice>);
    let values = RwSignal::new(BTreeMap::<String, String>::new());
    let fetch = RwSignal::new(Fetch::Idle);
    let found = Memo::new(move |_| {
        let query = draft.with(|draft| query(draft).map(str::to_owned))?;
        let choices = servers.prompts();
        let found: Vec<PromptChoice> = matching(&choices, &query).into_iter().cloned().collect();
        (!found.is_empty()).then_some(found)
    });
    Effect::new(move |_| picking.set(chosen.with(Option::is_some) || found.with(Option::is_some)));

    let get = move |choice: PromptChoice| {
        let missing = missing_required(&choice.prompt, &values.get_untracked());
        if !missing.is_empty() {
            fetch.set(Fetch::Failed(format!("Fill in the required arguments: {}", missing.join(", "))));
            return;
        }
        fetch.set(Fetch::Running);
        let hub = servers.hub();
        let arguments = filled(&values.get_untracked());
        leptos::task::spawn_local(async move {
            match hub.get_prompt(&choice.server, &choice.prompt.name, arguments, CancelToken::new()).await {
                Ok(result) => {
                    draft.set(turn_text(&result));
                    chosen.set(None);
                    fetch.set(Fetch::Idle);
                }
                Err(error) => fetch.set(Fetch::Failed(error)),
            }
        });
    };
    let choose = move |choice: PromptChoice| {
        values.set(BTreeMap::new());
        fetch.set(Fetch::Idle);
        let ask_first = !choice.prompt.arguments.is_empty();
        chosen.set(Some(choice.clone()));
        if !ask_first {
            get(choice);
        }
    };

    move || match chosen.get() {
        Some(choice) => view! { <PromptForm choice values fetch chosen get /> }.into_any(),
        None => found.get().map(|found| view! { <PromptList found choose /> }.into_any()).unwrap_or_else(|| ().into_any()),
    }
}

#[component]
fn PromptList(found: Vec<PromptChoice>, choose: impl Fn(PromptChoice) + Copy + 'static) -> impl IntoView {
    view! {
        <section class="au-prompts" data-testid="prompt-list" aria-label="Prompts of the connected servers">
            <ul class="au-prompts__list">
                {found.into_iter().map(|choice| {
                    let label = choice.label().to_owned();
                    let name = format!("/{}", choice.prompt.name);
                    let server = choice.server.to_string();
                    let description = choice.prompt.description.clone().unwrap_or_default();
                    view! {
                        <li>
                            <button type="button" class="au-prompts__option" data-testid="prompt-option"
                                on:click=move |_| choose(choice.clone())>
                                <span class="au-prompts__name">{label}</span>
                                <code class="au-prompts__command">{name}</code>
                                <span class="au-prompts__server">{server}</span>
                                <span class="au-prompts__description">{description}</span>
                            </button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}

#[component]
fn PromptForm(
    choice: PromptChoice,
    values: RwSignal<BTreeMap<String, String>>,
    fetch: RwSignal<Fetch>,
    chosen: RwSignal<Option<PromptChoice>>,
    get: impl Fn(PromptChoice) + Copy + 'static,
) -> impl IntoView {
    let title = format!("{} \u{2014} a prompt of the {} server", choice.label(), choice.server);
    let arguments = choice.prompt.arguments.clone();
    let description = choice.prompt.description.clone();
    let aria_label = title.clone();
    view! {
        <section class="au-prompts au-prompts--form" data-testid="prompt-form" role="group" aria-label=aria_label>
            <p class="au-prompts__title">{title}</p>
            {description.map(|text| view! { <p class="au-prompts__description">{text}</p> })}
            <form class="au-elicit__form" novalidate on:submit=move |event| { event.prevent_default(); get(choice.clone()); }>
                {arguments.into_iter().map(|argument| {
                    let choice = choice.clone();
                    view! { <ArgumentInput choice argument values /> }
                }).collect_view()}
                {move || match fetch.get() {
                    Fetch::Idle => ().into_any(),
                    Fetch::Running => view! { <p role="status" data-testid="prompt-status">"Getting the prompt\u{2026}"</p> }.into_any(),
                    Fetch::Failed(error) => view! {
                        <p class="au-elicit__problems" role="alert" data-testid="prompt-error">{error}</p>
                    }.into_any(),
                }}
                <div class="au-elicit__actions">
                    <button type="submit" class="au-button au-button--primary" data-testid="prompt-use"
                        disabled=move || fetch.with(|fetch| *fetch == Fetch::Running)>"Use prompt"</button>
                    <button type="button" class="au-button au-button--ghost" data-testid="prompt-cancel"
                        on:click=move |_| { chosen.set(None); fetch.set(Fetch::Idle); }>"Cancel"</button>
                </div>
            </form>
        </section>
    }
}

/// One argument's box. When the server offers completions, what it suggests for the value typed so
/// far (given the other arguments filled) is offered under the box; the latest answer wins.
#[component]
fn ArgumentInput(choice: PromptChoice, argument: PromptArgument, values: RwSignal<BTreeMap<String, String>>) -> impl IntoView {
    let label = argument.title.clone().filter(|title| !title.trim().is_empty()).unwrap_or_else(|| argument.name.clone());
    let label = if argument.required { format!("{label} *") } else { label };
    let name = argument.name.clone();
    let value = {
        let name = name.clone();
        move || values.with(|values| values.get(&name).cloned().unwrap_or_default())
    };
    let list_id = format!("prompt-suggestions-{}-{}", choice.prompt.name, argument.name);
    let suggestions = RwSignal::new(Vec::<String>::new());
    let asked = StoredValue::new(0_u64);
    let servers = use_servers();
    let suggest = {
        let name = name.clone();
        move || {
            let typed = values.with_untracked(|values| values.get(&name).cloned().unwrap_or_default());
            let others: BTreeMap<String, String> =
                values.with_untracked(|values| filled(values).into_iter().filter(|(key, _)| key != &name).collect());
            let ask = asked.get_value() + 1;
            asked.set_value(ask);
            let (hub, choice, name) = (servers.hub(), choice.clone(), name.clone());
            leptos::task::spawn_local(async move {
                let found = hub
                    .complete_prompt_argument(&choice.server, &choice.prompt.name, &name, &typed, others, CancelToken::new())
                    .await;
                // Suggestions are a help: a failure leaves the box as it is.
                if asked.try_get_value() == Some(ask) {
                    suggestions.try_set(found.unwrap_or_default());
                }
            });
        }
    };
    let on_focus = suggest.clone();
    view! {
        <label class="au-field au-elicit__field" data-testid="prompt-field">
            <span>{label}</span>
            <input type="text" data-testid="prompt-argument" name=argument.name.clone() required=argument.required
                aria-required=argument.required.to_string() list=list_id.clone() autocomplete="off"
                prop:value=value
                on:focus=move |_| on_focus()
                on:input=move |event| {
                    let typed = event_target_value(&event);
                    values.update(|values| { values.insert(name.clone(), typed); });
                    suggest();
                } />
            <datalist id=list_id data-testid="prompt-suggestions">
                {move || suggestions.get().into_iter().map(|value| view! { <option value=value></option> }).collect_view()}
            </datalist>
            {argument.description.map(|text| view! { <small class="au-field__note">{text}</small> })}
        </label>
    }
}
