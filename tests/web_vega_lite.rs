//! Browser tier for the `vega-lite` widget: twelve chart types drawn by the real engine (vega and
//! vega-lite from vendor/charts, vega's interpreter as scripts/charts.sh builds it into target/charts,
//! injected as the app would have fetched them), counted
//! in the SVG in light and dark themes; live data updates and resizing; and hostile specs (URLs,
//! script links, markup in tooltips, expressions reaching for globals, 200,000 points) that must
//! load nothing, run nothing and leave the page intact.
#![cfg(target_arch = "wasm32")]

mod support;

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

use autoui::adapters::vega;
use autoui_core::view::vega_lite::{self, MAX_ROWS};
use autoui_core::widget_kind::WidgetKind;
use js_sys::{Array, Function, Object, Proxy, Reflect};
use leptos::prelude::*;
use serde_json::{Value, json};
use support::{Mounted, assert_no_injected_markup, assert_not_pwned, example, mount_widget, next_frame, sleep};
use wasm_bindgen::JsValue;
use wasm_bindgen::closure::Closure;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, MouseEvent, MouseEventInit};

wasm_bindgen_test_configure!(run_in_browser);

const WORLD_110M: &str = include_str!("../vendor/charts/node_modules/world-atlas/countries-110m.json");

/// The engine and the styles as the app has them once a vega-lite widget has rendered: the three
/// bundles (the test runner does not serve `charts/`), the tokens and the widget's stylesheet.
fn install() {
    let document = document();
    if document.get_element_by_id("vega-lite-test-engine").is_some() {
        return;
    }
    let head = document.head().expect("head");
    for (id, source) in [
        ("vega-lite-test-vega", include_str!("../vendor/charts/node_modules/vega/build/vega.min.js")),
        ("vega-lite-test-lite", include_str!("../vendor/charts/node_modules/vega-lite/build/vega-lite.min.js")),
        ("vega-lite-test-engine", include_str!("../target/charts/vega-interpreter.js")),
    ] {
        let script = document.create_element("script").expect("script");
        script.set_id(id);
        script.set_text_content(Some(source));
        head.append_child(&script).expect("append script");
    }
    let style = document.create_element("style").expect("style");
    style.set_text_content(Some(concat!(
        include_str!("../style/tokens.css"),
        include_str!("../style/base.css"),
        include_str!("../style/widgets/_common.css"),
        include_str!("../style/widgets/vega-lite.css"),
    )));
    head.append_child(&style).expect("append style");
    let world = vega_lite::atlas("world-110m").expect("world-110m is built in");
    vega::provide_atlas(world, serde_json::from_str(WORLD_110M).expect("world-110m parses"));
}

fn set_theme(theme: &str) {
    document().document_element().expect("html").set_attribute("data-theme", theme).expect("data-theme");
}

/// Mounts a vega-lite widget with `spec` in a 640 x 400 box.
fn mount(spec: Value) -> Mounted {
    install();
    let mounted = mount_widget(WidgetKind::VegaLite, spec);
    mounted.container.style().set_property("width", "640px").expect("width");
    mounted.container.style().set_property("height", "400px").expect("height");
    mounted
}

/// Waits until the widget has drawn or failed (the engine may be compiling) and says which.
async fn outcome(mounted: &Mounted) -> String {
    for _ in 0..400 {
        next_frame().await;
        let status = mounted
            .query("figure.au-vega-lite")
            .and_then(|figure| figure.get_attribute("data-status"))
            .unwrap_or_default();
        if status != "drawing" {
            return status;
        }
        sleep(25).await;
    }
    panic!("the chart neither drew nor failed within 10 s");
}

async fn drawn(spec: Value) -> Mounted {
    let mounted = mount(spec.clone());
    let status = outcome(&mounted).await;
    assert_eq!(status, "drawn", "{spec}: {}", mounted.text());
    mounted
}

/// The items vega drew for marks of `kind` (`rect`, `symbol`, `line`, `area`, `arc`, `rule`, `shape`).
fn marks(mounted: &Mounted, kind: &str) -> usize {
    mounted.query_all(&format!("svg g.mark-{kind}.role-mark > path, svg g.mark-{kind}.role-mark > line")).len()
}

fn rows(values: Value) -> Value {
    json!({"values": values})
}

/// A chart type: its name, a spec and the marks it must draw, with their counts.
type ChartType = (&'static str, Value, Vec<(&'static str, usize)>);

/// The twelve chart types with the marks each must draw: (name, spec, [(mark, count)]). A boxplot
/// draws, per group, a box and a median tick (rects) and two whiskers (rules).
fn chart_types() -> Vec<ChartType> {
    let sales = json!([{"m": "Jan", "v": 82}, {"m": "Feb", "v": 95}, {"m": "Mar", "v": 121}, {"m": "Apr", "v": 104}, {"m": "May", "v": 99}]);
    let stacked = json!([
        {"q": "Q1", "plan": "Free", "n": 12}, {"q": "Q1", "plan": "Pro", "n": 48},
        {"q": "Q2", "plan": "Free", "n": 14}, {"q": "Q2", "plan": "Pro", "n": 55},
        {"q": "Q3", "plan": "Free", "n": 15}, {"q": "Q3", "plan": "Pro", "n": 61}
    ]);
    let series: Vec<Value> = ["Lyon", "Paris", "Nice"]
        .iter()
        .enumerate()
        .flat_map(|(i, city)| {
            (1..=7).map(move |day| json!({"date": format!("2026-06-0{day}"), "city": city, "t": 20 + i * 3 + day}))
        })
        .collect();
    let points: Vec<Value> = (0..8).map(|i| json!({"kb": i * 20 + 5, "ms": 40 + i * i * 3, "region": if i % 2 == 0 { "eu" } else { "us" }})).collect();
    // One value in each of the five bins of width 10 from 0 to 50, more in some.
    let durations: Vec<Value> = [3, 7, 12, 15, 18, 24, 31, 33, 38, 39, 45].iter().map(|d| json!({"d": d})).collect();
    let cells: Vec<Value> = ["Mon", "Tue", "Wed"]
        .iter()
        .flat_map(|day| ["09", "12", "18"].iter().map(move |hour| json!({"day": day, "hour": hour, "n": day.len() * 7 + hour.len()})))
        .collect();
    let latencies: Vec<Value> = (0..20).map(|i| json!({"api": if i < 10 { "search" } else { "orders" }, "ms": 30 + (i * 37) % 90})).collect();
    let shares = json!([{"source": "Nuclear", "pct": 65}, {"source": "Hydro", "pct": 12}, {"source": "Wind", "pct": 10}, {"source": "Other", "pct": 13}]);
    let countries = serde_json::from_str::<Value>(WORLD_110M).expect("world")["objects"]["countries"]["geometries"]
        .as_array()
        .map(Vec::len)
        .expect("countries");
    vec![
        ("bar", json!({"data": rows(sales.clone()), "mark": "bar", "encoding": {"x": {"field": "m", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}}}), vec![("rect", 5)]),
        ("stacked bar", json!({"data": rows(stacked), "mark": "bar", "encoding": {"x": {"field": "q", "type": "nominal"}, "y": {"field": "n", "type": "quantitative"}, "color": {"field": "plan", "type": "nominal"}}}), vec![("rect", 6)]),
        ("line", json!({"data": rows(sales.clone()), "mark": "line", "encoding": {"x": {"field": "m", "type": "ordinal", "sort": null}, "y": {"field": "v", "type": "quantitative"}}}), vec![("line", 1)]),
        ("multi-series line", json!({"data": rows(Value::Array(series.clone())), "mark": "line", "encoding": {"x": {"field": "date", "type": "temporal"}, "y": {"field": "t", "type": "quantitative"}, "color": {"field": "city", "type": "nominal"}}}), vec![("line", 3)]),
        ("area", json!({"data": rows(Value::Array(series[..7].to_vec())), "mark": "area", "encoding": {"x": {"field": "date", "type": "temporal"}, "y": {"field": "t", "type": "quantitative"}}}), vec![("area", 1)]),
        ("scatter", json!({"data": rows(Value::Array(points)), "mark": "point", "encoding": {"x": {"field": "kb", "type": "quantitative"}, "y": {"field": "ms", "type": "quantitative"}, "color": {"field": "region", "type": "nominal"}}}), vec![("symbol", 8)]),
        ("binned histogram", json!({"data": rows(Value::Array(durations)), "mark": "bar", "encoding": {"x": {"field": "d", "bin": {"step": 10, "extent": [0, 50]}}, "y": {"aggregate": "count"}}}), vec![("rect", 5)]),
        ("rect heatmap", json!({"data": rows(Value::Array(cells)), "mark": "rect", "encoding": {"x": {"field": "hour", "type": "ordinal"}, "y": {"field": "day", "type": "ordinal"}, "color": {"field": "n", "type": "quantitative"}}}), vec![("rect", 9)]),
        ("boxplot", json!({"data": rows(Value::Array(latencies)), "mark": "boxplot", "encoding": {"x": {"field": "api", "type": "nominal"}, "y": {"field": "ms", "type": "quantitative"}}}), vec![("rect", 4), ("rule", 4)]),
        ("donut", json!({"data": rows(shares), "mark": {"type": "arc", "innerRadius": 50}, "encoding": {"theta": {"field": "pct", "type": "quantitative"}, "color": {"field": "source", "type": "nominal"}}}), vec![("arc", 4)]),
        ("layered bar + rule", json!({"data": rows(json!(sales.as_array().unwrap()[..4])), "layer": [{"mark": "bar", "encoding": {"x": {"field": "m", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}}}, {"mark": "rule", "encoding": {"y": {"aggregate": "mean", "field": "v", "type": "quantitative"}}}]}), vec![("rect", 4), ("rule", 1)]),
        // Every country in grey, then the two with a value coloured over them.
        ("geoshape choropleth", json!({"projection": {"type": "equalEarth"}, "layer": [
            {"data": {"name": "world-110m"}, "mark": {"type": "geoshape", "fill": "#ccc"}},
            {"data": {"name": "world-110m"}, "transform": [{"lookup": "id", "from": {"data": {"values": [{"id": "250", "rate": 7.3}, {"id": "276", "rate": 3.0}]}, "key": "id", "fields": ["rate"]}}],
             "mark": "geoshape", "encoding": {"color": {"field": "rate", "type": "quantitative"}}}]}), vec![("shape", countries + 2)]),
    ]
}

// ---------------------------------------------------------------------------------------------
// Chart types, light and dark

async fn every_chart_type_draws_its_marks(theme: &str, label_fill: &str) {
    set_theme(theme);
    for (name, spec, expected) in chart_types() {
        let mounted = drawn(spec).await;
        for (mark, count) in expected {
            assert_eq!(marks(&mounted, mark), count, "{name} ({theme}): {mark} marks");
        }
        // Axis labels and legends take the theme's text colours (the donut and the map have none).
        if let Some(label) = mounted.query("svg g.role-axis-label text, svg g.role-legend-label text") {
            let fill = window().get_computed_style(&label).ok().flatten().and_then(|s| s.get_property_value("fill").ok());
            assert_eq!(fill.as_deref(), Some(label_fill), "{name} ({theme}): label colour");
        }
        assert_no_injected_markup(&mounted);
        mounted.container.remove();
    }
    set_theme("light");
}

#[wasm_bindgen_test]
async fn twelve_chart_types_draw_their_marks_in_the_light_theme() {
    // --au-text-2, light
    every_chart_type_draws_its_marks("light", "rgb(92, 92, 128)").await;
}

#[wasm_bindgen_test]
async fn twelve_chart_types_draw_their_marks_in_the_dark_theme() {
    // --au-text-2, dark
    every_chart_type_draws_its_marks("dark", "rgb(160, 160, 184)").await;
}

#[wasm_bindgen_test]
async fn the_recipe_examples_all_draw() {
    let recipe = autoui_core::recipes::registry().get(WidgetKind::VegaLite).expect("recipe");
    assert!(recipe.examples.len() >= 5);
    for spec in &recipe.examples {
        let mounted = drawn(spec.clone()).await;
        assert!(mounted.query("svg .role-mark").is_some(), "{spec}");
        mounted.container.remove();
    }
    assert_eq!(&example(WidgetKind::VegaLite), &recipe.examples[0]);
}

// ---------------------------------------------------------------------------------------------
// Updates, resizing, errors

#[wasm_bindgen_test]
async fn new_data_values_redraw_in_place_with_the_rest_of_the_spec() {
    let spec = json!({"title": "Sales", "data": rows(json!([{"m": "a", "v": 1}, {"m": "b", "v": 2}])), "mark": "bar",
        "encoding": {"x": {"field": "m", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}}});
    let mounted = drawn(spec.clone()).await;
    assert_eq!(marks(&mounted, "rect"), 2);
    // What `canvas update` with {"data": {"values": [...]}} stores: the spec with only its data replaced.
    let patch = json!({"data": rows(json!([{"m": "a", "v": 3}, {"m": "b", "v": 1}, {"m": "c", "v": 2}]))});
    let updated = autoui_core::canvas::model::merge_data(&spec, &patch);
    mounted.data.set(Arc::new(updated));
    assert_eq!(outcome(&mounted).await, "drawn");
    assert_eq!(marks(&mounted, "rect"), 3);
    assert!(mounted.text().contains("Sales"), "the title stays");
    assert_eq!(mounted.query_all("svg.marks").len(), 1, "one chart, redrawn in place");
}

#[wasm_bindgen_test]
async fn the_chart_follows_its_widget_size() {
    let mounted = drawn(json!({"data": rows(json!([{"m": "a", "v": 1}])), "mark": "bar",
        "encoding": {"x": {"field": "m", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}}})).await;
    let width = |mounted: &Mounted| mounted.query("svg.marks").and_then(|svg| svg.get_attribute("width")).and_then(|w| w.parse::<f64>().ok()).unwrap_or(0.0);
    assert!((width(&mounted) - 640.0).abs() < 2.0, "fills its 640 px box: {}", width(&mounted));
    mounted.container.style().set_property("width", "420px").expect("width");
    for _ in 0..40 {
        next_frame().await;
        if (width(&mounted) - 420.0).abs() < 2.0 {
            break;
        }
        sleep(25).await;
    }
    assert!((width(&mounted) - 420.0).abs() < 2.0, "follows the box to 420 px: {}", width(&mounted));
}

/// Counts vega's dataflow runs (`View.prototype.evaluate`) until dropped.
struct RunCounter {
    runs: Rc<Cell<u32>>,
    original: JsValue,
    _apply: Closure<dyn Fn(Function, JsValue, Array) -> Result<JsValue, JsValue>>,
}

impl RunCounter {
    fn install() -> RunCounter {
        install();
        let prototype = view_prototype();
        let original = Reflect::get(&prototype, &"evaluate".into()).expect("evaluate");
        let runs = Rc::new(Cell::new(0));
        let apply = Closure::<dyn Fn(Function, JsValue, Array) -> Result<JsValue, JsValue>>::new({
            let runs = runs.clone();
            move |target: Function, this: JsValue, args: Array| {
                runs.set(runs.get() + 1);
                Reflect::apply(&target, &this, &args)
            }
        });
        let handler = Object::new();
        Reflect::set(&handler, &"apply".into(), apply.as_ref()).expect("handler");
        Reflect::set(&prototype, &"evaluate".into(), &Proxy::new(&original, &handler)).expect("install the counter");
        RunCounter { runs, original, _apply: apply }
    }

    /// Runs since the last call.
    fn take(&self) -> u32 {
        self.runs.replace(0)
    }
}

impl Drop for RunCounter {
    fn drop(&mut self) {
        let _ = Reflect::set(&view_prototype(), &"evaluate".into(), &self.original);
    }
}

fn view_prototype() -> JsValue {
    let view = Reflect::get(&Reflect::get(&js_sys::global(), &"vega".into()).expect("vega"), &"View".into()).expect("vega.View");
    Reflect::get(&view, &"prototype".into()).expect("prototype")
}

/// The chart's SVG with the renderer's running numbers (clip paths, gradients) taken out, so two
/// charts drawn the same way read the same.
/// Asserts that the chart in `mounted` fills its box and that nothing of it is cut off: its drawing
/// stays inside the SVG, with at most vega's padding and a few pixels of slack on each side.
fn assert_fills_its_box(mounted: &Mounted, what: &str) {
    let svg = mounted.query("svg.marks").expect("an SVG chart");
    let content = svg.query_selector("g").expect("query").expect("the chart's group").get_bounding_client_rect();
    let frame = svg.get_bounding_client_rect();
    let gaps = [
        content.left() - frame.left(),
        content.top() - frame.top(),
        frame.right() - content.right(),
        frame.bottom() - content.bottom(),
    ];
    assert!(gaps.iter().all(|gap| *gap >= -0.5), "{what}: cut off, gaps {gaps:?}");
    assert!(gaps.iter().all(|gap| *gap <= 5.0 + 4.0), "{what}: does not fill its box, gaps {gaps:?}");
}

/// Sales per month as points, with `values` as the amounts and coloured by `series` (charts with
/// another series name have another shape: the page remembers margins by shape): a chart whose
/// axes, legend and title take room around its plot.
fn monthly(series: &str, values: &[f64]) -> Value {
    let rows: Vec<Value> = values.iter().enumerate().map(|(i, v)| json!({"m": i + 1, "v": v, series: format!("k{}", i % 3)})).collect();
    json!({"title": "Monthly", "data": {"values": rows}, "mark": "point",
        "encoding": {"x": {"field": "m", "type": "quantitative"}, "y": {"field": "v", "type": "quantitative"},
                     "color": {"field": series, "type": "nominal"}}})
}

#[wasm_bindgen_test]
async fn a_chart_shaped_like_one_drawn_before_is_laid_out_in_one_run() {
    let counter = RunCounter::install();
    let first = drawn(monthly("series", &[12.0, 40.0, 33.0, 27.0])).await;
    // vega's `fit` layout, from scratch: a run at a guessed plot size, then one at the size found.
    assert_eq!(counter.take(), 2, "a chart of a new shape");
    assert_fills_its_box(&first, "the first chart");
    // Same shape, other rows, the same room taken by axes, legend and title: the margins the first
    // chart took are right, and one run draws it.
    let guessed = drawn(monthly("series", &[18.0, 22.0, 40.0, 35.0, 30.0])).await;
    assert_eq!(counter.take(), 1, "laid out in one dataflow run");
    assert_fills_its_box(&guessed, "a chart drawn from remembered margins");
    // Labels far wider than the remembered ones: the guess is wrong, and vega corrects it.
    let corrected = drawn(monthly("series", &[1.5e9, 2.25e9, 3.0e9, 4.75e9])).await;
    assert_eq!(counter.take(), 2, "a wrong guess costs one more run");
    assert_fills_its_box(&corrected, "a chart whose remembered margins were wrong");
}

#[wasm_bindgen_test]
async fn a_resized_chart_is_laid_out_again_in_one_run() {
    let counter = RunCounter::install();
    let resized = drawn(monthly("kind", &[5.0, 9.0, 14.0, 11.0, 7.0])).await;
    counter.take();
    resized.container.style().set_property("width", "420px").expect("width");
    let width = |mounted: &Mounted| mounted.query("svg.marks").and_then(|svg| svg.get_attribute("width")).and_then(|w| w.parse::<f64>().ok()).unwrap_or(0.0);
    for _ in 0..40 {
        next_frame().await;
        if (width(&resized) - 420.0).abs() < 2.0 {
            break;
        }
        sleep(25).await;
    }
    sleep(50).await;
    assert!((width(&resized) - 420.0).abs() < 2.0, "follows the box to 420 px: {}", width(&resized));
    assert_eq!(counter.take(), 1, "resized in one dataflow run");
    assert_fills_its_box(&resized, "the resized chart");
}

#[wasm_bindgen_test]
async fn a_spec_vega_lite_cannot_compile_shows_its_error_and_leaves_the_page_alone() {
    let neighbour = drawn(example(WidgetKind::VegaLite)).await;
    let mounted = mount(json!({"data": rows(json!([{"a": 1}])), "mark": {"type": "bar"}, "encoding": {"x": {"field": "a", "type": "quantitative"}}, "layer": "not a list"}));
    assert_eq!(outcome(&mounted).await, "failed");
    let message = mounted.query("[data-testid=widget-error]").and_then(|e| e.text_content()).unwrap_or_default();
    assert!(message.contains("Vega-Lite:") && message.contains("vega-lite recipe"), "{message}");
    assert!(mounted.query("svg.marks").is_none());
    assert!(neighbour.query("svg.marks").is_some(), "the other chart is untouched");
}

// ---------------------------------------------------------------------------------------------
// Hostile specs

fn resources() -> Vec<String> {
    let entries = window().performance().expect("performance").get_entries_by_type("resource");
    entries
        .iter()
        .filter_map(|entry| js_sys::Reflect::get(&entry, &"name".into()).ok()?.as_string())
        .collect()
}

fn assert_no_request_to(host: &str) {
    let made: Vec<String> = resources().into_iter().filter(|url| url.contains(host)).collect();
    assert!(made.is_empty(), "requests were made: {made:?}");
}

fn error_text(mounted: &Mounted) -> String {
    mounted.query("[data-testid=widget-error]").and_then(|e| e.text_content()).unwrap_or_default()
}

#[wasm_bindgen_test]
async fn a_data_url_to_another_host_is_refused_before_anything_loads() {
    let mounted = mount(json!({"data": {"url": "https://evil.test/stolen.csv"}, "mark": "bar"}));
    assert_eq!(outcome(&mounted).await, "failed");
    let message = error_text(&mounted);
    assert!(message.contains("data.url (https://evil.test/stolen.csv) is refused"), "{message}");
    assert!(message.contains("/data/url"), "names the spec path: {message}");
    sleep(100).await;
    assert_no_request_to("evil.test");
}

#[wasm_bindgen_test]
async fn urls_that_reach_the_engine_are_refused_by_its_loader() {
    // An image mark's URL comes from the data, past the core's check of data.url: the engine's loader refuses it.
    let mounted = drawn(json!({"data": rows(json!([{"x": 1, "img": "https://evil.test/pixel.png"}])), "mark": "image",
        "encoding": {"x": {"field": "x", "type": "quantitative"}, "url": {"field": "img"}}})).await;
    sleep(200).await;
    assert_no_request_to("evil.test");
    for image in mounted.query_all("svg image") {
        let href = image.get_attribute("href").or_else(|| image.get_attribute("xlink:href")).unwrap_or_default();
        assert!(!href.contains("evil.test"), "an image points at {href}");
    }
}

fn pointer(target: &Element, kind: &str) {
    let rect = target.get_bounding_client_rect();
    let init = MouseEventInit::new();
    init.set_bubbles(true);
    init.set_client_x((rect.left() + rect.width() / 2.0) as i32);
    init.set_client_y((rect.top() + rect.height() / 2.0) as i32);
    let event = MouseEvent::new_with_mouse_event_init_dict(kind, &init).expect("event");
    target.dispatch_event(&event).expect("dispatch");
}

#[wasm_bindgen_test]
async fn a_javascript_href_never_runs_or_becomes_a_link() {
    let mounted = drawn(json!({"data": rows(json!([{"m": "a", "v": 3, "link": "javascript:window.__pwned = 1"}])), "mark": "bar",
        "encoding": {"x": {"field": "m", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}, "href": {"field": "link"}}})).await;
    let bar = mounted.query("svg g.mark-rect path").expect("a bar");
    pointer(&bar, "pointermove");
    pointer(&bar, "mousemove");
    pointer(&bar, "click");
    sleep(200).await;
    assert_not_pwned();
    assert!(mounted.query("a[href^='javascript'], [*|href^='javascript']").is_none(), "a script link was rendered");
    assert_no_injected_markup(&mounted);
}

#[wasm_bindgen_test]
async fn a_tooltip_shows_markup_as_text() {
    let markup = "<img src=x onerror=\"window.__pwned = 1\"><b>bold</b>";
    let mounted = drawn(json!({"data": rows(json!([{"name": markup, "v": 3}])), "mark": "bar",
        "encoding": {"x": {"field": "name", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}, "tooltip": [{"field": "name"}, {"field": "v"}]}})).await;
    let bar = mounted.query("svg g.mark-rect path").expect("a bar");
    pointer(&bar, "pointermove");
    pointer(&bar, "mousemove");
    let tip = mounted.query(".au-vega-lite__tooltip").expect("tooltip");
    for _ in 0..20 {
        if !tip.has_attribute("hidden") {
            break;
        }
        next_frame().await;
    }
    assert!(!tip.has_attribute("hidden"), "hovering a bar shows its tooltip");
    let text = tip.text_content().unwrap_or_default();
    assert!(text.contains(markup) && text.contains("v: 3"), "the tooltip shows the text itself: {text}");
    assert_eq!(tip.child_element_count(), 0, "no element was made from the markup");
    sleep(100).await;
    assert_not_pwned();
    assert_no_injected_markup(&mounted);
}

#[wasm_bindgen_test]
async fn expressions_cannot_reach_constructors_or_the_window() {
    for expression in [
        "datum.constructor.constructor('window.__pwned = 1')()",
        "window.__pwned = 1",
        "this.constructor.constructor('return window')().__pwned = 1",
        "datum['__proto__']['constructor']['constructor']('window.__pwned = 1')()",
    ] {
        let mounted = mount(json!({"data": rows(json!([{"a": 1}])), "transform": [{"calculate": expression, "as": "x"}],
            "mark": "bar", "encoding": {"y": {"field": "x", "type": "quantitative"}}}));
        let status = outcome(&mounted).await;
        sleep(50).await;
        assert_not_pwned();
        assert_eq!(status, "failed", "{expression}");
        assert!(error_text(&mounted).contains("Vega-Lite:"), "{expression}: {}", error_text(&mounted));
        mounted.container.remove();
    }
}

#[wasm_bindgen_test]
async fn two_hundred_thousand_points_are_refused_quickly_with_the_cap_named() {
    let points: Vec<Value> = (0..200_000).map(|i| json!({"x": i, "y": i % 97})).collect();
    let spec = json!({"data": {"values": points}, "mark": "point",
        "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"}}});
    let start = window().performance().expect("performance").now();
    let before = resources().len();
    let mounted = mount(spec);
    assert_eq!(outcome(&mounted).await, "failed");
    let elapsed = window().performance().expect("performance").now() - start;
    let message = error_text(&mounted);
    assert!(message.contains("200000 rows") && message.contains(&format!("at most {MAX_ROWS}")), "{message}");
    assert!(mounted.query("svg").is_none(), "nothing was drawn");
    assert_eq!(resources().len(), before, "no request");
    assert!(elapsed < 3_000.0, "refused in {elapsed} ms");
}

// ---------------------------------------------------------------------------------------------
// The engine's verdict before a widget is shown (widget_display's ChartCompiler)

#[wasm_bindgen_test]
async fn the_engine_compiles_specs_and_names_errors_and_warnings_for_the_model() {
    install();
    let valid = json!({"data": rows(json!([{"a": "x", "b": 1}])), "mark": "bar",
        "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}}});
    let verdict = vega::compile(&valid).await.expect("the engine runs");
    assert!(verdict.errors.is_empty() && verdict.warnings.is_empty(), "{verdict:?}");

    let mut warned = valid.clone();
    warned["encoding"]["shape"] = json!({"field": "a", "type": "nominal"});
    let verdict = vega::compile(&warned).await.expect("the engine runs");
    assert!(verdict.errors.is_empty(), "{verdict:?}");
    assert!(verdict.warnings.iter().any(|w| w.contains("shape")), "{verdict:?}");

    let mut wrong = valid.clone();
    wrong["transform"] = json!([{"calculate": "datum.b +", "as": "c"}]);
    let verdict = vega::compile(&wrong).await.expect("the engine runs");
    assert!(!verdict.errors.is_empty(), "an expression cut short: {verdict:?}");

    let mut hostile = valid;
    hostile["transform"] = json!([{"calculate": "window.__pwned = 1", "as": "c"}]);
    let verdict = vega::compile(&hostile).await.expect("the engine runs");
    assert!(!verdict.errors.is_empty(), "{verdict:?}");
    assert_not_pwned();
}

#[wasm_bindgen_test]
async fn a_later_chart_of_a_thousand_points_draws_quickly_on_a_canvas_and_exports_as_svg() {
    // The engine is compiled by now (or is compiled here, outside the timing).
    drop(drawn(json!({"data": rows(json!([{"a": 1}])), "mark": "point", "encoding": {"x": {"field": "a", "type": "quantitative"}}})).await);
    let points: Vec<Value> = (0..1_000).map(|i| json!({"x": i, "y": (i * 37) % 101, "g": i % 4})).collect();
    let spec = json!({"title": "Thousand points", "data": {"values": points}, "mark": "point", "encoding": {"x": {"field": "x", "type": "quantitative"},
        "y": {"field": "y", "type": "quantitative"}, "color": {"field": "g", "type": "nominal"}}});
    assert!(vega_lite::drawn_on_canvas(&spec), "over {} rows", vega_lite::SVG_MAX_ROWS);
    let performance = window().performance().expect("performance");
    let start = performance.now();
    let mounted = drawn(spec).await;
    let elapsed = performance.now() - start;
    web_sys::console::log_1(&format!("vega-lite: 1,000 points drawn in {elapsed:.0} ms (engine loaded)").into());
    // The budget is 50 ms (measured by scripts/bench.sh on the release build); this debug-build
    // test on a shared machine only catches a much worse regression (the figure is logged).
    assert!(elapsed < 3_000.0, "1,000 points took {elapsed} ms");

    let host = mounted.query("[data-testid=vega-lite-chart]").expect("chart");
    assert!(host.query_selector("canvas").expect("query").is_some(), "drawn on a canvas");
    assert_eq!(marks(&mounted, "symbol"), 0, "no SVG mark for each point");
    assert_eq!(host.get_attribute("role").as_deref(), Some("img"));
    assert_eq!(host.get_attribute("aria-label").as_deref(), Some("Thousand points: chart of 1000 rows"));
    // The export has every point, the theme's colours written in.
    let svg = vega::canvas_chart_svg(&host).await.expect("the canvas chart as SVG");
    let symbols = svg.split("mark-symbol").nth(1).map_or(0, |group| group.split("</g>").next().unwrap_or_default().matches("<path").count());
    assert_eq!(symbols, 1_000, "a path per point in the exported SVG");
    assert!(!svg.contains("var(--"), "colours resolved: no CSS variable left in the file");
    let series_1 = web_sys::window()
        .and_then(|w| w.get_computed_style(&host).ok().flatten())
        .and_then(|style| style.get_property_value("--au-series-1").ok())
        .expect("token");
    assert!(svg.contains(series_1.trim()), "the first series takes the theme's colour {series_1}");
    // A small chart in the same widget goes back to SVG marks and drops the image role.
    mounted.data.set(Arc::new(json!({"data": rows(json!([{"a": 1}, {"a": 2}])), "mark": "point",
        "encoding": {"x": {"field": "a", "type": "quantitative"}}})));
    for _ in 0..200 {
        next_frame().await;
        if marks(&mounted, "symbol") == 2 {
            break;
        }
        sleep(25).await;
    }
    assert_eq!(marks(&mounted, "symbol"), 2);
    assert!(host.get_attribute("role").is_none());
}

#[wasm_bindgen_test]
async fn a_chart_on_a_canvas_takes_the_dark_themes_text_colours() {
    set_theme("dark");
    let points: Vec<Value> = (0..800).map(|i| json!({"x": i, "y": (i * 13) % 97})).collect();
    let spec = json!({"data": {"values": points}, "mark": "point",
        "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"}}});
    let mounted = drawn(spec).await;
    let host = mounted.query("[data-testid=vega-lite-chart]").expect("chart");
    let svg = vega::canvas_chart_svg(&host).await.expect("the canvas chart as SVG");
    set_theme("light");
    // A canvas is given colours, not the tokens' `light-dark(...)` text, which it cannot read.
    assert!(!svg.contains("light-dark("), "every colour resolved");
    // --au-text-2, dark: the axis labels stay readable on the dark surface.
    assert!(svg.contains("rgb(160, 160, 184)"), "the axis labels take the dark theme's text colour");
}

#[wasm_bindgen_test]
async fn one_spec_shown_twice_draws_every_point_in_both_widgets() {
    // Both widgets' views are built from the one dataflow the check parsed (and share its rows).
    let points: Vec<Value> = (0..600).map(|i| json!({"x": i, "y": (i * 7) % 50, "k": format!("k{}", i % 3)})).collect();
    let spec = json!({"data": {"values": points}, "mark": "point", "transform": [{"calculate": "datum.y * 2", "as": "y2"}],
        "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y2", "type": "quantitative"},
                     "color": {"field": "k", "type": "nominal"}}});
    let first = drawn(spec.clone()).await;
    let second = drawn(spec).await;
    for mounted in [&first, &second] {
        let host = mounted.query("[data-testid=vega-lite-chart]").expect("chart");
        let svg = vega::canvas_chart_svg(&host).await.expect("the canvas chart as SVG");
        let symbols = svg.split("mark-symbol").nth(1).map_or(0, |group| group.split("</g>").next().unwrap_or_default().matches("<path").count());
        assert_eq!(symbols, 600, "a path per point in each widget");
    }
    drop(first);
}

#[wasm_bindgen_test]
async fn a_spec_checked_before_it_is_drawn_is_compiled_once_and_drawn_at_its_widget_size() {
    use wasm_bindgen::JsCast;

    install();
    let lite = js_sys::Reflect::get(&js_sys::global(), &"vegaLite".into()).expect("vegaLite");
    let original: js_sys::Function = js_sys::Reflect::get(&lite, &"compile".into()).expect("compile").unchecked_into();
    let calls = Rc::new(Cell::new(0));
    let counting = Closure::<dyn Fn(JsValue, JsValue) -> Result<JsValue, JsValue>>::new({
        let (calls, original, lite) = (calls.clone(), original.clone(), lite.clone());
        move |spec: JsValue, options: JsValue| {
            calls.set(calls.get() + 1);
            original.call2(&lite, &spec, &options)
        }
    });
    js_sys::Reflect::set(&lite, &"compile".into(), counting.as_ref()).expect("wrap compile");
    // Vega's parse (its spec to a dataflow) is as dear: the view is built from the check's.
    let vega_module = js_sys::Reflect::get(&js_sys::global(), &"vega".into()).expect("vega");
    let original_parse: js_sys::Function = js_sys::Reflect::get(&vega_module, &"parse".into()).expect("parse").unchecked_into();
    let parses = Rc::new(Cell::new(0));
    let counting_parse = Closure::<dyn Fn(JsValue, JsValue, JsValue) -> Result<JsValue, JsValue>>::new({
        let (parses, original, vega_module) = (parses.clone(), original_parse.clone(), vega_module.clone());
        move |spec: JsValue, config: JsValue, options: JsValue| {
            parses.set(parses.get() + 1);
            original.call3(&vega_module, &spec, &config, &options)
        }
    });
    js_sys::Reflect::set(&vega_module, &"parse".into(), counting_parse.as_ref()).expect("wrap parse");
    let spec = json!({"title": "Compiled once", "data": rows(json!([{"m": "a", "v": 3}, {"m": "b", "v": 5}, {"m": "c", "v": 4}])),
        "mark": "bar", "encoding": {"x": {"field": "m", "type": "nominal"}, "y": {"field": "v", "type": "quantitative"}}});
    let verdict = vega::compile(&spec).await;
    let mounted = mount(spec.clone());
    let status = outcome(&mounted).await;
    js_sys::Reflect::set(&lite, &"compile".into(), &original).expect("restore compile");
    js_sys::Reflect::set(&vega_module, &"parse".into(), &original_parse).expect("restore parse");

    assert!(verdict.is_ok_and(|verdict| verdict.errors.is_empty()));
    assert_eq!(status, "drawn", "{}", mounted.text());
    assert_eq!(calls.get(), 1, "the check's compiled spec is the one drawn");
    assert_eq!(parses.get(), 1, "the check's parsed dataflow is the one drawn");
    assert_eq!(marks(&mounted, "rect"), 3);
    let width = mounted.query("svg.marks").and_then(|svg| svg.get_attribute("width")).and_then(|w| w.parse::<f64>().ok());
    assert!(width.is_some_and(|width| (width - 640.0).abs() < 2.0), "drawn at its 640 px box, not the size it was compiled at: {width:?}");
}
