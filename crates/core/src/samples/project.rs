//! `project_plan`: Arvena's "Checkout v2" project as of 2024-11-14: milestones (date, status
//! done/active/pending, owner and team from the people directory) and the tasks handed over between
//! teams, as sankey-ready nodes and links.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::samples::people::{PEOPLE, TEAMS};
use crate::samples::seed::percent;

pub const TOOL: &str = "project_plan";
pub const DESCRIPTION: &str = "Arvena's Checkout v2 project as of 2024-11-14: milestones (date, status \
                               done/active/pending, owner, team), progress, and tasks handed over between teams \
                               (nodes/links for a sankey).";

const PROJECT: &str = "Checkout v2";
const AS_OF: &str = "2024-11-14";
const STATUSES: [&str; 3] = ["done", "active", "pending"];

/// Date, title, status (index into [`STATUSES`]), owner (index into [`PEOPLE`]) and what it delivers.
const MILESTONES: [(&str, &str, usize, usize, &str); 10] = [
    ("2024-02-05", "Kick-off and scope", 0, 5, "Goals, budget and the team agreed"),
    ("2024-03-18", "UX research findings", 0, 10, "24 customer interviews on checkout drop-off"),
    ("2024-04-29", "New checkout design approved", 0, 8, "One-page checkout with saved carts"),
    ("2024-06-10", "Payments API v2", 0, 1, "Card, SEPA and invoice payments behind one API"),
    ("2024-07-22", "Conversion analytics pipeline", 0, 12, "Funnel events from cart to order"),
    ("2024-09-09", "Beta for 10% of traffic", 0, 6, "A/B test against the old checkout"),
    ("2024-11-25", "Orders database migration", 1, 2, "Move orders to the new cluster with no downtime"),
    ("2024-12-02", "Sales enablement and pricing pages", 2, 15, "Pitch deck, pricing pages, partner briefing"),
    ("2024-12-16", "Support runbooks and training", 2, 19, "Runbooks and training for the support team"),
    ("2025-01-13", "General availability", 2, 0, "Checkout v2 for all customers"),
];

/// Tasks handed over from one team to another (indexes into [`TEAMS`]); the flow runs from product
/// work to delivery, so the graph has no cycle.
const HANDOVERS: [(usize, usize, u32); 10] = [
    (0, 1, 34),
    (0, 2, 52),
    (0, 3, 12),
    (1, 2, 41),
    (1, 4, 8),
    (2, 3, 9),
    (2, 5, 38),
    (2, 4, 14),
    (3, 4, 11),
    (3, 5, 6),
];

#[derive(Debug, Deserialize)]
pub struct Query {
    status: Option<String>,
    team: Option<String>,
}

pub fn properties() -> Value {
    let teams: Vec<&str> = TEAMS.iter().map(|(team, _)| *team).collect();
    json!({
        "status": { "type": "string", "enum": STATUSES, "description": "only milestones with this status" },
        "team": { "type": "string", "enum": teams, "description": "only this team's milestones and handovers" },
    })
}

pub fn answer(query: &Query) -> Value {
    let status = query.status.as_deref().and_then(|name| STATUSES.iter().position(|known| *known == name));
    let team = query.team.as_deref().and_then(|name| TEAMS.iter().position(|(known, _)| *known == name));
    let milestones: Vec<Value> = MILESTONES
        .iter()
        .filter(|(_, _, state, _, _)| status.is_none_or(|status| *state == status))
        .filter(|(_, _, _, owner, _)| team.is_none_or(|team| PEOPLE[*owner].team == team))
        .map(|(date, title, state, owner, description)| {
            let owner = &PEOPLE[*owner];
            json!({
                "date": date,
                "title": title,
                "status": STATUSES[*state],
                "owner": owner.name,
                "team": TEAMS[owner.team].0,
                "description": description,
            })
        })
        .collect();
    let count = |state: usize| MILESTONES.iter().filter(|milestone| milestone.2 == state).count();
    let links: Vec<&(usize, usize, u32)> =
        HANDOVERS.iter().filter(|(from, to, _)| team.is_none_or(|team| *from == team || *to == team)).collect();
    let nodes: Vec<Value> = TEAMS
        .iter()
        .enumerate()
        .filter(|(index, _)| links.iter().any(|(from, to, _)| from == index || to == index))
        .map(|(index, (name, color))| {
            let received: u32 = HANDOVERS.iter().filter(|(_, to, _)| *to == index).map(|link| link.2).sum();
            let handed: u32 = HANDOVERS.iter().filter(|(from, _, _)| *from == index).map(|link| link.2).sum();
            let people = PEOPLE.iter().filter(|person| person.team == index).count();
            json!({
                "id": name,
                "color": color,
                "people": people,
                "tasks_received": received,
                "tasks_handed_over": handed,
            })
        })
        .collect();
    let links: Vec<Value> = links
        .iter()
        .map(|(from, to, tasks)| json!({ "source": TEAMS[*from].0, "target": TEAMS[*to].0, "value": tasks }))
        .collect();
    json!({
        "project": PROJECT,
        "as_of": AS_OF,
        "progress": {
            "milestones": MILESTONES.len(),
            "done": count(0),
            "active": count(1),
            "pending": count(2),
            "done_pct": percent(count(0) as i64, MILESTONES.len() as i64),
        },
        "milestones": milestones,
        "handovers": {
            "unit": "tasks",
            "total": HANDOVERS.iter().map(|link| link.2).sum::<u32>(),
            "nodes": nodes,
            "links": links,
        },
    })
}
