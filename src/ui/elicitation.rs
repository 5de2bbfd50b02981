//! Elicitation forms in the chat: what a server asks the person, as the core's form (text with its
//! format, numbers, yes/no, single and multiple choices), pre-filled with the schema's defaults.
//! Accept checks every field and shows what is wrong instead of sending; Decline and Cancel answer
//! without content. Nothing is sent to the server before the person presses one of them. A page a
//! server asks them to open (URL mode) shows its host and opens only on their click.

use autoui_core::mcp::elicit::form::{Field, FieldKind, Form, TextFormat};
use autoui_core::mcp::elicit::{ElicitationAnswer, ElicitationKind};
use leptos::prelude::*;
use serde_json::{Map, Value};

use crate::adapters::open_url::open_in_new_tab;
use crate::state::elicitation::ElicitationCtx;

/// Every pending question, oldest first.
#[component]
pub fn ElicitationForms(ctx: ElicitationCtx) -> impl IntoView {
    view! {
        <For each=move || ctx.pending() key=|(id, _)| *id let((id, request))>
            {match request.kind {
                ElicitationKind::Form(form) => {
                    view! { <ElicitationForm ctx id server=request.server message=request.message form /> }.into_any()
                }
                ElicitationKind::Url { url, host, .. } => {
                    view! { <UrlElicitation ctx id server=request.server message=request.message url host /> }.into_any()
                }
            }}
        </For>
    }
}

#[component]
fn ElicitationForm(ctx: ElicitationCtx, id: u64, server: String, message: String, form: Form) -> impl IntoView {
    let values = RwSignal::new(form.prefilled());
    let problems = RwSignal::new(Vec::<String>::new());
    let fields = form.fields.clone();
    let accept = move || match entered(&form, &values.get_untracked()) {
        Ok(content) => ctx.answer(id, ElicitationAnswer::Accept(content)),
        Err(found) => problems.set(found),
    };

    view! {
        <section class="au-elicit" data-testid="elicitation" role="group" aria-label=format!("{server} asks for input")>
            <p class="au-elicit__from">{format!("The {server} server asks:")}</p>
            <p class="au-elicit__message" data-testid="elicitation-message">{message}</p>
            <form class="au-elicit__form" novalidate on:submit=move |event| { event.prevent_default(); accept(); }>
                {fields.into_iter().map(|field| view! { <FieldInput field values /> }).collect_view()}
                {move || {
                    let found = problems.get();
                    (!found.is_empty()).then(|| view! {
                        <div role="alert" data-testid="elicitation-problems">
                            <ul class="au-elicit__problems">
                                {found.into_iter().map(|problem| view! { <li>{problem}</li> }).collect_view()}
                            </ul>
                        </div>
                    })
                }}
                <div class="au-elicit__actions">
                    <button type="submit" class="au-button au-button--primary" data-testid="elicitation-accept">"Accept"</button>
                    <button type="button" class="au-button" data-testid="elicitation-decline"
                        on:click=move |_| ctx.answer(id, ElicitationAnswer::Decline)>"Decline"</button>
                    <button type="button" class="au-button au-button--ghost" data-testid="elicitation-cancel"
                        on:click=move |_| ctx.answer(id, ElicitationAnswer::Cancel)>"Cancel"</button>
                </div>
            </form>
        </section>
    }
}

/// A server asks the person to open a page (URL mode): its host is shown first, and the page opens
/// only when they press Open, which is also their consent sent to the server.
#[component]
fn UrlElicitation(ctx: ElicitationCtx, id: u64, server: String, message: String, url: String, host: String) -> impl IntoView {
    let problem = RwSignal::new(None::<String>);
    let target = url.clone();
    let open = move |_| match open_in_new_tab(&target) {
        true => ctx.answer(id, ElicitationAnswer::Accept(Map::new())),
        false => problem.set(Some("The browser did not open the page; allow pop-ups for this site and try again.".to_owned())),
    };
    view! {
        <section class="au-elicit" data-testid="elicitation" data-mode="url" role="group" aria-label=format!("{server} asks you to open a page")>
            <p class="au-elicit__from">{format!("The {server} server asks you to open a page on")}" "
                <strong data-testid="elicitation-host">{host.clone()}</strong></p>
            <p class="au-elicit__message" data-testid="elicitation-message">{message}</p>
            <p class="au-elicit__url"><code data-testid="elicitation-url">{url}</code></p>
            {move || problem.get().map(|reason| view! { <p class="au-elicit__problems" role="alert">{reason}</p> })}
            <div class="au-elicit__actions">
                <button type="button" class="au-button au-button--primary" data-testid="elicitation-open" on:click=open>
                    {format!("Open {host}")}
                </button>
                <button type="button" class="au-button" data-testid="elicitation-decline"
                    on:click=move |_| ctx.answer(id, ElicitationAnswer::Decline)>"Decline"</button>
                <button type="button" class="au-button au-button--ghost" data-testid="elicitation-cancel"
                    on:click=move |_| ctx.answer(id, ElicitationAnswer::Cancel)>"Cancel"</button>
            </div>
        </section>
    }
}

/// The values to send, typed as the form wants them, or what is wrong with them.
fn entered(form: &Form, values: &Map<String, Value>) -> Result<Map<String, Value>, Vec<String>> {
    let mut content = Map::new();
    let mut problems = Vec::new();
    for field in &form.fields {
        match values.get(&field.name) {
            // Text boxes hold what was typed; numbers are read from it, and an empty box gives nothing.
            Some(Value::String(raw)) if !matches!(field.kind, FieldKind::Choice { .. }) => match field.parse_input(raw) {
                Ok(Some(value)) => {
                    content.insert(field.name.clone(), value);
                }
                Ok(None) => {}
                Err(reason) => problems.push(format!("{}: {reason}", field.label)),
            },
            Some(value) => {
                content.insert(field.name.clone(), value.clone());
            }
            None => {}
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    form.check(&content).map_err(|found| found.iter().map(ToString::to_string).collect())
}

#[component]
fn FieldInput(field: Field, values: RwSignal<Map<String, Value>>) -> impl IntoView {
    let name = field.name.clone();
    let label = if field.required { format!("{} *", field.label) } else { field.label.clone() };
    let description = field.description.clone();
    let set = {
        let name = name.clone();
        move |value: Value| values.update(|values| { values.insert(name.clone(), value); })
    };
    let text = {
        let name = name.clone();
        move || values.with(|values| match values.get(&name) {
            Some(Value::String(text)) => text.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        })
    };
    let input = match field.kind.clone() {
        FieldKind::Text { format, min_length, max_length, .. } => {
            let kind = match format {
                Some(TextFormat::Email) => "email",
                Some(TextFormat::Uri) => "url",
                Some(TextFormat::Date) => "date",
                Some(TextFormat::DateTime) | None => "text",
            };
            let set = set.clone();
            view! {
                <input type=kind data-testid="elicitation-input" minlength=min_length maxlength=max_length
                    prop:value=text on:input=move |event| set(Value::String(event_target_value(&event))) />
            }
            .into_any()
        }
        FieldKind::Number { integer, .. } => {
            let set = set.clone();
            view! {
                <input type="text" data-testid="elicitation-input" inputmode=if integer { "numeric" } else { "decimal" }
                    prop:value=text on:input=move |event| set(Value::String(event_target_value(&event))) />
            }
            .into_any()
        }
        FieldKind::Boolean { .. } => {
            let name = name.clone();
            let set = set.clone();
            let checked = move || values.with(|values| values.get(&name).and_then(Value::as_bool).unwrap_or(false));
            view! {
                <input type="checkbox" data-testid="elicitation-input"
                    prop:checked=checked on:change=move |event| set(Value::Bool(event_target_checked(&event))) />
            }
            .into_any()
        }
        FieldKind::Choice { options, .. } => {
            let set = set.clone();
            let chosen = text.clone();
            view! {
                <select data-testid="elicitation-input"
                    on:change=move |event| {
                        let value = event_target_value(&event);
                        set(if value.is_empty() { Value::Null } else { Value::String(value) });
                    }>
                    <option value="" selected=move || chosen().is_empty()>"\u{2014}"</option>
                    {options.into_iter().map(|option| {
                        let value = option.value.clone();
                        let chosen = text.clone();
                        view! { <option value=option.value selected=move || chosen() == value>{option.label}</option> }
                    }).collect_view()}
                </select>
            }
            .into_any()
        }
        FieldKind::MultiChoice { options, .. } => {
            let boxes = options
                .into_iter()
                .map(|option| {
                    let name = name.clone();
                    let value = option.value.clone();
                    let is_chosen = {
                        let (name, value) = (name.clone(), value.clone());
                        move || values.with(|values| chosen_options(values, &name).contains(&value))
                    };
                    let toggle = move |on: bool| {
                        values.update(|values| {
                            let mut chosen = chosen_options(values, &name);
                            chosen.retain(|item| item != &value);
                            if on {
                                chosen.push(value.clone());
                            }
                            values.insert(name.clone(), Value::Array(chosen.into_iter().map(Value::String).collect()));
                        })
                    };
                    view! {
                        <label class="au-elicit__option">
                            <input type="checkbox" data-testid="elicitation-option" data-option=option.value.clone()
                                prop:checked=is_chosen on:change=move |event| toggle(event_target_checked(&event)) />
                            {option.label}
                        </label>
                    }
                })
                .collect_view();
            view! { <span class="au-elicit__options">{boxes}</span> }.into_any()
        }
    };
    view! {
        <label class="au-field au-elicit__field" data-testid="elicitation-field" data-field=name>
            <span>{label}</span>
            {input}
            {description.map(|text| view! { <small class="au-field__note">{text}</small> })}
        </label>
    }
}

fn chosen_options(values: &Map<String, Value>, name: &str) -> Vec<String> {
    values
        .get(name)
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}
