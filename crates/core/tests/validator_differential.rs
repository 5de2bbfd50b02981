//! The app's compact validator (`recipes::validate::subset`) against `jsonschema`, the oracle: over
//! every recipe example, every built-in tool's schema and a few schemas using the rest of the subset,
//! with invalid cases generated from them (each value replaced by values of every other type, out of
//! range, outside its enum or pattern; members removed and added; arrays emptied, grown and nested;
//! then random mixes of those), both must give the same verdict with the same details, in the same
//! order: the same paths and the same messages the model reads.

use std::rc::Rc;
use std::sync::Arc;

use autoui_core::recipes::registry;
use autoui_core::recipes::validate::SchemaValidator;
use autoui_core::recipes::validate::in_process::JsonSchemaValidator;
use autoui_core::recipes::validate::subset::{self, Patterns};
use autoui_core::samples::Samples;
use autoui_core::tool::LocalServer;
use serde_json::{Value, json};

/// `pattern` with the `regex` crate (the same answers as ECMA-262 for the patterns tested here).
struct Regex;

impl Patterns for Regex {
    fn is_match(&self, pattern: &str, text: &str) -> Option<bool> {
        regex::Regex::new(pattern).ok().map(|regex| regex.is_match(text))
    }
}

/// Values put in place of each value of an example: every type, edges of ranges, near misses.
fn replacements() -> Vec<Value> {
    vec![
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(1e9),
        json!(""),
        json!("x"),
        json!("not-an-option"),
        json!("12px"),
        json!("#zz"),
        json!([]),
        json!([1]),
        json!(["a", "b", "c"]),
        json!({}),
        json!({"zz": 1}),
    ]
}

/// Every JSON Pointer in `value`, the root included.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                pointers(item, format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")), out);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                pointers(item, format!("{at}/{index}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// One change to an instance.
#[derive(Clone, Debug)]
enum Change {
    Replace(String, Value),
    Remove(String),
    AddMember(String, &'static str),
    Push(String),
    Nest(String),
}

fn changes(instance: &Value) -> Vec<Change> {
    let mut at = Vec::new();
    pointers(instance, String::new(), &mut at);
    let mut changes = Vec::new();
    for pointer in at {
        for value in replacements() {
            changes.push(Change::Replace(pointer.clone(), value));
        }
        if !pointer.is_empty() {
            changes.push(Change::Remove(pointer.clone()));
        }
        match instance.pointer(&pointer) {
            Some(Value::Object(_)) => {
                changes.push(Change::AddMember(pointer.clone(), "unknown"));
                changes.push(Change::AddMember(pointer.clone(), "Aardvark"));
            }
            Some(Value::Array(_)) => {
                changes.push(Change::Push(pointer.clone()));
                changes.push(Change::Nest(pointer.clone()));
            }
            _ => {}
        }
    }
    changes
}

fn apply(instance: &mut Value, change: &Change) {
    match change {
        Change::Replace(pointer, value) => {
            if let Some(target) = instance.pointer_mut(pointer) {
                *target = value.clone();
            }
        }
        Change::Remove(pointer) => {
            let (parent, last) = pointer.rsplit_once('/').unwrap_or_default();
            match instance.pointer_mut(parent) {
                Some(Value::Object(map)) => {
                    map.remove(&last.replace("~1", "/").replace("~0", "~"));
                }
                Some(Value::Array(items)) => {
                    if let Ok(index) = last.parse::<usize>()
                        && index < items.len()
                    {
                        items.remove(index);
                    }
                }
                _ => {}
            }
        }
        Change::AddMember(pointer, key) => {
            if let Some(Value::Object(map)) = instance.pointer_mut(pointer) {
                map.insert((*key).to_owned(), json!("extra"));
            }
        }
        Change::Push(pointer) => {
            if let Some(Value::Array(items)) = instance.pointer_mut(pointer) {
                let copy = items.first().cloned().unwrap_or(json!(7));
                items.push(copy);
            }
        }
        Change::Nest(pointer) => {
            if let Some(Value::Array(items)) = instance.pointer_mut(pointer)
                && let Some(first) = items.first_mut()
            {
                *first = json!([first.clone()]);
            }
        }
    }
}

/// A small deterministic generator, so a failure names a case that can be run again.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % bound as u64) as usize
    }
}

/// Both validators on one case: the same answer, detail for detail; returns whether it was invalid.
fn same_answer(oracle: &JsonSchemaValidator, schema: &Arc<Value>, instance: &Value, case: &str) -> bool {
    let expected = oracle.validate(schema, instance).expect("the oracle compiles every schema tested");
    let got = subset::validate(schema, instance, &Regex);
    assert_eq!(got, expected, "{case}\ninstance: {instance}");
    !expected.is_empty()
}

/// Every single change to `example`, then `mixes` random mixes of two to five changes.
fn check_around(schema: &Arc<Value>, example: &Value, mixes: usize, name: &str) -> usize {
    let oracle = JsonSchemaValidator::default();
    assert!(subset::supports(schema, &Regex), "{name}: the schema is outside the subset");
    same_answer(&oracle, schema, example, &format!("{name}: the example itself"));
    let all = changes(example);
    let mut invalid = 0;
    for change in &all {
        let mut instance = example.clone();
        apply(&mut instance, change);
        invalid += usize::from(same_answer(&oracle, schema, &instance, &format!("{name}: {change:?}")));
    }
    let mut random = XorShift(0x9e37_79b9_7f4a_7c15 ^ name.len() as u64);
    for mix in 0..mixes {
        let mut instance = example.clone();
        let picked: Vec<&Change> = (0..2 + random.below(4)).map(|_| &all[random.below(all.len())]).collect();
        for change in &picked {
            apply(&mut instance, change);
        }
        invalid += usize::from(same_answer(&oracle, schema, &instance, &format!("{name}: mix {mix} {picked:?}")));
    }
    invalid
}

#[test]
fn every_recipe_example_and_its_variants_get_the_oracles_details() {
    let mut invalid = 0;
    for recipe in registry().all() {
        assert!(!recipe.examples.is_empty(), "{}", recipe.name());
        for (index, example) in recipe.examples.iter().enumerate() {
            let name = format!("{} example {}", recipe.name(), index + 1);
            invalid += check_around(&recipe.schema, example, 100, &name);
        }
    }
    // The cases must really be invalid ones, most of them.
    assert!(invalid > 10_000, "only {invalid} invalid cases");
}

#[test]
fn every_built_in_tool_schema_gets_the_oracles_details() {
    let samples = Samples::new(Rc::new(JsonSchemaValidator::default()));
    let arguments = json!({"query": "sales", "name": "sales-dashboard", "region": "north", "limit": 5});
    for tool in samples.tools() {
        let schema = Arc::new(tool.input_schema.clone());
        let mut example = json!({});
        for key in schema["properties"].as_object().into_iter().flat_map(|properties| properties.keys()) {
            example[key] = arguments.get(key).cloned().unwrap_or(json!("x"));
        }
        check_around(&schema, &example, 100, &tool.name);
    }
}

#[test]
fn the_rest_of_the_subset_gets_the_oracles_details() {
    let schemas = [
        (
            json!({"type": "object", "minProperties": 1, "maxProperties": 2, "properties": {
                "code": {"type": "string", "minLength": 2, "maxLength": 4, "pattern": "^[A-Z]+$"},
                "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
                "kind": {"const": "fixed"}}}),
            json!({"code": "AB", "ratio": 0.5}),
        ),
        (
            json!({"type": "object", "additionalProperties": {"type": "integer", "minimum": 1},
                "properties": {"name": {"type": ["string", "null"]}}, "required": ["name", "id"]}),
            json!({"name": "a", "id": 3, "count": 2}),
        ),
        (
            json!({"oneOf": [{"type": "string"}, {"type": "integer"}, {"type": "number", "maximum": 10}]}),
            json!("text"),
        ),
        (
            json!({"type": "object", "properties": {"rows": {"type": "array", "maxItems": 3, "items": {
                "allOf": [{"type": "object", "required": ["a"]}, {"properties": {"a": {"enum": [1, 2.0, "three"]}}}]}}}}),
            json!({"rows": [{"a": 1}, {"a": 2}]}),
        ),
        (
            json!({"type": "object", "additionalProperties": false, "required": ["a", "b"],
                "properties": {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": "boolean"}}}),
            json!({"a": "x", "b": 1, "c": true}),
        ),
        (
            json!({"type": "array", "items": false, "prefixItems": [{"type": "string"}], "minItems": 1}),
            json!(["x"]),
        ),
        (
            json!({"properties": {"a": {"type": "string"}, "b": {"minimum": 2}}, "required": ["a", "b"]}),
            json!({"a": "x", "b": 3}),
        ),
        (
            json!({"type": "object", "additionalProperties": false, "required": ["a", "b"],
                "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}),
            json!({"a": "x", "b": 1}),
        ),
    ];
    for (index, (schema, example)) in schemas.into_iter().enumerate() {
        check_around(&Arc::new(schema), &example, 200, &format!("schema {index}"));
    }
}

#[test]
fn keywords_outside_the_subset_are_left_to_the_full_validator() {
    for schema in [
        json!({"type": "string", "format": "email"}),
        json!({"$ref": "#/$defs/a", "$defs": {"a": {}}}),
        json!({"patternProperties": {"^a": {}}}),
        json!({"type": "no-such-type"}),
        json!({"properties": {"deep": {"items": {"uniqueItems": true}}}}),
        json!({"pattern": "(["}),
    ] {
        assert!(!subset::supports(&schema, &Regex), "{schema}");
    }
}
