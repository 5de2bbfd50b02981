//! The table body as markup: each row in the window with its cells (figures, checks, safe links, JSON
//! chips and muted dashes), the spacers that stand for the rows out of view, and the line shown when
//! the filter matches nothing. Every text and attribute value from the data is escaped.

use std::fmt::Write as _;

use autoui_core::view::markdown::escape_html;
use autoui_core::view::table::{Align, Cell};

/// Cells longer than this many characters carry their full text in a tooltip, since CSS cuts them.
const TOOLTIP_AFTER: usize = 24;

/// Marks the row a click lands in (`data-row`, its index in the data) and the button that clears
/// the filter; the body's one click handler reads them.
pub const ROW_ATTRIBUTE: &str = "data-row";
pub const CLEAR_FILTER_ATTRIBUTE: &str = "data-clear-filter";

/// One row in the window: `id` is its element id, `position` its place among the shown rows.
pub struct Row<'a> {
    pub id: &'a str,
    pub index: u32,
    pub position: usize,
    pub striped: bool,
    pub selected: bool,
}

impl Row<'_> {
    /// Appends the row's `<tr>`, opened, to `out`; its cells follow, then [`end_row`].
    pub fn start(&self, out: &mut String) {
        let Row { id, index, position, striped, selected } = self;
        let class = if *striped { "au-data-table__row au-data-table__row--odd" } else { "au-data-table__row" };
        let _ = write!(
            out,
            "<tr id=\"{}\" class=\"{class}\" {ROW_ATTRIBUTE}=\"{index}\" aria-rowindex=\"{}\" aria-selected=\"{selected}\">",
            escape_html(id),
            position + 2
        );
    }
}

pub fn end_row(out: &mut String) {
    out.push_str("</tr>");
}

/// Appends the `<td>` for `cell` in a column aligned `align` to `out`.
pub fn write_cell(out: &mut String, cell: &Cell, align: Align) {
    let class = match align {
        Align::Left => "au-data-table__cell",
        Align::Center => "au-data-table__cell au-data-table__cell--center",
        Align::Right => "au-data-table__cell au-data-table__cell--right",
    };
    let tooltip = match cell {
        Cell::Text(text) | Cell::Json(text) if text.chars().count() > TOOLTIP_AFTER => Some(text),
        Cell::Link { href, .. } => Some(href),
        _ => None,
    };
    let _ = write!(out, "<td class=\"{class}\"");
    if let Some(tooltip) = tooltip {
        let _ = write!(out, " title=\"{}\"", escape_html(tooltip));
    }
    out.push('>');
    match cell {
        Cell::Empty => out.push_str(
            "<span class=\"au-data-table__none\" aria-hidden=\"true\">\u{2014}</span><span class=\"au-visually-hidden\">empty</span>",
        ),
        Cell::Text(text) => out.push_str(&escape_html(text)),
        Cell::Number(text) => {
            let _ = write!(out, "<span class=\"au-data-table__number\">{}</span>", escape_html(text));
        }
        Cell::Flag(flag) => {
            let (glyph, words, modifier) =
                if *flag { ("\u{2713}", "yes", "au-data-table__flag--yes") } else { ("\u{2717}", "no", "au-data-table__flag--no") };
            let _ = write!(
                out,
                "<span class=\"au-data-table__flag {modifier}\" aria-hidden=\"true\">{glyph}</span><span class=\"au-visually-hidden\">{words}</span>"
            );
        }
        Cell::Link { href, text } => {
            let _ = write!(
                out,
                "<a class=\"au-data-table__link\" href=\"{}\" target=\"_blank\" rel=\"noopener noreferrer nofollow\">{}</a>",
                escape_html(href),
                escape_html(text)
            );
        }
        Cell::Json(text) => {
            let _ = write!(out, "<code class=\"au-data-table__json\">{}</code>", escape_html(text));
        }
    }
    out.push_str("</td>");
}

/// Appends a row standing for `height` px of rows out of view.
pub fn write_spacer(out: &mut String, height: f64, columns: usize) {
    let _ = write!(
        out,
        "<tr class=\"au-data-table__spacer\" aria-hidden=\"true\" style=\"height: {height}px\"><td colspan=\"{columns}\"></td></tr>"
    );
}

/// Appends the row saying that no row matches `query`, with the button that clears the filter.
pub fn write_no_match(out: &mut String, query: &str, columns: usize) {
    let _ = write!(
        out,
        "<tr><td colspan=\"{columns}\" class=\"au-data-table__no-match\"><span>No rows match \u{201c}{}\u{201d}.</span>\
         <button type=\"button\" class=\"au-button au-button--ghost\" {CLEAR_FILTER_ATTRIBUTE}>Clear filter</button></td></tr>",
        escape_html(query.trim())
    );
}
