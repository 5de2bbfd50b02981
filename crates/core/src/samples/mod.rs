//! The built-in `samples` server (protocol `webmcp`): small, realistic datasets as tools and "flow"
//! recipes that turn each into a dashboard, so that with only an LLM key a newcomer gets a real
//! dashboard without configuring any MCP server.
//!
//! The datasets tell one story, that of a fictional company, Arvena: its monthly sales, its web
//! shop's request logs, its people and its checkout project; plus a fictional parliament. They are
//! computed from fixed tables and seeds with integer arithmetic: no clock, no randomness, the same
//! answer every time. Arguments are checked against each tool's schema before anything runs, and
//! every failure is a JSON error result the model can act on.

mod flows;
mod logs;
mod parliament;
mod people;
mod project;
mod sales;
mod seed;

use std::rc::Rc;
use std::sync::Arc;

use futures::future::LocalBoxFuture;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::recipes::validate::{Detail, SchemaValidator, ValidatorError};
use crate::tool::{CallContext, LocalServer, ToolResult, ToolSpec};

const DESCRIPTION: &str = "Built-in demo data: sales, web service logs, parliament, people, project plan";

/// The server; it holds no data, every answer is computed from the embedded tables.
#[derive(Clone)]
pub struct Samples {
    /// Checks each call's arguments against the tool's schema.
    validator: Rc<dyn SchemaValidator>,
}

impl Samples {
    /// The server's name; canonical tool names are `samples_webmcp_<tool>`.
    pub const NAME: &'static str = "samples";

    /// A server whose arguments are checked by `validator` (in the app, the page's lazily loaded one).
    pub fn new(validator: Rc<dyn SchemaValidator>) -> Samples {
        Samples { validator }
    }
}

/// A server validating in process with `jsonschema`.
#[cfg(feature = "jsonschema")]
impl Default for Samples {
    fn default() -> Samples {
        Samples::new(Rc::new(crate::recipes::validate::in_process::JsonSchemaValidator::default()))
    }
}

/// Why a samples tool gave no data. Shown to the model as a JSON error result.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SamplesError {
    #[error("samples has no tool \"{tool}\"; its tools are: {}", Tool::names().join(", "))]
    UnknownTool { tool: String },
    /// The arguments do not match the tool's input schema.
    #[error("invalid arguments for {tool}")]
    InvalidArguments { tool: &'static str, details: Vec<Detail> },
    /// Well-formed arguments that ask for something the dataset does not have, e.g. a month outside it.
    #[error("{0}")]
    OutOfRange(String),
    #[error("no samples recipe named \"{name}\"")]
    UnknownRecipe { name: String, closest: Vec<&'static str> },
    /// The arguments could not be checked, so the tool did not run.
    #[error(transparent)]
    Validator(#[from] ValidatorError),
}

impl SamplesError {
    /// The error object the model sees: `error` plus what it needs to fix the call.
    pub fn to_json(&self) -> Value {
        let error = self.to_string();
        match self {
            SamplesError::InvalidArguments { tool, details } => json!({
                "error": error,
                "details": details,
                "expected_schema": Tool::from_name(tool).map(Tool::schema),
            }),
            SamplesError::UnknownRecipe { closest, .. } => json!({
                "error": error,
                "closest": closest,
                "hint": "call list_recipes to see every samples recipe",
            }),
            SamplesError::UnknownTool { .. } | SamplesError::OutOfRange(_) | SamplesError::Validator(_) => {
                json!({ "error": error })
            }
        }
    }
}

/// The samples tools: three recipe tools (offered from the start) and one per dataset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tool {
    SearchRecipes,
    ListRecipes,
    GetRecipe,
    MonthlySales,
    RequestLogs,
    Parliament,
    People,
    ProjectPlan,
}

impl Tool {
    const ALL: [Tool; 8] = [
        Tool::SearchRecipes,
        Tool::ListRecipes,
        Tool::GetRecipe,
        Tool::MonthlySales,
        Tool::RequestLogs,
        Tool::Parliament,
        Tool::People,
        Tool::ProjectPlan,
    ];

    fn as_str(self) -> &'static str {
        match self {
            Tool::SearchRecipes => "search_recipes",
            Tool::ListRecipes => "list_recipes",
            Tool::GetRecipe => "get_recipe",
            Tool::MonthlySales => sales::TOOL,
            Tool::RequestLogs => logs::TOOL,
            Tool::Parliament => parliament::TOOL,
            Tool::People => people::TOOL,
            Tool::ProjectPlan => project::TOOL,
        }
    }

    fn from_name(name: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|tool| tool.as_str() == name)
    }

    fn names() -> Vec<&'static str> {
        Tool::ALL.iter().map(|tool| tool.as_str()).collect()
    }

    /// Short on purpose: recipe tools are in every request, dataset tools once the server is active.
    fn description(self) -> &'static str {
        match self {
            Tool::SearchRecipes => {
                "Find a dashboard recipe for the built-in demo data (e.g. \"sales\", \"logs\", \"team\"): name, \
                 description, group; then call get_recipe."
            }
            Tool::ListRecipes => "List the dashboard recipes for the built-in demo data.",
            Tool::GetRecipe => "Read a demo-data recipe: which samples tool to call and which widgets to show.",
            Tool::MonthlySales => sales::DESCRIPTION,
            Tool::RequestLogs => logs::DESCRIPTION,
            Tool::Parliament => parliament::DESCRIPTION,
            Tool::People => people::DESCRIPTION,
            Tool::ProjectPlan => project::DESCRIPTION,
        }
    }

    fn schema(self) -> Value {
        match self {
            Tool::SearchRecipes => {
                object(json!({ "query": { "type": "string", "description": "a few words" } }), &["query"])
            }
            Tool::ListRecipes => object(json!({}), &[]),
            Tool::GetRecipe => object(
                json!({ "name": { "type": "string", "description": "recipe name, e.g. sales-dashboard" } }),
                &["name"],
            ),
            Tool::MonthlySales => object(sales::properties(), &[]),
            Tool::RequestLogs => object(logs::properties(), &[]),
            Tool::Parliament => object(parliament::properties(), &[]),
            Tool::People => object(people::properties(), &[]),
            Tool::ProjectPlan => object(project::properties(), &[]),
        }
    }

    fn spec(self) -> ToolSpec {
        ToolSpec {
            name: self.as_str().to_owned(),
            title: None,
            description: self.description().to_owned(),
            input_schema: self.schema(),
            read_only: true,
            hints: Default::default(),
            ui: None,
        }
    }

    fn run(self, args: Value, validator: &dyn SchemaValidator) -> Result<Value, SamplesError> {
        let checked = ArgsCheck { tool: self, validator };
        match self {
            Tool::SearchRecipes => checked.parse(args).map(|query: flows::Search| flows::search(&query.query)),
            Tool::ListRecipes => checked.check(&args).map(|()| flows::list()),
            Tool::GetRecipe => checked.parse(args).and_then(|query: flows::Get| flows::get(&query.name)),
            Tool::MonthlySales => checked.parse(args).and_then(|query| sales::answer(&query)),
            Tool::RequestLogs => checked.parse(args).and_then(|query| logs::answer(&query)),
            Tool::Parliament => checked.parse(args).map(|query| parliament::answer(&query)),
            Tool::People => checked.parse(args).map(|query| people::answer(&query)),
            Tool::ProjectPlan => checked.parse(args).map(|query| project::answer(&query)),
        }
    }
}

/// A closed object schema: an unknown argument is refused, not silently ignored (a misspelt filter
/// would otherwise return unfiltered data the model takes for filtered).
fn object(properties: Value, required: &[&str]) -> Value {
    json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false })
}

/// A tool with the validator that checks its arguments.
struct ArgsCheck<'v> {
    tool: Tool,
    validator: &'v dyn SchemaValidator,
}

impl ArgsCheck<'_> {
    /// Checks `args` against the tool's schema, for errors the model can fix in one retry.
    fn check(&self, args: &Value) -> Result<(), SamplesError> {
        let details = match self.validator.validate(&Arc::new(self.tool.schema()), args) {
            Ok(details) => details,
            Err(ValidatorError::Schema(reason)) => vec![Detail { path: String::new(), message: reason }],
            Err(error) => return Err(error.into()),
        };
        if details.is_empty() {
            Ok(())
        } else {
            Err(SamplesError::InvalidArguments { tool: self.tool.as_str(), details })
        }
    }

    /// Checks `args`, then reads them into the tool's query.
    fn parse<Q: DeserializeOwned>(&self, args: Value) -> Result<Q, SamplesError> {
        self.check(&args)?;
        serde_json::from_value(args).map_err(|error| SamplesError::InvalidArguments {
            tool: self.tool.as_str(),
            details: vec![Detail { path: String::new(), message: error.to_string() }],
        })
    }
}

impl LocalServer for Samples {
    fn name(&self) -> &str {
        Samples::NAME
    }

    fn description(&self) -> &str {
        DESCRIPTION
    }

    fn tools(&self) -> Vec<ToolSpec> {
        Tool::ALL.iter().map(|tool| tool.spec()).collect()
    }

    fn call<'a>(&'a self, tool: &'a str, args: Value, _context: CallContext) -> LocalBoxFuture<'a, ToolResult> {
        Box::pin(async move {
            let outcome = match Tool::from_name(tool) {
                // Every tool checks its arguments, so every tool waits for the validator.
                Some(known) => match self.validator.ready_for(&Arc::new(known.schema())).await {
                    Ok(()) => known.run(args, self.validator.as_ref()),
                    Err(error) => Err(error.into()),
                },
                None => Err(SamplesError::UnknownTool { tool: tool.to_owned() }),
            };
            outcome.map_or_else(|error| ToolResult::error_json(error.to_json()), ToolResult::json)
        })
    }
}
