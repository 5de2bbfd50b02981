//! The `vega-lite` widget's spec, decided without a browser: what it may hold (inline rows within a
//! cap, never a URL, only the built-in maps by name) and how a named map becomes inline TopoJSON.
//!
//! The spec is the widget's params as the model wrote them; the renderer (vega, loaded on first
//! use) also refuses every URL at run time, so these checks are the early, precise error the
//! model can act on, not the only guard.

use serde_json::{Map, Value, json};

use crate::recipes::validate::{Detail, push_segment};

/// Most rows one chart may hold, over all its inline datasets: enough for any chart a person can
/// read, small enough that the page never stalls on a spec (aggregate or sample larger data first).
pub const MAX_ROWS: usize = 5_000;

/// Most rows drawn as SVG, every mark an element of the page described for screen readers. A larger
/// chart is drawn on a canvas without those descriptions (a reader cannot step through hundreds of
/// points, and building them is most of the drawing's time): one image, labelled by its title.
pub const SVG_MAX_ROWS: usize = 500;

/// Whether the chart is drawn on a canvas (more than [`SVG_MAX_ROWS`] rows) rather than as SVG.
pub fn drawn_on_canvas(spec: &Value) -> bool {
    rows(spec) > SVG_MAX_ROWS
}

/// The inline rows the spec holds, over all its data.values and datasets.
pub fn rows(spec: &Value) -> usize {
    let mut scan = Scan { details: Vec::new(), rows: 0, largest: None, datasets: datasets(spec) };
    scan.value(spec, &mut String::new(), false);
    scan.rows
}

/// Vega-Lite's marks, composite ones included: it fails on any other with an unreadable message.
pub const MARKS: &[&str] = &[
    "arc", "area", "bar", "image", "line", "point", "rect", "rule", "text", "tick", "trail", "circle", "square",
    "geoshape", "boxplot", "errorbar", "errorband",
];

/// A map served from the app's own origin under `charts/atlas/`, named in a spec as
/// `"data": {"name": "world-110m"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Atlas {
    pub name: &'static str,
    /// The TopoJSON object drawn when the spec's `format` names none.
    pub feature: &'static str,
    /// Every object the file holds, for the error naming a wrong `feature`.
    pub objects: &'static [&'static str],
}

impl Atlas {
    /// The file's path relative to the app's base URL.
    pub fn path(self) -> String {
        format!("charts/atlas/{}.json", self.name)
    }
}

/// The built-in maps (npm `world-atlas` 2 and `us-atlas` 3; see scripts/charts.sh).
pub const ATLASES: &[Atlas] = &[
    Atlas { name: "world-110m", feature: "countries", objects: &["countries", "land"] },
    Atlas { name: "world-50m", feature: "countries", objects: &["countries", "land"] },
    Atlas { name: "us-states-10m", feature: "states", objects: &["states", "nation"] },
    Atlas { name: "us-counties-10m", feature: "counties", objects: &["counties", "states", "nation"] },
];

/// The built-in map called `name`.
pub fn atlas(name: &str) -> Option<Atlas> {
    ATLASES.iter().copied().find(|atlas| atlas.name == name)
}

fn atlas_names() -> String {
    ATLASES.iter().map(|atlas| atlas.name).collect::<Vec<_>>().join(", ")
}

/// What the spec's data breaks: a URL, an unknown dataset name, a map feature the file lacks, or
/// more than [`MAX_ROWS`] rows. Each detail's path points into the spec.
pub fn check(spec: &Value) -> Vec<Detail> {
    let mut scan = Scan { details: Vec::new(), rows: 0, largest: None, datasets: datasets(spec) };
    scan.value(spec, &mut String::new(), false);
    if scan.rows > MAX_ROWS {
        let (path, _) = scan.largest.clone().unwrap_or_default();
        scan.details.push(Detail {
            path,
            message: format!(
                "the spec holds {} rows; a chart takes at most {MAX_ROWS} (over all its data.values and datasets): \
                 aggregate or sample the data before drawing it (e.g. one row per day or per category)",
                scan.rows
            ),
        });
    }
    scan.details
}

/// The names of the spec's top-level `datasets`, which `"data": {"name": ...}` may also refer to.
fn datasets(spec: &Value) -> Vec<String> {
    spec.get("datasets").and_then(Value::as_object).map(|sets| sets.keys().cloned().collect()).unwrap_or_default()
}

struct Scan {
    details: Vec<Detail>,
    rows: usize,
    /// The path and length of the largest inline dataset, where a too-large spec is reported.
    largest: Option<(String, usize)>,
    datasets: Vec<String>,
}

impl Scan {
    /// `is_data`: `value` is the value of a `data` key (or one of `datasets`).
    fn value(&mut self, value: &Value, path: &mut String, is_data: bool) {
        match value {
            Value::Object(map) => {
                if is_data {
                    self.data(map, path);
                }
                for (key, item) in map {
                    // Rows are data, not spec: a row's "mark" or "data" field means nothing here.
                    if is_data && key == "values" {
                        continue;
                    }
                    let len = path.len();
                    push_segment(path, key);
                    if key == "mark" {
                        self.mark(item, path);
                    }
                    if len == 0 && key == "datasets" {
                        self.datasets_rows(item, path);
                    } else {
                        self.value(item, path, key == "data");
                    }
                    path.truncate(len);
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    let len = path.len();
                    push_segment(path, &index.to_string());
                    self.value(item, path, false);
                    path.truncate(len);
                }
            }
            _ => {}
        }
    }

    /// A `mark` (a name, or an object with a `type`) must be one Vega-Lite knows.
    fn mark(&mut self, mark: &Value, path: &str) {
        let (name, at) = match mark {
            Value::String(name) => (name.as_str(), path.to_owned()),
            Value::Object(def) => match def.get("type") {
                Some(Value::String(name)) => (name.as_str(), format!("{path}/type")),
                _ => ("", format!("{path}/type")),
            },
            // A field literally named "mark" in the data is not a mark.
            _ => return,
        };
        if !MARKS.contains(&name) {
            self.details.push(Detail {
                path: at,
                message: format!("\"{name}\" is not a Vega-Lite mark; use one of {}", MARKS.join(", ")),
            });
        }
    }

    fn datasets_rows(&mut self, datasets: &Value, path: &mut String) {
        let Some(sets) = datasets.as_object() else { return };
        for (name, rows) in sets {
            let len = path.len();
            push_segment(path, name);
            if let Value::Array(rows) = rows {
                self.count(rows.len(), path);
            }
            path.truncate(len);
        }
    }

    fn count(&mut self, rows: usize, path: &str) {
        self.rows += rows;
        if self.largest.as_ref().is_none_or(|(_, most)| rows > *most) {
            self.largest = Some((path.to_owned(), rows));
        }
    }

    /// One `data` object: inline values, a generator, or a name; never a URL.
    fn data(&mut self, data: &Map<String, Value>, path: &str) {
        if let Some(url) = data.get("url") {
            let shown = url.as_str().map(|url| format!(" ({url})")).unwrap_or_default();
            self.details.push(Detail {
                path: format!("{path}/url"),
                message: format!(
                    "data.url{shown} is refused: this chart loads nothing from the network. Put the rows in \
                     data.values (at most {MAX_ROWS}), or name a built-in map: {}",
                    atlas_names()
                ),
            });
        }
        if let Some(Value::Array(rows)) = data.get("values") {
            self.count(rows.len(), &format!("{path}/values"));
        }
        if let Some(name) = data.get("name").and_then(Value::as_str)
            && !data.contains_key("values")
        {
            match atlas(name) {
                Some(map) => self.feature(map, data, path),
                None if self.datasets.iter().any(|set| set == name) => {}
                None => self.details.push(Detail {
                    path: format!("{path}/name"),
                    message: format!(
                        "no dataset is named \"{name}\": the built-in maps are {}; other data goes inline in \
                         data.values or in the top-level datasets",
                        atlas_names()
                    ),
                }),
            }
        }
    }

    fn feature(&mut self, map: Atlas, data: &Map<String, Value>, path: &str) {
        let format = data.get("format");
        for key in ["feature", "mesh"] {
            if let Some(object) = format.and_then(|format| format.get(key)).and_then(Value::as_str)
                && !map.objects.contains(&object)
            {
                self.details.push(Detail {
                    path: format!("{path}/format/{key}"),
                    message: format!(
                        "the map {} has no object \"{object}\"; it has {}",
                        map.name,
                        map.objects.join(", ")
                    ),
                });
            }
        }
    }
}

/// The built-in maps a (checked) spec names, each once, in the order first named.
pub fn atlases_used(spec: &Value) -> Vec<Atlas> {
    let mut used = Vec::new();
    visit_data(spec, false, &mut |data| {
        if !data.contains_key("values")
            && let Some(map) = data.get("name").and_then(Value::as_str).and_then(atlas)
            && !used.contains(&map)
        {
            used.push(map);
        }
    });
    used
}

fn visit_data(value: &Value, is_data: bool, found: &mut impl FnMut(&Map<String, Value>)) {
    match value {
        Value::Object(map) => {
            if is_data {
                found(map);
            }
            for (key, item) in map {
                visit_data(item, key == "data", found);
            }
        }
        Value::Array(items) => items.iter().for_each(|item| visit_data(item, false, found)),
        _ => {}
    }
}

/// `spec` with each named map replaced by its TopoJSON inline (`loaded` holds the parsed files by
/// name), keeping the spec's own `format.feature` or `format.mesh` and defaulting to the map's
/// main object. Names without a loaded file are left as they are.
pub fn with_atlases(spec: &Value, loaded: &[(Atlas, Value)]) -> Value {
    let mut spec = spec.clone();
    inline(&mut spec, false, loaded);
    spec
}

fn inline(value: &mut Value, is_data: bool, loaded: &[(Atlas, Value)]) {
    match value {
        Value::Object(map) => {
            if is_data
                && !map.contains_key("values")
                && let Some(name) = map.get("name").and_then(Value::as_str)
                && let Some((atlas, topology)) = loaded.iter().find(|(atlas, _)| atlas.name == name)
            {
                let mut format = map.get("format").and_then(Value::as_object).cloned().unwrap_or_default();
                format.insert("type".to_owned(), json!("topojson"));
                if !format.contains_key("mesh") {
                    format.entry("feature").or_insert_with(|| json!(atlas.feature));
                }
                map.remove("name");
                map.insert("values".to_owned(), topology.clone());
                map.insert("format".to_owned(), Value::Object(format));
                return;
            }
            for (key, item) in map.iter_mut() {
                let is_data = key == "data";
                inline(item, is_data, loaded);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| inline(item, false, loaded)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(details: &[Detail]) -> Vec<&str> {
        details.iter().map(|detail| detail.path.as_str()).collect()
    }

    #[test]
    fn charts_over_the_svg_limit_are_drawn_on_a_canvas_counting_every_dataset() {
        let rows = |n: usize| Value::Array((0..n).map(|i| json!({"x": i})).collect());
        let single = |n: usize| json!({"data": {"values": rows(n)}, "mark": "point"});
        assert!(!drawn_on_canvas(&single(SVG_MAX_ROWS)));
        assert!(drawn_on_canvas(&single(SVG_MAX_ROWS + 1)));
        let split = json!({"datasets": {"a": rows(300)}, "data": {"name": "a"},
            "layer": [{"mark": "point"}, {"data": {"values": rows(300)}, "mark": "rule"}]});
        assert_eq!(super::rows(&split), 600);
        assert!(drawn_on_canvas(&split), "rows are counted over the layers and the datasets");
        // A row's own "data" or "values" field is not counted as rows.
        let nested = json!({"data": {"values": [{"values": rows(900)}]}, "mark": "point"});
        assert_eq!(super::rows(&nested), 1);
    }

    #[test]
    fn inline_rows_within_the_cap_pass() {
        let spec = json!({"data": {"values": [{"a": 1}, {"a": 2}]}, "mark": "bar", "encoding": {"x": {"field": "a"}}});
        assert!(check(&spec).is_empty());
    }

    #[test]
    fn a_url_anywhere_in_the_spec_is_refused_at_its_path() {
        let spec = json!({"layer": [{"mark": "bar"}, {"data": {"url": "https://evil.test/x.csv"}, "mark": "rule"}]});
        let details = check(&spec);
        assert_eq!(paths(&details), ["/layer/1/data/url"]);
        assert!(details[0].message.contains("https://evil.test/x.csv"), "{}", details[0].message);
        assert!(details[0].message.contains("world-110m"));
        let lookup = json!({"transform": [{"lookup": "id", "from": {"data": {"url": "/secrets.json"}, "key": "id"}}]});
        assert_eq!(paths(&check(&lookup)), ["/transform/0/from/data/url"]);
    }

    #[test]
    fn too_many_rows_name_the_cap_and_the_largest_dataset() {
        let rows: Vec<Value> = (0..MAX_ROWS + 1).map(|i| json!({"x": i})).collect();
        let spec = json!({"data": {"values": [1, 2]}, "layer": [{"data": {"values": rows}, "mark": "point"}]});
        let details = check(&spec);
        assert_eq!(paths(&details), ["/layer/0/data/values"]);
        assert!(details[0].message.contains("5003 rows"), "{}", details[0].message);
        assert!(details[0].message.contains("at most 5000"));
        let sets: Vec<Value> = (0..MAX_ROWS).map(|i| json!({"x": i})).collect();
        let spec = json!({"datasets": {"big": sets}, "data": {"values": [1]}, "mark": "point"});
        assert_eq!(paths(&check(&spec)), ["/datasets/big"]);
    }

    #[test]
    fn marks_must_be_vega_lite_marks_wherever_they_are() {
        assert!(check(&json!({"mark": {"type": "boxplot"}, "layer": [{"mark": "rule"}]})).is_empty());
        let details = check(&json!({"layer": [{"mark": "bars"}, {"mark": {"type": "pie"}}]}));
        assert_eq!(paths(&details), ["/layer/0/mark", "/layer/1/mark/type"]);
        assert!(details[0].message.contains("\"bars\" is not a Vega-Lite mark; use one of arc, area, bar"));
        // Rows may hold a field called "mark".
        assert!(check(&json!({"data": {"values": [{"mark": 12}, {"mark": "A+"}]}, "mark": "bar"})).is_empty());
    }

    #[test]
    fn names_must_be_a_built_in_map_or_a_dataset_and_features_must_exist() {
        let spec = json!({"data": {"name": "world-110m"}, "mark": "geoshape"});
        assert!(check(&spec).is_empty());
        let spec = json!({"datasets": {"sales": [{"a": 1}]}, "data": {"name": "sales"}, "mark": "bar"});
        assert!(check(&spec).is_empty());
        let spec = json!({"data": {"name": "europe"}, "mark": "geoshape"});
        let details = check(&spec);
        assert_eq!(paths(&details), ["/data/name"]);
        assert!(details[0].message.contains("us-states-10m"), "{}", details[0].message);
        let spec = json!({"data": {"name": "us-states-10m", "format": {"feature": "countries"}}, "mark": "geoshape"});
        let details = check(&spec);
        assert_eq!(paths(&details), ["/data/format/feature"]);
        assert!(details[0].message.contains("states, nation"));
    }

    #[test]
    fn named_maps_become_inline_topojson_once_each() {
        let spec = json!({
            "data": {"name": "world-110m"},
            "transform": [{"lookup": "id", "from": {"data": {"name": "world-110m", "format": {"mesh": "land"}}, "key": "id"}}],
            "mark": "geoshape"
        });
        let used = atlases_used(&spec);
        assert_eq!(used.iter().map(|a| a.name).collect::<Vec<_>>(), ["world-110m"]);
        assert_eq!(used[0].path(), "charts/atlas/world-110m.json");
        let topology = json!({"type": "Topology", "objects": {}});
        let inlined = with_atlases(&spec, &[(used[0], topology.clone())]);
        assert_eq!(inlined["data"], json!({"values": topology, "format": {"type": "topojson", "feature": "countries"}}));
        assert_eq!(inlined["transform"][0]["from"]["data"]["format"], json!({"type": "topojson", "mesh": "land"}));
        assert!(atlases_used(&inlined).is_empty());
    }
}
