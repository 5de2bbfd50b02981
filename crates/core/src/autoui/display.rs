//! `widget_display`: resolve the widget, repair, sanitise and validate its params, add it to the
//! canvas, and answer with what was actually rendered.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use crate::autoui::AutoUi;
use crate::autoui::bind;
use crate::autoui::discovery;
use crate::autoui::error::AutoUiError;
use crate::autoui::view;
use crate::binding::source::Binding;
use crate::canvas::op::{CanvasError, Op};
use crate::canvas::style::Style;
use crate::ids::BlockId;
use crate::recipes::check::{CheckError, Rejected};
use crate::recipes::repair::{self, Fix, Repair};
use crate::recipes::validate::{Detail, preview, push_segment};
use crate::tool::Origin;
use crate::widget_kind::WidgetKind;

/// Fresh ids drawn before giving up on collisions (six base-36 characters: practically never needed).
const ID_ATTEMPTS: usize = 8;

const USAGE: &str = "widget_display takes {\"name\": \"<widget>\", \"params\": {...}}";

/// A call's widget name and params, after the envelope repairs.
struct Call {
    name: String,
    params: Value,
    source: Option<Value>,
    repairs: Vec<Repair>,
}

pub async fn widget_display(
    ui: &AutoUi,
    args: Value,
    origin: Origin,
) -> Result<Value, AutoUiError> {
    let call = envelope(args)?;
    let recipe = discovery::find(ui.registry, &call.name)?;
    refuse_views_from_outside(recipe.kind, &origin)?;
    let source = call.source.as_ref().map(AutoUi::parse_source).transpose()?;
    if let (WidgetKind::VegaLite, Some(charts)) = (recipe.kind, &ui.charts) {
        charts.prepare();
    }
    // The first call of a page may come before the validator has loaded.
    ui.validator.ready_for(&recipe.schema).await?;
    // With a source, what is shown is its map's output over the params given.
    let (params, fetched) = match &source {
        Some(source) => {
            let (fetched, at_ms) = ui.run_source(source, &call.params).await?;
            (fetched.params.clone(), Some((fetched, at_ms)))
        }
        None => (call.params, None),
    };
    let checked = recipe
        .check_with(params, ui.validator.as_ref(), ui.image_sources(&origin))
        .map_err(|error| match error {
            CheckError::Rejected(rejected) => AutoUiError::Invalid {
                widget: recipe.kind,
                id: None,
                rejected: Rejected {
                    repairs: [call.repairs.clone(), rejected.repairs].concat(),
                    ..rejected
                },
                schema: recipe.schema.clone(),
            },
            CheckError::Validator(error) => error.into(),
        })
        .map_err(|error| match &fetched {
            Some((fetched, _)) => bind::invalid_from_map(error, &fetched.mapped()),
            None => error,
        })?;
    let warnings = match compile_chart(ui, recipe.kind, &checked.data).await {
        Ok(warnings) => warnings,
        Err(details) => {
            return Err(AutoUiError::Invalid {
                widget: recipe.kind,
                id: None,
                rejected: Rejected { details, repairs: [call.repairs, checked.repairs].concat(), dropped: checked.dropped },
                schema: recipe.schema.clone(),
            });
        }
    };
    let repairs = [call.repairs, checked.repairs].concat();
    let data = Arc::new(checked.data);
    let id = add(ui, recipe.kind, &data, origin.clone())?;
    if let (Some(source), Some((_, at_ms))) = (&source, &fetched) {
        ui.bind(&id, Binding::fresh(source.clone(), *at_ms), origin)?;
    }
    let block = ui
        .canvas
        .get(&id)
        .ok_or_else(|| AutoUiError::Vanished(id.clone()))?;

    let (shown, elided) = view::echo(&data);
    let mut body = json!({
        "widget": recipe.name(),
        "id": block.id,
        "data": shown,
        "layout": view::layout_json(&block.layout),
    });
    if !elided.is_empty() {
        body["data_elided"] = json!(elided);
    }
    if !repairs.is_empty() {
        body["repairs"] = json!(repair::summarise(&repairs));
    }
    if !checked.dropped.is_empty() {
        body["dropped"] = json!(checked.dropped);
    }
    if let Some(source) = &source {
        body["source"] = bind::source_json(source);
    }
    if !warnings.is_empty() {
        body["warnings"] = json!(warnings);
    }
    Ok(body)
}

/// What the page's chart engine says of a `vega-lite` widget's checked `data`: its warnings, or its
/// errors as details at the spec paths they name. Nothing to say for other widgets, without an
/// engine, or when it could not run (the widget then says why it cannot draw).
pub(crate) async fn compile_chart(ui: &AutoUi, kind: WidgetKind, data: &Value) -> Result<Vec<String>, Vec<Detail>> {
    let (WidgetKind::VegaLite, Some(charts)) = (kind, &ui.charts) else {
        return Ok(Vec::new());
    };
    match charts.compile(data).await {
        Ok(verdict) if !verdict.errors.is_empty() => Err(verdict
            .errors
            .into_iter()
            .map(|message| Detail {
                path: spec_path(data, &message),
                message: format!("Vega-Lite: {message} (get_recipe \"vega-lite\" shows the specs it takes)"),
            })
            .collect()),
        Ok(verdict) => Ok(verdict.warnings),
        Err(_) => Ok(Vec::new()),
    }
}

/// Keys whose string is a Vega expression, which an engine message may quote only in part (the
/// unknown function of `"foo(datum.a)"`).
const EXPRESSION_KEYS: [&str; 6] = ["calculate", "expr", "filter", "signal", "test", "update"];

/// Where in `spec` the engine's `message` points, so the model fixes that value: the JSON Pointer of
/// the first value equal to what the message quotes (an expression, a field, a name), or of the
/// first expression containing it; else the top-level key the message names; else "".
fn spec_path(spec: &Value, message: &str) -> String {
    let found = quoted(message).into_iter().find_map(|text| {
        find_string(spec, "", &mut String::new(), &|value, _| value == text).or_else(|| {
            find_string(spec, "", &mut String::new(), &|value, key| {
                EXPRESSION_KEYS.contains(&key) && value.contains(text)
            })
        })
    });
    found
        .or_else(|| {
            let keys = spec.as_object()?;
            let named = message
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '$')
                .find(|word| keys.contains_key(*word))?;
            Some(format!("/{named}"))
        })
        .unwrap_or_default()
}

/// What `message` quotes: what follows its first `": "` (vega writes `Expression parse error:
/// datum.a +` and `Unrecognized function: foo`), then its `"..."` and `'...'` parts.
fn quoted(message: &str) -> Vec<&str> {
    let after_colon = message.split_once(": ").map(|(_, rest)| rest.trim_matches(['"', '\'']));
    let within = ['"', '\''].into_iter().flat_map(|quote| {
        let parts: Vec<&str> = message.split(quote).collect();
        // Every other part is quoted, if a quote closes it.
        (1..parts.len().saturating_sub(1)).step_by(2).map(move |at| parts[at])
    });
    after_colon.into_iter().chain(within).filter(|text| !text.trim().is_empty()).collect()
}

/// The JSON Pointer of the first string in `value` (keys in order) that `matches`, given the string
/// and the key it is under; inline rows are left out: they are data, not spec.
fn find_string(value: &Value, key: &str, path: &mut String, matches: &dyn Fn(&str, &str) -> bool) -> Option<String> {
    let at = |path: &mut String, segment: &str, key: &str, item: &Value| {
        let len = path.len();
        push_segment(path, segment);
        let found = find_string(item, key, path, matches);
        path.truncate(len);
        found
    };
    match value {
        Value::String(text) => matches(text, key).then(|| path.clone()),
        Value::Object(map) => map
            .iter()
            .filter(|(child, _)| !matches!(child.as_str(), "values" | "datasets"))
            .find_map(|(child, item)| at(path, child, child, item)),
        Value::Array(items) => items.iter().enumerate().find_map(|(index, item)| at(path, &index.to_string(), key, item)),
        _ => None,
    }
}

/// Adds the block under a fresh id, drawing again if the id is already taken.
fn add(
    ui: &AutoUi,
    kind: WidgetKind,
    data: &Arc<Value>,
    origin: Origin,
) -> Result<BlockId, AutoUiError> {
    let mut attempts = 1;
    loop {
        let id = BlockId::generate(ui.random.as_ref());
        let op = Op::Add {
            id: id.clone(),
            kind,
            data: data.clone(),
            layout: None,
            style: Style::default(),
        };
        match ui.canvas.apply(op, origin.clone()) {
            Ok(_) => return Ok(id),
            Err(CanvasError::DuplicateBlock(_)) if attempts < ID_ATTEMPTS => attempts += 1,
            Err(error) => return Err(error.into()),
        }
    }
}

/// Reads `{name, params}`, repairing params given as JSON text or passed flat beside `name`.
fn envelope(args: Value) -> Result<Call, AutoUiError> {
    let Value::Object(mut args) = args else {
        return Err(AutoUiError::BadArguments(format!(
            "{USAGE}; got {}",
            preview(&args)
        )));
    };
    let name = match args.remove("name") {
        Some(Value::String(name)) if !name.trim().is_empty() => name,
        _ => {
            return Err(AutoUiError::BadArguments(format!(
                "\"name\" is missing; {USAGE}"
            )));
        }
    };
    let source = args.remove("source").filter(|source| !source.is_null());
    let mut repairs = Vec::new();
    let mut params = match args.remove("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(params)) => params,
        Some(Value::String(text)) => match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(params)) => {
                repairs.push(Repair {
                    path: String::new(),
                    fix: Fix::ParsedJson,
                });
                params
            }
            _ => {
                return Err(AutoUiError::BadArguments(format!(
                    "\"params\" must be an object; got a string that is not a JSON object. {USAGE}"
                )));
            }
        },
        Some(other) => {
            return Err(AutoUiError::BadArguments(format!(
                "\"params\" must be an object, got {}. {USAGE}",
                preview(&other)
            )));
        }
    };
    if !args.is_empty() {
        for (key, value) in args {
            params.entry(key).or_insert(value);
        }
        repairs.push(Repair {
            path: String::new(),
            fix: Fix::FlatParams,
        });
    }
    Ok(Call {
        name,
        params: Value::Object(params),
        source,
        repairs,
    })
}

/// An MCP Apps view runs a server's own code over the person's connection, and calls that server's
/// tools without asking (the person's agent placed it): another agent on the page must not place
/// or repoint one.
pub(crate) fn refuse_views_from_outside(kind: WidgetKind, origin: &Origin) -> Result<(), AutoUiError> {
    if kind == WidgetKind::McpApp && *origin == Origin::ExternalAgent {
        return Err(AutoUiError::BadArguments(
            "another agent cannot place or change an mcp-app view: it runs an MCP server's own code over the person's \
             connection. Show the data with another widget."
                .to_owned(),
        ));
    }
    Ok(())
}
