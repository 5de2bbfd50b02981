//! The `canvas` tool: list, update, move, resize, style, remove and clear widgets already shown.
//! Every action answers with the post-state of what it touched, so the model never guesses.

use serde_json::{Map, Value, json};

use crate::autoui::{AutoUi, Updated};
use crate::autoui::bind;
use crate::autoui::error::AutoUiError;
use crate::autoui::view;
use crate::binding::source::Binding;
use crate::canvas::model::{Block, GRID_COLUMNS, Layout};
use crate::canvas::op::{Applied, Op};
use crate::ids::BlockId;
use crate::recipes::repair::{self, Fix, Repair};
use crate::recipes::validate::preview;
use crate::tool::Origin;

/// The largest coordinate or size accepted before the canvas clamps it onto the grid.
const MAX_GRID_VALUE: f64 = 10_000.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    List,
    Update,
    Move,
    Resize,
    Style,
    Remove,
    Clear,
}

impl Action {
    const ALL: [Action; 7] = [
        Action::List,
        Action::Update,
        Action::Move,
        Action::Resize,
        Action::Style,
        Action::Remove,
        Action::Clear,
    ];

    fn as_str(self) -> &'static str {
        match self {
            Action::List => "list",
            Action::Update => "update",
            Action::Move => "move",
            Action::Resize => "resize",
            Action::Style => "style",
            Action::Remove => "remove",
            Action::Clear => "clear",
        }
    }

    fn parse(value: Option<&Value>) -> Result<Action, AutoUiError> {
        let name = value
            .and_then(Value::as_str)
            .map(|name| name.trim().to_ascii_lowercase())
            .unwrap_or_default();
        Action::ALL
            .into_iter()
            .find(|action| action.as_str() == name)
            .ok_or_else(|| {
                let all: Vec<&str> = Action::ALL.iter().map(|action| action.as_str()).collect();
                let got = value.map_or_else(|| "nothing".to_owned(), preview);
                AutoUiError::BadArguments(format!(
                    "unknown canvas action {got}; use one of: {}",
                    all.join(", ")
                ))
            })
    }
}

pub async fn canvas(ui: &AutoUi, args: Value, origin: Origin) -> Result<Value, AutoUiError> {
    let Value::Object(mut args) = args else {
        return Err(AutoUiError::BadArguments(format!(
            "canvas takes {{\"action\": \"...\", \"id\": \"w_...\", \"params\": {{...}}}}; got {}",
            preview(&args)
        )));
    };
    let action = Action::parse(args.get("action"))?;
    args.remove("action");
    let id = match args.remove("id") {
        Some(Value::String(id)) if !id.trim().is_empty() => Some(BlockId::new(id.trim())),
        _ => None,
    };
    let mut params = object_argument(args.remove("params"), "params")?;
    // Arguments given beside `params` (`{action: "move", id, x: 3}`) count as params.
    for (key, value) in args {
        params.entry(key).or_insert(value);
    }

    match action {
        Action::List => {
            let widgets: Vec<Value> = ui
                .canvas
                .blocks()
                .iter()
                .map(|block| view::block_json(block, false))
                .collect();
            Ok(json!({ "action": "list", "widgets": widgets }))
        }
        Action::Clear => {
            let applied = ui.canvas.apply(Op::Clear, origin)?;
            Ok(json!({ "action": "clear", "removed": applied.removed, "widgets": [] }))
        }
        _ => {
            let id = id.ok_or_else(|| AutoUiError::MissingId {
                action: action.as_str(),
                existing: existing_ids(ui),
            })?;
            let block = ui.block(&id)?;
            match action {
                Action::Update => update(ui, &block, params, origin).await,
                Action::Move => place(ui, &block, &params, origin, Placement::Move),
                Action::Resize => place(ui, &block, &params, origin, Placement::Resize),
                Action::Style => style(ui, &block, params, origin),
                _ => {
                    let applied = ui.canvas.apply(
                        Op::Remove {
                            id: block.id.clone(),
                        },
                        origin,
                    )?;
                    Ok(
                        json!({ "action": "remove", "removed": applied.removed, "remaining": ui.canvas.blocks().len() }),
                    )
                }
            }
        }
    }
}

async fn update(
    ui: &AutoUi,
    block: &Block,
    mut params: Map<String, Value>,
    origin: Origin,
) -> Result<Value, AutoUiError> {
    let mut notes = Vec::new();
    let source = params.remove("source");
    let patch = match params.remove("data") {
        Some(Value::Object(data)) => Some(data),
        Some(Value::String(text)) => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(data)) => Some(data),
            _ => {
                params.insert("data".to_owned(), Value::String(text));
                None
            }
        },
        // `data` that is not an object is the widget's own `data` field (chart-rich series, json-viewer).
        Some(field) => {
            params.insert("data".to_owned(), field);
            None
        }
        None => None,
    };
    let patch = match patch {
        Some(mut patch) => {
            for (key, value) in params {
                patch.entry(key).or_insert(value);
            }
            patch
        }
        None => {
            notes.push(Repair {
                path: String::new(),
                fix: Fix::PatchWithoutData,
            });
            params
        }
    };
    let source = match source {
        None => None,
        Some(Value::Null) => {
            ui.canvas.apply(Op::Bind { id: block.id.clone(), binding: None }, origin.clone())?;
            if patch.is_empty() {
                let unbound = ui.block(&block.id)?;
                return Ok(json!({ "action": "update", "unbound": true, "widget": view::block_json(&unbound, false) }));
            }
            None
        }
        Some(source) => Some(AutoUi::parse_source(&source)?),
    };
    if patch.is_empty() && source.is_none() {
        return Err(AutoUiError::BadArguments(
            "nothing to update: give the fields to change as params.data, e.g. {\"data\": {\"value\": \"42\"}}, \
             or a source to bind, or \"source\": null to unbind"
                .to_owned(),
        ));
    }
    let updated = match &source {
        None => ui.update_block_when_ready(&block.id, Value::Object(patch), origin).await?,
        Some(source) => {
            let current = ui.merged(block, &Value::Object(patch))?;
            let (mut fetched, at_ms) = ui.run_source(source, &current).await?;
            // A name the person gave by hand stays through a new source, as through its refreshes.
            let binding = Binding::replacing(block.binding.as_deref(), source.clone(), at_ms);
            binding.keep_rename(block.kind, &current, &mut fetched.params);
            let updated = ui
                .update_block_when_ready(&block.id, fetched.params.clone(), origin.clone())
                .await
                .map_err(|error| bind::invalid_from_map(error, &fetched.mapped()))?;
            ui.bind(&block.id, binding, origin)?;
            Updated { block: ui.block(&block.id)?, ..updated }
        }
    };
    let mut body = json!({ "action": "update", "widget": view::block_json(&updated.block, true) });
    let repairs = [notes, updated.repairs].concat();
    if !repairs.is_empty() {
        body["repairs"] = json!(repair::summarise(&repairs));
    }
    if !updated.dropped.is_empty() {
        body["dropped"] = json!(updated.dropped);
    }
    if !updated.warnings.is_empty() {
        body["warnings"] = json!(updated.warnings);
    }
    if let Some(source) = &source {
        body["source"] = bind::source_json(source);
    }
    Ok(body)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Placement {
    Move,
    Resize,
}

fn place(
    ui: &AutoUi,
    block: &Block,
    params: &Map<String, Value>,
    origin: Origin,
    kind: Placement,
) -> Result<Value, AutoUiError> {
    let current = block.layout;
    let (op, asked, action) = match kind {
        Placement::Move => {
            let x = grid_value(params, &["x"], "x", 0)?;
            let y = grid_value(params, &["y"], "y", 0)?;
            if x.is_none() && y.is_none() {
                return Err(grid_error("move needs \"x\" and/or \"y\"", None));
            }
            let (x, y) = (x.unwrap_or(current.x), y.unwrap_or(current.y));
            (
                Op::Move {
                    id: block.id.clone(),
                    x,
                    y,
                },
                Layout { x, y, ..current },
                "move",
            )
        }
        Placement::Resize => {
            let w = grid_value(params, &["width", "w"], "width", 1)?;
            let h = grid_value(params, &["height", "h"], "height", 1)?;
            if w.is_none() && h.is_none() {
                return Err(grid_error("resize needs \"width\" and/or \"height\"", None));
            }
            let (w, h) = (w.unwrap_or(current.w), h.unwrap_or(current.h));
            (
                Op::Resize {
                    id: block.id.clone(),
                    w,
                    h,
                },
                Layout { w, h, ..current },
                "resize",
            )
        }
    };
    let applied = ui.canvas.apply(op, origin)?;
    let after = ui.block(&block.id)?;
    let mut body = json!({ "action": action, "widget": view::block_json(&after, false) });
    let pushed = pushed_aside(&applied, &block.id);
    if !pushed.is_empty() {
        body["pushed"] = json!(pushed);
    }
    if (asked.x, asked.y, asked.w, asked.h)
        != (
            after.layout.x,
            after.layout.y,
            after.layout.w,
            after.layout.h,
        )
    {
        body["adjusted"] = json!(format!(
            "asked {}; the canvas keeps widgets on its {GRID_COLUMNS} columns and right below the others, so it is at {}",
            layout_text(&asked),
            layout_text(&after.layout)
        ));
    }
    Ok(body)
}

fn style(
    ui: &AutoUi,
    block: &Block,
    mut params: Map<String, Value>,
    origin: Origin,
) -> Result<Value, AutoUiError> {
    let declarations = match params.remove("styles").or_else(|| params.remove("style")) {
        Some(styles) => object_argument(Some(styles), "params.styles")?,
        None => params,
    };
    if declarations.is_empty() {
        return Err(AutoUiError::BadArguments(
            "style needs CSS declarations as params.styles, e.g. {\"styles\": {\"background\": \"#0f172a\", \"color\": \"#f8fafc\"}}"
                .to_owned(),
        ));
    }
    let (style, rejected) = block.style.patched(&declarations);
    if rejected.len() == declarations.len() {
        return Err(AutoUiError::StyleRejected(rejected));
    }
    ui.canvas.apply(
        Op::Style {
            id: block.id.clone(),
            style,
        },
        origin,
    )?;
    let after = ui.block(&block.id)?;
    let mut body = json!({ "action": "style", "widget": view::block_json(&after, false) });
    if !rejected.is_empty() {
        body["rejected"] = json!(rejected.iter().map(ToString::to_string).collect::<Vec<_>>());
    }
    Ok(body)
}

/// Other blocks the op pushed down to make room.
fn pushed_aside(applied: &Applied, target: &BlockId) -> Vec<Value> {
    applied
        .changed
        .iter()
        .filter(|block| &block.id != target)
        .map(|block| json!({ "id": block.id, "layout": view::layout_json(&block.layout) }))
        .collect()
}

fn layout_text(layout: &Layout) -> String {
    format!(
        "x {} y {} width {} height {}",
        layout.x, layout.y, layout.w, layout.h
    )
}

/// A whole number of grid units from a number or numeric text; CSS lengths are refused with the units explained.
fn grid_value(
    params: &Map<String, Value>,
    keys: &[&str],
    name: &str,
    min: u32,
) -> Result<Option<u32>, AutoUiError> {
    let Some(value) = keys.iter().find_map(|key| params.get(*key)) else {
        return Ok(None);
    };
    let number = match value {
        Value::Number(number) => number.as_f64(),
        Value::String(text) => {
            let text = text.trim();
            let plain = !text.is_empty()
                && text
                    .bytes()
                    .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+'));
            plain.then(|| text.parse::<f64>().ok()).flatten()
        }
        _ => None,
    };
    match number {
        Some(number)
            if number.fract() == 0.0 && number >= f64::from(min) && number <= MAX_GRID_VALUE =>
        {
            Ok(Some(number as u32))
        }
        _ => Err(grid_error(
            &format!("{name} must be a whole number of grid units, at least {min}"),
            Some(value),
        )),
    }
}

fn grid_error(problem: &str, got: Option<&Value>) -> AutoUiError {
    let got = got
        .map(|value| format!("; got {}", preview(value)))
        .unwrap_or_default();
    AutoUiError::BadArguments(format!(
        "{problem}{got}. The canvas is a grid of {GRID_COLUMNS} columns: x counts columns from 0 (left), y rows \
         from 0 (top), width is 1-{GRID_COLUMNS} columns, height a number of rows; CSS lengths such as \"400px\" \
         do not apply. Example: {{\"x\": 6, \"y\": 0}} or {{\"width\": 6, \"height\": 4}}"
    ))
}

/// An optional argument that must be an object (JSON text of an object is accepted).
fn object_argument(value: Option<Value>, name: &str) -> Result<Map<String, Value>, AutoUiError> {
    match value {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(map)) => Ok(map),
        Some(Value::String(text)) => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(map)) => Ok(map),
            _ => Err(AutoUiError::BadArguments(format!(
                "{name} must be an object; got a string that is not a JSON object"
            ))),
        },
        Some(other) => Err(AutoUiError::BadArguments(format!(
            "{name} must be an object, got {}",
            preview(&other)
        ))),
    }
}

fn existing_ids(ui: &AutoUi) -> Vec<BlockId> {
    ui.canvas
        .blocks()
        .into_iter()
        .map(|block| block.id)
        .collect()
}
