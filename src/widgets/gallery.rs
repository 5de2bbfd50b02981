//! `gallery` widget: one large image or a grid of thumbnails with captions, and a lightbox (a modal
//! `dialog`: focus stays inside, Escape closes, left/right arrows move, "i / N" counter). Images go
//! through `safe_image` and fall back to a placeholder when missing or broken; opening one reports
//! `ImageClick`.

use std::sync::Arc;

use autoui_core::canvas::event::WidgetAction;
use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::present::{safe_image, safe_link};
use leptos::html::Dialog;
use leptos::prelude::*;
use serde_json::{Value, json};
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent};

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, LinkHost, WidgetError, WidgetTitle, matching, parse};

struct GalleryData {
    title: Option<String>,
    images: Vec<ImageData>,
    columns: Option<f64>,
    empty_message: Option<String>,
}

impl GalleryData {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(GalleryData {
            title: fields.text("title")?,
            images: fields.items_text_or_object("images", ImageData::url, ImageData::read)?,
            columns: fields.value("columns").and_then(Value::as_f64),
            empty_message: fields.text("emptyMessage")?,
        })
    }
}

/// An image object, or just its URL.
#[derive(Clone, Debug, Default, PartialEq)]
struct ImageData {
    src: Option<String>,
    alt: Option<String>,
    caption: Option<String>,
    href: Option<String>,
}

impl ImageData {
    fn url(src: &str) -> ImageData {
        ImageData { src: Some(src.to_owned()), ..ImageData::default() }
    }

    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(ImageData {
            src: fields.text("src")?,
            alt: fields.text("alt")?,
            caption: fields.text("caption")?,
            href: fields.text("href")?,
        })
    }

    /// What the image shows, for screen readers: its alt text, else its caption.
    fn description(&self) -> String {
        [&self.alt, &self.caption]
            .into_iter()
            .flatten()
            .map(|text| text.trim())
            .find(|text| !text.is_empty())
            .unwrap_or("")
            .to_owned()
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Album {
    title: Option<String>,
    images: Vec<ImageData>,
    columns: usize,
    empty_message: Option<String>,
}

impl Album {
    fn read(value: &Value) -> Result<Album, String> {
        let data = parse(value, GalleryData::read)?;
        let columns = data
            .columns
            .map_or(3, |c| c.round().clamp(1.0, 6.0) as usize);
        Ok(Album {
            title: data.title,
            images: data.images,
            columns,
            empty_message: data.empty_message,
        })
    }
}

#[component]
pub fn Gallery(props: WidgetProps) -> impl IntoView {
    let data = props.data;
    let album = Memo::new(move |_| data.with(|value| Album::read(value).map(Arc::new)));
    let emit = props.emit;
    move || match album.get() {
        Err(message) => view! { <WidgetError message /> }.into_any(),
        Ok(album) if album.images.is_empty() => {
            let message = album.empty_message.clone().filter(|m| !m.trim().is_empty());
            view! {
                <div class="au-gallery">
                    <WidgetTitle title=album.title.clone() />
                    <EmptyState message=message.unwrap_or_else(|| "No images to show yet".to_owned()) />
                </div>
            }
            .into_any()
        }
        Ok(album) => view! { <AlbumView album emit /> }.into_any(),
    }
}

#[component]
fn AlbumView(album: Arc<Album>, emit: Callback<(WidgetAction, Value)>) -> impl IntoView {
    let open = RwSignal::new(None::<usize>);
    let count = album.images.len();
    let show = {
        let album = album.clone();
        move |index: usize| {
            if let Some(image) = album.images.get(index) {
                open.set(Some(index));
                emit.run((
                    WidgetAction::ImageClick,
                    json!({ "index": index, "src": image.src, "alt": image.alt, "caption": image.caption }),
                ));
            }
        }
    };

    let tiles = album
        .images
        .iter()
        .enumerate()
        .map(|(index, image)| {
            let show = show.clone();
            let description = image.description();
            let name = if description.is_empty() {
                format!("Open image {} of {count}", index + 1)
            } else {
                format!("Open image {} of {count}: {description}", index + 1)
            };
            let caption = image.caption.clone().filter(|c| !c.trim().is_empty());
            view! {
                <li class="au-gallery__tile">
                    <figure class="au-gallery__figure">
                        <button type="button" class="au-gallery__thumb" aria-label=name on:click=move |_| show(index)>
                            <Picture src=image.src.clone() alt=description />
                        </button>
                        {caption.map(|caption| view! { <figcaption class="au-gallery__caption">{caption}</figcaption> })}
                    </figure>
                </li>
            }
        })
        .collect_view();

    view! {
        <div class="au-gallery" class:au-gallery--single=count == 1>
            <WidgetTitle title=album.title.clone() />
            <ul class="au-gallery__thumbs" style:--au-gallery-columns=album.columns.to_string()>{tiles}</ul>
            <Lightbox album open />
        </div>
    }
}

/// The modal viewer over the page.
#[component]
fn Lightbox(album: Arc<Album>, open: RwSignal<Option<usize>>) -> impl IntoView {
    let dialog = NodeRef::<Dialog>::new();
    let count = album.images.len();
    // The dialog element is the outside world here: open and close it to match `open`.
    Effect::new(move |_| {
        let Some(dialog) = dialog.get() else { return };
        match open.get() {
            Some(_) if !dialog.open() => {
                let _ = dialog.show_modal();
            }
            None if dialog.open() => dialog.close(),
            _ => {}
        }
    });
    let step = move |by: isize| {
        open.update(|index| {
            if let Some(index) = index {
                *index = (*index as isize + by).rem_euclid(count as isize) as usize;
            }
        })
    };
    let on_key = move |event: KeyboardEvent| match event.key().as_str() {
        "ArrowLeft" => {
            event.prevent_default();
            step(-1);
        }
        "ArrowRight" => {
            event.prevent_default();
            step(1);
        }
        "Escape" => {
            event.prevent_default();
            open.set(None);
        }
        "Tab" => keep_focus_inside(&event),
        _ => {}
    };

    let body = move || {
        let index = open.get()?;
        let image = album.images.get(index)?.clone();
        let description = image.description();
        let link = image.href.as_deref().and_then(safe_link);
        Some(view! {
            <figure class="au-gallery__view">
                <div class="au-gallery__frame">
                    <Picture src=image.src.clone() alt=description eager=true />
                </div>
                <figcaption class="au-gallery__view-caption">
                    <span class="au-gallery__counter" aria-live="polite" data-testid="gallery-counter">
                        {format!("{} / {count}", index + 1)}
                    </span>
                    {image.caption.clone().map(|caption| view! { <span class="au-gallery__view-text">{caption}</span> })}
                    {link.map(|href| view! {
                        <a class="au-gallery__source" href=href.clone() target="_blank" rel="noopener noreferrer">"Source ↗"</a>
                        <LinkHost href />
                    })}
                </figcaption>
            </figure>
        })
    };

    view! {
        <dialog class="au-gallery__lightbox" node_ref=dialog aria-label="Image viewer" data-testid="gallery-lightbox"
            on:close=move |_| open.set(None) on:keydown=on_key>
            <button type="button" class="au-gallery__close" aria-label="Close" autofocus on:click=move |_| open.set(None)>
                "×"
            </button>
            <div class="au-gallery__stage">
                <button type="button" class="au-gallery__nav" aria-label="Previous image" disabled=count < 2
                    on:click=move |_| step(-1)>"‹"</button>
                {body}
                <button type="button" class="au-gallery__nav" aria-label="Next image" disabled=count < 2
                    on:click=move |_| step(1)>"›"</button>
            </div>
        </dialog>
    }
}

/// Tab and Shift+Tab cycle through the dialog's own controls.
fn keep_focus_inside(event: &KeyboardEvent) {
    // Leptos delegates keydown to the window: find the dialog from the focused element.
    let Some(dialog) = event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        .and_then(|focused| focused.closest("dialog").ok().flatten())
    else {
        return;
    };
    let controls: Vec<HtmlElement> = matching(&dialog, "button:not([disabled]), a[href]");
    let (Some(first), Some(last)) = (controls.first(), controls.last()) else {
        return;
    };
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
    let at = |control: &HtmlElement| {
        active
            .as_ref()
            .is_some_and(|a| a == control.as_ref() as &web_sys::Element)
    };
    let inside = controls.iter().any(at);
    if event.shift_key() && (at(first) || !inside) {
        event.prevent_default();
        let _ = last.focus();
    } else if !event.shift_key() && (at(last) || !inside) {
        event.prevent_default();
        let _ = first.focus();
    }
}

/// An image through `safe_image`, or a placeholder when there is none or it fails to load.
#[component]
fn Picture(src: Option<String>, alt: String, #[prop(optional)] eager: bool) -> impl IntoView {
    let url = src.as_deref().and_then(safe_image);
    let broken = RwSignal::new(false);
    move || {
        match (&url, broken.get()) {
        (Some(url), false) => view! {
            <img class="au-gallery__img" src=url.clone() alt=alt.clone() loading=if eager { "eager" } else { "lazy" }
                decoding="async" referrerpolicy="no-referrer" on:error=move |_| broken.set(true) />
        }
        .into_any(),
        _ => view! {
            <span class="au-gallery__placeholder" role="img"
                aria-label=if alt.is_empty() { "Image unavailable".to_owned() } else { format!("Image unavailable: {alt}") }>
                <svg viewBox="0 0 24 24" aria-hidden="true">
                    <rect x="3" y="4" width="18" height="16" rx="2" />
                    <circle cx="9" cy="10" r="2" />
                    <path d="M3 17l5-5 4 4 3-3 6 6" />
                </svg>
                <span>{if alt.is_empty() { "Image unavailable".to_owned() } else { alt.clone() }}</span>
            </span>
        }
        .into_any(),
    }
    }
}
