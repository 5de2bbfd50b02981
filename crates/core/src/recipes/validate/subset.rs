//! A small JSON Schema (draft 2020-12) validator for the keywords the recipes and the built-in tools
//! use, giving the same details as the `jsonschema` validator (same errors, same order, same
//! messages) so the app need not ship `jsonschema` for them. [`supports`] says whether a schema stays
//! within that subset; anything else goes to the full validator (`validate::compact`).
//!
//! The order follows `jsonschema`'s: cheap keywords first ([`priority`]), with its two fusions
//! (`additionalProperties` checking `properties` and, with a single name, `required`; an array's `items`
//! checking `type`, `minItems` and `maxItems` first). `tests/validator_differential.rs` holds the two
//! to the same answers.

use serde_json::{Map, Value};

use crate::recipes::validate::{At, Detail, MAX_DETAILS, child, preview};

/// Runs the `pattern` keyword: ECMA-262 regular expressions, as JSON Schema defines them (the
/// browser's `RegExp` in the app).
pub trait Patterns {
    /// Whether `text` matches `pattern` anywhere; `None` when the pattern does not compile.
    fn is_match(&self, pattern: &str, text: &str) -> Option<bool>;
}

/// How many keywords can fail (each has a [`priority`]).
const FAILING: usize = 22;

/// Where a keyword that can fail comes in the order `jsonschema` checks them (its
/// `keyword_priority`); `None` for the others. One `match`, as it runs for every keyword of every
/// schema node the data reaches.
fn priority(keyword: &str) -> Option<usize> {
    Some(match keyword {
        "type" => 0,
        "const" => 1,
        "enum" => 2,
        "minimum" => 3,
        "maximum" => 4,
        "exclusiveMinimum" => 5,
        "exclusiveMaximum" => 6,
        "minLength" => 7,
        "maxLength" => 8,
        "minItems" => 9,
        "maxItems" => 10,
        "minProperties" => 11,
        "maxProperties" => 12,
        "required" => 13,
        "pattern" => 14,
        "properties" => 15,
        "additionalProperties" => 16,
        "items" => 17,
        "prefixItems" => 18,
        "allOf" => 19,
        "anyOf" => 20,
        "oneOf" => 21,
        _ => return None,
    })
}
/// Keywords that never fail validation.
const ANNOTATIONS: &[&str] = &["description", "title", "default", "examples", "$comment"];
const TYPES: &[&str] = &["null", "boolean", "object", "array", "number", "string", "integer"];

/// Whether `schema` uses only keywords this validator implements, each with a well-formed value
/// (a malformed one is left to the full validator, which reports why it does not compile).
pub fn supports(schema: &Value, patterns: &dyn Patterns) -> bool {
    let map = match schema {
        Value::Bool(_) => return true,
        Value::Object(map) => map,
        _ => return false,
    };
    let schemas = |value: &Value| {
        value
            .as_array()
            .is_some_and(|list| !list.is_empty() && list.iter().all(|item| supports(item, patterns)))
    };
    map.iter().all(|(keyword, value)| match keyword.as_str() {
        "type" => match value {
            Value::String(name) => TYPES.contains(&name.as_str()),
            Value::Array(names) => {
                !names.is_empty()
                    && names.iter().all(|name| name.as_str().is_some_and(|name| TYPES.contains(&name)))
            }
            _ => false,
        },
        "properties" => value
            .as_object()
            .is_some_and(|properties| properties.values().all(|item| supports(item, patterns))),
        "additionalProperties" | "items" => supports(value, patterns),
        "prefixItems" | "anyOf" | "oneOf" | "allOf" => schemas(value),
        "required" => value.as_array().is_some_and(|names| names.iter().all(Value::is_string)),
        "enum" => value.as_array().is_some_and(|options| !options.is_empty()),
        "const" => true,
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => value.is_number(),
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties" => {
            value.is_u64()
        }
        "pattern" => value.as_str().is_some_and(|pattern| patterns.is_match(pattern, "").is_some()),
        other => ANNOTATIONS.contains(&other),
    })
}

/// Every violation of `schema` (which [`supports`] accepts) by `instance`, at most [`MAX_DETAILS`]
/// plus one counting the rest; empty when it is valid.
pub fn validate(schema: &Value, instance: &Value, patterns: &dyn Patterns) -> Vec<Detail> {
    let mut errors = Vec::new();
    Run { patterns }.check(schema, instance, &At::Root, &mut errors);
    let total = errors.len();
    let mut details: Vec<Detail> = Vec::new();
    for error in errors {
        if details.len() >= MAX_DETAILS {
            break;
        }
        details.extend(error);
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

/// One error as its details (several for one `additionalProperties` error naming several keys).
type Error = Vec<Detail>;

struct Run<'r> {
    patterns: &'r dyn Patterns,
}

impl Run<'_> {
    fn check(&self, schema: &Value, instance: &Value, at: &At, out: &mut Vec<Error>) {
        let map = match schema {
            Value::Object(map) => map,
            Value::Bool(false) => {
                return out.push(one(at, format!("False schema does not allow {instance}")));
            }
            _ => return,
        };
        let closed = matches!(map.get("additionalProperties"), Some(Value::Bool(false) | Value::Object(_)));
        let fused_required = closed && required_fused(map);
        let array_shape = array_shape(map);
        // The schema's keywords that can fail, in priority order, from one pass over its keys.
        let mut ordered: [Option<(&str, &Value)>; FAILING] = [None; FAILING];
        for (keyword, value) in map {
            if let Some(rank) = priority(keyword) {
                ordered[rank] = Some((keyword.as_str(), value));
            }
        }
        for (keyword, value) in ordered.into_iter().flatten() {
            match keyword {
                "type" if array_shape => {}
                "minItems" | "maxItems" if array_shape => {}
                "properties" if closed => {}
                "required" if fused_required => {}
                "items" if array_shape => self.array(map, value, instance, at, out),
                "additionalProperties" if closed => self.object(map, value, fused_required, instance, at, out),
                "additionalProperties" => {}
                _ => self.keyword(map, keyword, value, instance, at, out),
            }
        }
    }

    /// One keyword outside the fusions.
    fn keyword(&self, map: &Map<String, Value>, keyword: &str, value: &Value, instance: &Value, at: &At, out: &mut Vec<Error>) {
        match keyword {
            "type" if !has_type(value, instance) => out.push(type_error(map, instance, at)),
            "properties" => {
                if let (Some(properties), Some(object)) = (value.as_object(), instance.as_object()) {
                    for (key, item) in object {
                        if let Some(subschema) = properties.get(key) {
                            self.check(subschema, item, &At::Key(at, key), out);
                        }
                    }
                }
            }
            "required" => self.required(value, instance, at, out),
            "items" => {
                if let Some(items) = instance.as_array() {
                    let skip = map.get("prefixItems").and_then(Value::as_array).map_or(0, Vec::len);
                    for (index, item) in items.iter().enumerate().skip(skip) {
                        self.check(value, item, &At::Index(at, index), out);
                    }
                }
            }
            "prefixItems" => {
                if let (Some(prefix), Some(items)) = (value.as_array(), instance.as_array()) {
                    for (index, (subschema, item)) in prefix.iter().zip(items).enumerate() {
                        self.check(subschema, item, &At::Index(at, index), out);
                    }
                }
            }
            "enum" => {
                let options = value.as_array().map(Vec::as_slice).unwrap_or_default();
                if !options.iter().any(|option| equal(option, instance)) {
                    out.push(one(at, format!("{} is not allowed; use one of: {}", preview(instance), list(options))));
                }
            }
            "const" if !equal(value, instance) => out.push(one(at, format!("must be {value}"))),
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
                if let (Some(limit), Some(number)) = (value.as_f64(), instance.as_f64()) {
                    let message = match keyword {
                        "minimum" if number < limit => "is less than the minimum of",
                        "maximum" if number > limit => "is greater than the maximum of",
                        "exclusiveMinimum" if number <= limit => "is less than or equal to the minimum of",
                        "exclusiveMaximum" if number >= limit => "is greater than or equal to the maximum of",
                        _ => return,
                    };
                    out.push(one(at, format!("{instance} {message} {value}")));
                }
            }
            "minLength" | "maxLength" => {
                if let (Some(limit), Some(text)) = (value.as_u64(), instance.as_str()) {
                    let length = text.chars().count() as u64;
                    let plural = if limit == 1 { "" } else { "s" };
                    if keyword == "minLength" && length < limit {
                        out.push(one(at, format!("{instance} is shorter than {limit} character{plural}")));
                    } else if keyword == "maxLength" && length > limit {
                        out.push(one(at, format!("{instance} is longer than {limit} character{plural}")));
                    }
                }
            }
            "minItems" | "maxItems" => {
                if let (Some(limit), Some(items)) = (value.as_u64(), instance.as_array()) {
                    self.item_count(keyword == "minItems", limit, items.len(), at, out);
                }
            }
            "minProperties" | "maxProperties" => {
                if let (Some(limit), Some(object)) = (value.as_u64(), instance.as_object()) {
                    let count = object.len() as u64;
                    let plural = if limit == 1 { "y" } else { "ies" };
                    if keyword == "minProperties" && count < limit {
                        out.push(one(at, format!("{instance} has less than {limit} propert{plural}")));
                    } else if keyword == "maxProperties" && count > limit {
                        out.push(one(at, format!("{instance} has more than {limit} propert{plural}")));
                    }
                }
            }
            "pattern" => {
                if let (Some(pattern), Some(text)) = (value.as_str(), instance.as_str())
                    && self.patterns.is_match(pattern, text) == Some(false)
                {
                    out.push(one(at, format!("{instance} does not match \"{pattern}\"")));
                }
            }
            "anyOf" | "oneOf" => self.choice(keyword == "oneOf", value, instance, at, out),
            "allOf" => {
                for subschema in value.as_array().map(Vec::as_slice).unwrap_or_default() {
                    self.check(subschema, instance, at, out);
                }
            }
            _ => {}
        }
    }

    /// `additionalProperties` with the `properties` it covers and, when fused, `required`: the
    /// members in order, then the unexpected ones, then the missing required ones.
    fn object(&self, map: &Map<String, Value>, extra: &Value, fused_required: bool, instance: &Value, at: &At, out: &mut Vec<Error>) {
        let Some(object) = instance.as_object() else { return };
        let properties = map.get("properties").and_then(Value::as_object);
        let mut unexpected = Vec::new();
        for (key, item) in object {
            match properties.and_then(|properties| properties.get(key)) {
                Some(subschema) => self.check(subschema, item, &At::Key(at, key), out),
                None if *extra == Value::Bool(false) => unexpected.push(key.as_str()),
                None => self.check(extra, item, &At::Key(at, key), out),
            }
        }
        if !unexpected.is_empty() {
            let allowed = properties
                .map(|properties| properties.keys().map(String::as_str).collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            let path = at.pointer();
            out.push(
                unexpected
                    .iter()
                    .map(|key| Detail {
                        path: child(&path, key),
                        message: format!("unknown property \"{key}\"; allowed properties: {allowed}"),
                    })
                    .collect(),
            );
        }
        if fused_required {
            self.required(&map["required"], instance, at, out);
        }
    }

    fn required(&self, names: &Value, instance: &Value, at: &At, out: &mut Vec<Error>) {
        let Some(object) = instance.as_object() else { return };
        for name in names.as_array().map(Vec::as_slice).unwrap_or_default() {
            let name = name.as_str().unwrap_or_default();
            if !object.contains_key(name) {
                out.push(vec![Detail {
                    path: child(&at.pointer(), name),
                    message: format!("required property \"{name}\" is missing"),
                }]);
            }
        }
    }

    /// An array's `items` with the `type`, `minItems` and `maxItems` it covers.
    fn array(&self, map: &Map<String, Value>, items: &Value, instance: &Value, at: &At, out: &mut Vec<Error>) {
        let Some(array) = instance.as_array() else {
            return out.push(type_error(map, instance, at));
        };
        if let Some(limit) = map.get("minItems").and_then(Value::as_u64) {
            self.item_count(true, limit, array.len(), at, out);
        }
        if let Some(limit) = map.get("maxItems").and_then(Value::as_u64) {
            self.item_count(false, limit, array.len(), at, out);
        }
        for (index, item) in array.iter().enumerate() {
            self.check(items, item, &At::Index(at, index), out);
        }
    }

    fn item_count(&self, minimum: bool, limit: u64, count: usize, at: &At, out: &mut Vec<Error>) {
        if minimum && (count as u64) < limit {
            out.push(one(at, format!("needs at least {limit} item(s), got {count}")));
        } else if !minimum && (count as u64) > limit {
            out.push(one(at, format!("takes at most {limit} item(s), got {count}")));
        }
    }

    /// `anyOf`, or `oneOf`: the first error of each branch when none matches.
    fn choice(&self, exactly_one: bool, branches: &Value, instance: &Value, at: &At, out: &mut Vec<Error>) {
        let branches = branches.as_array().map(Vec::as_slice).unwrap_or_default();
        let mut firsts = Vec::new();
        let mut matched = 0;
        for branch in branches {
            let mut errors = Vec::new();
            self.check(branch, instance, at, &mut errors);
            match errors.into_iter().next() {
                Some(first) => firsts.push(first),
                None => matched += 1,
            }
        }
        if matched == 0 {
            let options: Vec<String> =
                firsts.iter().flatten().map(|detail| format!("{} at \"{}\"", detail.message, detail.path)).collect();
            out.push(one(at, format!("matches none of the accepted forms: {}", options.join("; or "))));
        } else if exactly_one && matched > 1 {
            out.push(one(
                at,
                format!("{instance} is valid under more than one of the schemas listed in the 'oneOf' keyword"),
            ));
        }
    }
}

fn one(at: &At, message: String) -> Error {
    vec![Detail { path: at.pointer(), message }]
}

/// `jsonschema` checks `type`, `minItems`, `maxItems` and `items` of an array in one step when the
/// schema says `type: "array"` and `items` is a schema (not `true`), without the other array keywords.
fn array_shape(map: &Map<String, Value>) -> bool {
    matches!(map.get("items"), Some(Value::Object(_) | Value::Bool(false)))
        && map.get("type").and_then(Value::as_str) == Some("array")
        && !map.contains_key("prefixItems")
}

/// `jsonschema` checks a single `required` name with `additionalProperties: false` and `properties`.
fn required_fused(map: &Map<String, Value>) -> bool {
    matches!(map.get("required"), Some(Value::Array(required)) if required.len() == 1 && required[0].is_string())
        && map.get("properties").is_some_and(Value::is_object)
        && map.get("additionalProperties") == Some(&Value::Bool(false))
}

fn type_error(map: &Map<String, Value>, instance: &Value, at: &At) -> Error {
    let expected = match map.get("type") {
        Some(Value::String(single)) => single.clone(),
        Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" or "),
        _ => "another type".to_owned(),
    };
    let hint = map
        .get("description")
        .and_then(Value::as_str)
        .map(|description| format!(" ({description})"))
        .unwrap_or_default();
    one(at, format!("expected {expected}, got {}{hint}", preview(instance)))
}

fn has_type(expected: &Value, instance: &Value) -> bool {
    let is = |name: &str| match name {
        "null" => instance.is_null(),
        "boolean" => instance.is_boolean(),
        "object" => instance.is_object(),
        "array" => instance.is_array(),
        "number" => instance.is_number(),
        "string" => instance.is_string(),
        "integer" => instance.is_i64() || instance.is_u64() || instance.as_f64().is_some_and(|n| n.fract() == 0.0),
        _ => false,
    };
    match expected {
        Value::String(name) => is(name),
        Value::Array(names) => names.iter().filter_map(Value::as_str).any(is),
        _ => true,
    }
}

/// JSON equality as JSON Schema defines it: numbers by value (`1` equals `1.0`).
fn equal(left: &Value, right: &Value) -> bool {
    match (left, right) {
        (Value::Number(a), Value::Number(b)) => a == b || a.as_f64() == b.as_f64(),
        (Value::Array(a), Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(a, b)| equal(a, b)),
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(key, value)| b.get(key).is_some_and(|other| equal(value, other)))
        }
        _ => left == right,
    }
}

fn list(options: &[Value]) -> String {
    options.iter().map(Value::to_string).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    struct Compiles;

    impl Patterns for Compiles {
        fn is_match(&self, _pattern: &str, _text: &str) -> Option<bool> {
            Some(true)
        }
    }

    #[test]
    fn every_keyword_that_can_fail_is_supported_and_ranked_in_jsonschemas_order() {
        let keywords = [
            ("type", json!("string")),
            ("const", json!(1)),
            ("enum", json!([1])),
            ("minimum", json!(1)),
            ("maximum", json!(1)),
            ("exclusiveMinimum", json!(1)),
            ("exclusiveMaximum", json!(1)),
            ("minLength", json!(1)),
            ("maxLength", json!(1)),
            ("minItems", json!(1)),
            ("maxItems", json!(1)),
            ("minProperties", json!(1)),
            ("maxProperties", json!(1)),
            ("required", json!(["a"])),
            ("pattern", json!("^a")),
            ("properties", json!({"a": {}})),
            ("additionalProperties", json!(false)),
            ("items", json!({})),
            ("prefixItems", json!([{}])),
            ("allOf", json!([{}])),
            ("anyOf", json!([{}])),
            ("oneOf", json!([{}])),
        ];
        let mut ranks = Vec::new();
        for (keyword, value) in keywords {
            let schema = Value::Object(Map::from_iter([(keyword.to_owned(), value)]));
            assert!(supports(&schema, &Compiles), "{keyword}");
            ranks.push(priority(keyword).unwrap_or_else(|| panic!("{keyword} has no priority")));
        }
        assert_eq!(ranks, (0..FAILING).collect::<Vec<_>>());
        for annotation in ANNOTATIONS {
            assert_eq!(priority(annotation), None, "{annotation}");
        }
    }
}
