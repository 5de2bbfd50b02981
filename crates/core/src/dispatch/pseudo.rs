//! The pseudo-tools `{server}_{protocol}_list_tools({offset})` and `..._search_tools({query})`,
//! answered from the server's known tool list without calling or activating the server. A server with
//! thousands of tools is listed a page at a time, and a search returns its best matches only.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::dispatch::catalog::{CatalogServer, CatalogTool};
use crate::llm::model::ToolDef;
use crate::tool::ToolResult;

/// Tools listed per `list_tools` page (a smaller server is listed whole, as a plain array).
pub const LIST_PAGE: usize = 50;
/// Matches `search_tools` returns at most.
pub const SEARCH_LIMIT: usize = 20;

/// A pseudo-tool's answer and the positions (in the server's tools) of the tools it names.
pub struct Answer {
    pub result: ToolResult,
    pub named: Vec<usize>,
}

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
    /// `list_tools` takes an `offset` only when the server has more than a page of tools.
    pub fn definition(self, server: &CatalogServer) -> ToolDef {
        let name = &server.name;
        let (description, schema) = match self {
            PseudoTool::ListTools => (
                format!(
                    "All {} tools of the {name} server with their input schemas, if search_tools finds nothing.",
                    server.tools.len()
                ),
                if server.tools.len() > LIST_PAGE {
                    json!({ "type": "object", "properties": { "offset": { "type": "integer" } } })
                } else {
                    json!({ "type": "object", "properties": {} })
                },
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

    pub fn answer(self, server: &CatalogServer, args: &Value) -> Answer {
        match self {
            PseudoTool::ListTools => list(server, args.get("offset").and_then(Value::as_u64).unwrap_or(0) as usize),
            PseudoTool::SearchTools => search(server, &query_of(args)),
        }
    }
}

/// Every tool when they fit one page; else the page at `offset` with the total and the next offset.
fn list(server: &CatalogServer, offset: usize) -> Answer {
    let total = server.tools.len();
    if total <= LIST_PAGE {
        let result = ToolResult::json(Value::Array(server.tools.iter().map(listing).collect()));
        return Answer { result, named: (0..total).collect() };
    }
    let start = offset.min(total);
    let end = (start + LIST_PAGE).min(total);
    let page: Vec<Value> = server.tools[start..end].iter().map(listing).collect();
    let next = (end < total).then(|| {
        format!("call {}({{\"offset\": {end}}}) for the next page, or {} to find a tool by keywords", server.list_tools, server.search_tools)
    });
    // Keys sort alphabetically: the count and the way to the next page come before the tools, so a
    // page shortened to the result limit still says both.
    let result = ToolResult::json(json!({ "count": total, "next": next, "offset": start, "tools": page }));
    Answer { result, named: (start..end).collect() }
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

/// Tools matching any word of the query, best first: a word in the name counts twice a word in the
/// description. Past [`SEARCH_LIMIT`] matches, the best ones and how many more there are.
fn search(server: &CatalogServer, query: &str) -> Answer {
    let words: Vec<String> =
        query.split(|c: char| !c.is_alphanumeric()).filter(|word| word.len() >= 2).map(str::to_lowercase).collect();
    if words.is_empty() {
        return PseudoTool::ListTools.answer(server, &Value::Null);
    }
    let mut scored: Vec<(usize, usize)> = server
        .tools
        .iter()
        .enumerate()
        .map(|(position, tool)| {
            let name = tool.real.to_lowercase();
            let description = tool.description.to_lowercase();
            let score = words
                .iter()
                .map(|word| {
                    2 * usize::from(name.contains(word.as_str())) + usize::from(description.contains(word.as_str()))
                })
                .sum();
            (score, position)
        })
        .filter(|(score, _)| *score > 0)
        .collect();
    if scored.is_empty() {
        let result = ToolResult::text(format!(
            "No tool of the {} server matches \"{query}\". Call {} to see all {} tools.",
            server.name,
            server.list_tools,
            server.tools.len()
        ));
        return Answer { result, named: Vec::new() };
    }
    scored.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
    let more = scored.len().saturating_sub(SEARCH_LIMIT);
    scored.truncate(SEARCH_LIMIT);
    let named: Vec<usize> = scored.into_iter().map(|(_, position)| position).collect();
    let found: Vec<Value> = named.iter().map(|position| listing(&server.tools[*position])).collect();
    let result = if more == 0 {
        ToolResult::json(Value::Array(found))
    } else {
        ToolResult::json(json!({ "tools": found, "more": format!("{more} more tools match: use more specific keywords") }))
    };
    Answer { result, named }
}
