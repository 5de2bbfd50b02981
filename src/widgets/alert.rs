//! `alert` widget: a notice banner coloured by level; warnings and errors are announced at once,
//! notices politely.

use autoui_core::view::fields::{Fields, Read};
use leptos::prelude::*;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, parse};

struct AlertData {
    title: Option<String>,
    message: Option<String>,
    level: Option<String>,
}

impl AlertData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(AlertData {
            title: fields.text("title")?,
            message: fields.text("message")?,
            level: fields.text("level")?,
        })
    }
}

#[derive(Clone, Copy)]
enum Level {
    Info,
    Warn,
    Error,
}

impl Level {
    /// `warn` unless the data says otherwise; also reads the model's usual near misses.
    fn from_name(name: Option<&str>) -> Level {
        match name.map(|n| n.trim().to_ascii_lowercase()).as_deref() {
            Some("info" | "information" | "notice" | "success") => Level::Info,
            Some("error" | "danger" | "critical" | "fatal") => Level::Error,
            _ => Level::Warn,
        }
    }

    fn class(self) -> &'static str {
        match self {
            Level::Info => "au-alert au-alert--info",
            Level::Warn => "au-alert au-alert--warn",
            Level::Error => "au-alert au-alert--error",
        }
    }

    /// Errors and warnings interrupt a screen reader; notices wait their turn.
    fn role(self) -> &'static str {
        match self {
            Level::Info => "status",
            Level::Warn | Level::Error => "alert",
        }
    }

    fn spoken(self) -> &'static str {
        match self {
            Level::Info => "Information: ",
            Level::Warn => "Warning: ",
            Level::Error => "Error: ",
        }
    }

    /// The icon's SVG path (24×24): an "i" in a circle, a warning triangle, a cross in a circle.
    fn icon(self) -> &'static str {
        match self {
            Level::Info => "M12 22a10 10 0 1 1 0-20 10 10 0 0 1 0 20Zm0-11v6m0-9.5v.5",
            Level::Warn => {
                "M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0ZM12 9v4m0 4h.01"
            }
            Level::Error => "M12 22a10 10 0 1 1 0-20 10 10 0 0 1 0 20Zm3-13-6 6m0-6 6 6",
        }
    }
}

#[component]
pub fn Alert(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    move || {
        data.with(|value| match parse(value, AlertData::read) {
            Ok(alert) => {
                let title = alert.title.filter(|text| !text.trim().is_empty());
                let message = alert.message.filter(|text| !text.trim().is_empty());
                if title.is_none() && message.is_none() {
                    return view! { <EmptyState message="No notice to show" /> }.into_any();
                }
                let level = Level::from_name(alert.level.as_deref());
                view! {
                    <div class=level.class() role=level.role()>
                        <svg class="au-alert__icon" viewBox="0 0 24 24" aria-hidden="true">
                            <path d=level.icon() />
                        </svg>
                        <div class="au-alert__body">
                            <span class="au-visually-hidden">{level.spoken()}</span>
                            {title.map(|title| view! { <p class="au-alert__title">{title}</p> })}
                            {message.map(|message| view! { <p class="au-alert__message">{message}</p> })}
                        </div>
                    </div>
                }
                .into_any()
            }
            Err(error) => view! { <WidgetError message=format!("the alert data is not valid: {error}") /> }.into_any(),
        })
    }
}
