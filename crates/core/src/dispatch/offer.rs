//! Which tools one request offers when the run has a tool-definition budget (from the model
//! profile): the discovery set, then the tools discovery named or the model called (staged: no
//! need to activate their server first), then the rest of each activated server's tools, as long
//! as their definitions fit the budget. Without a budget the seed's offering stays: the discovery
//! set plus every tool of each activated server.

use crate::dispatch::catalog::{Catalog, CatalogServer, CatalogTool, ToolRole};
use crate::ids::ServerId;
use crate::llm::model::ToolDef;
use crate::sort::sort_by_key;
use crate::tool_name::Protocol;

/// A tool named by `search_tools`, `list_tools` or a recipe, or called: offered from the next request.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Staged {
    server: ServerId,
    protocol: Protocol,
    real: String,
    /// Which answer named it last (a later one is more relevant), and where in that answer.
    generation: u32,
    rank: usize,
    called: bool,
}

#[derive(Clone, Debug, Default)]
pub struct ToolOffer {
    /// Bytes of tool definitions one request may carry; `None` offers as the seed did.
    budget: Option<usize>,
    staged: Vec<Staged>,
    generation: u32,
}

impl ToolOffer {
    pub fn set_budget(&mut self, budget: Option<usize>) {
        self.budget = budget;
    }

    pub fn clear(&mut self) {
        self.staged.clear();
    }

    /// Stages the data tools at `positions` of `server`, in the order given (best first).
    pub fn stage(&mut self, server: &CatalogServer, positions: impl IntoIterator<Item = usize>) {
        self.stage_as(server, positions, false);
    }

    /// Stages a tool the model called: the most relevant of all.
    pub fn stage_called(&mut self, server: &CatalogServer, position: usize) {
        self.stage_as(server, [position], true);
    }

    fn stage_as(&mut self, server: &CatalogServer, positions: impl IntoIterator<Item = usize>, called: bool) {
        self.generation += 1;
        let generation = self.generation;
        for (rank, position) in positions.into_iter().enumerate() {
            let Some(tool) = server.tools.get(position).filter(|tool| tool.role == ToolRole::Data) else { continue };
            let same = |staged: &&mut Staged| {
                staged.server == server.id && staged.protocol == server.protocol && staged.real == tool.real
            };
            match self.staged.iter_mut().find(same) {
                Some(staged) => {
                    staged.generation = generation;
                    staged.rank = rank;
                    staged.called |= called;
                }
                None => self.staged.push(Staged {
                    server: server.id.clone(),
                    protocol: server.protocol,
                    real: tool.real.clone(),
                    generation,
                    rank,
                    called,
                }),
            }
        }
    }

    /// Stages the data tools of `server` whose exposed name appears in `text` (a recipe).
    pub fn stage_named_in(&mut self, server: &CatalogServer, text: &str) {
        let named: Vec<usize> = server
            .tools
            .iter()
            .enumerate()
            .filter(|(_, tool)| tool.role == ToolRole::Data && text.contains(tool.exposed.as_str()))
            .map(|(position, _)| position)
            .collect();
        self.stage(server, named);
    }

    /// The tools of one request.
    pub fn defs(&self, catalog: &Catalog, activated: &[(ServerId, Protocol)]) -> Vec<ToolDef> {
        let Some(budget) = self.budget else { return catalog.tool_defs(activated) };
        let mut defs = catalog.tool_defs(&[]);
        let mut used: usize = defs.iter().map(def_len).sum();
        for tool in self.candidates(catalog, activated) {
            if defs.iter().any(|def| def.name == tool.exposed) {
                continue;
            }
            let def = tool_def(tool);
            let size = def_len(&def);
            // A smaller tool further down may still fit.
            if used + size <= budget {
                used += size;
                defs.push(def);
            }
        }
        defs
    }

    /// Staged tools of ready servers first (called ones, then the most recently named, each answer's
    /// best first), then the other tools of each activated server in activation order.
    fn candidates<'c>(&self, catalog: &'c Catalog, activated: &[(ServerId, Protocol)]) -> Vec<&'c CatalogTool> {
        let ready = |id: &ServerId, protocol: Protocol| catalog.server(id, protocol).filter(|server| server.is_ready());
        let mut relevant: Vec<&Staged> = self.staged.iter().collect();
        sort_by_key(&mut relevant, |staged| (!staged.called, std::cmp::Reverse(staged.generation), staged.rank));
        let staged = relevant.into_iter().filter_map(|staged| {
            ready(&staged.server, staged.protocol)?.tools.iter().find(|tool| tool.real == staged.real)
        });
        let rest = activated.iter().filter_map(|(id, protocol)| ready(id, *protocol)).flat_map(|server| {
            server.tools.iter().filter(|tool| tool.role == ToolRole::Data)
        });
        staged.chain(rest).collect()
    }
}

fn tool_def(tool: &CatalogTool) -> ToolDef {
    ToolDef { name: tool.exposed.clone(), description: tool.description.clone(), input_schema: tool.schema.clone() }
}

/// Bytes a definition adds to a request body (its JSON, plus the field names around it).
pub fn def_len(def: &ToolDef) -> usize {
    def.name.len() + def.description.len() + def.input_schema.to_string().len() + 48
}
