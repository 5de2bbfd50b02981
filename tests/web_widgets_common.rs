//! Browser tier: every widget mounts with its recipe example and with empty data without breaking.
#![cfg(target_arch = "wasm32")]

mod support;

use autoui_core::widget_kind::WidgetKind;
use serde_json::json;
use support::{example, mount_widget, settle};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn every_widget_renders_its_recipe_example_without_an_error_state() {
    // vega-lite draws with an engine the app serves itself, which this runner cannot: `web_vega_lite`
    // loads it and renders every vega-lite example.
    for &kind in WidgetKind::ALL.iter().filter(|kind| **kind != WidgetKind::VegaLite) {
        let mounted = mount_widget(kind, example(kind));
        settle().await;
        assert!(mounted.query("[data-testid=widget-error]").is_none(), "{kind} shows an error state for its own example");
        assert!(!mounted.text().trim().is_empty() || mounted.query("svg, iframe, img").is_some(), "{kind} renders something");
    }
}

#[wasm_bindgen_test]
async fn every_widget_survives_empty_data() {
    for &kind in WidgetKind::ALL {
        let mounted = mount_widget(kind, json!({}));
        settle().await;
        assert!(mounted.container.child_element_count() > 0, "{kind} renders an empty or error state for {{}}");
    }
}

#[wasm_bindgen_test]
async fn a_field_of_the_wrong_kind_shows_an_error_naming_where_it_is_and_what_was_expected() {
    let cases = [
        (WidgetKind::Actions, json!({"buttons": [{"label": "Go"}, {"label": 7}]}), "buttons[1].label: expected text, found a number"),
        (WidgetKind::Profile, json!({"name": "Ada", "badge": {"variant": "success"}}), "badge.text: missing"),
        (
            WidgetKind::DataTable,
            json!({"rows": [{"a": 1}], "columns": [{"key": "a", "type": "money"}]}),
            "columns[0].type: expected one of text, number, boolean, link, date",
        ),
        (WidgetKind::Sankey, json!({"nodes": [{"id": true}], "links": []}), "nodes[0].id: expected text or a number, found true/false"),
        (WidgetKind::Gallery, json!({"images": ["a.png", 3]}), "images[1]: expected text or an object, found a number"),
        (WidgetKind::StatCard, json!({"label": "Sales", "value": "1", "trend": {"value": "2"}}), "trend.direction: missing"),
        (WidgetKind::Timeline, json!({"events": [{"title": "Launch", "tags": ["x", 1]}]}), "tags[1]: expected text, found a number"),
        (WidgetKind::GridData, json!({"rows": [[1]], "highlights": [{"row": 0, "col": -1}]}), "highlights[0].col: expected a whole number"),
    ];
    for (kind, data, expected) in cases {
        let mounted = mount_widget(kind, data);
        settle().await;
        let error = mounted.query("[data-testid=widget-error]").and_then(|e| e.text_content()).unwrap_or_default();
        assert!(error.contains(expected), "{kind}: {error:?} should say {expected:?}");
    }
}
