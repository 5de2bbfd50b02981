//! `grid-data` widget: a spreadsheet-like grid of cells (row-major lists of values) with column
//! headers, highlighted cells and keyboard cell navigation; a cell click reports `{row, col, value}`.

use std::collections::HashMap;
use std::fmt::Write;

use autoui_core::canvas::event::WidgetAction;
use autoui_core::view::contrast::{Ink, ink_on};
use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::markdown::escape_html;
use autoui_core::view::present::safe_color;
use autoui_core::view::table::{column_letter, table_number};
use leptos::html;
use leptos::prelude::*;
use serde_json::{Value, json};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent, MouseEvent};

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse};

/// Cell height bounds and default, in px (the recipe's `cellHeight`).
const CELL_HEIGHT: (u32, u32, u32) = (20, 80, 32);

struct GridData<'a> {
    title: Option<String>,
    columns: Vec<GridColumn>,
    rows: &'a [Value],
    highlights: Vec<Highlight>,
    cell_height: Option<u64>,
}

impl<'a> GridData<'a> {
    fn read(fields: Fields<'a>) -> Read<Self> {
        Ok(GridData {
            title: fields.text("title")?,
            columns: fields.items("columns", GridColumn::read)?,
            rows: fields.list("rows")?,
            highlights: fields.items("highlights", Highlight::read)?,
            cell_height: fields.count("cellHeight")?,
        })
    }
}

struct GridColumn {
    label: Option<String>,
    key: Option<String>,
    width: Option<String>,
}

impl GridColumn {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(GridColumn {
            label: fields.text("label")?,
            key: fields.text("key")?,
            width: fields.text("width")?,
        })
    }
}

struct Highlight {
    row: u64,
    col: u64,
    color: Option<String>,
}

impl Highlight {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(Highlight {
            row: fields.required_count("row")?,
            col: fields.required_count("col")?,
            color: fields.text("color")?,
        })
    }
}

/// How a highlighted cell is painted.
#[derive(Clone)]
enum Paint {
    /// The theme's accent tint.
    Accent,
    /// The data's colour, with the ink that reads on it (`None`: mixed with the surface instead).
    Color(String, Option<Ink>),
}

/// A cell value as shown, and whether it is a figure (right-aligned).
fn shown(value: &Value) -> (String, bool) {
    match value {
        Value::Null => (String::new(), false),
        Value::String(text) => (text.clone(), false),
        Value::Number(number) => (
            number
                .as_f64()
                .map_or_else(|| number.to_string(), table_number),
            true,
        ),
        Value::Bool(flag) => (if *flag { "✓" } else { "✗" }.to_owned(), false),
        nested => (nested.to_string(), false),
    }
}

/// A width like `120px` within the recipe's bounds.
fn pixel_width(width: &str) -> Option<u32> {
    let digits = width.trim().strip_suffix("px")?;
    let pixels: u32 = digits.parse().ok()?;
    (10..=999).contains(&pixels).then_some(pixels)
}

#[component]
pub fn GridData(props: WidgetProps) -> impl IntoView {
    let WidgetProps { data, emit, .. } = props;
    view! {
        <div class="au-grid-data">
            {move || {
                data.with(|data| match parse(data, GridData::read) {
                    Err(error) => view! { <WidgetError message=format!("the grid data is not valid: {error}") /> }
                        .into_any(),
                    Ok(grid) => render(grid, emit),
                })
            }}
        </div>
    }
}

fn render(grid: GridData<'_>, emit: Callback<(WidgetAction, Value)>) -> AnyView {
    let mut rows: Vec<Vec<Value>> = Vec::with_capacity(grid.rows.len());
    for (index, row) in grid.rows.iter().enumerate() {
        match row {
            Value::Array(cells) => rows.push(cells.clone()),
            other => {
                let kind = if other.is_object() {
                    "an object"
                } else {
                    "a single value"
                };
                let message = format!(
                    "row {} is {kind}: each row is a list of cell values in column order (records with named fields belong in data-table)",
                    index + 1
                );
                return view! { <WidgetError message /> }.into_any();
            }
        }
    }
    let width = rows
        .iter()
        .map(|row| row.len())
        .max()
        .unwrap_or(0)
        .max(grid.columns.len());
    if rows.is_empty() || width == 0 {
        return view! { <WidgetTitle title=grid.title /> <EmptyState message="No cells to show" /> }.into_any();
    }

    let paints: HashMap<(usize, usize), Paint> = grid
        .highlights
        .iter()
        .map(|highlight| {
            let paint = match highlight.color.as_deref().and_then(safe_color) {
                Some(color) => {
                    let ink = ink_on(&color);
                    Paint::Color(color, ink)
                }
                None => Paint::Accent,
            };
            let place = |at: u64| usize::try_from(at).unwrap_or(usize::MAX);
            ((place(highlight.row), place(highlight.col)), paint)
        })
        .collect();
    let (low, high, default) = CELL_HEIGHT;
    let cell_height = grid.cell_height.map_or(default, |height| height.min(u64::from(high)) as u32).clamp(low, high);
    let labelled = grid.columns.iter().any(|column| {
        column
            .label
            .as_deref()
            .is_some_and(|l| !l.trim().is_empty())
    });
    let labels: Vec<String> = (0..width)
        .map(|col| {
            grid.columns
                .get(col)
                .and_then(|column| column.label.clone().or_else(|| column.key.clone()))
                .filter(|label| !label.trim().is_empty())
                .unwrap_or_else(|| column_letter(col))
        })
        .collect();
    let headers = labels
        .iter()
        .enumerate()
        .map(|(col, label)| {
            let style = grid
                .columns
                .get(col)
                .and_then(|column| column.width.as_deref())
                .and_then(pixel_width)
                .map(|px| format!("width: {px}px; min-width: {px}px"));
            view! { <th scope="col" class="au-grid-data__head" style=style>{label.clone()}</th> }
        })
        .collect_view();

    let active = RwSignal::new((0_usize, 0_usize));
    let chosen = RwSignal::new(None::<(usize, usize)>);
    let height = rows.len();
    let grid_ref = NodeRef::<html::Table>::new();
    let values: Vec<Vec<Value>> = rows
        .into_iter()
        .map(|mut row| {
            row.resize(width, Value::Null);
            row
        })
        .collect();
    // One string for every cell (a grid can hold thousands); one effect moves the tab stop and the
    // chosen mark between cells, and the body's handler reads which cell was clicked.
    let body = body_markup(&values, &paints);
    let report = {
        let labels = labels.clone();
        move |row: usize, col: usize, value: Value| {
            chosen.set(Some((row, col)));
            let mut payload = json!({"row": row, "col": col, "value": value});
            if labelled {
                payload["column"] = json!(labels[col]);
            }
            emit.run((WidgetAction::CellClick, payload));
        }
    };
    let cell = move |row: usize, col: usize| {
        grid_ref
            .get_untracked()
            .and_then(|grid| grid.query_selector(&format!("td[data-cell='{row}-{col}']")).ok().flatten())
    };
    // The tab stop and the chosen cell, as the last run left them.
    type Marks = ((usize, usize), Option<(usize, usize)>);
    Effect::new(move |before: Option<Marks>| {
        let now = (active.get(), chosen.get());
        if grid_ref.get().is_some() {
            if let Some((row, col)) = before.map(|(active, _)| active).filter(|was| *was != now.0) {
                cell(row, col).map(|cell| cell.set_attribute("tabindex", "-1"));
            }
            cell(now.0.0, now.0.1).map(|cell| cell.set_attribute("tabindex", "0"));
            if let Some((row, col)) = before.and_then(|(_, chosen)| chosen).filter(|was| Some(*was) != now.1) {
                cell(row, col).map(|cell| cell.set_attribute("aria-selected", "false"));
            }
            if let Some((row, col)) = now.1 {
                cell(row, col).map(|cell| cell.set_attribute("aria-selected", "true"));
            }
        }
        now
    });
    let focus = move |row: usize, col: usize| {
        active.set((row, col));
        if let Some(found) = cell(row, col).and_then(|cell| cell.dyn_into::<HtmlElement>().ok()) {
            drop(found.focus());
        }
    };
    let on_click = {
        let values = values.clone();
        let report = report.clone();
        move |event: MouseEvent| {
            let place = event
                .target()
                .and_then(|target| target.dyn_into::<Element>().ok())
                .and_then(|target| target.closest("td[data-cell]").ok().flatten())
                .and_then(|cell| cell.get_attribute("data-cell"))
                .and_then(|place| {
                    let (row, col) = place.split_once('-')?;
                    Some((row.parse::<usize>().ok()?, col.parse::<usize>().ok()?))
                });
            if let Some((row, col)) = place.filter(|(row, col)| *row < height && *col < width) {
                active.set((row, col));
                report(row, col, values[row][col].clone());
            }
        }
    };
    let on_key = move |event: KeyboardEvent| {
        let (row, col) = active.get_untracked();
        let target = match event.key().as_str() {
            "ArrowDown" => (row + 1).min(height - 1),
            "ArrowUp" => row.saturating_sub(1),
            "ArrowRight" => return move_to(&event, &focus, row, (col + 1).min(width - 1)),
            "ArrowLeft" => return move_to(&event, &focus, row, col.saturating_sub(1)),
            "Home" => return move_to(&event, &focus, row, 0),
            "End" => return move_to(&event, &focus, row, width - 1),
            "Enter" | " " => {
                event.prevent_default();
                report(row, col, values[row][col].clone());
                return;
            }
            _ => return,
        };
        move_to(&event, &focus, target, col);
    };
    let label = grid.title.clone().unwrap_or_else(|| "Data grid".to_owned());

    view! {
        <WidgetTitle title=grid.title />
        <div class="au-grid-data__scroll" style=format!("--au-grid-data-cell: {cell_height}px")>
            <table class="au-grid-data__table" node_ref=grid_ref role="grid" aria-label=label aria-rowcount=height + 1
                aria-colcount=width on:keydown=on_key>
                <thead>
                    <tr>{headers}</tr>
                </thead>
                <tbody inner_html=body on:click=on_click></tbody>
            </table>
        </div>
    }
    .into_any()
}

/// The grid's body as markup: every text and attribute value through `escape_html`; the first cell
/// holds the tab stop.
fn body_markup(values: &[Vec<Value>], paints: &HashMap<(usize, usize), Paint>) -> String {
    let mut out = String::new();
    for (row, cells) in values.iter().enumerate() {
        out.push_str("<tr>");
        for (col, value) in cells.iter().enumerate() {
            let (text, numeric) = shown(value);
            let paint = paints.get(&(row, col));
            let ink = match paint {
                Some(Paint::Color(_, ink)) => *ink,
                _ => None,
            };
            let tab = if (row, col) == (0, 0) { "0" } else { "-1" };
            let _ = write!(
                out,
                "<td data-cell=\"{row}-{col}\" class=\"{}\" tabindex=\"{tab}\" aria-selected=\"false\"",
                cell_class(numeric, paint, ink)
            );
            if let Some(Paint::Color(color, _)) = paint {
                let _ = write!(out, " style=\"--au-grid-data-fill: {}\"", escape_html(color));
            }
            if text.chars().count() > 24 {
                let _ = write!(out, " title=\"{}\"", escape_html(&text));
            }
            let _ = write!(out, ">{}</td>", escape_html(&text));
        }
        out.push_str("</tr>");
    }
    out
}

fn move_to(event: &KeyboardEvent, focus: &impl Fn(usize, usize), row: usize, col: usize) {
    event.prevent_default();
    focus(row, col);
}

fn cell_class(numeric: bool, paint: Option<&Paint>, ink: Option<Ink>) -> String {
    let mut class = String::from("au-grid-data__cell");
    if numeric {
        class.push_str(" au-grid-data__cell--number");
    }
    match (paint, ink) {
        (None, _) => {}
        (Some(Paint::Accent), _) => class.push_str(" au-grid-data__cell--accent"),
        (Some(Paint::Color(..)), Some(ink)) => {
            class.push_str(" au-grid-data__cell--fill au-grid-data__cell--ink-");
            class.push_str(ink.as_str());
        }
        (Some(Paint::Color(..)), None) => class.push_str(" au-grid-data__cell--tint"),
    }
    class
}
