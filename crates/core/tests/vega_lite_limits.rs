//! A `vega-lite` spec's bounds beyond its inline rows: generated rows (data.sequence, the
//! expression `sequence()`, density, quantile, impute, graticule) count or are refused, rows in
//! text are refused, and nothing the spec holds reaches past the chart (an input bound into the
//! page, an input loading a URL, an image cursor). Each refusal comes with its path in the spec.

use autoui_core::recipes::registry;
use autoui_core::recipes::validate::Detail;
use autoui_core::view::vega_lite::{check, drawn_on_canvas, rows};
use autoui_core::widget_kind::WidgetKind;
use serde_json::{Value, json};

fn paths(details: &[Detail]) -> Vec<&str> {
    details.iter().map(|detail| detail.path.as_str()).collect()
}

/// The one detail `spec` is refused with, at `path`, whose message says each of `says`.
fn refused(spec: Value, path: &str, says: &[&str]) {
    let details = check(&spec);
    assert_eq!(paths(&details), [path], "{spec}: {details:?}");
    for said in says {
        assert!(details[0].message.contains(said), "{said:?} not in {}", details[0].message);
    }
}

fn sequence(start: f64, stop: f64) -> Value {
    json!({"sequence": {"start": start, "stop": stop, "as": "x"}})
}

#[test]
fn a_data_sequence_counts_its_rows_against_the_cap_wherever_it_is() {
    let point = |data: Value| json!({"data": data, "mark": "point", "encoding": {"x": {"field": "x"}}});
    assert!(check(&point(sequence(0.0, 5_000.0))).is_empty());
    assert_eq!(rows(&point(sequence(0.0, 600.0))), 600);
    assert!(drawn_on_canvas(&point(sequence(0.0, 600.0))), "generated rows are drawn like inline ones");
    refused(point(sequence(0.0, 200_000.0)), "/data/sequence", &["200000 rows", "at most 5000"]);
    refused(point(sequence(0.0, 1e9)), "/data/sequence", &["1000000000 rows"]);
    // ceil((stop - start) / step), over every dataset of the spec.
    let stepped = json!({"data": {"sequence": {"start": 0, "stop": 10_000, "step": 2}}, "mark": "point"});
    assert!(check(&stepped).is_empty());
    let spec = json!({"data": {"values": [{"x": 1}]}, "layer": [{"data": sequence(0.0, 5_000.0), "mark": "rule"}]});
    refused(spec, "/layer/0/data/sequence", &["5001 rows"]);
    let lookup = json!({"data": {"values": [{"x": 1}]}, "mark": "point",
        "transform": [{"lookup": "x", "from": {"data": sequence(0.0, 1e6), "key": "x"}}]});
    refused(lookup, "/transform/0/from/data/sequence", &["1000001 rows"]);
    let concat = json!({"hconcat": [{"mark": "point", "data": sequence(0.0, 3e3)}, {"mark": "point", "data": sequence(0.0, 3e3)}]});
    refused(concat, "/hconcat/0/data/sequence", &["6000 rows"]);
    let facet = json!({"data": sequence(0.0, 1e7), "facet": {"field": "x"}, "spec": {"mark": "point"}});
    refused(facet, "/data/sequence", &["10000000 rows"]);
}

#[test]
fn a_data_sequence_that_never_ends_or_is_not_numbers_is_refused() {
    let spec = |sequence: Value| json!({"data": {"sequence": sequence}, "mark": "point"});
    refused(spec(json!({"start": 0, "stop": 10, "step": 0})), "/data/sequence/step", &["never goes from start 0 to stop 10"]);
    refused(spec(json!({"start": 0, "stop": 10, "step": -1})), "/data/sequence/step", &["step -1"]);
    refused(spec(json!({"start": 0, "stop": {"expr": "1e9"}})), "/data/sequence/stop", &["stop must be a number"]);
    refused(spec(json!({"start": 0})), "/data/sequence", &["needs a number stop"]);
}

#[test]
fn rows_given_as_text_or_as_an_object_are_refused_with_how_to_give_them() {
    let csv = json!({"data": {"values": "x\n1\n2", "format": {"type": "csv"}}, "mark": "point"});
    refused(csv, "/data/values", &["data.values must be an array of rows", "CSV, TSV or JSON text"]);
    let json_text = json!({"layer": [{"data": {"values": "[{\"x\": 1}]"}, "mark": "point"}]});
    refused(json_text, "/layer/0/data/values", &["not string \"[{\\\"x\\\": 1}]\""]);
    let object = json!({"data": {"values": {"rows": [{"x": 1}]}, "format": {"property": "rows"}}, "mark": "point"});
    refused(object, "/data/values", &["not object {rows}"]);
    let dataset = json!({"datasets": {"sales": "x,y\n1,2"}, "data": {"name": "sales"}, "mark": "point"});
    refused(dataset, "/datasets/sales", &["a dataset must be an array of rows"]);
}

#[test]
fn the_widget_refuses_rows_in_text_with_its_own_message_not_a_repair() {
    let recipe = registry().get(WidgetKind::VegaLite).unwrap();
    let rejected = recipe.check(json!({"data": {"values": "x\n1"}, "mark": "point"})).unwrap_err();
    assert!(rejected.repairs.is_empty(), "{:?}", rejected.repairs);
    assert!(
        rejected.details.iter().any(|d| d.path == "/data/values" && d.message.contains("must be an array of rows")),
        "{:?}",
        rejected.details
    );
}

#[test]
fn a_graticule_finer_than_a_degree_or_off_the_globe_is_refused() {
    let grid = |graticule: Value| json!({"data": {"graticule": graticule}, "mark": "geoshape"});
    assert!(check(&grid(json!(true))).is_empty());
    assert!(check(&grid(json!({"step": [15, 15], "precision": 2.5, "extent": [[-180, -90], [180, 90]]}))).is_empty());
    refused(grid(json!({"step": [0.01, 0.01]})), "/data/graticule/step", &["each at least 1", "freezes the page"]);
    refused(grid(json!({"stepMinor": [10, 0.5]})), "/data/graticule/stepMinor", &["at least 1"]);
    refused(grid(json!({"stepMajor": 10})), "/data/graticule/stepMajor", &["[longitude, latitude]"]);
    refused(grid(json!({"precision": 0.001})), "/data/graticule/precision", &["at least 1 degree"]);
    refused(grid(json!({"extentMinor": [[-1e7, -80], [1e7, 80]]})), "/data/graticule/extentMinor", &["on the globe"]);
}

#[test]
fn the_expression_sequence_is_refused_however_it_is_written() {
    let calculate = |expression: &str| {
        json!({"data": {"values": [{"a": 1}]}, "mark": "point",
               "transform": [{"calculate": expression, "as": "s"}, {"flatten": ["s"]}]})
    };
    refused(calculate("sequence(0, 1e9)"), "/transform/0/calculate", &["sequence() is refused", "data.sequence"]);
    refused(calculate("length(sequence (0, 1e9))"), "/transform/0/calculate", &["sequence()"]);
    refused(calculate("\\u0073equence(0, 1e9)"), "/transform/0/calculate", &["sequence()"]);
    refused(calculate("sequence\u{a0}\n(0, 1e9)"), "/transform/0/calculate", &["sequence()"]);
    // Other names and plain text are not calls.
    assert!(check(&calculate("subsequence + datum.sequence")).is_empty());
    let filter = json!({"data": {"values": [{"a": "x"}]}, "mark": "point",
        "transform": [{"filter": {"and": [{"field": "a", "equal": "DNA sequence (bp)"}, {"not": "sequence(0,9)[0]"}]}}]});
    refused(filter, "/transform/0/filter/and/1/not", &["sequence()"]);
    let elsewhere = json!({"mark": {"type": "text", "text": {"expr": "sequence(0, 1e9)"}},
        "encoding": {"x": {"field": "a", "axis": {"labelExpr": "sequence(0,9)"}}},
        "params": [{"name": "p", "select": {"type": "point", "on": "click[sequence(0,1e9)]"}}]});
    assert_eq!(paths(&check(&elsewhere)), ["/encoding/x/axis/labelExpr", "/mark/text/expr", "/params/0/select/on"]);
}

#[test]
fn density_quantile_and_impute_generate_within_their_bounds() {
    let transform = |transform: Value| json!({"data": {"values": [{"a": 1}]}, "mark": "area", "transform": [transform]});
    assert!(check(&transform(json!({"density": "a", "steps": 200}))).is_empty());
    refused(transform(json!({"density": "a", "steps": 1e7})), "/transform/0/steps", &["at most 1000", "per group"]);
    refused(transform(json!({"density": "a", "minsteps": 5000})), "/transform/0/minsteps", &["at most 1000"]);
    refused(transform(json!({"density": "a", "maxsteps": "1e9"})), "/transform/0/maxsteps", &["not string"]);
    assert!(check(&transform(json!({"quantile": "a", "step": 0.01}))).is_empty());
    refused(transform(json!({"quantile": "a", "step": 1e-9})), "/transform/0/step", &["at least 0.001"]);
    assert!(check(&transform(json!({"impute": "a", "key": "b", "keyvals": {"start": 0, "stop": 100}}))).is_empty());
    let keyvals = json!({"impute": "a", "key": "b", "keyvals": {"start": 0, "stop": 1e8}});
    refused(transform(keyvals), "/transform/0/keyvals", &["makes 100000000 values", "at most 5000"]);
    let keys: Vec<u32> = (0..5_001).collect();
    refused(transform(json!({"impute": "a", "key": "b", "keyvals": keys})), "/transform/0/keyvals", &["holds 5001 values"]);
    let channel = json!({"mark": "line", "encoding": {"y": {"field": "a", "impute": {"keyvals": {"stop": 10, "step": 0}}}}});
    refused(channel, "/encoding/y/impute/keyvals/step", &["impute keyvals step 0"]);
}

#[test]
fn tick_counts_and_bin_counts_are_bounded() {
    let chart = |x: Value| json!({"data": {"values": [{"a": 1}, {"a": 2}]}, "mark": "bar", "encoding": {"x": x}});
    assert!(check(&chart(json!({"field": "a", "type": "quantitative", "bin": {"maxbins": 40}, "axis": {"tickCount": 8}}))).is_empty());
    refused(chart(json!({"field": "a", "type": "quantitative", "bin": {"maxbins": 1e9}})), "/encoding/x/bin/maxbins", &["at most 1000"]);
    refused(chart(json!({"field": "a", "type": "quantitative", "axis": {"tickCount": 50000}})), "/encoding/x/axis/tickCount", &["tickCount"]);
    let config = json!({"mark": "point", "config": {"axis": {"tickCount": 1e7}}});
    assert_eq!(paths(&check(&config)), ["/config/axis/tickCount"]);
    // An interval is not a count, and a row's field called maxbins is data.
    assert!(check(&chart(json!({"field": "a", "type": "temporal", "axis": {"tickCount": "month"}}))).is_empty());
    assert!(check(&json!({"data": {"values": [{"maxbins": 1e9}]}, "mark": "point"})).is_empty());
}

#[test]
fn a_bind_draws_only_known_inputs_inside_the_chart() {
    let with = |bind: Value| json!({"params": [{"name": "p", "value": 1, "bind": bind}], "mark": "point"});
    for bind in [
        json!({"input": "range", "min": 0, "max": 10, "step": 1, "name": "Size", "debounce": 50}),
        json!({"input": "select", "options": [1, 2], "labels": ["one", "two"]}),
        json!({"input": "text", "placeholder": "filter"}),
        json!({"input": "color"}),
        json!("scales"),
        json!("legend"),
        json!({"legend": "dblclick"}),
        json!({"Cylinders": {"input": "range"}, "Year": {"input": "select", "options": [1970, 1980]}}),
    ] {
        assert!(check(&with(bind.clone())).is_empty(), "{bind}");
    }
    refused(with(json!({"input": "range", "element": "body"})), "/params/0/bind/element", &["inside the chart"]);
    refused(with(json!({"element": "textarea"})), "/params/0/bind/element", &["leave element out"]);
    let image = check(&with(json!({"input": "image", "src": "https://evil.test/x"})));
    assert_eq!(paths(&image), ["/params/0/bind/input", "/params/0/bind/src"]);
    assert!(image[0].message.contains("\"image\" is not an input a chart may draw; use one of range, checkbox, radio, select, text, number, date, color"));
    let src = check(&with(json!({"input": "text", "src": "https://evil.test/x", "onfocus": "x"})));
    assert_eq!(paths(&src), ["/params/0/bind/onfocus", "/params/0/bind/src"]);
    assert!(src[1].message.contains("only input, min, max, step, options, labels, name, debounce, placeholder"));
    refused(with(json!({"input": "file"})), "/params/0/bind/input", &["\"file\""]);
    refused(with(json!({"input": {"expr": "'image'"}})), "/params/0/bind/input", &["object {expr}"]);
    refused(with(json!({"Year": {"input": "hidden"}})), "/params/0/bind/Year/input", &["\"hidden\""]);
    let legend = check(&with(json!({"legend": "dblclick", "element": "body"})));
    assert_eq!(paths(&legend), ["/params/0/bind/element", "/params/0/bind/legend"]);
    // In a layer, a concatenated view, and the config's own params.
    let nested = json!({
        "layer": [{"mark": "point", "params": [{"name": "a", "bind": {"input": "range", "element": "#chat"}}]}],
        "hconcat": [{"mark": "bar", "params": [{"name": "b", "select": "point", "bind": {"input": "image"}}]}],
        "config": {"params": [{"name": "c", "bind": {"input": "checkbox", "element": "body"}}]}
    });
    assert_eq!(
        paths(&check(&nested)),
        ["/config/params/0/bind/element", "/hconcat/0/params/0/bind/input", "/layer/0/params/0/bind/element"]
    );
    // The app keeps bindings inside the chart with its own `config.events`; a spec may not move them.
    let events = json!({"mark": "point", "config": {"events": {"bind": "any"}}});
    refused(events, "/config/events", &["config.events is refused"]);
    assert!(check(&json!({"mark": "point", "params": [{"name": "events", "value": 1}]})).is_empty());
}

#[test]
fn a_cursor_is_a_css_keyword_never_an_image() {
    let with = |cursor: Value| json!({"data": {"values": [{"a": 1}]}, "mark": {"type": "point", "cursor": cursor}});
    assert!(check(&with(json!("pointer"))).is_empty());
    assert!(check(&with(json!("not-allowed"))).is_empty());
    refused(with(json!("url(https://evil.test/c.png), auto")), "/mark/cursor", &["CSS keyword", "url("]);
    refused(with(json!("URL ( //evil.test/c.png ), auto")), "/mark/cursor", &["CSS keyword"]);
    refused(with(json!({"expr": "'url(https://evil.test/c.png), auto'"})), "/mark/cursor", &["object {expr}"]);
    let config = json!({"mark": "point", "config": {"mark": {"cursor": "url(x.png), auto"}, "style": {"s": {"cursor": "url(y)"}}}});
    // (The config's `mark` is defaults for every mark, not a mark missing its type.)
    assert_eq!(paths(&check(&config)), ["/config/mark/cursor", "/config/style/s/cursor"]);
    // A row's field called "cursor" is data.
    assert!(check(&json!({"data": {"values": [{"cursor": "url(x)"}]}, "mark": "point"})).is_empty());
}
