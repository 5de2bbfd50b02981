//! `people_directory`: Arvena's 20 people (name, role, team, location, email, start date, and for
//! most of them a photo as an inline `data:image/svg+xml` avatar, never an invented web URL), with
//! head counts per team and location. The project plan's owners and teams come from this table.

use serde::Deserialize;
use serde_json::{Value, json};

pub const TOOL: &str = "people_directory";
pub const DESCRIPTION: &str = "Arvena's people directory (20 people): name, role, team, team colour, location, email, \
                               start date, photo (inline avatar, some have none); head counts per team and location.";

/// Team names with their colour.
pub const TEAMS: [(&str, &str); 6] = [
    ("Product", "#7c3aed"),
    ("Design", "#db2777"),
    ("Platform", "#2563eb"),
    ("Data", "#0d9488"),
    ("Sales", "#ea580c"),
    ("Operations", "#475569"),
];
const LOCATIONS: [&str; 5] = ["Paris", "Lyon", "Berlin", "Lisbon", "Remote"];
const DEFAULT_LIMIT: usize = 50;

/// One person; `team` and `location` index [`TEAMS`] and [`LOCATIONS`].
pub struct Person {
    pub name: &'static str,
    role: &'static str,
    pub team: usize,
    location: usize,
    email: &'static str,
    start_date: &'static str,
    has_photo: bool,
}

const fn person(
    name: &'static str,
    role: &'static str,
    team: usize,
    location: usize,
    email: &'static str,
    start_date: &'static str,
    has_photo: bool,
) -> Person {
    Person { name, role, team, location, email, start_date, has_photo }
}

pub const PEOPLE: [Person; 20] = [
    person("Amira Haddad", "VP Engineering", 2, 1, "amira.haddad@arvena.example", "2018-02-05", true),
    person("Lucas Moreau", "Backend Engineer", 2, 1, "lucas.moreau@arvena.example", "2021-09-13", true),
    person("Sofia Costa", "Site Reliability Engineer", 2, 3, "sofia.costa@arvena.example", "2020-04-01", false),
    person("Jonas Becker", "Backend Engineer", 2, 2, "jonas.becker@arvena.example", "2022-01-10", true),
    person("Ben Carter", "QA Engineer", 2, 4, "ben.carter@arvena.example", "2021-12-06", true),
    person("Chloé Martin", "Product Director", 0, 0, "chloe.martin@arvena.example", "2019-06-03", true),
    person("Mateo Rossi", "Product Manager", 0, 0, "mateo.rossi@arvena.example", "2022-03-21", true),
    person("Hannah Schulz", "Product Manager", 0, 2, "hannah.schulz@arvena.example", "2023-05-15", false),
    person("Yuki Tanaka", "Design Lead", 1, 0, "yuki.tanaka@arvena.example", "2020-11-02", true),
    person("Inès Benali", "Product Designer", 1, 1, "ines.benali@arvena.example", "2023-01-09", true),
    person("Oliver Grant", "UX Researcher", 1, 4, "oliver.grant@arvena.example", "2021-07-19", false),
    person("Priya Raman", "Head of Data", 3, 3, "priya.raman@arvena.example", "2019-10-14", true),
    person("Tomás Silva", "Data Engineer", 3, 3, "tomas.silva@arvena.example", "2022-08-29", true),
    person("Elena Petrova", "Data Analyst", 3, 4, "elena.petrova@arvena.example", "2024-02-12", false),
    person("Marc Dubois", "Sales Director", 4, 0, "marc.dubois@arvena.example", "2017-09-04", true),
    person("Léa Fontaine", "Account Executive", 4, 1, "lea.fontaine@arvena.example", "2021-04-06", true),
    person("Kwame Mensah", "Account Executive", 4, 2, "kwame.mensah@arvena.example", "2022-10-03", false),
    person("Nora Lindqvist", "Customer Success Manager", 4, 4, "nora.lindqvist@arvena.example", "2023-09-18", true),
    person("David Cohen", "Head of Operations", 5, 1, "david.cohen@arvena.example", "2018-11-12", true),
    person("Fatima El Idrissi", "Support Lead", 5, 1, "fatima.elidrissi@arvena.example", "2020-02-17", false),
];

#[derive(Debug, Deserialize)]
pub struct Query {
    team: Option<String>,
    location: Option<String>,
    query: Option<String>,
    photos: Option<bool>,
    limit: Option<usize>,
}

pub fn properties() -> Value {
    let teams: Vec<&str> = TEAMS.iter().map(|(team, _)| *team).collect();
    json!({
        "team": { "type": "string", "enum": teams },
        "location": { "type": "string", "enum": LOCATIONS },
        "query": { "type": "string", "minLength": 1, "description": "part of a name, role or email" },
        "photos": { "type": "boolean", "description": "include photos; default true" },
        "limit": { "type": "integer", "minimum": 1, "maximum": PEOPLE.len() },
    })
}

/// The person's number in the directory, e.g. `p07`.
fn id(index: usize) -> String {
    format!("p{:02}", index + 1)
}

/// A small SVG of the person's initials on their team colour, as a `data:` URL an `<img>` can show.
fn avatar(name: &str, color: &str) -> String {
    let mut words = name.split_whitespace();
    let initials: String = words
        .next()
        .into_iter()
        .chain(words.last())
        .filter_map(|word| word.chars().next())
        .filter(char::is_ascii_alphabetic)
        .collect();
    let color = color.trim_start_matches('#');
    format!(
        "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%2064%2064'%3E\
         %3Crect%20width='64'%20height='64'%20fill='%23{color}'/%3E%3Ctext%20x='32'%20y='41'%20\
         font-family='sans-serif'%20font-size='24'%20fill='%23fff'%20text-anchor='middle'%3E{initials}\
         %3C/text%3E%3C/svg%3E"
    )
}

pub fn answer(query: &Query) -> Value {
    let team = query.team.as_deref().and_then(|name| TEAMS.iter().position(|(known, _)| *known == name));
    let location = query.location.as_deref().and_then(|name| LOCATIONS.iter().position(|known| *known == name));
    let needle = query.query.as_deref().map(str::to_lowercase);
    let matched: Vec<(usize, &Person)> = PEOPLE
        .iter()
        .enumerate()
        .filter(|(_, person)| team.is_none_or(|team| person.team == team))
        .filter(|(_, person)| location.is_none_or(|location| person.location == location))
        .filter(|(_, person)| {
            needle.as_deref().is_none_or(|needle| {
                [person.name, person.role, person.email].iter().any(|field| field.to_lowercase().contains(needle))
            })
        })
        .collect();
    let photos = query.photos.unwrap_or(true);
    let people: Vec<Value> = matched
        .iter()
        .take(query.limit.unwrap_or(DEFAULT_LIMIT))
        .map(|(index, person)| {
            let (team, color) = TEAMS[person.team];
            let mut value = json!({
                "id": id(*index),
                "name": person.name,
                "role": person.role,
                "team": team,
                "team_color": color,
                "location": LOCATIONS[person.location],
                "email": person.email,
                "start_date": person.start_date,
            });
            if photos && person.has_photo {
                value["photo"] = json!(avatar(person.name, color));
            }
            value
        })
        .collect();
    let teams: Vec<Value> = TEAMS
        .iter()
        .enumerate()
        .map(|(index, (name, color))| {
            let count = matched.iter().filter(|(_, person)| person.team == index).count();
            json!({ "team": name, "color": color, "count": count })
        })
        .filter(|team| team["count"] != 0)
        .collect();
    let locations: Vec<Value> = LOCATIONS
        .iter()
        .enumerate()
        .map(|(index, name)| {
            json!({ "location": name, "count": matched.iter().filter(|(_, person)| person.location == index).count() })
        })
        .filter(|location| location["count"] != 0)
        .collect();
    json!({
        "company": "Arvena",
        "headcount": PEOPLE.len(),
        "matched": matched.len(),
        "returned": people.len(),
        "people": people,
        "teams": teams,
        "locations": locations,
    })
}
