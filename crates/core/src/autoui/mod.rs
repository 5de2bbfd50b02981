//! The local `autoui` tool server: search/list/get recipes, widget_display, canvas, recall.
//!
//! It changes the canvas only through [`CanvasPort::apply`] with the call's [`Origin`], so undo,
//! persistence and provenance happen in one place. Every failure is a JSON error result the model
//! can act on (see [`error::AutoUiError::to_json`]), never a panic.

pub mod bind;
mod canvas_tool;
mod discovery;
mod display;
pub mod error;
pub mod recall;
mod specs;
mod view;

use std::rc::Rc;
use std::sync::Arc;

use futures::future::LocalBoxFuture;
use serde_json::{Value, json};

use crate::autoui::error::AutoUiError;
use crate::autoui::specs::Tool;
use crate::canvas::model::{Block, merge_data};
use crate::canvas::op::{CanvasPort, Op};
use crate::ids::BlockId;
use crate::ports::{ChartCompiler, Random};
use crate::provenance::{ImageSources, UrlLedger};
use crate::recipes::check::{CheckError, Checked, Rejected};
use crate::recipes::repair::Repair;
use crate::recipes::sanitize::Dropped;
use crate::recipes::validate::{Detail, SchemaValidator, quote};
use crate::recipes::{Registry, registry};
use crate::tool::{CallContext, LocalServer, Origin, ResultStore, ToolResult, ToolSpec};
use crate::widget_kind::WidgetKind;

const DESCRIPTION: &str = "Built-in widgets: find a widget recipe, show widgets on the canvas, change them, \
                           and re-read earlier tool results";

pub struct AutoUi {
    canvas: Rc<dyn CanvasPort>,
    results: Rc<dyn ResultStore>,
    random: Rc<dyn Random>,
    validator: Rc<dyn SchemaValidator>,
    registry: &'static Registry,
    /// When set, the in-app agent's web images must come from the conversation's data.
    urls: Option<Rc<UrlLedger>>,
    /// When set, `vega-lite` specs are compiled before they are shown.
    charts: Option<Rc<dyn ChartCompiler>>,
    /// When set, widgets may be bound to a source (`binding/`).
    sources: Option<bind::Sources>,
}

/// A block after a successful [`AutoUi::update_block`], and what was fixed on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Updated {
    pub block: Block,
    pub repairs: Vec<Repair>,
    pub dropped: Vec<Dropped>,
    /// What the chart engine said of a `vega-lite` chart's new spec that does not stop it drawing.
    pub warnings: Vec<String>,
}

impl AutoUi {
    /// The server's name; canonical tool names are `autoui_webmcp_<tool>`.
    pub const NAME: &'static str = "autoui";

    /// A server validating in process with `jsonschema`.
    #[cfg(feature = "jsonschema")]
    pub fn new(
        canvas: Rc<dyn CanvasPort>,
        results: Rc<dyn ResultStore>,
        random: Rc<dyn Random>,
    ) -> AutoUi {
        let validator =
            Rc::new(crate::recipes::validate::in_process::JsonSchemaValidator::default());
        AutoUi::with_validator(canvas, results, random, validator)
    }

    /// A server whose widget data is validated by `validator`; tools that validate wait until it is ready.
    pub fn with_validator(
        canvas: Rc<dyn CanvasPort>,
        results: Rc<dyn ResultStore>,
        random: Rc<dyn Random>,
        validator: Rc<dyn SchemaValidator>,
    ) -> AutoUi {
        AutoUi {
            canvas,
            results,
            random,
            validator,
            registry: registry(),
            urls: None,
            charts: None,
            sources: None,
        }
    }

    /// Holds the in-app agent's widget images to the URLs `urls` has seen (the session fills it).
    pub fn with_url_ledger(self, urls: Rc<UrlLedger>) -> AutoUi {
        AutoUi { urls: Some(urls), ..self }
    }

    /// Compiles `vega-lite` specs with `charts` before showing them (the page's chart engine).
    pub fn with_chart_compiler(self, charts: Rc<dyn ChartCompiler>) -> AutoUi {
        AutoUi { charts: Some(charts), ..self }
    }

    /// Lets widgets be bound to tools and resources, fetched through `sources`.
    pub fn with_sources(self, sources: bind::Sources) -> AutoUi {
        AutoUi { sources: Some(sources), ..self }
    }

    /// The image rule for a call from `origin`: the person and outside agents bring their own URLs.
    fn image_sources(&self, origin: &Origin) -> ImageSources<'_> {
        match (&self.urls, origin) {
            (Some(urls), Origin::Agent { .. }) => ImageSources::Known(urls),
            _ => ImageSources::Any,
        }
    }

    /// [`AutoUi::update_block`] once the validator is ready, and a `vega-lite` chart's new spec
    /// compiled by the chart engine as `widget_display` compiles it (its errors leave the widget as
    /// it was, its warnings come back); the `canvas` tool's update goes this way.
    pub async fn update_block_when_ready(
        &self,
        id: &BlockId,
        patch: Value,
        origin: Origin,
    ) -> Result<Updated, AutoUiError> {
        let kind = self.block(id)?.kind;
        let recipe = self.registry.get(kind).ok_or(AutoUiError::NoRecipe(kind))?;
        if let (WidgetKind::VegaLite, Some(charts)) = (kind, &self.charts) {
            charts.prepare();
        }
        self.validator.ready_for(&recipe.schema).await?;
        loop {
            let (block, checked) = self.checked_update(id, &patch, &origin)?;
            let warnings = display::compile_chart(self, kind, &checked.data).await.map_err(|details| AutoUiError::Invalid {
                widget: kind,
                id: Some(block.id.clone()),
                rejected: Rejected { details, repairs: checked.repairs.clone(), dropped: checked.dropped.clone() },
                schema: recipe.schema.clone(),
            })?;
            // A change that landed while the engine compiled is merged over, not undone.
            if Arc::ptr_eq(&self.block(id)?.data, &block.data) {
                return self.apply_update(&block, checked, warnings, origin);
            }
        }
    }

    /// Merges `patch` (top-level fields) into a block's data, repairs, sanitises and re-validates the
    /// result, then applies it: an update cannot leave a widget invalid. Errors have the same shape
    /// as `widget_display`'s. While the validator is still loading it refuses with
    /// [`AutoUiError::Validator`]; [`AutoUi::update_block_when_ready`] waits instead (and compiles a
    /// `vega-lite` chart, which this does not).
    pub fn update_block(
        &self,
        id: &BlockId,
        patch: Value,
        origin: Origin,
    ) -> Result<Updated, AutoUiError> {
        let (block, checked) = self.checked_update(id, &patch, &origin)?;
        self.apply_update(&block, checked, Vec::new(), origin)
    }

    /// Block `id` as it is now, and `patch` merged over its data and checked.
    fn checked_update(&self, id: &BlockId, patch: &Value, origin: &Origin) -> Result<(Block, Checked), AutoUiError> {
        let block = self.block(id)?;
        display::refuse_views_from_outside(block.kind, origin)?;
        if !patch.is_object() {
            return Err(AutoUiError::BadArguments(
                "an update is an object of the fields to change, e.g. {\"value\": \"42\"}"
                    .to_owned(),
            ));
        }
        let merged = self.merged(&block, patch)?;
        let recipe = self
            .registry
            .get(block.kind)
            .ok_or(AutoUiError::NoRecipe(block.kind))?;
        let sources = match self.image_sources(origin) {
            ImageSources::Known(urls) => ImageSources::KnownOrIn(urls, &block.data),
            other => other,
        };
        let checked = recipe
            .check_with(merged, self.validator.as_ref(), sources)
            .map_err(|error| match error {
                CheckError::Rejected(rejected) => AutoUiError::Invalid {
                    widget: block.kind,
                    id: Some(block.id.clone()),
                    rejected,
                    schema: recipe.schema.clone(),
                },
                CheckError::Validator(error) => error.into(),
            })?;
        Ok((block, checked))
    }

    fn apply_update(&self, block: &Block, checked: Checked, warnings: Vec<String>, origin: Origin) -> Result<Updated, AutoUiError> {
        self.canvas.apply(
            Op::Update {
                id: block.id.clone(),
                data: Arc::new(checked.data),
            },
            origin,
        )?;
        Ok(Updated {
            block: self.block(&block.id)?,
            repairs: checked.repairs,
            dropped: checked.dropped,
            warnings,
        })
    }

    /// `patch` merged over `block`'s data. A `vega-lite` chart's rows are its `data.values`, so
    /// `values` in its patch (a spec has no top-level `values`; it is what `canvas update` with
    /// `"data": {"values": [...]}` gives), or a `data` of `values` alone, replaces those rows and
    /// keeps the rest of `data` (`format`, `name`): a live chart sends only its new rows.
    pub(crate) fn merged(&self, block: &Block, patch: &Value) -> Result<Value, AutoUiError> {
        let rows = match (block.kind, patch.get("values"), patch.get("data")) {
            (WidgetKind::VegaLite, Some(rows), None) => rows,
            (WidgetKind::VegaLite, None, Some(Value::Object(data))) if data.len() == 1 && data.contains_key("values") => {
                &data["values"]
            }
            _ => return Ok(merge_data(&block.data, patch)),
        };
        let Some(data) = block.data.get("data").filter(|data| data.get("values").is_some()) else {
            let recipe = self.registry.get(block.kind).ok_or(AutoUiError::NoRecipe(block.kind))?;
            let message = no_rows_to_replace(block.data.get("data"));
            return Err(AutoUiError::Invalid {
                widget: block.kind,
                id: Some(block.id.clone()),
                rejected: Rejected {
                    details: vec![Detail { path: "/data".to_owned(), message }],
                    repairs: Vec::new(),
                    dropped: Vec::new(),
                },
                schema: recipe.schema.clone(),
            });
        };
        let mut patch = patch.as_object().cloned().unwrap_or_default();
        patch.remove("values");
        patch.insert("data".to_owned(), merge_data(data, &json!({ "values": rows })));
        Ok(merge_data(&block.data, &Value::Object(patch)))
    }

    /// One line naming a block (its title or label, with a KPI's value), for `canvas list`.
    pub fn summary(block: &Block) -> String {
        view::summary(block)
    }

    /// What a block is (its title or label, without a KPI's value), for per-widget tool descriptions.
    pub fn name(block: &Block) -> String {
        view::name(block)
    }

    /// `{id, type, layout, summary}` (and `style` when set): a block as `canvas list` shows it, for
    /// the per-widget WebMCP tools to answer in the same shape.
    pub fn block_json(block: &Block) -> Value {
        view::block_json(block, false)
    }

    fn block(&self, id: &BlockId) -> Result<Block, AutoUiError> {
        self.canvas
            .get(id)
            .ok_or_else(|| AutoUiError::UnknownBlock {
                id: id.clone(),
                existing: self
                    .canvas
                    .blocks()
                    .into_iter()
                    .map(|block| block.id)
                    .collect(),
            })
    }

    async fn run(&self, tool: &str, args: Value, origin: Origin) -> ToolResult {
        let Some(tool) = Tool::from_name(tool) else {
            let names: Vec<&str> = Tool::ALL.iter().map(|tool| tool.as_str()).collect();
            return ToolResult::error(format!(
                "autoui has no tool \"{tool}\"; its tools are: {}",
                names.join(", ")
            ));
        };
        let outcome = match tool {
            Tool::SearchRecipes => Ok(discovery::search_recipes(self.registry, &args)),
            Tool::ListRecipes => Ok(discovery::list_recipes(self.registry)),
            Tool::GetRecipe => discovery::get_recipe(self.registry, &args),
            Tool::WidgetDisplay => display::widget_display(self, args, origin).await,
            Tool::Canvas => canvas_tool::canvas(self, args, origin).await,
            Tool::Recall => {
                return recall::recall(self.results.as_ref(), &args)
                    .unwrap_or_else(|error| error.to_result());
            }
        };
        outcome.map_or_else(|error| error.to_result(), ToolResult::json)
    }
}

impl LocalServer for AutoUi {
    fn name(&self) -> &str {
        AutoUi::NAME
    }

    fn description(&self) -> &str {
        DESCRIPTION
    }

    fn tools(&self) -> Vec<ToolSpec> {
        Tool::ALL.iter().map(|tool| tool.spec()).collect()
    }

    fn call<'a>(
        &'a self,
        tool: &'a str,
        args: Value,
        context: CallContext,
    ) -> LocalBoxFuture<'a, ToolResult> {
        Box::pin(self.run(tool, args, context.origin))
    }
}

/// Why a `vega-lite` update of its rows alone has nowhere to go, and what to send instead.
fn no_rows_to_replace(data: Option<&Value>) -> String {
    let what = match data.and_then(|data| data.get("name")).and_then(Value::as_str) {
        Some(name) => format!("draws data.name {} (a built-in map or a dataset), not inline rows", quote(name)),
        None if data.is_some_and(|data| data.get("sequence").is_some()) => {
            "draws a data.sequence, not inline rows".to_owned()
        }
        None => "has no top-level data.values (its layers or views hold their own data)".to_owned(),
    };
    format!(
        "this chart {what}, so there are no data.values to replace: send the part of the spec that holds the rows \
         whole, e.g. {{\"datasets\": {{...}}}} or {{\"layer\": [...]}} (get_recipe \"vega-lite\" shows the specs it takes)"
    )
}
