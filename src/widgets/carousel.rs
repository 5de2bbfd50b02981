//! `carousel` widget: one slide at a time (image, title, subtitle, text) with previous/next that
//! wrap around, dots, left/right arrow keys and swipe, and optional auto-play that pauses while the
//! pointer or focus is on it, can be paused by a button, and stays off for people who prefer reduced
//! motion. Every move the user makes reports `SlideChange {index}`.

use std::sync::Arc;
use std::time::Duration;

use autoui_core::canvas::event::WidgetAction;
use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::present::safe_image;
use leptos::prelude::*;
use serde_json::{Value, json};
use web_sys::{KeyboardEvent, PointerEvent};

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse};

/// Milliseconds per slide when the data does not say, and the allowed range.
const DEFAULT_INTERVAL: u64 = 5_000;
const INTERVAL_RANGE: (u64, u64) = (1_000, 60_000);
/// A horizontal drag longer than this (CSS pixels) changes slide.
const SWIPE: i32 = 50;

struct CarouselData {
    title: Option<String>,
    slides: Vec<Slide>,
    auto_play: Option<bool>,
    interval: Option<f64>,
}

impl CarouselData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(CarouselData {
            title: fields.text("title")?,
            slides: fields.items("slides", Slide::read)?,
            auto_play: fields.flag("autoPlay")?,
            interval: fields.value("interval").and_then(Value::as_f64),
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Slide {
    src: Option<String>,
    alt: Option<String>,
    title: Option<String>,
    subtitle: Option<String>,
    content: Option<String>,
}

impl Slide {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(Slide {
            src: fields.text("src")?,
            alt: fields.text("alt")?,
            title: fields.text("title")?,
            subtitle: fields.text("subtitle")?,
            content: fields.text("content")?,
        })
    }

    fn has_text(&self) -> bool {
        [&self.title, &self.subtitle, &self.content]
            .into_iter()
            .flatten()
            .any(|t| !t.trim().is_empty())
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Deck {
    title: Option<String>,
    slides: Vec<Slide>,
    auto_play: bool,
    interval: u64,
}

impl Deck {
    fn read(value: &Value) -> Result<Deck, String> {
        let data = parse(value, CarouselData::read)?;
        let slides: Vec<Slide> = data
            .slides
            .into_iter()
            .filter(|slide| slide.has_text() || slide.src.is_some())
            .collect();
        let interval = data
            .interval
            .map_or(DEFAULT_INTERVAL, |ms| {
                (ms.max(0.0) as u64).clamp(INTERVAL_RANGE.0, INTERVAL_RANGE.1)
            });
        Ok(Deck {
            title: data.title,
            slides,
            auto_play: data.auto_play.unwrap_or(true),
            interval,
        })
    }
}

#[component]
pub fn Carousel(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    let deck = Memo::new(move |_| data.with(|value| Deck::read(value).map(Arc::new)));
    let emit = props.emit;
    move || match deck.get() {
        Err(message) => view! { <WidgetError message /> }.into_any(),
        Ok(deck) if deck.slides.is_empty() => view! {
            <div class="au-carousel">
                <WidgetTitle title=deck.title.clone() />
                <EmptyState message="No slides to show yet" />
            </div>
        }
        .into_any(),
        Ok(deck) => view! { <DeckView deck emit /> }.into_any(),
    }
}

#[component]
fn DeckView(deck: Arc<Deck>, emit: Callback<(WidgetAction, Value)>) -> impl IntoView {
    let count = deck.slides.len();
    let index = RwSignal::new(0usize);
    let reduced_motion = prefers_reduced_motion();
    // `playing` is the user's choice (the button); hover and focus pause without changing it.
    let playing = RwSignal::new(deck.auto_play && count > 1 && !reduced_motion);
    let hovered = RwSignal::new(false);
    let focused = RwSignal::new(false);
    let running = Memo::new(move |_| playing.get() && !hovered.get() && !focused.get());

    let go = {
        let deck = deck.clone();
        move |to: usize| {
            let to = to % count;
            index.set(to);
            let title = deck.slides.get(to).and_then(|slide| slide.title.clone());
            emit.run((
                WidgetAction::SlideChange,
                json!({ "index": to, "title": title }),
            ));
        }
    };
    let next = {
        let go = go.clone();
        move || go((index.get_untracked() + 1) % count)
    };
    let previous = {
        let go = go.clone();
        move || go((index.get_untracked() + count - 1) % count)
    };

    // The timer is the outside world: one timeout per shown slide while running, so any move
    // (by the user or the timer) restarts the wait.
    let timer = StoredValue::new(None::<TimeoutHandle>);
    let interval = Duration::from_millis(deck.interval);
    Effect::new(move |_| {
        let _shown = index.get();
        if let Some(handle) = timer.get_value() {
            handle.clear();
        }
        timer.set_value(None);
        if running.get() {
            let advance = move || index.update(|i| *i = (*i + 1) % count);
            timer.set_value(set_timeout_with_handle(advance, interval).ok());
        }
    });
    on_cleanup(move || {
        if let Some(handle) = timer.try_get_value().flatten() {
            handle.clear();
        }
    });

    let on_key = {
        let (next, previous) = (next.clone(), previous.clone());
        move |event: KeyboardEvent| match event.key().as_str() {
            "ArrowRight" => {
                event.prevent_default();
                next();
            }
            "ArrowLeft" => {
                event.prevent_default();
                previous();
            }
            _ => {}
        }
    };
    let swipe_from = StoredValue::new(None::<i32>);
    let on_up = {
        let (next, previous) = (next.clone(), previous.clone());
        move |event: PointerEvent| {
            let Some(from) = swipe_from.get_value() else {
                return;
            };
            swipe_from.set_value(None);
            match event.client_x() - from {
                dx if dx <= -SWIPE => next(),
                dx if dx >= SWIPE => previous(),
                _ => {}
            }
        }
    };

    let slides = deck
        .slides
        .iter()
        .enumerate()
        .map(|(position, slide)| {
            let current = move || index.get() == position;
            view! {
                <div class="au-carousel__slide" role="group" aria-roledescription="slide"
                    aria-label=format!("{} of {count}", position + 1) aria-hidden=move || (!current()).to_string()
                    data-testid="carousel-slide">
                    <SlideMedia slide=slide.clone() />
                    {slide.has_text().then(|| view! {
                        <div class="au-carousel__text">
                            {slide.title.clone().map(|t| view! { <h4 class="au-carousel__title">{t}</h4> })}
                            {slide.subtitle.clone().map(|t| view! { <p class="au-carousel__subtitle">{t}</p> })}
                            {slide.content.clone().map(|t| view! { <p class="au-carousel__content">{t}</p> })}
                        </div>
                    })}
                </div>
            }
        })
        .collect_view();

    let dots = (0..count)
        .map(|position| {
            let go = go.clone();
            view! {
                <button type="button" class="au-carousel__dot" class:au-carousel__dot--current=move || index.get() == position
                    aria-label=format!("Go to slide {}", position + 1)
                    aria-current=move || (index.get() == position).then_some("true")
                    on:click=move |_| go(position)></button>
            }
        })
        .collect_view();

    let controls = (count > 1).then(|| {
        let (next, previous) = (next.clone(), previous.clone());
        view! {
            <div class="au-carousel__controls">
                <button type="button" class="au-carousel__arrow" aria-label="Previous slide" on:click=move |_| previous()>"‹"</button>
                <div class="au-carousel__dots">{dots}</div>
                <span class="au-carousel__position" data-testid="carousel-position">
                    {move || format!("{} / {count}", index.get() + 1)}
                </span>
                {deck.auto_play.then(|| view! {
                    <button type="button" class="au-carousel__play" data-testid="carousel-play"
                        aria-label=move || if playing.get() { "Pause auto-play" } else { "Start auto-play" }
                        on:click=move |_| playing.update(|on| *on = !*on)>
                        {move || if playing.get() { "❚❚" } else { "▶" }}
                    </button>
                })}
                <button type="button" class="au-carousel__arrow" aria-label="Next slide" on:click=move |_| next()>"›"</button>
            </div>
        }
    });

    view! {
        <section class="au-carousel" aria-roledescription="carousel"
            aria-label=deck.title.clone().unwrap_or_else(|| "Slides".to_owned())
            data-playing=move || running.get().to_string()
            on:pointerenter=move |_| hovered.set(true) on:pointerleave=move |_| hovered.set(false)
            on:focusin=move |_| focused.set(true) on:focusout=move |_| focused.set(false)
            on:keydown=on_key>
            <WidgetTitle title=deck.title.clone() />
            <div class="au-carousel__viewport" aria-live=move || if running.get() { "off" } else { "polite" }
                on:pointerdown=move |event: PointerEvent| swipe_from.set_value(Some(event.client_x()))
                on:pointerup=on_up on:pointercancel=move |_| swipe_from.set_value(None)>
                <div class="au-carousel__track" style:transform=move || format!("translateX(-{}%)", index.get() * 100)>
                    {slides}
                </div>
            </div>
            {controls}
        </section>
    }
}

/// The slide's image through `safe_image`, a placeholder if it fails, nothing if it has none.
#[component]
fn SlideMedia(slide: Slide) -> impl IntoView {
    let url = slide.src.as_deref().and_then(safe_image);
    let asked = slide.src.is_some();
    let alt = slide
        .alt
        .clone()
        .or(slide.title.clone())
        .unwrap_or_default();
    let broken = RwSignal::new(false);
    move || {
        match (&url, broken.get()) {
        (Some(url), false) => Some(
            view! {
                <img class="au-carousel__img" src=url.clone() alt=alt.clone() loading="lazy" decoding="async"
                    referrerpolicy="no-referrer" draggable="false" on:error=move |_| broken.set(true) />
            }
            .into_any(),
        ),
        _ if asked => Some(
            view! {
                <div class="au-carousel__placeholder" role="img" aria-label=format!("Image unavailable: {alt}")>
                    <svg viewBox="0 0 24 24" aria-hidden="true">
                        <rect x="3" y="4" width="18" height="16" rx="2" />
                        <circle cx="9" cy="10" r="2" />
                        <path d="M3 17l5-5 4 4 3-3 6 6" />
                    </svg>
                </div>
            }
            .into_any(),
        ),
        _ => None,
    }
    }
}

/// Whether the person asked their system for reduced motion; auto-play then starts paused.
fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|window| {
            window
                .match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|query| query.matches())
}
