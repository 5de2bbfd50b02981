//! The pseudo-tools `{server}_{protocol}_list_tools` and `..._search_tools({query})`, answered from the
//! server's known tool list without calling or activating the server.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::dispatch::catalog::{CatalogServer, CatalogTool};
use crate::llm::model::ToolDef;
use crate::tool::ToolResult;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PseudoTool {
    ListTools,
    SearchTools,
}

impl PseudoTool {
    /// The tool part of the canonical name.
    pub fn tool(self) -> &'static str {
        match self {
            PseudoTool::ListTools => "list_tools",
            PseudoTool::SearchTools => "search_tools",
        }
    }

    /// The definition offered to the model. Every character is sent with each request, so it says
    /// only what the model needs; lenient argument names are accepted anyway (see `query_of`).
    pub fn definition(self, server: &CatalogServer) -> ToolDef {
        let name = &server.name;
        let (description, schema) = match self {
            PseudoTool::ListTools => (
                format!(
                    "All {} tools of the {name} server with their input schemas, if search_tools finds nothing.",
                    server.tools.len()
                ),
                json!({ "type": "object", "properties": {} }),
            ),
            PseudoTool::SearchTools => (
                format!(
                    "Find tools of the {name} server by keywords (e.g. \"sales region\"); returns them with their \
                     input schemas."
                ),
                json!({ "type": "object", "properties": { "query": { "type": "string" } }, "required": ["query"] }),
            ),
        };
        ToolDef { name: server.pseudo_name(self).to_owned(), description, input_schema: Arc::new(schema) }
    }

    pub fn answer(self, server: &CatalogServer, args: &Value) -> ToolResult {
        match self {
            PseudoTool::ListTools => ToolResult::json(Value::Array(server.tools.iter().map(listing).collect())),
            PseudoTool::SearchTools => search(server, &query_of(args)),
        }
    }
}

fn listing(tool: &CatalogTool) -> Value {
    json!({ "name": tool.exposed, "description": tool.description, "inputSchema": &*tool.schema })
}

/// The query as the model sent it; a few models use another key than `query`.
fn query_of(args: &Value) -> String {
    ["query", "q", "keyword", "keywords", "search"]
        .iter()
        .find_map(|key| args.get(key))
        .map(|value| match value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        })
        .unwrap_or_default()
}

/// Tools matching any word of the query, best first: a word in the name counts twice a word in the description.
fn search(server: &CatalogServer, query: &str) -> ToolResult {
    let words: Vec<String> =
        query.split(|c: char| !c.is_alphanumeric()).filter(|word| word.len() >= 2).map(str::to_lowercase).collect();
    if words.is_empty() {
        return PseudoTool::ListTools.answer(server, &Value::Null);
    }
    let mut scored: Vec<(usize, &CatalogTool)> = server
        .tools
        .iter()
        .map(|tool| {
            let name = tool.real.to_lowercase();
            let description = tool.description.to_lowercase();
            let score = words
                .iter()
                .map(|word| {
                    2 * usize::from(name.contains(word.as_str())) + usize::from(description.contains(word.as_str()))
                })
                .sum();
            (score, tool)
        })
        .filter(|(score, _)| *score > 0)
        .collect();
    if scored.is_empty() {
        return ToolResult::text(format!(
            "No tool of the {} server matches \"{query}\". Call {} to see all {} tools.",
            server.name,
            server.list_tools,
            server.tools.len()
        ));
    }
    scored.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
    ToolResult::json(Value::Array(scored.into_iter().map(|(_, tool)| listing(tool)).collect()))
}
