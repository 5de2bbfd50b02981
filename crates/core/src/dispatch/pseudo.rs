//! The pseudo-tools `{server}_{protocol}_list_tools({offset})` and `..._search_tools({query})`,
//! answered from the server's known tool list without calling or activating the server. A server with
//! thousands of tools is listed a page at a time, and a search returns its best matches only.
//! A remote server with resources also has `..._list_resources({offset})`, answered from its known
//! resources and templates, and `..._read_resource({uri})`, which the dispatcher sends to the server.

use std::sync::Arc;

use serde_json::{Value, json};

use crate::dispatch::catalog::{CatalogServer, CatalogTool};
use crate::llm::model::ToolDef;
use crate::sort::sort_by_key;
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
    ListResources,
    ReadResource,
}

impl PseudoTool {
    /// The tool part of the canonical name.
    pub fn tool(self) -> &'static str {
        match self {
            PseudoTool::ListTools => "list_tools",
            PseudoTool::SearchTools => "search_tools",
            PseudoTool::ListResources => "list_resources",
            PseudoTool::ReadResource => "read_resource",
        }
    }

    /// Whether it is answered here, from what the catalog knows (`read_resource` asks the server).
    pub fn is_local(self) -> bool {
        self != PseudoTool::ReadResource
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
            PseudoTool::ListResources => (
                format!(
                    "The {} resources and {} resource templates (data to read by uri) of the {name} server.",
                    server.resources.len(),
                    server.resource_templates.len()
                ),
                if server.resources.len() > LIST_PAGE {
                    json!({ "type": "object", "properties": { "offset": { "type": "integer" } } })
                } else {
                    json!({ "type": "object", "properties": {} })
                },
            ),
            PseudoTool::ReadResource => (
                format!("Read a resource of the {name} server by its uri (listed, or a template filled in)."),
                json!({ "type": "object", "properties": { "uri": { "type": "string" } }, "required": ["uri"] }),
            ),
        };
        let name = server.pseudo_name(self).unwrap_or_default().to_owned();
        ToolDef { name, description, input_schema: Arc::new(schema) }
    }

    /// The answer of a local pseudo-tool; `read_resource` is answered by the server instead.
    pub fn answer(self, server: &CatalogServer, args: &Value) -> Answer {
        let offset = args.get("offset").and_then(Value::as_u64).unwrap_or(0) as usize;
        match self {
            PseudoTool::ListTools => list(server, offset),
            PseudoTool::SearchTools => search(server, &query_of(args)),
            PseudoTool::ListResources => Answer { result: list_resources(server, offset), named: Vec::new() },
            PseudoTool::ReadResource => Answer {
                result: ToolResult::error(format!("Error: {} is answered by the server", server.id)),
                named: Vec::new(),
            },
        }
    }
}

/// The uri `read_resource` was called with; a few models use another key than `uri`.
pub fn uri_of(args: &Value) -> Option<String> {
    ["uri", "url", "resource"]
        .iter()
        .find_map(|key| args.get(key).and_then(Value::as_str))
        .map(str::trim)
        .filter(|uri| !uri.is_empty())
        .map(str::to_owned)
}

/// The server's resources (a page at `offset` past [`LIST_PAGE`]) and, on the first page, its templates.
fn list_resources(server: &CatalogServer, offset: usize) -> ToolResult {
    let total = server.resources.len();
    let start = if total <= LIST_PAGE { 0 } else { offset.min(total) };
    let end = (start + LIST_PAGE).min(total);
    let resources: Vec<Value> = server.resources[start..end]
        .iter()
        .map(|resource| {
            let mut listed = json!({ "uri": resource.uri, "name": resource.name });
            let fields = [
                ("description", resource.description.clone().map(Value::from)),
                ("mimeType", resource.mime_type.clone().map(Value::from)),
                ("size", resource.size.map(Value::from)),
            ];
            for (key, value) in fields {
                if let Some(value) = value {
                    listed[key] = value;
                }
            }
            listed
        })
        .collect();
    let read = server.read_resource.as_deref().unwrap_or_default();
    let mut answer = json!({ "resources": resources });
    if start == 0 && !server.resource_templates.is_empty() {
        let templates: Vec<Value> = server
            .resource_templates
            .iter()
            .map(|template| {
                json!({ "uriTemplate": template.uri_template, "name": template.name, "description": template.description })
            })
            .collect();
        answer["templates"] = Value::Array(templates);
        answer["howToUseTemplates"] = json!(format!("fill a uriTemplate's {{placeholders}} in and call {read}({{\"uri\": ...}})"));
    }
    if total > LIST_PAGE {
        // Keys sort alphabetically: the count and the way on come before the (long) lists.
        answer["count"] = json!(total);
        answer["offset"] = json!(start);
        if end < total {
            let list = server.list_resources.as_deref().unwrap_or_default();
            answer["next"] = json!(format!("call {list}({{\"offset\": {end}}}) for the next page"));
        }
    }
    ToolResult::json(answer)
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
    sort_by_key(&mut scored, |(score, _)| std::cmp::Reverse(*score));
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
