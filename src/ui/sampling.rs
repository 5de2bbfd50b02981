//! Sampling cards in the chat: a server asks the person's model for a completion. The card shows
//! which server asks, its instructions and messages, the model that would answer and what it may
//! cost; the last message is editable. Send goes through the configured provider; Decline tells the
//! server the person rejected it. Nothing is sent before a button is pressed.

use autoui_core::llm::message::{ContentBlock, Message, Role};
use autoui_core::mcp::sampling::SamplingReview;
use leptos::prelude::*;

use crate::state::sampling::SamplingCtx;

/// Every sampling request waiting, oldest first.
#[component]
pub fn SamplingCards(ctx: SamplingCtx) -> impl IntoView {
    view! {
        <For each=move || ctx.pending() key=|(id, _)| *id let((id, review))>
            <SamplingCard ctx id review />
        </For>
    }
}

#[component]
fn SamplingCard(ctx: SamplingCtx, id: u64, review: SamplingReview) -> impl IntoView {
    let text = RwSignal::new(review.request.last_user_text());
    let SamplingReview { request, model, provider, estimate } = review;
    let server = request.server.clone();
    let title_id = format!("sampling-title-{id}");
    let labelled_by = title_id.clone();
    let prompt_id = format!("sampling-prompt-{id}");
    let last_user = request.messages.iter().rposition(|message| message.role == Role::User);
    let earlier: Vec<Message> = request.messages[..last_user.unwrap_or(request.messages.len())].to_vec();
    let images = last_user.map_or(0, |index| {
        request.messages[index].content.iter().filter(|block| matches!(block, ContentBlock::Image { .. })).count()
    });
    let hints = request.model_hints.join(", ");
    let system = request.system_prompt.clone();
    let send = {
        let request = request.clone();
        move |_| ctx.answer(id, Some(request.clone().with_last_user_text(&text.get_untracked())))
    };

    view! {
        <section class="au-approval au-sampling" data-testid="sampling" role="group" aria-labelledby=labelled_by>
            <p class="au-approval__title" id=title_id>
                "The "<strong data-testid="sampling-server">{server}</strong>" server asks your model to answer:"
            </p>
            {system.map(|system| view! {
                <p class="au-sampling__system">"Its instructions: "<q data-testid="sampling-system">{system}</q></p>
            })}
            {(!earlier.is_empty()).then(|| view! {
                <ol class="au-sampling__earlier" aria-label="Earlier messages">
                    {earlier.into_iter().map(|message| view! {
                        <li>{format!("{}: {}", role_label(message.role), plain_text(&message))}</li>
                    }).collect_view()}
                </ol>
            })}
            <label class="au-field" for=prompt_id.clone()>"Message to the model (editable)"</label>
            <textarea id=prompt_id class="au-approval__json" data-testid="sampling-prompt" rows="4"
                prop:value=move || text.get() on:input=move |event| text.set(event_target_value(&event))>
            </textarea>
            {(images > 0).then(|| view! { <p class="au-field__note">{format!("with {images} image(s) from the server")}</p> })}
            <ul class="au-approval__hints">
                <li class="au-approval__hint" data-testid="sampling-model">{format!("Answered by {model} ({provider})")}</li>
                <li class="au-approval__hint" data-testid="sampling-cost">{estimate.describe()}</li>
                {(!hints.is_empty()).then(|| view! { <li class="au-approval__hint">{format!("The server would prefer: {hints}")}</li> })}
            </ul>
            <div class="au-approval__actions">
                <button type="button" class="au-button au-button--primary" data-testid="sampling-send" on:click=send>"Send to model"</button>
                <button type="button" class="au-button" data-testid="sampling-decline" on:click=move |_| ctx.answer(id, None)>"Decline"</button>
            </div>
        </section>
    }
}

fn role_label(role: Role) -> &'static str {
    match role {
        Role::User => "Server (as user)",
        Role::Assistant => "Model",
    }
}

fn plain_text(message: &Message) -> String {
    message
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" ")
}
