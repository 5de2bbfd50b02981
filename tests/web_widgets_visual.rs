//! Browser tier for the visual widgets (chart-rich, sankey, hemicycle, gallery, carousel,
//! js-sandbox): each renders its recipe example with the values a user would see, shows its empty
//! state, renders hostile strings as text, reports its interactions, and re-renders on new data.
#![cfg(target_arch = "wasm32")]

mod support;

use std::sync::Arc;

use autoui_core::canvas::event::WidgetAction;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::Set;
use serde_json::{Value, json};
use support::{
    HOSTILE, Mounted, assert_no_injected_markup, assert_not_pwned, example, mount_widget,
    next_frame, settle, sleep,
};
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{
    Element, EventInit, HtmlElement, KeyboardEvent, KeyboardEventInit, PointerEvent,
    PointerEventInit,
};

wasm_bindgen_test_configure!(run_in_browser);

// ---------------------------------------------------------------------------------------------
// Helpers

fn element(mounted: &Mounted, selector: &str) -> Element {
    mounted
        .query(selector)
        .unwrap_or_else(|| panic!("no element matches {selector}"))
}

fn texts(mounted: &Mounted, selector: &str) -> Vec<String> {
    mounted
        .query_all(selector)
        .iter()
        .map(|e| e.text_content().unwrap_or_default())
        .collect()
}

fn attr(element: &Element, name: &str) -> String {
    element.get_attribute(name).unwrap_or_default()
}

fn number_attr(element: &Element, name: &str) -> f64 {
    attr(element, name)
        .parse()
        .unwrap_or_else(|_| panic!("{name} of {} is a number", element.outer_html()))
}

/// A keydown that bubbles like a real one (Leptos listens for it on the window).
fn press(target: &Element, key: &str, shift: bool) {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_shift_key(shift);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event =
        KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("keyboard event");
    target.dispatch_event(&event).expect("dispatch keydown");
}

fn pointer(target: &Element, kind: &str, client_x: i32) {
    let init = PointerEventInit::new();
    init.set_bubbles(!matches!(kind, "pointerenter" | "pointerleave"));
    init.set_client_x(client_x);
    let event = PointerEvent::new_with_event_init_dict(kind, &init).expect("pointer event");
    target
        .dispatch_event(&event)
        .expect("dispatch pointer event");
}

/// A bubbling event of `kind` (clicks on SVG elements, which have no `click()`).
fn fire(target: &Element, kind: &str) {
    let init = EventInit::new();
    init.set_bubbles(true);
    let event = web_sys::Event::new_with_event_init_dict(kind, &init).expect("event");
    target.dispatch_event(&event).expect("dispatch event");
}

fn focus(target: &Element) {
    target
        .unchecked_ref::<web_sys::HtmlElement>()
        .focus()
        .expect("focus");
}

fn active_element() -> Option<Element> {
    web_sys::window()?.document()?.active_element()
}

/// Waits, frame by frame (at most `frames`), until `ready` holds; returns whether it did.
async fn frames_until(frames: usize, ready: impl Fn() -> bool) -> bool {
    for _ in 0..frames {
        if ready() {
            return true;
        }
        next_frame().await;
    }
    ready()
}

fn events_of(mounted: &Mounted, action: WidgetAction) -> Vec<Value> {
    mounted
        .events()
        .into_iter()
        .filter(|(a, _)| *a == action)
        .map(|(_, payload)| payload)
        .collect()
}

fn set_data(mounted: &Mounted, data: Value) {
    mounted.data.set(Arc::new(data));
}

/// Every hostile string shows up as literal text.
fn assert_hostile_text_visible(mounted: &Mounted) {
    let text = mounted.text();
    for hostile in HOSTILE {
        assert!(
            text.contains(hostile),
            "{hostile:?} is shown as text in {text:?}"
        );
    }
    assert_no_injected_markup(mounted);
    assert_not_pwned();
}

// ---------------------------------------------------------------------------------------------
// chart-rich

/// Opens the chart's data table (its rows are built on first open).
async fn open_table(mounted: &Mounted) {
    element(mounted, ".au-chart-rich__table summary")
        .unchecked_ref::<HtmlElement>()
        .click();
    let built = frames_until(30, || {
        mounted.query(".au-chart-rich__table table").is_some()
    })
    .await;
    assert!(built, "the data table opens");
}

#[wasm_bindgen_test]
async fn chart_rich_draws_its_example_as_a_two_series_line_chart_with_axes_and_legend() {
    let mounted = mount_widget(WidgetKind::ChartRich, example(WidgetKind::ChartRich));
    settle().await;
    assert_eq!(
        attr(&element(&mounted, "figure"), "data-chart-type"),
        "line"
    );
    assert!(mounted.text().contains("Lyon: forecast temperatures"));
    let lines = mounted.query_all(".au-chart-rich__line");
    assert_eq!(lines.len(), 2, "one line per series");
    assert!(
        lines
            .iter()
            .all(|line| attr(line, "d").starts_with('M')
                && attr(line, "d").matches('L').count() == 6)
    );
    assert_eq!(
        mounted.query_all(".au-chart-rich__dot").len(),
        14,
        "a focusable dot per value"
    );
    assert_eq!(
        texts(&mounted, ".au-chart-rich__legend button"),
        vec!["Max", "Min"]
    );
    assert_eq!(
        texts(&mounted, ".au-chart-rich__label"),
        vec!["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    );
    let ticks = texts(&mounted, ".au-chart-rich__tick");
    assert!(
        ticks.contains(&"20".to_owned()) && ticks.contains(&"30".to_owned()),
        "1-2-5 ticks: {ticks:?}"
    );
    assert!(
        mounted.query(".au-chart-rich__table table").is_none(),
        "the table is built when first opened"
    );
    open_table(&mounted).await;
    let table = element(&mounted, ".au-chart-rich__table")
        .text_content()
        .unwrap_or_default();
    assert!(
        table.contains("Data table") && table.contains("31.5 °C") && table.contains("14.8 °C"),
        "{table}"
    );
    assert_eq!(mounted.query_all(".au-chart-rich__table tbody tr").len(), 7);
}

#[wasm_bindgen_test]
async fn chart_rich_reads_datasets_as_grouped_bars() {
    let recipe_bar = json!({"title": "Quarterly revenue by plan", "type": "bar", "labels": ["Q1", "Q2", "Q3", "Q4"],
        "datasets": [{"label": "Free", "values": [12, 14, 15, 18]}, {"label": "Pro", "values": [48, 55, 61, 70]}]});
    let mounted = mount_widget(WidgetKind::ChartRich, recipe_bar);
    settle().await;
    let bars = mounted.query_all(".au-chart-rich__bar");
    assert_eq!(bars.len(), 8, "two bars per quarter");
    let height = |mark: &str| {
        number_attr(
            &element(&mounted, &format!("[data-mark=\"{mark}\"]")),
            "height",
        )
    };
    assert!(
        (height("1-3") / height("0-3") - 70.0 / 18.0).abs() < 0.05,
        "bar heights follow the values"
    );
    assert!(
        number_attr(&element(&mounted, "[data-mark=\"0-0\"]"), "x")
            < number_attr(&element(&mounted, "[data-mark=\"1-0\"]"), "x"),
        "the series sit side by side in their group"
    );
    assert_eq!(
        texts(&mounted, ".au-chart-rich__legend button"),
        vec!["Free", "Pro"]
    );
}

#[wasm_bindgen_test]
async fn chart_rich_stacks_bars_into_one_column_per_label_and_hides_a_series_from_the_stack() {
    let stacked = json!({"title": "Tickets by priority", "type": "bar", "stacked": true, "labels": ["Mon", "Tue", "Wed"],
        "data": [{"label": "Low", "values": [10, 20, 5]}, {"label": "High", "values": [30, 10, 15]}]});
    let mounted = mount_widget(WidgetKind::ChartRich, stacked);
    mounted.container.style().set_property("width", "480px").expect("width");
    mounted.container.style().set_property("height", "320px").expect("height");
    next_frame().await;
    next_frame().await;
    assert_eq!(mounted.query_all(".au-chart-rich__bar").len(), 6, "one bar per value");
    let bar = |mark: &str| element(&mounted, &format!("[data-mark=\"{mark}\"]"));
    for category in 0..3 {
        let (low, high) = (bar(&format!("0-{category}")), bar(&format!("1-{category}")));
        assert_eq!(number_attr(&low, "x"), number_attr(&high, "x"), "one column per label");
        assert_eq!(number_attr(&low, "width"), number_attr(&high, "width"));
        let top_of_low = number_attr(&low, "y");
        let bottom_of_high = number_attr(&high, "y") + number_attr(&high, "height");
        assert!((top_of_low - bottom_of_high).abs() < 0.6, "High sits on Low in column {category}");
    }
    // Monday's column (10 + 30) is the tallest: twice Tuesday's (20 + 10) is not, but 40/30 is.
    let column = |c: usize| number_attr(&bar(&format!("0-{c}")), "height") + number_attr(&bar(&format!("1-{c}")), "height");
    assert!((column(0) / column(1) - 40.0 / 30.0).abs() < 0.05, "columns follow the totals");
    // Hiding "Low" leaves "High" standing on the baseline.
    let before = number_attr(&bar("1-0"), "y") + number_attr(&bar("1-0"), "height");
    element(&mounted, ".au-chart-rich__legend button").unchecked_into::<HtmlElement>().click();
    next_frame().await;
    let after = number_attr(&bar("1-0"), "y") + number_attr(&bar("1-0"), "height");
    assert!(after > before + 1.0, "High now starts at zero: {before} -> {after}");
}

#[wasm_bindgen_test]
async fn chart_rich_donut_shows_slices_shares_and_the_total() {
    let donut = json!({"title": "Energy mix 2023", "type": "donut", "unit": "%",
        "labels": ["Nuclear", "Hydro", "Wind", "Solar", "Gas", "Other"],
        "data": [{"label": "Share of production", "values": [65, 12, 10, 5, 6, 2]}]});
    let mounted = mount_widget(WidgetKind::ChartRich, donut);
    settle().await;
    assert_eq!(mounted.query_all(".au-chart-rich__slice").len(), 6);
    let legend = element(&mounted, ".au-chart-rich__pie-legend")
        .text_content()
        .unwrap_or_default();
    assert!(
        legend.contains("Nuclear") && legend.contains("65%") && legend.contains("Other"),
        "{legend}"
    );
    assert_eq!(
        element(&mounted, ".au-chart-rich__total")
            .text_content()
            .as_deref(),
        Some("100%")
    );
    let slice = element(&mounted, "[data-mark=\"1\"]");
    focus(&slice);
    settle().await;
    let tip = element(&mounted, "[data-testid=chart-tooltip]")
        .text_content()
        .unwrap_or_default();
    assert!(tip.contains("Hydro") && tip.contains("12%"), "{tip}");
    press(&slice, "ArrowRight", false);
    settle().await;
    assert_eq!(
        active_element().map(|e| attr(&e, "data-mark")).as_deref(),
        Some("2"),
        "arrows move between slices"
    );
}

#[wasm_bindgen_test]
async fn chart_rich_hangs_negative_bars_below_the_zero_baseline() {
    let data = json!({"type": "bar", "labels": ["loss", "gain"], "data": [{"label": "Result", "values": [-20, 30]}]});
    let mounted = mount_widget(WidgetKind::ChartRich, data);
    settle().await;
    let zero = element(&mounted, ".au-chart-rich__grid--zero");
    let baseline = number_attr(&zero, "y1");
    let loss = element(&mounted, ".au-chart-rich__bar--negative");
    let gain = element(&mounted, "[data-mark=\"0-1\"]");
    assert!(
        (number_attr(&loss, "y") - baseline).abs() < 0.6,
        "the loss starts at zero and goes down"
    );
    assert!(
        (number_attr(&gain, "y") + number_attr(&gain, "height") - baseline).abs() < 0.6,
        "the gain ends at zero"
    );
    let ticks = texts(&mounted, ".au-chart-rich__tick");
    assert!(
        ticks.contains(&"0".to_owned()) && ticks.iter().any(|t| t.starts_with('-')),
        "{ticks:?}"
    );
}

#[wasm_bindgen_test]
async fn chart_rich_hover_shows_every_series_value_for_the_category() {
    let mounted = mount_widget(WidgetKind::ChartRich, example(WidgetKind::ChartRich));
    settle().await;
    assert!(mounted.query("[data-testid=chart-tooltip]").is_none());
    let hit = element(&mounted, ".au-chart-rich__hit");
    let rect = hit.get_bounding_client_rect();
    pointer(
        &hit,
        "pointermove",
        (rect.left() + rect.width() * 0.93) as i32,
    );
    settle().await;
    let tip = element(&mounted, "[data-testid=chart-tooltip]")
        .text_content()
        .unwrap_or_default();
    assert!(
        tip.contains("Sun") && tip.contains("30.2 °C") && tip.contains("16.7 °C"),
        "{tip}"
    );
    pointer(&element(&mounted, "svg"), "pointerleave", 0);
    settle().await;
    assert!(
        mounted.query("[data-testid=chart-tooltip]").is_none(),
        "leaving the plot hides the tooltip"
    );
}

#[wasm_bindgen_test]
async fn chart_rich_points_are_reachable_by_keyboard_and_show_the_same_tooltip() {
    let mounted = mount_widget(WidgetKind::ChartRich, example(WidgetKind::ChartRich));
    settle().await;
    let tab_stops: Vec<Element> = mounted.query_all("[data-mark][tabindex=\"0\"]");
    assert_eq!(tab_stops.len(), 1, "the plot is one tab stop");
    let first = element(&mounted, "[data-mark=\"0-0\"]");
    assert_eq!(attr(&first, "aria-label"), "Max, Mon: 31.5 °C");
    focus(&first);
    settle().await;
    assert!(
        element(&mounted, "[data-testid=chart-tooltip]")
            .text_content()
            .unwrap_or_default()
            .contains("Mon")
    );
    press(&first, "ArrowRight", false);
    settle().await;
    assert_eq!(
        active_element().map(|e| attr(&e, "data-mark")).as_deref(),
        Some("0-1")
    );
    assert!(
        element(&mounted, "[data-testid=chart-tooltip]")
            .text_content()
            .unwrap_or_default()
            .contains("Tue")
    );
    press(
        &element(&mounted, "[data-mark=\"0-1\"]"),
        "ArrowDown",
        false,
    );
    settle().await;
    assert_eq!(
        active_element().map(|e| attr(&e, "data-mark")).as_deref(),
        Some("1-1"),
        "down moves to the next series"
    );
    let focused = element(&mounted, ".au-chart-rich__tip-row--focus")
        .text_content()
        .unwrap_or_default();
    assert!(
        focused.contains("Min") && focused.contains("18.9 °C"),
        "{focused}"
    );
}

#[wasm_bindgen_test]
async fn chart_rich_legend_hides_and_shows_a_series() {
    let mounted = mount_widget(WidgetKind::ChartRich, example(WidgetKind::ChartRich));
    settle().await;
    let min = mounted
        .query_all(".au-chart-rich__legend button")
        .into_iter()
        .nth(1)
        .expect("Min toggle");
    assert_eq!(attr(&min, "aria-pressed"), "true");
    min.unchecked_ref::<HtmlElement>().click();
    settle().await;
    assert_eq!(attr(&min, "aria-pressed"), "false");
    assert_eq!(mounted.query_all(".au-chart-rich__line").len(), 1);
    let max = mounted
        .query_all(".au-chart-rich__legend button")
        .into_iter()
        .next()
        .expect("Max toggle");
    max.unchecked_ref::<HtmlElement>().click();
    settle().await;
    assert_eq!(
        mounted.query_all(".au-chart-rich__line").len(),
        1,
        "the last visible series cannot be hidden"
    );
    min.unchecked_ref::<HtmlElement>().click();
    settle().await;
    assert_eq!(mounted.query_all(".au-chart-rich__line").len(), 2);
}

#[wasm_bindgen_test]
async fn chart_rich_reads_numeric_text_and_says_what_it_left_out() {
    let data = json!({"type": "line", "labels": ["a", "b", "c"], "data": [{"label": "S", "values": ["12.5", "n/a", 3]}]});
    let mounted = mount_widget(WidgetKind::ChartRich, data);
    settle().await;
    assert_eq!(
        mounted.query_all(".au-chart-rich__dot").len(),
        2,
        "the unreadable value is a gap"
    );
    let notes = element(&mounted, "[data-testid=chart-notes]")
        .text_content()
        .unwrap_or_default();
    assert_eq!(notes, "1 value in S is not a number and is left blank");
    open_table(&mounted).await;
    assert!(mounted.text().contains("12.5"));
}

#[wasm_bindgen_test]
async fn chart_rich_shows_an_empty_state_without_values_and_an_error_for_an_unknown_type() {
    for data in [
        json!({}),
        json!({"data": []}),
        json!({"datasets": [{"label": "x", "values": []}]}),
    ] {
        let mounted = mount_widget(WidgetKind::ChartRich, data.clone());
        settle().await;
        assert_eq!(
            element(&mounted, "[data-testid=widget-empty]")
                .text_content()
                .as_deref(),
            Some("No values to chart yet"),
            "{data}"
        );
    }
    let mounted = mount_widget(
        WidgetKind::ChartRich,
        json!({"type": "radar", "data": [{"values": [1]}]}),
    );
    settle().await;
    let error = element(&mounted, "[data-testid=widget-error]")
        .text_content()
        .unwrap_or_default();
    assert!(error.contains("unknown chart type \"radar\""), "{error}");
}

#[wasm_bindgen_test]
async fn chart_rich_renders_hostile_strings_as_text() {
    let data = json!({"title": HOSTILE[0], "type": "bar", "unit": HOSTILE[1], "labels": [HOSTILE[2], HOSTILE[3]],
        "data": [{"label": HOSTILE[1], "values": [1, 2]}, {"label": HOSTILE[3], "values": [3, 4], "color": "red;background:url(x)"}]});
    let mounted = mount_widget(WidgetKind::ChartRich, data);
    settle().await;
    open_table(&mounted).await;
    assert_hostile_text_visible(&mounted);
    // The table is markup too: its headers and row labels are the very strings given.
    let table = |css: &str| mounted.query_all(&format!(".au-chart-rich__table {css}")).iter().map(|cell| cell.text_content().unwrap_or_default()).collect::<Vec<_>>();
    assert_eq!(table("thead th"), vec!["Label", HOSTILE[1], HOSTILE[3]]);
    assert_eq!(table("tbody th"), vec![HOSTILE[2], HOSTILE[3]]);
    let with_unit = |value: u32| format!("{value} {}", HOSTILE[1]);
    assert_eq!(table("tbody td"), vec![with_unit(1), with_unit(3), with_unit(2), with_unit(4)]);
    assert_no_injected_markup(&mounted);
    assert_not_pwned();
    let style = attr(&element(&mounted, "[data-mark=\"1-0\"]"), "style");
    assert!(
        !style.contains("url("),
        "an unsafe colour is replaced by a palette colour: {style}"
    );
    // The marks are drawn as markup: their labels must come out as the very strings given.
    let label = attr(&element(&mounted, "[data-mark=\"1-1\"]"), "aria-label");
    assert_eq!(label, format!("{}, {}: 4 {}", HOSTILE[3], HOSTILE[3], HOSTILE[1]), "a bar's label keeps the hostile strings as text");
    let label = attr(&element(&mounted, "[data-mark=\"0-0\"]"), "aria-label");
    assert_eq!(label, format!("{}, {}: 1 {}", HOSTILE[1], HOSTILE[2], HOSTILE[1]), "a bar's label keeps the hostile strings as text");
}

/// The width an SVG plot draws at, from its viewBox.
fn drawn_width(mounted: &Mounted) -> f64 {
    let view_box = attr(&element(mounted, "svg"), "viewBox");
    view_box
        .split(' ')
        .nth(2)
        .and_then(|w| w.parse().ok())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn chart_rich_and_sankey_redraw_at_the_size_of_their_cell() {
    for (kind, plot) in [
        (WidgetKind::ChartRich, ".au-chart-rich__plot"),
        (WidgetKind::Sankey, ".au-sankey__plot"),
    ] {
        let mounted = mount_widget(kind, example(kind));
        let mut widths = Vec::new();
        for cell in [320, 640] {
            mounted
                .container
                .style()
                .set_property("width", &format!("{cell}px"))
                .expect("width");
            let room = || {
                element(&mounted, plot)
                    .get_bounding_client_rect()
                    .width()
                    .floor()
            };
            let followed = frames_until(60, || (drawn_width(&mounted) - room()).abs() < 1.0).await;
            assert!(
                followed,
                "{kind} in a {cell}px cell draws at {} for {} of room",
                drawn_width(&mounted),
                room()
            );
            widths.push(drawn_width(&mounted));
        }
        assert!(
            widths[1] > widths[0] + 300.0,
            "{kind} grew with its cell: {widths:?}"
        );
    }
}

#[wasm_bindgen_test]
async fn chart_rich_redraws_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::ChartRich, example(WidgetKind::ChartRich));
    settle().await;
    set_data(
        &mounted,
        json!({"type": "pie", "labels": ["a", "b"], "data": [{"values": [1, 3]}]}),
    );
    settle().await;
    assert_eq!(attr(&element(&mounted, "figure"), "data-chart-type"), "pie");
    assert_eq!(mounted.query_all(".au-chart-rich__slice").len(), 2);
    assert!(
        element(&mounted, ".au-chart-rich__pie-legend")
            .text_content()
            .unwrap_or_default()
            .contains("75%")
    );
}

// ---------------------------------------------------------------------------------------------
// sankey

fn node_box(mounted: &Mounted, id: &str) -> Element {
    element(
        mounted,
        &format!(".au-sankey__node-box[data-node=\"{id}\"]"),
    )
}

#[wasm_bindgen_test]
async fn sankey_draws_columns_of_nodes_and_bands_proportional_to_value() {
    let mounted = mount_widget(WidgetKind::Sankey, example(WidgetKind::Sankey));
    settle().await;
    assert_eq!(mounted.query_all(".au-sankey__node-box").len(), 7);
    let flows = mounted.query_all(".au-sankey__flow");
    assert_eq!(flows.len(), 8);
    assert!(
        flows.iter().all(|f| attr(f, "d").contains('C')),
        "bands are Bezier curves"
    );
    assert_eq!(
        element(&mounted, ".au-sankey__counts")
            .text_content()
            .as_deref(),
        Some("7 nodes · 8 flows")
    );
    let tax = node_box(&mounted, "tax");
    let fees = node_box(&mounted, "fees");
    let schools = node_box(&mounted, "schools");
    let ratio = number_attr(&tax, "height") / number_attr(&fees, "height");
    assert!(
        (ratio - 456.0 / 105.0).abs() < 0.05,
        "node heights follow their totals: {ratio}"
    );
    assert!(
        number_attr(&tax, "x") < number_attr(&schools, "x"),
        "sources left, uses right"
    );
    assert_eq!(
        number_attr(&tax, "x"),
        number_attr(&fees, "x"),
        "all sources in one column"
    );
    let labels = element(&mounted, "svg").text_content().unwrap_or_default();
    assert!(
        labels.contains("Local taxes") && labels.contains("456") && labels.contains("Schools"),
        "{labels}"
    );
}

#[wasm_bindgen_test]
async fn sankey_node_and_flow_clicks_report_what_was_picked() {
    let mounted = mount_widget(WidgetKind::Sankey, example(WidgetKind::Sankey));
    settle().await;
    fire(&node_box(&mounted, "tax"), "click");
    let nodes = events_of(&mounted, WidgetAction::NodeClick);
    assert_eq!(
        nodes,
        vec![json!({"id": "tax", "label": "Local taxes", "in": 0.0, "out": 456.0})]
    );
    let first_flow = element(&mounted, ".au-sankey__flow[data-link=\"0\"]");
    assert_eq!(
        attr(&first_flow, "aria-label"),
        "Local taxes → Schools: 182"
    );
    press(&first_flow, "Enter", false);
    let links = events_of(&mounted, WidgetAction::LinkClick);
    assert_eq!(links.len(), 1);
    assert_eq!(links[0]["source"], "tax");
    assert_eq!(links[0]["target"], "schools");
    assert_eq!(links[0]["value"], 182.0);
}

#[wasm_bindgen_test]
async fn sankey_hover_highlights_the_flows_of_a_node_and_shows_a_tooltip() {
    let mounted = mount_widget(WidgetKind::Sankey, example(WidgetKind::Sankey));
    settle().await;
    pointer(&node_box(&mounted, "fees"), "pointerenter", 0);
    settle().await;
    assert_eq!(
        mounted.query_all(".au-sankey__flow--lit").len(),
        2,
        "fees feeds transport and culture"
    );
    assert_eq!(mounted.query_all(".au-sankey__flow--dim").len(), 6);
    let tip = element(&mounted, "[data-testid=sankey-tooltip]")
        .text_content()
        .unwrap_or_default();
    assert!(
        tip.contains("Service fees") && tip.contains("sends 105"),
        "{tip}"
    );
    pointer(&element(&mounted, "svg"), "pointerleave", 0);
    settle().await;
    assert!(mounted.query(".au-sankey__flow--dim").is_none());
}

#[wasm_bindgen_test]
async fn sankey_drops_a_cycle_and_bad_values_with_notes() {
    let data = json!({"nodes": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
        "links": [{"source": "a", "target": "b", "value": 5}, {"source": "b", "target": "c", "value": 4},
                  {"source": "c", "target": "a", "value": 1}, {"source": "a", "target": "c", "value": 0},
                  {"source": "a", "target": "ghost", "value": 2}]});
    let mounted = mount_widget(WidgetKind::Sankey, data);
    settle().await;
    assert_eq!(mounted.query_all(".au-sankey__flow").len(), 3);
    let notes = texts(&mounted, "[data-testid=sankey-notes] li");
    assert!(
        notes.contains(&"flow c → a would close a cycle and is not drawn".to_owned()),
        "{notes:?}"
    );
    assert!(
        notes.contains(&"flow a → c has value 0; only positive flows are drawn".to_owned()),
        "{notes:?}"
    );
    assert!(
        notes.contains(&"node \"ghost\" is used by a flow but not listed in nodes".to_owned()),
        "{notes:?}"
    );
    assert!(
        mounted
            .query(".au-sankey__node-box[data-node=\"ghost\"]")
            .is_some(),
        "the unlisted node is still drawn"
    );
}

#[wasm_bindgen_test]
async fn sankey_shows_empty_states_when_nothing_flows() {
    for data in [
        json!({}),
        json!({"nodes": [], "links": []}),
        json!({"nodes": [{"id": "a"}], "links": []}),
    ] {
        let mounted = mount_widget(WidgetKind::Sankey, data.clone());
        settle().await;
        assert_eq!(
            element(&mounted, "[data-testid=widget-empty]")
                .text_content()
                .as_deref(),
            Some("No flows to show yet"),
            "{data}"
        );
    }
    let zero = json!({"nodes": [{"id": "a"}, {"id": "b"}], "links": [{"source": "a", "target": "b", "value": 0}]});
    let mounted = mount_widget(WidgetKind::Sankey, zero);
    settle().await;
    assert_eq!(
        element(&mounted, "[data-testid=widget-empty]")
            .text_content()
            .as_deref(),
        Some("No positive flows to draw")
    );
    assert!(mounted.text().contains("has value 0"));
}

#[wasm_bindgen_test]
async fn sankey_renders_hostile_strings_as_text() {
    let data = json!({"title": HOSTILE[0],
        "nodes": [{"id": HOSTILE[1], "label": HOSTILE[2]}, {"id": "b", "label": HOSTILE[3], "color": "url(javascript:x)"}],
        "links": [{"source": HOSTILE[1], "target": "b", "value": 3, "label": HOSTILE[0]}]});
    let mounted = mount_widget(WidgetKind::Sankey, data);
    settle().await;
    assert!(mounted.text().contains(HOSTILE[0]), "the title is text");
    // Long labels are shortened on the diagram; the full text is in the accessible names.
    let names: String = mounted
        .query_all("[aria-label]")
        .iter()
        .map(|e| attr(e, "aria-label"))
        .collect();
    for hostile in [HOSTILE[0], HOSTILE[2], HOSTILE[3]] {
        assert!(names.contains(hostile), "{hostile} in {names}");
    }
    assert_no_injected_markup(&mounted);
    assert_not_pwned();
}

#[wasm_bindgen_test]
async fn sankey_redraws_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::Sankey, example(WidgetKind::Sankey));
    settle().await;
    set_data(
        &mounted,
        json!({"nodes": [{"id": "x"}, {"id": "y"}], "links": [{"source": "x", "target": "y", "value": 1}]}),
    );
    settle().await;
    assert_eq!(mounted.query_all(".au-sankey__node-box").len(), 2);
    assert_eq!(
        element(&mounted, ".au-sankey__counts")
            .text_content()
            .as_deref(),
        Some("2 nodes · 1 flows")
    );
}

// ---------------------------------------------------------------------------------------------
// hemicycle

fn seats_of(mounted: &Mounted, group: &str) -> Vec<Element> {
    mounted.query_all(&format!(
        ".au-hemicycle__group[data-group=\"{group}\"] circle"
    ))
}

#[wasm_bindgen_test]
async fn hemicycle_draws_every_seat_in_wedges_with_total_and_majority() {
    let mounted = mount_widget(WidgetKind::Hemicycle, example(WidgetKind::Hemicycle));
    settle().await;
    assert_eq!(mounted.query_all(".au-hemicycle__group circle").len(), 577);
    assert_eq!(seats_of(&mounted, "10").len(), 123, "RN holds 123 seats");
    assert_eq!(
        element(&mounted, ".au-hemicycle__total")
            .text_content()
            .as_deref(),
        Some("577")
    );
    assert_eq!(
        element(&mounted, ".au-hemicycle__majority-label")
            .text_content()
            .as_deref(),
        Some("majority 289")
    );
    let mean_x = |group: &str| {
        let seats = seats_of(&mounted, group);
        seats.iter().map(|s| number_attr(s, "cx")).sum::<f64>() / seats.len() as f64
    };
    assert!(
        mean_x("0") < mean_x("6") && mean_x("6") < mean_x("10"),
        "groups run left to right in the given order"
    );
    let legend = texts(&mounted, ".au-hemicycle__legend button");
    assert_eq!(legend.len(), 12);
    // The seat count is read as part of the name (visually hidden ": " and " seats" around it).
    assert_eq!(legend[10], "Rassemblement national: 123 seats");
}

#[wasm_bindgen_test]
async fn hemicycle_group_clicks_report_the_group_from_seats_and_legend() {
    let mounted = mount_widget(WidgetKind::Hemicycle, example(WidgetKind::Hemicycle));
    settle().await;
    fire(&seats_of(&mounted, "0")[5], "click");
    mounted.query_all(".au-hemicycle__legend button")[10]
        .unchecked_ref::<HtmlElement>()
        .click();
    let groups = events_of(&mounted, WidgetAction::GroupClick);
    assert_eq!(
        groups,
        vec![
            json!({"id": "LFI", "label": "La France insoumise", "seats": 71}),
            json!({"id": "RN", "label": "Rassemblement national", "seats": 123}),
        ]
    );
}

#[wasm_bindgen_test]
async fn hemicycle_hover_dims_other_groups_and_shows_a_tooltip() {
    let mounted = mount_widget(WidgetKind::Hemicycle, example(WidgetKind::Hemicycle));
    settle().await;
    pointer(&seats_of(&mounted, "3")[0], "pointerover", 0);
    settle().await;
    let tip = element(&mounted, "[data-testid=hemicycle-tooltip]")
        .text_content()
        .unwrap_or_default();
    assert!(
        tip.contains("Socialistes et apparentés") && tip.contains("66 seats"),
        "{tip}"
    );
    assert_eq!(mounted.query_all(".au-hemicycle__group--dim").len(), 11);
    pointer(&element(&mounted, "svg"), "pointerleave", 0);
    settle().await;
    assert!(mounted.query("[data-testid=hemicycle-tooltip]").is_none());
    focus(&mounted.query_all(".au-hemicycle__legend button")[1]);
    settle().await;
    assert!(
        element(&mounted, "[data-testid=hemicycle-tooltip]")
            .text_content()
            .unwrap_or_default()
            .contains("17 seats")
    );
    let active = mounted.query_all(".au-hemicycle__legend-item--active");
    assert_eq!(active.len(), 1, "the focused entry is marked");
    assert_eq!(attr(&active[0], "data-legend"), "1");
    assert_eq!(active_element(), Some(mounted.query_all(".au-hemicycle__legend button")[1].clone()), "focus stays on the entry");
    mounted.query_all(".au-hemicycle__legend button")[1].unchecked_ref::<HtmlElement>().blur().expect("blur");
    settle().await;
    assert!(mounted.query("[data-testid=hemicycle-tooltip]").is_none());
    assert!(mounted.query(".au-hemicycle__legend-item--active, .au-hemicycle__group--dim").is_none(), "leaving the legend undims");
}

#[wasm_bindgen_test]
async fn hemicycle_draws_vacant_seats_up_to_the_total() {
    let data = json!({"totalSeats": 20, "groups": [{"id": "A", "label": "Alpha", "seats": 10}, {"id": "B", "label": "Beta", "seats": "5"}]});
    let mounted = mount_widget(WidgetKind::Hemicycle, data);
    settle().await;
    assert_eq!(seats_of(&mounted, "vacant").len(), 5);
    assert_eq!(
        seats_of(&mounted, "1").len(),
        5,
        "seats given as text are read"
    );
    assert!(mounted.text().contains("Vacant5"));
    assert_eq!(
        element(&mounted, ".au-hemicycle__majority-label")
            .text_content()
            .as_deref(),
        Some("majority 11")
    );
}

#[wasm_bindgen_test]
async fn hemicycle_shows_empty_and_error_states() {
    for data in [
        json!({}),
        json!({"groups": []}),
        json!({"groups": [{"id": "A", "label": "A", "seats": 0}]}),
    ] {
        let mounted = mount_widget(WidgetKind::Hemicycle, data.clone());
        settle().await;
        assert_eq!(
            element(&mounted, "[data-testid=widget-empty]")
                .text_content()
                .as_deref(),
            Some("No seats to show yet"),
            "{data}"
        );
    }
    let mounted = mount_widget(
        WidgetKind::Hemicycle,
        json!({"totalSeats": 1000000000, "groups": []}),
    );
    settle().await;
    let error = element(&mounted, "[data-testid=widget-error]")
        .text_content()
        .unwrap_or_default();
    assert!(error.contains("at most 5,000 seats"), "{error}");
}

#[wasm_bindgen_test]
async fn hemicycle_renders_hostile_strings_as_text() {
    let groups: Vec<Value> = HOSTILE
        .iter()
        .enumerate()
        .map(|(i, h)| json!({"id": h, "label": h, "seats": i + 1, "color": "red;x:url(y)"}))
        .collect();
    let mounted = mount_widget(
        WidgetKind::Hemicycle,
        json!({"title": HOSTILE[0], "groups": groups}),
    );
    settle().await;
    assert_hostile_text_visible(&mounted);
    // The legend is markup: its labels and their tooltips are the very strings given.
    assert_eq!(texts(&mounted, ".au-hemicycle__legend-label"), HOSTILE);
    let titles: Vec<String> = mounted.query_all(".au-hemicycle__legend button").iter().map(|b| attr(b, "title")).collect();
    assert_eq!(titles, HOSTILE);
    for swatch in mounted.query_all(".au-hemicycle__swatch") {
        assert!(!attr(&swatch, "style").contains("url("), "an unsafe colour is replaced by a palette colour");
    }
    assert_no_injected_markup(&mounted);
    assert_not_pwned();
}

#[wasm_bindgen_test]
async fn hemicycle_redraws_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::Hemicycle, example(WidgetKind::Hemicycle));
    settle().await;
    set_data(
        &mounted,
        json!({"groups": [{"id": "A", "label": "Alpha", "seats": 3}, {"id": "B", "label": "Beta", "seats": 4}]}),
    );
    settle().await;
    assert_eq!(mounted.query_all(".au-hemicycle__group circle").len(), 7);
    assert_eq!(
        element(&mounted, ".au-hemicycle__total")
            .text_content()
            .as_deref(),
        Some("7")
    );
}

// ---------------------------------------------------------------------------------------------
// gallery

fn lightbox_open(mounted: &Mounted) -> bool {
    element(mounted, "dialog")
        .unchecked_into::<web_sys::HtmlDialogElement>()
        .open()
}

fn counter(mounted: &Mounted) -> String {
    mounted
        .query("[data-testid=gallery-counter]")
        .and_then(|c| c.text_content())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn gallery_shows_its_example_as_captioned_thumbnails() {
    let mounted = mount_widget(WidgetKind::Gallery, example(WidgetKind::Gallery));
    settle().await;
    assert!(mounted.text().contains("Sunsets of the week"));
    let images = mounted.query_all(".au-gallery__thumb img");
    assert_eq!(images.len(), 6);
    assert!(
        images
            .iter()
            .all(|img| attr(img, "src").starts_with("data:image/svg+xml"))
    );
    assert_eq!(attr(&images[0], "alt"), "Orange sky over red cliffs");
    assert_eq!(
        texts(&mounted, ".au-gallery__caption")[0],
        "Monday · Cap Canaille"
    );
    assert_eq!(
        attr(&element(&mounted, ".au-gallery__thumb"), "aria-label"),
        "Open image 1 of 6: Orange sky over red cliffs"
    );
    assert!(!lightbox_open(&mounted));
}

#[wasm_bindgen_test]
async fn gallery_lightbox_opens_on_click_and_navigates_with_arrows_and_escape() {
    let mounted = mount_widget(WidgetKind::Gallery, example(WidgetKind::Gallery));
    settle().await;
    mounted.query_all(".au-gallery__thumb")[1]
        .unchecked_ref::<HtmlElement>()
        .click();
    settle().await;
    assert!(lightbox_open(&mounted));
    assert_eq!(counter(&mounted), "2 / 6");
    let clicks = events_of(&mounted, WidgetAction::ImageClick);
    assert_eq!(clicks.len(), 1);
    assert_eq!(clicks[0]["index"], 1);
    assert_eq!(clicks[0]["caption"], "Tuesday · Vercors");
    let dialog = element(&mounted, "dialog");
    press(&dialog, "ArrowRight", false);
    settle().await;
    assert_eq!(counter(&mounted), "3 / 6");
    assert!(
        element(&mounted, "dialog")
            .text_content()
            .unwrap_or_default()
            .contains("Wednesday · Luberon")
    );
    for _ in 0..3 {
        press(&dialog, "ArrowLeft", false);
    }
    settle().await;
    assert_eq!(
        counter(&mounted),
        "6 / 6",
        "moving left from the first wraps to the last"
    );
    press(&dialog, "Escape", false);
    settle().await;
    assert!(!lightbox_open(&mounted), "Escape closes the lightbox");
}

#[wasm_bindgen_test]
async fn gallery_lightbox_keeps_focus_inside() {
    let mounted = mount_widget(WidgetKind::Gallery, example(WidgetKind::Gallery));
    settle().await;
    mounted.query_all(".au-gallery__thumb")[0]
        .unchecked_ref::<HtmlElement>()
        .click();
    settle().await;
    let controls = mounted.query_all("dialog button");
    let (close, next) = (controls[0].clone(), controls[controls.len() - 1].clone());
    assert_eq!(attr(&close, "aria-label"), "Close");
    assert_eq!(attr(&next, "aria-label"), "Next image");
    focus(&next);
    press(&next, "Tab", false);
    assert_eq!(
        active_element().as_ref(),
        Some(&close),
        "Tab from the last control returns to the first"
    );
    press(&close, "Tab", true);
    assert_eq!(
        active_element().as_ref(),
        Some(&next),
        "Shift+Tab from the first goes to the last"
    );
    close.unchecked_ref::<HtmlElement>().click();
    settle().await;
    assert!(!lightbox_open(&mounted));
}

#[wasm_bindgen_test]
async fn gallery_shows_placeholders_for_unsafe_missing_or_broken_images() {
    let data = json!({"images": [
        {"src": "javascript:alert(1)", "alt": "Script"},
        {"src": "portrait.jpg", "alt": "Relative"},
        {"src": "data:image/png;base64,AAAA", "alt": "Broken"},
        {"src": "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='4' height='4'/%3E", "alt": "Fine"}]});
    let mounted = mount_widget(WidgetKind::Gallery, data);
    // Thumbnails load lazily: bring them into view so the broken one fails to decode.
    mounted.container.scroll_into_view();
    settle().await;
    assert!(
        mounted
            .query_all("img")
            .iter()
            .all(|img| !attr(img, "src").starts_with("javascript"))
    );
    let decoded = frames_until(120, || {
        mounted.query_all(".au-gallery__placeholder").len() == 3
    })
    .await;
    let placeholders = texts(&mounted, ".au-gallery__placeholder");
    assert!(decoded, "three placeholders, got {placeholders:?}");
    assert_eq!(placeholders, vec!["Script", "Relative", "Broken"]);
    assert_eq!(mounted.query_all("img").len(), 1);
}

#[wasm_bindgen_test]
async fn gallery_shows_its_empty_message() {
    let mounted = mount_widget(WidgetKind::Gallery, json!({}));
    settle().await;
    assert_eq!(
        element(&mounted, "[data-testid=widget-empty]")
            .text_content()
            .as_deref(),
        Some("No images to show yet")
    );
    let mounted = mount_widget(
        WidgetKind::Gallery,
        json!({"images": [], "emptyMessage": "Nothing found on Mars"}),
    );
    settle().await;
    assert_eq!(
        element(&mounted, "[data-testid=widget-empty]")
            .text_content()
            .as_deref(),
        Some("Nothing found on Mars")
    );
}

#[wasm_bindgen_test]
async fn gallery_renders_hostile_strings_as_text_and_refuses_script_links() {
    let images: Vec<Value> = HOSTILE
        .iter()
        .map(|h| json!({"src": "data:image/gif;base64,R0lGODlhAQABAAAAACw=", "alt": h, "caption": h, "href": HOSTILE[3]}))
        .collect();
    let mounted = mount_widget(
        WidgetKind::Gallery,
        json!({"title": HOSTILE[0], "images": images}),
    );
    settle().await;
    mounted.query_all(".au-gallery__thumb")[0]
        .unchecked_ref::<HtmlElement>()
        .click();
    settle().await;
    assert!(
        mounted.query("dialog a").is_none(),
        "a javascript: source link is not rendered"
    );
    assert_hostile_text_visible(&mounted);
    // A modal left open would make the rest of the test page inert.
    press(&element(&mounted, "dialog"), "Escape", false);
    settle().await;
    assert!(!lightbox_open(&mounted));
}

#[wasm_bindgen_test]
async fn gallery_redraws_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::Gallery, example(WidgetKind::Gallery));
    settle().await;
    set_data(
        &mounted,
        json!({"images": [{"src": "https://example.org/a.jpg", "alt": "One", "caption": "Only one"}]}),
    );
    settle().await;
    assert_eq!(mounted.query_all(".au-gallery__thumb").len(), 1);
    assert!(
        mounted.query(".au-gallery--single").is_some(),
        "a single image is shown large"
    );
    assert!(mounted.text().contains("Only one"));
}

// ---------------------------------------------------------------------------------------------
// carousel

fn still_carousel() -> Value {
    let mut data = example(WidgetKind::Carousel);
    data["autoPlay"] = json!(false);
    data
}

fn position(mounted: &Mounted) -> String {
    element(mounted, "[data-testid=carousel-position]")
        .text_content()
        .unwrap_or_default()
}

fn click_label(mounted: &Mounted, label: &str) {
    element(mounted, &format!("button[aria-label=\"{label}\"]"))
        .unchecked_ref::<HtmlElement>()
        .click();
}

#[wasm_bindgen_test]
async fn carousel_shows_its_first_slide_with_the_others_hidden() {
    let mounted = mount_widget(WidgetKind::Carousel, example(WidgetKind::Carousel));
    settle().await;
    let slides = mounted.query_all("[data-testid=carousel-slide]");
    assert_eq!(slides.len(), 3);
    assert_eq!(
        slides
            .iter()
            .map(|s| attr(s, "aria-hidden"))
            .collect::<Vec<_>>(),
        vec!["false", "true", "true"]
    );
    assert_eq!(position(&mounted), "1 / 3");
    let text = mounted.text();
    assert!(
        text.contains("1.2 million visitors")
            && text.contains("+18% on 2023")
            && text.contains("regional parks")
    );
    assert_eq!(mounted.query_all(".au-carousel__img").len(), 3);
    assert_eq!(mounted.query_all(".au-carousel__dot").len(), 3);
}

#[wasm_bindgen_test]
async fn carousel_previous_and_next_wrap_and_report_the_slide() {
    let mounted = mount_widget(WidgetKind::Carousel, still_carousel());
    settle().await;
    click_label(&mounted, "Previous slide");
    settle().await;
    assert_eq!(
        position(&mounted),
        "3 / 3",
        "previous from the first wraps to the last"
    );
    click_label(&mounted, "Next slide");
    settle().await;
    assert_eq!(
        position(&mounted),
        "1 / 3",
        "next from the last wraps to the first"
    );
    click_label(&mounted, "Go to slide 2");
    settle().await;
    assert_eq!(position(&mounted), "2 / 3");
    let dots = mounted.query_all(".au-carousel__dot");
    assert_eq!(attr(&dots[1], "aria-current"), "true");
    assert!(dots[0].get_attribute("aria-current").is_none() && dots[2].get_attribute("aria-current").is_none(), "one dot is current");
    let hidden: Vec<String> = mounted.query_all("[data-testid=carousel-slide]").iter().map(|s| attr(s, "aria-hidden")).collect();
    assert_eq!(hidden, ["true", "false", "true"], "only the shown slide is exposed");
    let changes = events_of(&mounted, WidgetAction::SlideChange);
    assert_eq!(
        changes
            .iter()
            .map(|c| c["index"].clone())
            .collect::<Vec<_>>(),
        vec![json!(2), json!(0), json!(1)]
    );
    assert_eq!(changes[2]["title"], "42 km of new trails");
}

#[wasm_bindgen_test]
async fn carousel_moves_with_the_arrow_keys() {
    let mounted = mount_widget(WidgetKind::Carousel, still_carousel());
    settle().await;
    let region = element(&mounted, "section");
    press(&region, "ArrowRight", false);
    settle().await;
    assert_eq!(position(&mounted), "2 / 3");
    press(&region, "ArrowLeft", false);
    press(&region, "ArrowLeft", false);
    settle().await;
    assert_eq!(position(&mounted), "3 / 3");
    assert_eq!(events_of(&mounted, WidgetAction::SlideChange).len(), 3);
}

#[wasm_bindgen_test]
async fn carousel_auto_play_pauses_on_hover_focus_and_the_pause_button() {
    let mounted = mount_widget(WidgetKind::Carousel, example(WidgetKind::Carousel));
    settle().await;
    let region = element(&mounted, "section");
    assert_eq!(attr(&region, "data-playing"), "true");
    assert_eq!(
        attr(&element(&mounted, ".au-carousel__viewport"), "aria-live"),
        "off",
        "no announcements while it moves"
    );
    pointer(&region, "pointerenter", 0);
    settle().await;
    assert_eq!(attr(&region, "data-playing"), "false", "hovering pauses");
    pointer(&region, "pointerleave", 0);
    settle().await;
    assert_eq!(attr(&region, "data-playing"), "true");
    fire(&element(&mounted, ".au-carousel__dot"), "focusin");
    settle().await;
    assert_eq!(
        attr(&region, "data-playing"),
        "false",
        "focus inside pauses"
    );
    fire(&element(&mounted, ".au-carousel__dot"), "focusout");
    let play = element(&mounted, "[data-testid=carousel-play]");
    assert_eq!(attr(&play, "aria-label"), "Pause auto-play");
    play.unchecked_ref::<HtmlElement>().click();
    settle().await;
    assert_eq!(attr(&play, "aria-label"), "Start auto-play");
    assert_eq!(attr(&region, "data-playing"), "false");
    assert_eq!(
        attr(&element(&mounted, ".au-carousel__viewport"), "aria-live"),
        "polite"
    );

    let still = mount_widget(WidgetKind::Carousel, still_carousel());
    settle().await;
    assert!(
        still.query("[data-testid=carousel-play]").is_none(),
        "no auto-play, no play button"
    );
    assert_eq!(attr(&element(&still, "section"), "data-playing"), "false");
}

#[wasm_bindgen_test]
async fn carousel_shows_text_slides_and_placeholders_for_unsafe_images() {
    let data = json!({"autoPlay": false, "slides": [{"title": "Only text"}, {"src": "javascript:alert(1)", "alt": "Nope", "title": "Bad image"}]});
    let mounted = mount_widget(WidgetKind::Carousel, data);
    settle().await;
    assert!(mounted.query("img").is_none());
    assert_eq!(mounted.query_all(".au-carousel__placeholder").len(), 1);
    assert!(mounted.text().contains("Only text"));
}

#[wasm_bindgen_test]
async fn a_carousel_photo_that_fails_to_load_gives_way_to_a_placeholder_named_by_its_alt_text() {
    let mounted = mount_widget(WidgetKind::Carousel, still_carousel());
    settle().await;
    let photos = mounted.query_all(".au-carousel__img");
    fire(&photos[1], "error");
    settle().await;
    assert_eq!(mounted.query_all(".au-carousel__img").len(), 2, "the other photos stay");
    let placeholders = mounted.query_all(".au-carousel__placeholder");
    assert_eq!(placeholders.len(), 1);
    assert_eq!(attr(&placeholders[0], "aria-label"), "Image unavailable: Coast at dusk");
    let slide = placeholders[0].closest("[data-testid=carousel-slide]").ok().flatten().expect("in its slide");
    assert_eq!(attr(&slide, "aria-label"), "2 of 3");
    assert!(slide.text_content().unwrap_or_default().contains("42 km of new trails"), "the slide's text stays");
}

#[wasm_bindgen_test]
async fn carousel_shows_an_empty_state_without_slides() {
    for data in [json!({}), json!({"slides": []}), json!({"slides": [{}]})] {
        let mounted = mount_widget(WidgetKind::Carousel, data.clone());
        settle().await;
        assert_eq!(
            element(&mounted, "[data-testid=widget-empty]")
                .text_content()
                .as_deref(),
            Some("No slides to show yet"),
            "{data}"
        );
    }
}

#[wasm_bindgen_test]
async fn carousel_renders_hostile_strings_as_text() {
    let slides: Vec<Value> = HOSTILE
        .iter()
        .map(|h| json!({"title": h, "subtitle": h, "content": h, "alt": h, "src": h}))
        .collect();
    let mounted = mount_widget(
        WidgetKind::Carousel,
        json!({"title": HOSTILE[1], "autoPlay": false, "slides": slides}),
    );
    settle().await;
    assert_hostile_text_visible(&mounted);
    // The slides are markup: their titles and the placeholders' names are the very strings given.
    assert_eq!(texts(&mounted, ".au-carousel__title"), HOSTILE);
    let names: Vec<String> = mounted.query_all(".au-carousel__placeholder").iter().map(|p| attr(p, "aria-label")).collect();
    let expected: Vec<String> = HOSTILE.iter().map(|h| format!("Image unavailable: {h}")).collect();
    assert_eq!(names, expected, "hostile sources are not loaded, and their alt text stays text");
    assert!(mounted.query("img").is_none());
    assert_no_injected_markup(&mounted);
    assert_not_pwned();
}

#[wasm_bindgen_test]
async fn carousel_redraws_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::Carousel, still_carousel());
    settle().await;
    set_data(
        &mounted,
        json!({"autoPlay": false, "slides": [{"title": "A"}, {"title": "B"}]}),
    );
    settle().await;
    assert_eq!(position(&mounted), "1 / 2");
    assert_eq!(mounted.query_all("[data-testid=carousel-slide]").len(), 2);
}

// ---------------------------------------------------------------------------------------------
// js-sandbox

fn frame(mounted: &Mounted) -> web_sys::HtmlIFrameElement {
    element(mounted, "iframe").unchecked_into()
}

/// How long a test waits for a frame's message before failing with what the page did get.
const MESSAGE_WAIT_MS: i32 = 20_000;

/// Listens for the next message posted to this page whose `type` is `kind`; start it before the
/// frame exists so an early message is not missed.
struct MessageWaiter {
    kind: &'static str,
    future: JsFuture,
    listener: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl MessageWaiter {
    fn listen(kind: &'static str) -> MessageWaiter {
        let window = web_sys::window().expect("window");
        let mut listener = None;
        let promise = js_sys::Promise::new(&mut |resolve, reject| {
            // Every message seen meanwhile, so a wait that runs out says what came instead.
            let seen = std::rc::Rc::new(std::cell::RefCell::new(Vec::<String>::new()));
            let heard = seen.clone();
            let closure = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
                move |event: web_sys::MessageEvent| {
                    let data = event.data();
                    if message_type(&event).as_deref() == Some(kind) {
                        let _ = resolve.call1(&wasm_bindgen::JsValue::NULL, &data);
                    } else if let Ok(text) = js_sys::JSON::stringify(&data) {
                        heard.borrow_mut().push(String::from(text).chars().take(100).collect());
                    }
                },
            );
            let _ = window
                .add_event_listener_with_callback("message", closure.as_ref().unchecked_ref());
            listener = Some(closure);
            let give_up = Closure::once_into_js(move || {
                let _ = reject.call1(&wasm_bindgen::JsValue::NULL, &format!("{:?}", seen.borrow()).into());
            });
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(give_up.unchecked_ref(), MESSAGE_WAIT_MS);
        });
        MessageWaiter {
            kind,
            future: JsFuture::from(promise),
            listener: listener.expect("listener registered"),
        }
    }

    async fn message(self) -> Value {
        let data = self.future.await.unwrap_or_else(|seen| {
            panic!("no `{}` message within {MESSAGE_WAIT_MS} ms; the page got: {}", self.kind, seen.as_string().unwrap_or_default())
        });
        if let Some(window) = web_sys::window() {
            let _ = window.remove_event_listener_with_callback(
                "message",
                self.listener.as_ref().unchecked_ref(),
            );
        }
        let text = js_sys::JSON::stringify(&data)
            .map(String::from)
            .unwrap_or_default();
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }
}

/// The `type` field of a message the page got, as the sandbox's scripts send it.
fn message_type(event: &web_sys::MessageEvent) -> Option<String> {
    js_sys::Reflect::get(&event.data(), &"type".into()).ok().and_then(|t| t.as_string())
}

/// Counts the page's messages of one `type` while it lives.
struct MessageCount {
    count: std::rc::Rc<std::cell::Cell<usize>>,
    listener: Closure<dyn FnMut(web_sys::MessageEvent)>,
}

impl MessageCount {
    fn listen(kind: &'static str) -> MessageCount {
        let count = std::rc::Rc::new(std::cell::Cell::new(0));
        let counted = count.clone();
        let listener = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            if message_type(&event).as_deref() == Some(kind) {
                counted.set(counted.get() + 1);
            }
        });
        let _ = web_sys::window()
            .expect("window")
            .add_event_listener_with_callback("message", listener.as_ref().unchecked_ref());
        MessageCount { count, listener }
    }

    fn count(&self) -> usize {
        self.count.get()
    }
}

impl Drop for MessageCount {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window.remove_event_listener_with_callback("message", self.listener.as_ref().unchecked_ref());
        }
    }
}

#[wasm_bindgen_test]
async fn js_sandbox_runs_its_example_in_an_isolated_frame_of_the_given_height() {
    let mounted = mount_widget(WidgetKind::JsSandbox, example(WidgetKind::JsSandbox));
    settle().await;
    let iframe = frame(&mounted);
    assert_eq!(
        attr(&iframe, "sandbox"),
        "allow-scripts",
        "scripts only: never same-origin"
    );
    assert!(
        !iframe.has_attribute("srcdoc"),
        "the document goes to the proxy page, never into a frame that would inherit the app's policy"
    );
    assert_eq!(
        iframe.style().get_property_value("height").ok().as_deref(),
        Some("260px")
    );
    assert_eq!(attr(&iframe, "title"), "Orbit demo");
    assert!(
        mounted
            .text()
            .contains("Sandboxed: no network, no access to this page")
    );
}

#[wasm_bindgen_test]
async fn js_sandbox_code_cannot_reach_the_page_its_storage_or_the_network() {
    let storage = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .expect("local storage");
    storage
        .set_item("autoui.settings.v1", "{\"sentinel\":true}")
        .expect("seed storage");
    let page = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let code = format!(
        r#"const report = {{ violations: [] }};
document.addEventListener('securitypolicyviolation', e => report.violations.push(e.effectiveDirective));
const attempt = (name, f) => {{ try {{ report[name] = 'reached: ' + String(f()); }} catch (e) {{ report[name] = 'blocked: ' + e.name; }} }};
attempt('parentDocument', () => parent.document.title);
attempt('appDocument', () => top.document.title);
attempt('parentStorage', () => parent.localStorage.getItem('autoui.settings.v1'));
attempt('appStorage', () => top.localStorage.getItem('autoui.settings.v1'));
attempt('storage', () => {{ localStorage.setItem('autoui.settings.v1', 'pwned'); return 'written'; }});
attempt('cookie', () => document.cookie);
const violation = new Promise(done => {{
  document.addEventListener('securitypolicyviolation', done);
  setTimeout(done, 3000);
}});
fetch({page:?}).then(() => {{ report.fetch = 'reached'; }}, e => {{ report.fetch = 'blocked: ' + e.name; }})
  .then(() => violation)
  .then(() => parent.postMessage({{ type: 'probe', report }}, '*'));"#
    );
    let waiter = MessageWaiter::listen("probe");
    let mounted = mount_widget(WidgetKind::JsSandbox, json!({"code": code}));
    settle().await;
    assert_eq!(attr(&frame(&mounted), "sandbox"), "allow-scripts");
    let report = waiter.message().await;
    assert_eq!(report["type"], "probe", "{report}");
    let report = &report["report"];
    for probe in [
        "parentDocument",
        "appDocument",
        "parentStorage",
        "appStorage",
        "storage",
        "cookie",
        "fetch",
    ] {
        let outcome = report[probe].as_str().unwrap_or_default();
        assert!(
            outcome.starts_with("blocked"),
            "{probe} must be blocked, got {outcome:?} in {report}"
        );
    }
    assert!(
        report["violations"]
            .as_array()
            .is_some_and(|v| v.contains(&json!("connect-src"))),
        "the inner policy stopped fetch: {report}"
    );
    assert_eq!(
        storage
            .get_item("autoui.settings.v1")
            .ok()
            .flatten()
            .as_deref(),
        Some("{\"sentinel\":true}"),
        "the app's storage is untouched"
    );
    assert_not_pwned();
}

#[wasm_bindgen_test]
async fn js_sandbox_shows_a_thrown_error_as_text() {
    let mounted = mount_widget(
        WidgetKind::JsSandbox,
        json!({"code": "throw new Error('boom <b>bold</b>')"}),
    );
    settle().await;
    let shown = frames_until(180, || {
        mounted.query("[data-testid=sandbox-error]").is_some()
    })
    .await;
    assert!(shown, "the frame's error reaches the widget");
    let error = element(&mounted, "[data-testid=sandbox-error]")
        .text_content()
        .unwrap_or_default();
    assert_eq!(error, "The script stopped: Error: boom <b>bold</b>");
    assert!(mounted.query(".au-js-sandbox__status b").is_none());
}

#[wasm_bindgen_test]
async fn js_sandbox_shows_an_empty_state_without_code() {
    for data in [
        json!({}),
        json!({"code": "   "}),
        json!({"code": "", "html": ""}),
    ] {
        let mounted = mount_widget(WidgetKind::JsSandbox, data.clone());
        settle().await;
        assert_eq!(
            element(&mounted, "[data-testid=widget-empty]")
                .text_content()
                .as_deref(),
            Some("No code to run yet"),
            "{data}"
        );
    }
}

#[wasm_bindgen_test]
async fn js_sandbox_keeps_hostile_strings_out_of_the_page() {
    let mounted = mount_widget(
        WidgetKind::JsSandbox,
        json!({"title": HOSTILE[1], "html": HOSTILE[0], "code": HOSTILE[1]}),
    );
    settle().await;
    assert!(mounted.text().contains(HOSTILE[1]), "the title is text");
    assert_eq!(mounted.query_all("iframe").len(), 1);
    assert_no_injected_markup(&mounted);
    assert_not_pwned();
}

#[wasm_bindgen_test]
async fn js_sandbox_reloads_when_its_code_changes() {
    let mounted = mount_widget(WidgetKind::JsSandbox, example(WidgetKind::JsSandbox));
    settle().await;
    let waiter = MessageWaiter::listen("second");
    set_data(
        &mounted,
        json!({"code": "parent.postMessage({ type: 'second' }, '*')", "height": "120px"}),
    );
    settle().await;
    assert_eq!(waiter.message().await["type"], "second", "the new code ran");
    let iframe = frame(&mounted);
    assert_eq!(
        iframe.style().get_property_value("height").ok().as_deref(),
        Some("120px")
    );
}

#[wasm_bindgen_test]
async fn js_sandbox_changed_twice_before_its_frame_is_ready_runs_the_latest_code() {
    let mounted = mount_widget(WidgetKind::JsSandbox, example(WidgetKind::JsSandbox));
    let waiter = MessageWaiter::listen("third");
    set_data(&mounted, json!({"code": "parent.postMessage({ type: 'second' }, '*')"}));
    set_data(&mounted, json!({"code": "parent.postMessage({ type: 'third' }, '*')"}));
    assert_eq!(waiter.message().await["type"], "third", "the latest code ran");
}

#[wasm_bindgen_test]
async fn js_sandbox_new_code_starts_clean_nothing_from_the_old_code_reaches_the_page() {
    let ticks = MessageCount::listen("tick");
    let ticking = MessageWaiter::listen("tick");
    let mounted = mount_widget(
        WidgetKind::JsSandbox,
        json!({"code": "setInterval(() => parent.postMessage({ type: 'tick' }, '*'), 20); throw new Error('first')"}),
    );
    ticking.message().await;
    let shown = frames_until(180, || mounted.query("[data-testid=sandbox-error]").is_some()).await;
    assert!(shown, "the first code reported its error");
    let waiter = MessageWaiter::listen("second");
    set_data(&mounted, json!({"code": "parent.postMessage({ type: 'second' }, '*')"}));
    waiter.message().await;
    settle().await;
    assert!(mounted.query("[data-testid=sandbox-error]").is_none(), "the old code's error went with it");
    // Ticks already on their way may still land; none after that.
    sleep(100).await;
    let stopped_at = ticks.count();
    sleep(300).await;
    assert_eq!(ticks.count(), stopped_at, "the old code's timer no longer reaches the page");
}

#[wasm_bindgen_test]
async fn js_sandbox_code_posing_as_its_proxy_does_not_restart_itself() {
    let starts = MessageCount::listen("started");
    let posed = MessageWaiter::listen("posed");
    let _mounted = mount_widget(
        WidgetKind::JsSandbox,
        json!({"code": "parent.postMessage({ type: 'started' }, '*');\n\
            for (let i = 0; i < 5; i++) parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, '*');\n\
            parent.postMessage({ type: 'posed' }, '*');"}),
    );
    posed.message().await;
    sleep(300).await;
    assert_eq!(starts.count(), 1, "the code ran once: a ready message from it is not the proxy's");
}

// ---------------------------------------------------------------------------------------------
// all six

#[wasm_bindgen_test]
async fn visual_widgets_survive_odd_json_with_an_empty_or_error_state() {
    let odd = [
        json!(null),
        json!(42),
        json!("text"),
        json!([1, 2]),
        json!({"title": 5}),
        json!({"data": {"a": 1}, "datasets": "x", "labels": [null, {"a": 1}], "type": 3}),
        json!({"data": [null, "x", {"values": "nope"}, {"values": [1e308, -1e308, "Infinity"]}]}),
        json!({"groups": "x", "totalSeats": -4}),
        json!({"groups": [{"seats": -3}, {"id": null, "seats": 1.6}], "rows": 99}),
        json!({"images": [null, 5, {"src": 7}]}),
        json!({"slides": [null, 3], "interval": -1}),
        json!({"nodes": [{"id": null}], "links": [{"source": "a"}]}),
        json!({"nodes": [{"id": 1}, {"id": 2}], "links": [{"source": 1, "target": 2, "value": "3"}, {"source": 2, "target": 2, "value": 1}]}),
        json!({"code": 5, "height": {"px": 3}}),
    ];
    let kinds = [
        WidgetKind::ChartRich,
        WidgetKind::Sankey,
        WidgetKind::Hemicycle,
        WidgetKind::Gallery,
        WidgetKind::Carousel,
        WidgetKind::JsSandbox,
    ];
    for kind in kinds {
        for data in &odd {
            let mounted = mount_widget(kind, data.clone());
            settle().await;
            assert!(
                mounted.container.child_element_count() > 0,
                "{kind} renders something for {data}"
            );
            assert_not_pwned();
        }
    }
}
