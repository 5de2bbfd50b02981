//! `chart-rich`'s schema (recipes/chart-rich.md) through `widget_display`: the variants of issue 19
//! (horizontal bars, bars with a line on a second axis, scatter, bubble, gauge) are accepted, old
//! params still are, and mistakes in the new fields come back as validation errors naming the path.

mod common;

use common::autoui_server::Harness;
use serde_json::{Value, json};

fn display(params: Value) -> Value {
    json!({ "name": "chart-rich", "params": params })
}

/// The error's (path, message) pairs.
fn details(error: &Value) -> Vec<(String, String)> {
    error["details"]
        .as_array()
        .map(|details| {
            details
                .iter()
                .map(|d| (d["path"].as_str().unwrap_or_default().to_owned(), d["message"].as_str().unwrap_or_default().to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_new_variants_are_accepted_as_the_recipe_writes_them() {
    let h = Harness::new();
    for params in [
        json!({"type": "bar", "horizontal": true, "stacked": true, "labels": ["a", "b"], "data": [{"values": [1, 2]}, {"values": [3, 4]}]}),
        json!({"type": "bar", "labels": ["Jan", "Feb"], "data": [{"label": "Revenue", "values": [4, 5]},
            {"label": "Orders", "type": "line", "axis": "right", "unit": "orders", "values": [310, 352]}]}),
        json!({"type": "scatter", "xTitle": "Age", "yTitle": "Income", "data": [{"label": "People", "points": [{"x": 31, "y": 42000}, {"x": 45, "y": 51000, "label": "Ann"}]}]}),
        json!({"type": "bubble", "data": [{"points": [{"x": 1, "y": 2, "size": 30}]}]}),
        json!({"type": "gauge", "unit": "%", "min": 0, "max": 100, "data": [{"label": "CPU", "values": [72]}]}),
        // Old params, unchanged.
        json!({"type": "line", "labels": ["Mon", "Tue"], "data": [{"label": "Max", "values": [31.5, 33.1], "color": "#ef4444"}]}),
        json!({"type": "bar", "labels": ["Q1"], "datasets": [{"label": "Free", "values": [12]}]}),
    ] {
        let shown = h.ok("widget_display", display(params.clone()));
        assert_eq!(shown["data"], params, "kept as given");
    }
    assert_eq!(h.canvas.len(), 7);
}

#[test]
fn mistakes_in_the_new_fields_name_their_path() {
    let h = Harness::new();
    let error = h.err("widget_display", display(json!({"type": "bubble", "data": [{"points": [{"x": 1}]}]})));
    assert_eq!(error["error"], "Validation failed");
    assert!(details(&error).iter().any(|(path, message)| path == "/data/0/points/0/y" && message.contains("\"y\"")), "{error}");

    let error = h.err("widget_display", display(json!({"labels": ["a"], "data": [{"values": [1], "axis": "top"}]})));
    assert!(details(&error).iter().any(|(path, _)| path == "/data/0/axis"), "{error}");

    let error = h.err("widget_display", display(json!({"type": "radar", "data": [{"values": [1]}]})));
    assert!(details(&error).iter().any(|(path, _)| path == "/type"), "{error}");

    // A series needs values or points.
    let error = h.err("widget_display", display(json!({"type": "scatter", "data": [{"label": "empty"}]})));
    assert!(details(&error).iter().any(|(path, _)| path.starts_with("/data/0")), "{error}");
    assert_eq!(h.canvas.len(), 0, "nothing was added");
}
