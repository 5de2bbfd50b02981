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
