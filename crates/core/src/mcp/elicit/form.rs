//! The form an elicitation asks for, read from its `requestedSchema` (a flat object of primitive
//! fields, as the spec restricts it): text with format and length bounds, numbers with bounds,
//! booleans, single and multiple choices with titles, defaults. It pre-fills the defaults and checks
//! what the person entered before anything is sent back, field by field, with the reason.

use serde_json::{Map, Number, Value};

use crate::sort::sort_by_key;

/// A form a person can fill: required fields first, then the others, each in name order (the
/// core's JSON objects do not keep the order properties were written in).
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub fields: Vec<Field>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The property name the answer uses.
    pub name: String,
    /// What to show as the label: the schema's `title`, else the name.
    pub label: String,
    pub description: Option<String>,
    pub required: bool,
    pub kind: FieldKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FieldKind {
    Text {
        format: Option<TextFormat>,
        min_length: Option<u64>,
        max_length: Option<u64>,
        default: Option<String>,
    },
    Number {
        integer: bool,
        minimum: Option<f64>,
        maximum: Option<f64>,
        default: Option<f64>,
    },
    Boolean {
        default: Option<bool>,
    },
    Choice {
        options: Vec<Choice>,
        default: Option<String>,
    },
    MultiChoice {
        options: Vec<Choice>,
        min_items: Option<u64>,
        max_items: Option<u64>,
        default: Vec<String>,
    },
}

/// One option of a choice: the value sent back and the title shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub value: String,
    pub label: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextFormat {
    Email,
    Uri,
    Date,
    DateTime,
}

/// Why a `requestedSchema` cannot become a form (the server is told, and so is the person).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormError {
    #[error("the requested schema is not an object schema with \"properties\"")]
    NotAnObject,
    #[error("field \"{field}\": {reason}")]
    BadField { field: String, reason: String },
}

/// What is wrong with one entered value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldProblem {
    pub field: String,
    pub reason: String,
}

impl std::fmt::Display for FieldProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

impl Form {
    pub fn from_schema(schema: &Value) -> Result<Form, FormError> {
        let object = schema.as_object().ok_or(FormError::NotAnObject)?;
        if object.get("type").is_some_and(|kind| kind != "object") {
            return Err(FormError::NotAnObject);
        }
        let properties = match object.get("properties") {
            Some(Value::Object(properties)) => properties,
            None => return Ok(Form { fields: Vec::new() }),
            Some(_) => return Err(FormError::NotAnObject),
        };
        let required: Vec<&str> = object
            .get("required")
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let fields = properties
            .iter()
            .map(|(name, property)| {
                field(name, property, required.contains(&name.as_str())).map_err(|reason| FormError::BadField {
                    field: name.clone(),
                    reason,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut fields = fields;
        sort_by_key(&mut fields, |field| !field.required);
        Ok(Form { fields })
    }

    /// The values the form starts with: every default the schema gives.
    pub fn prefilled(&self) -> Map<String, Value> {
        self.fields
            .iter()
            .filter_map(|field| Some((field.name.clone(), field.default_value()?)))
            .collect()
    }

    /// Checks `values` against every field; on success returns the content to send (known fields only).
    pub fn check(&self, values: &Map<String, Value>) -> Result<Map<String, Value>, Vec<FieldProblem>> {
        let mut content = Map::new();
        let mut problems = Vec::new();
        for field in &self.fields {
            match (values.get(&field.name), field.required) {
                (None | Some(Value::Null), true) => problems.push(field.problem("required".to_owned())),
                (None | Some(Value::Null), false) => {}
                (Some(value), _) => match field.kind.check(value) {
                    Ok(()) => {
                        content.insert(field.name.clone(), value.clone());
                    }
                    Err(reason) => problems.push(field.problem(reason)),
                },
            }
        }
        if problems.is_empty() { Ok(content) } else { Err(problems) }
    }
}

impl Field {
    fn problem(&self, reason: String) -> FieldProblem {
        FieldProblem { field: self.label.clone(), reason }
    }

    pub fn default_value(&self) -> Option<Value> {
        match &self.kind {
            FieldKind::Text { default, .. } | FieldKind::Choice { default, .. } => {
                default.clone().map(Value::String)
            }
            FieldKind::Number { integer: true, default, .. } => default.map(|value| Value::from(value as i64)),
            FieldKind::Number { default, .. } => default.and_then(Number::from_f64).map(Value::Number),
            FieldKind::Boolean { default } => default.map(Value::Bool),
            FieldKind::MultiChoice { default, .. } if default.is_empty() => None,
            FieldKind::MultiChoice { default, .. } => {
                Some(Value::Array(default.iter().cloned().map(Value::String).collect()))
            }
        }
    }

    /// Reads what a person typed into a text box as this field's value (`None` for an empty box).
    pub fn parse_input(&self, input: &str) -> Result<Option<Value>, String> {
        let input = input.trim();
        if input.is_empty() {
            return Ok(None);
        }
        match &self.kind {
            FieldKind::Number { integer: true, .. } => input
                .parse::<i64>()
                .map(|number| Some(Value::from(number)))
                .map_err(|_| format!("\"{input}\" is not a whole number")),
            FieldKind::Number { .. } => input
                .parse::<f64>()
                .ok()
                .and_then(Number::from_f64)
                .map(|number| Some(Value::Number(number)))
                .ok_or_else(|| format!("\"{input}\" is not a number")),
            _ => Ok(Some(Value::String(input.to_owned()))),
        }
    }
}

impl FieldKind {
    fn check(&self, value: &Value) -> Result<(), String> {
        match self {
            FieldKind::Text { format, min_length, max_length, .. } => {
                let text = value.as_str().ok_or("must be text")?;
                let length = text.chars().count() as u64;
                if let Some(min) = min_length.filter(|min| length < *min) {
                    return Err(format!("must be at least {min} characters"));
                }
                if let Some(max) = max_length.filter(|max| length > *max) {
                    return Err(format!("must be at most {max} characters"));
                }
                match format {
                    Some(format) if !format.accepts(text) => Err(format!("must be {}", format.describe())),
                    _ => Ok(()),
                }
            }
            FieldKind::Number { integer, minimum, maximum, .. } => {
                let number = value.as_f64().ok_or("must be a number")?;
                if *integer && !(value.is_i64() || value.is_u64()) {
                    return Err("must be a whole number".to_owned());
                }
                if let Some(min) = minimum.filter(|min| number < *min) {
                    return Err(format!("must be at least {min}"));
                }
                if let Some(max) = maximum.filter(|max| number > *max) {
                    return Err(format!("must be at most {max}"));
                }
                Ok(())
            }
            FieldKind::Boolean { .. } => value.as_bool().map(drop).ok_or_else(|| "must be yes or no".to_owned()),
            FieldKind::Choice { options, .. } => {
                let chosen = value.as_str().ok_or("must be one of the options")?;
                is_option(options, chosen)
            }
            FieldKind::MultiChoice { options, min_items, max_items, .. } => {
                let chosen = value.as_array().ok_or("must be a list of options")?;
                for item in chosen {
                    is_option(options, item.as_str().ok_or("must be a list of options")?)?;
                }
                let count = chosen.len() as u64;
                if let Some(min) = min_items.filter(|min| count < *min) {
                    return Err(format!("choose at least {min}"));
                }
                if let Some(max) = max_items.filter(|max| count > *max) {
                    return Err(format!("choose at most {max}"));
                }
                Ok(())
            }
        }
    }
}

fn is_option(options: &[Choice], chosen: &str) -> Result<(), String> {
    if options.iter().any(|option| option.value == chosen) {
        Ok(())
    } else {
        Err(format!("\"{chosen}\" is not one of the options"))
    }
}

impl TextFormat {
    fn from_schema(name: &str) -> Option<TextFormat> {
        match name {
            "email" => Some(TextFormat::Email),
            "uri" => Some(TextFormat::Uri),
            "date" => Some(TextFormat::Date),
            "date-time" => Some(TextFormat::DateTime),
            _ => None,
        }
    }

    fn describe(self) -> &'static str {
        match self {
            TextFormat::Email => "an email address",
            TextFormat::Uri => "an absolute URL",
            TextFormat::Date => "a date (YYYY-MM-DD)",
            TextFormat::DateTime => "a date and time (YYYY-MM-DDTHH:MM:SSZ)",
        }
    }

    fn accepts(self, text: &str) -> bool {
        match self {
            TextFormat::Email => text
                .split_once('@')
                .is_some_and(|(user, host)| !user.is_empty() && host.contains('.') && !text.contains(char::is_whitespace)),
            TextFormat::Uri => fluent_uri::Uri::parse(text).is_ok(),
            TextFormat::Date => is_date(text),
            TextFormat::DateTime => text
                .split_once(['T', 't', ' '])
                .is_some_and(|(date, time)| is_date(date) && is_time(time)),
        }
    }
}

fn is_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    matches!(parts.as_slice(), [year, month, day]
        if year.len() == 4 && all_digits(year)
        && in_range(month, 1, 12) && in_range(day, 1, 31))
}

/// `HH:MM[:SS[.frac]]` then `Z` or an offset.
fn is_time(text: &str) -> bool {
    let end = text.find(['Z', 'z', '+', '-']).unwrap_or(text.len());
    let (clock, zone) = text.split_at(end);
    let mut parts = clock.split(':');
    let hours = parts.next().is_some_and(|hours| in_range(hours, 0, 23));
    let minutes = parts.next().is_some_and(|minutes| in_range(minutes, 0, 59));
    let seconds = parts.next().is_none_or(|seconds| {
        let whole = seconds.split('.').next().unwrap_or("");
        in_range(whole, 0, 60)
    });
    hours && minutes && seconds && !zone.is_empty()
}

fn all_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit())
}

fn in_range(text: &str, min: u32, max: u32) -> bool {
    text.len() == 2 && all_digits(text) && text.parse::<u32>().is_ok_and(|value| (min..=max).contains(&value))
}

fn field(name: &str, property: &Value, required: bool) -> Result<Field, String> {
    let property = property.as_object().ok_or("its schema is not an object")?;
    let text = |key: &str| property.get(key).and_then(Value::as_str).map(str::to_owned);
    let count = |key: &str| property.get(key).and_then(Value::as_u64);
    let bound = |key: &str| property.get(key).and_then(Value::as_f64);
    let kind = match property.get("type").and_then(Value::as_str) {
        Some("string") => match choices(property)? {
            Some(options) => {
                let default = text("default").filter(|value| options.iter().any(|option| &option.value == value));
                FieldKind::Choice { options, default }
            }
            None => FieldKind::Text {
                format: text("format").as_deref().and_then(TextFormat::from_schema),
                min_length: count("minLength"),
                max_length: count("maxLength"),
                default: text("default"),
            },
        },
        Some(kind @ ("number" | "integer")) => FieldKind::Number {
            integer: kind == "integer",
            minimum: bound("minimum"),
            maximum: bound("maximum"),
            default: bound("default"),
        },
        Some("boolean") => FieldKind::Boolean { default: property.get("default").and_then(Value::as_bool) },
        Some("array") => {
            let items = property.get("items").and_then(Value::as_object).ok_or("a list needs \"items\"")?;
            let options = choices(items)?.ok_or("a list must offer options (\"enum\" or \"anyOf\")")?;
            let default = property
                .get("default")
                .and_then(Value::as_array)
                .map(|values| values.iter().filter_map(Value::as_str).map(str::to_owned).collect())
                .unwrap_or_default();
            FieldKind::MultiChoice { options, min_items: count("minItems"), max_items: count("maxItems"), default }
        }
        Some(other) => return Err(format!("type \"{other}\" is not a form field type")),
        None => return Err("it has no \"type\"".to_owned()),
    };
    Ok(Field {
        name: name.to_owned(),
        label: text("title").unwrap_or_else(|| name.to_owned()),
        description: text("description"),
        required,
        kind,
    })
}

/// The options of an enum schema: `enum` (titled by `enumNames` when given), or `oneOf`/`anyOf`
/// of `{const, title}`. `None` when the schema offers no options.
fn choices(schema: &Map<String, Value>) -> Result<Option<Vec<Choice>>, String> {
    if let Some(values) = schema.get("enum") {
        let values = values.as_array().ok_or("\"enum\" is not a list")?;
        let titles = schema.get("enumNames").and_then(Value::as_array);
        let options = values
            .iter()
            .enumerate()
            .map(|(index, value)| {
                let value = value.as_str().ok_or("enum values must be text")?.to_owned();
                let label = titles
                    .and_then(|titles| titles.get(index))
                    .and_then(Value::as_str)
                    .map_or_else(|| value.clone(), str::to_owned);
                Ok(Choice { value, label })
            })
            .collect::<Result<Vec<_>, String>>()?;
        return Ok(Some(options));
    }
    let Some(variants) = schema.get("oneOf").or_else(|| schema.get("anyOf")) else {
        return Ok(None);
    };
    let variants = variants.as_array().ok_or("\"oneOf\"/\"anyOf\" is not a list")?;
    let options = variants
        .iter()
        .map(|variant| {
            let value = variant.get("const").and_then(Value::as_str).ok_or("each option needs a text \"const\"")?;
            let label = variant.get("title").and_then(Value::as_str).unwrap_or(value);
            Ok(Choice { value: value.to_owned(), label: label.to_owned() })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Some(options))
}
