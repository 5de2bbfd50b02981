//! `parliament`: the seat composition of a fictional 401-seat Chamber of Deputies (groups with seats,
//! colours and side: government coalition, opposition, non-attached) and its four latest votes with
//! each group's breakdown. Vote totals are summed from the groups, so they always match the seats.

use serde::Deserialize;
use serde_json::{Value, json};

pub const TOOL: &str = "parliament";
pub const DESCRIPTION: &str = "A fictional 401-seat parliament: groups (seats, colour, government/opposition), the \
                               coalition's majority, and recent votes with each group's for/against/abstain/absent.";

const CHAMBER: &str = "Chamber of Deputies (fictional)";
const SIDES: [&str; 3] = ["government", "opposition", "non-attached"];
const COALITION: &str = "Red-Green-Yellow coalition";

/// A parliamentary group, from left to right.
struct Group {
    id: &'static str,
    label: &'static str,
    seats: u32,
    color: &'static str,
    /// Index into [`SIDES`].
    side: usize,
    /// The non-attached members have no leader.
    leader: Option<&'static str>,
}

const GROUPS: [Group; 7] = [
    Group { id: "LEFT", label: "Left Alliance", seats: 28, color: "#b3202c", side: 1, leader: Some("Rosa Lindgren") },
    Group { id: "GRN", label: "Greens", seats: 41, color: "#2e9d4a", side: 0, leader: Some("Jan Okafor") },
    Group { id: "SD", label: "Social Democrats", seats: 118, color: "#e4003b", side: 0, leader: Some("Helena Varga") },
    Group { id: "LIB", label: "Liberals", seats: 47, color: "#f5c400", side: 0, leader: Some("Pieter de Wit") },
    Group { id: "CD", label: "Christian Democrats", seats: 62, color: "#ff7f00", side: 1, leader: Some("Agnes Maier") },
    Group { id: "CON", label: "Conservatives", seats: 89, color: "#1f3f8f", side: 1, leader: Some("Marcus Holt") },
    Group { id: "NI", label: "Non-attached members", seats: 16, color: "#9ca3af", side: 2, leader: None },
];

/// One vote; `by_group` is `[for, against, abstain, absent]` per group, in [`GROUPS`] order.
struct Vote {
    id: &'static str,
    date: &'static str,
    title: &'static str,
    by_group: [[u32; 4]; 7],
}

/// Newest first.
const VOTES: [Vote; 4] = [
    Vote {
        id: "V-2024-118",
        date: "2024-11-12",
        title: "2025 Budget Act (final reading)",
        by_group: [
            [0, 27, 0, 1],
            [40, 0, 0, 1],
            [117, 0, 0, 1],
            [46, 0, 1, 0],
            [0, 58, 2, 2],
            [0, 87, 0, 2],
            [3, 9, 2, 2],
        ],
    },
    Vote {
        id: "V-2024-112",
        date: "2024-11-07",
        title: "Renewable Energy Acceleration Act",
        by_group: [
            [26, 0, 1, 1],
            [41, 0, 0, 0],
            [112, 2, 1, 3],
            [30, 12, 4, 1],
            [20, 35, 5, 2],
            [2, 80, 3, 4],
            [5, 6, 3, 2],
        ],
    },
    Vote {
        id: "V-2024-104",
        date: "2024-10-29",
        title: "Motion of no confidence in the Government",
        by_group: [
            [27, 0, 0, 1],
            [0, 41, 0, 0],
            [0, 117, 0, 1],
            [0, 46, 0, 1],
            [60, 0, 0, 2],
            [88, 0, 0, 1],
            [9, 4, 1, 2],
        ],
    },
    Vote {
        id: "V-2024-097",
        date: "2024-10-22",
        title: "Digital Services Tax Bill",
        by_group: [
            [28, 0, 0, 0],
            [38, 0, 2, 1],
            [101, 8, 6, 3],
            [4, 40, 2, 1],
            [10, 45, 4, 3],
            [0, 86, 1, 2],
            [4, 8, 2, 2],
        ],
    },
];

#[derive(Debug, Deserialize)]
pub struct Query {
    side: Option<String>,
    result: Option<String>,
    votes: Option<usize>,
}

pub fn properties() -> Value {
    json!({
        "side": { "type": "string", "enum": SIDES, "description": "only the groups of this side" },
        "result": { "type": "string", "enum": ["adopted", "rejected"], "description": "only votes with this result" },
        "votes": { "type": "integer", "minimum": 0, "maximum": VOTES.len(), "description": "latest votes returned; default all" },
    })
}

fn total_seats() -> u32 {
    GROUPS.iter().map(|group| group.seats).sum()
}

/// Adopted when more members voted for than against.
fn adopted(totals: [u32; 4]) -> bool {
    totals[0] > totals[1]
}

fn totals(vote: &Vote) -> [u32; 4] {
    let mut totals = [0; 4];
    for counts in &vote.by_group {
        for (total, count) in totals.iter_mut().zip(counts) {
            *total += count;
        }
    }
    totals
}

pub fn answer(query: &Query) -> Value {
    let total = total_seats();
    let majority = total / 2 + 1;
    let side = query.side.as_deref().and_then(|name| SIDES.iter().position(|known| *known == name));
    let seats_of = |side: usize| GROUPS.iter().filter(|group| group.side == side).map(|group| group.seats).sum::<u32>();
    let coalition_seats = seats_of(0);
    let groups: Vec<Value> = GROUPS
        .iter()
        .filter(|group| side.is_none_or(|side| group.side == side))
        .map(|group| {
            let mut value = json!({
                "id": group.id,
                "label": group.label,
                "seats": group.seats,
                "color": group.color,
                "side": SIDES[group.side],
            });
            if let Some(leader) = group.leader {
                value["leader"] = json!(leader);
            }
            value
        })
        .collect();
    let votes: Vec<Value> = VOTES
        .iter()
        .filter(|vote| match query.result.as_deref() {
            Some("adopted") => adopted(totals(vote)),
            Some("rejected") => !adopted(totals(vote)),
            _ => true,
        })
        .take(query.votes.unwrap_or(VOTES.len()))
        .map(vote_json)
        .collect();
    json!({
        "chamber": CHAMBER,
        "total_seats": total,
        "majority": majority,
        "coalition": {
            "name": COALITION,
            "groups": GROUPS.iter().filter(|group| group.side == 0).map(|group| group.id).collect::<Vec<_>>(),
            "seats": coalition_seats,
            "margin_over_majority": coalition_seats as i64 - majority as i64,
        },
        "seats_by_side": { "government": coalition_seats, "opposition": seats_of(1), "non-attached": seats_of(2) },
        "groups": groups,
        "votes": votes,
    })
}

fn vote_json(vote: &Vote) -> Value {
    let totals = totals(vote);
    let by_group: Vec<Value> = GROUPS
        .iter()
        .zip(&vote.by_group)
        .map(|(group, [yes, no, abstain, absent])| {
            json!({ "group": group.id, "for": yes, "against": no, "abstain": abstain, "absent": absent })
        })
        .collect();
    json!({
        "id": vote.id,
        "date": vote.date,
        "title": vote.title,
        "result": if adopted(totals) { "adopted" } else { "rejected" },
        "for": totals[0],
        "against": totals[1],
        "abstain": totals[2],
        "absent": totals[3],
        "by_group": by_group,
    })
}
