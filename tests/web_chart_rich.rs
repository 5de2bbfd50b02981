//! Browser tier for the `chart-rich` variants of issue 19: horizontal bars, scatter, bubble, bars
//! with a line on a second axis, and the gauge. Each draws its recipe example, counted in the SVG
//! (marks matching the data, sizes following the values) in the light and the dark theme with the
//! app's styles, and old params still draw as before.
#![cfg(target_arch = "wasm32")]

mod support;

use autoui_core::recipes::registry;
use autoui_core::widget_kind::WidgetKind;
use serde_json::{Value, json};
use support::{Mounted, assert_no_injected_markup, mount_widget, next_frame};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().and_then(|w| w.document()).expect("document")
}

/// The app's tokens and the widget's stylesheet, once.
fn install_styles() {
    let document = document();
    if document.get_element_by_id("chart-rich-test-styles").is_some() {
        return;
    }
    let style = document.create_element("style").expect("style");
    style.set_id("chart-rich-test-styles");
    style.set_text_content(Some(concat!(
        include_str!("../style/tokens.css"),
        include_str!("../style/base.css"),
        include_str!("../style/widgets/_common.css"),
        include_str!("../style/widgets/chart-rich.css"),
    )));
    document.head().expect("head").append_child(&style).expect("append style");
}

fn set_theme(theme: &str) {
    document().document_element().expect("html").set_attribute("data-theme", theme).expect("data-theme");
}

/// The recipe example whose params have `type` (and `horizontal`, for bars) as given.
fn recipe_example(matches: impl Fn(&Value) -> bool) -> Value {
    registry()
        .get(WidgetKind::ChartRich)
        .and_then(|recipe| recipe.examples.iter().find(|example| matches(example)).cloned())
        .expect("the recipe has that example")
}

/// Mounts `data` in a 560 × 340 box and waits until the plot is drawn at that size.
async fn drawn(data: Value) -> Mounted {
    install_styles();
    let mounted = mount_widget(WidgetKind::ChartRich, data);
    mounted.container.style().set_property("width", "560px").expect("width");
    mounted.container.style().set_property("height", "340px").expect("height");
    for _ in 0..3 {
        next_frame().await;
    }
    mounted
}

fn attr(element: &Element, name: &str) -> String {
    element.get_attribute(name).unwrap_or_default()
}

fn number(element: &Element, name: &str) -> f64 {
    attr(element, name).parse().unwrap_or_else(|_| panic!("{name} is a number on {}", element.outer_html()))
}

fn mark(mounted: &Mounted, mark: &str) -> Element {
    mounted.query(&format!("[data-mark=\"{mark}\"]")).unwrap_or_else(|| panic!("mark {mark}"))
}

fn texts(mounted: &Mounted, selector: &str) -> Vec<String> {
    mounted.query_all(selector).iter().map(|e| e.text_content().unwrap_or_default()).collect()
}

fn computed(element: &Element, property: &str) -> String {
    web_sys::window()
        .and_then(|w| w.get_computed_style(element).ok().flatten())
        .and_then(|style| style.get_property_value(property).ok())
        .unwrap_or_default()
}

/// A colour token as the browser resolves it in the current theme (`rgb(…)`).
fn token_colour(token: &str) -> String {
    let probe = document().create_element("div").expect("div");
    probe.set_attribute("style", &format!("background: var({token})")).expect("style");
    document().body().expect("body").append_child(&probe).expect("append");
    let colour = computed(&probe, "background-color");
    probe.remove();
    colour
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

// ---------------------------------------------------------------------------------------------
// Each variant, checked in one theme

async fn horizontal_bars(theme: &str) {
    let example = recipe_example(|e| e["horizontal"] == true).clone();
    let mounted = drawn(example.clone()).await;
    assert_eq!(attr(&mounted.query("figure").expect("figure"), "data-orientation"), "horizontal");
    let values: Vec<f64> = example["data"][0]["values"].as_array().expect("values").iter().filter_map(Value::as_f64).collect();
    let bars = mounted.query_all(".au-chart-rich__bar");
    assert_eq!(bars.len(), values.len(), "{theme}: one bar per label");
    let first = mark(&mounted, "0-0");
    for (index, value) in values.iter().enumerate() {
        let bar = mark(&mounted, &format!("0-{index}"));
        assert!(close(number(&bar, "x"), number(&first, "x"), 0.01), "{theme}: every bar starts at zero, on the left");
        assert!(close(number(&bar, "width") / number(&first, "width"), value / values[0], 0.02), "{theme}: widths follow the values");
        if index > 0 {
            let above = mark(&mounted, &format!("0-{}", index - 1));
            assert!(number(&bar, "y") > number(&above, "y"), "{theme}: labels run top to bottom in order");
        }
    }
    assert_eq!(texts(&mounted, ".au-chart-rich__label")[2], "Documentation", "{theme}: labels on the left");
    let label = mounted.query(".au-chart-rich__label").expect("label");
    assert!(number(&label, "x") < number(&first, "x"), "{theme}: the labels sit left of the bars");
    mounted.container.remove();
}

async fn bars_with_a_line_on_a_second_axis(theme: &str) {
    let example = recipe_example(|e| e["data"][1]["axis"] == "right").clone();
    let mounted = drawn(example.clone()).await;
    assert_eq!(mounted.query_all(".au-chart-rich__bar").len(), 6, "{theme}: revenue as six bars");
    assert_eq!(mounted.query_all(".au-chart-rich__series--right .au-chart-rich__line").len(), 1, "{theme}: orders as one line");
    assert_eq!(mounted.query_all(".au-chart-rich__series--right .au-chart-rich__dot").len(), 6, "{theme}: a dot per month");
    let right_ticks = texts(&mounted, ".au-chart-rich__tick--right");
    assert!(right_ticks.len() >= 3, "{theme}: a second axis at the right: {right_ticks:?}");
    let highest: f64 = right_ticks.iter().filter_map(|t| t.replace(',', "").parse().ok()).fold(0.0, f64::max);
    assert!((455.0..1_000.0).contains(&highest), "{theme}: the right axis covers the orders (455): {right_ticks:?}");
    let left_highest: f64 = texts(&mounted, ".au-chart-rich__tick:not(.au-chart-rich__tick--right)")
        .iter()
        .filter_map(|t| t.parse().ok())
        .fold(0.0, f64::max);
    assert!((63.0..200.0).contains(&left_highest), "{theme}: the left axis covers the revenue (63), not the orders: {left_highest}");
    // On its own axis the line's top point (June, 455) is near the plot's top, not squashed at the bottom.
    let june = mark(&mounted, "1-5");
    let may_bar = mark(&mounted, "0-5");
    assert!(number(&june, "cy") < number(&may_bar, "y") + number(&may_bar, "height") / 2.0, "{theme}: the line uses the right axis");
    assert_eq!(texts(&mounted, ".au-chart-rich__legend button"), vec!["Revenue", "Orders (right axis)"], "{theme}");
    assert!(mounted.text().contains("orders"), "{theme}: the right axis shows its unit");
    mounted.container.remove();
}

async fn bubbles(theme: &str) {
    let example = recipe_example(|e| e["type"] == "bubble").clone();
    let mounted = drawn(example.clone()).await;
    let points = mounted.query_all(".au-chart-rich__point");
    assert_eq!(points.len(), 5, "{theme}: one bubble per point (3 + 2)");
    // Paris (2,100) against Lyon (520): areas follow the sizes.
    let (paris, lyon) = (number(&mark(&mounted, "0-0"), "r"), number(&mark(&mounted, "0-1"), "r"));
    assert!(close((paris / lyon).powi(2), 2100.0 / 520.0, 0.05), "{theme}: bubble areas follow the sizes ({paris} / {lyon})");
    // Paris is the densest and the dearest: rightmost and highest.
    let x = |m: &str| number(&mark(&mounted, m), "cx");
    let y = |m: &str| number(&mark(&mounted, m), "cy");
    assert!(["0-1", "0-2", "1-0", "1-1"].iter().all(|m| x("0-0") > x(m) && y("0-0") < y(m)), "{theme}: positions follow x and y");
    assert_ne!(computed(&mark(&mounted, "0-0"), "fill"), computed(&mark(&mounted, "1-0"), "fill"), "{theme}: a colour per series");
    let titles = texts(&mounted, ".au-chart-rich__axis-title");
    assert_eq!(titles, vec!["Inhabitants per km²", "Rent (€/m²)"], "{theme}");
    assert_eq!(texts(&mounted, ".au-chart-rich__legend button"), vec!["France", "Belgium"], "{theme}");
    // Hiding Belgium leaves France's three.
    mounted.query_all(".au-chart-rich__legend button")[1].unchecked_ref::<HtmlElement>().click();
    next_frame().await;
    assert_eq!(mounted.query_all(".au-chart-rich__point").len(), 3, "{theme}: the legend hides a series");
    mounted.container.remove();
}

async fn gauge(theme: &str) {
    let example = recipe_example(|e| e["type"] == "gauge").clone();
    let mounted = drawn(example).await;
    let value = mounted.query(".au-chart-rich__gauge-value").expect("the filled part");
    assert_eq!(attr(&value, "data-share"), "0.7200", "{theme}: 72 on a dial from 0 to 100");
    assert!(mounted.query(".au-chart-rich__gauge-track").is_some(), "{theme}: the whole dial");
    assert_eq!(texts(&mounted, ".au-chart-rich__gauge-reading"), vec!["72%"], "{theme}");
    assert_eq!(texts(&mounted, ".au-chart-rich__tick"), vec!["0%", "100%"], "{theme}: the range's ends");
    let track = mounted.query(".au-chart-rich__gauge-track").expect("track");
    assert_eq!(computed(&track, "fill"), token_colour("--au-surface-2"), "{theme}: the dial takes the theme's surface");
    assert_ne!(computed(&value, "fill"), computed(&track, "fill"), "{theme}: the value stands out from the dial");
    mounted.container.remove();
}

async fn every_variant(theme: &str, tick_fill: &str) {
    set_theme(theme);
    horizontal_bars(theme).await;
    bars_with_a_line_on_a_second_axis(theme).await;
    bubbles(theme).await;
    gauge(theme).await;
    // Tick labels take the theme's secondary text colour.
    let mounted = drawn(recipe_example(|e| e["type"] == "bubble").clone()).await;
    let tick = mounted.query(".au-chart-rich__tick").expect("tick");
    assert_eq!(computed(&tick, "fill"), tick_fill, "{theme}: tick colour");
    assert_no_injected_markup(&mounted);
    mounted.container.remove();
    set_theme("light");
}

#[wasm_bindgen_test]
async fn the_new_variants_draw_their_marks_in_the_light_theme() {
    // --au-text-2, light
    every_variant("light", "rgb(92, 92, 128)").await;
}

#[wasm_bindgen_test]
async fn the_new_variants_draw_their_marks_in_the_dark_theme() {
    // --au-text-2, dark
    every_variant("dark", "rgb(160, 160, 184)").await;
}

#[wasm_bindgen_test]
async fn a_scatter_plot_draws_a_dot_per_point_and_says_what_it_left_out() {
    let data = json!({"type": "scatter", "data": [{"label": "Runs", "points": [{"x": 1, "y": 2}, {"x": 2, "y": "3.5"}, {"x": "n/a", "y": 1}, {"x": 4, "y": 8}]}]});
    let mounted = drawn(data).await;
    let dots = mounted.query_all(".au-chart-rich__point");
    assert_eq!(dots.len(), 3, "three points have numbers for x and y");
    let radii: Vec<f64> = dots.iter().map(|d| number(d, "r")).collect();
    assert!(radii.windows(2).all(|pair| pair[0] == pair[1]), "a scatter's dots are all one size: {radii:?}");
    let notes = mounted.query("[data-testid=chart-notes]").and_then(|n| n.text_content()).unwrap_or_default();
    assert!(notes.contains("1 point in Runs has no numeric x and y"), "{notes}");
    // Keyboard: the first point takes focus and shows its tooltip; the arrow moves to the next.
    let first = mark(&mounted, "0-0");
    first.unchecked_ref::<web_sys::SvgElement>().focus().expect("focus");
    next_frame().await;
    let tip = mounted.query("[data-testid=chart-tooltip]").and_then(|t| t.text_content()).unwrap_or_default();
    assert!(tip.contains("x 1") && tip.contains("y 2"), "{tip}");
    // The pointer over another point shows that point's tooltip instead.
    let init = web_sys::PointerEventInit::new();
    init.set_bubbles(true);
    let over = web_sys::PointerEvent::new_with_event_init_dict("pointerover", &init).expect("pointer event");
    mark(&mounted, "0-2").dispatch_event(&over).expect("dispatch pointerover");
    next_frame().await;
    let tip = mounted.query("[data-testid=chart-tooltip]").and_then(|t| t.text_content()).unwrap_or_default();
    assert!(tip.contains("x 4") && tip.contains("y 8"), "the hovered point's values: {tip}");
    mounted.container.remove();
}

#[wasm_bindgen_test]
async fn a_gauge_outside_its_range_fills_its_dial_and_says_so_and_a_reversed_range_is_an_error() {
    let mounted = drawn(json!({"type": "gauge", "unit": "°C", "min": 10, "max": 30, "data": [{"label": "Room", "values": [34]}]})).await;
    assert_eq!(attr(&mounted.query(".au-chart-rich__gauge-value").expect("value"), "data-share"), "1.0000");
    let note = mounted.query("[data-testid=gauge-outside]").and_then(|n| n.text_content()).unwrap_or_default();
    assert!(note.contains("34 °C") && note.contains("10 °C to 30 °C"), "{note}");
    mounted.container.remove();
    let mounted = drawn(json!({"type": "gauge", "min": 50, "max": 5, "data": [{"values": [7]}]})).await;
    assert!(mounted.text().contains("a gauge needs max above min"), "{}", mounted.text());
    mounted.container.remove();
}

#[wasm_bindgen_test]
async fn horizontal_bars_stack_into_one_row_per_label() {
    let data = json!({"type": "bar", "horizontal": true, "stacked": true, "labels": ["North", "South"],
        "data": [{"label": "Online", "values": [30, 10]}, {"label": "Stores", "values": [10, 30]}]});
    let mounted = drawn(data).await;
    assert_eq!(mounted.query_all(".au-chart-rich__bar").len(), 4);
    for row in 0..2 {
        let (online, stores) = (mark(&mounted, &format!("0-{row}")), mark(&mounted, &format!("1-{row}")));
        assert_eq!(number(&online, "y"), number(&stores, "y"), "one row per label");
        assert!(close(number(&online, "x") + number(&online, "width"), number(&stores, "x"), 0.6), "Stores continue Online's bar");
    }
    let total = |row: usize| number(&mark(&mounted, &format!("0-{row}")), "width") + number(&mark(&mounted, &format!("1-{row}")), "width");
    assert!(close(total(0), total(1), 0.6), "both rows total 40");
    mounted.container.remove();
}

#[wasm_bindgen_test]
async fn old_params_draw_as_before() {
    // A plain bar chart keeps its vertical bars, one axis, and no orientation.
    let mounted = drawn(json!({"type": "bar", "labels": ["a", "b"], "data": [{"label": "n", "values": [1, 2]}]})).await;
    let figure = mounted.query("figure").expect("figure");
    assert_eq!(attr(&figure, "data-orientation"), "");
    assert!(mounted.query(".au-chart-rich__tick--right").is_none());
    let (a, b) = (mark(&mounted, "0-0"), mark(&mounted, "0-1"));
    assert!(close(number(&b, "height") / number(&a, "height"), 2.0, 0.02) && number(&a, "x") < number(&b, "x"));
    mounted.container.remove();
}

#[wasm_bindgen_test]
async fn every_recipe_example_draws_its_marks_without_an_error() {
    let examples = registry().get(WidgetKind::ChartRich).expect("chart-rich").examples.clone();
    assert!(examples.len() >= 10, "one example per chart type at least: {}", examples.len());
    for example in examples {
        let title = example["title"].as_str().unwrap_or_default().to_owned();
        let mounted = drawn(example.clone()).await;
        assert!(mounted.query("[data-testid=widget-error]").is_none(), "{title}: {}", mounted.text());
        let marks = mounted.query_all("[data-mark], .au-chart-rich__gauge-value").len();
        assert!(marks > 0, "{title}: drew no mark");
        let series = example["data"].as_array().map_or(0, Vec::len);
        if example["type"] == "scatter" {
            let points: usize = (0..series).map(|s| example["data"][s]["points"].as_array().map_or(0, Vec::len)).sum();
            assert_eq!(mounted.query_all(".au-chart-rich__point").len(), points, "{title}: a dot per point");
        }
        if example["horizontal"] == true && example["stacked"] == true {
            let labels = example["labels"].as_array().map_or(0, Vec::len);
            assert_eq!(mounted.query_all(".au-chart-rich__bar").len(), labels * series, "{title}: a bar per label and series");
            for row in 0..labels {
                let ys: Vec<f64> = (0..series).map(|s| number(&mark(&mounted, &format!("{s}-{row}")), "y")).collect();
                assert!(ys.windows(2).all(|pair| pair[0] == pair[1]), "{title}: one row per label: {ys:?}");
            }
        }
        assert_no_injected_markup(&mounted);
        mounted.container.remove();
    }
}

#[wasm_bindgen_test]
async fn a_bubble_charts_data_table_lists_every_point_with_its_series_and_keeps_hostile_labels_as_text() {
    let hostile = "<img src=x onerror=\"window.__pwned = 1\">";
    let mut example = recipe_example(|e| e["type"] == "bubble").clone();
    example["data"][1]["points"][0]["label"] = json!(hostile);
    example["xTitle"] = json!("<b>density</b>");
    let mounted = drawn(example).await;
    let summary = mounted.query(".au-chart-rich__table summary").expect("the data table's summary");
    summary.unchecked_ref::<HtmlElement>().click();
    for _ in 0..5 {
        next_frame().await;
    }
    assert_eq!(texts(&mounted, ".au-chart-rich__table thead th"), vec!["Series", "Point", "<b>density</b>", "Rent (€/m²)", "Size"]);
    let rows: Vec<Vec<String>> = mounted
        .query_all(".au-chart-rich__table tbody tr")
        .iter()
        .map(|row| {
            let cells = row.query_selector_all("th, td").expect("cells");
            (0..cells.length()).filter_map(|i| cells.item(i)?.text_content()).collect()
        })
        .collect();
    assert_eq!(rows.len(), 5, "a row per point (3 + 2): {rows:?}");
    assert_eq!(rows[0], vec!["France", "Paris", "20,700", "30.1", "2,100"]);
    assert_eq!(rows[3], vec!["Belgium", hostile, "7,400", "15.2", "1,200"]);
    assert!(mounted.query(".au-chart-rich__table b, .au-chart-rich__table img").is_none(), "markup in the data stays text");
    assert_no_injected_markup(&mounted);
    mounted.container.remove();
}

/// A donut's total stays inside its hole: whole while it fits at a readable size, compact in a small
/// frame (`29.6M €`), never spilling over the ring as a full 10-figure total would.
#[wasm_bindgen_test]
async fn a_donuts_total_stays_inside_its_hole_whole_when_it_fits_compact_when_not() {
    let sales = json!({"type": "donut", "unit": " €", "labels": ["Hardware", "Software", "Services"],
        "data": [{"label": "Revenue", "values": [12100936, 12390514, 5147074]}]});
    // The hole's width and the total's drawn width and text, for the donut in a `width` × `height` box.
    let measure = |mounted: &Mounted| {
        let ring = mounted.query_all(".au-chart-rich__slice").iter().map(|slice| slice.get_bounding_client_rect()).fold(
            (f64::MAX, f64::MIN),
            |(left, right), rect| (left.min(rect.left()), right.max(rect.right())),
        );
        let total = mounted.query(".au-chart-rich__total").expect("the total");
        let hole = (ring.1 - ring.0) * 0.6;
        (hole, total.get_bounding_client_rect().width(), total.text_content().unwrap_or_default())
    };
    for (width, height, expected) in [(560, 340, "29,638,524 €"), (240, 240, "29.6M €")] {
        let mounted = drawn(sales.clone()).await;
        mounted.container.style().set_property("width", &format!("{width}px")).expect("width");
        mounted.container.style().set_property("height", &format!("{height}px")).expect("height");
        for _ in 0..3 {
            next_frame().await;
        }
        let (hole, drawn_width, text) = measure(&mounted);
        assert_eq!(text, expected, "in {width} × {height}");
        assert!(drawn_width > 0.0 && drawn_width < hole, "the total ({drawn_width} px) fits the hole ({hole} px) in {width} × {height}");
        mounted.container.remove();
    }
}
