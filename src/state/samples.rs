//! The built-in `samples` server with the code that builds its datasets in a chunk of its own,
//! fetched by the first call of one of its tools: the engine lists the tools without it, so a visit
//! that never asks for sample data never downloads it.

use std::rc::Rc;

use autoui_core::recipes::validate::SchemaValidator;
use autoui_core::samples::Samples;
use autoui_core::tool::{CallContext, LocalServer, ToolResult, ToolSpec};
use futures::future::LocalBoxFuture;
use serde_json::Value;

use crate::deferred::deferred;

/// `samples` as the agent and the recipes page see it; each call runs in the chunk.
pub struct LazySamples {
    validator: Rc<dyn SchemaValidator>,
    description: String,
    tools: Vec<ToolSpec>,
}

impl LazySamples {
    /// The server, checking arguments with `validator`; nothing is fetched yet.
    pub fn new(validator: Rc<dyn SchemaValidator>) -> LazySamples {
        let listed = Samples::new(validator.clone());
        LazySamples { description: listed.description().to_owned(), tools: listed.tools(), validator }
    }
}

impl LocalServer for LazySamples {
    fn name(&self) -> &str {
        Samples::NAME
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn tools(&self) -> Vec<ToolSpec> {
        self.tools.clone()
    }

    fn call<'a>(&'a self, tool: &'a str, args: Value, context: CallContext) -> LocalBoxFuture<'a, ToolResult> {
        let (validator, tool) = (self.validator.clone(), tool.to_owned());
        Box::pin(async move {
            match call_in_chunk(validator, tool, args, context).await {
                Ok(running) => running.await,
                Err(error) => ToolResult::error(error.to_string()),
            }
        })
    }
}

deferred! {
    #[chunk(samples, "the sample data")]
    fn call_in_chunk(
        validator: Rc<dyn SchemaValidator>,
        tool: String,
        args: Value,
        context: CallContext,
    ) -> LocalBoxFuture<'static, ToolResult> {
        Box::pin(async move { Samples::new(validator).call(&tool, args, context).await })
    }
}
