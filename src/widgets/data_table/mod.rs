//! `data-table` widget: a sortable, filterable table over shared rows that renders only the rows in
//! view (fixed row height, spacers above and below, sticky header), with keyboard row selection and
//! CSV export. The rules (columns, cells, order, filter, CSV, window) live in `autoui_core::view::table`;
//! this module maps them to the DOM.

mod cells;
mod export;

use std::sync::{Arc, OnceLock};

use autoui_core::canvas::event::WidgetAction;
use autoui_core::view::fields::{Fields, Read};
use autoui_core::view::table::{self, Column, ColumnSpec, Direction, Movement, SearchIndex};
use leptos::html;
use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{KeyboardEvent, ResizeObserver};

use crate::widgets::WidgetProps;
use crate::widgets::common::{EmptyState, WidgetError, WidgetTitle, parse};

/// Height of one body row in px; the CSS reads it from `--au-data-table-row`, so both agree exactly.
const ROW_HEIGHT: f64 = 36.0;
const COMPACT_ROW_HEIGHT: f64 = 28.0;
/// Rows rendered beyond each edge of the viewport, so fast scrolling shows no gap.
const OVERSCAN: usize = 8;
/// Viewport height assumed until the scroller has been measured.
const DEFAULT_VIEWPORT: f64 = 400.0;
/// Rows read to size the columns.
const WIDTH_SAMPLE: usize = 300;

/// The table's settings; `rows` stays in the shared JSON and is read in place.
struct Options {
    title: Option<String>,
    columns: Vec<ColumnSpec>,
    compact: Option<bool>,
    striped: Option<bool>,
    empty_message: Option<String>,
}

impl Options {
    fn read(fields: Fields<'_>) -> Read<Self> {
        Ok(Options {
            title: fields.text("title")?,
            columns: fields.items("columns", ColumnSpec::read)?,
            compact: fields.flag("compact")?,
            striped: fields.flag("striped")?,
            empty_message: fields.text("emptyMessage")?,
        })
    }
}

/// Everything decided once per data: columns, widths, display settings, and the search index
/// (built on the first filter keystroke).
struct Model {
    data: Arc<Value>,
    title: Option<String>,
    columns: Vec<Column>,
    widths: Vec<u16>,
    row_height: f64,
    compact: bool,
    striped: bool,
    index: OnceLock<SearchIndex>,
}

/// A model is only ever equal to itself: new data is a new model, and a memo of it always tells
/// its readers (comparing the rows would cost as much as reading them).
impl PartialEq for Model {
    fn eq(&self, other: &Model) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Model {
    /// What the table's elements are built from; data with the same shape only changes cells.
    fn shape(&self) -> Shape {
        Shape {
            title: self.title.clone(),
            columns: self.columns.clone(),
            row_height: self.row_height,
            compact: self.compact,
            striped: self.striped,
        }
    }

    fn rows(&self) -> &[Value] {
        self.data
            .get("rows")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    fn index(&self) -> &SearchIndex {
        self.index
            .get_or_init(|| SearchIndex::new(self.rows(), &self.columns))
    }

    fn order(&self, sort: Option<&(String, Direction)>) -> Vec<u32> {
        sort.and_then(|(key, direction)| {
            let column = self.columns.iter().find(|column| &column.key == key)?;
            Some(table::sort_order(self.rows(), column, *direction))
        })
        .unwrap_or_else(|| table::original_order(self.rows()))
    }
}

/// What the scroller shows: its offset and height (for the row window) and whether columns are
/// hidden on either side (for the edge shadows).
#[derive(Clone, Copy)]
struct Viewport {
    scroll_top: RwSignal<f64>,
    height: RwSignal<f64>,
    more_left: RwSignal<bool>,
    more_right: RwSignal<bool>,
}

impl Viewport {
    fn new() -> Viewport {
        Viewport {
            scroll_top: RwSignal::new(0.0),
            height: RwSignal::new(DEFAULT_VIEWPORT),
            more_left: RwSignal::new(false),
            more_right: RwSignal::new(false),
        }
    }

    /// Reads the scroller after a scroll or a resize; signals only fire when a value changed.
    fn measure(self, element: &web_sys::Element) {
        let set = |signal: RwSignal<f64>, value: f64| {
            if signal.get_untracked() != value {
                signal.set(value);
            }
        };
        set(self.scroll_top, f64::from(element.scroll_top()));
        let height = f64::from(element.client_height());
        if height > 0.0 {
            set(self.height, height);
        }
        let (left, width, full) = (
            element.scroll_left(),
            element.client_width(),
            element.scroll_width(),
        );
        let flag = |signal: RwSignal<bool>, value: bool| {
            if signal.get_untracked() != value {
                signal.set(value);
            }
        };
        flag(self.more_left, left > 0);
        flag(self.more_right, left + width < full - 1);
    }
}

#[derive(PartialEq)]
enum Parsed {
    Table(Arc<Model>),
    Empty {
        title: Option<String>,
        message: String,
    },
    Failed(String),
}

impl Parsed {
    fn model(&self) -> Option<Arc<Model>> {
        match self {
            Parsed::Table(model) => Some(model.clone()),
            _ => None,
        }
    }
}

/// The parts of a table that only change with its columns and settings.
#[derive(Clone, Debug, PartialEq)]
struct Shape {
    title: Option<String>,
    columns: Vec<Column>,
    row_height: f64,
    compact: bool,
    striped: bool,
}

/// What the widget shows, by what its elements are built from.
#[derive(Clone, Debug, PartialEq)]
enum Showing {
    Table(Shape),
    Empty { title: Option<String>, message: String },
    Failed(String),
}

fn read(data: &Arc<Value>) -> Parsed {
    let options = match parse(data.as_ref(), Options::read) {
        Ok(options) => options,
        Err(error) => return Parsed::Failed(format!("the table settings are not valid: {error}")),
    };
    let empty = |message: &str| Parsed::Empty {
        title: options.title.clone(),
        message: options
            .empty_message
            .clone()
            .filter(|m| !m.trim().is_empty())
            .unwrap_or_else(|| message.to_owned()),
    };
    let rows = match data.get("rows") {
        None | Some(Value::Null) => return empty("No rows to show"),
        Some(Value::Array(rows)) => rows,
        Some(other) => {
            return Parsed::Failed(format!(
                "`rows` must be a list of objects, not {}",
                kind_of(other)
            ));
        }
    };
    if let Some((position, row)) = rows.iter().enumerate().find(|(_, row)| !row.is_object()) {
        return Parsed::Failed(format!(
            "row {} is {}, not an object: each row is an object keyed by column (lists of values belong in grid-data)",
            position + 1,
            kind_of(row)
        ));
    }
    if rows.is_empty() {
        return empty("No rows to show");
    }
    let columns = table::columns(Some(&options.columns), rows);
    if columns.is_empty() {
        return empty("The rows have no fields to show");
    }
    let widths = columns
        .iter()
        .map(|column| table::column_width(rows, column, WIDTH_SAMPLE))
        .collect();
    let compact = options.compact.unwrap_or(false);
    Parsed::Table(Arc::new(Model {
        data: data.clone(),
        title: options.title,
        columns,
        widths,
        row_height: if compact {
            COMPACT_ROW_HEIGHT
        } else {
            ROW_HEIGHT
        },
        compact,
        striped: options.striped.unwrap_or(true),
        index: OnceLock::new(),
    }))
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[component]
pub fn DataTable(props: WidgetProps) -> impl IntoView {
    let WidgetProps { id, data, emit } = props;
    // Sort and filter outlive data updates: the agent refreshing rows keeps the user's view.
    let sort = RwSignal::new(None::<(String, Direction)>);
    let query = RwSignal::new(String::new());
    let row_prefix = format!("{id}-row");
    let parsed = Memo::new(move |_| data.with(read));
    // A refresh with new rows of the same shape keeps the table (its scroll, selection and the rows'
    // elements) and changes only the cells; other changes build it again.
    let showing = Memo::new(move |_| {
        parsed.with(|parsed| match parsed {
            Parsed::Table(model) => Showing::Table(model.shape()),
            Parsed::Empty { title, message } => Showing::Empty { title: title.clone(), message: message.clone() },
            Parsed::Failed(message) => Showing::Failed(message.clone()),
        })
    });
    // The last table model, kept while the widget turns into something else.
    let model = Memo::new(move |last: Option<&Option<Arc<Model>>>| parsed.with(Parsed::model).or_else(|| last.cloned().flatten()));
    view! {
        <div class="au-data-table">
            {move || match showing.get() {
                Showing::Table(_) => {
                    let model = Signal::derive(move || model.get().expect("a table is shown with its model"));
                    view! { <Table model sort query emit row_prefix=row_prefix.clone() /> }.into_any()
                }
                Showing::Empty { title, message } => {
                    view! { <WidgetTitle title /> <EmptyState message /> }.into_any()
                }
                Showing::Failed(message) => view! { <WidgetError message /> }.into_any(),
            }}
        </div>
    }
}

#[component]
fn Table(
    model: Signal<Arc<Model>>,
    sort: RwSignal<Option<(String, Direction)>>,
    query: RwSignal<String>,
    emit: Callback<(WidgetAction, Value)>,
    row_prefix: String,
) -> impl IntoView {
    // The shape is fixed for this table's life (`DataTable` builds another when it changes).
    let shape = model.with_untracked(|model| model.shape());
    let total = move || model.with(|model| model.rows().len());
    let row_height = shape.row_height;
    let order = Memo::new(move |_| model.with(|model| sort.with(|sort| model.order(sort.as_ref()))));
    let shown = Memo::new(move |_| {
        query.with(|query| {
            if query.trim().is_empty() {
                order.get()
            } else {
                model.with(|model| order.with(|order| model.index().filter(order, query)))
            }
        })
    });
    let selected = RwSignal::new(None::<u32>);
    let viewport = Viewport::new();
    let Viewport { scroll_top, .. } = viewport;
    let window = Memo::new(move |_| {
        table::visible_window(
            scroll_top.get(),
            viewport.height.get().max(row_height),
            row_height,
            shown.with(Vec::len),
            OVERSCAN,
        )
    });
    let export_error = RwSignal::new(None::<String>);
    let scroller = NodeRef::<html::Div>::new();
    let head = NodeRef::<html::Thead>::new();
    let grid = NodeRef::<html::Table>::new();
    observe(scroller, viewport);

    let to_top = move || {
        if let Some(element) = scroller.get_untracked() {
            element.set_scroll_top(0);
        }
        scroll_top.set(0.0);
    };
    let choose = move |row: u32| {
        selected.set(Some(row));
        if let Some(value) = model.with_untracked(|model| model.rows().get(row as usize).cloned()) {
            emit.run((WidgetAction::RowClick, value));
        }
    };
    // Keeps position `position` between the sticky header and the bottom edge.
    let reveal = move |position: usize| {
        let Some(element) = scroller.get_untracked() else {
            return;
        };
        let header = head
            .get_untracked()
            .map_or(row_height, |head| f64::from(head.offset_height()));
        let top = position as f64 * row_height;
        let view_top = f64::from(element.scroll_top());
        let view_height = f64::from(element.client_height()) - header;
        let target = if top < view_top {
            top
        } else if top + row_height > view_top + view_height {
            top + row_height - view_height
        } else {
            return;
        };
        element.set_scroll_top(target.ceil() as i32);
        scroll_top.set(f64::from(element.scroll_top()));
    };
    let on_key = {
        move |event: KeyboardEvent| {
            // Keys pressed on a header's sort button are that button's.
            let on_table =
                event.target().map(JsValue::from) == grid.get_untracked().map(JsValue::from);
            if !on_table {
                return;
            }
            let page =
                ((viewport.height.get_untracked() / row_height).floor() as usize).saturating_sub(2);
            let movement = match event.key().as_str() {
                "ArrowDown" => Movement::Next,
                "ArrowUp" => Movement::Previous,
                "Home" => Movement::First,
                "End" => Movement::Last,
                "PageDown" => Movement::PageDown(page),
                "PageUp" => Movement::PageUp(page),
                "Enter" | " " => {
                    event.prevent_default();
                    if let Some(row) = selected.get_untracked() {
                        choose(row);
                    }
                    return;
                }
                _ => return,
            };
            event.prevent_default();
            let (len, current) = shown.with_untracked(|shown| {
                let current = selected
                    .get_untracked()
                    .and_then(|row| shown.iter().position(|&r| r == row));
                (shown.len(), current)
            });
            if let Some(position) = table::moved(len, current, movement)
                && let Some(row) = shown.with_untracked(|shown| shown.get(position).copied())
            {
                reveal(position);
                choose(row);
            }
        }
    };
    let export = {
        let title = shape.title.clone();
        move |_| {
            let csv = model.with_untracked(|model| {
                shown.with_untracked(|shown| table::to_csv(model.rows(), &model.columns, shown))
            });
            // The byte-order mark makes spreadsheet apps read the file as UTF-8.
            let result = export::download(
                &table::csv_file_name(title.as_deref()),
                "text/csv;charset=utf-8",
                &format!("\u{feff}{csv}"),
            );
            export_error.set(result.err().map(|error| format!("Export failed: {error}")));
        }
    };

    let headers = shape
        .columns
        .iter()
        .map(|column| {
            let key = column.key.clone();
            let state = {
                let key = key.clone();
                move || {
                    sort.with(|sort| {
                        sort.as_ref()
                            .filter(|(active, _)| *active == key)
                            .map(|(_, direction)| *direction)
                    })
                }
            };
            let aria_sort = {
                let state = state.clone();
                move || state().map_or("none", Direction::aria)
            };
            let icon = {
                let state = state.clone();
                move || match state() {
                    Some(Direction::Ascending) => "↑",
                    Some(Direction::Descending) => "↓",
                    None => "↕",
                }
            };
            let toggle = move |_| {
                sort.update(|sort| {
                    *sort = Some(match sort.take() {
                        Some((active, direction)) if active == key => (active, direction.toggled()),
                        _ => (key.clone(), Direction::Ascending),
                    });
                });
                to_top();
            };
            let class = format!(
                "au-data-table__th au-data-table__th--{}",
                column.align.as_str()
            );
            view! {
                <th scope="col" class=class aria-sort=aria_sort>
                    <button type="button" class="au-data-table__sort" on:click=toggle
                        class:au-data-table__sort--active=move || state().is_some()>
                        <span class="au-data-table__label">{column.label.clone()}</span>
                        <span class="au-data-table__sort-icon" aria-hidden="true">{icon}</span>
                    </button>
                </th>
            }
        })
        .collect_view();
    // Widths follow the data (sampled from its rows).
    let cols = (0..shape.columns.len())
        .map(|column| {
            let width = move || model.with(|model| model.widths.get(column).copied().unwrap_or(1));
            view! { <col style=move || format!("width: {}ch", width()) /> }
        })
        .collect_view();
    let min_width = move || {
        format!("{}ch", model.with(|model| model.widths.iter().map(|&w| u32::from(w)).sum::<u32>()))
    };
    let column_count = shape.columns.len();

    // The body is markup (`cells.rs`), written again when the window, the order, the selection or the
    // data change; one click handler serves every row and the "Clear filter" button.
    let body = {
        let row_prefix = row_prefix.clone();
        let striped = shape.striped;
        move || {
            let range = window.get();
            let selected = selected.get();
            model.with(|model| {
                shown.with(|shown| {
                    let range = range.start.min(shown.len())..range.end.min(shown.len());
                    let mut out = String::with_capacity(range.len() * 64 * (column_count + 1));
                    cells::write_spacer(&mut out, range.start as f64 * row_height, column_count);
                    for (position, &index) in range.clone().zip(&shown[range.clone()]) {
                        let Some(value) = model.rows().get(index as usize) else { continue };
                        let id = format!("{row_prefix}-{index}");
                        let row = cells::Row { id: &id, index, position, striped: striped && position % 2 == 1, selected: selected == Some(index) };
                        row.start(&mut out);
                        for column in &model.columns {
                            cells::write_cell(&mut out, &table::cell(value, column), column.align);
                        }
                        cells::end_row(&mut out);
                    }
                    cells::write_spacer(&mut out, (shown.len() - range.end) as f64 * row_height, column_count);
                    if shown.is_empty() {
                        query.with(|query| cells::write_no_match(&mut out, query, column_count));
                    }
                    out
                })
            })
        }
    };
    let on_body_click = move |event: web_sys::MouseEvent| {
        let Some(target) = event.target().and_then(|target| target.dyn_into::<web_sys::Element>().ok()) else { return };
        if target.closest(&format!("[{}]", cells::CLEAR_FILTER_ATTRIBUTE)).ok().flatten().is_some() {
            query.set(String::new());
            return;
        }
        let row = target.closest(&format!("[{}]", cells::ROW_ATTRIBUTE)).ok().flatten();
        if let Some(row) = row.and_then(|row| row.get_attribute(cells::ROW_ATTRIBUTE)?.parse().ok()) {
            choose(row);
        }
    };
    let active_row = {
        let row_prefix = row_prefix.clone();
        move || selected.get().map(|row| format!("{row_prefix}-{row}"))
    };
    let label = shape
        .title
        .clone()
        .unwrap_or_else(|| "Data table".to_owned());

    view! {
        <div class="au-data-table__bar">
            <WidgetTitle title=shape.title.clone() />
            <label class="au-data-table__filter">
                <span class="au-visually-hidden">"Filter rows"</span>
                <svg class="au-data-table__filter-icon" viewBox="0 0 16 16" aria-hidden="true">
                    <circle cx="7" cy="7" r="4.5" />
                    <path d="M10.5 10.5 14 14" />
                </svg>
                <input type="search" class="au-data-table__filter-input" placeholder="Filter rows"
                    prop:value=move || query.get()
                    on:input=move |event| { query.set(event_target_value(&event)); to_top(); } />
            </label>
        </div>
        <div class="au-data-table__frame" class:au-data-table__frame--more-left=move || viewport.more_left.get()
            class:au-data-table__frame--more-right=move || viewport.more_right.get()>
        <div class="au-data-table__scroll" class:au-data-table__scroll--compact=shape.compact node_ref=scroller
            style=format!("--au-data-table-row: {row_height}px")
            on:scroll=move |event| viewport.measure(&event_target::<web_sys::Element>(&event))>
            <table class="au-data-table__table" node_ref=grid role="grid" tabindex="0" aria-label=label
                aria-rowcount=move || shown.with(Vec::len) + 1 aria-activedescendant=active_row
                style:min-width=min_width on:keydown=on_key>
                <colgroup>{cols}</colgroup>
                <thead node_ref=head>
                    <tr aria-rowindex="1">{headers}</tr>
                </thead>
                <tbody inner_html=body on:click=on_body_click></tbody>
            </table>
        </div>
        </div>
        <div class="au-data-table__footer">
            <span class="au-data-table__count" aria-live="polite">
                {move || table::count_text(shown.with(Vec::len), total())}
            </span>
            {move || export_error.get().map(|error| view! { <span class="au-data-table__error" role="alert">{error}</span> })}
            <button type="button" class="au-button au-data-table__export" on:click=export
                title=move || format!("Download the {} as CSV", table::count_text(shown.with(Vec::len), total()))>
                <svg viewBox="0 0 16 16" aria-hidden="true"><path d="M8 2v8M4.5 6.5 8 10l3.5-3.5M3 13h10" /></svg>
                "Export CSV"
            </button>
        </div>
    }
}

/// Measures the scroller whenever it is resized (the widget's frame, the window), so the row window
/// and the edge shadows follow. The observer's first report, right after the browser has laid the
/// new table out, is the first measure: reading sizes while the page is still being built would force
/// a layout of everything built so far.
fn observe(scroller: NodeRef<html::Div>, viewport: Viewport) {
    Effect::new(move |_| {
        let Some(element) = scroller.get() else {
            return;
        };
        let callback = Closure::<dyn FnMut()>::new(move || viewport.measure(&element));
        let Ok(observer) = ResizeObserver::new(callback.as_ref().unchecked_ref()) else {
            return;
        };
        if let Some(element) = scroller.get_untracked() {
            observer.observe(&element);
        }
        // Local storage keeps the JS handles on this thread; cleanups run before the value is dropped.
        let handles = StoredValue::new_local(Some((observer, callback)));
        on_cleanup(move || {
            handles.try_update_value(|handles| {
                handles.take().map(|(observer, _)| observer.disconnect())
            });
        });
    });
}
