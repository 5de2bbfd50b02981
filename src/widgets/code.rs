//! `code` widget: source or command output in a monospace frame with line numbers, its language
//! label and a copy button (Clipboard API; where that is missing or refused, the code is selected
//! so the user can press Ctrl+C).

use std::time::Duration;

use autoui_core::view::fields::{Fields, Read};
use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, parse};

/// How long "Copied" stays on the button.
const STATUS_TIME: Duration = Duration::from_secs(2);

struct CodeData {
    content: Option<String>,
    lang: Option<String>,
}

impl CodeData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(CodeData {
            content: fields.text("content")?,
            lang: fields.text("lang")?,
        })
    }
}

/// What the copy button last did.
#[derive(Clone, Copy, PartialEq)]
enum CopyStatus {
    Idle,
    Copied,
    /// The clipboard was unavailable: the code is selected instead.
    Selected,
}

impl CopyStatus {
    fn label(self) -> &'static str {
        match self {
            CopyStatus::Idle => "Copy",
            CopyStatus::Copied => "Copied",
            CopyStatus::Selected => "Press Ctrl+C",
        }
    }

    fn announcement(self) -> &'static str {
        match self {
            CopyStatus::Idle => "",
            CopyStatus::Copied => "Code copied to the clipboard",
            CopyStatus::Selected => {
                "The clipboard is not available; the code is selected, press Ctrl+C to copy it"
            }
        }
    }
}

#[component]
pub fn Code(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    let status = RwSignal::new(CopyStatus::Idle);
    move || {
        data.with(|value| match parse(value, CodeData::read) {
            Ok(CodeData {
                content: Some(content),
                lang,
            }) if !content.trim().is_empty() => {
                let lang = lang
                    .filter(|lang| !lang.trim().is_empty())
                    .unwrap_or_else(|| "text".to_owned());
                code_view(content, lang, status).into_any()
            }
            Ok(_) => view! { <EmptyState message="No code to show" /> }.into_any(),
            Err(error) => {
                view! { <WidgetError message=format!("the code data is not valid: {error}") /> }
                    .into_any()
            }
        })
    }
}

fn code_view(content: String, lang: String, status: RwSignal<CopyStatus>) -> impl IntoView {
    let code_ref = NodeRef::<html::Code>::new();
    let lines = content.trim_end_matches('\n').lines().count().max(1);
    let gutter = (lines > 1).then(|| {
        let numbers = (1..=lines)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join("\n");
        view! { <pre class="au-code__gutter" aria-hidden="true">{numbers}</pre> }
    });
    let region_label = match lines {
        1 => format!("{lang} code, 1 line"),
        lines => format!("{lang} code, {lines} lines"),
    };
    let text = content.clone();
    let copy = move |_| {
        let text = text.clone();
        leptos::task::spawn_local(async move {
            let outcome = match write_clipboard(&text).await {
                true => CopyStatus::Copied,
                false => {
                    select_contents(code_ref);
                    CopyStatus::Selected
                }
            };
            status.set(outcome);
            set_timeout(move || status.set(CopyStatus::Idle), STATUS_TIME);
        });
    };
    view! {
        <div class="au-code">
            <div class="au-code__header">
                <span class="au-code__lang">{lang.clone()}</span>
                <button type="button" class="au-code__copy" class:au-code__copy--done=move || status.get() != CopyStatus::Idle
                    on:click=copy aria-label=move || format!("{} the {lang} code", status.get().label())>
                    <svg viewBox="0 0 16 16" aria-hidden="true">
                        <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
                        <path d="M10.5 3.5v-.5a1.5 1.5 0 0 0-1.5-1.5H4A1.5 1.5 0 0 0 2.5 3v5A1.5 1.5 0 0 0 4 9.5h.5" />
                    </svg>
                    <span>{move || status.get().label()}</span>
                </button>
                <span class="au-visually-hidden" role="status">{move || status.get().announcement()}</span>
            </div>
            <div class="au-code__frame" tabindex="0" role="region" aria-label=region_label>
                {gutter}
                <pre class="au-code__pre"><code node_ref=code_ref>{content}</code></pre>
            </div>
        </div>
    }
}

/// Writes `text` to the clipboard; false when the API is missing (insecure page) or refused.
async fn write_clipboard(text: &str) -> bool {
    let navigator = window().navigator();
    let clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into())
        .unwrap_or(wasm_bindgen::JsValue::UNDEFINED);
    if clipboard.is_undefined() || clipboard.is_null() {
        return false;
    }
    let clipboard: web_sys::Clipboard = clipboard.unchecked_into();
    JsFuture::from(clipboard.write_text(text)).await.is_ok()
}

/// Selects the code so a keyboard copy takes exactly it.
fn select_contents(code_ref: NodeRef<html::Code>) {
    let (Some(code), Ok(Some(selection))) = (code_ref.get_untracked(), window().get_selection())
    else {
        return;
    };
    let _ = selection.select_all_children(&code);
}
