//! `chart-rich` data read into a chart: its kind, categories and series (values per category, or
//! x/y points for scatter and bubble charts), with lenient numbers (`"12.5"` is read, `null` leaves
//! a gap) and notes for anything left out.

use autoui_core::view::chart::GAUGE_RANGE;
use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::numeric::number_in;
use autoui_core::view::present::{display_value, safe_color, series_color};
use serde_json::Value;

use crate::widgets::common::parse;

/// The data as the recipe describes it; series stay raw JSON so each value is read leniently.
struct ChartRichData<'a> {
    title: Option<String>,
    kind: Option<String>,
    labels: &'a [Value],
    /// `data`, or `datasets` when there is no `data`.
    series: &'a [Value],
    legend: Option<bool>,
    unit: Option<String>,
    stacked: Option<bool>,
    horizontal: Option<bool>,
    x_title: Option<String>,
    y_title: Option<String>,
    min: Option<&'a Value>,
    max: Option<&'a Value>,
}

impl<'a> ChartRichData<'a> {
    fn read(fields: Fields<'a>) -> Read<Self> {
        Ok(ChartRichData {
            title: fields.text("title")?,
            kind: fields.text("type")?,
            labels: fields.list("labels")?,
            series: match fields.value("data") {
                Some(_) => fields.list("data")?,
                None => fields.list("datasets")?,
            },
            legend: fields.flag("legend")?,
            unit: fields.text("unit")?,
            stacked: fields.flag("stacked")?,
            horizontal: fields.flag("horizontal")?,
            x_title: fields.text("xTitle")?,
            y_title: fields.text("yTitle")?,
            min: fields.value("min"),
            max: fields.value("max"),
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    Bar,
    Line,
    Area,
    Pie,
    Donut,
    Scatter,
    Bubble,
    Gauge,
}

impl ChartKind {
    fn from_name(name: &str) -> Option<ChartKind> {
        match name.trim().to_ascii_lowercase().as_str() {
            "bar" | "bars" | "column" => Some(ChartKind::Bar),
            "line" => Some(ChartKind::Line),
            "area" => Some(ChartKind::Area),
            "pie" => Some(ChartKind::Pie),
            "donut" | "doughnut" => Some(ChartKind::Donut),
            "scatter" | "point" | "points" => Some(ChartKind::Scatter),
            "bubble" => Some(ChartKind::Bubble),
            "gauge" => Some(ChartKind::Gauge),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ChartKind::Bar => "bar",
            ChartKind::Line => "line",
            ChartKind::Area => "area",
            ChartKind::Pie => "pie",
            ChartKind::Donut => "donut",
            ChartKind::Scatter => "scatter",
            ChartKind::Bubble => "bubble",
            ChartKind::Gauge => "gauge",
        }
    }

    pub fn is_radial(self) -> bool {
        matches!(self, ChartKind::Pie | ChartKind::Donut)
    }

    /// Scatter and bubble charts plot x/y points instead of values per category.
    pub fn plots_points(self) -> bool {
        matches!(self, ChartKind::Scatter | ChartKind::Bubble)
    }
}

/// One point of a scatter or bubble series.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    /// A bubble's size (its area shows it).
    pub size: Option<f64>,
    pub label: Option<String>,
}

/// One series: a value (or a gap) per category.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: String,
    pub values: Vec<Option<f64>>,
    /// A CSS colour: the data's when it is safe, otherwise a theme palette token.
    pub color: String,
    /// Scatter and bubble charts: the series' points.
    pub points: Vec<Point>,
    /// Drawn as a line in a bar chart (or as bars in a line chart): the series' own `type`.
    pub line: Option<bool>,
    /// Measured on the second axis, at the right.
    pub right: bool,
    /// The series' own unit, formatted as `Chart::unit` is; the chart's when it has none.
    pub unit: Option<String>,
}

impl Series {
    /// The unit its values are shown with.
    pub fn unit<'a>(&'a self, chart: &'a Chart) -> &'a str {
        self.unit.as_deref().unwrap_or(&chart.unit)
    }
}

/// A chart ready to draw: every series has exactly one entry per category.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    pub title: Option<String>,
    pub kind: ChartKind,
    pub categories: Vec<String>,
    pub series: Vec<Series>,
    pub legend: bool,
    /// Appended to values, e.g. `" °C"`; empty when there is none.
    pub unit: String,
    /// Bars of a category stacked into one column instead of side by side (bar charts only).
    pub stacked: bool,
    /// Bars running left to right from labels on the left (bar charts only).
    pub horizontal: bool,
    /// Scatter and bubble charts: what each axis measures.
    pub x_title: Option<String>,
    pub y_title: Option<String>,
    /// A gauge's range.
    pub min: f64,
    pub max: f64,
    /// What was left out of the data and why, shown under the chart.
    pub notes: Vec<String>,
}

/// Why a chart cannot be drawn at all.
#[derive(Clone, Debug, PartialEq)]
pub enum ChartProblem {
    /// Nothing to draw: the message for the empty state.
    Empty(String),
    /// The data cannot be read: the message for the error state.
    Invalid(String),
}

impl Chart {
    pub fn from_value(value: &Value) -> Result<Chart, ChartProblem> {
        let data = parse(value, ChartRichData::read).map_err(ChartProblem::Invalid)?;
        let kind = match data.kind.as_deref() {
            None => ChartKind::Bar,
            Some(name) => ChartKind::from_name(name).ok_or_else(|| {
                ChartProblem::Invalid(format!(
                    "unknown chart type \"{name}\": use bar, line, area, pie, donut, scatter, bubble or gauge"
                ))
            })?,
        };
        let mut notes = Vec::new();
        let mut series = read_series(data.series, &mut notes);
        if kind.plots_points() {
            series.retain(|s| !s.points.is_empty());
            if series.is_empty() {
                return Err(ChartProblem::Empty(
                    "No points to plot yet: a scatter or bubble series needs points with x and y".to_owned(),
                ));
            }
        } else if series.iter().all(|s| s.values.iter().all(Option::is_none)) {
            return Err(ChartProblem::Empty("No values to chart yet".to_owned()));
        }

        let count = series
            .iter()
            .map(|s| s.values.len())
            .max()
            .unwrap_or(0)
            .max(data.labels.len());
        let mut categories: Vec<String> = data
            .labels
            .iter()
            .map(|label| match label {
                Value::Array(_) | Value::Object(_) => label.to_string(),
                scalar => display_value(scalar),
            })
            .collect();
        categories.extend((categories.len()..count).map(|index| (index + 1).to_string()));
        for s in &mut series {
            if s.values.len() < count && !data.labels.is_empty() {
                notes.push(format!(
                    "{} has {} values for {} labels; the rest are left blank",
                    s.label,
                    s.values.len(),
                    data.labels.len()
                ));
            }
            s.values.resize(count, None);
        }
        if (kind.is_radial() || kind == ChartKind::Gauge) && series.len() > 1 {
            notes.push(format!(
                "a {} chart shows one series: {}",
                kind.as_str(),
                series[0].label
            ));
            series.truncate(1);
        }
        if kind.is_radial() {
            let left_out = series[0]
                .values
                .iter()
                .flatten()
                .filter(|v| **v <= 0.0)
                .count();
            if left_out > 0 {
                notes.push(format!(
                    "{left_out} zero or negative {} cannot be a slice and {} left out",
                    if left_out == 1 { "value" } else { "values" },
                    if left_out == 1 { "is" } else { "are" }
                ));
            }
        }
        let min = data.min.and_then(number_in).unwrap_or(GAUGE_RANGE.0);
        let max = data.max.and_then(number_in).unwrap_or(GAUGE_RANGE.1);
        if kind == ChartKind::Gauge && max <= min {
            return Err(ChartProblem::Invalid(format!("a gauge needs max above min (min {min}, max {max})")));
        }
        let is_bar = kind == ChartKind::Bar;
        if !matches!(kind, ChartKind::Bar | ChartKind::Line | ChartKind::Area) {
            for s in &mut series {
                (s.line, s.right) = (None, false);
            }
        }
        Ok(Chart {
            title: data.title,
            kind,
            categories,
            series,
            legend: data.legend.unwrap_or(true),
            stacked: is_bar && data.stacked.unwrap_or(false),
            horizontal: is_bar && data.horizontal.unwrap_or(false),
            x_title: data.x_title.filter(|t| !t.trim().is_empty()),
            y_title: data.y_title.filter(|t| !t.trim().is_empty()),
            min,
            max,
            unit: unit_suffix(data.unit.as_deref()).unwrap_or_default(),
            notes,
        })
    }
}

/// A unit as values carry it: `%` right after the number, anything else after a space.
fn unit_suffix(unit: Option<&str>) -> Option<String> {
    let unit = unit?.trim();
    match unit {
        "" => None,
        "%" => Some(unit.to_owned()),
        _ => Some(format!(" {unit}")),
    }
}

/// Reads series objects; a plain list of numbers (a common mistake) becomes one series.
fn read_series(raw: &[Value], notes: &mut Vec<String>) -> Vec<Series> {
    if !raw.is_empty()
        && raw
            .iter()
            .all(|item| number_in(item).is_some() || item.is_null())
    {
        return vec![Series {
            label: "Values".to_owned(),
            values: raw.iter().map(number_in).collect(),
            color: series_color(0),
            points: Vec::new(),
            line: None,
            right: false,
            unit: None,
        }];
    }
    let mut series = Vec::with_capacity(raw.len());
    for (index, item) in raw.iter().enumerate() {
        let points = item.get("points").and_then(Value::as_array);
        let Some(raw_values) = item.get("values").and_then(Value::as_array).or(points.map(|_| &NO_VALUES)) else {
            notes.push(format!(
                "series {} has no list of values and is left out",
                index + 1
            ));
            continue;
        };
        let label = item
            .get("label")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .unwrap_or_else(|| format!("Series {}", index + 1));
        let values: Vec<Option<f64>> = raw_values.iter().map(number_in).collect();
        let unreadable = raw_values
            .iter()
            .zip(&values)
            .filter(|(raw, value)| value.is_none() && !raw.is_null())
            .count();
        if unreadable > 0 {
            notes.push(format!(
                "{unreadable} {} in {label} {} not a number and {} left blank",
                if unreadable == 1 { "value" } else { "values" },
                if unreadable == 1 { "is" } else { "are" },
                if unreadable == 1 { "is" } else { "are" },
            ));
        }
        let color = item
            .get("color")
            .and_then(Value::as_str)
            .and_then(safe_color)
            .unwrap_or_else(|| series_color(series.len()));
        let points: Vec<Point> = points
            .into_iter()
            .flatten()
            .filter_map(|point| {
                Some(Point {
                    x: number_in(point.get("x")?)?,
                    y: number_in(point.get("y")?)?,
                    size: point.get("size").and_then(number_in),
                    label: point.get("label").map(display_value).filter(|l| !l.is_empty()),
                })
            })
            .collect();
        let dropped = item.get("points").and_then(Value::as_array).map_or(0, Vec::len) - points.len();
        if dropped > 0 {
            notes.push(format!(
                "{dropped} {} in {label} {} no numeric x and y and {} left out",
                if dropped == 1 { "point" } else { "points" },
                if dropped == 1 { "has" } else { "have" },
                if dropped == 1 { "is" } else { "are" },
            ));
        }
        let line = match item.get("type").and_then(Value::as_str) {
            Some("line") => Some(true),
            Some("bar") => Some(false),
            _ => None,
        };
        series.push(Series {
            label,
            values,
            color,
            points,
            line,
            right: item.get("axis").and_then(Value::as_str) == Some("right"),
            unit: unit_suffix(item.get("unit").and_then(Value::as_str)),
        });
    }
    series
}

static NO_VALUES: Vec<Value> = Vec::new();

