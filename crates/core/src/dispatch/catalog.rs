//! Every tool of every server under the name the model sees, which of them form the discovery set,
//! and the tool definitions sent to the model for a given set of activated servers.

use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::approval::ToolFacts;
use crate::dispatch::alias::{NameAllocator, RecipeRole, recipe_roles};
use crate::dispatch::pseudo::PseudoTool;
use crate::ids::ServerId;
use crate::llm::model::ToolDef;
use crate::mcp::model::resource::{Resource, ResourceTemplate};
use crate::remote::{RemoteServerView, RemoteStatus};
use crate::tool::{LocalServer, ToolSpec};
use crate::tool_name::{Protocol, ToolName};

/// Local tools offered from the start because every dashboard needs them.
const CANVAS_TOOLS: &[&str] = &["widget_display", "canvas"];
/// The local tool that reads the result buffer back.
const RECALL_TOOL: &str = "recall";

/// What a tool is for, which decides when the model sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolRole {
    /// Finds or reads recipes: offered from the start; calling it makes later calls "guided".
    Recipe(RecipeRole),
    /// A local server's `widget_display` or `canvas`: offered from the start.
    Canvas,
    /// A local server's `recall`: offered from the start; it pages results itself, so its answers are not truncated.
    Recall,
    /// Anything else: offered once its server is activated; a successful call is a data read.
    Data,
}

#[derive(Clone, Debug)]
pub struct CatalogTool {
    /// The name the model sees and calls (canonical, made provider-safe).
    pub exposed: String,
    /// The tool's own name on its server.
    pub real: String,
    pub description: String,
    pub schema: Arc<Value>,
    pub role: ToolRole,
    /// What its server says about it (for approval).
    pub facts: ToolFacts,
    /// The MCP Apps view (`ui://`) its results are shown with on the canvas.
    pub view: Option<String>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Availability {
    Ready,
    /// A remote server that is still connecting or failed: its tools are not offered.
    Unavailable(String),
}

#[derive(Clone, Debug)]
pub struct CatalogServer {
    pub id: ServerId,
    pub protocol: Protocol,
    /// The display name (the user's, or the server's own).
    pub name: String,
    /// A local server's one-line description of itself; empty for remote servers.
    pub description: String,
    /// A remote server's `instructions` from `initialize`, as it sent them.
    pub instructions: Option<String>,
    pub availability: Availability,
    pub tools: Vec<CatalogTool>,
    /// Exposed names of the two pseudo-tools answered from `tools`.
    pub list_tools: String,
    pub search_tools: String,
    /// A remote server's resources and resource templates, and the exposed names of the two
    /// pseudo-tools that list and read them (only when it has some).
    pub resources: Rc<Vec<Resource>>,
    pub resource_templates: Rc<Vec<ResourceTemplate>>,
    pub list_resources: Option<String>,
    pub read_resource: Option<String>,
    /// Position in the dispatcher's local servers, for `webmcp` servers.
    pub(crate) local: Option<usize>,
}

impl CatalogServer {
    pub fn is_ready(&self) -> bool {
        self.availability == Availability::Ready
    }

    /// Whether some of its tools are offered only once it is activated.
    pub fn has_data_tools(&self) -> bool {
        self.tools.iter().any(|tool| tool.role == ToolRole::Data)
    }

    pub fn recipe_tool(&self, role: RecipeRole) -> Option<&CatalogTool> {
        self.tools.iter().find(|tool| tool.role == ToolRole::Recipe(role))
    }

    /// A `widget_display`, `canvas` or `recall` tool of this server.
    pub fn canvas_tool(&self, real: &str) -> Option<&CatalogTool> {
        self.tools.iter().find(|tool| matches!(tool.role, ToolRole::Canvas | ToolRole::Recall) && tool.real == real)
    }

    /// The exposed name of pseudo-tool `kind`, when this server has it.
    pub fn pseudo_name(&self, kind: PseudoTool) -> Option<&str> {
        match kind {
            PseudoTool::ListTools => Some(&self.list_tools),
            PseudoTool::SearchTools => Some(&self.search_tools),
            PseudoTool::ListResources => self.list_resources.as_deref(),
            PseudoTool::ReadResource => self.read_resource.as_deref(),
        }
    }

    /// Whether it has resources or resource templates for the model to list and read.
    pub fn has_resources(&self) -> bool {
        self.list_resources.is_some()
    }
}

/// A server about to be added to the catalog.
struct Source {
    id: ServerId,
    protocol: Protocol,
    name: String,
    description: String,
    instructions: Option<String>,
    availability: Availability,
    local: Option<usize>,
    resources: Rc<Vec<Resource>>,
    resource_templates: Rc<Vec<ResourceTemplate>>,
}

/// Where an exposed name leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    Tool { server: usize, tool: usize },
    Pseudo { server: usize, kind: PseudoTool },
}

/// A snapshot of all servers' tools, taken at the start of a run so names stay stable during it.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    servers: Vec<CatalogServer>,
    index: HashMap<String, Entry>,
}

impl Catalog {
    /// Local servers first (in the order given, `autoui` first), then remote servers.
    pub fn build(local: &[Rc<dyn LocalServer>], remote: &[RemoteServerView]) -> Catalog {
        let mut names = NameAllocator::default();
        let mut catalog = Catalog::default();
        for (position, server) in local.iter().enumerate() {
            let source = Source {
                id: ServerId::sanitize(server.name()),
                protocol: Protocol::WebMcp,
                name: server.name().to_owned(),
                description: server.description().to_owned(),
                instructions: None,
                availability: Availability::Ready,
                local: Some(position),
                resources: Rc::default(),
                resource_templates: Rc::default(),
            };
            catalog.add(&mut names, source, &server.tools());
        }
        for view in remote {
            let availability = match &view.status {
                RemoteStatus::Connected => Availability::Ready,
                RemoteStatus::Connecting => Availability::Unavailable("still connecting".to_owned()),
                RemoteStatus::Failed(reason) => Availability::Unavailable(reason.clone()),
            };
            let source = Source {
                id: view.id.clone(),
                protocol: Protocol::Mcp,
                name: view.name.clone(),
                description: String::new(),
                instructions: view.instructions.clone(),
                availability,
                local: None,
                resources: view.resources.clone(),
                resource_templates: view.resource_templates.clone(),
            };
            // App-only tools (MCP Apps `visibility: ["app"]`) exist for the server's views: the
            // model neither sees nor calls them.
            let for_model: Vec<ToolSpec> = view.tools.iter().filter(|tool| tool.for_model()).cloned().collect();
            catalog.add(&mut names, source, &for_model);
        }
        catalog
    }

    fn add(&mut self, names: &mut NameAllocator, source: Source, specs: &[ToolSpec]) {
        let Source { id, protocol, name, description, instructions, availability, local, resources, resource_templates } =
            source;
        // Two servers that sanitise to one id cannot both be addressed: the first keeps it.
        if self.server(&id, protocol).is_some() {
            return;
        }
        let roles = recipe_roles(specs.iter().map(|spec| (spec.name.as_str(), spec.description.as_str())));
        let position = self.servers.len();
        let mut tools = Vec::with_capacity(specs.len());
        for spec in specs {
            let role = roles
                .iter()
                .find(|(_, real)| *real == spec.name)
                .map(|(role, _)| ToolRole::Recipe(*role))
                .or_else(|| local_role(local.is_some(), &spec.name))
                .unwrap_or(ToolRole::Data);
            let canonical_tool = match role {
                ToolRole::Recipe(recipe) => recipe.canonical(),
                ToolRole::Canvas | ToolRole::Recall | ToolRole::Data => spec.name.as_str(),
            };
            let exposed = names.allocate(&ToolName::new(id.clone(), protocol, canonical_tool).to_string());
            self.index.insert(exposed.clone(), Entry::Tool { server: position, tool: tools.len() });
            tools.push(CatalogTool {
                exposed,
                real: spec.name.clone(),
                description: describe(spec),
                schema: Arc::new(object_schema(&spec.input_schema)),
                role,
                facts: ToolFacts { read_only: spec.read_only, hints: spec.hints },
                view: spec.view_uri().map(str::to_owned),
            });
        }
        let mut pseudo_name = |kind: PseudoTool| {
            let exposed = names.allocate(&ToolName::new(id.clone(), protocol, kind.tool()).to_string());
            self.index.insert(exposed.clone(), Entry::Pseudo { server: position, kind });
            exposed
        };
        let list_tools = pseudo_name(PseudoTool::ListTools);
        let search_tools = pseudo_name(PseudoTool::SearchTools);
        let readable = !resources.is_empty() || !resource_templates.is_empty();
        let list_resources = readable.then(|| pseudo_name(PseudoTool::ListResources));
        let read_resource = readable.then(|| pseudo_name(PseudoTool::ReadResource));
        self.servers.push(CatalogServer {
            id,
            protocol,
            name,
            description,
            instructions,
            availability,
            tools,
            list_tools,
            search_tools,
            resources,
            resource_templates,
            list_resources,
            read_resource,
            local,
        });
    }

    pub fn servers(&self) -> &[CatalogServer] {
        &self.servers
    }

    pub fn server(&self, id: &ServerId, protocol: Protocol) -> Option<&CatalogServer> {
        self.servers.iter().find(|server| &server.id == id && server.protocol == protocol)
    }

    pub(crate) fn server_position(&self, id: &ServerId, protocol: Protocol) -> Option<usize> {
        self.servers.iter().position(|server| &server.id == id && server.protocol == protocol)
    }

    pub fn lookup(&self, exposed: &str) -> Option<Entry> {
        self.index.get(exposed).copied()
    }

    pub fn get(&self, server: usize) -> &CatalogServer {
        &self.servers[server]
    }

    /// Exposed names of tools whose real name is `name`, for "did you mean" hints.
    pub fn named(&self, name: &str) -> Vec<&str> {
        self.servers
            .iter()
            .flat_map(|server| server.tools.iter())
            .filter(|tool| tool.real == name || tool.exposed.ends_with(&format!("_{name}")))
            .map(|tool| tool.exposed.as_str())
            .collect()
    }

    /// What the model is offered: the discovery set of every ready server, then the other tools of
    /// each activated server in activation order (the list only grows at its end, which keeps the
    /// provider's prompt cache valid). A server with no data tools (autoui) has nothing to search
    /// for, so its pseudo-tools are not offered (they still answer if called). A server with resources
    /// also offers `list_resources` and `read_resource`.
    pub fn tool_defs(&self, activated: &[(ServerId, Protocol)]) -> Vec<ToolDef> {
        let mut defs = Vec::new();
        for server in self.servers.iter().filter(|server| server.is_ready()) {
            for tool in server.tools.iter().filter(|tool| tool.role != ToolRole::Data) {
                defs.push(tool_def(tool));
            }
            if server.has_data_tools() {
                for kind in [PseudoTool::SearchTools, PseudoTool::ListTools] {
                    defs.push(kind.definition(server));
                }
            }
            if server.has_resources() {
                for kind in [PseudoTool::ListResources, PseudoTool::ReadResource] {
                    defs.push(kind.definition(server));
                }
            }
        }
        for (id, protocol) in activated {
            let Some(server) = self.server(id, *protocol).filter(|server| server.is_ready()) else { continue };
            for tool in server.tools.iter().filter(|tool| tool.role == ToolRole::Data) {
                defs.push(tool_def(tool));
            }
        }
        defs
    }
}

fn local_role(local: bool, name: &str) -> Option<ToolRole> {
    match name {
        _ if !local => None,
        RECALL_TOOL => Some(ToolRole::Recall),
        _ if CANVAS_TOOLS.contains(&name) => Some(ToolRole::Canvas),
        _ => None,
    }
}

fn tool_def(tool: &CatalogTool) -> ToolDef {
    ToolDef { name: tool.exposed.clone(), description: tool.description.clone(), input_schema: tool.schema.clone() }
}

fn describe(spec: &ToolSpec) -> String {
    if !spec.description.trim().is_empty() {
        spec.description.clone()
    } else {
        spec.title.clone().filter(|title| !title.trim().is_empty()).unwrap_or_else(|| spec.name.clone())
    }
}

/// Providers require an object schema at the root; a missing or odd one becomes an open object.
fn object_schema(schema: &Value) -> Value {
    match schema {
        Value::Object(fields) if fields.get("type").and_then(Value::as_str) == Some("object") => schema.clone(),
        Value::Object(fields) if !fields.contains_key("type") => {
            let mut fields = fields.clone();
            fields.insert("type".to_owned(), json!("object"));
            fields.entry("properties").or_insert_with(|| json!({}));
            Value::Object(fields)
        }
        _ => json!({ "type": "object", "properties": {} }),
    }
}
