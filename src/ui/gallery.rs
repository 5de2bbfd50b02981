//! The gallery: every widget rendered from its recipe's first example (and `chart-rich` from each of
//! its examples, one per chart type), usable without any API key.

use std::sync::Arc;

use autoui_core::canvas::op::Op;
use autoui_core::ids::BlockId;
use autoui_core::recipes::showcase::showcase;
use autoui_core::tool::Origin;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;
use serde_json::Value;

use crate::adapters::clock::BrowserRandom;
use crate::state::canvas::use_canvas;
use crate::state::notices::use_notices;
use crate::ui::views::render_widget;
use crate::widgets::WidgetProps;

#[component]
pub fn Gallery() -> impl IntoView {
    let last_event = RwSignal::new(None::<String>);
    let canvas = use_canvas();
    let notices = use_notices();
    // `variant`: the index of a further example of the widget's recipe (None for its first).
    let cell = move |kind: WidgetKind, example: Value, variant: Option<usize>, caption: String, label: String| {
        let inserted = Arc::new(example.clone());
        let insert = move |_| {
            let op = Op::Add {
                id: BlockId::generate(&BrowserRandom),
                kind,
                data: inserted.clone(),
                layout: None,
                style: Default::default(),
            };
            match canvas.apply(op, Origin::User) {
                Ok(_) => notices.info(format!("Added the {kind} example to the canvas.")),
                Err(error) => notices.error(format!("The {kind} example could not be added: {error}")),
            }
        };
        let props = WidgetProps {
            id: BlockId::new(match variant {
                None => format!("gallery_{}", kind.as_str().replace('-', "_")),
                Some(index) => format!("gallery_{}_{index}", kind.as_str().replace('-', "_")),
            }),
            data: Signal::stored(Arc::new(example)),
            emit: Callback::new(move |(action, payload): (autoui_core::canvas::event::WidgetAction, Value)| {
                last_event.set(Some(format!("{kind}: {} {payload}", action.as_str())));
            }),
        };
        // Variants have test ids of their own: `gallery-item-*` stays one per widget kind.
        let (item, add) = match variant {
            None => (format!("gallery-item-{kind}"), format!("gallery-add-{kind}")),
            Some(index) => (format!("gallery-variant-{kind}-{index}"), format!("gallery-variant-add-{kind}-{index}")),
        };
        view! {
            <article class="au-gallery-page__item" data-testid=item>
                <header class="au-gallery-page__header">
                    <h3>{kind.as_str()}</h3>
                    <p>{caption}</p>
                    <div class="au-gallery-page__actions">
                        <button class="au-button" data-testid=add on:click=insert>"Add to canvas"</button>
                    </div>
                </header>
                // Focusable, so a keyboard user can scroll an example taller or wider than its box.
                <div class="au-gallery-page__widget au-widget" tabindex="0" role="region"
                    aria-label=label>{render_widget(kind, props)}</div>
            </article>
        }
    };
    let items = showcase()
        .into_iter()
        .filter(|shown| !shown.kind.needs_server())
        .flat_map(|shown| {
            let kind = shown.kind;
            let first = shown.examples.first().cloned().unwrap_or(Value::Null);
            let mut cells = vec![cell(kind, first, None, shown.description.clone(), format!("{kind} example"))];
            // A widget with several chart types shows each of its recipe's further examples too.
            if kind == WidgetKind::ChartRich {
                for (index, example) in shown.examples.iter().enumerate().skip(1) {
                    let title = example["title"].as_str().unwrap_or("another example").to_owned();
                    let label = format!("{kind} example: {title}");
                    cells.push(cell(kind, example.clone(), Some(index), title, label));
                }
            }
            cells
        })
        .collect_view();

    view! {
        <section class="au-gallery-page" data-testid="gallery" aria-label="Widget gallery">
            <div class="au-gallery-page__intro">
                <h2>"Widget gallery"</h2>
                <p>"Every widget the agent can use, rendered from its recipe's example. No API key needed."</p>
                <p class="au-gallery-page__event" data-testid="gallery-event" aria-live="polite">
                    {move || last_event.get().map(|text| format!("Last interaction: {text}"))}
                </p>
            </div>
            <div class="au-gallery-page__grid">{items}</div>
        </section>
    }
}
