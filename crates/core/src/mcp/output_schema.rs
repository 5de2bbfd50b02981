//! A tool's declared `outputSchema` held against its results (MCP 2025-06-18 on): a successful
//! result must carry `structuredContent` that matches it. One that does not reaches the model as an
//! error naming what is wrong, with the server's content kept below, rather than as a silent success.

use std::sync::Arc;

use serde_json::Value;

use crate::recipes::validate::SchemaValidator;
use crate::tool::{ResultPart, ToolResult};

/// `result` as the model gets it, given its tool's output `schema`. An error result, or one that
/// matches, is unchanged. One without `structuredContent`, or whose `structuredContent` does not
/// match, becomes an error naming the problem. Without a `validator` only the presence is checked.
/// A schema that cannot be checked (the validator is unavailable, or the schema does not compile)
/// leaves the result as it is, with a note saying so: that is not the server's result failing.
pub async fn check(result: ToolResult, schema: &Arc<Value>, validator: Option<&dyn SchemaValidator>) -> ToolResult {
    if result.is_error {
        return result;
    }
    let Some(structured) = &result.structured else {
        return mismatch(result, "structuredContent is missing");
    };
    let Some(validator) = validator else {
        return result;
    };
    let verdict = match validator.ready_for(schema).await {
        Ok(()) => validator.validate(schema, structured),
        Err(error) => Err(error),
    };
    match verdict {
        Ok(details) if details.is_empty() => result,
        Ok(details) => {
            let problems: Vec<String> = details
                .iter()
                .map(|detail| match detail.path.as_str() {
                    "" => detail.message.clone(),
                    path => format!("{path}: {}", detail.message),
                })
                .collect();
            mismatch(result, &problems.join("; "))
        }
        Err(error) => {
            let mut result = result;
            result.content.push(ResultPart::Text {
                text: format!("(not checked against the tool's declared output schema: {error})"),
            });
            result
        }
    }
}

/// An error result saying what breaks the schema, the server's content after it.
fn mismatch(result: ToolResult, problem: &str) -> ToolResult {
    let said = ResultPart::Text {
        text: format!("the server's result does not match this tool's declared output schema: {problem}"),
    };
    let content = std::iter::once(said).chain(result.content).collect();
    ToolResult { content, is_error: true, structured: result.structured }
}
