//! `request_logs`: one hour of Arvena's web shop API (`shop-api`, 2024-11-14 09:00-10:00 UTC, 720
//! requests) with a rate-limit burst at 09:20 and an orders-database incident at 09:42-09:50; filters,
//! summary statistics (levels, statuses, latency percentiles, per route, per 5 minutes) and the entries.

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::samples::SamplesError;
use crate::samples::seed::{between, chance, mix, percent};
use crate::sort::sort;

pub const TOOL: &str = "request_logs";
pub const DESCRIPTION: &str = "Request logs of Arvena's shop API, 2024-11-14 09:00-10:00 UTC: summary (levels, \
                               statuses, latency percentiles, per route, per 5 min) and the latest matching entries.";

const SERVICE: &str = "shop-api";
const DAY: &str = "2024-11-14";
const REQUESTS: u64 = 720;
/// The window starts at 09:00:00 UTC; times below are milliseconds since then.
const START_HOUR: i64 = 9;
const WINDOW_MS: i64 = 3_600_000;
const SLOT_MS: i64 = 5_000;
const BUCKET_MS: i64 = 300_000;
const RATE_LIMIT: (i64, i64) = (20 * 60_000, 23 * 60_000);
const INCIDENT: (i64, i64) = (42 * 60_000, 50 * 60_000);
/// A response slower than this is a warning.
const SLOW_MS: i64 = 1_000;
const DEFAULT_LIMIT: usize = 30;

pub const LEVELS: [&str; 3] = ["info", "warn", "error"];
/// Route, share of traffic (per cent) and typical latency in ms.
const ROUTES: [(&str, u64, i64); 7] = [
    ("GET /api/products", 30, 45),
    ("GET /api/products/:id", 20, 28),
    ("GET /api/cart", 15, 22),
    ("POST /api/orders", 10, 180),
    ("GET /api/orders/:id", 8, 60),
    ("POST /api/login", 7, 120),
    ("GET /health", 10, 2),
];

#[derive(Debug, Deserialize)]
pub struct Query {
    min_level: Option<String>,
    route: Option<String>,
    status: Option<u16>,
    from: Option<String>,
    to: Option<String>,
    min_latency_ms: Option<i64>,
    limit: Option<usize>,
}

pub fn properties() -> Value {
    let routes: Vec<&str> = ROUTES.iter().map(|(route, _, _)| *route).collect();
    let time = "^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$";
    json!({
        "min_level": { "type": "string", "enum": LEVELS, "description": "warn = warnings and errors" },
        "route": { "type": "string", "enum": routes },
        "status": { "type": "integer", "minimum": 100, "maximum": 599 },
        "from": { "type": "string", "pattern": time, "description": "UTC time HH:MM[:SS], inclusive" },
        "to": { "type": "string", "pattern": time, "description": "UTC time HH:MM[:SS], inclusive" },
        "min_latency_ms": { "type": "integer", "minimum": 0 },
        "limit": { "type": "integer", "minimum": 1, "maximum": 200, "description": "entries returned (latest); default 30" },
    })
}

#[derive(Clone, Debug)]
struct Entry {
    /// Milliseconds since 09:00:00.
    at: i64,
    level: usize,
    route: usize,
    status: u16,
    latency_ms: i64,
    message: String,
}

impl Entry {
    fn json(&self) -> Value {
        json!({
            "timestamp": format!("{DAY}T{}Z", clock(self.at, true)),
            "level": LEVELS[self.level],
            "route": ROUTES[self.route].0,
            "status": self.status,
            "latency_ms": self.latency_ms,
            "message": self.message,
        })
    }
}

/// `09:41:07.123` (with milliseconds) or `09:41`.
fn clock(at: i64, precise: bool) -> String {
    let (hours, minutes) = (START_HOUR + at / 3_600_000, at / 60_000 % 60);
    if precise {
        format!("{hours:02}:{minutes:02}:{:02}.{:03}", at / 1_000 % 60, at % 1_000)
    } else {
        format!("{hours:02}:{minutes:02}")
    }
}

/// All requests of the hour, oldest first.
fn entries() -> Vec<Entry> {
    (0..REQUESTS).map(request).collect()
}

fn request(index: u64) -> Entry {
    let seed = |salt: u64| index * 16 + salt;
    let at = index as i64 * SLOT_MS + between(seed(1), 0, SLOT_MS - 1);
    let pick = mix(seed(2)) % 100;
    let mut cumulative = 0;
    let route = ROUTES
        .iter()
        .position(|(_, share, _)| {
            cumulative += share;
            pick < cumulative
        })
        .unwrap_or(0);
    let (path, _, typical) = ROUTES[route];
    let mut latency = typical * between(seed(3), 700, 1_600) / 1_000 + 1;
    if chance(seed(4), 20) {
        latency *= between(seed(5), 3, 8);
    }
    let in_window = |(start, end): (i64, i64)| (start..end).contains(&at);
    // Carts and orders both live in orders-db, the database that degrades during the incident.
    let orders = path.contains("/api/orders") || path == "GET /api/cart";
    let id = between(seed(6), 1_000, 1_299);
    let (status, message) = if in_window(INCIDENT) && orders && chance(seed(7), 600) {
        latency = 3_000 + between(seed(8), 0, 40);
        (503, "upstream timeout after 3000 ms (orders-db)".to_owned())
    } else if in_window(INCIDENT) && orders {
        latency *= between(seed(8), 6, 14);
        (if path.starts_with("POST") { 201 } else { 200 }, format!("slow query on orders-db ({latency} ms)"))
    } else if in_window(RATE_LIMIT) && path == "GET /api/products" && chance(seed(7), 700) {
        latency = between(seed(8), 2, 5);
        (429, "rate limit exceeded for API key k_7f3a".to_owned())
    } else {
        normal(path, index, id, chance(seed(7), failure_rate(path)), seed(9))
    };
    let level = match status {
        500.. => 2,
        400.. => 1,
        _ if latency >= SLOW_MS => 1,
        _ => 0,
    };
    Entry { at, level, route, status, latency_ms: latency, message }
}

/// Per mille of ordinary requests to `path` that fail in the usual way.
fn failure_rate(path: &str) -> u64 {
    match path {
        "POST /api/login" => 120,
        "GET /api/products/:id" => 50,
        "POST /api/orders" => 8,
        _ => 0,
    }
}

fn normal(path: &str, index: u64, id: i64, fails: bool, seed: u64) -> (u16, String) {
    match (path, fails) {
        ("POST /api/login", true) => (401, format!("invalid credentials for user u_{id}")),
        ("POST /api/login", false) => (200, format!("user u_{id} signed in")),
        ("GET /api/products/:id", true) => (404, format!("product {id} not found")),
        ("GET /api/products/:id", false) => (200, format!("product {id}")),
        ("POST /api/orders", true) => (500, "payment provider returned a malformed response".to_owned()),
        ("POST /api/orders", false) => (201, format!("order o_{} created", 58_000 + index)),
        ("GET /api/orders/:id", _) => (200, format!("order o_{} loaded", 57_800 + between(seed, 0, 199))),
        ("GET /api/cart", _) => (200, format!("cart with {} items", between(seed, 1, 6))),
        ("GET /api/products", _) => (200, format!("listed {} products", between(seed, 12, 48))),
        _ => (200, "ok".to_owned()),
    }
}

/// The span of `HH:MM[:SS]` in milliseconds since 09:00: the whole minute, or the whole second.
fn span_of(text: &str) -> (i64, i64) {
    let parts: Vec<i64> = text.split(':').map(|part| part.parse().unwrap_or(0)).collect();
    match parts[..] {
        [hours, minutes, seconds] => ((((hours - START_HOUR) * 60 + minutes) * 60 + seconds) * 1_000, 1_000),
        [hours, minutes, ..] => (((hours - START_HOUR) * 60 + minutes) * 60_000, 60_000),
        _ => (0, 0),
    }
}

pub fn answer(query: &Query) -> Result<Value, SamplesError> {
    let from = query.from.as_deref().map_or(0, |from| span_of(from).0).max(0);
    let end = |to: &str| {
        let (start, span) = span_of(to);
        start + span
    };
    let to = query.to.as_deref().map_or(WINDOW_MS, end).min(WINDOW_MS) - 1;
    if from > to {
        return Err(SamplesError::OutOfRange(format!(
            "no logs in that time range: they cover 09:00:00 to 09:59:59 UTC on {DAY}; give from <= to inside it"
        )));
    }
    let min_level = query.min_level.as_deref().and_then(|level| LEVELS.iter().position(|known| *known == level));
    let route = query.route.as_deref().and_then(|name| ROUTES.iter().position(|(known, _, _)| *known == name));
    let matched: Vec<Entry> = entries()
        .into_iter()
        .filter(|entry| (from..=to).contains(&entry.at))
        .filter(|entry| min_level.is_none_or(|level| entry.level >= level))
        .filter(|entry| route.is_none_or(|route| entry.route == route))
        .filter(|entry| query.status.is_none_or(|status| entry.status == status))
        .filter(|entry| query.min_latency_ms.is_none_or(|latency| entry.latency_ms >= latency))
        .collect();

    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    let shown = &matched[matched.len().saturating_sub(limit)..];
    let by_route: Vec<Value> = ROUTES
        .iter()
        .enumerate()
        .filter_map(|(index, (name, _, _))| {
            let of_route: Vec<&Entry> = matched.iter().filter(|entry| entry.route == index).collect();
            (!of_route.is_empty()).then(|| {
                let mut value = stats(&of_route);
                value["route"] = json!(name);
                value
            })
        })
        .collect();
    let per_5_min: Vec<Value> = (from / BUCKET_MS..=to / BUCKET_MS)
        .map(|bucket| {
            let in_bucket: Vec<&Entry> = matched.iter().filter(|entry| entry.at / BUCKET_MS == bucket).collect();
            let mut value = stats(&in_bucket);
            value["time"] = json!(clock(bucket * BUCKET_MS, false));
            value
        })
        .collect();
    let all: Vec<&Entry> = matched.iter().collect();
    let mut by_status: BTreeMap<String, usize> = BTreeMap::new();
    for entry in &matched {
        *by_status.entry(entry.status.to_string()).or_default() += 1;
    }
    let by_level: BTreeMap<&str, usize> = LEVELS
        .iter()
        .enumerate()
        .map(|(index, name)| (*name, matched.iter().filter(|e| e.level == index).count()))
        .collect();

    Ok(json!({
        "service": SERVICE,
        "window": { "from": format!("{DAY}T{}Z", clock(from, true)), "to": format!("{DAY}T{}Z", clock(to, true)) },
        "matched": matched.len(),
        "returned": shown.len(),
        "summary": {
            "requests": matched.len(),
            "by_level": by_level,
            "by_status": by_status,
            "errors": errors(&all),
            "error_rate_pct": percent(errors(&all) as i64, matched.len() as i64),
            "latency_ms": latency(&all),
        },
        "by_route": by_route,
        "per_5_min": per_5_min,
        "entries_note": "the latest matching entries, oldest first",
        "entries": shown.iter().map(Entry::json).collect::<Vec<_>>(),
    }))
}

/// Server errors (5xx): what the error rate counts.
fn errors(entries: &[&Entry]) -> usize {
    entries.iter().filter(|entry| entry.status >= 500).count()
}

/// `{requests, errors, error_rate_pct, p95_ms}` of a group of entries.
fn stats(entries: &[&Entry]) -> Value {
    json!({
        "requests": entries.len(),
        "errors": errors(entries),
        "error_rate_pct": percent(errors(entries) as i64, entries.len() as i64),
        "p95_ms": percentile(&sorted_latencies(entries), 95),
    })
}

fn latency(entries: &[&Entry]) -> Value {
    let sorted = sorted_latencies(entries);
    let total: i64 = sorted.iter().sum();
    json!({
        "avg": if sorted.is_empty() { 0 } else { total / sorted.len() as i64 },
        "p50": percentile(&sorted, 50),
        "p95": percentile(&sorted, 95),
        "p99": percentile(&sorted, 99),
        "max": sorted.last().copied().unwrap_or(0),
    })
}

fn sorted_latencies(entries: &[&Entry]) -> Vec<i64> {
    let mut latencies: Vec<i64> = entries.iter().map(|entry| entry.latency_ms).collect();
    sort(&mut latencies);
    latencies
}

/// Nearest-rank percentile of sorted values; 0 for none.
fn percentile(sorted: &[i64], rank: usize) -> i64 {
    if sorted.is_empty() {
        return 0;
    }
    let position = (rank * sorted.len()).div_ceil(100).max(1);
    sorted[position - 1]
}
