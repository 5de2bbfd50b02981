//! `actions` widget: a row of buttons; a click reports `ButtonClick` with `{label, index, action}`
//! so the agent can act on the choice. The last choice stays marked (by action id, so it survives
//! an update that keeps that action).

use autoui_core::canvas::event::WidgetAction;
use autoui_core::view::fields::{Fields, Read};
use leptos::prelude::*;
use serde_json::json;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse};

struct ActionsData {
    title: Option<String>,
    buttons: Vec<Button>,
}

impl ActionsData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(ActionsData {
            title: fields.text("title")?,
            buttons: fields.items("buttons", Button::read)?,
        })
    }
}

struct Button {
    label: String,
    action: Option<String>,
    primary: bool,
    variant: Option<String>,
    aria_label: Option<String>,
}

impl Button {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(Button {
            label: fields.required_text("label")?,
            action: fields.text("action")?,
            primary: fields.flag("primary")?.unwrap_or(false),
            variant: fields.text("variant")?,
            aria_label: fields.text("ariaLabel")?,
        })
    }
}

#[derive(Clone, Copy)]
enum Variant {
    Primary,
    Secondary,
    Danger,
}

impl Button {
    /// `variant` wins; the older `primary: true` still reads as primary.
    fn variant(&self) -> Variant {
        match self.variant.as_deref().map(str::trim) {
            Some(v)
                if v.eq_ignore_ascii_case("danger") || v.eq_ignore_ascii_case("destructive") =>
            {
                Variant::Danger
            }
            Some(v) if v.eq_ignore_ascii_case("primary") => Variant::Primary,
            _ if self.primary => Variant::Primary,
            _ => Variant::Secondary,
        }
    }

    /// The longer `ariaLabel`, kept starting with the visible label so a person who speaks or reads
    /// the label finds the button by it (WCAG 2.5.3, label in name).
    fn accessible_name(&self) -> Option<String> {
        let longer = self.aria_label.as_deref().map(str::trim).filter(|a| !a.is_empty())?;
        let label = self.label.trim();
        if longer.to_lowercase().contains(&label.to_lowercase()) {
            Some(longer.to_owned())
        } else {
            Some(format!("{label}: {longer}"))
        }
    }
}

impl Variant {
    fn class(self) -> &'static str {
        match self {
            Variant::Primary => "au-actions__button au-actions__button--primary",
            Variant::Secondary => "au-actions__button au-actions__button--secondary",
            Variant::Danger => "au-actions__button au-actions__button--danger",
        }
    }
}

#[component]
pub fn Actions(props: WidgetProps) -> impl IntoView {
    let WidgetProps { data, emit, .. } = props;
    let chosen = RwSignal::new(None::<String>);
    move || {
        data.with(|value| match parse(value, ActionsData::read) {
            Ok(actions) if actions.buttons.is_empty() => view! {
                <div class="au-actions">
                    <WidgetTitle title=actions.title />
                    <EmptyState message="No actions to choose from" />
                </div>
            }
            .into_any(),
            Ok(actions) => {
                let buttons = actions
                    .buttons
                    .into_iter()
                    .enumerate()
                    .map(|(index, button)| {
                        let variant = button.variant();
                        let name = button.accessible_name();
                        let action = button
                            .action
                            .clone()
                            .filter(|a| !a.trim().is_empty())
                            .unwrap_or_else(|| button.label.clone());
                        let payload =
                            json!({"label": button.label, "index": index, "action": action});
                        view! {
                            <button type="button" class=variant.class()
                                class:au-actions__button--chosen={
                                    let action = action.clone();
                                    move || chosen.with(|c| c.as_deref() == Some(action.as_str()))
                                }
                                aria-label=name data-action=action.clone()
                                on:click=move |_| {
                                    chosen.set(Some(action.clone()));
                                    emit.run((WidgetAction::ButtonClick, payload.clone()));
                                }>
                                {button.label}
                            </button>
                        }
                    })
                    .collect_view();
                let group_label = actions
                    .title
                    .clone()
                    .unwrap_or_else(|| "Actions".to_owned());
                view! {
                    <div class="au-actions" role="group" aria-label=group_label>
                        <WidgetTitle title=actions.title />
                        <div class="au-actions__buttons">{buttons}</div>
                    </div>
                }
                .into_any()
            }
            Err(error) => {
                view! { <WidgetError message=format!("the buttons are not valid: {error}") /> }
                    .into_any()
            }
        })
    }
}
