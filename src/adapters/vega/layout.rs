//! Starting a view at the plot size its layout will find, so that vega's `fit` layout does not run
//! the whole dataflow a second time.
//!
//! A widget-filling chart is sized with `autosize: fit`: vega runs the dataflow once at a guessed
//! plot size, measures the space its axes, legends and title take around the plot, and runs it
//! again at the plot size that leaves them room. On 1,000 points that second run is most of a
//! chart's drawing time. The margins a chart of the same shape (its spec without its data) took
//! last time are usually the margins this one takes: the view starts with them, and vega's own
//! correcting run happens only when the guess was wrong, so a wrong guess costs what no guess
//! costs.
//!
//! Setting the plot size without vega taking it as the whole view's size needs vega-view's private
//! fields (`_resizeWidth` and the like, read and set as its own `resizeView` does; vega 6.4.0 is
//! pinned by vendor/charts/package-lock.json). Without them the view is sized the public way.

use std::cell::RefCell;

use js_sys::{Array, Function, Reflect};
use serde_json::{Map, Value};
use wasm_bindgen::{JsCast, JsValue};

/// The space around a chart's plot (axes, legends, title), in CSS pixels, inside its padding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Margins {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

/// Shapes remembered, newest last.
const KEPT: usize = 16;

thread_local! {
    static BY_SHAPE: RefCell<Vec<(String, Margins)>> = const { RefCell::new(Vec::new()) };
}

/// What a spec's margins depend on: the spec without its rows and with its title's text reduced
/// to whether it has one.
pub fn shape(spec: &Value) -> String {
    fn without_data(value: &Value) -> Value {
        match value {
            Value::Object(map) => Value::Object(
                map.iter()
                    .filter(|(key, _)| !matches!(key.as_str(), "data" | "datasets" | "usermeta" | "description"))
                    .map(|(key, value)| match key.as_str() {
                        "title" => (key.clone(), Value::Bool(true)),
                        _ => (key.clone(), without_data(value)),
                    })
                    .collect::<Map<_, _>>(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(without_data).collect()),
            other => other.clone(),
        }
    }
    without_data(spec).to_string()
}

/// The margins the last chart of `shape` took.
pub fn remembered(shape: &str) -> Option<Margins> {
    BY_SHAPE.with(|kept| kept.borrow().iter().rev().find(|(known, _)| known == shape).map(|(_, margins)| *margins))
}

pub fn remember(shape: String, margins: Margins) {
    BY_SHAPE.with(|kept| {
        let mut kept = kept.borrow_mut();
        kept.retain(|(known, _)| *known != shape);
        if kept.len() == KEPT {
            kept.remove(0);
        }
        kept.push((shape, margins));
    });
}

/// The margins `view`'s last layout found, drawn at `size` (its whole box).
pub fn measured(view: &JsValue, size: (f64, f64)) -> Option<Margins> {
    let origin: Array = call(view, "origin", &[])?.dyn_into().ok()?;
    let (left, top) = (origin.get(0).as_f64()?, origin.get(1).as_f64()?);
    let (plot_width, plot_height) = (call(view, "width", &[])?.as_f64()?, call(view, "height", &[])?.as_f64()?);
    let padding = Padding::of(view)?;
    let right = size.0 - padding.horizontal() - plot_width - left;
    let bottom = size.1 - padding.vertical() - plot_height - top;
    [left, top, right, bottom].iter().all(|side| side.is_finite() && *side >= 0.0).then_some(Margins { left, top, right, bottom })
}

/// Sizes `view` (whose `fit` layout has not run at `size` yet) to `size` with its plot already
/// inside `margins`. False when it could not: the caller sizes it the public way.
pub fn presize(view: &JsValue, size: (f64, f64), margins: Margins, first_run: bool) -> bool {
    let Some(padding) = Padding::of(view) else { return false };
    let (inner_width, inner_height) = (size.0 - padding.horizontal(), size.1 - padding.vertical());
    let plot = (inner_width - margins.left - margins.right, inner_height - margins.top - margins.bottom);
    if plot.0 < 1.0 || plot.1 < 1.0 {
        return false;
    }
    let handlers = ["_resizeWidth", "_resizeHeight"].map(|name| Reflect::get(view, &name.into()).ok());
    let [Some(width_handler), Some(height_handler)] = handlers else { return false };
    if [&width_handler, &height_handler].iter().any(|handler| !Reflect::get(handler, &"skip".into()).is_ok_and(|skip| skip.is_function())) {
        return false;
    }
    for (signal, value, handler) in [("width", plot.0, &width_handler), ("height", plot.1, &height_handler)] {
        // The handler would take the plot size for the view's; it runs on a view's first run, and
        // later only when the signal changes (a skip left set would swallow a later change).
        let changes = call(view, signal, &[]).and_then(|now| now.as_f64()) != Some(value);
        if first_run || changes {
            let _ = call(handler, "skip", &[true.into()]);
        }
        let _ = call(view, signal, &[value.into()]);
    }
    let origin = Array::of2(&margins.left.into(), &margins.top.into());
    for (field, value) in [
        ("_width", JsValue::from(size.0)),
        ("_height", size.1.into()),
        ("_viewWidth", inner_width.into()),
        ("_viewHeight", inner_height.into()),
        ("_origin", origin.into()),
        // The renderer takes the new size, and the layout still checks the guess.
        ("_resize", 1.into()),
        ("_autosize", 1.into()),
    ] {
        let _ = Reflect::set(view, &field.into(), &value);
    }
    true
}

struct Padding {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

impl Padding {
    fn of(view: &JsValue) -> Option<Padding> {
        let padding = call(view, "padding", &[])?;
        let side = |name: &str| Reflect::get(&padding, &name.into()).ok().and_then(|value| value.as_f64());
        Some(Padding { left: side("left")?, top: side("top")?, right: side("right")?, bottom: side("bottom")? })
    }

    fn horizontal(&self) -> f64 {
        self.left + self.right
    }

    fn vertical(&self) -> f64 {
        self.top + self.bottom
    }
}

fn call(target: &JsValue, name: &str, args: &[JsValue]) -> Option<JsValue> {
    let method: Function = Reflect::get(target, &name.into()).ok()?.dyn_into().ok()?;
    method.apply(target, &args.iter().collect::<Array>()).ok()
}
