//! `chat-input` widget: the agent's question with a text field; Enter (or the send button) sends the
//! trimmed text to the agent and clears the field, Shift+Enter adds a line, and while the agent works
//! (`disabled`) a stop button replaces send; the field stays editable so a reply can be drafted.

use autoui_core::canvas::event::WidgetAction;
use autoui_core::view::fields::{Fields, Read};
use leptos::html;
use leptos::prelude::*;
use serde_json::{Value, json};
use web_sys::KeyboardEvent;

use crate::widgets::WidgetProps;
use crate::widgets::common::{WidgetError, parse};

const DEFAULT_PLACEHOLDER: &str = "Type a message...";

struct ChatInputData {
    title: Option<String>,
    placeholder: Option<String>,
    value: Option<String>,
    disabled: Option<bool>,
}

impl ChatInputData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(ChatInputData {
            title: fields.scalar_text("title")?,
            placeholder: fields.scalar_text("placeholder")?,
            value: fields.scalar_text("value")?,
            disabled: fields.flag("disabled")?,
        })
    }
}

#[component]
pub fn ChatInput(props: WidgetProps) -> impl IntoView {
    let WidgetProps { id, data, emit } = props;
    let field_id = format!("{id}-field");
    view! {
        <div class="au-chat-input">
            {move || data.with(|data| match parse(data, ChatInputData::read) {
                Err(error) => view! { <WidgetError message=format!("the chat-input data is not valid: {error}") /> }
                    .into_any(),
                Ok(settings) => render(settings, field_id.clone(), emit),
            })}
        </div>
    }
}

fn render(
    settings: ChatInputData,
    field_id: String,
    emit: Callback<(WidgetAction, Value)>,
) -> AnyView {
    let text = RwSignal::new(settings.value.unwrap_or_default());
    let disabled = settings.disabled.unwrap_or(false);
    let field = NodeRef::<html::Textarea>::new();
    let placeholder = settings
        .placeholder
        .filter(|placeholder| !placeholder.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_PLACEHOLDER.to_owned());
    let send = move || {
        let message = text.with_untracked(|text| text.trim().to_owned());
        if message.is_empty() || disabled {
            return;
        }
        emit.run((WidgetAction::Submit, json!({ "text": message })));
        text.set(String::new());
        if let Some(field) = field.get_untracked() {
            field.set_value("");
            drop(field.focus());
        }
    };
    let on_key = move |event: KeyboardEvent| {
        // Enter while an input method is composing picks a candidate; it must not send.
        if event.key() == "Enter" && !event.shift_key() && !event.is_composing() {
            event.prevent_default();
            send();
        }
    };
    let title = settings.title.filter(|title| !title.trim().is_empty());
    // Without a question above it, the field still needs a name.
    let label = title.is_none().then_some("Your reply");
    let button = if disabled {
        view! {
            <button type="button" class="au-chat-input__button au-chat-input__button--stop" aria-label="Stop"
                title="Stop" on:click=move |_| emit.run((WidgetAction::Stop, Value::Null))>
                <svg viewBox="0 0 16 16" aria-hidden="true"><rect x="4" y="4" width="8" height="8" rx="1.5" /></svg>
            </button>
        }
        .into_any()
    } else {
        view! {
            <button type="submit" class="au-chat-input__button" aria-label="Send" title="Send (Enter)"
                disabled=move || text.with(|text| text.trim().is_empty())>
                <svg viewBox="0 0 16 16" aria-hidden="true"><path d="M8 13V3M3.5 7.5 8 3l4.5 4.5" /></svg>
            </button>
        }
        .into_any()
    };
    view! {
        <form class="au-chat-input__form" class:au-chat-input__form--busy=disabled
            on:submit=move |event| { event.prevent_default(); send(); }>
            {title.map(|title| view! { <label class="au-chat-input__title" for=field_id.clone()>{title}</label> })}
            <div class="au-chat-input__row">
                <textarea id=field_id class="au-chat-input__field" node_ref=field rows="1" placeholder=placeholder
                    aria-label=label prop:value=move || text.get()
                    on:input=move |event| text.set(event_target_value(&event)) on:keydown=on_key></textarea>
                {button}
            </div>
            {disabled.then(|| view! { <p class="au-chat-input__status" role="status">"Working on it…"</p> })}
        </form>
    }
    .into_any()
}
