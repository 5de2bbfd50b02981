//! Approval cards in the chat: a tool call that waits for the person shows the tool, its server, its
//! annotations and its arguments as editable JSON. Allow once, Allow for this chat and Always allow
//! check an edit against the tool's `inputSchema` first and show the reason instead of running an
//! invalid one; Deny answers the model that the person declined. Nothing runs before a button is pressed.

use autoui_core::approval::{AllowScope, ApprovalAnswer, ApprovalRequest, ToolFacts, check_arguments};
use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::state::approval::ApprovalCtx;

/// Every call waiting for approval, oldest first.
#[component]
pub fn ApprovalCards(ctx: ApprovalCtx) -> impl IntoView {
    view! {
        <For each=move || ctx.pending() key=|(id, _)| *id let((id, request))>
            <ApprovalCard ctx id request />
        </For>
    }
}

#[component]
fn ApprovalCard(ctx: ApprovalCtx, id: u64, request: ApprovalRequest) -> impl IntoView {
    let original = serde_json::to_string_pretty(&request.args).unwrap_or_default();
    let text = RwSignal::new(original.clone());
    let problem = RwSignal::new(None::<String>);
    let checking = RwSignal::new(false);
    let schema = request.schema.clone();
    let model_args = request.args.clone();
    let allow = move |scope: AllowScope| {
        let edited = text.get_untracked();
        // The model's own arguments go as they are (the server judges them); an edit is checked first.
        if edited == original {
            ctx.answer(id, ApprovalAnswer::Allow { args: model_args.clone(), scope });
            return;
        }
        let schema = schema.clone();
        checking.set(true);
        spawn_local(async move {
            let validator = ctx.validator();
            let checked = check_arguments(&edited, &schema, validator.as_ref()).await;
            checking.try_set(false);
            match checked {
                Ok(args) => ctx.answer(id, ApprovalAnswer::Allow { args, scope }),
                Err(refused) => {
                    problem.try_set(Some(format!("Not run: {refused}")));
                }
            }
        });
    };
    let allow_once = allow.clone();
    let allow_chat = allow.clone();
    let server = request.server_name.clone();
    let tool = request.tool.clone();
    let title_id = format!("approval-title-{id}");
    let labelled_by = title_id.clone();
    let tool_attr = tool.clone();
    let args_id = format!("approval-args-{id}");
    let hints = hint_labels(request.facts);

    view! {
        <section class="au-approval" data-testid="approval" data-tool=tool_attr role="group" aria-labelledby=labelled_by>
            <p class="au-approval__title" id=title_id>
                "Run "<code data-testid="approval-tool">{tool.clone()}</code>" on the "
                <strong data-testid="approval-server">{server.clone()}</strong>" server?"
            </p>
            {(!request.description.is_empty()).then(|| view! { <p class="au-approval__description">{request.description.clone()}</p> })}
            <ul class="au-approval__hints" data-testid="approval-hints" aria-label="What the server says about this tool">
                {hints.into_iter().map(|(label, warn)| view! {
                    <li class=if warn { "au-approval__hint au-approval__hint--warn" } else { "au-approval__hint" }>{label}</li>
                }).collect_view()}
            </ul>
            <label class="au-field au-approval__args" for=args_id.clone()>"Arguments (JSON, editable)"</label>
            <textarea id=args_id class="au-approval__json" data-testid="approval-args" rows="6" spellcheck="false"
                prop:value=move || text.get() on:input=move |event| { text.set(event_target_value(&event)); problem.set(None); }>
            </textarea>
            {move || problem.get().map(|reason| view! {
                <p class="au-approval__problem" role="alert" data-testid="approval-problem">{reason}</p>
            })}
            <div class="au-approval__actions">
                <button type="button" class="au-button au-button--primary" data-testid="approval-allow-once"
                    disabled=move || checking.get() on:click=move |_| allow_once(AllowScope::Once)>"Allow once"</button>
                <button type="button" class="au-button" data-testid="approval-allow-chat"
                    disabled=move || checking.get() on:click=move |_| allow_chat(AllowScope::ForChat)>"Allow for this chat"</button>
                <button type="button" class="au-button" data-testid="approval-allow-always"
                    disabled=move || checking.get() on:click=move |_| allow(AllowScope::Always)>"Always allow"</button>
                <button type="button" class="au-button au-button--danger" data-testid="approval-deny"
                    on:click=move |_| ctx.answer(id, ApprovalAnswer::Deny)>"Deny"</button>
            </div>
        </section>
    }
}

/// The annotations as the person reads them, each marked when it calls for care. These are the
/// server's own claims, so the card says so.
fn hint_labels(facts: ToolFacts) -> Vec<(&'static str, bool)> {
    let mut labels = Vec::new();
    labels.push(if facts.read_only { ("Read-only (says the server)", false) } else { ("May change data", true) });
    match facts.hints.destructive {
        Some(true) => labels.push(("Destructive", true)),
        Some(false) => labels.push(("Not destructive", false)),
        None => {}
    }
    match facts.hints.idempotent {
        Some(true) => labels.push(("Idempotent", false)),
        Some(false) => labels.push(("Not idempotent", false)),
        None => {}
    }
    if facts.hints.open_world == Some(true) {
        labels.push(("Reaches outside systems", false));
    }
    labels
}
