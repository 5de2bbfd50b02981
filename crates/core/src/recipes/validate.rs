//! Validation reported as `{path, message}` details a model can fix in one retry (JSON Pointer
//! paths, expected vs got, the allowed values), and [`SchemaValidator`], the port that produces them.
//!
//! The `jsonschema` implementation (draft 2020-12) sits behind the default `jsonschema` feature. Native
//! code uses it in process. The browser app builds the core without it: [`compact::CompactValidator`]
//! checks the schemas within [`subset`] (every recipe's, the built-in tools') itself, with the same
//! details, and reaches `jsonschema` in a second wasm module loaded only for any other schema.

pub mod compact;
#[cfg(feature = "jsonschema")]
mod describe;
#[cfg(feature = "jsonschema")]
pub mod in_process;
pub mod subset;

use std::fmt::Write;
use std::sync::Arc;

use futures::future::LocalBoxFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// At most this many details are reported; the rest are counted in one last detail.
pub const MAX_DETAILS: usize = 12;

/// One thing wrong with the params: where (JSON Pointer into params, `""` for the root) and what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Detail {
    pub path: String,
    pub message: String,
}

/// A validator's answer: the details (empty when valid), or why there is no answer. The validator
/// wasm module sends it to the app as JSON.
pub type Verdict = Result<Vec<Detail>, ValidatorError>;

/// Why a validator gave no details. Never read as a pass.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum ValidatorError {
    /// The validator is not loaded: not yet (a synchronous call during start-up), or never.
    #[error("the schema validator is not available: {0}")]
    Unavailable(String),
    /// The schema itself does not compile.
    #[error("the schema does not compile: {0}")]
    Schema(String),
}

/// Checks instances against JSON Schemas (draft 2020-12).
pub trait SchemaValidator {
    /// Resolves once [`SchemaValidator::validate`] can answer for any schema, or with the reason it
    /// never will.
    fn ready(&self) -> LocalBoxFuture<'_, Result<(), ValidatorError>>;

    /// Resolves once [`SchemaValidator::validate`] can answer for `schema`: at once when it needs
    /// nothing more loaded (the app's [`compact::CompactValidator`] with a recipe's schema).
    fn ready_for(&self, schema: &Arc<Value>) -> LocalBoxFuture<'_, Result<(), ValidatorError>> {
        let _ = schema;
        self.ready()
    }

    /// Every violation of `schema` by `instance`, at most [`MAX_DETAILS`] plus one counting the
    /// rest; empty when it is valid.
    fn validate(&self, schema: &Arc<Value>, instance: &Value) -> Verdict;
}

/// Every violation of `schema` by `instance`; empty when it is valid.
#[cfg(feature = "jsonschema")]
pub fn validate(
    validator: &jsonschema::Validator,
    schema: &Value,
    instance: &Value,
) -> Vec<Detail> {
    // The fast boolean check first: collecting errors costs more, and most calls are valid.
    if validator.is_valid(instance) {
        return Vec::new();
    }
    let mut details: Vec<Detail> = Vec::new();
    let mut total = 0usize;
    for error in validator.iter_errors(instance) {
        total += 1;
        if details.len() < MAX_DETAILS {
            details.extend(describe::describe(&error, schema));
        }
    }
    if total > MAX_DETAILS {
        details.truncate(MAX_DETAILS);
        details.push(Detail {
            path: String::new(),
            message: format!(
                "{} more errors not shown; they are probably the same mistake repeated",
                total - MAX_DETAILS
            ),
        });
    }
    details
}

/// A short description of a value: its type and, for scalars, the value itself.
pub(crate) fn preview(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(flag) => format!("boolean {flag}"),
        Value::Number(number) => format!("number {number}"),
        Value::String(text) => format!("string {}", quote(text)),
        Value::Array(items) => format!("array of {} item(s)", items.len()),
        Value::Object(map) => {
            let keys: Vec<&str> = map.keys().take(6).map(String::as_str).collect();
            format!("object {{{}}}", keys.join(", "))
        }
    }
}

/// A JSON-quoted string cut to 60 characters.
pub(crate) fn quote(text: &str) -> String {
    const LIMIT: usize = 60;
    if text.chars().count() <= LIMIT {
        return Value::String(text.to_owned()).to_string();
    }
    let cut: String = text.chars().take(LIMIT).collect();
    format!("{}…", Value::String(cut))
}

/// Where a walk over the data is, as a chain of its callers' frames: built into a JSON Pointer only
/// when something there is reported, as a large table's every cell is visited.
pub(crate) enum At<'p> {
    Root,
    Key(&'p At<'p>, &'p str),
    Index(&'p At<'p>, usize),
}

impl At<'_> {
    pub(crate) fn pointer(&self) -> String {
        let mut path = String::new();
        self.write_pointer(&mut path);
        path
    }

    fn write_pointer(&self, path: &mut String) {
        match self {
            At::Root => {}
            At::Key(parent, key) => {
                parent.write_pointer(path);
                push_segment(path, key);
            }
            At::Index(parent, index) => {
                parent.write_pointer(path);
                // Writing into a String cannot fail.
                let _ = write!(path, "/{index}");
            }
        }
    }
}

/// `parent` extended by one JSON Pointer segment (RFC 6901 escaping).
pub(crate) fn child(parent: &str, key: &str) -> String {
    let mut path = parent.to_owned();
    push_segment(&mut path, key);
    path
}

/// Appends one JSON Pointer segment to `path` in place (RFC 6901 escaping).
pub(crate) fn push_segment(path: &mut String, segment: &str) {
    path.push('/');
    if segment.bytes().any(|byte| byte == b'~' || byte == b'/') {
        path.push_str(&segment.replace('~', "~0").replace('/', "~1"));
    } else {
        path.push_str(segment);
    }
}
