//! One data-table cell as elements: figures, checks, safe links, JSON chips and muted dashes.

use autoui_core::view::table::{Align, Cell};
use leptos::prelude::*;

/// Cells longer than this many characters carry their full text in a tooltip, since CSS cuts them.
const TOOLTIP_AFTER: usize = 24;

/// The `<td>` for `cell` in a column aligned `align`.
pub fn cell_view(cell: Cell, align: Align) -> impl IntoView {
    let tooltip = match &cell {
        Cell::Text(text) | Cell::Json(text) if text.chars().count() > TOOLTIP_AFTER => {
            Some(text.clone())
        }
        Cell::Link { href, .. } => Some(href.clone()),
        _ => None,
    };
    let class = match align {
        Align::Left => "au-data-table__cell",
        Align::Center => "au-data-table__cell au-data-table__cell--center",
        Align::Right => "au-data-table__cell au-data-table__cell--right",
    };
    let content = match cell {
        Cell::Empty => view! {
            <span class="au-data-table__none" aria-hidden="true">"—"</span>
            <span class="au-visually-hidden">"empty"</span>
        }
        .into_any(),
        Cell::Text(text) => text.into_any(),
        Cell::Number(text) => view! { <span class="au-data-table__number">{text}</span> }.into_any(),
        Cell::Flag(flag) => {
            let (glyph, words, modifier) =
                if flag { ("✓", "yes", "au-data-table__flag--yes") } else { ("✗", "no", "au-data-table__flag--no") };
            view! {
                <span class=format!("au-data-table__flag {modifier}") aria-hidden="true">{glyph}</span>
                <span class="au-visually-hidden">{words}</span>
            }
            .into_any()
        }
        Cell::Link { href, text } => view! {
            <a class="au-data-table__link" href=href target="_blank" rel="noopener noreferrer nofollow">{text}</a>
        }
        .into_any(),
        Cell::Json(text) => view! { <code class="au-data-table__json">{text}</code> }.into_any(),
    };
    view! { <td class=class title=tooltip>{content}</td> }
}
