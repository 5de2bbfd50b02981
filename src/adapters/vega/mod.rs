//! The `vega-lite` widget's engine: vega, vega-lite and vega's expression interpreter as the app
//! serves them under `charts/` (npm packages copied there by scripts/charts.sh at build time, never a
//! CDN), loaded by script elements when the first such widget renders, and the built-in maps under
//! `charts/atlas/`. This code comes with them, in a chunk of its own (`charts`), so the widgets'
//! chunk does not carry it.
//!
//! A spec is compiled (Vega-Lite to Vega) and parsed (Vega to a dataflow) once, when the core checks
//! it; drawing builds a `vega.View` from that parse. Nothing reaches the network through the engine:
//! its loader refuses every URL (data, images, links), expressions run in vega's interpreter (parsed
//! with `ast: true`, so the page needs no `unsafe-eval`), and tooltips are written as text.

mod layout;
mod tokens;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use autoui_core::ports::{ChartCompiler, ChartVerdict};
use autoui_core::view::vega_lite::{self, Atlas};
use futures::future::{FutureExt, LocalBoxFuture, Shared};
use js_sys::{Array, Function, JSON, Object, Promise, Reflect};
use serde_json::Value;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Element, HtmlElement, MouseEvent};

use crate::deferred::part;

/// The engine's scripts in load order, each with the global it defines.
const SCRIPTS: [(&str, &str); 3] =
    [("vega", "vega.min.js"), ("vegaLite", "vega-lite.min.js"), ("vegaInterpreter", "vega-interpreter.js")];

type Loading = Shared<LocalBoxFuture<'static, Result<(), String>>>;

thread_local! {
    static ENGINE: RefCell<Option<Loading>> = const { RefCell::new(None) };
    /// Parsed maps by name: each file is fetched once per page.
    static ATLASES: RefCell<HashMap<&'static str, Rc<Value>>> = RefCell::new(HashMap::new());
    static LOADER: JsValue = refusing_loader();
}

/// Whether the engine is on the page already (drawing will not wait for a download).
pub fn engine_loaded() -> bool {
    SCRIPTS.iter().all(|(global, _)| has_global(global))
}

/// The engine's entry points. They are a chunk of their own (`charts`), fetched with the engine's
/// scripts when the first chart is drawn or checked: the widget's component, in the widgets' chunk,
/// reaches them only through these pointers.
/// A chart drawn, with the warnings vega gave while drawing it.
type Drawn = (Chart, Vec<String>);

/// Draws a spec in a host element at a size, with the element its tooltips go in, for paper or not.
type Draw = for<'a> fn(&'a Element, &'a HtmlElement, &'a Value, (f64, f64), bool) -> LocalBoxFuture<'a, Result<Drawn, String>>;

#[derive(Clone, Copy)]
struct Charts {
    load: fn() -> LocalBoxFuture<'static, Result<(), String>>,
    draw: Draw,
    resize: fn(&Chart, f64, f64),
    compile: for<'a> fn(&'a Value) -> LocalBoxFuture<'a, Result<ChartVerdict, String>>,
}

part! {
    #[chunk(charts, "the chart engine")]
    fn charts() -> Part<Charts> {
        Charts {
            load: || load_engine_now().boxed_local(),
            draw: |host, tip, spec, size, paper| draw_now(host, tip, spec, size, paper).boxed_local(),
            resize: resize_now,
            compile: |spec| verdict(spec).boxed_local(),
        }
    }
}

async fn loaded() -> Result<Charts, String> {
    charts().load().await.map_err(|error| error.to_string())
}

/// Loads the engine once; a failed load is forgotten, so the next chart tries again.
pub async fn load_engine() -> Result<(), String> {
    (loaded().await?.load)().await
}

/// Draws `spec` (already checked by the core) into `host` at `size`, its tooltips in `tip`; on a
/// canvas, in the colours the page shows, or for `paper` in the light theme's (a print is light).
/// Returns the chart and Vega-Lite's warnings, or the error that stopped it.
pub async fn draw(host: &Element, tip: &HtmlElement, spec: &Value, size: (f64, f64), paper: bool) -> Result<Drawn, String> {
    (loaded().await?.draw)(host, tip, spec, size, paper).await
}

/// What Vega-Lite and Vega say about `spec` without drawing it. The compiled spec is kept, so
/// drawing the same spec next does not compile it again.
pub async fn compile(spec: &Value) -> Result<ChartVerdict, String> {
    (loaded().await?.compile)(spec).await
}

async fn load_engine_now() -> Result<(), String> {
    let loading = ENGINE.with(|engine| {
        engine.borrow_mut().get_or_insert_with(|| load_scripts().boxed_local().shared()).clone()
    });
    let loaded = loading.await;
    if loaded.is_err() {
        ENGINE.with(|engine| engine.borrow_mut().take());
    }
    loaded
}

async fn load_scripts() -> Result<(), String> {
    // Inserted together with `async = false`: the three download at once and run in order.
    let mut loads = Vec::new();
    for (global, file) in SCRIPTS {
        if !has_global(global) {
            loads.push(load_script(&format!("charts/{file}"))?);
        }
    }
    for loaded in futures::future::join_all(loads).await {
        loaded?;
    }
    Ok(())
}

fn has_global(name: &str) -> bool {
    Reflect::get(&js_sys::global(), &name.into()).is_ok_and(|value| !value.is_undefined())
}

/// Adds a script element for `src` now; the future ends when it has run (or could not be loaded).
fn load_script(src: &str) -> Result<impl Future<Output = Result<(), String>> + use<>, String> {
    let failed = {
        let src = src.to_owned();
        move || format!("the chart engine could not be loaded ({src}); check the connection and reload")
    };
    let document = web_sys::window().and_then(|window| window.document()).ok_or_else(failed.clone())?;
    let script = document.create_element("script").map_err(|_| failed())?;
    script.set_attribute("src", src).map_err(|_| failed())?;
    set(&script, "async", &false.into());
    let done = Promise::new(&mut |resolve, reject| {
        let _ = script.add_event_listener_with_callback("load", &resolve);
        let _ = script.add_event_listener_with_callback("error", &reject);
    });
    document.head().ok_or_else(failed.clone())?.append_child(&script).map_err(|_| failed())?;
    Ok(async move { JsFuture::from(done).await.map(|_| ()).map_err(|_| failed()) })
}

/// The map `atlas`, fetched from the app's origin on first use.
async fn atlas(atlas: Atlas) -> Result<Rc<Value>, String> {
    if let Some(known) = ATLASES.with(|maps| maps.borrow().get(atlas.name).cloned()) {
        return Ok(known);
    }
    let failed = |why: String| format!("the map {} could not be loaded: {why}", atlas.name);
    let response = gloo_net::http::Request::get(&atlas.path()).send().await.map_err(|e| failed(e.to_string()))?;
    if !response.ok() {
        return Err(failed(format!("HTTP {}", response.status())));
    }
    let text = response.text().await.map_err(|e| failed(e.to_string()))?;
    let parsed: Value = serde_json::from_str(&text).map_err(|e| failed(e.to_string()))?;
    provide_atlas(atlas, parsed);
    ATLASES.with(|maps| maps.borrow().get(atlas.name).cloned()).ok_or_else(|| failed("not kept".to_owned()))
}

/// Keeps `topology` as the map `atlas` for this page, so no fetch is made for it (a page that
/// already holds the file, or a test without the app's server).
pub fn provide_atlas(atlas: Atlas, topology: Value) {
    ATLASES.with(|maps| maps.borrow_mut().insert(atlas.name, Rc::new(topology)));
}

/// A drawn chart; dropping it stops its view (timers, listeners) and its tooltip handler.
pub struct Chart {
    view: JsValue,
    host: Element,
    /// The size it was last drawn at, so an unchanged size does not run the view again.
    size: Cell<(f64, f64)>,
    /// Which of width and height it takes from its widget.
    fills: [bool; 2],
    /// Whether the app's `fit` autosize sizes it to its widget both ways (see `layout`).
    fitted: bool,
    _tooltip: Closure<dyn Fn(JsValue, MouseEvent, JsValue, JsValue)>,
    _logger: [Closure<dyn Fn(JsValue)>; 2],
}

impl Chart {
    /// Redraws at `width` x `height` CSS pixels (the chart's whole box).
    pub fn resize(&self, width: f64, height: f64) {
        // A chart was drawn by the engine's chunk, so it is here.
        if let Some(charts) = charts().ready() {
            (charts.resize)(self, width, height);
        }
    }
}

fn resize_now(chart: &Chart, width: f64, height: f64) {
    let before = chart.size.replace((width, height));
    if before == (width, height) || chart.fills == [false, false] {
        return;
    }
    let view = &chart.view;
    // Its last layout's margins are the best guess at the new one's.
    let presized = chart.fitted
        && layout::measured(view, before).is_some_and(|margins| layout::presize(view, (width, height), margins, false));
    if !presized {
        for ((name, value), fills) in [("width", width), ("height", height)].into_iter().zip(chart.fills) {
            if fills {
                let _ = call(view, name, &[value.into()]);
            }
        }
    }
    let _ = call(view, "runAsync", &[]);
}

impl Drop for Chart {
    fn drop(&mut self) {
        CANVAS_VIEWS.with(|views| views.borrow_mut().retain(|(host, _)| *host != self.host));
        let _ = call(&self.view, "finalize", &[]);
    }
}

/// Draws `spec` into `host` ([`draw`]).
///
/// The dataflow the check parsed is drawn as it is, sized by the view's signals: a spec is compiled
/// and parsed once. A spec naming a built-in map is compiled here, with the map's outlines inlined.
async fn draw_now(host: &Element, tip: &HtmlElement, spec: &Value, size: (f64, f64), paper: bool) -> Result<Drawn, String> {
    load_engine_now().await?;
    let maps = vega_lite::atlases_used(spec);
    let compiled = if maps.is_empty() {
        compiled(spec, paper)?
    } else {
        let mut loaded = Vec::new();
        for map in maps {
            loaded.push((map, (*atlas(map).await?).clone()));
        }
        let (with_maps, config) = source(vega_lite::with_atlases(spec, &loaded), size, vega_lite::drawn_on_canvas(spec), paper);
        compile_now(&with_maps, &config)?
    };
    if let Some(error) = compiled.verdict.errors.into_iter().next() {
        return Err(error);
    }
    let mut warnings = compiled.verdict.warnings;

    let kept = Rc::new(RefCell::new(Vec::new()));
    let (logger, logger_closures) = logger(kept.clone())?;
    let tooltip = tooltip_handler(host.clone(), tip.clone());
    let canvas = vega_lite::drawn_on_canvas(spec);
    let options = Object::new();
    set(&options, "renderer", &(if canvas { "canvas" } else { "svg" }).into());
    set(&options, "loader", &LOADER.with(Clone::clone));
    set(&options, "logger", &logger);
    set(&options, "expr", &Reflect::get(&global("vegaInterpreter")?, &"expressionInterpreter".into()).map_err(error_text)?);
    let view_class: Function = Reflect::get(&global("vega")?, &"View".into()).map_err(error_text)?.unchecked_into();
    let view = Reflect::construct(&view_class, &Array::of2(&compiled.runtime, &options)).map_err(error_text)?;
    let fills = ["width", "height"].map(|key| {
        fills_widget(spec, key) && Reflect::get(&compiled.vega, &key.into()).is_ok_and(|own| own.as_f64().is_some())
    });
    let fitted = fills == [true, true] && spec.get("autosize").is_none();
    let chart = Chart { view, host: host.clone(), size: Cell::new(size), fills, fitted, _tooltip: tooltip, _logger: logger_closures };
    let view = &chart.view;
    call(view, "tooltip", &[chart._tooltip.as_ref().clone()])?;
    // Sized before the renderer is made, so it is made at its size.
    let shape = fitted.then(|| layout::shape(spec));
    let presized = shape
        .as_deref()
        .and_then(layout::remembered)
        .is_some_and(|margins| layout::presize(view, size, margins, true));
    if !presized {
        for ((key, value), fills) in [("width", size.0), ("height", size.1)].into_iter().zip(fills) {
            if fills {
                call(view, key, &[value.into()])?;
            }
        }
    }
    // The container is emptied by the view (a chart drawn here before included).
    call(view, "initialize", &[host.into()])?;
    let run: Promise = call(view, "runAsync", &[])?.dyn_into().map_err(|_| "the view did not run".to_owned())?;
    JsFuture::from(run).await.map_err(error_text)?;
    if let Some(shape) = shape
        && let Some(margins) = layout::measured(view, size)
    {
        layout::remember(shape, margins);
    }
    for warning in kept.borrow().iter() {
        if !warnings.contains(warning) {
            warnings.push(warning.clone());
        }
    }
    label_canvas(host, spec, canvas);
    if canvas {
        CANVAS_VIEWS.with(|views| views.borrow_mut().push((host.clone(), view.clone())));
    }
    Ok((chart, warnings))
}

/// A chart drawn on a canvas is one image to assistive technology, named by its title (an SVG
/// chart describes its own marks and axes).
fn label_canvas(host: &Element, spec: &Value, canvas: bool) {
    if !canvas {
        let _ = host.remove_attribute("role");
        let _ = host.remove_attribute("aria-label");
        return;
    }
    let title = match &spec["title"] {
        Value::String(title) => title.clone(),
        Value::Object(title) => title.get("text").and_then(Value::as_str).unwrap_or_default().to_owned(),
        _ => String::new(),
    };
    let rows = vega_lite::rows(spec);
    let label = if title.is_empty() { format!("Chart of {rows} rows") } else { format!("{title}: chart of {rows} rows") };
    let _ = host.set_attribute("role", "img");
    let _ = host.set_attribute("aria-label", &label);
}

/// The chart drawn on a canvas in `host` as standalone SVG markup, for the SVG and PNG exports as an
/// SVG chart's own markup is (its colours were resolved when it was drawn). `None` when `host`
/// holds no canvas chart. A chart on a canvas was drawn by the engine's chunk; this reads what it
/// kept, so it is not part of the chunk.
pub async fn canvas_chart_svg(host: &Element) -> Option<String> {
    let view = CANVAS_VIEWS.with(|views| views.borrow().iter().find(|(drawn, _)| drawn == host).map(|(_, view)| view.clone()))?;
    let to_svg: Function = Reflect::get(&view, &"toSVG".into()).ok()?.dyn_into().ok()?;
    let promise: Promise = to_svg.call0(&view).ok()?.dyn_into().ok()?;
    JsFuture::from(promise).await.ok()?.as_string()
}

/// `spec` sized to fill its widget and the theme's config, each as JSON text. A canvas cannot read CSS
/// variables: for a chart drawn on one, both have the theme's colours written in as the page shows
/// them now, or for `paper` the light theme's.
fn source(spec: Value, size: (f64, f64), canvas: bool, paper: bool) -> (String, String) {
    let (spec, config) = (sized(spec, size).to_string(), theme(canvas).to_string());
    if canvas { (tokens::resolve(spec, paper), tokens::resolve(config, paper)) } else { (spec, config) }
}

/// The page's [`ChartCompiler`]: the engine's own compile and parse steps (Vega-Lite to Vega, then
/// Vega's parser with expressions as ASTs), run before a `vega-lite` widget is shown.
pub struct EngineCompiler;

impl ChartCompiler for EngineCompiler {
    fn prepare(&self) {
        wasm_bindgen_futures::spawn_local(async {
            let _ = load_engine().await;
        });
    }

    fn compile<'a>(&'a self, spec: &'a Value) -> LocalBoxFuture<'a, Result<ChartVerdict, String>> {
        Box::pin(compile(spec))
    }
}

/// A spec compiled to Vega at [`PLANNED_SIZE`] and parsed to a dataflow (a view is built from it),
/// with what the engine said about it.
#[derive(Clone)]
struct Compiled {
    vega: JsValue,
    runtime: JsValue,
    verdict: ChartVerdict,
}

/// The size a spec is compiled at before its widget is laid out; the drawing sets the real one.
const PLANNED_SIZE: (f64, f64) = (480.0, 300.0);

/// Compiled specs kept for their drawing, newest last.
const KEPT_COMPILED: usize = 4;

thread_local! {
    static COMPILED: RefCell<Vec<(String, Compiled)>> = const { RefCell::new(Vec::new()) };
    /// The views of the charts drawn on a canvas, by their host, for their SVG export.
    static CANVAS_VIEWS: RefCell<Vec<(Element, JsValue)>> = const { RefCell::new(Vec::new()) };
}

async fn verdict(spec: &Value) -> Result<ChartVerdict, String> {
    load_engine_now().await?;
    Ok(compiled(spec, false)?.verdict)
}

/// `spec` compiled at [`PLANNED_SIZE`] (for `paper`, see [`draw`]): the kept one, or compiled now
/// and kept (a chart on a canvas is compiled again once the colours written in have changed).
fn compiled(spec: &Value, paper: bool) -> Result<Compiled, String> {
    let (spec, config) = source(spec.clone(), PLANNED_SIZE, vega_lite::drawn_on_canvas(spec), paper);
    let key = format!("{config}\n{spec}");
    let kept = COMPILED.with(|kept| kept.borrow().iter().find(|(known, _)| *known == key).map(|(_, compiled)| compiled.clone()));
    if let Some(compiled) = kept {
        return Ok(compiled);
    }
    let compiled = compile_now(&spec, &config)?;
    COMPILED.with(|kept| {
        let mut kept = kept.borrow_mut();
        if kept.len() == KEPT_COMPILED {
            kept.remove(0);
        }
        kept.push((key, compiled.clone()));
    });
    Ok(compiled)
}

/// Compiles `spec` (JSON text, already sized) with Vega-Lite and `config`, and parses the result with
/// Vega into the dataflow a view is built from.
fn compile_now(spec: &str, config: &str) -> Result<Compiled, String> {
    let spec = JSON::parse(spec).map_err(|_| "the spec is not JSON".to_owned())?;
    let kept = Rc::new(RefCell::new(Vec::new()));
    let (logger, _closures) = logger(kept.clone())?;
    let options = Object::new();
    set(&options, "logger", &logger);
    set(&options, "config", &JSON::parse(config).map_err(error_text)?);
    let (lite, vega) = (global("vegaLite")?, global("vega")?);
    let method = |module: &JsValue, name: &str| {
        Reflect::get(module, &name.into()).and_then(|f| f.dyn_into::<Function>()).map_err(error_text)
    };
    let mut verdict = ChartVerdict::default();
    let (mut vega_spec, mut runtime) = (JsValue::NULL, JsValue::NULL);
    match method(&lite, "compile")?.call2(&lite, &spec, &options) {
        Err(error) => verdict.errors.push(error_text(error)),
        Ok(compiled) => {
            vega_spec = Reflect::get(&compiled, &"spec".into()).map_err(error_text)?;
            let parse_options = JSON::parse(r#"{"ast": true}"#).map_err(error_text)?;
            // The config is already in the compiled spec.
            match method(&vega, "parse")?.call3(&vega, &vega_spec, &Object::new(), &parse_options) {
                Ok(parsed) => runtime = parsed,
                Err(error) => verdict.errors.push(error_text(error)),
            }
        }
    }
    verdict.warnings = kept.borrow().clone();
    Ok(Compiled { vega: vega_spec, runtime, verdict })
}

/// Whether `spec` takes its `key` (width or height) from the widget: a single view without a
/// number of its own.
fn fills_widget(spec: &Value, key: &str) -> bool {
    let Some(map) = spec.as_object() else { return false };
    (map.contains_key("mark") || map.contains_key("layer")) && !map.get(key).is_some_and(Value::is_number)
}

/// Single views without a size of their own fill the widget (`autosize: fit`); compositions
/// (concat, facet, repeat) keep their own layout.
fn sized(mut spec: Value, (width, height): (f64, f64)) -> Value {
    let fills = [("width", width), ("height", height)].map(|(key, value)| (key, value, fills_widget(&spec, key)));
    let single = spec.as_object().is_some_and(|map| map.contains_key("mark") || map.contains_key("layer"));
    let Some(map) = spec.as_object_mut() else { return spec };
    map.remove("usermeta");
    for (key, value, fills) in fills {
        if fills {
            map.insert(key.to_owned(), value.into());
        }
    }
    if single {
        map.entry("autosize").or_insert_with(|| serde_json::json!({"type": "fit", "contains": "padding"}));
    }
    spec
}

/// Axis, legend and title colours from the design tokens as CSS variables, so a theme switch
/// recolours a drawn SVG chart without redrawing it (and the SVG export resolves them); a `canvas`
/// chart's marks and axes get no ARIA descriptions (a canvas shows none).
fn theme(canvas: bool) -> Value {
    let category: Vec<String> = (1..=8).map(|n| format!("var(--au-series-{n})")).collect();
    let mut config = serde_json::json!({
        "background": null,
        "font": "system-ui, -apple-system, Segoe UI, Roboto, sans-serif",
        "view": {"stroke": "var(--au-border-2)"},
        "axis": {"labelColor": "var(--au-text-2)", "titleColor": "var(--au-text)", "gridColor": "var(--au-border)",
                 "domainColor": "var(--au-border-2)", "tickColor": "var(--au-border-2)"},
        "legend": {"labelColor": "var(--au-text-2)", "titleColor": "var(--au-text)"},
        "title": {"color": "var(--au-text)", "subtitleColor": "var(--au-text-2)"},
        "header": {"labelColor": "var(--au-text-2)", "titleColor": "var(--au-text)"},
        "text": {"color": "var(--au-text)"},
        "mark": {"color": "var(--au-series-1)"},
        "range": {"category": category},
        // A parameter's input is drawn in the chart's own container, whatever element it names.
        "events": {"bind": "container"},
    });
    if canvas {
        config["aria"] = false.into();
    }
    config
}

/// The logger's warning and error handlers, which must live as long as the logger.
type LoggerHandlers = [Closure<dyn Fn(JsValue)>; 2];

/// vega's own logger with its warnings and errors kept for the widget (not the console).
fn logger(kept: Rc<RefCell<Vec<String>>>) -> Result<(JsValue, LoggerHandlers), String> {
    let vega = global("vega")?;
    let make: Function = Reflect::get(&vega, &"logger".into()).and_then(|f| f.dyn_into()).map_err(error_text)?;
    let warn_level = Reflect::get(&vega, &"Warn".into()).unwrap_or(JsValue::from(2));
    let logger = make.call1(&vega, &warn_level).map_err(error_text)?;
    let keep = |kept: Rc<RefCell<Vec<String>>>| {
        Closure::<dyn Fn(JsValue)>::new(move |message: JsValue| {
            let text = message.as_string().unwrap_or_else(|| error_text(message));
            let mut kept = kept.borrow_mut();
            if kept.len() < 20 && !kept.contains(&text) {
                kept.push(text);
            }
        })
    };
    let closures = [keep(kept.clone()), keep(kept)];
    set(&logger, "warn", closures[0].as_ref());
    set(&logger, "error", closures[1].as_ref());
    Ok((logger, closures))
}

/// Vega calls this with the hovered item's tooltip value; it is shown as text in `tip`.
fn tooltip_handler(host: Element, tip: HtmlElement) -> Closure<dyn Fn(JsValue, MouseEvent, JsValue, JsValue)> {
    Closure::new(move |_handler: JsValue, event: MouseEvent, _item: JsValue, value: JsValue| {
        let text = tooltip_text(&value);
        if text.is_empty() {
            let _ = tip.set_attribute("hidden", "");
            return;
        }
        tip.set_text_content(Some(&text));
        let _ = tip.remove_attribute("hidden");
        let rect = host.get_bounding_client_rect();
        let (x, y) = (f64::from(event.client_x()) - rect.left(), f64::from(event.client_y()) - rect.top());
        let style = tip.style();
        let _ = style.set_property("left", &format!("{}px", x + 12.0));
        let _ = style.set_property("top", &format!("{}px", y + 12.0));
    })
}

/// A tooltip value as plain lines: `field: value` for an object, the value itself otherwise.
fn tooltip_text(value: &JsValue) -> String {
    if value.is_null() || value.is_undefined() {
        return String::new();
    }
    let parsed: Value = JSON::stringify(value)
        .ok()
        .and_then(|text| text.as_string())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    let scalar = |value: &Value| match value {
        Value::String(text) => text.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    match parsed {
        Value::Object(fields) => {
            fields.iter().map(|(key, value)| format!("{key}: {}", scalar(value))).collect::<Vec<_>>().join("\n")
        }
        other => scalar(&other),
    }
}

/// A loader whose every method refuses: no data, image or link URL is ever fetched or opened.
fn refusing_loader() -> JsValue {
    let loader = Object::new();
    for method in ["load", "sanitize", "http", "file"] {
        let refuse = Closure::<dyn Fn(JsValue) -> Promise>::new(move |uri: JsValue| {
            let shown = uri.as_string().unwrap_or_default();
            let error = js_sys::Error::new(&format!(
                "the chart loads nothing from the network: refused {shown:?}; put the rows in data.values"
            ));
            Promise::reject(&error)
        });
        set(&loader, method, &refuse.into_js_value());
    }
    loader.into()
}

fn global(name: &str) -> Result<JsValue, String> {
    Reflect::get(&js_sys::global(), &name.into())
        .ok()
        .filter(|value| !value.is_undefined())
        .ok_or_else(|| format!("the chart engine is not loaded ({name} is missing)"))
}

/// Calls `target.name(...args)`.
fn call(target: &JsValue, name: &str, args: &[JsValue]) -> Result<JsValue, String> {
    let method: Function = Reflect::get(target, &name.into()).and_then(|f| f.dyn_into()).map_err(error_text)?;
    method.apply(target, &args.iter().collect::<Array>()).map_err(error_text)
}

fn set(target: &JsValue, key: &str, value: &JsValue) {
    let _ = Reflect::set(target, &key.into(), value);
}

/// An exception's message.
fn error_text(error: JsValue) -> String {
    Reflect::get(&error, &"message".into())
        .ok()
        .and_then(|message| message.as_string())
        .or_else(|| error.as_string())
        .unwrap_or_else(|| Array::of1(&error).join("").into())
}
