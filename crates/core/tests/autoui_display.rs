//! `widget_display`: a widget named (or legacy-named) by the model is repaired, sanitised,
//! validated against its recipe's schema and added to the canvas through `CanvasPort::apply` with
//! the call's origin; the result says what was rendered, where, and what was fixed or dropped.
//! Failures are error results of the exact shape the model learns from.

mod common;

use autoui_core::canvas::op::Op;
use autoui_core::widget_kind::WidgetKind;
use common::Counter;
use common::autoui_server::{Harness, agent};
use serde_json::{Value, json};

fn display(name: &str, params: Value) -> Value {
    json!({ "name": name, "params": params })
}

#[test]
fn a_valid_widget_is_added_and_the_result_says_what_was_rendered_and_where() {
    let h = Harness::new();
    let params = json!({"label": "Uptime", "value": "99.9", "unit": "%", "variant": "success"});
    let shown = h.ok("widget_display", display("stat-card", params.clone()));

    assert_eq!(shown["widget"], "stat-card");
    assert_eq!(shown["data"], params);
    assert_eq!(
        shown["layout"],
        json!({"x": 0, "y": 0, "width": 3, "height": 2})
    );
    assert!(shown.get("repairs").is_none() && shown.get("dropped").is_none());

    let id = shown["id"].as_str().unwrap();
    assert!(
        id.starts_with("w_") && id.len() == 8 && id[2..].chars().all(|c| c.is_ascii_alphanumeric()),
        "{id}"
    );
    let block = h.block(id);
    assert_eq!(block.kind, WidgetKind::StatCard);
    assert_eq!(*block.data, params);
}

#[test]
fn the_block_is_added_through_the_canvas_port_with_the_calls_origin() {
    let h = Harness::new();
    h.show("stat", json!({"label": "Users", "value": "3.2K"}));
    let log = h.canvas.log();
    assert_eq!(log.len(), 1);
    assert!(matches!(
        &log[0].0,
        Op::Add {
            kind: WidgetKind::Stat,
            layout: None,
            ..
        }
    ));
    assert_eq!(log[0].1, agent("toolu_test"));
}

#[test]
fn widgets_get_distinct_ids_and_a_taken_id_is_drawn_again() {
    let h = Harness::with_random(Counter::repeating(7, 1));
    let first = h.show("stat", json!({"label": "a", "value": "1"}));
    let second = h.show("stat", json!({"label": "b", "value": "2"}));
    assert_ne!(first, second);
    assert_eq!(h.canvas.len(), 2);
}

#[test]
fn legacy_render_names_and_loose_spellings_resolve_to_the_wire_name() {
    let h = Harness::new();
    for name in ["render_stat_card", "stat_card", "Stat-Card"] {
        let shown = h.ok(
            "widget_display",
            display(name, json!({"label": "Revenue", "value": "$142K"})),
        );
        assert_eq!(shown["widget"], "stat-card", "{name}");
    }
}

#[test]
fn an_unknown_widget_is_an_error_naming_the_closest_widgets() {
    let h = Harness::new();
    let error = h.err("widget_display", display("pie-chart", json!({})));
    assert_eq!(error["error"], "no widget named \"pie-chart\"");
    let closest: Vec<&str> = error["closest"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        closest.contains(&"chart-rich") && closest.contains(&"chart"),
        "{closest:?}"
    );
    assert_eq!(h.canvas.len(), 0);
}

#[test]
fn a_validation_failure_has_the_documented_shape_and_changes_nothing() {
    let h = Harness::new();
    let error = h.err("widget_display", display("stat", json!({"valeur": "42"})));
    let keys: Vec<&String> = error.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["details", "error", "expected_schema", "repairs", "widget"]
    );
    assert_eq!(error["error"], "Validation failed");
    assert_eq!(error["widget"], "stat");
    assert_eq!(
        error["expected_schema"]["required"],
        json!(["label", "value"])
    );
    let details = error["details"].as_array().unwrap();
    assert!(
        details.contains(
            &json!({"path": "/label", "message": "required property \"label\" is missing"})
        )
    );
    assert!(
        details.contains(
            &json!({"path": "/value", "message": "required property \"value\" is missing"})
        )
    );
    assert_eq!(
        details.len(),
        2,
        "the unknown field is a repair, not a failure: {details:?}"
    );
    assert_eq!(
        error["repairs"],
        json!(["/valeur: dropped unknown field `valeur` (stat has no such field)"])
    );
    assert_eq!(h.canvas.len(), 0);
    assert!(h.canvas.log().is_empty());
}

fn messages(error: &Value) -> Vec<(String, String)> {
    error["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["path"].as_str().unwrap().to_owned(),
                d["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_wrong_type_says_what_was_expected_and_what_came() {
    let h = Harness::new();
    let error = h.err("widget_display", display("list", json!({"items": 42})));
    assert_eq!(
        messages(&error),
        [(
            "/items".to_owned(),
            "expected array, got number 42 (The items, one line of text each)".to_owned()
        )]
    );
}

#[test]
fn a_gauge_whose_range_does_not_rise_is_refused_at_its_max() {
    let h = Harness::new();
    let gauge = |range: Value| {
        let mut params = json!({"title": "Disk", "type": "gauge", "data": [{"label": "/var", "values": [72]}]});
        params.as_object_mut().unwrap().extend(range.as_object().unwrap().clone());
        display("chart-rich", params)
    };
    let error = h.err("widget_display", gauge(json!({"min": 100, "max": 0})));
    let found = messages(&error);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "/max");
    assert!(found[0].1.contains("max above min (min 100, max 0)"), "{found:?}");
    // Only max given, under the default min of 0.
    assert_eq!(messages(&h.err("widget_display", gauge(json!({"max": -5}))))[0].0, "/max");
    h.ok("widget_display", gauge(json!({"min": -20, "max": 40})));
}

#[test]
fn a_value_outside_an_enum_lists_the_allowed_values() {
    let h = Harness::new();
    let error = h.err(
        "widget_display",
        display("alert", json!({"title": "Disk full", "level": "critical"})),
    );
    assert_eq!(
        messages(&error),
        [(
            "/level".to_owned(),
            "string \"critical\" is not allowed; use one of: \"info\", \"warn\", \"error\""
                .to_owned()
        )]
    );
}

#[test]
fn an_array_item_of_the_wrong_shape_is_pointed_at_with_its_expected_shape() {
    let h = Harness::new();
    let error = h.err(
        "widget_display",
        display(
            "chart",
            json!({"bars": [["Jan", 10], {"label": "Feb", "value": 20}]}),
        ),
    );
    assert_eq!(
        messages(&error),
        [("/bars/1".to_owned(), "expected array, got object {label, value} (a [label, value] pair, e.g. [\"Jan\", 320])".to_owned())]
    );
}

#[test]
fn params_passed_flat_beside_the_name_are_moved_under_params() {
    let h = Harness::new();
    let shown = h.ok(
        "widget_display",
        json!({"name": "stat", "label": "Total", "value": "42"}),
    );
    assert_eq!(shown["data"], json!({"label": "Total", "value": "42"}));
    assert_eq!(
        shown["repairs"],
        json!(["params: params were passed beside \"name\"; moved under \"params\""])
    );
}

#[test]
fn params_given_as_json_text_are_parsed() {
    let h = Harness::new();
    let shown = h.ok(
        "widget_display",
        json!({"name": "stat", "params": "{\"label\": \"Total\", \"value\": \"42\"}"}),
    );
    assert_eq!(shown["data"], json!({"label": "Total", "value": "42"}));
    assert_eq!(shown["repairs"], json!(["params: JSON text parsed"]));
    let error = h.err(
        "widget_display",
        json!({"name": "stat", "params": "label=Total"}),
    );
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .starts_with("\"params\" must be an object")
    );
}

#[test]
fn numbers_given_as_text_and_text_given_as_numbers_are_converted() {
    let h = Harness::new();
    let shown = h.ok(
        "widget_display",
        display("chart", json!({"bars": [["Jan", "320"], ["Feb", 410]]})),
    );
    assert_eq!(shown["data"]["bars"], json!([["Jan", 320], ["Feb", 410]]));
    assert_eq!(
        shown["repairs"],
        json!(["/bars/0/1: string \"320\" converted to number 320"])
    );

    let shown = h.ok(
        "widget_display",
        display("stat-card", json!({"label": "Orders", "value": 1204})),
    );
    assert_eq!(shown["data"]["value"], "1204");
    assert_eq!(
        shown["repairs"],
        json!(["/value: number 1204 converted to string \"1204\""])
    );
}

#[test]
fn booleans_given_as_text_are_converted() {
    let h = Harness::new();
    let shown = h.ok(
        "widget_display",
        display("data-table", json!({"rows": [{"a": 1}], "compact": "true"})),
    );
    assert_eq!(shown["data"]["compact"], true);
}

#[test]
fn a_single_object_where_a_list_is_expected_is_wrapped() {
    let h = Harness::new();
    let shown = h.ok(
        "widget_display",
        display(
            "timeline",
            json!({"events": {"title": "Filed", "status": "done"}}),
        ),
    );
    assert_eq!(
        shown["data"]["events"],
        json!([{"title": "Filed", "status": "done"}])
    );
    assert_eq!(
        shown["repairs"],
        json!(["/events: single value wrapped in an array"])
    );
}

#[test]
fn enum_values_in_the_wrong_case_are_fixed() {
    let h = Harness::new();
    let shown = h.ok(
        "widget_display",
        display(
            "stat-card",
            json!({"label": "Uptime", "value": "99.9", "variant": "Success"}),
        ),
    );
    assert_eq!(shown["data"]["variant"], "success");
    assert_eq!(
        shown["repairs"],
        json!(["/variant: \"Success\" replaced by \"success\""])
    );
}

#[test]
fn snake_case_keys_are_renamed_to_the_declared_camel_case() {
    let h = Harness::new();
    let shown = h.ok(
        "widget_display",
        display(
            "stat-card",
            json!({"label": "Sales", "value": "9", "previous_value": "7"}),
        ),
    );
    assert_eq!(
        shown["data"],
        json!({"label": "Sales", "value": "9", "previousValue": "7"})
    );
}

#[test]
fn an_undocumented_field_is_dropped_and_reported_and_the_widget_renders() {
    let h = Harness::new();
    let shown = h.ok(
        "widget_display",
        display(
            "stat-card",
            json!({"label": "Revenue", "value": "142.3", "icon": "💰"}),
        ),
    );
    assert_eq!(shown["data"], json!({"label": "Revenue", "value": "142.3"}));
    assert_eq!(
        shown["repairs"],
        json!(["/icon: dropped unknown field `icon` (stat-card has no such field)"])
    );
    let id = shown["id"].as_str().unwrap();
    assert_eq!(
        *h.block(id).data,
        json!({"label": "Revenue", "value": "142.3"})
    );
}

#[test]
fn undocumented_fields_deep_in_the_params_are_dropped_without_touching_declared_data() {
    let h = Harness::new();
    let groups = json!([
        {"id": "SD", "label": "Social Democrats", "seats": 112, "leader": "A. Varga"},
        {"id": "CON", "label": "Conservatives", "seats": 98, "leader": "M. Holt"}
    ]);
    let shown = h.ok(
        "widget_display",
        display(
            "hemicycle",
            json!({"groups": groups, "totalSeats": 210, "majority": 106}),
        ),
    );
    assert_eq!(
        shown["data"],
        json!({"groups": [
            {"id": "SD", "label": "Social Democrats", "seats": 112},
            {"id": "CON", "label": "Conservatives", "seats": 98}
        ], "totalSeats": 210})
    );
    assert_eq!(
        shown["repairs"],
        json!([
            "/majority: dropped unknown field `majority` (hemicycle has no such field)",
            "/groups/*/leader: dropped unknown field `leader` (hemicycle has no such field there) (2 values)"
        ])
    );
}

#[test]
fn repairs_never_invent_missing_data() {
    let h = Harness::new();
    let error = h.err(
        "widget_display",
        display(
            "hemicycle",
            json!({"groups": [{"id": "A", "label": "Group A"}]}),
        ),
    );
    assert_eq!(
        messages(&error),
        [(
            "/groups/0/seats".to_owned(),
            "required property \"seats\" is missing".to_owned()
        )]
    );
}

#[test]
fn invented_image_urls_are_dropped_and_reported_so_the_widget_falls_back() {
    let h = Harness::new();
    let shown = h.ok(
        "widget_display",
        display(
            "profile",
            json!({"name": "Alice Martin", "avatar": {"src": "portrait-alice.jpg"}}),
        ),
    );
    assert_eq!(shown["data"], json!({"name": "Alice Martin"}));
    let dropped = &shown["dropped"][0];
    assert_eq!(dropped["path"], "/avatar");
    assert_eq!(dropped["value"], "\"portrait-alice.jpg\"");
    assert!(
        dropped["reason"]
            .as_str()
            .unwrap()
            .starts_with("relative file name")
    );
    assert!(
        h.block(shown["id"].as_str().unwrap())
            .data
            .get("avatar")
            .is_none()
    );
}

#[test]
fn placeholder_and_script_urls_are_dropped_at_any_depth() {
    let h = Harness::new();
    let shown = h.ok(
        "widget_display",
        display(
            "trombinoscope",
            json!({"people": [
                {"name": "Bob", "avatar": "https://via.placeholder.com/150"},
                {"name": "Eve", "avatar": "javascript:alert(1)"},
                {"name": "Ann", "avatar": "https://upload.wikimedia.org/ann.jpg"}
            ]}),
        ),
    );
    assert_eq!(
        shown["data"]["people"],
        json!([
            {"name": "Bob"}, {"name": "Eve"}, {"name": "Ann", "avatar": "https://upload.wikimedia.org/ann.jpg"}
        ])
    );
    let paths: Vec<&str> = shown["dropped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["/people/0/avatar", "/people/1/avatar"]);
}

#[test]
fn links_with_script_schemes_are_dropped() {
    let h = Harness::new();
    let shown = h.ok(
        "widget_display",
        display(
            "cards",
            json!({"cards": [{"title": "x", "href": "javascript:steal()"}]}),
        ),
    );
    assert_eq!(shown["data"]["cards"], json!([{"title": "x"}]));
    assert_eq!(shown["dropped"][0]["path"], "/cards/0/href");
}

#[test]
fn a_gallery_image_whose_only_url_was_invented_fails_with_the_reason() {
    let h = Harness::new();
    let error = h.err(
        "widget_display",
        display(
            "gallery",
            json!({"images": [{"src": "photo1.jpg", "caption": "Sunset"}]}),
        ),
    );
    assert_eq!(error["error"], "Validation failed");
    assert_eq!(
        messages(&error),
        [(
            "/images/0/src".to_owned(),
            "required property \"src\" is missing".to_owned()
        )]
    );
    assert_eq!(error["dropped"][0]["path"], "/images/0/src");
    assert_eq!(h.canvas.len(), 0);
}

#[test]
fn the_json_viewer_shows_its_data_verbatim() {
    let h = Harness::new();
    let data = json!({"user": {"avatar": "me.png", "href": "javascript:x"}});
    let shown = h.ok(
        "widget_display",
        display("json-viewer", json!({"data": data.clone()})),
    );
    assert_eq!(shown["data"]["data"], data);
}

#[test]
fn a_large_table_is_stored_whole_but_echoed_shortened() {
    let h = Harness::new();
    let rows: Vec<Value> = (0..1000)
        .map(|i| json!({"id": i, "name": format!("row {i}")}))
        .collect();
    let shown = h.ok(
        "widget_display",
        display("data-table", json!({"title": "Big", "rows": rows})),
    );
    assert_eq!(shown["data"]["rows"].as_array().unwrap().len(), 3);
    assert_eq!(
        shown["data_elided"],
        json!(["/rows: first 3 of 1000 items shown; the widget has all of them"])
    );
    let block = h.block(shown["id"].as_str().unwrap());
    assert_eq!(block.data["rows"].as_array().unwrap().len(), 1000);
}

#[test]
fn malformed_calls_get_a_usage_error() {
    let h = Harness::new();
    let error = h.err("widget_display", json!({"params": {}}));
    assert_eq!(
        error["error"],
        "\"name\" is missing; widget_display takes {\"name\": \"<widget>\", \"params\": {...}}"
    );
    let error = h.err("widget_display", json!(["stat"]));
    assert!(
        error["error"]
            .as_str()
            .unwrap()
            .starts_with("widget_display takes")
    );
    let error = h.err("widget_display", json!({"name": "stat", "params": [1, 2]}));
    assert_eq!(
        error["error"],
        "\"params\" must be an object, got array of 2 item(s). widget_display takes {\"name\": \"<widget>\", \"params\": {...}}"
    );
}

// ---------------------------------------------------------------------------------------------
// vega-lite: the spec's own checks, and the chart engine's verdict (a scripted engine stands for
// the page's vega-lite; the real one is exercised in tests/web_vega_lite.rs)

/// Refuses an expression cut short and warns about a `size` channel, in vega's and Vega-Lite's words.
struct ScriptedEngine;

impl autoui_core::ports::ChartCompiler for ScriptedEngine {
    fn compile<'a>(
        &'a self,
        spec: &'a Value,
    ) -> futures::future::LocalBoxFuture<'a, Result<autoui_core::ports::ChartVerdict, String>> {
        let mut verdict = autoui_core::ports::ChartVerdict::default();
        if let Some(expression) = spec["transform"][0]["calculate"].as_str().filter(|e| e.ends_with('+')) {
            verdict.errors.push(format!("Expression parse error: {expression}"));
        }
        if spec["encoding"].get("size").is_some() {
            verdict.warnings.push("size dropped as it is incompatible with \"bar\"".to_owned());
        }
        Box::pin(async move { Ok(verdict) })
    }
}

fn with_engine() -> Harness {
    let h = Harness::new();
    Harness { ui: h.ui.with_chart_compiler(std::rc::Rc::new(ScriptedEngine)), ..h }
}

fn bars(expression: &str) -> Value {
    json!({"data": {"values": [{"a": "x", "b": 1}]}, "transform": [{"calculate": expression, "as": "c"}], "mark": "bar",
           "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "c", "type": "quantitative"}}})
}

#[test]
fn a_vega_lite_spec_the_engine_refuses_comes_back_as_a_validation_error_and_adds_nothing() {
    let h = with_engine();
    let error = h.err("widget_display", display("vega-lite", bars("datum.b * 2 +")));
    assert_eq!(error["error"], "Validation failed");
    assert_eq!(error["widget"], "vega-lite");
    let message = error["details"][0]["message"].as_str().unwrap();
    assert!(message.contains("Expression parse error: datum.b * 2 +") && message.contains("get_recipe \"vega-lite\""), "{message}");
    assert!(error["expected_schema"].is_object());
    assert!(h.canvas.log().is_empty(), "nothing was added");
    // The model's fix in one retry.
    let shown = h.ok("widget_display", display("vega-lite", bars("datum.b * 2")));
    assert_eq!(shown["widget"], "vega-lite");
    assert!(shown.get("warnings").is_none());
}

#[test]
fn vega_lite_warnings_come_back_with_the_shown_widget() {
    let h = with_engine();
    let mut spec = bars("datum.b");
    spec["encoding"]["size"] = json!({"field": "b"});
    let shown = h.ok("widget_display", display("vega-lite", spec));
    assert_eq!(shown["warnings"], json!(["size dropped as it is incompatible with \"bar\""]));
}

#[test]
fn an_engine_error_points_at_the_spec_value_it_quotes() {
    let h = with_engine();
    let error = h.err("widget_display", display("vega-lite", bars("datum.a +")));
    assert_eq!(error["details"][0]["path"], "/transform/0/calculate");
}

/// Refuses every spec with the same errors.
struct Refusing(&'static [&'static str]);

impl autoui_core::ports::ChartCompiler for Refusing {
    fn compile<'a>(
        &'a self,
        _spec: &'a Value,
    ) -> futures::future::LocalBoxFuture<'a, Result<autoui_core::ports::ChartVerdict, String>> {
        let errors = self.0.iter().map(|error| (*error).to_owned()).collect();
        Box::pin(async move { Ok(autoui_core::ports::ChartVerdict { errors, warnings: Vec::new() }) })
    }
}

#[test]
fn engine_errors_point_at_what_they_quote_else_the_key_they_name() {
    let h = Harness::new();
    let engine = Refusing(&[
        "Unrecognized function: foo",
        "Unrecognized scale type: \"bogus\"",
        "Projection fit needs a size: projection ignored",
        "Something else went wrong",
    ]);
    let h = Harness { ui: h.ui.with_chart_compiler(std::rc::Rc::new(engine)), ..h };
    let spec = json!({"data": {"values": [{"a": "foo", "b": 1}]}, "transform": [{"filter": "foo(datum.b) > 1"}],
                      "projection": {"type": "mercator"}, "mark": "bar",
                      "encoding": {"x": {"field": "a", "type": "nominal"}, "color": {"field": "b", "scale": {"type": "bogus"}}}});
    let error = h.err("widget_display", display("vega-lite", spec));
    let paths: Vec<&str> = error["details"].as_array().unwrap().iter().map(|d| d["path"].as_str().unwrap()).collect();
    // The row value "foo" is data, not spec: the expression that calls foo is where to look.
    assert_eq!(paths, ["/transform/0/filter", "/encoding/color/scale/type", "/projection", ""]);
}

#[test]
fn a_vega_lite_update_is_compiled_and_an_engine_error_changes_nothing() {
    let h = with_engine();
    let id = h.show("vega-lite", bars("datum.b"));
    let before = h.block(&id).data;
    let broken = json!({"action": "update", "id": id, "data": {"transform": [{"calculate": "datum.b +", "as": "c"}]}});
    let error = h.err("canvas", broken);
    assert_eq!(error["error"], "Validation failed");
    assert_eq!(error["id"], id.as_str());
    assert_eq!(error["details"][0]["path"], "/transform/0/calculate");
    let message = error["details"][0]["message"].as_str().unwrap();
    assert!(message.contains("Expression parse error: datum.b +") && message.contains("get_recipe \"vega-lite\""), "{message}");
    assert_eq!(h.block(&id).data, before);
    assert!(!h.canvas.log().iter().any(|(op, _)| matches!(op, Op::Update { .. })), "nothing was updated");
    // A spec that compiles is applied, with the engine's warnings.
    let sized = json!({"action": "update", "id": id, "data": {"encoding": {"x": {"field": "a", "type": "nominal"}, "size": {"field": "b"}}}});
    let updated = h.ok("canvas", sized);
    assert_eq!(updated["warnings"], json!(["size dropped as it is incompatible with \"bar\""]));
    assert_eq!(h.block(&id).data["encoding"]["size"], json!({"field": "b"}));
}

/// Compiles every spec, and the first time changes the chart's title meanwhile, as another
/// update landing during a compile would.
struct Racing {
    canvas: std::rc::Rc<common::canvas::RecordingCanvas>,
    retitle: std::cell::RefCell<Option<autoui_core::ids::BlockId>>,
}

impl autoui_core::ports::ChartCompiler for Racing {
    fn compile<'a>(
        &'a self,
        _spec: &'a Value,
    ) -> futures::future::LocalBoxFuture<'a, Result<autoui_core::ports::ChartVerdict, String>> {
        use autoui_core::canvas::op::CanvasPort;
        if let Some(id) = self.retitle.borrow_mut().take() {
            let mut data = (*self.canvas.get(&id).unwrap().data).clone();
            data["title"] = json!("Renamed meanwhile");
            self.canvas.apply(Op::Update { id, data: std::sync::Arc::new(data) }, autoui_core::tool::Origin::User).unwrap();
        }
        Box::pin(async { Ok(autoui_core::ports::ChartVerdict::default()) })
    }
}

#[test]
fn a_change_landing_while_an_update_compiles_is_kept() {
    let h = Harness::new();
    let id = h.show("vega-lite", bars("datum.b"));
    let engine = Racing { canvas: h.canvas.clone(), retitle: std::cell::RefCell::new(Some(autoui_core::ids::BlockId::new(&id))) };
    let h = Harness { ui: h.ui.with_chart_compiler(std::rc::Rc::new(engine)), ..h };
    h.ok("canvas", json!({"action": "update", "id": id, "data": {"mark": "point"}}));
    let chart = h.block(&id).data;
    assert_eq!(chart["title"], "Renamed meanwhile");
    assert_eq!(chart["mark"], "point");
}

/// Counts the times it was asked to ready the engine, and what it compiled by then.
struct Preparing {
    prepared: std::rc::Rc<std::cell::Cell<usize>>,
    prepared_before_compile: std::rc::Rc<std::cell::Cell<bool>>,
}

impl autoui_core::ports::ChartCompiler for Preparing {
    fn prepare(&self) {
        self.prepared.set(self.prepared.get() + 1);
    }

    fn compile<'a>(
        &'a self,
        _spec: &'a Value,
    ) -> futures::future::LocalBoxFuture<'a, Result<autoui_core::ports::ChartVerdict, String>> {
        self.prepared_before_compile.set(self.prepared.get() > 0);
        Box::pin(async { Ok(autoui_core::ports::ChartVerdict::default()) })
    }
}

#[test]
fn a_vega_lite_call_readies_the_chart_engine_before_compiling_and_other_widgets_leave_it_alone() {
    let (prepared, before) = Default::default();
    let engine = Preparing { prepared: std::rc::Rc::clone(&prepared), prepared_before_compile: std::rc::Rc::clone(&before) };
    let h = Harness::new();
    let h = Harness { ui: h.ui.with_chart_compiler(std::rc::Rc::new(engine)), ..h };
    h.ok("widget_display", display("alert", json!({"title": "no chart here", "level": "info"})));
    assert_eq!(prepared.get(), 0, "a widget without a chart engine does not load it");
    h.ok("widget_display", display("vega-lite", bars("datum.b")));
    assert_eq!(prepared.get(), 1);
    assert!(before.get(), "the engine was readied before the spec was compiled");
}

#[test]
fn an_unknown_vega_lite_mark_is_named_with_the_marks_there_are() {
    let h = with_engine();
    let error = h.err("widget_display", display("vega-lite", json!({"data": {"values": [{"a": 1}]}, "mark": "bars"})));
    assert_eq!(error["details"][0]["path"], "/mark");
    assert!(error["details"][0]["message"].as_str().unwrap().contains("\"bars\" is not a Vega-Lite mark; use one of arc, area, bar"));
}

#[test]
fn a_vega_lite_data_url_or_too_many_rows_is_refused_at_its_spec_path() {
    let h = with_engine();
    let spec = json!({"layer": [{"data": {"url": "https://evil.test/data.csv"}, "mark": "bar"}]});
    let error = h.err("widget_display", display("vega-lite", spec));
    assert_eq!(error["details"][0]["path"], "/layer/0/data/url");
    assert!(error["details"][0]["message"].as_str().unwrap().contains("refused"));
    let rows: Vec<Value> = (0..200_000).map(|i| json!({"x": i})).collect();
    let error = h.err("widget_display", display("vega-lite", json!({"data": {"values": rows}, "mark": "point"})));
    let details = error["details"].as_array().unwrap();
    assert!(details.iter().any(|d| d["path"] == "/data/values" && d["message"].as_str().unwrap().contains("at most 5000")), "{details:?}");
    assert!(h.canvas.log().is_empty());
}

#[test]
fn another_agent_on_the_page_cannot_place_or_change_an_mcp_apps_view() {
    use autoui_core::cancel::CancelToken;
    use autoui_core::ids::BlockId;
    use autoui_core::tool::{CallContext, LocalServer, Origin};
    use futures::executor::block_on;

    let h = Harness::new();
    let view = json!({"server": "basic", "tool": "get-time", "uri": "ui://get-time/app.html"});
    let outside = CallContext { origin: Origin::ExternalAgent, cancel: CancelToken::new() };
    let refused = block_on(h.ui.call("widget_display", json!({"name": "mcp-app", "params": view}), outside));
    assert!(refused.is_error, "{}", refused.text_content());
    assert!(refused.text_content().contains("another agent cannot place or change an mcp-app view"), "{}", refused.text_content());
    assert!(h.canvas.log().is_empty(), "nothing was placed");

    // The page's own agent places it; another agent still cannot repoint it.
    let id = h.show("mcp-app", view);
    let repointed = h.ui.update_block(&BlockId::new(&id), json!({"uri": "ui://other/app.html"}), Origin::ExternalAgent);
    assert!(repointed.is_err(), "refused");
    assert_eq!(h.block(&id).data["uri"], "ui://get-time/app.html");
    // Its other widgets stay open to it.
    let card = h.show("stat-card", json!({"label": "Users", "value": "3"}));
    assert!(h.ui.update_block(&BlockId::new(&card), json!({"value": "4"}), Origin::ExternalAgent).is_ok());
}
