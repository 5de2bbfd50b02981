//! Browser tier for the data widgets: data-table, grid-data, timeline, profile, trombinoscope, cards
//! and chat-input, each with its recipe example, empty data, hostile strings, interactions and updates.
#![cfg(target_arch = "wasm32")]

mod support;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use autoui_core::canvas::event::WidgetAction;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;
use serde_json::{Value, json};
use support::{
    HOSTILE, Mounted, assert_no_injected_markup, assert_not_pwned, example, mount_widget,
    next_frame, settle,
};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Element, HtmlElement, HtmlInputElement, KeyboardEvent, KeyboardEventInit};

wasm_bindgen_test_configure!(run_in_browser);

// ---------------------------------------------------------------------------------------------
// Helpers

/// The widget stylesheets, so layout-dependent behaviour (the table's scroller) runs as in the app.
fn load_styles() {
    let document = document();
    if document.get_element_by_id("data-widget-styles").is_some() {
        return;
    }
    let style = document.create_element("style").expect("style element");
    style.set_id("data-widget-styles");
    style.set_text_content(Some(concat!(
        include_str!("../style/base.css"),
        include_str!("../style/widgets/_common.css"),
        include_str!("../style/widgets/data-table.css"),
    )));
    document
        .head()
        .expect("head")
        .append_child(&style)
        .expect("append style");
}

fn texts(mounted: &Mounted, selector: &str) -> Vec<String> {
    mounted
        .query_all(selector)
        .iter()
        .map(|element| element.text_content().unwrap_or_default().trim().to_owned())
        .collect()
}

fn first_cells(mounted: &Mounted) -> Vec<String> {
    texts(mounted, ".au-data-table__row td:first-child")
}

fn element(mounted: &Mounted, selector: &str) -> Element {
    mounted
        .query(selector)
        .unwrap_or_else(|| panic!("no element matches {selector}"))
}

/// Types `value` into the input matching `selector` as a user would (value, then an input event).
fn type_into(mounted: &Mounted, selector: &str, value: &str) {
    let input = element(mounted, selector).unchecked_into::<HtmlInputElement>();
    input.set_value(value);
    dispatch(&input, "input");
}

fn dispatch(target: &Element, name: &str) {
    let constructor = js_sys::Reflect::get(&window(), &"Event".into()).expect("Event constructor");
    let options = js_sys::Object::new();
    js_sys::Reflect::set(&options, &"bubbles".into(), &JsValue::TRUE).expect("bubbles");
    let arguments = js_sys::Array::of2(&name.into(), &options);
    let constructor: &js_sys::Function = constructor.unchecked_ref();
    let event = js_sys::Reflect::construct(constructor, &arguments).expect("event");
    target
        .dispatch_event(event.unchecked_ref())
        .expect("dispatch");
}

fn press(target: &Element, key: &str, shift: bool) -> KeyboardEvent {
    let init = KeyboardEventInit::new();
    init.set_key(key);
    init.set_shift_key(shift);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event =
        KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("keyboard event");
    target.dispatch_event(&event).expect("dispatch");
    event
}

fn set_data(mounted: &Mounted, data: Value) {
    mounted.data.set(Arc::new(data));
}

/// Asserts hostile strings are shown as their literal text and never ran or became markup.
fn assert_hostile_text_is_inert(mounted: &Mounted, shown: &[&str]) {
    assert_no_injected_markup(mounted);
    assert_not_pwned();
    let text = mounted.text();
    for hostile in shown {
        assert!(
            text.contains(hostile),
            "{hostile:?} is shown as literal text in: {text}"
        );
    }
}

fn now() -> f64 {
    window()
        .performance()
        .map(|performance| performance.now())
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// data-table

fn city_rows(count: usize) -> Value {
    let regions = ["Occitanie", "Bretagne", "Grand Est", "Normandie"];
    Value::Array(
        (0..count)
            .map(|i| {
                json!({
                    "name": format!("Commune {:05}", (i * 7919) % count),
                    "region": regions[i % regions.len()],
                    "population": (i * 7919) % count * 10,
                })
            })
            .collect(),
    )
}

#[wasm_bindgen_test]
async fn the_data_table_shows_its_example_with_typed_cells_and_a_count() {
    load_styles();
    let mounted = mount_widget(WidgetKind::DataTable, example(WidgetKind::DataTable));
    settle().await;
    let text = mounted.text();
    assert!(text.contains("Largest French cities"), "title: {text}");
    assert_eq!(
        texts(&mounted, ".au-data-table__label"),
        [
            "City",
            "Region",
            "Population",
            "Area (km²)",
            "Prefecture",
            "Website"
        ]
    );
    assert_eq!(
        first_cells(&mounted),
        [
            "Paris",
            "Marseille",
            "Lyon",
            "Toulouse",
            "Nice",
            "Nantes",
            "Montpellier",
            "Strasbourg"
        ]
    );
    assert!(
        text.contains("2,102,650"),
        "populations are grouped: {text}"
    );
    assert!(text.contains("105.4"), "areas keep their decimal: {text}");
    let link = element(&mounted, "a.au-data-table__link");
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("https://www.paris.fr")
    );
    assert_eq!(link.text_content().as_deref(), Some("paris.fr"));
    assert_eq!(
        mounted.query_all(".au-data-table__flag--yes").len(),
        8,
        "prefectures show a check"
    );
    assert!(
        element(&mounted, ".au-data-table__row td:nth-child(3)")
            .class_name()
            .contains("--right"),
        "numbers are right-aligned"
    );
    assert_eq!(texts(&mounted, ".au-data-table__count"), ["8 rows"]);
}

#[wasm_bindgen_test]
async fn the_data_table_infers_columns_when_none_are_declared() {
    let mounted = mount_widget(
        WidgetKind::DataTable,
        json!({"rows": [{"name": "Ada", "born": "1815-12-10"}, {"name": "Alan", "born": "1912-06-23", "site": "https://turing.org.uk"}]}),
    );
    settle().await;
    assert_eq!(
        texts(&mounted, ".au-data-table__label"),
        ["Born", "Name", "Site"]
    );
    assert!(
        mounted.text().contains("10 Dec 1815"),
        "dates are read as dates: {}",
        mounted.text()
    );
    assert!(
        mounted.query("a[href='https://turing.org.uk']").is_some(),
        "a column of URLs becomes links"
    );
}

#[wasm_bindgen_test]
async fn the_data_table_says_when_there_is_nothing_to_show() {
    let empty = mount_widget(WidgetKind::DataTable, json!({}));
    settle().await;
    assert_eq!(
        texts(&empty, "[data-testid=widget-empty]"),
        ["No rows to show"]
    );

    let none = mount_widget(
        WidgetKind::DataTable,
        json!({"title": "Open bills", "rows": [], "emptyMessage": "No bill matches these filters"}),
    );
    settle().await;
    assert_eq!(
        texts(&none, "[data-testid=widget-empty]"),
        ["No bill matches these filters"]
    );
    assert!(
        none.text().contains("Open bills"),
        "the title stays above the empty state"
    );
}

#[wasm_bindgen_test]
async fn the_data_table_explains_rows_it_cannot_show() {
    let text_rows = mount_widget(WidgetKind::DataTable, json!({"rows": "Paris, Lyon"}));
    let list_rows = mount_widget(WidgetKind::DataTable, json!({"rows": [{"a": 1}, [1, 2]]}));
    settle().await;
    let error = texts(&text_rows, "[data-testid=widget-error]").join(" ");
    assert!(
        error.contains("`rows` must be a list of objects, not text"),
        "{error}"
    );
    let error = texts(&list_rows, "[data-testid=widget-error]").join(" ");
    assert!(
        error.contains("row 2 is a list") && error.contains("grid-data"),
        "{error}"
    );
}

#[wasm_bindgen_test]
async fn the_data_table_renders_hostile_strings_as_text() {
    let rows: Vec<Value> = HOSTILE
        .iter()
        .map(|hostile| json!({"a": hostile, "b": [hostile], "site": hostile}))
        .collect();
    let data = json!({
        "title": HOSTILE[0],
        "columns": [{"key": "a", "label": HOSTILE[1]}, {"key": "b", "label": HOSTILE[2]}, {"key": "site", "type": "link"}],
        "rows": rows,
    });
    let mounted = mount_widget(WidgetKind::DataTable, data);
    settle().await;
    assert_hostile_text_is_inert(&mounted, HOSTILE);
    assert!(
        mounted.query("a.au-data-table__link").is_none(),
        "no hostile value became a link"
    );
}

#[wasm_bindgen_test]
async fn clicking_a_header_sorts_numerically_and_flips_the_direction() {
    let mounted = mount_widget(WidgetKind::DataTable, example(WidgetKind::DataTable));
    settle().await;
    mounted.click("th:nth-child(3) button");
    settle().await;
    assert_eq!(
        element(&mounted, "th:nth-child(3)")
            .get_attribute("aria-sort")
            .as_deref(),
        Some("ascending")
    );
    assert_eq!(
        first_cells(&mounted)[..3],
        ["Strasbourg", "Montpellier", "Nantes"]
    );
    mounted.click("th:nth-child(3) button");
    settle().await;
    assert_eq!(
        element(&mounted, "th:nth-child(3)")
            .get_attribute("aria-sort")
            .as_deref(),
        Some("descending")
    );
    assert_eq!(first_cells(&mounted)[..3], ["Paris", "Marseille", "Lyon"]);
    assert_eq!(
        element(&mounted, "th:nth-child(1)")
            .get_attribute("aria-sort")
            .as_deref(),
        Some("none")
    );
    mounted.click("th:nth-child(2) button");
    settle().await;
    assert_eq!(
        first_cells(&mounted)[..2],
        ["Lyon", "Strasbourg"],
        "text sorts alphabetically, ties keep their order"
    );
}

#[wasm_bindgen_test]
async fn the_filter_box_keeps_matching_rows_and_counts_them() {
    let mounted = mount_widget(WidgetKind::DataTable, example(WidgetKind::DataTable));
    settle().await;
    type_into(&mounted, "input[type=search]", "OCCITANIE");
    settle().await;
    assert_eq!(first_cells(&mounted), ["Toulouse", "Montpellier"]);
    assert_eq!(texts(&mounted, ".au-data-table__count"), ["2 of 8 rows"]);
    type_into(&mounted, "input[type=search]", "ile france");
    settle().await;
    assert_eq!(
        first_cells(&mounted),
        ["Paris"],
        "accents and word order do not matter"
    );
    type_into(&mounted, "input[type=search]", "tokyo");
    settle().await;
    assert!(
        mounted.text().contains("No rows match “tokyo”."),
        "{}",
        mounted.text()
    );
    mounted.click(".au-data-table__no-match button");
    settle().await;
    assert_eq!(
        first_cells(&mounted).len(),
        8,
        "clearing the filter brings every row back"
    );
}

#[wasm_bindgen_test]
async fn clicking_a_row_selects_it_and_reports_the_row() {
    let mounted = mount_widget(WidgetKind::DataTable, example(WidgetKind::DataTable));
    settle().await;
    mounted.click(".au-data-table__row:nth-child(4)");
    settle().await;
    let events = mounted.events();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].0, WidgetAction::RowClick);
    assert_eq!(events[0].1["city"], "Lyon");
    assert_eq!(events[0].1["population"], 522250);
    assert_eq!(
        texts(&mounted, "[aria-selected=true] td:first-child"),
        ["Lyon"]
    );
}

#[wasm_bindgen_test]
async fn arrow_keys_move_the_selection_and_report_each_row() {
    let mounted = mount_widget(WidgetKind::DataTable, example(WidgetKind::DataTable));
    settle().await;
    let grid = element(&mounted, "table");
    let first = press(&grid, "ArrowDown", false);
    assert!(
        first.default_prevented(),
        "the arrow does not scroll the page"
    );
    press(&grid, "ArrowDown", false);
    press(&grid, "ArrowUp", false);
    press(&grid, "End", false);
    settle().await;
    let cities: Vec<Value> = mounted
        .events()
        .iter()
        .map(|(_, row)| row["city"].clone())
        .collect();
    assert_eq!(
        cities,
        [
            json!("Paris"),
            json!("Marseille"),
            json!("Paris"),
            json!("Strasbourg")
        ]
    );
    assert_eq!(
        texts(&mounted, "[aria-selected=true] td:first-child"),
        ["Strasbourg"]
    );
    let active = grid
        .get_attribute("aria-activedescendant")
        .unwrap_or_default();
    assert!(
        mounted.query(&format!("#{active}")).is_some(),
        "the active descendant is the selected row"
    );
}

#[wasm_bindgen_test]
async fn the_data_table_re_renders_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::DataTable, example(WidgetKind::DataTable));
    settle().await;
    set_data(
        &mounted,
        json!({"title": "Updated", "rows": [{"city": "Brest", "population": 139926}]}),
    );
    settle().await;
    assert!(mounted.text().contains("Updated"));
    assert_eq!(first_cells(&mounted), ["Brest"]);
    assert_eq!(texts(&mounted, ".au-data-table__count"), ["1 row"]);
}

#[wasm_bindgen_test]
async fn the_users_sort_and_filter_survive_a_data_refresh() {
    let mounted = mount_widget(WidgetKind::DataTable, example(WidgetKind::DataTable));
    settle().await;
    mounted.click("th:nth-child(3) button");
    mounted.click("th:nth-child(3) button");
    type_into(&mounted, "input[type=search]", "occitanie");
    settle().await;
    let mut refreshed = example(WidgetKind::DataTable);
    refreshed["rows"][6]["population"] = json!(600_000);
    set_data(&mounted, refreshed);
    settle().await;
    assert_eq!(
        first_cells(&mounted),
        ["Montpellier", "Toulouse"],
        "still filtered, still by population descending"
    );
    assert_eq!(
        element(&mounted, "th:nth-child(3)")
            .get_attribute("aria-sort")
            .as_deref(),
        Some("descending")
    );
    let filter = element(&mounted, "input[type=search]").unchecked_into::<HtmlInputElement>();
    assert_eq!(filter.value(), "occitanie");
}

#[wasm_bindgen_test]
async fn csv_export_downloads_the_shown_rows_in_their_order() {
    let mounted = mount_widget(WidgetKind::DataTable, example(WidgetKind::DataTable));
    settle().await;
    type_into(&mounted, "input[type=search]", "provence");
    mounted.click("th:nth-child(3) button");
    settle().await;

    let downloads: Rc<RefCell<Vec<(String, String)>>> = Rc::default();
    let seen = downloads.clone();
    let listener = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
        let Some(link) = event
            .target()
            .and_then(|target| target.dyn_into::<Element>().ok())
        else {
            return;
        };
        if let Some(name) = link.get_attribute("download") {
            event.prevent_default();
            seen.borrow_mut()
                .push((name, link.get_attribute("href").unwrap_or_default()));
        }
    });
    document()
        .add_event_listener_with_callback_and_bool("click", listener.as_ref().unchecked_ref(), true)
        .expect("listen");
    mounted.click(".au-data-table__export");
    document()
        .remove_event_listener_with_callback_and_bool(
            "click",
            listener.as_ref().unchecked_ref(),
            true,
        )
        .expect("unlisten");

    let (name, href) = downloads
        .borrow()
        .first()
        .cloned()
        .expect("the export started a download");
    assert_eq!(name, "largest-french-cities.csv");
    assert!(href.starts_with("blob:"), "{href}");
    let response: web_sys::Response = JsFuture::from(window().fetch_with_str(&href))
        .await
        .expect("fetch the blob")
        .unchecked_into();
    let buffer = JsFuture::from(response.array_buffer().expect("bytes"))
        .await
        .expect("read");
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    let csv = String::from_utf8(bytes).expect("the file is UTF-8");
    assert_eq!(
        csv,
        "\u{feff}City,Region,Population,Area (km²),Prefecture,Website\r\n\
         Nice,Provence-Alpes-Côte d'Azur,348085,71.9,true,https://www.nice.fr\r\n\
         Marseille,Provence-Alpes-Côte d'Azur,877215,240.6,true,https://www.marseille.fr\r\n"
    );
}

#[wasm_bindgen_test]
async fn columns_scrolled_out_of_view_are_hinted_by_an_edge_shadow() {
    load_styles();
    let mounted = mount_widget(WidgetKind::DataTable, example(WidgetKind::DataTable));
    mounted
        .container
        .style()
        .set_property("width", "360px")
        .expect("narrow container");
    next_frame().await;
    next_frame().await;
    let frame = element(&mounted, ".au-data-table__frame");
    assert!(
        frame.class_name().contains("--more-right"),
        "more columns to the right: {}",
        frame.class_name()
    );
    assert!(
        !frame.class_name().contains("--more-left"),
        "{}",
        frame.class_name()
    );
    let scroller = element(&mounted, ".au-data-table__scroll");
    scroller.set_scroll_left(scroller.scroll_width());
    dispatch(&scroller, "scroll");
    settle().await;
    assert!(
        frame.class_name().contains("--more-left"),
        "scrolled to the end: {}",
        frame.class_name()
    );
    assert!(
        !frame.class_name().contains("--more-right"),
        "{}",
        frame.class_name()
    );
}

#[wasm_bindgen_test]
async fn a_refresh_of_the_same_columns_keeps_the_scroll_and_selection_and_shows_the_new_values() {
    load_styles();
    let data = |bump: usize| {
        let mut rows = city_rows(1_000);
        for row in rows.as_array_mut().expect("rows") {
            row["population"] = json!(row["population"].as_u64().unwrap_or_default() as usize + bump);
        }
        json!({"title": "Communes", "rows": rows})
    };
    let mounted = mount_widget(WidgetKind::DataTable, data(0));
    settle().await;
    let scroller = element(&mounted, ".au-data-table__scroll");
    scroller.set_scroll_top(36 * 500);
    dispatch(&scroller, "scroll");
    settle().await;
    let before = first_cells(&mounted);
    let scrolled = scroller.scroll_top();
    assert!(scrolled > 0 && !before.contains(&"Commune 00000".to_owned()), "scrolled into the middle");
    let row = mounted.query_all(".au-data-table__row")[10].clone();
    row.unchecked_ref::<HtmlElement>().click();
    let selected = row.id();

    set_data(&mounted, data(7));
    settle().await;
    assert_eq!(scroller.scroll_top(), scrolled, "the person's scroll position survives the refresh");
    assert_eq!(first_cells(&mounted), before, "the same rows are in view");
    let row = window().document().and_then(|document| document.get_element_by_id(&selected)).expect("the selected row is still in view");
    assert_eq!(row.get_attribute("aria-selected").as_deref(), Some("true"), "the selected row stays selected");
    let population = row.query_selector("td:nth-child(2)").ok().flatten().expect("a population cell").text_content().unwrap_or_default();
    let name = first_cell_of(&row);
    let index: usize = name.trim_start_matches("Commune ").parse().expect("a commune number");
    assert_eq!(population.replace([',', '\u{202f}', '\u{a0}'], ""), (index * 10 + 7).to_string(), "the row shows its new value");
}

fn first_cell_of(row: &Element) -> String {
    row.query_selector("td").ok().flatten().and_then(|cell| cell.text_content()).unwrap_or_default()
}

#[wasm_bindgen_test]
async fn ten_thousand_rows_render_a_window_and_every_row_stays_reachable() {
    load_styles();
    // Warm up the code paths, so the figures logged below are not the browser compiling them.
    let warm_up = mount_widget(WidgetKind::DataTable, json!({"rows": city_rows(50)}));
    settle().await;
    warm_up.click("th:nth-child(1) button");
    type_into(&warm_up, "input[type=search]", "commune");
    settle().await;
    let data = json!({"title": "Communes", "rows": city_rows(10_000)});
    let started = now();
    let mounted = mount_widget(WidgetKind::DataTable, data);
    settle().await;
    let displayed = now() - started;
    let rows_in_dom = mounted.query_all(".au-data-table__row").len();
    assert!(
        (10..=80).contains(&rows_in_dom),
        "only a window of rows is in the DOM, found {rows_in_dom}"
    );
    assert_eq!(texts(&mounted, ".au-data-table__count"), ["10,000 rows"]);
    let row = element(&mounted, ".au-data-table__row").unchecked_into::<HtmlElement>();
    assert_eq!(
        row.offset_height(),
        36,
        "rows have the fixed height the window arithmetic assumes"
    );

    let scroller = element(&mounted, ".au-data-table__scroll");
    scroller.set_scroll_top(scroller.scroll_height());
    dispatch(&scroller, "scroll");
    settle().await;
    let last = first_cells(&mounted).last().cloned().unwrap_or_default();
    assert_eq!(
        last, "Commune 02081",
        "the last row is reachable by scrolling"
    );
    let last_row = mounted
        .query_all(".au-data-table__row")
        .last()
        .cloned()
        .expect("a row")
        .unchecked_into::<HtmlElement>();
    let (row_bottom, view_bottom) = (
        last_row.get_bounding_client_rect().bottom(),
        scroller.get_bounding_client_rect().bottom(),
    );
    assert!(
        (row_bottom - view_bottom).abs() <= 2.0,
        "the last row sits at the bottom of the view: {row_bottom} vs {view_bottom}"
    );

    let started = now();
    mounted.click("th:nth-child(1) button");
    settle().await;
    let sorted = now() - started;
    assert_eq!(
        first_cells(&mounted)[..2],
        ["Commune 00000", "Commune 00001"],
        "sorting starts from the top"
    );
    assert!(mounted.query_all(".au-data-table__row").len() <= 80);

    let started = now();
    type_into(&mounted, "input[type=search]", "commune 0999");
    settle().await;
    let filtered = now() - started;
    assert_eq!(
        texts(&mounted, ".au-data-table__count"),
        ["11 of 10,000 rows"]
    );
    let expected: Vec<String> = [999]
        .into_iter()
        .chain(9990..10_000)
        .map(|i| format!("Commune {i:05}"))
        .collect();
    assert_eq!(
        first_cells(&mounted),
        expected,
        "the filter keeps the sorted order"
    );
    web_sys::console::log_1(
        &format!("data-table 10,000 rows: displayed {displayed:.1} ms, sorted {sorted:.1} ms, filtered {filtered:.1} ms").into(),
    );
}

// ---------------------------------------------------------------------------------------------
// grid-data

#[wasm_bindgen_test]
async fn the_grid_shows_its_example_with_headers_figures_and_highlights() {
    let mounted = mount_widget(WidgetKind::GridData, example(WidgetKind::GridData));
    settle().await;
    assert!(
        mounted
            .text()
            .contains("Revenue by region and quarter (k€)")
    );
    assert_eq!(texts(&mounted, "th"), ["Region", "Q1", "Q2", "Q3", "Q4"]);
    assert_eq!(
        texts(&mounted, "tbody tr:nth-child(3) td"),
        ["South", "521", "574", "612", "640"]
    );
    let best = element(&mounted, "tbody tr:nth-child(3) td:nth-child(5)");
    assert!(
        best.class_name().contains("au-grid-data__cell--fill"),
        "{}",
        best.class_name()
    );
    assert!(
        best.class_name().contains("--ink-dark"),
        "a pale fill gets dark ink: {}",
        best.class_name()
    );
    assert_eq!(
        best.get_attribute("style").as_deref(),
        Some("--au-grid-data-fill: #bbf7d0")
    );
    assert_eq!(
        mounted.query_all("td[style]").len(),
        4,
        "exactly the four highlighted cells are painted"
    );
    assert!(
        element(&mounted, "tbody td:nth-child(2)")
            .class_name()
            .contains("--number"),
        "figures align right"
    );
    assert_eq!(
        element(&mounted, "th").get_attribute("style").as_deref(),
        Some("width: 140px; min-width: 140px")
    );
}

#[wasm_bindgen_test]
async fn grid_columns_without_labels_are_lettered_and_short_rows_are_padded() {
    let mounted = mount_widget(
        WidgetKind::GridData,
        json!({"rows": [[1, 2, 3], [4], [null, true, {"x": 1}]], "highlights": [{"row": 1, "col": 0}]}),
    );
    settle().await;
    assert_eq!(texts(&mounted, "th"), ["A", "B", "C"]);
    assert_eq!(texts(&mounted, "tbody tr:nth-child(2) td"), ["4", "", ""]);
    assert_eq!(
        texts(&mounted, "tbody tr:nth-child(3) td"),
        ["", "✓", "{\"x\":1}"]
    );
    assert!(
        element(&mounted, "tbody tr:nth-child(2) td")
            .class_name()
            .contains("--accent"),
        "a highlight without colour uses the accent"
    );
}

#[wasm_bindgen_test]
async fn the_grid_says_when_there_is_nothing_or_rows_are_records() {
    let empty = mount_widget(WidgetKind::GridData, json!({}));
    let no_rows = mount_widget(
        WidgetKind::GridData,
        json!({"title": "Matrix", "columns": [{"label": "A"}], "rows": []}),
    );
    let records = mount_widget(WidgetKind::GridData, json!({"rows": [{"region": "North"}]}));
    settle().await;
    assert_eq!(
        texts(&empty, "[data-testid=widget-empty]"),
        ["No cells to show"]
    );
    assert_eq!(
        texts(&no_rows, "[data-testid=widget-empty]"),
        ["No cells to show"]
    );
    assert!(no_rows.text().contains("Matrix"));
    let error = texts(&records, "[data-testid=widget-error]").join(" ");
    assert!(
        error.contains("row 1 is an object") && error.contains("data-table"),
        "{error}"
    );
}

#[wasm_bindgen_test]
async fn the_grid_renders_hostile_strings_as_text() {
    let mounted = mount_widget(
        WidgetKind::GridData,
        json!({"title": HOSTILE[0], "columns": [{"label": HOSTILE[1]}, {"label": HOSTILE[2]}], "rows": [HOSTILE, [HOSTILE[3]]],
               "highlights": [{"row": 0, "col": 0, "color": "red; background-image: url(https://evil.example/x)"}]}),
    );
    settle().await;
    assert_hostile_text_is_inert(&mounted, HOSTILE);
    let cell = element(&mounted, "tbody td");
    assert!(
        cell.get_attribute("style").is_none(),
        "an unsafe colour is not painted: {:?}",
        cell.get_attribute("style")
    );
    assert!(
        cell.class_name().contains("--accent"),
        "it falls back to the accent tint"
    );
}

#[wasm_bindgen_test]
async fn clicking_a_cell_reports_its_position_value_and_column() {
    let mounted = mount_widget(WidgetKind::GridData, example(WidgetKind::GridData));
    settle().await;
    mounted.click("tbody tr:nth-child(2) td:nth-child(4)");
    settle().await;
    assert_eq!(
        mounted.events(),
        [(
            WidgetAction::CellClick,
            json!({"row": 1, "col": 3, "value": 287, "column": "Q3"})
        )]
    );
    assert_eq!(
        element(&mounted, "tbody tr:nth-child(2) td:nth-child(4)")
            .get_attribute("aria-selected")
            .as_deref(),
        Some("true")
    );
    mounted.click("tbody tr:nth-child(3) td:nth-child(2)");
    settle().await;
    assert_eq!(
        mounted.query_all("td[aria-selected=true]").len(),
        1,
        "choosing another cell moves the mark"
    );
    let second = element(&mounted, "tbody tr:nth-child(3) td:nth-child(2)");
    assert_eq!(second.get_attribute("aria-selected").as_deref(), Some("true"));
    assert_eq!(
        mounted.query_all("td[tabindex='0']").len(),
        1,
        "the grid keeps one tab stop"
    );
    assert_eq!(second.get_attribute("tabindex").as_deref(), Some("0"), "the tab stop moves to the clicked cell");
}

#[wasm_bindgen_test]
async fn arrow_keys_move_between_cells_and_enter_reports_the_cell() {
    let mounted = mount_widget(WidgetKind::GridData, example(WidgetKind::GridData));
    settle().await;
    let first = element(&mounted, "tbody td");
    assert_eq!(
        first.get_attribute("tabindex").as_deref(),
        Some("0"),
        "the grid has one tab stop"
    );
    press(&first, "ArrowRight", false);
    press(&first, "ArrowDown", false);
    settle().await;
    let active = element(&mounted, "tbody tr:nth-child(2) td:nth-child(2)");
    assert_eq!(
        active.get_attribute("tabindex").as_deref(),
        Some("0"),
        "the tab stop follows the arrows"
    );
    assert_eq!(
        document().active_element(),
        Some(active.clone()),
        "focus follows the arrows"
    );
    press(&active, "Enter", false);
    assert_eq!(
        mounted.events(),
        [(
            WidgetAction::CellClick,
            json!({"row": 1, "col": 1, "value": 298, "column": "Q1"})
        )]
    );
}

#[wasm_bindgen_test]
async fn the_grid_re_renders_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::GridData, example(WidgetKind::GridData));
    settle().await;
    set_data(&mounted, json!({"rows": [["Total", 1696]]}));
    settle().await;
    assert_eq!(texts(&mounted, "tbody td"), ["Total", "1696"]);
    assert!(!mounted.text().contains("Revenue"));
}

// ---------------------------------------------------------------------------------------------
// timeline

#[wasm_bindgen_test]
async fn the_timeline_shows_its_events_with_statuses_links_and_tags() {
    let mounted = mount_widget(WidgetKind::Timeline, example(WidgetKind::Timeline));
    settle().await;
    assert!(mounted.text().contains("Energy sovereignty bill"));
    assert_eq!(
        texts(&mounted, ".au-timeline__title"),
        [
            "Filed at the National Assembly",
            "Adopted in committee",
            "First reading vote",
            "Senate examination",
            "Joint committee",
            "Promulgation"
        ]
    );
    assert_eq!(mounted.query_all(".au-timeline__event--done").len(), 3);
    assert_eq!(mounted.query_all(".au-timeline__event--active").len(), 1);
    assert_eq!(mounted.query_all(".au-timeline__event--pending").len(), 2);
    assert_eq!(
        element(&mounted, ".au-timeline__event--active")
            .get_attribute("aria-current")
            .as_deref(),
        Some("step")
    );
    assert!(
        mounted.text().contains("In progress"),
        "the status is said, not only coloured"
    );
    assert_eq!(
        texts(&mounted, ".au-timeline__date")[..2],
        ["12 Mar 2024", "3 Apr 2024"]
    );
    let link = element(&mounted, ".au-timeline__link");
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("https://www.assemblee-nationale.fr")
    );
    assert_eq!(texts(&mounted, ".au-timeline__tag"), ["government"]);
}

#[wasm_bindgen_test]
async fn timeline_dates_in_iso_form_read_as_dates_and_colours_override_the_status() {
    let mounted = mount_widget(
        WidgetKind::Timeline,
        json!({"events": [{"title": "Kick-off", "date": "2024-03-12", "status": "done", "color": "#ef4444"}, {"title": "Review", "status": "in progress"}]}),
    );
    settle().await;
    let date = element(&mounted, "time");
    assert_eq!(date.text_content().as_deref(), Some("12 Mar 2024"));
    assert_eq!(
        date.get_attribute("datetime").as_deref(),
        Some("2024-03-12")
    );
    assert_eq!(
        element(&mounted, ".au-timeline__event")
            .get_attribute("style")
            .as_deref(),
        Some("--au-timeline-dot: #ef4444")
    );
    assert_eq!(
        mounted.query_all(".au-timeline__event--active").len(),
        1,
        "\"in progress\" reads as active"
    );
}

#[wasm_bindgen_test]
async fn the_timeline_says_when_there_are_no_events() {
    let empty = mount_widget(WidgetKind::Timeline, json!({}));
    let custom = mount_widget(
        WidgetKind::Timeline,
        json!({"title": "History", "events": [], "emptyMessage": "Nothing happened yet"}),
    );
    settle().await;
    assert_eq!(texts(&empty, "[data-testid=widget-empty]"), ["No events"]);
    assert_eq!(
        texts(&custom, "[data-testid=widget-empty]"),
        ["Nothing happened yet"]
    );
}

#[wasm_bindgen_test]
async fn the_timeline_renders_hostile_strings_as_text() {
    let events: Vec<Value> = HOSTILE
        .iter()
        .map(|hostile| json!({"title": hostile, "date": hostile, "description": hostile, "href": hostile, "tags": [hostile], "color": hostile}))
        .collect();
    let mounted = mount_widget(
        WidgetKind::Timeline,
        json!({"title": HOSTILE[1], "events": events}),
    );
    settle().await;
    assert_hostile_text_is_inert(&mounted, HOSTILE);
    assert!(
        mounted.query(".au-timeline__link").is_none(),
        "no hostile href became a link"
    );
    assert!(
        mounted.query(".au-timeline__event[style]").is_none(),
        "no hostile colour was painted"
    );
}

#[wasm_bindgen_test]
async fn choosing_an_event_reports_it_with_its_position() {
    let mounted = mount_widget(WidgetKind::Timeline, example(WidgetKind::Timeline));
    settle().await;
    mounted.click(".au-timeline__event:nth-child(4) .au-timeline__select");
    settle().await;
    let events = mounted.events();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].0, WidgetAction::EventClick);
    assert_eq!(events[0].1["title"], "Senate examination");
    assert_eq!(events[0].1["index"], 3);
    assert_eq!(
        element(&mounted, ".au-timeline__event:nth-child(4) button")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
}

#[wasm_bindgen_test]
async fn the_timeline_re_renders_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::Timeline, example(WidgetKind::Timeline));
    settle().await;
    set_data(
        &mounted,
        json!({"events": [{"title": "Promulgated", "status": "done"}]}),
    );
    settle().await;
    assert_eq!(texts(&mounted, ".au-timeline__title"), ["Promulgated"]);
}

// ---------------------------------------------------------------------------------------------
// profile

#[wasm_bindgen_test]
async fn the_profile_shows_identity_figures_facts_and_actions() {
    let mounted = mount_widget(WidgetKind::Profile, example(WidgetKind::Profile));
    settle().await;
    assert_eq!(
        texts(&mounted, ".au-profile__name > span:first-child"),
        ["Claire Dubois"]
    );
    assert_eq!(
        texts(&mounted, ".au-profile__initials"),
        ["CD"],
        "without a portrait the card shows initials"
    );
    assert_eq!(texts(&mounted, ".au-profile__badge"), ["Rapporteur"]);
    assert!(
        element(&mounted, ".au-profile__badge")
            .class_name()
            .contains("--success")
    );
    assert_eq!(
        texts(&mounted, ".au-profile__subtitle"),
        ["Deputy for Gironde (5th constituency)"]
    );
    assert_eq!(
        texts(&mounted, ".au-profile__stat-value"),
        ["14", "326", "91%"]
    );
    assert_eq!(
        texts(&mounted, "dt"),
        ["Group", "Committee", "In office since", "Contact"]
    );
    let mail = element(&mounted, "dd a");
    assert_eq!(
        mail.get_attribute("href").as_deref(),
        Some("mailto:claire.dubois@assemblee-nationale.fr")
    );
    let page = element(&mounted, "a.au-profile__action");
    assert_eq!(
        page.get_attribute("href").as_deref(),
        Some("https://www.assemblee-nationale.fr")
    );
    assert_eq!(
        texts(&mounted, "button.au-profile__action"),
        ["Voting record"]
    );
}

#[wasm_bindgen_test]
async fn a_profile_action_button_tells_the_agent_which_action() {
    let mounted = mount_widget(WidgetKind::Profile, example(WidgetKind::Profile));
    settle().await;
    mounted.click("button.au-profile__action");
    assert_eq!(
        mounted.events(),
        [(
            WidgetAction::ButtonClick,
            json!({"label": "Voting record", "index": 0, "action": "show_votes"})
        )]
    );
}

#[wasm_bindgen_test]
async fn a_broken_portrait_falls_back_to_initials() {
    let mounted = mount_widget(
        WidgetKind::Profile,
        json!({"name": "Ada Lovelace", "avatar": {"src": "/missing-portrait-404.png", "alt": "Portrait of Ada"}}),
    );
    settle().await;
    let image = element(&mounted, ".au-profile__avatar img");
    assert_eq!(
        image.get_attribute("alt").as_deref(),
        Some("Portrait of Ada")
    );
    dispatch(&image, "error");
    settle().await;
    assert!(
        mounted.query(".au-profile__avatar img").is_none(),
        "the broken image is gone"
    );
    assert_eq!(texts(&mounted, ".au-profile__initials"), ["AL"]);
}

#[wasm_bindgen_test]
async fn a_made_up_or_unsafe_portrait_is_never_loaded() {
    let mounted = mount_widget(
        WidgetKind::Profile,
        json!({"name": "Ada Lovelace", "avatar": "javascript:alert(1)"}),
    );
    settle().await;
    assert!(mounted.query("img").is_none());
    assert_eq!(texts(&mounted, ".au-profile__initials"), ["AL"]);
}

#[wasm_bindgen_test]
async fn the_profile_says_when_there_is_no_one_to_show() {
    let mounted = mount_widget(WidgetKind::Profile, json!({}));
    settle().await;
    assert_eq!(
        texts(&mounted, "[data-testid=widget-empty]"),
        ["No profile to show"]
    );
}

#[wasm_bindgen_test]
async fn the_profile_renders_hostile_strings_as_text() {
    let mounted = mount_widget(
        WidgetKind::Profile,
        json!({"name": HOSTILE[0], "subtitle": HOSTILE[1], "avatar": HOSTILE[1], "badge": HOSTILE[2],
               "fields": HOSTILE.iter().map(|h| json!({"label": h, "value": h, "href": h})).collect::<Vec<_>>(),
               "stats": [{"label": HOSTILE[3], "value": HOSTILE[0]}],
               "actions": HOSTILE.iter().map(|h| json!({"label": h, "href": h, "action": h})).collect::<Vec<_>>()}),
    );
    settle().await;
    assert_hostile_text_is_inert(&mounted, HOSTILE);
    assert!(
        mounted.query("img").is_none() && mounted.query("a").is_none(),
        "no hostile URL was loaded or linked"
    );
}

#[wasm_bindgen_test]
async fn the_profile_re_renders_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::Profile, example(WidgetKind::Profile));
    settle().await;
    set_data(&mounted, json!({"name": "Marc Lefèvre"}));
    settle().await;
    assert_eq!(texts(&mounted, ".au-profile__initials"), ["ML"]);
    assert!(!mounted.text().contains("Claire"));
}

// ---------------------------------------------------------------------------------------------
// trombinoscope

#[wasm_bindgen_test]
async fn the_trombinoscope_shows_every_person_with_initials_badges_and_a_count() {
    let mounted = mount_widget(
        WidgetKind::Trombinoscope,
        example(WidgetKind::Trombinoscope),
    );
    settle().await;
    assert!(
        mounted
            .text()
            .contains("Economic affairs committee: bureau")
    );
    let names = texts(&mounted, ".au-trombinoscope__name");
    assert_eq!(names.len(), 8);
    assert_eq!(names[0], "Claire Dubois");
    assert_eq!(
        texts(&mounted, ".au-trombinoscope__initials")[..2],
        ["CD", "ML"]
    );
    assert_eq!(
        texts(&mounted, ".au-trombinoscope__badge")[..3],
        ["ECO", "EPR", "SOC"]
    );
    assert_eq!(texts(&mounted, ".au-trombinoscope__subtitle")[0], "Chair");
    assert_eq!(
        element(&mounted, ".au-trombinoscope__tile")
            .get_attribute("style")
            .as_deref(),
        Some("--au-trombinoscope-tint: #16a34a"),
        "the person's colour tints the tile"
    );
    assert_eq!(texts(&mounted, ".au-trombinoscope__count"), ["8 people"]);
    assert!(
        element(&mounted, ".au-trombinoscope__grid")
            .get_attribute("style")
            .unwrap_or_default()
            .contains("columns: 4")
    );
}

#[wasm_bindgen_test]
async fn people_without_a_colour_get_one_from_their_name_and_badges_can_be_hidden() {
    let people = json!([{"name": "Ada Lovelace", "badge": "MATH"}, {"name": "Ada Lovelace", "badge": "MATH"}]);
    let mounted = mount_widget(
        WidgetKind::Trombinoscope,
        json!({"people": people, "showBadge": false}),
    );
    settle().await;
    let styles: Vec<String> = mounted
        .query_all(".au-trombinoscope__tile")
        .iter()
        .filter_map(|tile| tile.get_attribute("style"))
        .collect();
    assert!(styles[0].contains("var(--au-series-"), "{styles:?}");
    assert_eq!(styles[0], styles[1], "the same name gets the same colour");
    assert!(mounted.query(".au-trombinoscope__badge").is_none());
    assert_eq!(texts(&mounted, ".au-trombinoscope__count"), ["2 people"]);
}

#[wasm_bindgen_test]
async fn a_broken_photo_falls_back_to_initials() {
    let mounted = mount_widget(
        WidgetKind::Trombinoscope,
        json!({"people": [{"name": "Grace Hopper", "avatar": "/missing-photo-404.jpg"}]}),
    );
    settle().await;
    dispatch(&element(&mounted, ".au-trombinoscope__avatar img"), "error");
    settle().await;
    assert!(mounted.query("img").is_none());
    assert_eq!(texts(&mounted, ".au-trombinoscope__initials"), ["GH"]);
}

#[wasm_bindgen_test]
async fn choosing_a_person_reports_them() {
    let mounted = mount_widget(
        WidgetKind::Trombinoscope,
        example(WidgetKind::Trombinoscope),
    );
    settle().await;
    mounted.click(".au-trombinoscope__item:nth-child(3) button");
    settle().await;
    let events = mounted.events();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].0, WidgetAction::PersonClick);
    assert_eq!(events[0].1["name"], "Sofia Benali");
    assert_eq!(events[0].1["index"], 2);
    assert_eq!(
        element(&mounted, ".au-trombinoscope__item:nth-child(3) button")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    // Choosing another person moves the pressed state to them.
    mounted.click(".au-trombinoscope__item:nth-child(1) .au-trombinoscope__name");
    settle().await;
    let pressed: Vec<String> = mounted
        .query_all(".au-trombinoscope__tile")
        .iter()
        .map(|tile| tile.get_attribute("aria-pressed").unwrap_or_default())
        .collect();
    assert_eq!(pressed.iter().filter(|p| *p == "true").count(), 1, "{pressed:?}");
    assert_eq!(pressed[0], "true");
    let events = mounted.events();
    assert_eq!(events.len(), 2);
    assert_eq!(events[1].1["index"], 0);
}

#[wasm_bindgen_test]
async fn the_trombinoscope_says_when_there_is_no_one() {
    let empty = mount_widget(WidgetKind::Trombinoscope, json!({}));
    let custom = mount_widget(
        WidgetKind::Trombinoscope,
        json!({"people": [], "emptyMessage": "No member yet"}),
    );
    settle().await;
    assert_eq!(
        texts(&empty, "[data-testid=widget-empty]"),
        ["No people to show"]
    );
    assert_eq!(
        texts(&custom, "[data-testid=widget-empty]"),
        ["No member yet"]
    );
}

#[wasm_bindgen_test]
async fn the_trombinoscope_renders_hostile_strings_as_text() {
    let people: Vec<Value> = HOSTILE
        .iter()
        .map(|h| json!({"name": h, "subtitle": h, "avatar": h, "badge": h, "color": h, "badgeColor": h}))
        .collect();
    let mounted = mount_widget(
        WidgetKind::Trombinoscope,
        json!({"title": HOSTILE[0], "people": people}),
    );
    settle().await;
    assert_hostile_text_is_inert(&mounted, HOSTILE);
    assert!(
        mounted.query("img").is_none(),
        "no hostile avatar was loaded"
    );
    for tile in mounted.query_all(".au-trombinoscope__tile") {
        let style = tile.get_attribute("style").unwrap_or_default();
        assert!(
            style.starts_with("--au-trombinoscope-tint: var(--au-series-"),
            "a hostile colour falls back to the name's: {style}"
        );
    }
}

#[wasm_bindgen_test]
async fn the_trombinoscope_re_renders_when_its_data_changes() {
    let mounted = mount_widget(
        WidgetKind::Trombinoscope,
        example(WidgetKind::Trombinoscope),
    );
    settle().await;
    set_data(&mounted, json!({"people": [{"name": "Zoé Martin"}]}));
    settle().await;
    assert_eq!(texts(&mounted, ".au-trombinoscope__name"), ["Zoé Martin"]);
    assert_eq!(texts(&mounted, ".au-trombinoscope__count"), ["1 person"]);
}

// ---------------------------------------------------------------------------------------------
// cards

#[wasm_bindgen_test]
async fn the_cards_show_pictures_titles_links_and_tags() {
    let mounted = mount_widget(WidgetKind::Cards, example(WidgetKind::Cards));
    settle().await;
    assert!(mounted.text().contains("Hiking ideas near Annecy"));
    assert_eq!(
        texts(&mounted, ".au-cards__title"),
        [
            "Mont Veyrier ↗",
            "Lac de la Vogealle ↗",
            "Forêt du Crêt du Maure",
            "Col de la Forclaz ↗"
        ]
    );
    assert_eq!(mounted.query_all(".au-cards__media img").len(), 4);
    let links = mounted.query_all("a.au-cards__link");
    assert_eq!(links.len(), 3, "cards with href get a real link");
    assert_eq!(
        links[0].get_attribute("href").as_deref(),
        Some("https://www.lac-annecy.com")
    );
    assert_eq!(links[0].get_attribute("target").as_deref(), Some("_blank"));
    assert_eq!(
        texts(&mounted, ".au-cards__item:first-child .au-cards__tag"),
        ["sunrise", "moderate"]
    );
    assert_eq!(
        texts(&mounted, ".au-cards__subtitle")[0],
        "1,291 m · 3 h 30"
    );
    assert_eq!(
        element(&mounted, ".au-cards__grid")
            .get_attribute("style")
            .as_deref(),
        Some("--au-cards-min: 200px")
    );
}

#[wasm_bindgen_test]
async fn clicking_a_card_or_its_link_reports_the_card() {
    let mounted = mount_widget(WidgetKind::Cards, example(WidgetKind::Cards));
    settle().await;
    mounted.click(".au-cards__item:nth-child(3) .au-cards__select");
    settle().await;
    assert!(
        element(&mounted, ".au-cards__item:nth-child(3) article")
            .class_name()
            .contains("--chosen")
    );
    // Links open in a new tab; cancel the navigation so the test page stays.
    let stop =
        Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| event.prevent_default());
    let link = element(&mounted, ".au-cards__item:nth-child(2) a");
    link.add_event_listener_with_callback("click", stop.as_ref().unchecked_ref())
        .expect("listen");
    link.unchecked_ref::<HtmlElement>().click();
    let events = mounted.events();
    assert_eq!(events.len(), 2);
    assert_eq!(
        (
            events[0].0,
            events[0].1["title"].clone(),
            events[0].1["index"].clone()
        ),
        (
            WidgetAction::CardClick,
            json!("Forêt du Crêt du Maure"),
            json!(2)
        )
    );
    assert_eq!(
        (events[1].0, events[1].1["title"].clone()),
        (WidgetAction::CardClick, json!("Lac de la Vogealle"))
    );
}

#[wasm_bindgen_test]
async fn a_broken_card_picture_becomes_a_placeholder() {
    let mounted = mount_widget(
        WidgetKind::Cards,
        json!({"cards": [{"title": "Lake", "image": "/missing-lake-404.jpg"}, {"title": "No picture", "image": "lake.jpg"}]}),
    );
    settle().await;
    assert_eq!(
        mounted.query_all("img").len(),
        1,
        "a made-up relative image is never loaded"
    );
    dispatch(&element(&mounted, "img"), "error");
    settle().await;
    assert!(mounted.query("img").is_none());
    assert_eq!(mounted.query_all(".au-cards__media--placeholder").len(), 1);
}

#[wasm_bindgen_test]
async fn the_cards_say_when_there_are_none() {
    let empty = mount_widget(WidgetKind::Cards, json!({}));
    let custom = mount_widget(
        WidgetKind::Cards,
        json!({"cards": [], "emptyMessage": "No hike matches"}),
    );
    settle().await;
    assert_eq!(
        texts(&empty, "[data-testid=widget-empty]"),
        ["No items to show"]
    );
    assert_eq!(
        texts(&custom, "[data-testid=widget-empty]"),
        ["No hike matches"]
    );
}

#[wasm_bindgen_test]
async fn the_cards_render_hostile_strings_as_text() {
    let cards: Vec<Value> = HOSTILE
        .iter()
        .map(|h| json!({"title": h, "subtitle": h, "description": h, "image": h, "tags": [h], "href": h}))
        .collect();
    let mounted = mount_widget(
        WidgetKind::Cards,
        json!({"title": HOSTILE[2], "cards": cards, "minCardWidth": HOSTILE[0]}),
    );
    settle().await;
    assert_hostile_text_is_inert(&mounted, HOSTILE);
    assert!(
        mounted.query("img").is_none() && mounted.query("a").is_none(),
        "no hostile URL was loaded or linked"
    );
    assert_eq!(
        element(&mounted, ".au-cards__grid")
            .get_attribute("style")
            .as_deref(),
        Some("--au-cards-min: 180px")
    );
}

#[wasm_bindgen_test]
async fn the_cards_re_renders_when_their_data_changes() {
    let mounted = mount_widget(WidgetKind::Cards, example(WidgetKind::Cards));
    settle().await;
    set_data(&mounted, json!({"cards": [{"title": "Semnoz"}]}));
    settle().await;
    assert_eq!(texts(&mounted, ".au-cards__title"), ["Semnoz"]);
}

// ---------------------------------------------------------------------------------------------
// chat-input

fn field(mounted: &Mounted) -> web_sys::HtmlTextAreaElement {
    element(mounted, "textarea").unchecked_into()
}

fn write(mounted: &Mounted, text: &str) {
    let field = field(mounted);
    field.set_value(text);
    dispatch(&field, "input");
}

#[wasm_bindgen_test]
async fn the_chat_input_asks_its_question_with_the_suggested_form() {
    let mounted = mount_widget(WidgetKind::ChatInput, example(WidgetKind::ChatInput));
    settle().await;
    assert_eq!(
        texts(&mounted, "label"),
        ["Which region should I break down next?"]
    );
    let field = field(&mounted);
    assert_eq!(field.placeholder(), "e.g. Occitanie, or \"all regions\"");
    let label = element(&mounted, "label");
    assert_eq!(
        label.get_attribute("for"),
        Some(field.id()),
        "the question labels the field"
    );
    assert!(
        element(&mounted, "button[type=submit]").has_attribute("disabled"),
        "nothing to send yet"
    );
}

#[wasm_bindgen_test]
async fn enter_sends_the_trimmed_text_and_clears_the_field() {
    let mounted = mount_widget(WidgetKind::ChatInput, example(WidgetKind::ChatInput));
    settle().await;
    write(&mounted, "  Occitanie  ");
    settle().await;
    let enter = press(&field(&mounted).unchecked_into(), "Enter", false);
    settle().await;
    assert!(
        enter.default_prevented(),
        "Enter does not add a line when it sends"
    );
    assert_eq!(
        mounted.events(),
        [(WidgetAction::Submit, json!({"text": "Occitanie"}))]
    );
    assert_eq!(
        field(&mounted).value(),
        "",
        "the field is cleared after sending"
    );
}

#[wasm_bindgen_test]
async fn shift_enter_adds_a_line_and_empty_text_is_never_sent() {
    let mounted = mount_widget(WidgetKind::ChatInput, json!({}));
    settle().await;
    let shift_enter = press(&field(&mounted).unchecked_into(), "Enter", true);
    assert!(
        !shift_enter.default_prevented(),
        "Shift+Enter is left to the field"
    );
    write(&mounted, "   \n ");
    press(&field(&mounted).unchecked_into(), "Enter", false);
    mounted.click("button[type=submit]");
    settle().await;
    assert!(mounted.events().is_empty(), "blank text is ignored");
    assert_eq!(field(&mounted).placeholder(), "Type a message...");
}

#[wasm_bindgen_test]
async fn the_send_button_sends_multi_line_text() {
    let mounted = mount_widget(WidgetKind::ChatInput, json!({"value": "Bretagne"}));
    settle().await;
    assert_eq!(
        field(&mounted).value(),
        "Bretagne",
        "the value pre-fills the field"
    );
    write(&mounted, "Bretagne\nand Normandie");
    settle().await;
    mounted.click("button[type=submit]");
    settle().await;
    assert_eq!(
        mounted.events(),
        [(
            WidgetAction::Submit,
            json!({"text": "Bretagne\nand Normandie"})
        )]
    );
}

#[wasm_bindgen_test]
async fn while_the_agent_works_a_stop_button_replaces_send() {
    let mounted = mount_widget(
        WidgetKind::ChatInput,
        json!({"title": "One moment", "disabled": true}),
    );
    settle().await;
    assert!(mounted.query("button[type=submit]").is_none());
    write(&mounted, "Next: Bretagne");
    press(&field(&mounted).unchecked_into(), "Enter", false);
    mounted.click("button[aria-label=Stop]");
    settle().await;
    assert_eq!(
        mounted.events(),
        [(WidgetAction::Stop, Value::Null)],
        "only stop is reported while the agent works"
    );
    assert_eq!(
        field(&mounted).value(),
        "Next: Bretagne",
        "the draft is kept"
    );
}

#[wasm_bindgen_test]
async fn the_chat_input_renders_hostile_strings_as_text() {
    let mounted = mount_widget(
        WidgetKind::ChatInput,
        json!({"title": HOSTILE[0], "placeholder": HOSTILE[1], "value": HOSTILE[2]}),
    );
    settle().await;
    assert_hostile_text_is_inert(&mounted, &HOSTILE[..1]);
    assert_eq!(field(&mounted).placeholder(), HOSTILE[1]);
    assert_eq!(field(&mounted).value(), HOSTILE[2]);
}

#[wasm_bindgen_test]
async fn the_chat_input_follows_its_data() {
    let mounted = mount_widget(WidgetKind::ChatInput, json!({"title": "Which region?"}));
    settle().await;
    set_data(&mounted, json!({"title": "Which year?", "disabled": true}));
    settle().await;
    assert_eq!(texts(&mounted, "label"), ["Which year?"]);
    assert!(mounted.query("button[aria-label=Stop]").is_some());
}
