//! The `vega-lite` widget's spec, decided without a browser: what it may hold (inline rows within a
//! cap, never a URL, only the built-in maps by name, nothing that reaches past the chart) and how a
//! named map becomes inline TopoJSON.
//!
//! The spec is the widget's params as the model wrote them; the renderer (vega, loaded on first
//! use) also refuses every URL at run time, so these checks are the early, precise error the
//! model can act on, not the only guard.

use serde_json::{Map, Value, json};

use crate::recipes::validate::{Detail, preview, push_segment, quote};

/// Most rows one chart may hold, over all its inline datasets and generated sequences: enough for
/// any chart a person can read, small enough that the page never stalls on a spec (aggregate or
/// sample larger data first). Also the most `impute` key values.
pub const MAX_ROWS: usize = 5_000;

/// Most points a `density` transform samples per group (`steps`, `minsteps`, `maxsteps`) and most
/// quantiles a `quantile` transform computes per group (`1 / step`): each is a row vega builds.
const MAX_STEPS: f64 = 1_000.0;

/// Finest graticule step and precision, in degrees: a finer grid is millions of points to project.
const MIN_GRATICULE_DEGREES: f64 = 1.0;

/// The inputs a parameter's `bind` may draw (vega's own four, and plain `<input>` types that load
/// nothing); any other type is an `<input>` of that type, such as an `image` fetching its `src`.
const BIND_INPUTS: &[&str] = &["range", "checkbox", "radio", "select", "text", "number", "date", "color"];

/// The keys an input `bind` may hold: vega copies any other onto a plain input as an attribute.
const BIND_KEYS: &[&str] = &["input", "min", "max", "step", "options", "labels", "name", "debounce", "placeholder"];

/// Keys whose strings (at any depth) are vega expressions or event streams with expression filters.
const EXPRESSION_KEYS: &[&str] = &["calculate", "filter", "test", "expr", "signal", "on", "clear", "translate", "zoom"];

/// Most rows drawn as SVG, every mark an element of the page described for screen readers. A larger
/// chart is drawn on a canvas without those descriptions (a reader cannot step through hundreds of
/// points, and building them is most of the drawing's time): one image, labelled by its title.
pub const SVG_MAX_ROWS: usize = 500;

/// Whether the chart is drawn on a canvas (more than [`SVG_MAX_ROWS`] rows) rather than as SVG.
pub fn drawn_on_canvas(spec: &Value) -> bool {
    rows(spec) > SVG_MAX_ROWS
}

/// The rows the spec holds, over all its data.values, data.sequence and datasets.
pub fn rows(spec: &Value) -> usize {
    let mut scan = Scan { details: Vec::new(), rows: 0, largest: None, datasets: datasets(spec) };
    scan.value(spec, &mut String::new(), Held::Spec);
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

/// What the spec breaks: a URL, an unknown dataset name, a map feature the file lacks, more than
/// [`MAX_ROWS`] rows (or rows in text), a generator past its bound, an input bound outside the
/// chart, an image cursor. Each detail's path points into the spec.
pub fn check(spec: &Value) -> Vec<Detail> {
    let mut scan = Scan { details: Vec::new(), rows: 0, largest: None, datasets: datasets(spec) };
    scan.value(spec, &mut String::new(), Held::Spec);
    if scan.rows > MAX_ROWS {
        let (path, _) = scan.largest.clone().unwrap_or_default();
        scan.details.push(Detail {
            path,
            message: format!(
                "the spec holds {} rows; a chart takes at most {MAX_ROWS} (over all its data.values, data.sequence \
                 and datasets): aggregate or sample the data before drawing it (e.g. one row per day or per category)",
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

/// What a value is, by where it sits in the spec.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Held {
    Spec,
    /// The value of a `data` key.
    Data,
    /// An expression or event stream, or a predicate composing them.
    Expression,
}

struct Scan {
    details: Vec<Detail>,
    rows: usize,
    /// The path and length of the largest dataset, where a too-large spec is reported.
    largest: Option<(String, usize)>,
    datasets: Vec<String>,
}

impl Scan {
    fn value(&mut self, value: &Value, path: &mut String, held: Held) {
        match value {
            Value::Object(map) => {
                if held == Held::Data {
                    self.data(map, path);
                }
                self.generators(map, path);
                for (key, item) in map {
                    // Rows are data, not spec: a row's "mark" or "data" field means nothing here.
                    if held == Held::Data && key == "values" {
                        continue;
                    }
                    let len = path.len();
                    push_segment(path, key);
                    match key.as_str() {
                        // The config's `mark` holds defaults for every mark, not a mark.
                        "mark" if path != "/config/mark" => self.mark(item, path),
                        "params" => self.params(item, path),
                        "cursor" => self.cursor(item, path),
                        "keyvals" => self.keyvals(item, path),
                        "tickCount" | "maxbins" => self.count_within_steps(key, item, path),
                        // The app's own `events` config keeps inputs inside the chart; a spec's would override it.
                        "events" if path == "/config/events" => self.details.push(Detail {
                            path: path.clone(),
                            message: "config.events is refused: where the chart's inputs and events go is the app's                                       choice (inside the chart); leave it out"
                                .to_owned(),
                        }),
                        _ => {}
                    }
                    if len == 0 && key == "datasets" {
                        self.datasets_rows(item, path);
                    } else {
                        // A predicate's `and`, `or` and `not` hold expressions; its other keys
                        // (`field`, `equal`...) hold values, which may be any text.
                        let held = if key == "data" {
                            Held::Data
                        } else if is_expression(key, item)
                            || (held == Held::Expression && matches!(key.as_str(), "and" | "or" | "not"))
                        {
                            Held::Expression
                        } else {
                            Held::Spec
                        };
                        self.value(item, path, held);
                    }
                    path.truncate(len);
                }
            }
            Value::Array(items) => {
                let held = if held == Held::Expression { Held::Expression } else { Held::Spec };
                for (index, item) in items.iter().enumerate() {
                    let len = path.len();
                    push_segment(path, &index.to_string());
                    self.value(item, path, held);
                    path.truncate(len);
                }
            }
            Value::String(expression) if held == Held::Expression && calls_sequence(expression) => {
                self.details.push(Detail {
                    path: path.clone(),
                    message: format!(
                        "the expression function sequence() is refused: it builds an array of any length in the \
                         browser (and flatten makes each item a row), past the chart's cap of {MAX_ROWS} rows. Put \
                         the rows in data.values, or generate them with data.sequence (e.g. \"data\": {{\"sequence\": \
                         {{\"start\": 0, \"stop\": 100, \"step\": 1}}}}), which counts against the cap"
                    ),
                });
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
            self.rows_of(rows, path, "a dataset");
            path.truncate(len);
        }
    }

    /// Inline rows: counted when an array; text (CSV, TSV, JSON) or an object is refused, as its
    /// rows would escape the cap and vega parses CSV and TSV with code the page's policy blocks.
    fn rows_of(&mut self, rows: &Value, path: &str, what: &str) {
        if let Value::Array(rows) = rows {
            self.count(rows.len(), path);
            return;
        }
        self.details.push(Detail {
            path: path.to_owned(),
            message: format!(
                "{what} must be an array of rows, e.g. [{{\"month\": \"Jan\", \"sales\": 82}}], not {}: CSV, TSV or \
                 JSON text and objects are refused (give the rows as an array of objects, at most {MAX_ROWS})",
                preview(rows)
            ),
        });
    }

    fn count(&mut self, rows: usize, path: &str) {
        self.rows = self.rows.saturating_add(rows);
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
        if let Some(rows) = data.get("values") {
            self.rows_of(rows, &format!("{path}/values"), "data.values");
        }
        if let Some(sequence) = data.get("sequence") {
            let at = format!("{path}/sequence");
            match sequence_len(sequence) {
                Ok(rows) => self.count(rows, &at),
                Err((field, problem)) => self.details.push(Detail {
                    path: field.map_or_else(|| at.clone(), |field| format!("{at}/{field}")),
                    message: format!(
                        "data.sequence {problem}: it makes one row per step from start up to stop, e.g. \
                         {{\"start\": 0, \"stop\": 100, \"step\": 1}} (at most {MAX_ROWS} rows)"
                    ),
                }),
            }
        }
        if let Some(Value::Object(graticule)) = data.get("graticule") {
            self.graticule(graticule, &format!("{path}/graticule"));
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

    /// A graticule's lines are spaced by its steps and drawn point by point at its precision over
    /// its extent: each is bounded, or a spec freezes the page while it builds the grid.
    fn graticule(&mut self, graticule: &Map<String, Value>, path: &str) {
        let degrees = |value: &Value| value.as_f64().filter(|degrees| *degrees >= MIN_GRATICULE_DEGREES);
        for (key, value) in graticule {
            let fine = match key.as_str() {
                "step" | "stepMajor" | "stepMinor" => {
                    let pair = value.as_array().filter(|pair| pair.len() == 2);
                    let fits = pair.is_some_and(|pair| pair.iter().all(|apart| degrees(apart).is_some()));
                    (!fits).then(|| {
                        format!(
                            "graticule.{key} must be [longitude, latitude] degrees between lines, each at least \
                             {MIN_GRATICULE_DEGREES}, e.g. [10, 10]"
                        )
                    })
                }
                "precision" => degrees(value).is_none().then(|| {
                    format!("graticule.precision must be a number of at least {MIN_GRATICULE_DEGREES} degree, e.g. 2.5")
                }),
                "extent" | "extentMajor" | "extentMinor" => (!on_the_globe(value)).then(|| {
                    format!(
                        "graticule.{key} must lie on the globe: [[west, south], [east, north]] with longitudes \
                         within -180..180 and latitudes within -90..90"
                    )
                }),
                _ => None,
            };
            if let Some(problem) = fine {
                self.details.push(Detail {
                    path: format!("{path}/{key}"),
                    message: format!("{problem}: a finer or wider grid freezes the page while it is built"),
                });
            }
        }
    }

    /// Transforms that generate rows by a count of their own: `density` and `quantile`.
    fn generators(&mut self, transform: &Map<String, Value>, path: &str) {
        let mut limit = |key: &str, fits: fn(f64) -> bool, rule: String| {
            if let Some(value) = transform.get(key)
                && !value.as_f64().is_some_and(fits)
            {
                self.details.push(Detail {
                    path: format!("{path}/{key}"),
                    message: format!("{rule}, not {}: each step is a row the browser builds, per group", preview(value)),
                });
            }
        };
        if transform.contains_key("density") {
            for key in ["steps", "minsteps", "maxsteps"] {
                let rule = format!("density {key} must be a number of at most {MAX_STEPS}");
                limit(key, |steps| steps <= MAX_STEPS, rule);
            }
        }
        if transform.contains_key("quantile") {
            let rule = format!("quantile step must be a number of at least {}", 1.0 / MAX_STEPS);
            limit("step", |step| step * MAX_STEPS >= 1.0, rule);
        }
    }

    /// An `impute`'s key values: an array or a sequence, each value a row per group.
    fn keyvals(&mut self, keyvals: &Value, path: &str) {
        let (field, problem) = match keyvals {
            Value::Array(values) if values.len() > MAX_ROWS => (None, format!("holds {} values", values.len())),
            Value::Object(_) => match sequence_len(keyvals) {
                Ok(count) if count > MAX_ROWS => (None, format!("makes {count} values")),
                Ok(_) => return,
                Err(wrong) => wrong,
            },
            _ => return,
        };
        self.details.push(Detail {
            path: field.map_or_else(|| path.to_owned(), |field| format!("{path}/{field}")),
            message: format!(
                "impute keyvals {problem}: give at most {MAX_ROWS} key values, as an array or \
                 {{\"start\": 0, \"stop\": 10, \"step\": 1}}"
            ),
        });
    }

    /// An axis's `tickCount` or a bin's `maxbins`: vega makes about that many ticks (or bin edges,
    /// each a tick of a binned axis), so a huge one freezes the page as a huge row count would.
    fn count_within_steps(&mut self, key: &str, count: &Value, path: &str) {
        if count.as_f64().is_some_and(|count| count > MAX_STEPS) {
            self.details.push(Detail {
                path: path.to_owned(),
                message: format!(
                    "{key} is {count}: at most {MAX_STEPS} (a tick or bin is drawn for each); a chart a person reads                      needs a few dozen"
                ),
            });
        }
    }

    /// Each parameter's `bind`: vega draws an input for it, which must stay in the chart and load
    /// nothing.
    fn params(&mut self, params: &Value, path: &mut String) {
        let Value::Array(params) = params else { return };
        for (index, param) in params.iter().enumerate() {
            if let Some(bind) = param.get("bind") {
                let len = path.len();
                push_segment(path, &index.to_string());
                push_segment(path, "bind");
                self.bind(bind, path);
                path.truncate(len);
            }
        }
    }

    fn bind(&mut self, bind: &Value, path: &mut String) {
        // "scales", "legend" and {"legend": stream} bind to the chart itself, drawing no input.
        let Value::Object(bind) = bind else { return };
        if bind.len() == 1 && bind.contains_key("legend") {
            return;
        }
        // A point selection over several fields may give each field an input of its own.
        let per_field = !bind.keys().any(|key| key == "element" || BIND_KEYS.contains(&key.as_str()));
        if per_field && bind.values().all(Value::is_object) {
            for (field, input) in bind {
                let len = path.len();
                push_segment(path, field);
                self.bind(input, path);
                path.truncate(len);
            }
            return;
        }
        for (key, value) in bind {
            let problem = match key.as_str() {
                "element" => "bind.element is refused: a chart's inputs are drawn inside the chart, never into the \
                              page (vega would empty the element, or bind to the page's own fields); leave element out"
                    .to_owned(),
                "input" if value.as_str().is_some_and(|input| BIND_INPUTS.contains(&input)) => continue,
                "input" => format!(
                    "bind.input {} is not an input a chart may draw; use one of {}",
                    value.as_str().map_or_else(|| preview(value), quote),
                    BIND_INPUTS.join(", ")
                ),
                key if BIND_KEYS.contains(&key) => continue,
                key => format!(
                    "bind.{key} is refused: an input takes only {} (vega would copy any other key onto the page's \
                     input as an attribute)",
                    BIND_KEYS.join(", ")
                ),
            };
            self.details.push(Detail { path: format!("{path}/{key}"), message: problem });
        }
    }

    /// A cursor names a CSS keyword: a `url(...)` cursor (or an expression making one) loads an
    /// image from wherever it points.
    fn cursor(&mut self, cursor: &Value, path: &str) {
        if let Value::String(name) = cursor
            && !name.is_empty()
            && name.bytes().all(|byte| byte.is_ascii_lowercase() || byte == b'-')
        {
            return;
        }
        self.details.push(Detail {
            path: path.to_owned(),
            message: format!(
                "cursor must be a CSS keyword such as pointer, crosshair or grab, not {}: an image cursor \
                 (url(...)) or an expression is refused, it would load an image from another site",
                preview(cursor)
            ),
        });
    }
}

/// Whether `key`'s value holds vega expressions: the keys that take one, any `...Expr` (e.g.
/// `labelExpr`), and a legend binding's event stream (`"legend": "dblclick"`).
fn is_expression(key: &str, value: &Value) -> bool {
    EXPRESSION_KEYS.contains(&key) || key.ends_with("Expr") || (key == "legend" && value.is_string())
}

/// Whether `expression` calls vega's `sequence`, however spelled: vega's parser reads `\uXXXX`
/// escapes in names and any white space before the parenthesis.
fn calls_sequence(expression: &str) -> bool {
    let mut name = String::new();
    let mut chars = expression.chars().peekable();
    while let Some(c) = chars.next() {
        let c = if c == '\\' && chars.peek() == Some(&'u') {
            chars.next();
            let hex: String = chars.by_ref().take(4).collect();
            u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32).unwrap_or('\\')
        } else {
            c
        };
        if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
            name.push(c);
            continue;
        }
        if name == "sequence" && (c == '(' || is_space(c)) {
            while chars.peek().copied().is_some_and(is_space) {
                chars.next();
            }
            if c == '(' || chars.peek() == Some(&'(') {
                return true;
            }
        }
        name.clear();
    }
    false
}

/// White space as vega's expression parser skips it.
fn is_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{180E}' || c == '\u{FEFF}'
}

/// How many values `{start, stop, step}` makes (vega's `range`: start defaults to 0, step to 1),
/// or the field at fault (none: the sequence itself) and what is wrong.
fn sequence_len(sequence: &Value) -> Result<usize, (Option<&'static str>, String)> {
    let number = |key: &'static str, default: Option<f64>| match sequence.get(key) {
        None => default.ok_or((None, format!("needs a number {key}"))),
        Some(value) => value.as_f64().ok_or((Some(key), format!("{key} must be a number, not {}", preview(value)))),
    };
    if !sequence.is_object() {
        return Err((None, format!("must be an object {{start, stop, step}}, not {}", preview(sequence))));
    }
    let (start, stop, step) = (number("start", Some(0.0))?, number("stop", None)?, number("step", Some(1.0))?);
    let count = ((stop - start) / step).ceil();
    if step == 0.0 || count < 0.0 {
        return Err((Some("step"), format!("step {step} never goes from start {start} to stop {stop}")));
    }
    // Saturates: a count past usize is as refused as any past the cap.
    Ok(count as usize)
}

/// Whether a graticule extent is `[[west, south], [east, north]]` within the globe.
fn on_the_globe(extent: &Value) -> bool {
    let corner = |corner: &Value| {
        let (x, y) = (corner.get(0).and_then(Value::as_f64), corner.get(1).and_then(Value::as_f64));
        corner.as_array().is_some_and(|pair| pair.len() == 2)
            && x.is_some_and(|x| x.abs() <= 180.0)
            && y.is_some_and(|y| y.abs() <= 90.0)
    };
    extent.as_array().is_some_and(|corners| corners.len() == 2 && corners.iter().all(corner))
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
