//! `cards` widget: a responsive grid of cards with picture (placeholder when missing or broken),
//! title, subtitle, description and tags. The whole card selects it for the agent; `href` is a real
//! link on the title.

use autoui_core::canvas::event::{WidgetAction, item_payload};
use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::present::{safe_image, safe_link};
use leptos::prelude::*;
use serde_json::Value;

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, LinkHost, WidgetError, WidgetTitle, parse};

/// Narrowest card in px, by default and within bounds.
const MIN_CARD_WIDTH: (u32, u32, u32) = (120, 480, 180);

struct CardsData<'a> {
    title: Option<String>,
    cards: &'a [Value],
    min_card_width: Option<String>,
    empty_message: Option<String>,
}

impl<'a> CardsData<'a> {
    fn read(fields: Fields<'a>) -> Read<Self> {
        Ok(CardsData {
            title: fields.text("title")?,
            cards: fields.list("cards")?,
            min_card_width: fields.text("minCardWidth")?,
            empty_message: fields.text("emptyMessage")?,
        })
    }
}

struct Card {
    title: Option<String>,
    subtitle: Option<String>,
    description: Option<String>,
    image: Option<String>,
    tags: Vec<String>,
    href: Option<String>,
}

impl Card {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(Card {
            title: fields.scalar_text("title")?,
            subtitle: fields.scalar_text("subtitle")?,
            description: fields.scalar_text("description")?,
            image: fields.text("image")?,
            tags: fields.texts("tags")?,
            href: fields.text("href")?,
        })
    }
}

/// `"200px"` within bounds; anything else falls back to the default.
fn min_width(width: Option<&str>) -> u32 {
    let (low, high, default) = MIN_CARD_WIDTH;
    width
        .and_then(|width| width.trim().strip_suffix("px"))
        .and_then(|pixels| pixels.parse::<u32>().ok())
        .map_or(default, |pixels| pixels.clamp(low, high))
}

fn filled(text: Option<String>) -> Option<String> {
    text.filter(|text| !text.trim().is_empty())
}

#[component]
pub fn Cards(props: WidgetProps) -> impl IntoView {
    let WidgetProps { data, emit, .. } = props;
    view! {
        <div class="au-cards">
            {move || data.with(|data| match parse(data, CardsData::read) {
                Err(error) => view! { <WidgetError message=format!("the cards data is not valid: {error}") /> }
                    .into_any(),
                Ok(cards) => render(cards, emit),
            })}
        </div>
    }
}

fn render(data: CardsData<'_>, emit: Callback<(WidgetAction, Value)>) -> AnyView {
    let mut cards = Vec::with_capacity(data.cards.len());
    for (index, raw) in data.cards.iter().enumerate() {
        match parse(raw, Card::read) {
            Ok(card) => cards.push((card, raw)),
            Err(error) => {
                let message = format!("card {} is not valid: {error}", index + 1);
                return view! { <WidgetError message /> }.into_any();
            }
        }
    }
    if cards.is_empty() {
        let message = filled(data.empty_message).unwrap_or_else(|| "No items to show".to_owned());
        return view! { <WidgetTitle title=data.title /> <EmptyState message /> }.into_any();
    }
    let chosen = RwSignal::new(None::<usize>);
    let items = cards
        .into_iter()
        .enumerate()
        .map(|(index, (card, raw))| {
            let title = filled(card.title).unwrap_or_else(|| "Untitled".to_owned());
            let host = card.href.as_deref().and_then(safe_link).map(|href| view! { <LinkHost href /> });
            let heading = match card.href.as_deref().and_then(safe_link) {
                Some(href) => {
                    let payload = item_payload(raw, index);
                    view! {
                        <a class="au-cards__link" href=href target="_blank" rel="noopener noreferrer nofollow"
                            on:click=move |_| {
                                chosen.set(Some(index));
                                emit.run((WidgetAction::CardClick, payload.clone()));
                            }>
                            {title.clone()}<span class="au-cards__external" aria-hidden="true">" ↗"</span>
                        </a>
                    }
                    .into_any()
                }
                None => title.clone().into_any(),
            };
            let subtitle = filled(card.subtitle).map(|text| view! { <p class="au-cards__subtitle">{text}</p> });
            let description = filled(card.description).map(|text| view! { <p class="au-cards__description">{text}</p> });
            let tags = card
                .tags
                .into_iter()
                .filter(|tag| !tag.trim().is_empty())
                .map(|tag| view! { <li class="au-cards__tag">{tag}</li> })
                .collect::<Vec<_>>();
            let tags = (!tags.is_empty()).then(|| view! { <ul class="au-cards__tags" aria-label="Tags">{tags}</ul> });
            let payload = item_payload(raw, index);
            view! {
                <li class="au-cards__item">
                    <article class="au-cards__card" class:au-cards__card--chosen=move || chosen.get() == Some(index)>
                        <Picture src=card.image.as_deref().and_then(safe_image) />
                        <div class="au-cards__body">
                            <h4 class="au-cards__title">{heading}</h4>
                            {host}
                            {subtitle}
                            {description}
                            {tags}
                        </div>
                        // Covers the card so a click anywhere chooses it; the title link sits above it.
                        <button type="button" class="au-cards__select"
                            aria-label=format!("Select {title}")
                            aria-pressed=move || (chosen.get() == Some(index)).to_string()
                            on:click=move |_| {
                                chosen.set(Some(index));
                                emit.run((WidgetAction::CardClick, payload.clone()));
                            }></button>
                    </article>
                </li>
            }
        })
        .collect_view();
    let style = format!(
        "--au-cards-min: {}px",
        min_width(data.min_card_width.as_deref())
    );
    view! {
        <WidgetTitle title=data.title />
        <ul class="au-cards__grid" style=style>{items}</ul>
    }
    .into_any()
}

/// The card's picture, or a placeholder when there is none or it fails to load.
#[component]
fn Picture(src: Option<String>) -> impl IntoView {
    let failed = RwSignal::new(false);
    move || {
        match (&src, failed.get()) {
        (Some(src), false) => view! {
            <div class="au-cards__media">
                <img src=src.clone() alt="" loading="lazy" referrerpolicy="no-referrer" on:error=move |_| failed.set(true) />
            </div>
        }
        .into_any(),
        (Some(_), true) => view! {
            <div class="au-cards__media au-cards__media--placeholder" aria-hidden="true">
                <svg viewBox="0 0 24 24"><rect x="3" y="5" width="18" height="14" rx="2" /><circle cx="9" cy="10" r="1.6" /><path d="m4 17 5-5 4 4 3-3 4 4" /></svg>
            </div>
        }
        .into_any(),
        (None, _) => ().into_any(),
    }
    }
}
