//! Reads a widget's JSON data field by field. Serde's derive writes a visitor for every type it reads,
//! and some fifty widget types made that code a large part of the views chunk (27.5 KB gzip); with this
//! shared reader a type costs a call per field, and only the list and text-or-object helpers are
//! instantiated per item type. Every field is optional: missing and `null` read
//! as absent (an empty list for lists), and a value of the wrong kind is refused with its path and what
//! was expected, e.g. `buttons[2].label: expected text, found a number`.

use std::fmt;

use serde_json::{Map, Value};

use crate::view::present::display_value;

/// Why a widget's data could not be read: where, and what was wrong there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// `label`, `buttons[2].label`; empty for the data itself.
    pub path: String,
    pub problem: String,
}

impl FieldError {
    /// `problem` at the field `key`.
    pub fn at(key: &str, problem: String) -> FieldError {
        FieldError { path: key.to_owned(), problem }
    }

    /// The same error seen from the object holding the field `key`.
    fn inside(self, key: &str) -> FieldError {
        let path = match self.path.is_empty() {
            true => key.to_owned(),
            false => format!("{key}.{}", self.path),
        };
        FieldError { path, problem: self.problem }
    }

    /// The same error seen from the object holding the list `key`, as its item `index`.
    fn in_item(self, key: &str, index: usize) -> FieldError {
        let path = match self.path.is_empty() {
            true => format!("{key}[{index}]"),
            false => format!("{key}[{index}].{}", self.path),
        };
        FieldError { path, problem: self.problem }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.path.is_empty() {
            true => f.write_str(&self.problem),
            false => write!(f, "{}: {}", self.path, self.problem),
        }
    }
}

impl From<FieldError> for String {
    fn from(error: FieldError) -> String {
        error.to_string()
    }
}

pub type Read<T> = Result<T, FieldError>;

/// An object's fields, ready to be read one by one.
#[derive(Clone, Copy)]
pub struct Fields<'a> {
    map: Option<&'a Map<String, Value>>,
}

impl<'a> Fields<'a> {
    /// The fields of `data`, which must be an object; `null` reads as an object with no fields.
    pub fn of(data: &'a Value) -> Read<Fields<'a>> {
        match data {
            Value::Object(map) => Ok(Fields { map: Some(map) }),
            Value::Null => Ok(Fields { map: None }),
            other => Err(FieldError::at("", expected("an object", other))),
        }
    }

    /// The field's value, `None` when it is missing or `null`.
    pub fn value(&self, key: &str) -> Option<&'a Value> {
        self.map?.get(key).filter(|value| !value.is_null())
    }

    /// A field of any kind that must be there.
    pub fn required_value(&self, key: &str) -> Read<&'a Value> {
        self.value(key).ok_or_else(|| FieldError::at(key, "missing".to_owned()))
    }

    /// A text field.
    pub fn text(&self, key: &str) -> Read<Option<String>> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.clone())),
            Some(other) => Err(FieldError::at(key, expected("text", other))),
        }
    }

    /// A text field that also takes a number or a boolean, as display text (`12480` reads as `12,480`):
    /// the model sometimes sends a figure where the recipe asks for text.
    pub fn scalar_text(&self, key: &str) -> Read<Option<String>> {
        match self.value(key) {
            None => Ok(None),
            Some(value @ (Value::String(_) | Value::Number(_) | Value::Bool(_))) => Ok(Some(display_value(value))),
            Some(other) => Err(FieldError::at(key, expected("text", other))),
        }
    }

    /// A text field that must be there.
    pub fn required_text(&self, key: &str) -> Read<String> {
        self.text(key)?.ok_or_else(|| FieldError::at(key, "missing".to_owned()))
    }

    /// A field naming one of `words` (an enum's variants), as its index in `words`.
    pub fn one_of(&self, key: &str, words: &[&str]) -> Read<Option<usize>> {
        let Some(word) = self.text(key)? else { return Ok(None) };
        match words.iter().position(|known| *known == word) {
            Some(index) => Ok(Some(index)),
            None => Err(FieldError::at(key, format!("expected one of {}", words.join(", ")))),
        }
    }

    /// A number field.
    pub fn number(&self, key: &str) -> Read<Option<f64>> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Number(number)) => Ok(number.as_f64()),
            Some(other) => Err(FieldError::at(key, expected("a number", other))),
        }
    }

    /// A field holding a whole number, zero or more.
    pub fn count(&self, key: &str) -> Read<Option<u64>> {
        match self.value(key) {
            None => Ok(None),
            Some(value) => match value.as_u64() {
                Some(count) => Ok(Some(count)),
                None => Err(FieldError::at(key, expected("a whole number, zero or more", value))),
            },
        }
    }

    /// A whole number field that must be there.
    pub fn required_count(&self, key: &str) -> Read<u64> {
        self.count(key)?.ok_or_else(|| FieldError::at(key, "missing".to_owned()))
    }

    /// A true/false field.
    pub fn flag(&self, key: &str) -> Read<Option<bool>> {
        match self.value(key) {
            None => Ok(None),
            Some(Value::Bool(flag)) => Ok(Some(*flag)),
            Some(other) => Err(FieldError::at(key, expected("true or false", other))),
        }
    }

    /// A list field, empty when missing.
    pub fn list(&self, key: &str) -> Read<&'a [Value]> {
        match self.value(key) {
            None => Ok(&[]),
            Some(Value::Array(items)) => Ok(items),
            Some(other) => Err(FieldError::at(key, expected("a list", other))),
        }
    }

    /// A list of texts, empty when missing.
    pub fn texts(&self, key: &str) -> Read<Vec<String>> {
        let mut texts = Vec::new();
        for (index, item) in self.list(key)?.iter().enumerate() {
            match item {
                Value::String(text) => texts.push(text.clone()),
                other => return Err(FieldError::at("", expected("text", other)).in_item(key, index)),
            }
        }
        Ok(texts)
    }

    /// A list of objects, each read by `read`; an item's error names its place in the list.
    pub fn items<T>(&self, key: &str, read: fn(Fields<'a>) -> Read<T>) -> Read<Vec<T>> {
        let list = self.list(key)?;
        let mut items = Vec::with_capacity(list.len());
        for (index, item) in list.iter().enumerate() {
            items.push(Fields::of(item).and_then(read).map_err(|error| error.in_item(key, index))?);
        }
        Ok(items)
    }

    /// A field given either as text or as an object (a badge as `"Active"` or `{"text": "Active",
    /// "variant": "success"}`); `None` when missing.
    pub fn text_or_object<T>(&self, key: &str, text: fn(&str) -> T, object: fn(Fields<'a>) -> Read<T>) -> Read<Option<T>> {
        self.value(key)
            .map(|value| text_or_object(value, text, object).map_err(|error| error.inside(key)))
            .transpose()
    }

    /// A list whose items are each text or an object, as [`Fields::text_or_object`]; empty when missing.
    pub fn items_text_or_object<T>(&self, key: &str, text: fn(&str) -> T, object: fn(Fields<'a>) -> Read<T>) -> Read<Vec<T>> {
        let list = self.list(key)?;
        let mut items = Vec::with_capacity(list.len());
        for (index, item) in list.iter().enumerate() {
            items.push(text_or_object(item, text, object).map_err(|error| error.in_item(key, index))?);
        }
        Ok(items)
    }
}

fn text_or_object<'a, T>(value: &'a Value, text: fn(&str) -> T, object: fn(Fields<'a>) -> Read<T>) -> Read<T> {
    match value {
        Value::String(word) => Ok(text(word)),
        Value::Object(map) => object(Fields { map: Some(map) }),
        other => Err(FieldError::at("", expected("text or an object", other))),
    }
}

/// "expected text, found a number", naming the kind of value found and never quoting it: the data may
/// be long or hostile, and the path already says where to look.
pub fn expected(what: &str, found: &Value) -> String {
    format!("expected {what}, found {}", kind(found))
}

/// A value's kind in words.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, PartialEq)]
    struct Button {
        label: String,
        primary: bool,
        tags: Vec<String>,
    }

    fn button(fields: Fields<'_>) -> Read<Button> {
        Ok(Button {
            label: fields.required_text("label")?,
            primary: fields.flag("primary")?.unwrap_or(false),
            tags: fields.texts("tags")?,
        })
    }

    fn buttons(data: &Value) -> Result<Vec<Button>, String> {
        Ok(Fields::of(data)?.items("buttons", button)?)
    }

    #[test]
    fn missing_and_null_fields_read_as_absent() {
        let data = json!({"title": null});
        let fields = Fields::of(&data).unwrap();
        assert_eq!(fields.text("title"), Ok(None));
        assert_eq!(fields.text("subtitle"), Ok(None));
        assert_eq!(fields.number("max"), Ok(None));
        assert_eq!(fields.list("rows"), Ok(&[][..]));
        assert_eq!(Fields::of(&Value::Null).unwrap().flag("on"), Ok(None));
    }

    #[test]
    fn fields_of_the_right_kind_are_read() {
        let data = json!({
            "title": "Sales", "max": 2.5, "rows": 3, "on": true, "tags": ["a", "b"], "figure": 12480, "figured": "12,480"
        });
        let fields = Fields::of(&data).unwrap();
        assert_eq!(fields.text("title"), Ok(Some("Sales".to_owned())));
        assert_eq!(fields.number("max"), Ok(Some(2.5)));
        assert_eq!(fields.count("rows"), Ok(Some(3)));
        assert_eq!(fields.required_count("rows"), Ok(3));
        assert_eq!(fields.required_count("cols").unwrap_err().to_string(), "cols: missing");
        assert_eq!(fields.required_value("on"), Ok(&json!(true)));
        assert_eq!(fields.required_value("off").unwrap_err().to_string(), "off: missing");
        assert_eq!(fields.flag("on"), Ok(Some(true)));
        assert_eq!(fields.texts("tags"), Ok(vec!["a".to_owned(), "b".to_owned()]));
        assert_eq!(fields.scalar_text("figure"), Ok(Some("12,480".to_owned())));
        assert_eq!(fields.scalar_text("figured"), Ok(Some("12,480".to_owned())));
        assert_eq!(fields.scalar_text("on"), Ok(Some("true".to_owned())));
        assert_eq!(fields.scalar_text("none"), Ok(None));
    }

    #[test]
    fn a_wrong_kind_is_refused_with_its_path_and_what_was_expected() {
        let data = json!({
            "title": 3, "max": "high", "rows": -1, "on": "yes", "tags": ["a", 2], "figure": [1], "figured": {"a": 1}
        });
        let fields = Fields::of(&data).unwrap();
        assert_eq!(fields.text("title").unwrap_err().to_string(), "title: expected text, found a number");
        assert_eq!(fields.number("max").unwrap_err().to_string(), "max: expected a number, found text");
        assert_eq!(
            fields.count("rows").unwrap_err().to_string(),
            "rows: expected a whole number, zero or more, found a number"
        );
        assert_eq!(fields.flag("on").unwrap_err().to_string(), "on: expected true or false, found text");
        assert_eq!(fields.texts("tags").unwrap_err().to_string(), "tags[1]: expected text, found a number");
        assert_eq!(fields.scalar_text("figure").unwrap_err().to_string(), "figure: expected text, found a list");
        assert_eq!(fields.scalar_text("figured").unwrap_err().to_string(), "figured: expected text, found an object");
        assert_eq!(Fields::of(&json!([1])).err().unwrap().to_string(), "expected an object, found a list");
    }

    #[test]
    fn a_word_field_reads_as_its_place_among_the_words_it_takes() {
        let data = json!({"align": "center", "kind": "middle", "case": "Left"});
        let fields = Fields::of(&data).unwrap();
        let words = ["left", "center", "right"];
        assert_eq!(fields.one_of("align", &words), Ok(Some(1)));
        assert_eq!(fields.one_of("none", &words), Ok(None));
        assert_eq!(fields.one_of("kind", &words).unwrap_err().to_string(), "kind: expected one of left, center, right");
        assert!(fields.one_of("case", &words).is_err(), "words are matched exactly");
    }

    #[test]
    fn an_items_error_names_its_place_in_the_list() {
        let data = json!({"buttons": [{"label": "Go", "primary": true}, {"label": 7}, "Stop"]});
        assert_eq!(buttons(&data), Err("buttons[1].label: expected text, found a number".to_owned()));
        let data = json!({"buttons": [{"label": "Go"}, "Stop"]});
        assert_eq!(buttons(&data), Err("buttons[1]: expected an object, found text".to_owned()));
        let data = json!({"buttons": [{"primary": true}]});
        assert_eq!(buttons(&data), Err("buttons[0].label: missing".to_owned()));
        let data = json!({"buttons": [{"label": "Go", "tags": ["x"]}]});
        assert_eq!(
            buttons(&data),
            Ok(vec![Button { label: "Go".to_owned(), primary: false, tags: vec!["x".to_owned()] }])
        );
    }

    #[derive(Debug, PartialEq)]
    enum Badge {
        Text(String),
        Styled(String, Option<String>),
    }

    fn badge(fields: Fields<'_>) -> Read<Badge> {
        Ok(Badge::Styled(fields.required_text("text")?, fields.text("variant")?))
    }

    #[test]
    fn a_field_may_be_text_or_an_object() {
        let text = |text: &str| Badge::Text(text.to_owned());
        let data = json!({
            "plain": "Active",
            "styled": {"text": "Late", "variant": "warning"},
            "broken": {"variant": "warning"},
            "number": 3,
            "list": ["Active", {"text": "Late"}, 4]
        });
        let fields = Fields::of(&data).unwrap();
        assert_eq!(fields.text_or_object("plain", text, badge), Ok(Some(Badge::Text("Active".to_owned()))));
        assert_eq!(
            fields.text_or_object("styled", text, badge),
            Ok(Some(Badge::Styled("Late".to_owned(), Some("warning".to_owned()))))
        );
        assert_eq!(fields.text_or_object("none", text, badge), Ok(None));
        assert_eq!(fields.text_or_object("broken", text, badge).unwrap_err().to_string(), "broken.text: missing");
        assert_eq!(
            fields.text_or_object("number", text, badge).unwrap_err().to_string(),
            "number: expected text or an object, found a number"
        );
        assert_eq!(
            fields.items_text_or_object("list", text, badge).unwrap_err().to_string(),
            "list[2]: expected text or an object, found a number"
        );
    }
}
