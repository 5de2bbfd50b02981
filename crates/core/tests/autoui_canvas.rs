//! The `canvas` tool and `AutoUi::update_block`: list, update (merge + re-validate), move and
//! resize in grid units, style through the allow-list, remove and clear. Each answers with the
//! post-state of what it touched; unknown ids list the existing ones; every change goes through
//! `CanvasPort::apply` with the caller's origin.

mod common;

use autoui_core::autoui::AutoUi;
use autoui_core::autoui::error::AutoUiError;
use autoui_core::canvas::op::Op;
use autoui_core::ids::BlockId;
use autoui_core::tool::Origin;
use common::autoui_server::{Harness, agent};
use serde_json::{Value, json};

fn canvas(action: &str, id: &str, params: Value) -> Value {
    json!({ "action": action, "id": id, "params": params })
}

fn stat_card(h: &Harness) -> String {
    h.show(
        "stat-card",
        json!({"label": "Revenue", "value": "142.3", "unit": "k€", "variant": "success"}),
    )
}

#[test]
fn list_shows_every_widget_with_its_type_layout_and_summary() {
    let h = Harness::new();
    let card = stat_card(&h);
    let table = h.show(
        "data-table",
        json!({"title": "Cities", "rows": [{"city": "Lyon"}]}),
    );
    let listed = h.ok("canvas", json!({"action": "list"}));
    assert_eq!(
        listed["widgets"],
        json!([
            {"id": card, "type": "stat-card", "layout": {"x": 0, "y": 0, "width": 3, "height": 2}, "summary": "Revenue: 142.3 k€"},
            {"id": table, "type": "data-table", "layout": {"x": 0, "y": 2, "width": 12, "height": 6}, "summary": "Cities"}
        ])
    );
}

/// The per-widget WebMCP tools are described by the name: a KPI's new value must not change it (its
/// tools would be registered anew on every refresh), a new label must.
#[test]
fn a_widgets_name_leaves_out_a_kpis_value_and_follows_its_label() {
    let h = Harness::new();
    let card = stat_card(&h);
    let table = h.show("data-table", json!({"title": "Cities", "rows": [{"city": "Lyon"}]}));
    assert_eq!(AutoUi::name(&h.block(&card)), "Revenue");
    assert_eq!(AutoUi::name(&h.block(&table)), "Cities", "a widget without a value is named as summarised");

    h.ok("canvas", canvas("update", &card, json!({"data": {"value": "151.0"}})));
    assert_eq!(AutoUi::summary(&h.block(&card)), "Revenue: 151.0 k€");
    assert_eq!(AutoUi::name(&h.block(&card)), "Revenue");
    h.ok("canvas", canvas("update", &card, json!({"data": {"label": "Net revenue"}})));
    assert_eq!(AutoUi::name(&h.block(&card)), "Net revenue");
}

#[test]
fn update_merges_the_fields_given_and_returns_the_new_state() {
    let h = Harness::new();
    let id = stat_card(&h);
    let updated = h.ok(
        "canvas",
        canvas(
            "update",
            &id,
            json!({"data": {"value": "151.0", "delta": "+6%"}}),
        ),
    );
    let expected = json!({"label": "Revenue", "value": "151.0", "unit": "k€", "variant": "success", "delta": "+6%"});
    assert_eq!(updated["widget"]["data"], expected);
    assert_eq!(*h.block(&id).data, expected);
    assert!(
        matches!(h.canvas.log().last(), Some((Op::Update { .. }, origin)) if *origin == agent("toolu_test"))
    );
}

#[test]
fn an_update_cannot_leave_a_widget_invalid() {
    let h = Harness::new();
    let id = stat_card(&h);
    let before = h.block(&id).data;
    let error = h.err(
        "canvas",
        canvas("update", &id, json!({"data": {"variant": "purple"}})),
    );
    assert_eq!(error["error"], "Validation failed");
    assert_eq!(error["widget"], "stat-card");
    assert_eq!(error["id"], id.as_str());
    assert_eq!(error["details"][0]["path"], "/variant");
    assert!(error["expected_schema"].is_object());
    assert_eq!(h.block(&id).data, before);
}

#[test]
fn update_repairs_the_patch_like_widget_display() {
    let h = Harness::new();
    let id = stat_card(&h);
    let updated = h.ok(
        "canvas",
        canvas(
            "update",
            &id,
            json!({"data": {"value": 160, "variant": "Warning", "unit": null}}),
        ),
    );
    assert_eq!(
        updated["widget"]["data"],
        json!({"label": "Revenue", "value": "160", "variant": "warning"})
    );
    assert_eq!(
        updated["repairs"].as_array().unwrap().len(),
        3,
        "{}",
        updated["repairs"]
    );
}

#[test]
fn an_update_with_an_undocumented_field_drops_it_and_applies_the_rest() {
    let h = Harness::new();
    let id = stat_card(&h);
    let updated = h.ok(
        "canvas",
        canvas(
            "update",
            &id,
            json!({"data": {"value": "150", "icon": "📈"}}),
        ),
    );
    assert_eq!(updated["widget"]["data"]["value"], "150");
    assert!(updated["widget"]["data"].get("icon").is_none());
    assert_eq!(
        updated["repairs"],
        json!(["/icon: dropped unknown field `icon` (stat-card has no such field)"])
    );
    assert!(h.block(&id).data.get("icon").is_none());
}

#[test]
fn update_accepts_the_fields_directly_in_params_and_says_so() {
    let h = Harness::new();
    let id = stat_card(&h);
    let updated = h.ok("canvas", canvas("update", &id, json!({"value": "99"})));
    assert_eq!(updated["widget"]["data"]["value"], "99");
    assert_eq!(
        updated["repairs"],
        json!(["params: params had no \"data\" object; params itself was merged"])
    );

    let chart = h.show(
        "chart-rich",
        json!({"labels": ["a"], "data": [{"values": [1]}]}),
    );
    let updated = h.ok(
        "canvas",
        canvas("update", &chart, json!({"data": [{"values": [5]}]})),
    );
    assert_eq!(
        updated["widget"]["data"]["data"],
        json!([{"values": [5]}]),
        "a chart's own data array is a field"
    );
}

#[test]
fn update_block_is_the_same_path_for_page_tools_and_ui_edits() {
    let h = Harness::new();
    let id = BlockId::new(stat_card(&h));
    let updated =
        h.ui.update_block(&id, json!({"value": "7"}), Origin::ExternalAgent)
            .unwrap();
    assert_eq!(updated.block.data["value"], "7");
    assert_eq!(h.canvas.log().last().unwrap().1, Origin::ExternalAgent);

    let error =
        h.ui.update_block(&id, json!({"trend": "sideways"}), Origin::User)
            .unwrap_err();
    assert!(matches!(error, AutoUiError::Invalid { .. }));
    assert_eq!(error.to_json()["error"], "Validation failed");
    let error =
        h.ui.update_block(&BlockId::new("w_nope"), json!({}), Origin::User)
            .unwrap_err();
    assert_eq!(error.to_json()["existing_ids"], json!([id]));
}

#[test]
fn move_takes_grid_units_as_numbers_or_numeric_text() {
    let h = Harness::new();
    let id = stat_card(&h);
    let moved = h.ok("canvas", canvas("move", &id, json!({"x": 6, "y": "0"})));
    assert_eq!(
        moved["widget"]["layout"],
        json!({"x": 6, "y": 0, "width": 3, "height": 2})
    );
    assert!(moved.get("adjusted").is_none());
    assert!(matches!(
        h.canvas.log().last(),
        Some((Op::Move { x: 6, y: 0, .. }, _))
    ));
}

#[test]
fn css_lengths_are_refused_with_the_grid_units_explained() {
    let h = Harness::new();
    let id = stat_card(&h);
    for params in [
        json!({"x": "400px", "y": 0}),
        json!({"x": -1}),
        json!({"x": 2.5}),
    ] {
        let error = h.err("canvas", canvas("move", &id, params.clone()));
        let message = error["error"].as_str().unwrap();
        assert!(
            message.starts_with("x must be a whole number of grid units"),
            "{params}: {message}"
        );
        assert!(
            message.contains("12 columns") && message.contains("\"400px\" do not apply"),
            "{message}"
        );
    }
    let error = h.err("canvas", canvas("resize", &id, json!({"width": "50%"})));
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .starts_with("width must be a whole number of grid units, at least 1")
    );
    let error = h.err("canvas", canvas("move", &id, json!({})));
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .starts_with("move needs \"x\" and/or \"y\"")
    );
}

#[test]
fn resize_takes_width_and_height_and_reports_what_the_grid_allowed() {
    let h = Harness::new();
    let id = stat_card(&h);
    let resized = h.ok(
        "canvas",
        canvas("resize", &id, json!({"width": "6", "h": 4})),
    );
    assert_eq!(
        resized["widget"]["layout"],
        json!({"x": 0, "y": 0, "width": 6, "height": 4})
    );

    let resized = h.ok("canvas", canvas("resize", &id, json!({"width": 20})));
    assert_eq!(resized["widget"]["layout"]["width"], 12);
    assert!(
        resized["adjusted"]
            .as_str()
            .unwrap()
            .starts_with("asked x 0 y 0 width 20 height 4;"),
        "{}",
        resized["adjusted"]
    );
}

#[test]
fn widgets_pushed_aside_are_reported() {
    let h = Harness::new();
    let first = stat_card(&h);
    let second = h.show("stat", json!({"label": "Users", "value": "3"}));
    assert_eq!(h.block(&second).layout.x, 3);
    let moved = h.ok("canvas", canvas("move", &first, json!({"x": 3, "y": 0})));
    assert_eq!(
        moved["pushed"],
        json!([{"id": second, "layout": {"x": 3, "y": 2, "width": 3, "height": 2}}])
    );
}

#[test]
fn style_applies_allowed_properties_and_reports_refused_ones() {
    let h = Harness::new();
    let id = stat_card(&h);
    let styled = h.ok(
        "canvas",
        canvas("style", &id, json!({"styles": {"backgroundColor": "#0f172a", "color": "#f8fafc", "position": "fixed"}})),
    );
    assert_eq!(
        styled["widget"]["style"],
        json!({"background-color": "#0f172a", "color": "#f8fafc"})
    );
    assert_eq!(styled["rejected"].as_array().unwrap().len(), 1);
    assert!(
        styled["rejected"][0]
            .as_str()
            .unwrap()
            .starts_with("\"position\" is not an allowed style property")
    );

    let styled = h.ok(
        "canvas",
        canvas("style", &id, json!({"border-radius": 12, "color": null})),
    );
    assert_eq!(
        styled["widget"]["style"],
        json!({"background-color": "#0f172a", "border-radius": "12px"})
    );
}

#[test]
fn a_style_with_nothing_acceptable_is_an_error_and_changes_nothing() {
    let h = Harness::new();
    let id = stat_card(&h);
    let error = h.err(
        "canvas",
        canvas(
            "style",
            &id,
            json!({"styles": {"background": "url(https://evil.org/x.png)"}}),
        ),
    );
    assert_eq!(
        error["error"],
        "no style was applied: every declaration was refused"
    );
    assert_eq!(
        error["rejected"][0],
        "the value of background contains \"url(\", which is not allowed in styles"
    );
    assert!(h.block(&id).style.is_empty());
}

#[test]
fn remove_and_clear_report_the_removed_ids() {
    let h = Harness::new();
    let first = stat_card(&h);
    let second = stat_card(&h);
    let third = stat_card(&h);
    let removed = h.ok("canvas", canvas("remove", &first, json!({})));
    assert_eq!(
        removed,
        json!({"action": "remove", "removed": [first], "remaining": 2})
    );
    let cleared = h.ok("canvas", json!({"action": "clear"}));
    assert_eq!(
        cleared,
        json!({"action": "clear", "removed": [second, third], "widgets": []})
    );
    assert_eq!(h.canvas.len(), 0);
}

#[test]
fn an_unknown_id_lists_the_existing_ids() {
    let h = Harness::new();
    let id = stat_card(&h);
    for action in ["update", "move", "resize", "style", "remove"] {
        let error = h.err(
            "canvas",
            canvas(action, "w_zzzzzz", json!({"x": 1, "data": {"value": "1"}})),
        );
        assert_eq!(
            error["error"], "no widget with id \"w_zzzzzz\" on the canvas",
            "{action}"
        );
        assert_eq!(error["existing_ids"], json!([id]), "{action}");
    }
    let error = h.err("canvas", json!({"action": "move", "params": {"x": 1}}));
    assert_eq!(error["error"], "\"id\" is required for the move action");
    assert_eq!(error["existing_ids"], json!([id]));
}

#[test]
fn on_an_empty_canvas_the_error_says_so() {
    let h = Harness::new();
    let error = h.err("canvas", canvas("remove", "w_a3f2k9", json!({})));
    assert_eq!(error["existing_ids"], json!([]));
    assert_eq!(
        error["hint"],
        "the canvas is empty; create widgets with widget_display"
    );
}

#[test]
fn an_unknown_action_lists_the_actions() {
    let h = Harness::new();
    let error = h.err("canvas", json!({"action": "delete", "id": "w_1"}));
    assert_eq!(
        error["error"],
        "unknown canvas action string \"delete\"; use one of: list, update, move, resize, style, remove, clear"
    );
}

#[test]
fn flat_arguments_beside_action_count_as_params() {
    let h = Harness::new();
    let id = stat_card(&h);
    let moved = h.ok(
        "canvas",
        json!({"action": "MOVE", "id": id, "x": 4, "y": 1}),
    );
    assert_eq!(moved["widget"]["layout"]["x"], 4);
}

#[test]
fn summaries_name_a_block_by_title_label_or_text() {
    let h = Harness::new();
    let cases = [
        (
            "stat",
            json!({"label": "Users", "value": "3.2K"}),
            "Users: 3.2K",
        ),
        (
            "kv",
            json!({"title": "Bill no. 1234", "rows": []}),
            "Bill no. 1234",
        ),
        ("profile", json!({"name": "Claire Dubois"}), "Claire Dubois"),
        (
            "text",
            json!({"content": "\n## Highlights\n- growth"}),
            "Highlights",
        ),
        ("chart", json!({"bars": []}), "untitled chart"),
    ];
    for (name, params, summary) in cases {
        let id = h.show(name, params);
        assert_eq!(AutoUi::summary(&h.block(&id)), summary);
    }
    let long = "x".repeat(200);
    let id = h.show("alert", json!({"title": long}));
    assert_eq!(AutoUi::summary(&h.block(&id)).chars().count(), 80);
}

// ---------------------------------------------------------------------------------------------
// vega-lite: a live chart's new rows

fn sales_chart(h: &Harness) -> String {
    h.show(
        "vega-lite",
        json!({"data": {"name": "sales", "values": [{"day": "2024-03-01", "n": "4"}], "format": {"parse": {"n": "number"}}},
               "mark": "line",
               "encoding": {"x": {"field": "day", "type": "temporal"}, "y": {"field": "n", "type": "quantitative"}}}),
    )
}

fn three_rows() -> Value {
    json!([{"day": "2024-03-01", "n": "4"}, {"day": "2024-03-02", "n": "7"}, {"day": "2024-03-03", "n": "5"}])
}

#[test]
fn a_vega_lite_update_of_values_alone_replaces_the_rows_and_keeps_the_rest_of_data() {
    let h = Harness::new();
    let id = sales_chart(&h);
    // The call as the recipe gives it.
    let updated = h.ok("canvas", json!({"action": "update", "id": id, "data": {"values": three_rows()}}));
    assert!(updated.get("repairs").is_none(), "{updated}");
    let chart = h.block(&id).data;
    assert_eq!(chart["data"]["values"], three_rows());
    assert_eq!(chart["data"]["format"], json!({"parse": {"n": "number"}}));
    assert_eq!(chart["data"]["name"], "sales");
    assert_eq!(chart["mark"], "line");
    assert!(chart.get("values").is_none());
}

#[test]
fn a_vega_lite_update_of_data_with_values_alone_keeps_its_format_and_name() {
    let h = Harness::new();
    let id = sales_chart(&h);
    h.ok("canvas", canvas("update", &id, json!({"data": {"data": {"values": three_rows()}}})));
    let data = &h.block(&id).data["data"];
    assert_eq!(data["values"], three_rows());
    assert_eq!(data["format"], json!({"parse": {"n": "number"}}));
    assert_eq!(data["name"], "sales");
    // A data given with more than its rows is a new data object.
    h.ok("canvas", canvas("update", &id, json!({"data": {"data": {"values": three_rows(), "format": {"type": "json"}}}})));
    assert_eq!(h.block(&id).data["data"], json!({"values": three_rows(), "format": {"type": "json"}}));
}

#[test]
fn vega_lite_rows_for_a_chart_without_inline_rows_are_refused_and_change_nothing() {
    let h = Harness::new();
    let map = h.show("vega-lite", json!({"data": {"name": "world-110m"}, "mark": "geoshape"}));
    let before = h.block(&map).data;
    let error = h.err("canvas", json!({"action": "update", "id": map, "data": {"values": three_rows()}}));
    assert_eq!(error["error"], "Validation failed");
    assert_eq!(error["widget"], "vega-lite");
    assert_eq!(error["id"], map.as_str());
    assert_eq!(error["details"][0]["path"], "/data");
    let message = error["details"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("data.name \"world-110m\"") && message.contains("no data.values to replace")
            && message.contains("get_recipe \"vega-lite\""),
        "{message}"
    );
    assert_eq!(h.block(&map).data, before);

    let sequence = h.show(
        "vega-lite",
        json!({"data": {"sequence": {"start": 0, "stop": 10, "as": "x"}}, "mark": "tick",
               "encoding": {"x": {"field": "x", "type": "quantitative"}}}),
    );
    let before = h.block(&sequence).data;
    let error = h.err("canvas", canvas("update", &sequence, json!({"data": {"data": {"values": three_rows()}}})));
    assert!(error["details"][0]["message"].as_str().unwrap().contains("draws a data.sequence"), "{error}");
    assert_eq!(h.block(&sequence).data, before);
}
