//! A stand-in for the `autoui` server (the real one is another module's work): the six tools with
//! simple validation, applying widgets to a real `Canvas` through a recording `CanvasPort`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;

use autoui_core::canvas::model::merge_data;
use autoui_core::canvas::op::{CanvasPort, Op};
use autoui_core::canvas::style::Style;
use autoui_core::ids::BlockId;
use autoui_core::tool::{CallContext, LocalServer, Origin, ResultStore, ToolResult, ToolSpec};
use autoui_core::widget_kind::WidgetKind;
use futures::future::LocalBoxFuture;
use serde_json::{Value, json};

use super::canvas::RecordingCanvas;

pub struct FakeAutoui {
    pub canvas: Rc<RecordingCanvas>,
    results: Rc<dyn ResultStore>,
    next_id: Cell<u32>,
    /// Every call it received: (tool, args, origin).
    pub received: RefCell<Vec<(String, Value, Origin)>>,
}

/// Required params per widget, enough to exercise validation errors.
fn required(kind: WidgetKind) -> &'static [&'static str] {
    match kind {
        WidgetKind::Stat | WidgetKind::StatCard => &["label", "value"],
        WidgetKind::DataTable => &["columns", "rows"],
        WidgetKind::ChartRich | WidgetKind::Chart => &["data"],
        _ => &[],
    }
}

fn schema_of(kind: WidgetKind) -> Value {
    json!({ "type": "object", "required": required(kind) })
}

fn tool(name: &str, description: &str, schema: Value) -> ToolSpec {
    ToolSpec {
        name: name.to_owned(),
        title: None,
        description: description.to_owned(),
        input_schema: schema,
        read_only: false,
        hints: Default::default(),
        ui: None,
    }
}

impl FakeAutoui {
    pub fn new(results: Rc<dyn ResultStore>) -> FakeAutoui {
        FakeAutoui {
            canvas: Rc::new(RecordingCanvas::default()),
            results,
            next_id: Cell::new(0),
            received: RefCell::new(Vec::new()),
        }
    }

    fn widget_display(&self, args: &Value, origin: Origin) -> ToolResult {
        let name = args.get("name").and_then(Value::as_str).unwrap_or_default();
        let Some(kind) = WidgetKind::from_name(name) else {
            return ToolResult::error_json(json!({ "error": format!("Widget \"{name}\" not found") }));
        };
        let params = args.get("params").cloned().unwrap_or_else(|| json!({}));
        let missing: Vec<&str> = required(kind).iter().copied().filter(|key| params.get(key).is_none()).collect();
        if !missing.is_empty() {
            let details: Vec<Value> = missing
                .iter()
                .map(|key| json!({ "path": "", "message": format!("missing required property \"{key}\"") }))
                .collect();
            return ToolResult::error_json(json!({
                "error": "Validation failed", "widget": kind.as_str(), "details": details, "expected_schema": schema_of(kind)
            }));
        }
        self.next_id.set(self.next_id.get() + 1);
        let id = BlockId::new(format!("w_{}", self.next_id.get()));
        let op =
            Op::Add { id: id.clone(), kind, data: Arc::new(params.clone()), layout: None, style: Style::default() };
        match self.canvas.apply(op, origin) {
            Ok(_) => ToolResult::json(json!({ "widget": kind.as_str(), "id": id, "data": params })),
            Err(error) => ToolResult::error(error.to_string()),
        }
    }

    fn canvas_tool(&self, args: &Value, origin: Origin) -> ToolResult {
        let action = args.get("action").and_then(Value::as_str).unwrap_or_default();
        let id = BlockId::new(args.get("id").and_then(Value::as_str).unwrap_or_default());
        let op = match action {
            "clear" => Op::Clear,
            "remove" => Op::Remove { id: id.clone() },
            "update" => {
                let Some(block) = self.canvas.get(&id) else {
                    return ToolResult::error(format!("no widget with id \"{id}\""));
                };
                let patch = args.pointer("/params/data").cloned().unwrap_or_else(|| json!({}));
                Op::Update { id: id.clone(), data: Arc::new(merge_data(&block.data, &patch)) }
            }
            other => return ToolResult::error(format!("unknown action \"{other}\"")),
        };
        match self.canvas.apply(op, origin) {
            Ok(_) => ToolResult::json(json!({ "ok": true, "action": action, "id": id })),
            Err(error) => ToolResult::error(error.to_string()),
        }
    }

    fn recall(&self, args: &Value) -> ToolResult {
        let id = args.get("id").and_then(Value::as_str).unwrap_or_default();
        let Some(full) = self.results.full_result(id) else {
            return ToolResult::error(format!(
                "no result with id \"{id}\"; known: {}",
                self.results.known_ids().join(", ")
            ));
        };
        let offset = args.get("offset").and_then(Value::as_u64).unwrap_or(0) as usize;
        let length = args.get("length").and_then(Value::as_u64).map_or(usize::MAX, |length| length as usize);
        ToolResult::text(full.chars().skip(offset).take(length).collect::<String>())
    }

    fn recipes(&self, query: &str) -> ToolResult {
        let matches: Vec<Value> = WidgetKind::ALL
            .iter()
            .filter(|kind| query.is_empty() || kind.as_str().contains(query))
            .map(
                |kind| json!({ "name": kind.as_str(), "description": format!("the {kind} widget"), "group": "widget" }),
            )
            .collect();
        ToolResult::json(Value::Array(matches))
    }
}

impl LocalServer for FakeAutoui {
    fn name(&self) -> &str {
        "autoui"
    }

    fn description(&self) -> &str {
        "Widgets on the canvas"
    }

    fn tools(&self) -> Vec<ToolSpec> {
        vec![
            tool(
                "search_recipes",
                "Search widget recipes",
                json!({ "type": "object", "properties": { "query": { "type": "string" } } }),
            ),
            tool("list_recipes", "List widget recipes", json!({ "type": "object", "properties": {} })),
            tool(
                "get_recipe",
                "Read a widget recipe",
                json!({ "type": "object", "properties": { "name": { "type": "string" } }, "required": ["name"] }),
            ),
            tool(
                "widget_display",
                "Show a widget",
                json!({ "type": "object", "properties": { "name": { "type": "string" }, "params": { "type": "object" } }, "required": ["name"] }),
            ),
            tool(
                "canvas",
                "Change widgets",
                json!({ "type": "object", "properties": { "action": { "type": "string" } }, "required": ["action"] }),
            ),
            tool(
                "recall",
                "Read a stored result",
                json!({ "type": "object", "properties": { "id": { "type": "string" } }, "required": ["id"] }),
            ),
        ]
    }

    fn call<'a>(&'a self, tool: &'a str, args: Value, context: CallContext) -> LocalBoxFuture<'a, ToolResult> {
        self.received.borrow_mut().push((tool.to_owned(), args.clone(), context.origin.clone()));
        Box::pin(async move {
            match tool {
                "search_recipes" => self.recipes(args.get("query").and_then(Value::as_str).unwrap_or_default()),
                "list_recipes" => self.recipes(""),
                "get_recipe" => {
                    let name = args.get("name").and_then(Value::as_str).unwrap_or_default();
                    match WidgetKind::from_name(name) {
                        Some(kind) => ToolResult::json(
                            json!({ "name": kind.as_str(), "schema": schema_of(kind), "recipe": "## When to use\n..." }),
                        ),
                        None => ToolResult::error_json(json!({ "error": format!("Recipe \"{name}\" not found") })),
                    }
                }
                "widget_display" => self.widget_display(&args, context.origin),
                "canvas" => self.canvas_tool(&args, context.origin),
                "recall" => self.recall(&args),
                other => ToolResult::error(format!("unknown tool {other}")),
            }
        })
    }
}

/// A small local data server (like the app's `samples`), with one data tool and no recipes.
pub struct FakeSamples;

impl LocalServer for FakeSamples {
    fn name(&self) -> &str {
        "Samples"
    }

    fn description(&self) -> &str {
        "Built-in sample data"
    }

    fn tools(&self) -> Vec<ToolSpec> {
        vec![tool("monthly_sales", "Monthly sales by region", json!({ "type": "object", "properties": {} }))]
    }

    fn call<'a>(&'a self, _tool: &'a str, _args: Value, _context: CallContext) -> LocalBoxFuture<'a, ToolResult> {
        Box::pin(async {
            ToolResult::json(json!([{ "region": "North", "sales": 120 }, { "region": "South", "sales": 95 }]))
        })
    }
}
