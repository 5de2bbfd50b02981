//! Running a source: fetch through the [`SourceFetcher`] port, read the result as JSON, run the
//! map, merge its output over the widget's current params. The caller validates what comes out.

use futures::future::LocalBoxFuture;
use serde_json::Value;

use crate::binding::error_text;
use crate::binding::jq::{self, MapError};
use crate::binding::result::{CutSizes, cut_sizes, into_result_json};
use crate::binding::source::{Source, Target};
use crate::cancel::CancelToken;
use crate::tool::ToolResult;

/// How the core reaches a source's tool or resource: the app goes through the MCP client (and
/// refuses unattended calls that need the person's approval); tests use a double.
pub trait SourceFetcher {
    fn fetch<'a>(&'a self, target: &'a Target, cancel: CancelToken) -> LocalBoxFuture<'a, Result<ToolResult, String>>;
}

/// Why a source produced no params.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SourceError {
    #[error("the source could not be fetched: {0}")]
    Fetch(String),
    #[error("the source's tool answered with an error: {0}")]
    Tool(String),
    #[error(
        "the source's answer was too large ({}, the limit is {}): narrow it with the call's arguments \
         (a page, a filter or fewer fields)", .0.sent, .0.cap
    )]
    TooLarge(CutSizes),
    #[error(transparent)]
    Map(#[from] MapError),
    #[error("the map must produce an object of the widget's params (or some of them), got {0}")]
    NotObject(String),
}

/// What a source fetched: the params to show (`current` with the map's output over it) and which
/// of them the map wrote, for error messages ([`Fetched::mapped`]). The map's output is moved into
/// the params, not copied: a refresh of a 1,000-row table copies no row.
#[derive(Clone, Debug, PartialEq)]
pub struct Fetched {
    pub params: Value,
    mapped_keys: Vec<String>,
}

impl Fetched {
    /// The map's own output (copied out of the params; for error messages).
    pub fn mapped(&self) -> Value {
        let fields = self
            .mapped_keys
            .iter()
            .filter_map(|key| Some((key.clone(), self.params.get(key)?.clone())))
            .collect();
        Value::Object(fields)
    }
}

pub async fn fetch(
    fetcher: &dyn SourceFetcher,
    source: &Source,
    current: &Value,
    cancel: CancelToken,
) -> Result<Fetched, SourceError> {
    let result = fetcher.fetch(&source.target, cancel).await.map_err(SourceError::Fetch)?;
    if result.is_error {
        return Err(SourceError::Tool(error_text::shorten(&result.text_content())));
    }
    // What the client kept of a larger answer is the start of its text: a map would fail on it
    // with a type error that hides why.
    if let Some(sizes) = cut_sizes(&result) {
        return Err(SourceError::TooLarge(sizes));
    }
    let Value::Object(mapped) = map(source, into_result_json(result))? else {
        unreachable!("map insists on an object")
    };
    let mapped_keys: Vec<String> = mapped.keys().cloned().collect();
    // The current params the map did not write, then the map's output (moved).
    let mut params: serde_json::Map<String, Value> = match current {
        Value::Object(current) => current.iter().filter(|(key, _)| !mapped.contains_key(*key)).map(|(k, v)| (k.clone(), v.clone())).collect(),
        _ => serde_json::Map::new(),
    };
    params.extend(mapped);
    Ok(Fetched { params: Value::Object(params), mapped_keys })
}

/// Runs the source's map (none: the input as it is) and insists on an object.
pub fn map(source: &Source, input: Value) -> Result<Value, SourceError> {
    let output = match &source.map {
        Some(program) => jq::run(program, &input)?,
        None => input,
    };
    if !output.is_object() {
        return Err(SourceError::NotObject(crate::recipes::validate::preview(&output)));
    }
    Ok(output)
}

#[cfg(test)]
mod tests {
    use futures::executor::block_on;
    use serde_json::json;

    use super::*;

    struct Answer(Result<ToolResult, String>);

    impl SourceFetcher for Answer {
        fn fetch<'a>(&'a self, _: &'a Target, _: CancelToken) -> LocalBoxFuture<'a, Result<ToolResult, String>> {
            let answer = self.0.clone();
            Box::pin(async move { answer })
        }
    }

    fn source(map: Option<&str>) -> Source {
        Source::parse(&json!({"call": "clock_mcp_get-time", "map": map})).unwrap()
    }

    fn structured(value: Value) -> ToolResult {
        ToolResult { structured: Some(value), ..ToolResult::text("ignored") }
    }

    #[test]
    fn the_maps_partial_output_is_merged_over_the_current_params() {
        let fetcher = Answer(Ok(structured(json!({"time": "05:40"}))));
        let current = json!({"label": "Server time", "value": "05:00", "trend": "up"});
        let fetched = block_on(fetch(&fetcher, &source(Some("{value: .time}")), &current, CancelToken::default())).unwrap();
        assert_eq!(fetched.params, json!({"label": "Server time", "value": "05:40", "trend": "up"}));
        assert_eq!(fetched.mapped(), json!({"value": "05:40"}));
    }

    #[test]
    fn without_a_map_the_result_is_the_params() {
        let fetcher = Answer(Ok(ToolResult::text("{\"value\": \"7\"}")));
        let fetched = block_on(fetch(&fetcher, &source(None), &json!({}), CancelToken::default())).unwrap();
        assert_eq!(fetched.params, json!({"value": "7"}));
    }

    #[test]
    fn failures_say_where_they_happened() {
        let down = Answer(Err("connection refused".into()));
        let error = block_on(fetch(&down, &source(None), &json!({}), CancelToken::default())).unwrap_err();
        assert_eq!(error.to_string(), "the source could not be fetched: connection refused");
        let failed = Answer(Ok(ToolResult::error("no such city")));
        let error = block_on(fetch(&failed, &source(None), &json!({}), CancelToken::default())).unwrap_err();
        assert_eq!(error, SourceError::Tool("no such city".into()));
        let text = Answer(Ok(ToolResult::text("plain words")));
        let error = block_on(fetch(&text, &source(Some(".")), &json!({}), CancelToken::default())).unwrap_err();
        assert!(matches!(error, SourceError::NotObject(_)), "{error}");
        let error = block_on(fetch(&text, &source(Some(".a.b")), &json!({}), CancelToken::default())).unwrap_err();
        assert!(matches!(error, SourceError::Map(MapError::Runtime(_))), "{error}");
    }
}
