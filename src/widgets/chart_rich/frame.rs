//! What the plots with axes share (vertical bars and lines, horizontal bars, scatter and bubble):
//! the box their axes leave for the marks, and the plot's SVG with its description, focus that
//! follows the marks (the arrow keys move it, see `move_focus`) and, for the plots that follow the
//! pointer by category, a hit area over the marks; and the markup their axes, labels and marks are
//! drawn as (`svg_line`, `svg_text`, [`Mark`]: set as `inner_html`, one string instead of an element
//! per tick or bar; every text in it escaped).

use std::fmt::Write;

use autoui_core::view::chart::num;
use autoui_core::view::markdown::escape_html;
use leptos::prelude::*;
use web_sys::{FocusEvent, KeyboardEvent, PointerEvent};

use crate::widgets::chart_rich::cartesian::{mark_of, move_focus};

/// A plot's size and the edges of the area inside its axes, in SVG pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PlotBox {
    pub width: f64,
    pub height: f64,
    pub top: f64,
    pub bottom: f64,
    pub left: f64,
    pub right: f64,
}

/// The plot's `<svg>` at `size`, described for screen readers by `description`. `on_mark` hears of
/// the mark (series, position) that took focus, and of `None` when focus or the pointer leaves;
/// `dimensions` (series, positions) bound the arrow keys. With `hit`, a transparent area over the
/// marks reports pointer moves (drawn last, so it is on top).
#[component]
pub(crate) fn PlotSvg(
    size: ReadSignal<(f64, f64)>,
    description: String,
    dimensions: (usize, usize),
    on_mark: Callback<Option<(usize, usize)>>,
    #[prop(optional)] hit: Option<(Memo<PlotBox>, Callback<PointerEvent>)>,
    children: Children,
) -> impl IntoView {
    let view_box = move || size.with(|(w, h)| format!("0 0 {} {}", num(*w), num(*h)));
    let hit = hit.map(|(area, on_pointer)| {
        move || {
            area.with(|b| {
                view! {
                    <rect class="au-chart-rich__hit" x=num(b.left) y=num(b.top) width=num(b.right - b.left)
                        height=num(b.bottom - b.top) on:pointermove=move |event| on_pointer.run(event) aria-hidden="true" />
                }
            })
        }
    });
    view! {
        <svg class="au-chart-rich__svg" viewBox=view_box role="group" aria-label=description
            on:pointerleave=move |_| on_mark.run(None)
            on:focusin=move |event: FocusEvent| {
                if let Some(mark) = mark_of(&event) {
                    on_mark.run(Some(mark));
                }
            }
            on:focusout=move |_| on_mark.run(None)
            on:keydown=move |event: KeyboardEvent| {
                if let Some(mark) = mark_of(&event) {
                    move_focus(mark, dimensions, &event);
                }
            }>
            {children()}
            {hit}
        </svg>
    }
}

/// How a text of [`svg_text`] sits on its point: right-aligned and vertically centred (left axis).
pub(crate) const END_MIDDLE: &str = " text-anchor=\"end\" dominant-baseline=\"middle\"";
/// Left-aligned and vertically centred (the y axis's title).
pub(crate) const START_MIDDLE: &str = " text-anchor=\"start\" dominant-baseline=\"middle\"";
/// Vertically centred (right axis).
pub(crate) const MIDDLE: &str = " dominant-baseline=\"middle\"";
/// Centred on its x (category labels).
pub(crate) const CENTRED: &str = " text-anchor=\"middle\"";

/// Appends an SVG line of `class` from `from` to `to` to `out` (markup for `inner_html`).
pub(crate) fn svg_line(out: &mut String, class: &str, from: (f64, f64), to: (f64, f64)) {
    let _ = write!(
        out,
        "<line class=\"{class}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"></line>",
        num(from.0),
        num(from.1),
        num(to.0),
        num(to.1)
    );
}

/// Appends an SVG text of `class` at `at`, placed by `placement` ([`END_MIDDLE`], ...), to `out`;
/// `text` is escaped.
pub(crate) fn svg_text(out: &mut String, class: &str, at: (f64, f64), placement: &str, text: &str) {
    let _ = write!(
        out,
        "<text class=\"{class}\" x=\"{}\" y=\"{}\"{placement}>{}</text>",
        num(at.0),
        num(at.1),
        escape_html(text)
    );
}

/// A value's mark (a bar, a dot, a point) as markup: focus and the arrow keys find it by its
/// `data-mark` (see `PlotSvg`), so it needs no handler of its own.
pub(crate) struct Mark<'a> {
    /// The SVG element: `rect`, `circle`.
    pub tag: &'static str,
    pub class: &'a str,
    /// Its position and size: attribute name and value.
    pub geometry: &'a [(&'static str, f64)],
    /// Its colour as an inline style (`fill:…`, `stroke:…`, or both).
    pub style: &'a str,
    /// Its series and position (`data-mark`).
    pub at: (usize, usize),
    /// Whether it is the plot's one tab stop.
    pub stop: bool,
    /// What a screen reader says of it.
    pub label: &'a str,
}

impl Mark<'_> {
    /// Appends the mark to `out`.
    pub(crate) fn write(&self, out: &mut String) {
        let Mark { tag, class, geometry, style, at: (series, position), stop, label } = self;
        let _ = write!(out, "<{tag} class=\"{class}\"");
        for (name, value) in *geometry {
            let _ = write!(out, " {name}=\"{}\"", num(*value));
        }
        let tabindex = if *stop { 0 } else { -1 };
        let _ = write!(
            out,
            " style=\"{}\" data-mark=\"{series}-{position}\" tabindex=\"{tabindex}\" role=\"img\" aria-label=\"{}\"></{tag}>",
            escape_html(style),
            escape_html(label)
        );
    }
}
