//! The chat panel: transcript and the message input.

use leptos::prelude::*;

#[component]
pub fn ChatPanel() -> impl IntoView {
    let draft = RwSignal::new(String::new());
    let transcript = RwSignal::new(Vec::<String>::new());
    let send = move || {
        let text = draft.get_untracked().trim().to_owned();
        if !text.is_empty() {
            transcript.update(|lines| lines.push(text));
            draft.set(String::new());
        }
    };

    view! {
        <aside class="au-chat" data-testid="chat" aria-label="Chat with the agent">
            <ol class="au-chat__transcript" data-testid="transcript">
                <For each=move || transcript.get().into_iter().enumerate() key=|(index, _)| *index let((_, line))>
                    <li class="au-chat__message au-chat__message--user">{line}</li>
                </For>
            </ol>
            <form class="au-chat__composer" on:submit=move |event| { event.prevent_default(); send(); }>
                <label class="au-visually-hidden" for="chat-input">"Message"</label>
                <textarea
                    id="chat-input"
                    class="au-chat__input"
                    data-testid="chat-input"
                    rows="2"
                    placeholder="Ask for a dashboard\u{2026}"
                    prop:value=move || draft.get()
                    on:input=move |event| draft.set(event_target_value(&event))
                    on:keydown=move |event| {
                        if event.key() == "Enter" && !event.shift_key() {
                            event.prevent_default();
                            send();
                        }
                    }
                ></textarea>
                <button type="submit" class="au-button au-button--primary" data-testid="send">"Send"</button>
            </form>
        </aside>
    }
}
