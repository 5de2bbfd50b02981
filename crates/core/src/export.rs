//! Exporting a widget's data as a file: CSV for the tabular widgets (RFC 4180, CRLF, formula-safe)
//! and pretty JSON for all. Pure, so the rules are tested natively.

use serde_json::Value;

use crate::widget_kind::WidgetKind;

/// The widget's data as pretty-printed JSON.
pub fn json(data: &Value) -> String {
    serde_json::to_string_pretty(data).unwrap_or_else(|_| data.to_string())
}

/// The widget's data as CSV, for the kinds that are tables at heart; `None` for the others.
pub fn csv(kind: WidgetKind, data: &Value) -> Option<String> {
    let (header, rows) = match kind {
        WidgetKind::DataTable => table_rows(data),
        WidgetKind::GridData => grid_rows(data),
        WidgetKind::Kv => (
            vec!["key".to_owned(), "value".to_owned()],
            array(data, "rows").iter().filter_map(Value::as_array).map(|pair| pair.iter().map(cell).collect()).collect(),
        ),
        WidgetKind::List => (vec!["item".to_owned()], array(data, "items").iter().map(|item| vec![cell(item)]).collect()),
        WidgetKind::Log => {
            let keys = ["timestamp", "level", "source", "message"];
            let rows = array(data, "entries").iter().map(|entry| keys.iter().map(|k| cell(&entry[*k])).collect()).collect();
            (keys.iter().map(|k| (*k).to_owned()).collect(), rows)
        }
        _ => return None,
    };
    Some(render(&header, &rows))
}

/// Whether [`csv`] has a CSV form for `kind`.
pub fn has_csv(kind: WidgetKind) -> bool {
    matches!(kind, WidgetKind::DataTable | WidgetKind::GridData | WidgetKind::Kv | WidgetKind::List | WidgetKind::Log)
}

fn array<'a>(data: &'a Value, key: &str) -> &'a [Value] {
    data.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default()
}

fn table_rows(data: &Value) -> (Vec<String>, Vec<Vec<String>>) {
    let rows = array(data, "rows");
    let columns: Vec<(String, String)> = match data.get("columns").and_then(Value::as_array) {
        Some(columns) if !columns.is_empty() => columns
            .iter()
            .filter_map(|column| {
                let key = column.get("key")?.as_str()?.to_owned();
                let label = column.get("label").and_then(Value::as_str).unwrap_or(&key).to_owned();
                Some((key, label))
            })
            .collect(),
        _ => {
            let mut keys: Vec<String> = Vec::new();
            for row in rows {
                for key in row.as_object().into_iter().flat_map(|o| o.keys()) {
                    if !keys.contains(key) {
                        keys.push(key.clone());
                    }
                }
            }
            keys.into_iter().map(|k| (k.clone(), k)).collect()
        }
    };
    let header = columns.iter().map(|(_, label)| label.clone()).collect();
    let body = rows.iter().map(|row| columns.iter().map(|(key, _)| cell(&row[key.as_str()])).collect()).collect();
    (header, body)
}

fn grid_rows(data: &Value) -> (Vec<String>, Vec<Vec<String>>) {
    let header = array(data, "columns")
        .iter()
        .map(|column| column.get("label").or_else(|| column.get("key")).map(cell).unwrap_or_default())
        .collect();
    let rows = array(data, "rows").iter().filter_map(Value::as_array).map(|row| row.iter().map(cell).collect()).collect();
    (header, rows)
}

/// A JSON value as one CSV cell's text (numbers raw, objects as JSON, null empty).
fn cell(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

fn render(header: &[String], rows: &[Vec<String>]) -> String {
    let mut out = String::new();
    if !header.is_empty() {
        push_line(&mut out, header);
    }
    for row in rows {
        push_line(&mut out, row);
    }
    out
}

fn push_line(out: &mut String, cells: &[String]) {
    for (index, value) in cells.iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str(&quote(&defuse(value)));
    }
    out.push_str("\r\n");
}

/// Spreadsheets run cells starting with `=`, `+`, `@` (and `-` before a non-number) as formulas;
/// a leading apostrophe keeps them text.
fn defuse(value: &str) -> String {
    let risky = match value.chars().next() {
        Some('=' | '+' | '@' | '\t' | '\r') => true,
        Some('-') => value.parse::<f64>().is_err(),
        _ => false,
    };
    if risky { format!("'{value}") } else { value.to_owned() }
}

fn quote(value: &str) -> String {
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value.to_owned()
    }
}

#[cfg(test)]
mod tests {
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
    fn data_table_columns_are_inferred_from_rows_when_absent() {
        let data = json!({"rows": [{"a": 1}, {"a": 2, "b": "x"}]});
        assert_eq!(csv(WidgetKind::DataTable, &data).unwrap(), "a,b\r\n1,\r\n2,x\r\n");
    }

    #[test]
    fn formula_like_cells_are_defused_but_negative_numbers_are_not() {
        let data = json!({"items": ["=HYPERLINK(\"x\")", "-12.5", "-bad", "+1"]});
        assert_eq!(csv(WidgetKind::List, &data).unwrap(), "item\r\n\"'=HYPERLINK(\"\"x\"\")\"\r\n-12.5\r\n'-bad\r\n'+1\r\n");
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
