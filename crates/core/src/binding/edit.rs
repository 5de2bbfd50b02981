//! The person's edit of a bound widget's source (the widget menu's form): the arguments as JSON
//! text and the map as jq text, each read as it is typed with an error saying where it is wrong,
//! then made into the source to apply. The tool (or resource) and the refresh schedule stay.

use serde_json::Value;

use crate::binding::jq;
use crate::binding::source::{Source, Target, kind_of};

/// What is wrong with each field of an edit; `None` where the field is fine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditErrors {
    pub arguments: Option<String>,
    pub map: Option<String>,
}

/// The arguments as the form shows them: pretty JSON; `None` for a resource, which has none.
pub fn arguments_text(source: &Source) -> Option<String> {
    match &source.target {
        Target::Call { arguments, .. } => Some(serde_json::to_string_pretty(arguments).unwrap_or_else(|_| "{}".to_owned())),
        Target::Resource { .. } => None,
    }
}

/// Reads the arguments field: a JSON object (empty text is `{}`), else where the JSON breaks
/// ("line 2, column 9: expected `:`") or what it is instead of an object.
pub fn read_arguments(text: &str) -> Result<Value, String> {
    if text.trim().is_empty() {
        return Ok(Value::Object(serde_json::Map::new()));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(object @ Value::Object(_)) => Ok(object),
        Ok(other) => Err(format!("the arguments must be a JSON object such as {{\"city\": \"Paris\"}}, got {}", kind_of(&other))),
        Err(error) => {
            let full = error.to_string();
            let what = full.split(" at line ").next().unwrap_or(&full);
            Err(format!("line {}, column {}: {what}", error.line(), error.column()))
        }
    }
}

/// Reads the map field: a jq program that compiles (empty text is no map: the result is the
/// params), else the compiler's error with the character it stopped at.
pub fn read_map(text: &str) -> Result<Option<String>, String> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    jq::check(text).map(|()| Some(text.to_owned())).map_err(|error| error.to_string())
}

/// `source` with the edited arguments (ignored for a resource) and map, or every field's error.
pub fn edited(source: &Source, arguments: &str, map: &str) -> Result<Source, EditErrors> {
    let target = match &source.target {
        Target::Call { call, .. } => read_arguments(arguments).map(|arguments| Target::Call { call: call.clone(), arguments }),
        resource @ Target::Resource { .. } => Ok(resource.clone()),
    };
    let map = read_map(map);
    match (target, map) {
        (Ok(target), Ok(map)) => Ok(Source { target, map, refresh: source.refresh }),
        (target, map) => Err(EditErrors { arguments: target.err(), map: map.err() }),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::binding::source::Refresh;

    fn source() -> Source {
        Source::parse(&json!({"call": "basic_mcp_get-time", "arguments": {"tz": "UTC"}, "map": "{value: .time}", "refresh": "on_open"})).unwrap()
    }

    #[test]
    fn a_json_error_says_the_line_and_column() {
        assert_eq!(read_arguments("{\n  \"tz\" \"UTC\"\n}").unwrap_err(), "line 2, column 8: expected `:`");
        assert_eq!(read_arguments("{\"tz\": ").unwrap_err(), "line 1, column 7: EOF while parsing a value");
        assert!(read_arguments("[1]").unwrap_err().contains("must be a JSON object"));
        assert_eq!(read_arguments("  "), Ok(json!({})));
        assert_eq!(read_arguments("{\"n\": 2}"), Ok(json!({"n": 2})));
    }

    #[test]
    fn a_jq_error_says_the_character() {
        let error = read_map("{value: .time").unwrap_err();
        assert!(error.starts_with("the map is not a valid jq program"), "{error}");
        let error = read_map("{value: .time) | x").unwrap_err();
        assert!(error.contains("at character 14"), "{error}");
        assert!(read_map("nosuch(1)").unwrap_err().contains("nosuch"));
        assert_eq!(read_map(""), Ok(None));
        assert_eq!(read_map(".a"), Ok(Some(".a".to_owned())));
    }

    #[test]
    fn an_edit_keeps_the_tool_and_the_schedule_and_reports_every_field() {
        let edited = edited(&source(), "{\"tz\": \"CET\"}", "{value: .time, label: \"CET\"}").unwrap();
        assert_eq!(edited.target, Target::Call { call: "basic_mcp_get-time".into(), arguments: json!({"tz": "CET"}) });
        assert_eq!(edited.map.as_deref(), Some("{value: .time, label: \"CET\"}"));
        assert_eq!(edited.refresh, Refresh::OnOpen);

        let errors = super::edited(&source(), "{tz", "{value: ").unwrap_err();
        assert!(errors.arguments.is_some() && errors.map.is_some(), "{errors:?}");
        let errors = super::edited(&source(), "{}", "{value: ").unwrap_err();
        assert_eq!(errors.arguments, None);
    }

    #[test]
    fn a_resource_has_no_arguments_to_edit() {
        let resource = Source::parse(&json!({"resource": "live://counter", "map": "{value: .count}"})).unwrap();
        assert_eq!(arguments_text(&resource), None);
        assert_eq!(arguments_text(&source()).as_deref(), Some("{\n  \"tz\": \"UTC\"\n}"));
        let edited = edited(&resource, "not json", ".").unwrap();
        assert_eq!(edited.target, resource.target);
    }
}
