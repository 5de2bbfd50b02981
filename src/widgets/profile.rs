//! `profile` widget: one person or organisation in detail: portrait (initials when there is none or
//! it fails to load), name, badge, subtitle, a strip of figures, labelled facts and action buttons
//! that either open a link or tell the agent which action was chosen.

use autoui_core::canvas::event::WidgetAction;
use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::people::name_color;
use autoui_core::view::present::{initials, safe_image, safe_link};
use leptos::prelude::*;
use serde_json::{Value, json};

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, LinkHost, WidgetError, parse};

struct ProfileData {
    name: Option<String>,
    subtitle: Option<String>,
    avatar: Option<Avatar>,
    badge: Option<Badge>,
    fields: Vec<Field>,
    stats: Vec<Stat>,
    actions: Vec<Action>,
}

impl ProfileData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(ProfileData {
            name: fields.scalar_text("name")?,
            subtitle: fields.scalar_text("subtitle")?,
            avatar: fields.text_or_object("avatar", Avatar::url, Avatar::image)?,
            badge: fields.text_or_object("badge", Badge::text, Badge::styled)?,
            fields: fields.items("fields", Field::read)?,
            stats: fields.items("stats", Stat::read)?,
            actions: fields.items("actions", Action::read)?,
        })
    }
}

/// A portrait as a URL or `{src, alt}`.
enum Avatar {
    Url(String),
    Image {
        src: String,
        alt: Option<String>,
    },
}

impl Avatar {
    fn url(src: &str) -> Avatar {
        Avatar::Url(src.to_owned())
    }

    fn image(fields: Fields<'_>) -> Read<Avatar> {
        Ok(Avatar::Image { src: fields.required_text("src")?, alt: fields.text("alt")? })
    }
}

/// A status as text or `{text, variant}`.
enum Badge {
    Text(String),
    Styled {
        text: String,
        variant: Option<String>,
    },
}

impl Badge {
    fn text(text: &str) -> Badge {
        Badge::Text(text.to_owned())
    }

    fn styled(fields: Fields<'_>) -> Read<Badge> {
        Ok(Badge::Styled { text: fields.required_text("text")?, variant: fields.text("variant")? })
    }
}

struct Field {
    label: Option<String>,
    value: Option<String>,
    href: Option<String>,
}

impl Field {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(Field {
            label: fields.scalar_text("label")?,
            value: fields.scalar_text("value")?,
            href: fields.text("href")?,
        })
    }
}

struct Stat {
    label: Option<String>,
    value: Option<String>,
}

impl Stat {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(Stat {
            label: fields.scalar_text("label")?,
            value: fields.scalar_text("value")?,
        })
    }
}

struct Action {
    label: Option<String>,
    href: Option<String>,
    action: Option<String>,
    variant: Option<String>,
}

impl Action {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(Action {
            label: fields.scalar_text("label")?,
            href: fields.text("href")?,
            action: fields.text("action")?,
            variant: fields.text("variant")?,
        })
    }
}

fn badge_class(variant: Option<&str>) -> &'static str {
    match variant {
        Some("success") => "au-profile__badge au-profile__badge--success",
        Some("warning") => "au-profile__badge au-profile__badge--warning",
        Some("error") => "au-profile__badge au-profile__badge--error",
        _ => "au-profile__badge",
    }
}

fn action_class(variant: Option<&str>) -> &'static str {
    match variant {
        Some("primary") => "au-button au-button--primary au-profile__action",
        Some("danger") => "au-button au-button--danger au-profile__action",
        _ => "au-button au-profile__action",
    }
}

fn filled(text: Option<String>) -> Option<String> {
    text.filter(|text| !text.trim().is_empty())
}

#[component]
pub fn Profile(props: WidgetProps) -> impl IntoView {
    let WidgetProps { data, emit, .. } = props;
    view! {
        <div class="au-profile">
            {move || data.with(|data| match parse(data, ProfileData::read) {
                Err(error) => view! { <WidgetError message=format!("the profile data is not valid: {error}") /> }
                    .into_any(),
                Ok(profile) => render(profile, emit),
            })}
        </div>
    }
}

fn render(profile: ProfileData, emit: Callback<(WidgetAction, Value)>) -> AnyView {
    let name = filled(profile.name);
    let nothing_else = profile.subtitle.is_none()
        && profile.fields.is_empty()
        && profile.stats.is_empty()
        && profile.actions.is_empty();
    if name.is_none() && nothing_else {
        return view! { <EmptyState message="No profile to show" /> }.into_any();
    }
    let name = name.unwrap_or_else(|| "Unnamed".to_owned());
    let (src, alt) = match profile.avatar {
        Some(Avatar::Url(src)) => (safe_image(&src), None),
        Some(Avatar::Image { src, alt }) => (safe_image(&src), alt),
        None => (None, None),
    };
    let badge = profile.badge.and_then(|badge| {
        let (text, variant) = match badge {
            Badge::Text(text) => (text, None),
            Badge::Styled { text, variant } => (text, variant),
        };
        filled(Some(text))
            .map(|text| view! { <span class=badge_class(variant.as_deref())>{text}</span> })
    });
    let subtitle =
        filled(profile.subtitle).map(|text| view! { <p class="au-profile__subtitle">{text}</p> });
    let stats = profile
        .stats
        .into_iter()
        .filter_map(|stat| {
            let value = filled(stat.value)?;
            Some(view! {
                <li class="au-profile__stat">
                    <span class="au-profile__stat-value">{value}</span>
                    <span class="au-profile__stat-label">{stat.label.unwrap_or_default()}</span>
                </li>
            })
        })
        .collect::<Vec<_>>();
    let fields = profile
        .fields
        .into_iter()
        .filter(|field| field.label.is_some() || field.value.is_some())
        .map(|field| {
            let value = field.value.unwrap_or_default();
            let shown = match field.href.as_deref().and_then(safe_link) {
                Some(href) => {
                    let external = !href.starts_with("mailto:");
                    view! {
                        <a href=href.clone() target=external.then_some("_blank")
                            rel=external.then_some("noopener noreferrer nofollow")>{value}</a>
                        <LinkHost href />
                    }
                    .into_any()
                }
                None => value.into_any(),
            };
            view! {
                <div class="au-profile__field">
                    <dt>{field.label.unwrap_or_default()}</dt>
                    <dd>{shown}</dd>
                </div>
            }
        })
        .collect::<Vec<_>>();
    let actions = profile
        .actions
        .into_iter()
        .enumerate()
        .filter_map(|(index, action)| {
            let label = filled(action.label)?;
            let class = action_class(action.variant.as_deref());
            Some(match action.href.as_deref().and_then(safe_link) {
                Some(href) => view! {
                    <a class=class href=href.clone() target="_blank" rel="noopener noreferrer nofollow">
                        {label}<span aria-hidden="true">" ↗"</span>
                    </a>
                    <LinkHost href />
                }
                .into_any(),
                None => {
                    let payload = json!({"label": label, "index": index, "action": action.action});
                    view! {
                        <button type="button" class=class
                            on:click=move |_| emit.run((WidgetAction::ButtonClick, payload.clone()))>
                            {label.clone()}
                        </button>
                    }
                    .into_any()
                }
            })
        })
        .collect::<Vec<_>>();

    let (card_label, portrait_name) = (name.clone(), name.clone());
    view! {
        <article class="au-profile__card" aria-label=card_label>
            <header class="au-profile__header">
                <Portrait name=portrait_name src alt />
                <div class="au-profile__identity">
                    <h3 class="au-profile__name">
                        <span>{name}</span>
                        {badge}
                    </h3>
                    {subtitle}
                </div>
            </header>
            {(!stats.is_empty()).then(|| view! { <ul class="au-profile__stats">{stats}</ul> })}
            {(!fields.is_empty()).then(|| view! { <dl class="au-profile__fields">{fields}</dl> })}
            {(!actions.is_empty()).then(|| view! { <div class="au-profile__actions">{actions}</div> })}
        </article>
    }
    .into_any()
}

/// The portrait, or the person's initials on their colour when there is no usable image or it
/// fails to load.
#[component]
fn Portrait(name: String, src: Option<String>, alt: Option<String>) -> impl IntoView {
    let failed = RwSignal::new(false);
    let style = format!("--au-profile-tint: {}", name_color(&name));
    let letters = initials(&name);
    let alt = alt
        .filter(|alt| !alt.trim().is_empty())
        .unwrap_or_else(|| name.clone());
    view! {
        <div class="au-profile__avatar" style=style>
            {move || match (&src, failed.get()) {
                (Some(src), false) => view! {
                    <img src=src.clone() alt=alt.clone() loading="lazy" referrerpolicy="no-referrer"
                        on:error=move |_| failed.set(true) />
                }
                .into_any(),
                _ => view! { <span class="au-profile__initials" aria-hidden="true">{letters.clone()}</span> }.into_any(),
            }}
        </div>
    }
}
