//! A widget's export menu: JSON always, CSV for tabular widgets, SVG and PNG for charts, and the
//! export itself, which comes with the file tools (`ui::files`). Charts are exported with their
//! theme colours resolved, so the file looks the same outside the app.

use std::sync::Arc;

use autoui_core::view::export;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlCanvasElement, HtmlImageElement, MouseEvent};

use crate::adapters::download::{download_text, timestamped_name};
use crate::adapters::vega;
use crate::state::notices::use_notices;
use crate::ui::files::{WidgetFile, with_files};
use crate::ui::icons::{Icon, IconSvg};

#[component]
pub fn ExportMenu(kind: WidgetKind, data: Signal<Arc<Value>>) -> impl IntoView {
    let notices = use_notices();
    let export = move |file: WidgetFile| {
        move |event: MouseEvent| {
            let Some(item) = event.target().and_then(|target| target.dyn_into::<Element>().ok()) else { return };
            let data = data.get_untracked();
            with_files(notices, move |files| (files.export_widget)(kind, data, file, item));
        }
    };
    view! {
        <details class="au-export" data-testid="widget-export">
            <summary class="au-icon-button" title="Export" aria-label="Export widget"><IconSvg icon=Icon::Download /></summary>
            <div class="au-export__menu" role="menu">
                <button role="menuitem" data-testid="export-json" on:click=export(WidgetFile::Json)>"JSON"</button>
                {export::has_csv(kind).then(|| view! { <button role="menuitem" data-testid="export-csv" on:click=export(WidgetFile::Csv)>"CSV"</button> })}
                {kind.is_chart().then(|| view! {
                    <button role="menuitem" data-testid="export-svg" on:click=export(WidgetFile::Svg)>"SVG"</button>
                    <button role="menuitem" data-testid="export-png" on:click=export(WidgetFile::Png)>"PNG"</button>
                })}
            </div>
        </details>
    }
}

/// Downloads the widget's data (JSON, CSV) or its chart (SVG, PNG); `item` is the clicked menu item.
pub fn export_widget(kind: WidgetKind, data: Arc<Value>, file: WidgetFile, item: Element) {
    let stem = kind.as_str();
    match file {
        WidgetFile::Json => {
            download_text(&timestamped_name(stem, "json"), "application/json", &export::json(&data));
        }
        WidgetFile::Csv => {
            if let Some(text) = export::csv(kind, &data) {
                download_text(&timestamped_name(stem, "csv"), "text/csv;charset=utf-8", &text);
            }
        }
        WidgetFile::Svg | WidgetFile::Png => {
            let background = frame_background(&item);
            let save = move |markup: String| match file {
                WidgetFile::Svg => {
                    download_text(&timestamped_name(stem, "svg"), "image/svg+xml", &markup);
                }
                _ => save_png(&markup, &background, &timestamped_name(stem, "png")),
            };
            if let Some(host) = canvas_chart_host(&item) {
                leptos::task::spawn_local(async move {
                    if let Some(markup) = vega::canvas_chart_svg(&host).await {
                        save(markup);
                    }
                });
            } else if let Some(markup) = chart_svg(&item) {
                save(markup);
            }
        }
    }
}

/// The `vega-lite` chart drawn on a canvas in the menu item's frame: its SVG comes from its view.
fn canvas_chart_host(item: &Element) -> Option<Element> {
    let host = item.closest(".au-frame").ok()??.query_selector(".au-vega-lite__chart").ok()??;
    host.query_selector("canvas").ok()?.map(|_| host)
}

/// The chart's `<svg>` (found from the menu item's frame) as standalone markup, with every
/// fill, stroke and font resolved from the theme's custom properties.
fn chart_svg(item: &Element) -> Option<String> {
    let svg = item.closest(".au-frame").ok()??.query_selector("svg").ok()??;
    let copy: Element = svg.clone_node_with_deep(true).ok()?.dyn_into().ok()?;
    inline_styles(&svg, &copy);
    copy.set_attribute("xmlns", "http://www.w3.org/2000/svg").ok()?;
    let rect = svg.get_bounding_client_rect();
    copy.set_attribute("width", &rect.width().round().to_string()).ok()?;
    copy.set_attribute("height", &rect.height().round().to_string()).ok()?;
    let markup = web_sys::XmlSerializer::new().ok()?.serialize_to_string(&copy).ok()?;
    Some(export::local_references(&markup, &window().location().href().ok()?))
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

/// The frame's resolved background colour (the theme's surface), for the PNG's backdrop.
fn frame_background(item: &Element) -> String {
    item.closest(".au-frame")
        .ok()
        .flatten()
        .and_then(|frame| window().get_computed_style(&frame).ok().flatten())
        .and_then(|style| style.get_property_value("background-color").ok())
        .filter(|colour| !colour.trim().is_empty())
        .unwrap_or_else(|| "#ffffff".to_owned())
}

/// Rasterises the SVG at twice its size on the theme's surface colour and downloads it.
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
        if let Ok(url) = canvas.to_data_url_with_type("image/png")
            && let Some(anchor) = document.create_element("a").ok().and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
        {
            anchor.set_href(&url);
            anchor.set_download(&name);
            anchor.click();
        }
    });
    image.set_onload(Some(on_load.unchecked_ref()));
    image.set_src(&source);
}
