//! The repetition guard: a call that failed twice with the same arguments in one run is not made a
//! third time; the model is told to change approach instead (the seed's "after two identical failures").

use std::collections::HashMap;

use serde_json::Value;

use crate::sort::sort;

/// Identical failures allowed before the guard answers in the tool's place.
pub const FAILURES_BEFORE_BLOCK: u32 = 2;

#[derive(Debug, Default)]
pub struct RepetitionGuard {
    failures: HashMap<(String, String), Failures>,
}

#[derive(Debug)]
struct Failures {
    count: u32,
    last_error: String,
}

impl RepetitionGuard {
    /// The note to answer with if this exact call already failed twice in this run.
    pub fn check(&self, tool: &str, args: &Value) -> Option<String> {
        let failures = self.failures.get(&key(tool, args))?;
        (failures.count >= FAILURES_BEFORE_BLOCK).then(|| {
            format!(
                "Error: this exact call to {tool} already failed {} times in this run (last error: {}). \
                 Do not repeat it. Read the error and the expected schema and change the arguments, or change \
                 approach: use another recipe, tool or widget.",
                failures.count,
                first_line(&failures.last_error)
            )
        })
    }

    /// Remembers the outcome: a failure counts towards the limit, a success clears it.
    pub fn record(&mut self, tool: &str, args: &Value, error: Option<&str>) {
        let key = key(tool, args);
        match error {
            Some(error) => {
                let entry = self.failures.entry(key).or_insert(Failures { count: 0, last_error: String::new() });
                entry.count += 1;
                entry.last_error = error.to_owned();
            }
            None => {
                self.failures.remove(&key);
            }
        }
    }

    pub fn reset(&mut self) {
        self.failures.clear();
    }
}

fn key(tool: &str, args: &Value) -> (String, String) {
    let mut canonical = String::new();
    write_canonical(args, &mut canonical);
    (tool.to_owned(), canonical)
}

/// JSON with object keys sorted, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are the same call.
fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(fields) => {
            let mut keys: Vec<&String> = fields.keys().collect();
            sort(&mut keys);
            out.push('{');
            for (position, key) in keys.into_iter().enumerate() {
                if position > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(&fields[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (position, item) in items.iter().enumerate() {
                if position > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    if line.chars().count() > 300 {
        format!("{}…", line.chars().take(300).collect::<String>())
    } else {
        line.to_owned()
    }
}
