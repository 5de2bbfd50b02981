//! A widget's export menu: JSON always, CSV for tabular widgets, SVG and PNG for charts. Charts are
//! exported with their theme colours resolved, so the file looks the same outside the app.

use std::sync::Arc;

use autoui_core::view::export;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlCanvasElement, HtmlImageElement, MouseEvent};

use crate::adapters::download::{download_text, timestamped_name};
use crate::ui::icons::{Icon, IconSvg};

#[component]
pub fn ExportMenu(kind: WidgetKind, data: Signal<Arc<Value>>) -> impl IntoView {
    let stem = kind.as_str();
    let json = move |_| {
        let text = data.with_untracked(|d| export::json(d));
        download_text(&timestamped_name(stem, "json"), "application/json", &text);
    };
    let csv = move |_| {
        if let Some(text) = data.with_untracked(|d| export::csv(kind, d)) {
            download_text(&timestamped_name(stem, "csv"), "text/csv;charset=utf-8", &text);
        }
    };
    let svg = move |event: MouseEvent| {
        if let Some(markup) = chart_svg(&event) {
            download_text(&timestamped_name(stem, "svg"), "image/svg+xml", &markup);
        }
    };
    let png = move |event: MouseEvent| {
        if let Some(markup) = chart_svg(&event) {
            save_png(&markup, &frame_background(&event), &timestamped_name(stem, "png"));
        }
    };
    view! {
        <details class="au-export" data-testid="widget-export">
            <summary class="au-icon-button" title="Export" aria-label="Export widget"><IconSvg icon=Icon::Download /></summary>
            <div class="au-export__menu" role="menu">
                <button role="menuitem" data-testid="export-json" on:click=json>"JSON"</button>
                {export::has_csv(kind).then(|| view! { <button role="menuitem" data-testid="export-csv" on:click=csv>"CSV"</button> })}
                {kind.is_chart().then(|| view! {
                    <button role="menuitem" data-testid="export-svg" on:click=svg>"SVG"</button>
                    <button role="menuitem" data-testid="export-png" on:click=png>"PNG"</button>
                })}
            </div>
        </details>
    }
}

/// The chart's `<svg>` (found from the clicked menu item's frame) as standalone markup, with every
/// fill, stroke and font resolved from the theme's custom properties.
fn chart_svg(event: &MouseEvent) -> Option<String> {
    let target: Element = event.target()?.dyn_into().ok()?;
    let svg = target.closest(".au-frame").ok()??.query_selector("svg").ok()??;
    let copy: Element = svg.clone_node_with_deep(true).ok()?.dyn_into().ok()?;
    inline_styles(&svg, &copy);
    copy.set_attribute("xmlns", "http://www.w3.org/2000/svg").ok()?;
    let rect = svg.get_bounding_client_rect();
    copy.set_attribute("width", &rect.width().round().to_string()).ok()?;
    copy.set_attribute("height", &rect.height().round().to_string()).ok()?;
    web_sys::XmlSerializer::new().ok()?.serialize_to_string(&copy).ok()
}

const RESOLVED: &[&str] = &["fill", "stroke", "stroke-width", "opacity", "font-family", "font-size", "font-weight"];

fn inline_styles(original: &Element, copy: &Element) {
    if let Ok(Some(style)) = window().get_computed_style(original) {
        let declarations: String = RESOLVED
            .iter()
            .filter_map(|name| style.get_property_value(name).ok().map(|value| format!("{name}:{value};")))
            .collect();
        let _ = copy.set_attribute("style", &declarations);
    }
    let (originals, copies) = (original.children(), copy.children());
    for index in 0..originals.length().min(copies.length()) {
        if let (Some(a), Some(b)) = (originals.item(index), copies.item(index)) {
            inline_styles(&a, &b);
        }
    }
}

/// Rasterises the SVG at twice its size on the theme's surface colour and downloads it.
/// The frame's resolved background colour (the theme's surface), for the PNG's backdrop.
fn frame_background(event: &MouseEvent) -> String {
    event
        .target()
        .and_then(|target| target.dyn_into::<Element>().ok())
        .and_then(|target| target.closest(".au-frame").ok().flatten())
        .and_then(|frame| window().get_computed_style(&frame).ok().flatten())
        .and_then(|style| style.get_property_value("background-color").ok())
        .filter(|colour| !colour.trim().is_empty())
        .unwrap_or_else(|| "#ffffff".to_owned())
}

fn save_png(svg: &str, background: &str, filename: &str) {
    let Ok(image) = HtmlImageElement::new() else { return };
    let source = format!("data:image/svg+xml;charset=utf-8,{}", js_sys::encode_uri_component(svg));
    let name = filename.to_owned();
    let background = background.to_owned();
    let loaded = image.clone();
    let on_load = wasm_bindgen::closure::Closure::once_into_js(move || {
        let Some(document) = window().document() else { return };
        let Some(canvas) = document.create_element("canvas").ok().and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
        else {
            return;
        };
        let (w, h) = (loaded.natural_width().max(1) * 2, loaded.natural_height().max(1) * 2);
        canvas.set_width(w);
        canvas.set_height(h);
        let Some(context) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        context.set_fill_style_str(background.trim());
        context.fill_rect(0.0, 0.0, f64::from(w), f64::from(h));
        let _ = context.draw_image_with_html_image_element_and_dw_and_dh(&loaded, 0.0, 0.0, f64::from(w), f64::from(h));
        if let Ok(url) = canvas.to_data_url_with_type("image/png") {
            if let Some(anchor) = document.create_element("a").ok().and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok()) {
                anchor.set_href(&url);
                anchor.set_download(&name);
                anchor.click();
            }
        }
    });
    image.set_onload(Some(on_load.unchecked_ref()));
    image.set_src(&source);
}
