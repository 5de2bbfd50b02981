//! `monthly_sales`: Arvena's sales over 24 months (2023-01 to 2024-12) by region and product line,
//! with revenue, units and margin in EUR; totals, breakdowns and chart-ready series all computed
//! from the same rows, so every total adds up.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::samples::SamplesError;
use crate::samples::seed::{between, div_round, percent};

pub const TOOL: &str = "monthly_sales";
pub const DESCRIPTION: &str = "Arvena's monthly sales 2023-01..2024-12 (EUR): revenue, units, margin; totals, by \
                               month/region/product line/year, and per-region series for charts.";

pub const REGIONS: [&str; 4] = ["North", "South", "East", "West"];
pub const PRODUCT_LINES: [&str; 3] = ["Hardware", "Software", "Services"];
const FIRST_YEAR: i64 = 2023;
const MONTHS: usize = 24;

/// List price, unit cost (EUR) and base monthly units per region (in `REGIONS` order), per product line.
const LINES: [(i64, i64, [i64; 4]); 3] =
    [(480, 365, [310, 240, 180, 275]), (120, 23, [1_250, 980, 760, 1_120]), (950, 589, [64, 52, 41, 58])];
/// Per region: monthly growth and average discount, both per mille.
const REGION_TERMS: [(i64, i64); 4] = [(6, 40), (11, 60), (16, 90), (8, 50)];
/// Demand by calendar month, per mille: a summer dip and a year-end peak.
const SEASON: [i64; 12] = [900, 920, 1_010, 990, 1_000, 1_030, 940, 840, 1_040, 1_070, 1_120, 1_140];

#[derive(Debug, Deserialize)]
pub struct Query {
    region: Option<String>,
    product_line: Option<String>,
    from: Option<String>,
    to: Option<String>,
    #[serde(default)]
    metric: Metric,
}

#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Metric {
    #[default]
    Revenue,
    Units,
    Margin,
}

pub fn properties() -> Value {
    json!({
        "region": { "type": "string", "enum": REGIONS },
        "product_line": { "type": "string", "enum": PRODUCT_LINES },
        "from": { "type": "string", "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])$", "description": "first month, YYYY-MM" },
        "to": { "type": "string", "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])$", "description": "last month, YYYY-MM" },
        "metric": { "type": "string", "enum": ["revenue", "units", "margin"], "description": "for the series; default revenue" },
    })
}

/// One month of one product line in one region.
#[derive(Clone, Copy, Debug)]
struct Row {
    month: usize,
    region: usize,
    line: usize,
    figures: Figures,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Figures {
    revenue: i64,
    units: i64,
    margin: i64,
}

impl Figures {
    fn add(&mut self, other: Figures) {
        self.revenue += other.revenue;
        self.units += other.units;
        self.margin += other.margin;
    }

    fn get(self, metric: Metric) -> i64 {
        match metric {
            Metric::Revenue => self.revenue,
            Metric::Units => self.units,
            Metric::Margin => self.margin,
        }
    }

    fn json(self) -> Value {
        json!({
            "revenue": self.revenue,
            "units": self.units,
            "margin": self.margin,
            "margin_pct": percent(self.margin, self.revenue),
        })
    }
}

/// `2024-03` for month index 14.
fn month_name(month: usize) -> String {
    format!("{}-{:02}", FIRST_YEAR + (month / 12) as i64, month % 12 + 1)
}

fn year_of(month: usize) -> i64 {
    FIRST_YEAR + (month / 12) as i64
}

/// Every row of the dataset, generated from the tables above and a fixed seed per cell.
fn rows() -> Vec<Row> {
    let mut rows = Vec::with_capacity(MONTHS * REGIONS.len() * PRODUCT_LINES.len());
    for month in 0..MONTHS {
        for (region, (growth, discount)) in REGION_TERMS.iter().enumerate() {
            for (line, (price, cost, base)) in LINES.iter().enumerate() {
                let seed = (month * 100 + region * 10 + line) as u64;
                let trend = 1_000 + growth * month as i64;
                let jitter = between(seed, 940, 1_060);
                let units = div_round(base[region] * SEASON[month % 12] * trend * jitter, 1_000_000_000);
                let revenue = div_round(units * price * (1_000 - discount), 1_000);
                let figures = Figures { revenue, units, margin: revenue - units * cost };
                rows.push(Row { month, region, line, figures });
            }
        }
    }
    rows
}

/// The month index of `YYYY-MM`, or a clear error when it is outside the data.
fn month_index(text: &str, field: &str) -> Result<usize, SamplesError> {
    let outside = || {
        SamplesError::OutOfRange(format!(
            "{field} \"{text}\" is outside the data: months run from {} to {}",
            month_name(0),
            month_name(MONTHS - 1)
        ))
    };
    let (year, month) = text.split_once('-').ok_or_else(outside)?;
    let year: i64 = year.parse().map_err(|_| outside())?;
    let month: i64 = month.parse().map_err(|_| outside())?;
    let index = (year - FIRST_YEAR) * 12 + month - 1;
    usize::try_from(index).ok().filter(|index| *index < MONTHS).ok_or_else(outside)
}

pub fn answer(query: &Query) -> Result<Value, SamplesError> {
    let first = query.from.as_deref().map(|from| month_index(from, "from")).transpose()?.unwrap_or(0);
    let last = query.to.as_deref().map(|to| month_index(to, "to")).transpose()?.unwrap_or(MONTHS - 1);
    if first > last {
        return Err(SamplesError::OutOfRange(format!(
            "from ({}) is after to ({}); give from <= to",
            month_name(first),
            month_name(last)
        )));
    }
    let region = query.region.as_deref().and_then(|name| REGIONS.iter().position(|known| *known == name));
    let line = query.product_line.as_deref().and_then(|name| PRODUCT_LINES.iter().position(|known| *known == name));
    let rows: Vec<Row> = rows()
        .into_iter()
        .filter(|row| (first..=last).contains(&row.month))
        .filter(|row| region.is_none_or(|region| row.region == region))
        .filter(|row| line.is_none_or(|line| row.line == line))
        .collect();

    let months: Vec<usize> = (first..=last).collect();
    let regions: Vec<usize> = (0..REGIONS.len()).filter(|index| region.is_none_or(|region| region == *index)).collect();
    let lines: Vec<usize> = (0..PRODUCT_LINES.len()).filter(|index| line.is_none_or(|line| line == *index)).collect();
    let sum = |keep: &dyn Fn(&Row) -> bool| {
        let mut total = Figures::default();
        rows.iter().filter(|row| keep(row)).for_each(|row| total.add(row.figures));
        total
    };

    let by_month: Vec<Value> =
        months.iter().map(|month| with_key("month", month_name(*month), sum(&|row| row.month == *month))).collect();
    let by_region: Vec<Value> =
        regions.iter().map(|index| with_key("region", REGIONS[*index], sum(&|row| row.region == *index))).collect();
    let by_product_line: Vec<Value> = lines
        .iter()
        .map(|index| with_key("product_line", PRODUCT_LINES[*index], sum(&|row| row.line == *index)))
        .collect();
    let series = |label: &str, keep: &dyn Fn(&Row) -> bool| {
        let values: Vec<i64> =
            months.iter().map(|month| sum(&|row| row.month == *month && keep(row)).get(query.metric)).collect();
        json!({ "label": label, "values": values })
    };
    let series_by_region: Vec<Value> =
        regions.iter().map(|index| series(REGIONS[*index], &|row| row.region == *index)).collect();
    let series_by_product_line: Vec<Value> =
        lines.iter().map(|index| series(PRODUCT_LINES[*index], &|row| row.line == *index)).collect();

    Ok(json!({
        "company": "Arvena",
        "currency": "EUR",
        "filters": {
            "region": query.region.as_deref().unwrap_or("all"),
            "product_line": query.product_line.as_deref().unwrap_or("all"),
            "from": month_name(first),
            "to": month_name(last),
        },
        "totals": sum(&|_| true).json(),
        "by_year": by_year(&rows, first, last),
        "by_region": by_region,
        "by_product_line": by_product_line,
        "months": months.iter().map(|month| month_name(*month)).collect::<Vec<_>>(),
        "by_month": by_month,
        "series_metric": match query.metric {
            Metric::Revenue => "revenue",
            Metric::Units => "units",
            Metric::Margin => "margin",
        },
        "series_by_region": series_by_region,
        "series_by_product_line": series_by_product_line,
    }))
}

/// `{key: name, revenue, units, margin, margin_pct}`.
fn with_key(key: &str, name: impl Into<String>, figures: Figures) -> Value {
    let mut value = figures.json();
    value[key] = Value::String(name.into());
    value
}

/// One entry per year in the range; `revenue_change_pct` compares with the year before only when
/// both cover the same number of months (a partial year against a full one would mislead).
fn by_year(rows: &[Row], first: usize, last: usize) -> Vec<Value> {
    let mut years: Vec<(i64, usize, Figures)> = Vec::new();
    for month in first..=last {
        let year = year_of(month);
        match years.last_mut() {
            Some((current, count, _)) if *current == year => *count += 1,
            _ => years.push((year, 1, Figures::default())),
        }
    }
    for row in rows {
        if let Some((_, _, figures)) = years.iter_mut().find(|(year, _, _)| *year == year_of(row.month)) {
            figures.add(row.figures);
        }
    }
    let mut previous: Option<(usize, Figures)> = None;
    years
        .into_iter()
        .map(|(year, months, figures)| {
            let mut value = figures.json();
            value["year"] = json!(year);
            value["months"] = json!(months);
            if let Some((_, earlier)) = previous.filter(|(count, _)| *count == months) {
                value["revenue_change_pct"] = json!(percent(figures.revenue - earlier.revenue, earlier.revenue));
            }
            previous = Some((months, figures));
            value
        })
        .collect()
}
