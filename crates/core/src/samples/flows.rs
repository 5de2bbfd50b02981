//! The samples server's recipe tools: a few short "flow" recipes (markdown in `flows/`) that say which
//! samples tool to call and which widgets to show, served with the same shapes as autoui's
//! `list_recipes`, `search_recipes` and `get_recipe` (group `flow`).

use serde::Deserialize;
use serde_json::{Value, json};

use crate::recipes::search::{forms, terms};
use crate::samples::SamplesError;
use crate::sort::{sort_by, sort_by_key};

const GROUP: &str = "flow";
/// How many names an "unknown recipe" error suggests.
const CLOSEST: usize = 3;

/// Score weights: a name match beats a tag match, which beats a description match.
const NAME_WORD: u32 = 100;
const TAG: u32 = 40;
const IN_DESCRIPTION: u32 = 10;

struct Flow {
    name: &'static str,
    description: &'static str,
    tags: &'static [&'static str],
    body: &'static str,
}

const FLOWS: [Flow; 5] = [
    Flow {
        name: "sales-dashboard",
        description: "Sales KPIs, monthly revenue by region, product mix and a region table",
        tags: &["sales", "revenue", "kpi", "region", "product", "margin", "business", "finance"],
        body: include_str!("flows/sales-dashboard.md"),
    },
    Flow {
        name: "service-health",
        description: "A web service's traffic, error rate, latency, slow routes and recent errors from its logs",
        tags: &["logs", "errors", "latency", "monitoring", "api", "incident", "service", "health", "ops"],
        body: include_str!("flows/service-health.md"),
    },
    Flow {
        name: "parliament-overview",
        description: "Seats by group in a hemicycle, the coalition's majority and recent votes",
        tags: &["parliament", "seats", "politics", "votes", "coalition", "hemicycle", "election"],
        body: include_str!("flows/parliament-overview.md"),
    },
    Flow {
        name: "team-directory",
        description: "People with photos by team, head counts and a contact table",
        tags: &["people", "team", "directory", "staff", "employees", "contacts", "organisation", "hr"],
        body: include_str!("flows/team-directory.md"),
    },
    Flow {
        name: "project-status",
        description: "A project's milestones on a timeline, progress and task handovers between teams",
        tags: &["project", "timeline", "milestones", "roadmap", "progress", "tasks", "flow", "sankey"],
        body: include_str!("flows/project-status.md"),
    },
];

#[derive(Debug, Deserialize)]
pub struct Search {
    pub query: String,
}

#[derive(Debug, Deserialize)]
pub struct Get {
    pub name: String,
}

fn summary(flow: &Flow) -> Value {
    json!({ "name": flow.name, "description": flow.description, "group": GROUP })
}

pub fn list() -> Value {
    json!({ "recipes": FLOWS.iter().map(summary).collect::<Vec<_>>() })
}

/// Recipes matching any word of `query`, best first; an empty query lists all.
pub fn search(query: &str) -> Value {
    let words = terms(query);
    let mut scored: Vec<(u32, &Flow)> = FLOWS
        .iter()
        .map(|flow| (words.iter().map(|word| score(flow, word)).sum::<u32>(), flow))
        .filter(|(score, _)| words.is_empty() || *score > 0)
        .collect();
    sort_by_key(&mut scored, |(score, _)| std::cmp::Reverse(*score));
    let found: Vec<Value> = scored.into_iter().map(|(_, flow)| summary(flow)).collect();
    let none = found.is_empty();
    let mut body = json!({ "query": query, "recipes": found });
    if none {
        body["hint"] = json!("no samples recipe matches; call list_recipes to see all of them");
    }
    body
}

pub fn get(name: &str) -> Result<Value, SamplesError> {
    let wanted = normalise(name);
    let Some(flow) = FLOWS.iter().find(|flow| flow.name == wanted) else {
        let mut closest: Vec<(f64, &'static str)> =
            FLOWS.iter().map(|flow| (strsim::jaro_winkler(&wanted, flow.name), flow.name)).collect();
        sort_by(&mut closest, |a, b| b.0.total_cmp(&a.0));
        return Err(SamplesError::UnknownRecipe {
            name: name.to_owned(),
            closest: closest.into_iter().take(CLOSEST).map(|(_, name)| name).collect(),
        });
    };
    Ok(json!({
        "name": flow.name,
        "description": flow.description,
        "group": GROUP,
        "tags": flow.tags,
        "recipe": flow.body,
    }))
}

/// `Sales Dashboard` and `sales_dashboard` both read `sales-dashboard`.
fn normalise(name: &str) -> String {
    name.trim().to_lowercase().replace(['_', ' '], "-")
}

fn score(flow: &Flow, word: &str) -> u32 {
    forms(word)
        .map(|form| {
            if flow.name.split('-').any(|part| part == form) {
                NAME_WORD
            } else if flow.tags.contains(&form) {
                TAG
            } else if flow.description.to_lowercase().contains(form) {
                IN_DESCRIPTION
            } else {
                0
            }
        })
        .max()
        .unwrap_or(0)
}
