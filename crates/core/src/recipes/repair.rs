//! Auto-repair: fixes the shapes models commonly get wrong, guided by the widget's schema, before
//! validation. It converts, wraps, renames, fills declared defaults, fixes letter case and drops
//! fields a closed object does not declare, and reports every fix; it never invents data.

use std::collections::HashMap;
use std::fmt::{self, Write};

use serde_json::{Map, Number, Value};

use crate::recipes::validate::{preview, push_segment, quote};
use crate::widget_kind::WidgetKind;

/// One fix, at a JSON Pointer into the params (`""` is the params object itself).
#[derive(Clone, Debug, PartialEq)]
pub struct Repair {
    pub path: String,
    pub fix: Fix,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Fix {
    /// The params were given beside `name` instead of under `params`.
    FlatParams,
    /// JSON text was parsed into the object or array the schema wants.
    ParsedJson,
    /// A scalar was converted to the type the schema wants, e.g. `"42"` to `42`.
    Converted {
        from: String,
        from_type: &'static str,
        to: Value,
    },
    /// A single value was wrapped in the array the schema wants.
    Wrapped,
    /// An object was turned into the `[key, value]` pairs the schema wants.
    Pairs,
    /// A missing required property was filled from the schema's default (or its only allowed value).
    Defaulted(Value),
    /// A string was replaced by the allowed value it matches ignoring case and spaces.
    EnumCase { from: String, to: String },
    /// An optional property set to `null` was removed.
    NullRemoved,
    /// A property was renamed to the declared one it matches ignoring case, `_` and `-`.
    Renamed { from: String },
    /// A `canvas` update carried the new data directly in `params` rather than under `params.data`.
    PatchWithoutData,
    /// A field the widget's closed object does not declare was removed (e.g. a stat-card `icon`
    /// sent by recipes written for another system); `nested` when it was below the params' top level.
    UnknownDropped {
        field: String,
        widget: WidgetKind,
        nested: bool,
    },
}

impl fmt::Display for Fix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fix::FlatParams => {
                f.write_str("params were passed beside \"name\"; moved under \"params\"")
            }
            Fix::ParsedJson => f.write_str("JSON text parsed"),
            Fix::Converted { from, to, .. } => write!(f, "{from} converted to {}", preview(to)),
            Fix::Wrapped => f.write_str("single value wrapped in an array"),
            Fix::Pairs => f.write_str("object turned into [key, value] pairs"),
            Fix::Defaulted(value) => {
                write!(f, "missing required property set to its default {value}")
            }
            Fix::EnumCase { from, to } => write!(f, "{} replaced by {}", quote(from), quote(to)),
            Fix::NullRemoved => f.write_str("null removed (the property is optional)"),
            Fix::Renamed { from } => {
                write!(f, "property {} renamed to the declared name", quote(from))
            }
            Fix::PatchWithoutData => {
                f.write_str("params had no \"data\" object; params itself was merged")
            }
            Fix::UnknownDropped {
                field,
                widget,
                nested,
            } => {
                let there = if *nested { " there" } else { "" };
                write!(
                    f,
                    "dropped unknown field `{field}` ({widget} has no such field{there})"
                )
            }
        }
    }
}

impl Fix {
    /// How a group of the same fix at many array items reads, e.g. "strings converted to numbers".
    fn group_label(&self) -> String {
        match self {
            Fix::Converted { from_type, to, .. } => {
                format!("{from_type}s converted to {}s", type_name(to))
            }
            Fix::EnumCase { to, .. } => format!("values replaced by {}", quote(to)),
            other => other.to_string(),
        }
    }
}

/// Repairs `params` in place against `schema` (the params schema of `widget`) and returns the fixes made.
pub fn repair(params: &mut Value, schema: &Value, widget: WidgetKind) -> Vec<Repair> {
    let mut walker = Walker {
        path: String::new(),
        repairs: Vec::new(),
        widget,
        may_drop: true,
    };
    walker.node(params, schema);
    walker.repairs
}

/// One line per fix for the model; the same fix at many array items becomes one line with a count.
pub fn summarise(repairs: &[Repair]) -> Vec<String> {
    let mut order: Vec<(String, String)> = Vec::new();
    let mut groups: HashMap<(String, String), (usize, &Repair)> = HashMap::new();
    for repair in repairs {
        let key = (generalise(&repair.path), repair.fix.group_label());
        groups
            .entry(key.clone())
            .and_modify(|(count, _)| *count += 1)
            .or_insert_with(|| {
                order.push(key);
                (1, repair)
            });
    }
    order
        .into_iter()
        .filter_map(|key| {
            let (count, first) = groups.get(&key)?;
            Some(if *count == 1 {
                format!("{}: {}", shown(&first.path), first.fix)
            } else {
                format!("{}: {} ({count} values)", shown(&key.0), key.1)
            })
        })
        .collect()
}

fn shown(path: &str) -> &str {
    if path.is_empty() { "params" } else { path }
}

/// `/rows/3/age` -> `/rows/*/age`.
fn generalise(path: &str) -> String {
    path.split('/')
        .map(|segment| {
            if !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit()) {
                "*"
            } else {
                segment
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

struct Walker {
    path: String,
    repairs: Vec<Repair>,
    widget: WidgetKind,
    /// False below an `anyOf`/`oneOf` branch that another branch could replace: a field the chosen
    /// branch does not declare may be one the other branch accepts, so it is left to validation.
    may_drop: bool,
}

impl Walker {
    fn record(&mut self, fix: Fix) {
        self.repairs.push(Repair {
            path: self.path.clone(),
            fix,
        });
    }

    fn at<T>(&mut self, segment: &str, work: impl FnOnce(&mut Walker) -> T) -> T {
        let len = self.path.len();
        push_segment(&mut self.path, segment);
        let result = work(self);
        self.path.truncate(len);
        result
    }

    fn node(&mut self, value: &mut Value, schema: &Value) {
        let Some(schema) = schema.as_object() else {
            return;
        };
        let keywords = Keywords::of(schema);
        if type_fits(keywords.kind, value) == Some(false) {
            self.convert(value, schema, &declared_types(schema));
        }
        if let Some(options) = keywords.options {
            self.enum_case(value, options);
        }
        match value {
            Value::Object(map) => self.object(map, &keywords),
            Value::Array(items) => self.array(items, &keywords),
            _ => {}
        }
        for branches in [keywords.any_of, keywords.one_of].into_iter().flatten() {
            if let Some(branch) = pick_branch(value, branches) {
                let may_drop = self.may_drop;
                self.may_drop = may_drop && candidates(value, branches) == 1;
                self.node(value, branch);
                self.may_drop = may_drop;
            }
        }
    }

    /// Replaces a value whose type the schema does not accept by a lossless conversion, if one exists.
    fn convert(&mut self, value: &mut Value, schema: &Map<String, Value>, types: &[&str]) {
        let wants = |kind: &str| types.contains(&kind);
        let replacement = match &*value {
            Value::String(text) => {
                let text = text.trim();
                if (wants("object") || wants("array"))
                    && (text.starts_with('{') || text.starts_with('['))
                {
                    serde_json::from_str::<Value>(text)
                        .ok()
                        .filter(|parsed| types.iter().any(|kind| has_type(parsed, kind)))
                        .map(|parsed| (parsed, Fix::ParsedJson))
                } else if wants("integer") {
                    parse_integer(text).map(|to| converted(value, to))
                } else if wants("number") {
                    parse_number(text).map(|to| converted(value, to))
                } else if wants("boolean") {
                    parse_bool(text).map(|to| converted(value, to))
                } else {
                    None
                }
            }
            Value::Number(number) if wants("string") => {
                Some(converted(value, Value::String(number.to_string())))
            }
            Value::Bool(flag) if wants("string") => {
                Some(converted(value, Value::String(flag.to_string())))
            }
            Value::Object(map) if wants("array") && is_pair_array(schema) && !map.is_empty() => {
                let pairs = map.iter().map(|(key, item)| {
                    Value::Array(vec![Value::String(key.clone()), item.clone()])
                });
                Some((Value::Array(pairs.collect()), Fix::Pairs))
            }
            _ => None,
        };
        let replacement = replacement.or_else(|| {
            (wants("array") && !value.is_array() && !value.is_null() && items_accept(schema, value))
                .then(|| (Value::Array(vec![value.take()]), Fix::Wrapped))
        });
        if let Some((new, fix)) = replacement {
            *value = new;
            self.record(fix);
        }
    }

    fn enum_case(&mut self, value: &mut Value, options: &[Value]) {
        let Value::String(text) = value else { return };
        if options
            .iter()
            .any(|option| option.as_str() == Some(text.as_str()))
        {
            return;
        }
        let wanted = text.trim();
        let mut matches = options
            .iter()
            .filter_map(Value::as_str)
            .filter(|option| option.eq_ignore_ascii_case(wanted));
        if let (Some(found), None) = (matches.next(), matches.next()) {
            let fix = Fix::EnumCase {
                from: text.clone(),
                to: found.to_owned(),
            };
            *value = Value::String(found.to_owned());
            self.record(fix);
        }
    }

    fn object(&mut self, map: &mut Map<String, Value>, keywords: &Keywords<'_>) {
        let properties = keywords.properties;
        let required: Vec<&str> = keywords
            .required
            .map(|keys| keys.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let closed = keywords.additional == Some(&Value::Bool(false));
        if let (true, Some(properties)) = (closed, properties) {
            self.rename_keys(map, properties);
        }
        // Pattern-declared names would need the schema's regexes: such objects are left to validation.
        if closed && self.may_drop && !keywords.pattern_properties {
            self.drop_unknown(map, properties);
        }
        if let Some(properties) = properties {
            self.remove_nulls(map, properties, &required);
        }
        let additional = keywords.additional.filter(|additional| additional.is_object());
        // An object whose fields have no schema (a data-table row) has nothing to walk.
        if properties.is_some() || additional.is_some() {
            for (key, item) in map.iter_mut() {
                if let Some(item_schema) = properties
                    .and_then(|properties| properties.get(key))
                    .or(additional)
                {
                    self.at(key, |walker| walker.node(item, item_schema));
                }
            }
        }
        for key in required {
            if map.contains_key(key) {
                continue;
            }
            if let Some(fill) = properties
                .and_then(|properties| properties.get(key))
                .and_then(default_of)
            {
                self.at(key, |walker| walker.record(Fix::Defaulted(fill.clone())));
                map.insert(key.to_owned(), fill);
            }
        }
    }

    fn rename_keys(&mut self, map: &mut Map<String, Value>, properties: &Map<String, Value>) {
        let renames: Vec<(String, String)> = map
            .keys()
            .filter(|key| !properties.contains_key(*key))
            .filter_map(|key| {
                let loose = loose_key(key);
                let mut candidates = properties
                    .keys()
                    .filter(|declared| loose_key(declared) == loose);
                match (candidates.next(), candidates.next()) {
                    (Some(declared), None) if !map.contains_key(declared) => {
                        Some((key.clone(), declared.clone()))
                    }
                    _ => None,
                }
            })
            .collect();
        for (from, to) in renames {
            if let Some(item) = map.remove(&from) {
                self.at(&to, |walker| walker.record(Fix::Renamed { from }));
                map.insert(to, item);
            }
        }
    }

    /// Removes the fields a closed object does not declare: validation would refuse them, and the
    /// renderer would ignore them.
    fn drop_unknown(
        &mut self,
        map: &mut Map<String, Value>,
        properties: Option<&Map<String, Value>>,
    ) {
        let declared =
            |key: &String| properties.is_some_and(|properties| properties.contains_key(key));
        let unknown: Vec<String> = map.keys().filter(|key| !declared(key)).cloned().collect();
        let nested = !self.path.is_empty();
        for field in unknown {
            map.remove(&field);
            let fix = Fix::UnknownDropped {
                field: field.clone(),
                widget: self.widget,
                nested,
            };
            self.at(&field, |walker| walker.record(fix));
        }
    }

    fn remove_nulls(
        &mut self,
        map: &mut Map<String, Value>,
        properties: &Map<String, Value>,
        required: &[&str],
    ) {
        let nulls: Vec<String> = map
            .iter()
            .filter(|(key, item)| item.is_null() && !required.contains(&key.as_str()))
            .filter(|(key, _)| {
                properties
                    .get(*key)
                    .and_then(Value::as_object)
                    .is_some_and(|schema| !allows_null(schema))
            })
            .map(|(key, _)| key.clone())
            .collect();
        for key in nulls {
            map.remove(&key);
            self.at(&key, |walker| walker.record(Fix::NullRemoved));
        }
    }

    fn array(&mut self, items: &mut [Value], keywords: &Keywords<'_>) {
        let (prefix, rest) = (keywords.prefix_items, keywords.items);
        for (index, item) in items.iter_mut().enumerate() {
            if let Some(item_schema) = prefix.and_then(|prefix| prefix.get(index)).or(rest) {
                let len = self.path.len();
                // Writing into a String cannot fail; no allocation per row.
                let _ = write!(self.path, "/{index}");
                self.node(item, item_schema);
                self.path.truncate(len);
            }
        }
    }
}

fn converted(from: &Value, to: Value) -> (Value, Fix) {
    let fix = Fix::Converted {
        from: preview(from),
        from_type: type_name(from),
        to: to.clone(),
    };
    (to, fix)
}

/// The keywords the walk acts on, read in one pass over a schema object: this runs for every node of
/// the data, and one pass over a schema's few keys costs less than a lookup per keyword.
#[derive(Default)]
struct Keywords<'s> {
    kind: Option<&'s Value>,
    options: Option<&'s [Value]>,
    properties: Option<&'s Map<String, Value>>,
    required: Option<&'s [Value]>,
    additional: Option<&'s Value>,
    pattern_properties: bool,
    any_of: Option<&'s [Value]>,
    one_of: Option<&'s [Value]>,
    prefix_items: Option<&'s [Value]>,
    items: Option<&'s Value>,
}

impl<'s> Keywords<'s> {
    fn of(schema: &'s Map<String, Value>) -> Keywords<'s> {
        let list = |value: &'s Value| value.as_array().map(Vec::as_slice);
        let mut found = Keywords::default();
        for (keyword, value) in schema {
            match keyword.as_str() {
                "type" => found.kind = Some(value),
                "enum" => found.options = list(value),
                "properties" => found.properties = value.as_object(),
                "required" => found.required = list(value),
                "additionalProperties" => found.additional = Some(value),
                "patternProperties" => found.pattern_properties = true,
                "anyOf" => found.any_of = list(value),
                "oneOf" => found.one_of = list(value),
                "prefixItems" => found.prefix_items = list(value),
                "items" => found.items = Some(value),
                _ => {}
            }
        }
        found
    }
}

/// The `type` keyword as a list; empty when the schema does not constrain the type.
fn declared_types(schema: &Map<String, Value>) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(kind)) => vec![kind.as_str()],
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Whether `value` has a type the schema's `type` keyword (`kind`) declares; `None` when it declares
/// none. Allocation-free: this runs for every node of the data.
fn type_fits(kind: Option<&Value>, value: &Value) -> Option<bool> {
    match kind? {
        Value::String(kind) => Some(has_type(value, kind)),
        Value::Array(kinds) => Some(
            kinds
                .iter()
                .filter_map(Value::as_str)
                .any(|kind| has_type(value, kind)),
        ),
        _ => None,
    }
}

fn has_type(value: &Value, kind: &str) -> bool {
    match kind {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.as_f64().is_some_and(|number| number.fract() == 0.0),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => false,
    }
}

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(number) if number.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn allows_null(schema: &Map<String, Value>) -> bool {
    let types = declared_types(schema);
    types.is_empty() || types.contains(&"null")
}

/// The first branch of an `anyOf`/`oneOf` whose type fits the value, else the first untyped one.
fn pick_branch<'s>(value: &Value, branches: &'s [Value]) -> Option<&'s Value> {
    let typed = branches.iter().find(|branch| {
        branch.as_object().is_some_and(|branch| {
            declared_types(branch)
                .iter()
                .any(|kind| has_type(value, kind))
        })
    });
    typed.or_else(|| {
        branches.iter().find(|branch| {
            branch
                .as_object()
                .is_some_and(|branch| declared_types(branch).is_empty())
        })
    })
}

/// How many branches could describe `value`: those whose type fits it, and untyped ones.
fn candidates(value: &Value, branches: &[Value]) -> usize {
    branches
        .iter()
        .filter(|branch| match branch {
            Value::Object(branch) => type_fits(branch.get("type"), value) != Some(false),
            Value::Bool(accepts) => *accepts,
            _ => false,
        })
        .count()
}

/// Whether the array's (first) item schema would take `value` as one item.
fn items_accept(schema: &Map<String, Value>, value: &Value) -> bool {
    let first = schema
        .get("prefixItems")
        .and_then(Value::as_array)
        .and_then(|prefix| prefix.first())
        .or_else(|| schema.get("items"));
    match first {
        None | Some(Value::Bool(true)) => true,
        Some(Value::Object(items)) => {
            let types = declared_types(items);
            match items.get("anyOf").and_then(Value::as_array) {
                _ if !types.is_empty() => types.iter().any(|kind| has_type(value, kind)),
                Some(branches) => pick_branch(value, branches).is_some(),
                None => true,
            }
        }
        Some(_) => false,
    }
}

/// An array of `[key, value]` pairs, as `kv.rows`.
fn is_pair_array(schema: &Map<String, Value>) -> bool {
    schema
        .get("items")
        .and_then(|items| items.get("prefixItems"))
        .and_then(Value::as_array)
        .is_some_and(|prefix| prefix.len() == 2)
}

/// What a missing required property may be filled with: a declared default, `const` or single enum value.
fn default_of(schema: &Value) -> Option<Value> {
    let schema = schema.as_object()?;
    if let Some(default) = schema.get("default") {
        return Some(default.clone());
    }
    if let Some(constant) = schema.get("const") {
        return Some(constant.clone());
    }
    match schema
        .get("enum")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
    {
        Some([only]) => Some(only.clone()),
        _ => None,
    }
}

/// `previous_value`, `Previous-Value` and `previousValue` all read `previousvalue`.
fn loose_key(key: &str) -> String {
    key.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

fn parse_integer(text: &str) -> Option<Value> {
    if let Ok(integer) = text.parse::<i64>() {
        return Some(Value::from(integer));
    }
    let number = text
        .parse::<f64>()
        .ok()
        .filter(|number| number.is_finite() && number.fract() == 0.0)?;
    // Beyond 2^53 an f64 no longer holds every integer exactly.
    (number.abs() < 9_007_199_254_740_992.0).then(|| Value::from(number as i64))
}

fn parse_number(text: &str) -> Option<Value> {
    if let Ok(integer) = text.parse::<i64>() {
        return Some(Value::from(integer));
    }
    let number = text
        .parse::<f64>()
        .ok()
        .filter(|number| number.is_finite())?;
    // Rust also parses "inf" and "nan"; only plain decimal text is a number here.
    if !text
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'))
    {
        return None;
    }
    Number::from_f64(number).map(Value::Number)
}

fn parse_bool(text: &str) -> Option<Value> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "1" => Some(Value::Bool(true)),
        "false" | "0" => Some(Value::Bool(false)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn repaired(schema: Value, mut params: Value) -> (Value, Vec<String>) {
        let repairs = repair(&mut params, &schema, WidgetKind::StatCard);
        (params, summarise(&repairs))
    }

    #[test]
    fn numeric_and_boolean_strings_become_numbers_and_booleans() {
        let schema = json!({"type": "object", "properties": {
            "count": {"type": "integer"}, "ratio": {"type": "number"}, "on": {"type": "boolean"}}});
        let (params, repairs) = repaired(
            schema,
            json!({"count": " 42 ", "ratio": "0.5", "on": "TRUE"}),
        );
        assert_eq!(params, json!({"count": 42, "ratio": 0.5, "on": true}));
        assert_eq!(
            repairs,
            vec![
                "/count: string \" 42 \" converted to number 42",
                "/on: string \"TRUE\" converted to boolean true",
                "/ratio: string \"0.5\" converted to number 0.5",
            ]
        );
    }

    #[test]
    fn text_that_is_not_a_plain_number_is_left_for_validation() {
        let schema = json!({"properties": {"n": {"type": "number"}, "i": {"type": "integer"}}});
        for text in ["12 kg", "inf", "NaN", "1,5", ""] {
            let (params, repairs) = repaired(schema.clone(), json!({"n": text}));
            assert_eq!(params, json!({"n": text}), "{text}");
            assert!(repairs.is_empty());
        }
        let (params, _) = repaired(schema, json!({"i": "2.5"}));
        assert_eq!(params, json!({"i": "2.5"}));
    }

    #[test]
    fn numbers_and_booleans_become_strings_where_strings_are_wanted() {
        let schema =
            json!({"properties": {"value": {"type": "string"}, "flag": {"type": "string"}}});
        let (params, repairs) = repaired(schema, json!({"value": 99.9, "flag": false}));
        assert_eq!(params, json!({"value": "99.9", "flag": "false"}));
        assert_eq!(repairs.len(), 2);
    }

    #[test]
    fn stringified_json_is_parsed_where_an_object_or_array_is_wanted() {
        let schema =
            json!({"properties": {"rows": {"type": "array", "items": {"type": "object"}}}});
        let (params, repairs) = repaired(schema, json!({"rows": "[{\"a\": 1}]"}));
        assert_eq!(params, json!({"rows": [{"a": 1}]}));
        assert_eq!(repairs, vec!["/rows: JSON text parsed"]);
    }

    #[test]
    fn a_single_object_is_wrapped_where_an_array_of_them_is_wanted() {
        let schema = json!({"properties": {"events": {"type": "array", "items": {"type": "object",
            "properties": {"title": {"type": "string"}}}}}});
        let (params, repairs) = repaired(schema, json!({"events": {"title": 2024}}));
        assert_eq!(params, json!({"events": [{"title": "2024"}]}));
        assert_eq!(
            repairs,
            vec![
                "/events: single value wrapped in an array",
                "/events/0/title: number 2024 converted to string \"2024\"",
            ]
        );
    }

    #[test]
    fn a_value_is_not_wrapped_into_an_array_whose_items_would_refuse_it() {
        let pair = json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "number"}], "items": false});
        let schema = json!({"properties": {"bars": {"type": "array", "items": pair}, "tags": {"type": "array", "items": false}}});
        let (params, repairs) = repaired(schema, json!({"bars": [{"label": "Jan"}], "tags": "x"}));
        assert_eq!(params, json!({"bars": [{"label": "Jan"}], "tags": "x"}));
        assert!(repairs.is_empty(), "{repairs:?}");
    }

    #[test]
    fn an_object_becomes_pairs_where_key_value_pairs_are_wanted() {
        let schema = json!({"properties": {"rows": {"type": "array", "items": {"type": "array",
            "prefixItems": [{"type": "string"}, {"type": "string"}], "items": false}}}});
        let (params, _) = repaired(schema, json!({"rows": {"Age": 42, "Name": "Dupont"}}));
        assert_eq!(params, json!({"rows": [["Age", "42"], ["Name", "Dupont"]]}));
    }

    #[test]
    fn missing_required_fields_take_a_declared_default_or_single_enum_value() {
        let schema = json!({"type": "object", "required": ["level", "kind", "label"], "properties": {
            "level": {"type": "string", "default": "info"}, "kind": {"enum": ["pie"]}, "label": {"type": "string"}}});
        let (params, repairs) = repaired(schema, json!({}));
        assert_eq!(
            params,
            json!({"level": "info", "kind": "pie"}),
            "label has no default and stays missing"
        );
        assert_eq!(repairs.len(), 2);
    }

    #[test]
    fn enum_values_are_matched_ignoring_case() {
        let schema =
            json!({"properties": {"variant": {"type": "string", "enum": ["default", "success"]}}});
        let (params, repairs) = repaired(schema.clone(), json!({"variant": "Success"}));
        assert_eq!(params, json!({"variant": "success"}));
        assert_eq!(
            repairs,
            vec!["/variant: \"Success\" replaced by \"success\""]
        );
        let (params, _) = repaired(schema, json!({"variant": "great"}));
        assert_eq!(
            params,
            json!({"variant": "great"}),
            "no match is left for validation to report"
        );
    }

    #[test]
    fn keys_differing_in_case_or_separators_are_renamed_in_strict_objects() {
        let schema = json!({"type": "object", "additionalProperties": false,
            "properties": {"previousValue": {"type": "string"}, "label": {"type": "string"}}});
        let (params, repairs) = repaired(schema, json!({"previous_value": "9", "Label": "x"}));
        assert_eq!(params, json!({"previousValue": "9", "label": "x"}));
        assert_eq!(repairs.len(), 2);
    }

    #[test]
    fn fields_a_closed_object_does_not_declare_are_dropped_and_reported() {
        let schema = json!({"type": "object", "additionalProperties": false, "required": ["label"],
            "properties": {"label": {"type": "string"}, "value": {"type": "string"}}});
        let (params, repairs) = repaired(
            schema,
            json!({"label": "Sales", "value": "9", "icon": "💰"}),
        );
        assert_eq!(params, json!({"label": "Sales", "value": "9"}));
        assert_eq!(
            repairs,
            vec!["/icon: dropped unknown field `icon` (stat-card has no such field)"]
        );
    }

    #[test]
    fn unknown_fields_are_dropped_at_any_depth_and_counted_once_per_shape() {
        let item = json!({"type": "object", "additionalProperties": false,
            "properties": {"id": {"type": "string"}, "seats": {"type": "integer"}}});
        let schema = json!({"type": "object", "additionalProperties": false,
            "properties": {"groups": {"type": "array", "items": item}, "meta": {"type": "object"}}});
        let (params, repairs) = repaired(
            schema,
            json!({"groups": [{"id": "A", "seats": 3, "leader": "X"}, {"id": "B", "seats": 2, "leader": "Y"}],
                   "meta": {"anything": "goes in an open object"}}),
        );
        assert_eq!(
            params,
            json!({"groups": [{"id": "A", "seats": 3}, {"id": "B", "seats": 2}],
                   "meta": {"anything": "goes in an open object"}})
        );
        assert_eq!(
            repairs,
            vec![
                "/groups/*/leader: dropped unknown field `leader` (stat-card has no such field there) (2 values)"
            ]
        );
    }

    #[test]
    fn a_key_matching_a_declared_name_loosely_is_renamed_not_dropped() {
        let schema = json!({"type": "object", "additionalProperties": false,
            "properties": {"previousValue": {"type": "string"}}});
        let (params, repairs) = repaired(schema, json!({"previous_value": "7", "icon": "x"}));
        assert_eq!(params, json!({"previousValue": "7"}));
        assert_eq!(
            repairs,
            vec![
                "/previousValue: property \"previous_value\" renamed to the declared name",
                "/icon: dropped unknown field `icon` (stat-card has no such field)",
            ]
        );
    }

    #[test]
    fn a_field_another_branch_may_accept_is_left_for_validation() {
        let closed = |key: &str| json!({"type": "object", "additionalProperties": false, "properties": {key: {"type": "string"}}});
        let schema = json!({"properties": {"either": {"anyOf": [closed("a"), closed("b")]},
            "only": {"anyOf": [{"type": "string"}, closed("a")]}}});
        let (params, repairs) = repaired(
            schema,
            json!({"either": {"b": "kept"}, "only": {"a": "1", "b": "2"}}),
        );
        assert_eq!(params, json!({"either": {"b": "kept"}, "only": {"a": "1"}}));
        assert_eq!(
            repairs,
            vec!["/only/b: dropped unknown field `b` (stat-card has no such field there)"]
        );
    }

    #[test]
    fn pattern_declared_and_open_objects_keep_every_field() {
        let schema = json!({"type": "object", "additionalProperties": false,
            "patternProperties": {"^x-": {"type": "string"}}, "properties": {"a": {}}});
        let (params, repairs) = repaired(schema, json!({"a": 1, "x-note": "kept"}));
        assert_eq!(params, json!({"a": 1, "x-note": "kept"}));
        assert!(repairs.is_empty());
        let (params, repairs) = repaired(
            json!({"type": "object", "properties": {"a": {}}}),
            json!({"b": 2}),
        );
        assert_eq!(params, json!({"b": 2}));
        assert!(repairs.is_empty());
    }

    #[test]
    fn null_optional_properties_are_removed_but_null_data_is_kept() {
        let schema = json!({"type": "object", "required": ["value"], "properties": {
            "unit": {"type": "string"}, "value": {"type": "string"}, "rows": {"type": "array"}}});
        let (params, repairs) =
            repaired(schema, json!({"unit": null, "value": null, "rows": [null]}));
        assert_eq!(params, json!({"value": null, "rows": [null]}));
        assert_eq!(
            repairs,
            vec!["/unit: null removed (the property is optional)"]
        );
    }

    #[test]
    fn the_same_fix_on_many_rows_is_reported_once_with_a_count() {
        let schema = json!({"properties": {"rows": {"type": "array", "items": {"type": "object",
            "properties": {"age": {"type": "number"}}}}}});
        let rows: Vec<Value> = (0..500).map(|i| json!({"age": i.to_string()})).collect();
        let (params, repairs) = repaired(schema, json!({"rows": rows}));
        assert_eq!(params["rows"][499]["age"], json!(499));
        assert_eq!(
            repairs,
            vec!["/rows/*/age: strings converted to integers (500 values)"]
        );
    }

    #[test]
    fn any_of_branches_are_repaired_by_the_branch_matching_the_value_type() {
        let schema = json!({"properties": {"trend": {"anyOf": [
            {"type": "string", "enum": ["up", "down"]},
            {"type": "object", "properties": {"direction": {"enum": ["up", "down"]}}}]}}});
        let (params, _) = repaired(schema.clone(), json!({"trend": "UP"}));
        assert_eq!(params, json!({"trend": "up"}));
        let (params, _) = repaired(schema, json!({"trend": {"direction": "Down"}}));
        assert_eq!(params, json!({"trend": {"direction": "down"}}));
    }
}
