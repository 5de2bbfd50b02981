//! Browser tier for the simple widgets (stat, kv, list, chart, alert, code, text, actions, tags,
//! stat-card, log, json-viewer): what the user sees for the recipe example, the empty state, hostile
//! strings shown as text, interactions reported with their payload, and re-rendering on update.
#![cfg(target_arch = "wasm32")]

mod support;

use std::sync::Arc;

use autoui_core::canvas::event::WidgetAction;
use autoui_core::recipes::registry;
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::Set;
use serde_json::{Value, json};
use support::{
    HOSTILE, Mounted, assert_no_injected_markup, assert_not_pwned, example, mount_widget,
    next_frame, settle,
};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

// ---------------------------------------------------------------------------------------------
// Helpers

fn texts(mounted: &Mounted, selector: &str) -> Vec<String> {
    mounted
        .query_all(selector)
        .iter()
        .map(|element| element.text_content().unwrap_or_default())
        .collect()
}

fn empty_text(mounted: &Mounted) -> String {
    mounted
        .query("[data-testid=widget-empty]")
        .and_then(|element| element.text_content())
        .unwrap_or_default()
}

fn has_class(mounted: &Mounted, selector: &str, class: &str) -> bool {
    mounted
        .query(selector)
        .is_some_and(|element| element.class_list().contains(class))
}

/// The recipe's `n`th example (the gallery shows the first).
fn nth_example(kind: WidgetKind, n: usize) -> Value {
    registry()
        .get(kind)
        .and_then(|recipe| recipe.examples.get(n).cloned())
        .expect("recipe example")
}

async fn update(mounted: &Mounted, data: Value) {
    mounted.data.set(Arc::new(data));
    settle().await;
}

/// Mounts `kind` with `data` built around one hostile string and checks nothing was injected and
/// the string itself is visible as text.
async fn assert_hostile_shown_as_text(
    kind: WidgetKind,
    data: impl Fn(&str) -> Value,
    shown: impl Fn(&str) -> String,
) {
    for hostile in HOSTILE {
        let mounted = mount_widget(kind, data(hostile));
        settle().await;
        assert!(
            mounted.query("[data-testid=widget-error]").is_none(),
            "{kind} refused hostile text: {}",
            mounted.text()
        );
        assert_no_injected_markup(&mounted);
        assert!(
            mounted.text().contains(&shown(hostile)),
            "{kind} does not show {hostile:?} as text: {}",
            mounted.text()
        );
    }
    assert_not_pwned();
}

fn same(text: &str) -> String {
    text.to_owned()
}

fn input(element: &HtmlInputElement, value: &str) {
    element.set_value(value);
    let event = web_sys::Event::new("input").expect("event");
    element.dispatch_event(&event).expect("dispatch");
}

// ---------------------------------------------------------------------------------------------
// stat

#[wasm_bindgen_test]
async fn stat_shows_its_label_value_and_a_rising_trend() {
    let mounted = mount_widget(WidgetKind::Stat, example(WidgetKind::Stat));
    settle().await;
    assert_eq!(texts(&mounted, ".au-stat__label"), ["Active users"]);
    assert_eq!(texts(&mounted, ".au-stat__value"), ["12,480"]);
    assert!(has_class(&mounted, ".au-stat__trend", "au-stat__trend--up"));
    assert!(mounted.text().contains("↑") && mounted.text().contains("+8.2% vs last week"));
}

#[wasm_bindgen_test]
async fn stat_without_trend_shows_no_trend_line_and_a_falling_trend_is_marked_down() {
    let mounted = mount_widget(WidgetKind::Stat, nth_example(WidgetKind::Stat, 1));
    settle().await;
    assert_eq!(texts(&mounted, ".au-stat__value"), ["3"]);
    assert!(mounted.query(".au-stat__trend").is_none());
    update(
        &mounted,
        json!({"label": "Errors", "value": 12, "trend": "-4 today", "trendDir": "down"}),
    )
    .await;
    assert_eq!(texts(&mounted, ".au-stat__value"), ["12"]);
    assert!(has_class(
        &mounted,
        ".au-stat__trend",
        "au-stat__trend--down"
    ));
}

#[wasm_bindgen_test]
async fn stat_with_nothing_shows_an_empty_state_and_bad_types_an_error() {
    let mounted = mount_widget(WidgetKind::Stat, json!({}));
    settle().await;
    assert_eq!(empty_text(&mounted), "No figure to show yet");
    update(&mounted, json!({"label": ["not", "text"], "value": "1"})).await;
    let error = mounted
        .query("[data-testid=widget-error]")
        .and_then(|e| e.text_content())
        .unwrap_or_default();
    assert!(error.contains("expected text, found a list"), "{error}");
}

#[wasm_bindgen_test]
async fn stat_shows_hostile_strings_as_text() {
    assert_hostile_shown_as_text(
        WidgetKind::Stat,
        |h| json!({"label": h, "value": h, "trend": h, "trendDir": h}),
        same,
    )
    .await;
}

#[wasm_bindgen_test]
async fn stat_re_renders_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::Stat, example(WidgetKind::Stat));
    settle().await;
    update(
        &mounted,
        json!({"label": "Active users", "value": "13,002"}),
    )
    .await;
    assert_eq!(texts(&mounted, ".au-stat__value"), ["13,002"]);
    assert!(mounted.query(".au-stat__trend").is_none());
}

// ---------------------------------------------------------------------------------------------
// kv

#[wasm_bindgen_test]
async fn kv_shows_every_pair_in_order_under_its_title() {
    let mounted = mount_widget(WidgetKind::Kv, example(WidgetKind::Kv));
    settle().await;
    assert_eq!(texts(&mounted, ".au-widget-title"), ["Bill no. 1234"]);
    assert_eq!(
        texts(&mounted, "dt"),
        [
            "Title",
            "Filed",
            "Rapporteur",
            "Committee",
            "Stage",
            "Amendments"
        ]
    );
    assert_eq!(texts(&mounted, "dd")[0], "Energy sovereignty bill");
    assert_eq!(texts(&mounted, "dd")[5], "412 filed, 87 adopted");
}

#[wasm_bindgen_test]
async fn kv_reads_an_object_and_links_only_safe_web_addresses() {
    let data = json!({"rows": {"Status": "Adopted", "Votes": 312, "Source": "https://example.org/bill", "Trap": "javascript:window.__pwned=1"}});
    let mounted = mount_widget(WidgetKind::Kv, data);
    settle().await;
    assert_eq!(texts(&mounted, "dt").len(), 4);
    assert!(mounted.text().contains("Adopted") && mounted.text().contains("312"));
    let links = mounted.query_all("a[href]");
    assert_eq!(links.len(), 1);
    assert_eq!(
        links[0].get_attribute("href").as_deref(),
        Some("https://example.org/bill")
    );
    assert!(mounted.text().contains("javascript:window.__pwned=1"));
}

#[wasm_bindgen_test]
async fn kv_with_no_rows_shows_an_empty_state() {
    for data in [json!({}), json!({"title": "Bill", "rows": []})] {
        let mounted = mount_widget(WidgetKind::Kv, data);
        settle().await;
        assert_eq!(empty_text(&mounted), "No details to show");
    }
    let mounted = mount_widget(WidgetKind::Kv, json!({"rows": [["ok", "1"], 7]}));
    settle().await;
    assert!(
        mounted.text().contains("row 2 is not a [key, value] pair"),
        "{}",
        mounted.text()
    );
}

#[wasm_bindgen_test]
async fn kv_shows_hostile_strings_as_text() {
    assert_hostile_shown_as_text(
        WidgetKind::Kv,
        |h| json!({"title": h, "rows": [[h, h]]}),
        same,
    )
    .await;
}

#[wasm_bindgen_test]
async fn kv_re_renders_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::Kv, example(WidgetKind::Kv));
    settle().await;
    update(&mounted, json!({"rows": [["Stage", "Adopted"]]})).await;
    assert_eq!(texts(&mounted, "dd"), ["Adopted"]);
}

// ---------------------------------------------------------------------------------------------
// list

#[wasm_bindgen_test]
async fn list_shows_its_items_and_reports_a_click_with_index_and_item() {
    let mounted = mount_widget(WidgetKind::List, example(WidgetKind::List));
    settle().await;
    let items = texts(&mounted, "li button");
    assert_eq!(items.len(), 5);
    assert_eq!(items[1], "Migrate the reporting database to Postgres 16");
    mounted.query_all("li button")[1]
        .unchecked_ref::<HtmlElement>()
        .click();
    assert_eq!(
        mounted.events(),
        [(
            WidgetAction::ItemClick,
            json!({"index": 1, "item": "Migrate the reporting database to Postgres 16"})
        )]
    );
}

#[wasm_bindgen_test]
async fn list_items_are_keyboard_operable_buttons() {
    let mounted = mount_widget(WidgetKind::List, json!({"items": ["one"]}));
    settle().await;
    let button = mounted.query("button").expect("item button");
    assert_eq!(button.get_attribute("type").as_deref(), Some("button"));
}

#[wasm_bindgen_test]
async fn list_without_items_shows_an_empty_state() {
    for data in [json!({}), json!({"title": "Steps", "items": []})] {
        let mounted = mount_widget(WidgetKind::List, data);
        settle().await;
        assert_eq!(empty_text(&mounted), "This list has no items");
    }
}

#[wasm_bindgen_test]
async fn list_shows_hostile_strings_as_text() {
    assert_hostile_shown_as_text(
        WidgetKind::List,
        |h| json!({"title": h, "items": [h]}),
        same,
    )
    .await;
}

#[wasm_bindgen_test]
async fn list_re_renders_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::List, example(WidgetKind::List));
    settle().await;
    update(
        &mounted,
        json!({"items": ["Only this", {"text": "and this"}]}),
    )
    .await;
    assert_eq!(texts(&mounted, "li button"), ["Only this", "and this"]);
}

// ---------------------------------------------------------------------------------------------
// chart

fn rect_number(rect: &web_sys::Element, attribute: &str) -> f64 {
    rect.get_attribute(attribute)
        .and_then(|v| v.trim_end_matches('%').parse().ok())
        .unwrap_or(f64::NAN)
}

#[wasm_bindgen_test]
async fn chart_draws_one_bar_per_value_scaled_to_the_largest() {
    let mounted = mount_widget(WidgetKind::Chart, example(WidgetKind::Chart));
    settle().await;
    let rects = mounted.query_all(".au-chart__bar rect");
    assert_eq!(rects.len(), 8);
    let heights: Vec<f64> = rects
        .iter()
        .map(|rect| rect_number(rect, "height"))
        .collect();
    let tallest = heights.iter().cloned().fold(0.0, f64::max);
    assert_eq!(
        heights[6], tallest,
        "Jul (690) is the tallest bar: {heights:?}"
    );
    assert!(
        (heights[0] / tallest - 320.0 / 690.0).abs() < 0.01,
        "Jan is 320/690 of Jul: {heights:?}"
    );
    assert_eq!(texts(&mounted, ".au-chart__value")[0], "320");
    assert_eq!(
        texts(&mounted, ".au-chart__label"),
        ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug"]
    );
    assert_eq!(texts(&mounted, ".au-chart__bar title")[4], "May: 610");
}

#[wasm_bindgen_test]
async fn chart_offers_its_numbers_as_a_table_for_screen_readers() {
    let mounted = mount_widget(WidgetKind::Chart, example(WidgetKind::Chart));
    settle().await;
    assert_eq!(texts(&mounted, "table caption"), ["Monthly sign-ups"]);
    assert_eq!(texts(&mounted, "tbody th").len(), 8);
    assert_eq!(texts(&mounted, "tbody td")[3], "502");
    assert_eq!(
        mounted
            .query(".au-chart__plot")
            .and_then(|p| p.get_attribute("aria-hidden"))
            .as_deref(),
        Some("true")
    );
}

#[wasm_bindgen_test]
async fn chart_draws_negative_values_below_the_baseline() {
    let mounted = mount_widget(
        WidgetKind::Chart,
        json!({"bars": [["Profit", 30], ["Loss", -10], ["Flat", 0], ["Unknown", "n/a"]]}),
    );
    settle().await;
    let baseline = mounted
        .query(".au-chart__baseline")
        .map(|line| rect_number(&line, "y1"))
        .unwrap_or(f64::NAN);
    let negative = mounted
        .query(".au-chart__bar--negative rect")
        .expect("a negative bar");
    assert!(
        (rect_number(&negative, "y") - baseline).abs() < 0.11,
        "the loss hangs from the baseline"
    );
    let positive = mounted.query_all(".au-chart__bar rect")[0].clone();
    assert!(
        (rect_number(&positive, "y") + rect_number(&positive, "height") - baseline).abs() < 0.11
    );
    assert!(
        (rect_number(&positive, "height") / rect_number(&negative, "height") - 3.0).abs() < 0.05
    );
    assert_eq!(texts(&mounted, ".au-chart__value"), ["30", "-10", "0", "—"]);
    assert_eq!(texts(&mounted, "tbody td")[3], "no value");
}

#[wasm_bindgen_test]
async fn chart_without_bars_shows_an_empty_state() {
    for data in [json!({}), json!({"title": "Sign-ups", "bars": []})] {
        let mounted = mount_widget(WidgetKind::Chart, data);
        settle().await;
        assert_eq!(empty_text(&mounted), "No bars to draw");
    }
}

#[wasm_bindgen_test]
async fn chart_shows_hostile_strings_as_text() {
    assert_hostile_shown_as_text(
        WidgetKind::Chart,
        |h| json!({"title": h, "bars": [[h, 1]]}),
        same,
    )
    .await;
}

#[wasm_bindgen_test]
async fn chart_re_renders_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::Chart, example(WidgetKind::Chart));
    settle().await;
    update(&mounted, json!({"bars": [["A", 1], ["B", 2]]})).await;
    assert_eq!(mounted.query_all(".au-chart__bar rect").len(), 2);
    assert_eq!(texts(&mounted, ".au-chart__label"), ["A", "B"]);
}

// ---------------------------------------------------------------------------------------------
// alert

#[wasm_bindgen_test]
async fn alert_shows_a_warning_announced_to_screen_readers() {
    let mounted = mount_widget(WidgetKind::Alert, example(WidgetKind::Alert));
    settle().await;
    let banner = mounted.query(".au-alert").expect("banner");
    assert_eq!(banner.get_attribute("role").as_deref(), Some("alert"));
    assert!(banner.class_list().contains("au-alert--warn"));
    assert_eq!(
        texts(&mounted, ".au-alert__title"),
        ["API latency above threshold"]
    );
    assert!(
        mounted
            .text()
            .contains("p95 latency on /search has been 1.8 s")
    );
}

#[wasm_bindgen_test]
async fn alert_levels_pick_colour_and_politeness() {
    let mounted = mount_widget(WidgetKind::Alert, nth_example(WidgetKind::Alert, 1));
    settle().await;
    assert!(has_class(&mounted, ".au-alert", "au-alert--error"));
    update(&mounted, json!({"title": "FYI", "level": "info"})).await;
    assert!(has_class(&mounted, ".au-alert", "au-alert--info"));
    assert_eq!(
        mounted
            .query(".au-alert")
            .and_then(|a| a.get_attribute("role"))
            .as_deref(),
        Some("status")
    );
}

#[wasm_bindgen_test]
async fn alert_with_nothing_to_say_shows_an_empty_state() {
    let mounted = mount_widget(WidgetKind::Alert, json!({}));
    settle().await;
    assert_eq!(empty_text(&mounted), "No notice to show");
}

#[wasm_bindgen_test]
async fn alert_shows_hostile_strings_as_text() {
    assert_hostile_shown_as_text(
        WidgetKind::Alert,
        |h| json!({"title": h, "message": h, "level": h}),
        same,
    )
    .await;
}

// ---------------------------------------------------------------------------------------------
// code

const SQL: &str = "SELECT region,\n       SUM(amount) AS revenue,\n       COUNT(DISTINCT customer_id) AS customers\nFROM orders\nWHERE ordered_at >= DATE '2024-01-01'\nGROUP BY region\nORDER BY revenue DESC\nLIMIT 10;";

/// Replaces `navigator.clipboard` for this page (`undefined` removes it).
fn fake_clipboard(clipboard: &JsValue) {
    let descriptor = js_sys::Object::new();
    js_sys::Reflect::set(&descriptor, &"value".into(), clipboard).expect("descriptor");
    js_sys::Reflect::set(&descriptor, &"configurable".into(), &JsValue::TRUE).expect("descriptor");
    js_sys::Reflect::define_property(
        &web_sys::window().expect("window").navigator(),
        &"clipboard".into(),
        &descriptor,
    )
    .expect("define navigator.clipboard");
}

async fn copy_button_reads(mounted: &Mounted, label: &str) {
    for _ in 0..20 {
        if texts(mounted, ".au-code__copy")
            .first()
            .is_some_and(|text| text == label)
        {
            return;
        }
        settle().await;
    }
    panic!(
        "the copy button never read {label:?}: {:?}",
        texts(mounted, ".au-code__copy")
    );
}

#[wasm_bindgen_test]
async fn code_shows_its_language_lines_and_content_verbatim() {
    let mounted = mount_widget(WidgetKind::Code, example(WidgetKind::Code));
    settle().await;
    assert_eq!(texts(&mounted, ".au-code__lang"), ["sql"]);
    assert_eq!(texts(&mounted, "code"), [SQL]);
    assert_eq!(
        texts(&mounted, ".au-code__gutter"),
        ["1\n2\n3\n4\n5\n6\n7\n8"]
    );
    let frame = mounted.query(".au-code__frame").expect("frame");
    assert_eq!(frame.get_attribute("tabindex").as_deref(), Some("0"));
}

#[wasm_bindgen_test]
async fn code_copy_button_writes_the_code_to_the_clipboard() {
    let fake = js_sys::Object::new();
    let write = js_sys::Function::new_with_args(
        "text",
        "window.__copied = text; return Promise.resolve();",
    );
    js_sys::Reflect::set(&fake, &"writeText".into(), &write).expect("fake");
    fake_clipboard(&fake);
    let mounted = mount_widget(WidgetKind::Code, example(WidgetKind::Code));
    settle().await;
    mounted.click(".au-code__copy");
    copy_button_reads(&mounted, "Copied").await;
    let copied = js_sys::Reflect::get(&web_sys::window().expect("window"), &"__copied".into())
        .expect("copied");
    assert_eq!(copied.as_string().as_deref(), Some(SQL));
    assert!(mounted.text().contains("Code copied to the clipboard"));
}

#[wasm_bindgen_test]
async fn code_copy_button_selects_the_code_when_there_is_no_clipboard() {
    fake_clipboard(&JsValue::UNDEFINED);
    let mounted = mount_widget(
        WidgetKind::Code,
        json!({"content": "echo hello", "lang": "bash"}),
    );
    settle().await;
    mounted.click(".au-code__copy");
    copy_button_reads(&mounted, "Press Ctrl+C").await;
    let selection = web_sys::window()
        .expect("window")
        .get_selection()
        .expect("selection")
        .expect("a selection");
    assert_eq!(String::from(selection.to_string()), "echo hello");
}

#[wasm_bindgen_test]
async fn code_without_content_shows_an_empty_state() {
    for data in [json!({}), json!({"content": "", "lang": "sql"})] {
        let mounted = mount_widget(WidgetKind::Code, data);
        settle().await;
        assert_eq!(empty_text(&mounted), "No code to show");
    }
}

#[wasm_bindgen_test]
async fn code_shows_hostile_strings_as_text() {
    assert_hostile_shown_as_text(WidgetKind::Code, |h| json!({"content": h, "lang": h}), same)
        .await;
}

#[wasm_bindgen_test]
async fn code_re_renders_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::Code, example(WidgetKind::Code));
    settle().await;
    update(
        &mounted,
        json!({"content": "print('hi')", "lang": "python"}),
    )
    .await;
    assert_eq!(texts(&mounted, "code"), ["print('hi')"]);
    assert_eq!(texts(&mounted, ".au-code__lang"), ["python"]);
    assert!(
        mounted.query(".au-code__gutter").is_none(),
        "one line needs no line numbers"
    );
}

// ---------------------------------------------------------------------------------------------
// text

#[wasm_bindgen_test]
async fn text_renders_markdown_with_safe_new_tab_links() {
    let mounted = mount_widget(WidgetKind::Text, example(WidgetKind::Text));
    settle().await;
    assert_eq!(
        texts(&mounted, ".au-widget-title"),
        ["What changed this week"]
    );
    assert_eq!(texts(&mounted, "h2"), ["Highlights"]);
    assert_eq!(texts(&mounted, "li").len(), 3);
    assert_eq!(texts(&mounted, "strong")[0], "Revenue");
    assert_eq!(texts(&mounted, "em"), ["Pro"]);
    assert_eq!(texts(&mounted, "code"), ["eu-west"]);
    assert!(mounted.query("hr").is_some());
    let link = mounted.query("a").expect("link");
    assert_eq!(
        link.get_attribute("href").as_deref(),
        Some("https://wiki.acme.dev/reports/w32")
    );
    assert_eq!(link.get_attribute("target").as_deref(), Some("_blank"));
    assert!(
        link.get_attribute("rel")
            .unwrap_or_default()
            .contains("noopener")
    );
}

#[wasm_bindgen_test]
async fn text_shows_raw_html_as_text_and_drops_script_links() {
    assert_hostile_shown_as_text(
        WidgetKind::Text,
        |h| json!({"title": h, "content": h}),
        same,
    )
    .await;
    let mounted = mount_widget(
        WidgetKind::Text,
        json!({"content": "[click me](javascript:window.__pwned=1) <a href=\"javascript:x\">raw</a> ![pic](data:text/html,x)"}),
    );
    settle().await;
    assert_no_injected_markup(&mounted);
    assert!(mounted.query("a, img").is_none());
    assert!(
        mounted.text().contains("click me")
            && mounted.text().contains("<a href=\"javascript:x\">raw</a>")
    );
    assert!(mounted.text().contains("pic"));
}

#[wasm_bindgen_test]
async fn text_without_content_shows_an_empty_state() {
    for data in [json!({}), json!({"title": "Notes", "content": "  "})] {
        let mounted = mount_widget(WidgetKind::Text, data);
        settle().await;
        assert_eq!(empty_text(&mounted), "No text to show");
    }
}

#[wasm_bindgen_test]
async fn text_re_renders_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::Text, example(WidgetKind::Text));
    settle().await;
    update(&mounted, json!({"content": "# New heading"})).await;
    assert_eq!(texts(&mounted, "h1"), ["New heading"]);
    assert!(mounted.query("h2").is_none());
}

// ---------------------------------------------------------------------------------------------
// actions

#[wasm_bindgen_test]
async fn actions_show_styled_buttons_and_a_click_reports_label_index_and_action() {
    let mounted = mount_widget(WidgetKind::Actions, example(WidgetKind::Actions));
    settle().await;
    let buttons = mounted.query_all("button");
    assert_eq!(
        texts(&mounted, "button"),
        [
            "Drill into South region",
            "Compare with 2023",
            "Export as CSV",
            "Refresh"
        ]
    );
    assert!(
        buttons[0]
            .class_list()
            .contains("au-actions__button--primary")
    );
    assert!(
        buttons[1]
            .class_list()
            .contains("au-actions__button--secondary")
    );
    // The accessible name starts with the visible label (WCAG 2.5.3), then the recipe's ariaLabel.
    assert_eq!(
        buttons[3].get_attribute("aria-label").as_deref(),
        Some("Refresh: Reload the figures from the sales server")
    );
    buttons[2].unchecked_ref::<HtmlElement>().click();
    assert_eq!(
        mounted.events(),
        [(
            WidgetAction::ButtonClick,
            json!({"label": "Export as CSV", "index": 2, "action": "export_csv"})
        )]
    );
    settle().await;
    assert!(
        mounted.query_all("button")[2]
            .class_list()
            .contains("au-actions__button--chosen")
    );
}

#[wasm_bindgen_test]
async fn actions_danger_buttons_are_marked_and_a_missing_action_is_the_label() {
    let mounted = mount_widget(WidgetKind::Actions, nth_example(WidgetKind::Actions, 1));
    settle().await;
    assert!(has_class(&mounted, "button", "au-actions__button--danger"));
    update(&mounted, json!({"buttons": [{"label": "Go"}]})).await;
    mounted.click("button");
    assert_eq!(
        mounted.events(),
        [(
            WidgetAction::ButtonClick,
            json!({"label": "Go", "index": 0, "action": "Go"})
        )]
    );
}

#[wasm_bindgen_test]
async fn actions_without_buttons_show_an_empty_state() {
    for data in [json!({}), json!({"title": "Next?", "buttons": []})] {
        let mounted = mount_widget(WidgetKind::Actions, data);
        settle().await;
        assert_eq!(empty_text(&mounted), "No actions to choose from");
    }
}

#[wasm_bindgen_test]
async fn actions_show_hostile_strings_as_text() {
    assert_hostile_shown_as_text(
        WidgetKind::Actions,
        |h| json!({"title": h, "buttons": [{"label": h, "action": h, "ariaLabel": h, "variant": h}]}),
        same,
    )
    .await;
}

// ---------------------------------------------------------------------------------------------
// tags

#[wasm_bindgen_test]
async fn tags_show_every_tag_with_the_active_ones_highlighted() {
    let mounted = mount_widget(WidgetKind::Tags, example(WidgetKind::Tags));
    settle().await;
    assert_eq!(texts(&mounted, ".au-tags__label"), ["Topics"]);
    assert_eq!(mounted.query_all(".au-tags__tag").len(), 6);
    assert_eq!(
        texts(&mounted, ".au-tags__tag--active"),
        ["energy (active)", "climate (active)"]
    );
    assert_eq!(texts(&mounted, ".au-tags__tag")[2], "housing");
}

#[wasm_bindgen_test]
async fn tags_without_tags_show_an_empty_state() {
    for data in [json!({}), json!({"label": "Topics", "tags": []})] {
        let mounted = mount_widget(WidgetKind::Tags, data);
        settle().await;
        assert_eq!(empty_text(&mounted), "No tags to show");
    }
}

#[wasm_bindgen_test]
async fn tags_show_hostile_strings_as_text() {
    assert_hostile_shown_as_text(
        WidgetKind::Tags,
        |h| json!({"label": h, "tags": [h, {"text": h, "active": true}]}),
        same,
    )
    .await;
}

#[wasm_bindgen_test]
async fn tags_re_render_when_their_data_changes() {
    let mounted = mount_widget(WidgetKind::Tags, example(WidgetKind::Tags));
    settle().await;
    update(
        &mounted,
        json!({"tags": [{"text": "solo", "active": false}]}),
    )
    .await;
    assert_eq!(texts(&mounted, ".au-tags__tag"), ["solo"]);
}

// ---------------------------------------------------------------------------------------------
// stat-card

#[wasm_bindgen_test]
async fn stat_card_shows_value_unit_good_trend_previous_value_and_variant() {
    let mounted = mount_widget(WidgetKind::StatCard, example(WidgetKind::StatCard));
    settle().await;
    assert!(has_class(
        &mounted,
        ".au-stat-card",
        "au-stat-card--success"
    ));
    assert_eq!(texts(&mounted, ".au-stat-card__label"), ["Revenue"]);
    assert_eq!(texts(&mounted, ".au-stat-card__value"), ["142.3"]);
    assert_eq!(texts(&mounted, ".au-stat-card__unit"), ["k€"]);
    assert!(has_class(
        &mounted,
        ".au-stat-card__trend",
        "au-stat-card__trend--good"
    ));
    assert!(
        texts(&mounted, ".au-stat-card__trend")[0].contains("↑")
            && mounted.text().contains("+12.4%")
    );
    assert_eq!(
        texts(&mounted, ".au-stat-card__previous"),
        ["prev: 126.6 k€"]
    );
}

#[wasm_bindgen_test]
async fn stat_card_shows_a_rise_that_is_bad_news_in_the_bad_colour() {
    let mounted = mount_widget(WidgetKind::StatCard, nth_example(WidgetKind::StatCard, 1));
    settle().await;
    assert!(has_class(
        &mounted,
        ".au-stat-card",
        "au-stat-card--warning"
    ));
    assert!(has_class(
        &mounted,
        ".au-stat-card__trend",
        "au-stat-card__trend--bad"
    ));
    let trend = texts(&mounted, ".au-stat-card__trend")[0].clone();
    assert!(
        trend.contains("↑") && trend.contains("+210 ms") && trend.contains("unfavourable"),
        "{trend}"
    );
}

#[wasm_bindgen_test]
async fn stat_card_trend_colours_follow_direction_and_flat_is_neutral() {
    let mounted = mount_widget(
        WidgetKind::StatCard,
        json!({"label": "Churn", "value": "2%", "delta": "-0.4 pt", "trend": "down"}),
    );
    settle().await;
    assert!(has_class(
        &mounted,
        ".au-stat-card__trend",
        "au-stat-card__trend--bad"
    ));
    assert!(has_class(
        &mounted,
        ".au-stat-card",
        "au-stat-card--default"
    ));
    update(
        &mounted,
        json!({"label": "Churn", "value": "2%", "delta": "0", "trend": {"direction": "flat"}}),
    )
    .await;
    assert!(has_class(
        &mounted,
        ".au-stat-card__trend",
        "au-stat-card__trend--neutral"
    ));
    assert!(texts(&mounted, ".au-stat-card__trend")[0].contains("→"));
    update(&mounted, json!({"label": "Cost", "value": 1204, "trend": {"direction": "down", "value": "-8%", "positive": true}})).await;
    assert_eq!(texts(&mounted, ".au-stat-card__value"), ["1,204"]);
    assert!(has_class(
        &mounted,
        ".au-stat-card__trend",
        "au-stat-card__trend--good"
    ));
    assert!(texts(&mounted, ".au-stat-card__trend")[0].contains("-8%"));
}

#[wasm_bindgen::prelude::wasm_bindgen(inline_js = r#"
export function watch_mutations(target) {
  const watch = { records: [] };
  watch.observer = new MutationObserver((list) => watch.records.push(...list));
  watch.observer.observe(target, { subtree: true, childList: true, attributes: true, characterData: true });
  return watch;
}
export function mutations(watch) {
  watch.records.push(...watch.observer.takeRecords());
  watch.observer.disconnect();
  const element = (node) => (node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement);
  return watch.records.map((record) => `${record.type} ${record.attributeName ?? ''} ${element(record.target)?.className ?? ''}`.trim());
}
"#)]
extern "C" {
    fn watch_mutations(target: &HtmlElement) -> JsValue;
    fn mutations(watch: &JsValue) -> Vec<String>;
}

/// A refreshed figure changes its text and nothing else in the page (a live KPI refreshed every few
/// seconds touches one text node); parts come and go with the data.
#[wasm_bindgen_test]
async fn stat_card_updates_its_figures_in_place_and_rebuilds_only_when_its_parts_change() {
    let mounted = mount_widget(WidgetKind::StatCard, json!({"label": "Orders", "value": "12", "delta": "+2", "trend": "up", "unit": "k"}));
    settle().await;
    let watch = watch_mutations(&mounted.container);
    update(&mounted, json!({"label": "Orders", "value": "13", "delta": "+2", "trend": "up", "unit": "k"})).await;
    assert_eq!(texts(&mounted, ".au-stat-card__value"), ["13"]);
    let changed = mutations(&watch);
    assert!(!changed.is_empty() && changed.iter().all(|change| change.ends_with("au-stat-card__value")), "only the value changed: {changed:?}");

    update(&mounted, json!({"label": "Orders today", "value": "14", "variant": "warning"})).await;
    assert_eq!(texts(&mounted, ".au-stat-card__label"), ["Orders today"]);
    assert!(has_class(&mounted, ".au-stat-card", "au-stat-card--warning"));
    assert!(mounted.query(".au-stat-card__unit").is_none() && mounted.query(".au-stat-card__trend").is_none(), "gone parts are gone");
    update(&mounted, json!({"label": "Orders today", "value": "15", "unit": "k", "delta": "+1", "trend": "down"})).await;
    assert_eq!(texts(&mounted, ".au-stat-card__unit"), ["k"]);
    assert!(has_class(&mounted, ".au-stat-card__trend", "au-stat-card__trend--bad"));
}

#[wasm_bindgen_test]
async fn stat_card_with_nothing_shows_an_empty_state() {
    let mounted = mount_widget(WidgetKind::StatCard, json!({}));
    settle().await;
    assert_eq!(empty_text(&mounted), "No figure to show yet");
}

#[wasm_bindgen_test]
async fn stat_card_shows_hostile_strings_as_text() {
    assert_hostile_shown_as_text(
        WidgetKind::StatCard,
        |h| json!({"label": h, "value": h, "unit": h, "delta": h, "previousValue": h, "variant": h, "trend": {"direction": h, "value": h}}),
        same,
    )
    .await;
}

// ---------------------------------------------------------------------------------------------
// log

fn log_entries(count: usize) -> Value {
    let entries: Vec<Value> = (0..count)
        .map(|i| json!({"timestamp": format!("10:{:02}:{:02}", i / 60 % 60, i % 60), "level": "info", "message": format!("line {i}")}))
        .collect();
    json!({"title": "Worker", "entries": entries})
}

#[wasm_bindgen_test]
async fn log_shows_each_entry_with_time_level_source_and_message() {
    let mounted = mount_widget(WidgetKind::Log, example(WidgetKind::Log));
    settle().await;
    assert_eq!(mounted.query_all(".au-log__entry").len(), 6);
    assert_eq!(texts(&mounted, ".au-log__time")[0], "14:02:11");
    assert_eq!(
        texts(&mounted, ".au-log__entry .au-log__level"),
        ["info", "debug", "info", "warn", "error", "info"]
    );
    assert!(
        mounted.query_all(".au-log__entry")[4]
            .class_list()
            .contains("au-log__entry--error")
    );
    assert_eq!(texts(&mounted, ".au-log__source")[4], "healthcheck");
    assert_eq!(
        texts(&mounted, ".au-log__message")[5],
        "Rolled back to v2.13.2"
    );
    assert_eq!(texts(&mounted, ".au-log__status"), ["6 entries"]);
    assert_eq!(
        mounted
            .query(".au-log__entries")
            .and_then(|list| list.get_attribute("role"))
            .as_deref(),
        Some("log")
    );
}

/// A log removed in the same frame it was shown (its frame rebuilt, the widget deleted) leaves no
/// work behind that fails when the frame comes: it used to scroll a list already disposed (a panic).
#[wasm_bindgen_test]
async fn a_log_removed_before_the_next_frame_leaves_nothing_failing_behind() {
    use autoui::widgets::{WidgetProps, render};
    use leptos::prelude::*;
    let container = document().create_element("div").unwrap().unchecked_into::<HtmlElement>();
    document().body().unwrap().append_child(&container).unwrap();
    let shown = RwSignal::new(true);
    let props = WidgetProps {
        id: autoui_core::ids::BlockId::new("w_log_gone"),
        data: Signal::stored(Arc::new(example(WidgetKind::Log))),
        emit: Callback::new(|_| {}),
    };
    std::mem::forget(leptos::mount::mount_to(container.clone(), move || {
        let props = props.clone();
        view! { <Show when=move || shown.get()>{render(WidgetKind::Log, props.clone())}</Show> }
    }));
    // A failure in a frame callback reaches the window, not this test's future.
    let errors = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let sink = errors.clone();
    let _listener = leptos::prelude::window_event_listener(leptos::ev::error, move |event| {
        sink.lock().unwrap().push(event.message());
    });
    leptos::task::tick().await;
    assert_eq!(container.query_selector_all(".au-log__entry").unwrap().length(), 6, "the log was shown");
    shown.set(false);
    leptos::task::tick().await;
    next_frame().await;
    next_frame().await;
    assert!(container.query_selector(".au-log").unwrap().is_none(), "the log is gone");
    assert_eq!(*errors.lock().unwrap(), Vec::<String>::new(), "the frame after it ran cleanly");
}

#[wasm_bindgen_test]
async fn log_level_toggles_hide_and_show_a_level() {
    let mounted = mount_widget(WidgetKind::Log, example(WidgetKind::Log));
    settle().await;
    let toggle = mounted
        .query(".au-log__level-toggle--info")
        .expect("info toggle");
    assert_eq!(
        toggle.get_attribute("aria-pressed").as_deref(),
        Some("true")
    );
    toggle.unchecked_ref::<HtmlElement>().click();
    settle().await;
    assert_eq!(
        toggle.get_attribute("aria-pressed").as_deref(),
        Some("false")
    );
    assert_eq!(
        texts(&mounted, ".au-log__entry .au-log__level"),
        ["debug", "warn", "error"]
    );
    assert_eq!(texts(&mounted, ".au-log__status"), ["3 of 6 entries"]);
    toggle.unchecked_ref::<HtmlElement>().click();
    settle().await;
    assert_eq!(mounted.query_all(".au-log__entry").len(), 6);
}

#[wasm_bindgen_test]
async fn log_search_keeps_matching_entries_and_marks_the_match() {
    let mounted = mount_widget(WidgetKind::Log, example(WidgetKind::Log));
    settle().await;
    let search = mounted
        .query(".au-log__search")
        .expect("search box")
        .unchecked_into::<HtmlInputElement>();
    input(&search, "POD");
    settle().await;
    assert_eq!(search.value(), "POD", "the box keeps what the user typed");
    assert_eq!(
        texts(&mounted, ".au-log__message"),
        [
            "Rolling update: 3/12 pods ready",
            "Pod api-7f9c restarted (OOMKilled), memory limit 512Mi",
            "GET /health returned 503 on 2 pods"
        ]
    );
    assert_eq!(texts(&mounted, "mark"), ["pod", "Pod", "pod"]);
    input(&search, "no such thing");
    settle().await;
    assert!(mounted.text().contains("No entries match the filters."));
    mounted.click(".au-log__clear");
    settle().await;
    assert_eq!(mounted.query_all(".au-log__entry").len(), 6);
    assert_eq!(search.value(), "");
}

#[wasm_bindgen_test]
async fn log_follows_new_entries_unless_the_user_scrolled_up() {
    let mounted = mount_widget(WidgetKind::Log, log_entries(40));
    settle().await;
    let list = mounted
        .query(".au-log__entries")
        .expect("list")
        .unchecked_into::<HtmlElement>();
    list.style()
        .set_property("max-height", "120px")
        .expect("style");
    list.style()
        .set_property("overflow", "auto")
        .expect("style");
    update(&mounted, log_entries(60)).await;
    next_frame().await;
    let at_bottom =
        |list: &HtmlElement| list.scroll_top() + list.client_height() >= list.scroll_height() - 2;
    assert!(at_bottom(&list), "a following log shows its newest entry");
    list.set_scroll_top(0);
    list.dispatch_event(&web_sys::Event::new("scroll").expect("event"))
        .expect("scroll");
    update(&mounted, log_entries(80)).await;
    next_frame().await;
    assert_eq!(
        list.scroll_top(),
        0,
        "a log the user scrolled up stays where the user put it"
    );
    assert!(mounted.text().contains("line 79"));
}

#[wasm_bindgen_test]
async fn long_logs_render_the_latest_entries_and_show_earlier_ones_on_demand() {
    let mounted = mount_widget(WidgetKind::Log, log_entries(450));
    settle().await;
    assert_eq!(mounted.query_all(".au-log__entry").len(), 200);
    assert_eq!(
        texts(&mounted, ".au-log__message")
            .last()
            .map(String::as_str),
        Some("line 449")
    );
    assert_eq!(
        texts(&mounted, ".au-log__more-button"),
        ["Show 200 earlier entries (250 hidden)"]
    );
    mounted.click(".au-log__more-button");
    settle().await;
    assert_eq!(mounted.query_all(".au-log__entry").len(), 400);
    assert_eq!(
        texts(&mounted, ".au-log__more-button"),
        ["Show 50 earlier entries (50 hidden)"]
    );
}

#[wasm_bindgen_test]
async fn log_without_entries_shows_its_empty_message() {
    let mounted = mount_widget(WidgetKind::Log, json!({}));
    settle().await;
    assert_eq!(empty_text(&mounted), "No log entries");
    let mounted = mount_widget(
        WidgetKind::Log,
        json!({"entries": [], "emptyMessage": "Nothing logged since 14:00"}),
    );
    settle().await;
    assert_eq!(empty_text(&mounted), "Nothing logged since 14:00");
}

#[wasm_bindgen_test]
async fn log_shows_hostile_strings_as_text() {
    assert_hostile_shown_as_text(
        WidgetKind::Log,
        |h| json!({"title": h, "entries": [{"timestamp": h, "level": h, "source": h, "message": h}]}),
        same,
    )
    .await;
}

#[wasm_bindgen_test]
async fn log_re_renders_when_entries_are_added() {
    let mounted = mount_widget(WidgetKind::Log, example(WidgetKind::Log));
    settle().await;
    let mut data = example(WidgetKind::Log);
    if let Some(entries) = data["entries"].as_array_mut() {
        entries.push(json!({"level": "error", "message": "Rollback failed"}));
    }
    update(&mounted, data).await;
    assert_eq!(
        texts(&mounted, ".au-log__message")
            .last()
            .map(String::as_str),
        Some("Rollback failed")
    );
    assert_eq!(texts(&mounted, ".au-log__status"), ["7 entries"]);
}

// ---------------------------------------------------------------------------------------------
// json-viewer

#[wasm_bindgen_test]
async fn json_viewer_opens_the_first_two_levels_and_colours_values_by_type() {
    let mounted = mount_widget(WidgetKind::JsonViewer, example(WidgetKind::JsonViewer));
    settle().await;
    assert_eq!(texts(&mounted, ".au-widget-title"), ["forecast response"]);
    let text = mounted.text();
    assert!(
        text.contains("\"location\"") && text.contains("\"Lyon\"") && text.contains("45.76"),
        "{text}"
    );
    assert_eq!(texts(&mounted, ".au-json__bool"), ["true"]);
    assert_eq!(texts(&mounted, ".au-json__null"), ["null"]);
    assert!(texts(&mounted, ".au-json__type").contains(&"[Array(2)]".to_owned()));
    assert!(
        texts(&mounted, ".au-json__empty").contains(&"[]".to_owned()),
        "alerts is an empty list"
    );
    // daily[0] sits on the third level: closed, and its fields are not in the DOM yet.
    assert!(!text.contains("rain_mm"));
}

#[wasm_bindgen_test]
async fn json_viewer_renders_a_closed_node_when_it_is_opened() {
    let mounted = mount_widget(WidgetKind::JsonViewer, example(WidgetKind::JsonViewer));
    settle().await;
    let closed = mounted.query_all("details:not([open]) > summary");
    assert_eq!(closed.len(), 2, "both days start closed");
    closed[0].unchecked_ref::<HtmlElement>().click();
    settle().await;
    assert!(mounted.text().contains("\"rain_mm\"") && mounted.text().contains("31.5"));
}

#[wasm_bindgen_test]
async fn json_viewer_honours_max_depth_and_expanded() {
    let data = json!({"a": {"b": {"c": 1}}, "x": [1, 2]});
    let mounted = mount_widget(WidgetKind::JsonViewer, json!({"data": data, "maxDepth": 1}));
    settle().await;
    assert_eq!(
        mounted.query_all("details[open]").len(),
        1,
        "only the root is open at maxDepth 1"
    );
    assert!(texts(&mounted, ".au-json__type").contains(&"{Object(1)}".to_owned()));
    update(&mounted, json!({"data": data, "expanded": false})).await;
    assert_eq!(
        mounted.query_all("details[open]").len(),
        1,
        "only the root is open when not expanded"
    );
    update(&mounted, json!({"data": data})).await;
    assert_eq!(
        mounted.query_all("details[open]").len(),
        3,
        "root, a and x are open by default"
    );
}

#[wasm_bindgen_test]
async fn json_viewer_renders_huge_arrays_a_page_at_a_time() {
    let numbers: Vec<u32> = (0..1000).collect();
    let mounted = mount_widget(WidgetKind::JsonViewer, json!({"data": numbers}));
    settle().await;
    assert_eq!(mounted.query_all(".au-json__leaf").len(), 100);
    assert_eq!(
        texts(&mounted, ".au-json__more-button"),
        ["Show 100 more (100 of 1000 shown)"]
    );
    mounted.click(".au-json__more-button");
    settle().await;
    assert_eq!(mounted.query_all(".au-json__leaf").len(), 200);
    assert!(mounted.text().contains("199"));
}

#[wasm_bindgen_test]
async fn json_viewer_without_data_shows_an_empty_state() {
    let mounted = mount_widget(WidgetKind::JsonViewer, json!({}));
    settle().await;
    assert_eq!(empty_text(&mounted), "No JSON data to show");
    update(&mounted, json!({"data": null})).await;
    assert_eq!(texts(&mounted, ".au-json__null"), ["null"]);
}

#[wasm_bindgen_test]
async fn json_viewer_shows_hostile_strings_as_text() {
    assert_hostile_shown_as_text(
        WidgetKind::JsonViewer,
        |h| json!({"title": h, "data": {h: h, "list": [h]}}),
        |h| Value::String(h.to_owned()).to_string(),
    )
    .await;
}

#[wasm_bindgen_test]
async fn json_viewer_re_renders_when_its_data_changes() {
    let mounted = mount_widget(WidgetKind::JsonViewer, example(WidgetKind::JsonViewer));
    settle().await;
    update(&mounted, json!({"data": {"only": 42}})).await;
    assert_eq!(texts(&mounted, ".au-json__number"), ["42"]);
    assert!(!mounted.text().contains("Lyon"));
}
