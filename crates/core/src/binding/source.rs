//! A widget's `source` as the model writes it and the canvas keeps it: what to call or read, the
//! jq `map` from its result to the widget's params, and when to refresh. [`Binding`] is a source on
//! a block, with when its data was last fetched and the last refresh's error.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::binding::{jq, server_url};
use crate::canvas::model::Block;
use crate::ids::ServerId;
use crate::tool_name::{Protocol, ToolName};
use crate::widget_kind::WidgetKind;

/// Shortest interval a binding may refresh at: a dashboard, not a ticker.
pub const MIN_INTERVAL_S: u32 = 10;
/// Longest interval (a day).
pub const MAX_INTERVAL_S: u32 = 86_400;

pub const SOURCE_USAGE: &str = "source is {\"call\": \"<exposed tool name>\", \"arguments\": {...}, \"map\": \"<jq program: result -> params>\", \
     \"refresh\": \"manual | on_open | every 30s | every 5m\"} or {\"resource\": \"<uri>\", \"map\": ..., \"refresh\": ...}";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Source {
    #[serde(flatten)]
    pub target: Target,
    /// jq from the result (as JSON, see `result.rs`) to the widget's params, whole or partial;
    /// without one, the result itself is the params.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<String>,
    #[serde(default)]
    pub refresh: Refresh,
}

/// What a source reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Target {
    /// A tool, by the name the model calls it (`{server}_mcp_{tool}`), with its arguments.
    Call {
        call: String,
        #[serde(default = "empty_object")]
        arguments: Value,
    },
    /// An MCP resource, by uri.
    Resource { resource: String },
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

/// When a binding refreshes by itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Refresh {
    /// Only when the person (or the model) asks.
    #[default]
    Manual,
    /// When the dashboard is opened or restored.
    OnOpen,
    /// On open, then every `seconds` while the page is visible.
    Every { seconds: u32 },
}

/// A source on a block, with its freshness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Binding {
    pub source: Source,
    /// When the data now shown was fetched (ms since the epoch); `None` before the first fetch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fetched_ms: Option<f64>,
    /// The last refresh's error: the widget still shows the data of `fetched_ms`, now stale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Where the source's server lives, as a share link or exported file carried it: written by the
    /// export, never by the model, so "Connect" can add the server of a dashboard made one's own,
    /// even after a reload. Untrusted text: only [`servers_needed`] reads it, through
    /// `server_url::shareable`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_url: Option<String>,
    /// The person renamed the widget by hand (`Op::Rename`): its name stays theirs, even where the
    /// map writes one, until the widget is unbound.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub renamed: bool,
}

impl Binding {
    pub fn fresh(source: Source, fetched_ms: f64) -> Binding {
        Binding { source, fetched_ms: Some(fetched_ms), error: None, server_url: None, renamed: false }
    }

    /// A new source's binding on a widget bound before as `before`: a name given by hand stays.
    pub fn replacing(before: Option<&Binding>, source: Source, fetched_ms: f64) -> Binding {
        Binding { renamed: before.is_some_and(|before| before.renamed), ..Binding::fresh(source, fetched_ms) }
    }

    /// `params` a fetch produced for a widget of `kind`, with the name the person gave it by hand
    /// (`current`'s) put back over the map's.
    pub fn keep_rename(&self, kind: WidgetKind, current: &Value, params: &mut Value) {
        let (true, Some(key), Value::Object(params)) = (self.renamed, kind.title_key(), params) else { return };
        match current.get(key) {
            Some(name) => params.insert(key.to_owned(), name.clone()),
            None => params.remove(key),
        };
    }

    /// `{source, fetched_ms?, stale?}`: how `canvas list` shows it.
    pub fn to_json(&self) -> Value {
        let mut json = serde_json::json!({ "source": self.source });
        if let Some(fetched) = self.fetched_ms {
            json["fetched_ms"] = fetched.into();
        }
        if let Some(error) = &self.error {
            json["stale"] = Value::String(error.clone());
        }
        if self.renamed {
            // Said to the model, whose map may write a name that no longer shows.
            json["renamed_by_person"] = Value::Bool(true);
        }
        json
    }
}

impl Source {
    /// Reads a source the model (or the person, in the widget menu) wrote, with an error saying
    /// exactly what is wrong; the map is compiled here, so a syntax error is found before any call.
    pub fn parse(value: &Value) -> Result<Source, String> {
        let Value::Object(fields) = value else {
            return Err(format!("{SOURCE_USAGE}; got {}", kind_of(value)));
        };
        if let Some(unknown) = fields.keys().find(|key| !["call", "arguments", "resource", "map", "refresh"].contains(&key.as_str())) {
            return Err(format!("source has no field \"{unknown}\"; {SOURCE_USAGE}"));
        }
        let target = match (fields.get("call"), fields.get("resource")) {
            (Some(Value::String(call)), None) if !call.trim().is_empty() => Target::Call {
                call: call.trim().to_owned(),
                arguments: match fields.get("arguments") {
                    None | Some(Value::Null) => empty_object(),
                    Some(arguments @ Value::Object(_)) => arguments.clone(),
                    Some(other) => return Err(format!("source.arguments must be an object, got {}", kind_of(other))),
                },
            },
            (None, Some(Value::String(uri))) if !uri.trim().is_empty() => {
                if fields.contains_key("arguments") {
                    return Err("source.arguments goes with \"call\"; a resource source has only its uri".to_owned());
                }
                Target::Resource { resource: uri.trim().to_owned() }
            }
            (Some(_), Some(_)) => return Err("source has both \"call\" and \"resource\"; give one".to_owned()),
            (None, None) => return Err(format!("source needs \"call\" (a tool) or \"resource\" (a uri); {SOURCE_USAGE}")),
            _ => return Err("source.call (or source.resource) must be a non-empty string".to_owned()),
        };
        let map = match fields.get("map") {
            None | Some(Value::Null) => None,
            Some(Value::String(map)) if map.trim().is_empty() => None,
            Some(Value::String(map)) => {
                jq::check(map).map_err(|error| format!("source.map: {error}"))?;
                Some(map.clone())
            }
            Some(other) => return Err(format!("source.map must be a jq program as a string, got {}", kind_of(other))),
        };
        let refresh = match fields.get("refresh") {
            None | Some(Value::Null) => Refresh::default(),
            Some(Value::String(text)) => Refresh::parse(text).map_err(|error| format!("source.refresh: {error}"))?,
            Some(other) => return Err(format!("source.refresh must be a string such as \"every 5m\", got {}", kind_of(other))),
        };
        Ok(Source { target, map, refresh })
    }

    /// The MCP server a tool source calls, as its tools are prefixed (`basic` for
    /// `basic_mcp_get-time`); `None` for a resource (its server is known only once connected) or a
    /// name that is not an MCP tool's.
    pub fn server(&self) -> Option<ServerId> {
        let Target::Call { call, .. } = &self.target else { return None };
        ToolName::parse(call).ok().filter(|name| name.protocol == Protocol::Mcp).map(|name| name.server)
    }

    /// The tool's exposed name, or the resource's uri: what the widget and the console name.
    pub fn label(&self) -> &str {
        match &self.target {
            Target::Call { call, .. } => call,
            Target::Resource { resource } => resource,
        }
    }
}

/// An MCP server a dashboard's bindings call, and where it lives when the dashboard says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NeededServer {
    /// The name its tools are prefixed with (`basic` for `basic_mcp_get-time`).
    pub server: ServerId,
    /// A shareable `http(s)` URL (see `server_url.rs`), when known.
    pub url: Option<String>,
}

impl NeededServer {
    /// `host[:port]` of its URL, to show before connecting to it.
    pub fn host(&self) -> Option<String> {
        self.url.as_deref().and_then(server_url::host)
    }
}

/// The MCP servers the bound blocks call, each once, in the order of the blocks, with the first
/// shareable URL a binding carries for each: what a dashboard opened elsewhere (a share link, an import)
/// needs connected before its bindings can run.
pub fn servers_needed(blocks: &[Block]) -> Vec<NeededServer> {
    let mut needed: Vec<NeededServer> = Vec::new();
    for binding in blocks.iter().filter_map(|block| block.binding.as_deref()) {
        let Some(server) = binding.source.server() else { continue };
        let url = binding.server_url.as_deref().and_then(server_url::shareable);
        match needed.iter_mut().find(|known| known.server == server) {
            Some(known) => {
                if known.url.is_none() {
                    known.url = url;
                }
            }
            None => needed.push(NeededServer { server, url }),
        }
    }
    needed
}

impl Refresh {
    /// `manual`, `on_open`, or `every <n><s|m|h>` (`every 30s`, `every 5m`, `every 1h`; the word
    /// `every` and the space are optional, as are unit words like `min` or `seconds`).
    pub fn parse(text: &str) -> Result<Refresh, String> {
        let text = text.trim().to_ascii_lowercase();
        match text.as_str() {
            "manual" | "never" | "" => return Ok(Refresh::Manual),
            "on_open" | "on open" | "open" => return Ok(Refresh::OnOpen),
            _ => {}
        }
        let spec = text.strip_prefix("every").unwrap_or(&text).trim();
        let digits_end = spec.find(|c: char| !c.is_ascii_digit()).unwrap_or(spec.len());
        let (number, unit) = spec.split_at(digits_end);
        let usage = "use manual, on_open or every <n>s|m|h, e.g. \"every 5m\"";
        let number: u32 = number.parse().map_err(|_| format!("\"{text}\" is not a refresh schedule; {usage}"))?;
        let scale = match unit.trim() {
            "s" | "sec" | "secs" | "second" | "seconds" => 1,
            "m" | "min" | "mins" | "minute" | "minutes" => 60,
            "h" | "hr" | "hour" | "hours" => 3_600,
            other => return Err(format!("\"{other}\" is not a unit; {usage}")),
        };
        let seconds = number.saturating_mul(scale);
        if !(MIN_INTERVAL_S..=MAX_INTERVAL_S).contains(&seconds) {
            return Err(format!("an interval must be between {MIN_INTERVAL_S} s and 24 h, got {seconds} s"));
        }
        Ok(Refresh::Every { seconds })
    }

    /// Whether opening or restoring the dashboard refreshes it.
    pub fn on_open(self) -> bool {
        !matches!(self, Refresh::Manual)
    }

    pub fn interval_ms(self) -> Option<u32> {
        match self {
            Refresh::Every { seconds } => Some(seconds * 1_000),
            _ => None,
        }
    }
}

impl fmt::Display for Refresh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refresh::Manual => f.write_str("manual"),
            Refresh::OnOpen => f.write_str("on_open"),
            Refresh::Every { seconds } if seconds % 3_600 == 0 => write!(f, "every {}h", seconds / 3_600),
            Refresh::Every { seconds } if seconds % 60 == 0 => write!(f, "every {}m", seconds / 60),
            Refresh::Every { seconds } => write!(f, "every {seconds}s"),
        }
    }
}

impl TryFrom<String> for Refresh {
    type Error = String;
    fn try_from(text: String) -> Result<Refresh, String> {
        Refresh::parse(&text)
    }
}

impl From<Refresh> for String {
    fn from(refresh: Refresh) -> String {
        refresh.to_string()
    }
}

/// What a JSON value is, as an error message names it ("an array").
pub(crate) fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn refresh_schedules_read_as_people_write_them() {
        assert_eq!(Refresh::parse("manual"), Ok(Refresh::Manual));
        assert_eq!(Refresh::parse("on_open"), Ok(Refresh::OnOpen));
        assert_eq!(Refresh::parse("every 30s"), Ok(Refresh::Every { seconds: 30 }));
        assert_eq!(Refresh::parse("every 5m"), Ok(Refresh::Every { seconds: 300 }));
        assert_eq!(Refresh::parse("Every 2 minutes"), Ok(Refresh::Every { seconds: 120 }));
        assert_eq!(Refresh::parse("1h"), Ok(Refresh::Every { seconds: 3_600 }));
        assert!(Refresh::parse("every 1s").unwrap_err().contains("between 10 s"));
        assert!(Refresh::parse("every 5 fortnights").unwrap_err().contains("not a unit"));
        assert!(Refresh::parse("sometimes").unwrap_err().contains("not a refresh schedule"));
        for refresh in [Refresh::Manual, Refresh::OnOpen, Refresh::Every { seconds: 45 }, Refresh::Every { seconds: 300 }] {
            assert_eq!(Refresh::parse(&refresh.to_string()), Ok(refresh));
        }
    }

    #[test]
    fn a_source_is_read_with_specific_errors() {
        let source = Source::parse(&json!({"call": "basic_mcp_get-time", "map": "{value: .time}", "refresh": "every 30s"})).unwrap();
        assert_eq!(source.target, Target::Call { call: "basic_mcp_get-time".into(), arguments: json!({}) });
        assert_eq!(source.refresh, Refresh::Every { seconds: 30 });
        let resource = Source::parse(&json!({"resource": "demo://status"})).unwrap();
        assert_eq!(resource.target, Target::Resource { resource: "demo://status".into() });
        assert_eq!(resource.refresh, Refresh::Manual);

        assert!(Source::parse(&json!("x")).unwrap_err().contains("source is {"));
        assert!(Source::parse(&json!({"map": "."})).unwrap_err().contains("needs \"call\""));
        assert!(Source::parse(&json!({"call": "a", "resource": "b"})).unwrap_err().contains("both"));
        assert!(Source::parse(&json!({"call": "a", "arguments": [1]})).unwrap_err().contains("arguments must be an object"));
        assert!(Source::parse(&json!({"call": "a", "every": "5m"})).unwrap_err().contains("no field \"every\""));
        assert!(Source::parse(&json!({"call": "a", "map": "{value: .time"})).unwrap_err().starts_with("source.map: the map is not a valid jq program"));
        assert!(Source::parse(&json!({"call": "a", "refresh": "hourly"})).unwrap_err().starts_with("source.refresh:"));
    }

    #[test]
    fn a_tool_source_names_the_server_it_needs() {
        let parse = |value| Source::parse(&value).unwrap();
        assert_eq!(parse(json!({"call": "basic_mcp_get-time"})).server(), Some(ServerId::sanitize("basic")));
        assert_eq!(parse(json!({"call": "my_server_mcp_list_rows"})).server(), Some(ServerId::sanitize("my_server")));
        assert_eq!(parse(json!({"call": "autoui_webmcp_widget_display"})).server(), None, "not an MCP server");
        assert_eq!(parse(json!({"resource": "live://counter"})).server(), None);
    }

    #[test]
    fn a_binding_round_trips_through_json() {
        let source = Source::parse(&json!({"call": "s_mcp_t", "arguments": {"n": 1}, "map": ".x", "refresh": "every 5m"})).unwrap();
        let binding = Binding { error: Some("down".into()), ..Binding::fresh(source, 12.0) };
        let json = serde_json::to_value(&binding).unwrap();
        assert_eq!(json["source"], json!({"call": "s_mcp_t", "arguments": {"n": 1}, "map": ".x", "refresh": "every 5m"}));
        assert_eq!(serde_json::from_value::<Binding>(json).unwrap(), binding);
    }
}
