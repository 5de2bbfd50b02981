//! Pieces every widget shares: typed parsing of its data, empty and error states, the title.
//! Pure presentation rules (safe URLs, numbers, colours, initials) live in `autoui_core::view::present`.

use leptos::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Reads a widget's data into its typed form without cloning the JSON tree.
pub fn parse<T: DeserializeOwned>(data: &Value) -> Result<T, String> {
    T::deserialize(data).map_err(|error| error.to_string())
}

/// Shown instead of a widget whose data cannot be rendered, saying why.
#[component]
pub fn WidgetError(#[prop(into)] message: String) -> impl IntoView {
    view! {
        <div class="au-widget-error" role="alert" data-testid="widget-error">
            <strong>"This widget cannot be shown"</strong>
            <span>{message}</span>
        </div>
    }
}

/// A considered empty state: the widget rendered, there is just nothing in it yet.
#[component]
pub fn EmptyState(#[prop(into)] message: String) -> impl IntoView {
    view! { <div class="au-empty" data-testid="widget-empty">{message}</div> }
}

/// A widget's optional title, as the card heading.
#[component]
pub fn WidgetTitle(#[prop(into)] title: Option<String>) -> impl IntoView {
    title.filter(|t| !t.trim().is_empty()).map(|title| view! { <h3 class="au-widget-title">{title}</h3> })
}
