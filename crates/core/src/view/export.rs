//! Exporting a widget's data as a file: CSV for the tabular widgets and pretty JSON for all. The CSV
//! rules (RFC 4180, CRLF, formula-safe) are `table`'s, shared with the data-table's own export.

use std::borrow::Cow;

use serde_json::Value;

use crate::view::fields::Fields;
use crate::view::table::{self, ColumnSpec};
use crate::widget_kind::WidgetKind;

/// The widget's data as pretty-printed JSON.
pub fn json(data: &Value) -> String {
    serde_json::to_string_pretty(data).unwrap_or_else(|_| data.to_string())
}

/// Whether [`csv`] has a CSV form for `kind`.
pub fn has_csv(kind: WidgetKind) -> bool {
    matches!(kind, WidgetKind::DataTable | WidgetKind::GridData | WidgetKind::Kv | WidgetKind::List | WidgetKind::Log)
}

/// The widget's data as CSV, for the kinds that are tables at heart; `None` for the others.
pub fn csv(kind: WidgetKind, data: &Value) -> Option<String> {
    let mut out = String::new();
    match kind {
        WidgetKind::DataTable => {
            let rows = array(data, "rows");
            let declared = Fields::of(data).and_then(|fields| fields.items("columns", ColumnSpec::read)).ok();
            let columns = table::columns(declared.as_deref(), rows);
            return Some(table::to_csv(rows, &columns, &table::original_order(rows)));
        }
        WidgetKind::GridData => {
            let header: Vec<Cow<str>> = array(data, "columns")
                .iter()
                .map(|column| table::csv_value(column.get("label").or_else(|| column.get("key"))))
                .collect();
            if !header.is_empty() {
                table::push_record(&mut out, header.into_iter());
            }
            for row in array(data, "rows").iter().filter_map(Value::as_array) {
                table::push_record(&mut out, row.iter().map(|value| table::csv_value(Some(value))));
            }
        }
        WidgetKind::Kv => {
            table::push_record(&mut out, ["key", "value"].into_iter().map(Cow::Borrowed));
            for pair in array(data, "rows").iter().filter_map(Value::as_array) {
                table::push_record(&mut out, pair.iter().map(|value| table::csv_value(Some(value))));
            }
        }
        WidgetKind::List => {
            table::push_record(&mut out, std::iter::once(Cow::Borrowed("item")));
            for item in array(data, "items") {
                table::push_record(&mut out, std::iter::once(table::csv_value(Some(item))));
            }
        }
        WidgetKind::Log => {
            let keys = ["timestamp", "level", "source", "message"];
            table::push_record(&mut out, keys.into_iter().map(Cow::Borrowed));
            for entry in array(data, "entries") {
                table::push_record(&mut out, keys.iter().map(|key| table::csv_value(entry.get(*key))));
            }
        }
        _ => return None,
    }
    Some(out)
}

fn array<'a>(data: &'a Value, key: &str) -> &'a [Value] {
    data.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

/// `markup` with its references to the page's own elements (vega writes a gradient fill as
/// `url(<page>#gradient_1)`, and the resolved styles carry it so) made local to the file: a saved
/// SVG or PNG is not on that page, and its gradients would be lost.
pub fn local_references(markup: &str, page: &str) -> String {
    let page = page.split('#').next().unwrap_or(page);
    if page.is_empty() {
        return markup.to_owned();
    }
    ["(", "(\"", "(&quot;", "('"].iter().fold(markup.to_owned(), |markup, open| {
        markup.replace(&format!("url{open}{page}#"), &format!("url{open}#"))
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn references_to_the_page_become_local_to_the_file() {
        let page = "http://127.0.0.1:8080/?x=1#/";
        let markup = r#"<svg><path style="fill:url(&quot;http://127.0.0.1:8080/?x=1#gradient_3&quot;);" fill="url(http://127.0.0.1:8080/?x=1#gradient_3)"/><a href="https://other.test/#gradient_3"/></svg>"#;
        let local = super::local_references(markup, page);
        assert_eq!(
            local,
            r#"<svg><path style="fill:url(&quot;#gradient_3&quot;);" fill="url(#gradient_3)"/><a href="https://other.test/#gradient_3"/></svg>"#
        );
    }

    use serde_json::json;

    use super::*;

    #[test]
    fn data_table_csv_uses_column_labels_and_row_values_in_column_order() {
        let data = json!({
            "columns": [{"key": "name", "label": "Name"}, {"key": "sales", "label": "Sales"}],
            "rows": [{"sales": 1200, "name": "Lyon"}, {"name": "Nice, \"Côte\"", "sales": null}]
        });
        assert_eq!(csv(WidgetKind::DataTable, &data).unwrap(), "Name,Sales\r\nLyon,1200\r\n\"Nice, \"\"Côte\"\"\",\r\n");
    }

    #[test]
    fn formula_like_cells_are_defused_but_signed_numbers_are_not() {
        let data = json!({"items": ["=HYPERLINK(\"x\")", "-12.5", "-bad", "+1"]});
        assert_eq!(csv(WidgetKind::List, &data).unwrap(), "item\r\n\"'=HYPERLINK(\"\"x\"\")\"\r\n-12.5\r\n'-bad\r\n+1\r\n");
    }

    #[test]
    fn kv_grid_and_log_have_their_own_shapes_and_charts_have_none() {
        assert_eq!(csv(WidgetKind::Kv, &json!({"rows": [["Owner", "Ada"]]})).unwrap(), "key,value\r\nOwner,Ada\r\n");
        let grid = json!({"columns": [{"key": "a", "label": "A"}], "rows": [[1], [2]]});
        assert_eq!(csv(WidgetKind::GridData, &grid).unwrap(), "A\r\n1\r\n2\r\n");
        let log = json!({"entries": [{"message": "up", "level": "info"}]});
        assert_eq!(csv(WidgetKind::Log, &log).unwrap(), "timestamp,level,source,message\r\n,info,,up\r\n");
        assert_eq!(csv(WidgetKind::ChartRich, &json!({})), None);
    }
}
