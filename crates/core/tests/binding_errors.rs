//! A binding's error stays readable: it is saved with the widget, shown in its freshness tooltip
//! and sent to the model. A map error quoting a huge value (jq quotes the whole input) keeps its
//! start, which says what failed, with each long value cut in the middle saying how long it was; a
//! tool's long error text is cut the same way. An answer the MCP client cut at its cap fails as
//! too large, saying both sizes, instead of as a jq type error on the part kept.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::autoui::AutoUi;
use autoui_core::autoui::bind::Sources;
use autoui_core::binding::error_text::MAX_ERROR_CHARS;
use autoui_core::binding::fetch::{self, SourceError, SourceFetcher};
use autoui_core::binding::jq::{self, MapError};
use autoui_core::binding::source::{Source, Target};
use autoui_core::cancel::CancelToken;
use autoui_core::ids::BlockId;
use autoui_core::mcp::cut::CutAnswer;
use autoui_core::tool::ToolResult;
use common::Counter;
use common::autoui_server::Harness;
use common::clock::FakeClock;
use futures::executor::block_on;
use futures::future::LocalBoxFuture;
use serde_json::{Value, json};

/// A source whose next answers are scripted.
#[derive(Default)]
struct Answers(RefCell<Vec<Result<ToolResult, String>>>);

impl SourceFetcher for Answers {
    fn fetch<'a>(&'a self, _: &'a Target, _: CancelToken) -> LocalBoxFuture<'a, Result<ToolResult, String>> {
        let answer = self.0.borrow_mut().remove(0);
        Box::pin(async move { answer })
    }
}

fn harness(answers: Vec<Result<ToolResult, String>>) -> Harness {
    let mut h = Harness::with_random(Counter::new(1));
    let ui = AutoUi::new(h.canvas.clone(), h.results.clone(), Rc::new(Counter::new(1)));
    let fetcher = Rc::new(Answers(RefCell::new(answers)));
    h.ui = ui.with_sources(Sources { fetcher, clock: Rc::new(FakeClock::new()) });
    h
}

/// `count` rows as a tool returns them, about 60 bytes each.
fn rows(count: usize) -> Value {
    Value::Array((0..count).map(|id| json!({"id": id, "city": "Genève \"centre\"", "population": 200_000 + id})).collect())
}

fn runtime_error(program: &str, input: &Value) -> String {
    match jq::run(program, input) {
        Err(MapError::Runtime(message)) => message,
        other => panic!("{program} should fail at run time, got {other:?}"),
    }
}

fn chars(text: &str) -> usize {
    text.chars().count()
}

#[test]
fn a_map_error_quoting_a_huge_input_keeps_what_failed_and_cuts_the_value_in_the_middle() {
    let input = json!({"rows": rows(30_000)});
    let message = runtime_error(".rows.city", &input);
    assert!(chars(&message) <= MAX_ERROR_CHARS, "{} characters: {}", chars(&message), &message[..400]);
    assert!(message.starts_with(r#"cannot index [{""#), "{message}");
    assert!(message.ends_with(r#"}] with "city""#), "the end of the value and what came after it stay: {message}");
    let long = serde_json::to_string(&input["rows"]).unwrap();
    assert!(message.contains(&format!("({} characters)", chars(&long))), "says how long the value was: {message}");

    let message = runtime_error(".time", &json!("x".repeat(2_000_000)));
    assert!(message.starts_with(r#"cannot index "xxxx"#) && message.ends_with(r#"xx" with "time""#), "{message}");
    assert!(message.contains("(2000002 characters)"), "{message}");
}

#[test]
fn each_long_value_of_a_message_is_cut_so_the_words_between_them_stay() {
    let message = runtime_error(".a - .b", &json!({"a": {"rows": rows(10_000)}, "b": {"rows": rows(10_000)}}));
    assert!(chars(&message) <= MAX_ERROR_CHARS, "{message}");
    assert!(message.starts_with(r#"cannot calculate {"rows":[{"#), "{message}");
    assert_eq!(message.matches(" characters)").count(), 2, "{message}");
    assert!(message.contains(r#"}]} - {"rows""#), "the operator between the values stays: {message}");
}

#[test]
fn a_short_map_error_is_kept_whole() {
    assert_eq!(runtime_error(".a + 1", &json!({"a": "x"})), r#"cannot calculate "x" + 1"#);
    let message = runtime_error(r#".a | error("the \(.) rows of this report are missing their \"region\" field")"#, &json!({"a": 12}));
    assert_eq!(message, r#""the 12 rows of this report are missing their \"region\" field""#);
}

#[test]
fn a_map_error_on_a_huge_result_comes_back_to_the_model_and_stays_with_the_widget_short() {
    // The map reads `.rows[0]`: on rows sent as one JSON text it fails, quoting the text.
    let huge = || Ok(ToolResult::json(json!({"rows": rows(30_000).to_string()})));
    let h = harness(vec![Ok(ToolResult::json(json!({"rows": [{"city": "Oslo"}]}))), huge(), huge()]);
    let call = |map: &str| {
        json!({"name": "stat-card", "params": {"label": "City"}, "source": {"call": "geo_mcp_cities", "map": map}})
    };
    let id = h.ok("widget_display", call("{value: .rows[0].city}"))["id"].as_str().unwrap().to_owned();
    let error = block_on(h.ui.refresh_block(&BlockId::new(&id), CancelToken::default())).unwrap_err();
    assert!(error.starts_with("the map failed: cannot index "), "{error}");
    assert!(chars(&error) <= MAX_ERROR_CHARS + 20, "{} characters", chars(&error));
    assert_eq!(h.block(&id).binding.unwrap().error.as_deref(), Some(error.as_str()), "the widget keeps the same short text");

    let answer = h.err("widget_display", call("{value: .rows[0].city}"));
    let message = answer["error"].as_str().unwrap();
    assert!(message.starts_with(r#"source: the map failed: cannot index "[{\"city\""#), "{message}");
    assert!(chars(message) <= MAX_ERROR_CHARS + 30, "{} characters", chars(message));
}

#[test]
fn a_tools_long_error_text_is_cut_too() {
    let text = format!("query failed on {}", serde_json::to_string(&rows(20_000)).unwrap());
    let answers = Answers(RefCell::new(vec![Ok(ToolResult::error(text))]));
    let source = Source::parse(&json!({"call": "db_mcp_query"})).unwrap();
    let error = block_on(fetch::fetch(&answers, &source, &json!({}), CancelToken::default())).unwrap_err();
    let SourceError::Tool(message) = &error else { panic!("a tool error, got {error}") };
    assert!(message.starts_with(r#"query failed on [{"city""#) && chars(message) <= MAX_ERROR_CHARS, "{message}");
}

/// What the MCP client makes of a tool's answer of `rows` rows over a `cap` of bytes
/// (`mcp::session`: the part kept, read as text after a note giving both sizes).
fn cut_answer(rows_count: usize, cap: usize) -> (ToolResult, usize) {
    let text = serde_json::to_string(&rows(rows_count)).unwrap();
    let answer = json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": text}]}}).to_string();
    let cut = CutAnswer::of_text(&answer, cap).expect("the answer is over the cap");
    (cut.into_tool_result(), answer.len())
}

#[test]
fn an_answer_cut_at_the_clients_cap_fails_as_too_large_with_both_sizes_whatever_the_map() {
    let (cut, sent) = cut_answer(40_000, 1024 * 1024);
    assert!(sent > 2_000_000, "{sent}");
    for map in [Some(".[0] | {value: .city}"), Some("{value: \"fixed\"}"), None] {
        let source = Source::parse(&json!({"call": "geo_mcp_cities", "map": map})).unwrap();
        let answers = Answers(RefCell::new(vec![Ok(cut.clone())]));
        let error = block_on(fetch::fetch(&answers, &source, &json!({}), CancelToken::default())).unwrap_err();
        assert!(matches!(error, SourceError::TooLarge(_)), "{map:?}: {error}");
        assert_eq!(
            error.to_string(),
            format!(
                "the source's answer was too large ({:.1} MB, the limit is 1.0 MB): narrow it with the call's arguments \
                 (a page, a filter or fewer fields)",
                sent as f64 / 1e6
            )
        );
    }
}

#[test]
fn a_cut_answer_is_refused_in_the_same_turn_and_at_a_refresh_keeps_the_widgets_data() {
    let (cut, sent) = cut_answer(5_000, 64 * 1024);
    let small = Ok(ToolResult::json(json!([{"city": "Oslo"}])));
    let h = harness(vec![Ok(cut.clone()), small, Ok(cut)]);
    let call = json!({"name": "stat-card", "params": {"label": "City"}, "source": {"call": "geo_mcp_cities", "map": "{value: .[0].city}"}});
    let answer = h.err("widget_display", call.clone());
    let message = answer["error"].as_str().unwrap();
    let sizes = format!("({:.1} kB, the limit is 65.5 kB)", sent as f64 / 1e3);
    assert!(message.starts_with(&format!("source: the source's answer was too large {sizes}")), "{message}");

    let id = h.ok("widget_display", call)["id"].as_str().unwrap().to_owned();
    let error = block_on(h.ui.refresh_block(&BlockId::new(&id), CancelToken::default())).unwrap_err();
    assert!(error.starts_with("the source's answer was too large"), "{error}");
    assert_eq!(h.block(&id).data["value"], "Oslo", "the last good data stays");
}

#[test]
fn a_text_that_only_looks_like_a_cut_note_is_read_as_usual() {
    let answers = Answers(RefCell::new(vec![Ok(ToolResult::text("[result cut: nothing, this is a log line]"))]));
    let source = Source::parse(&json!({"call": "log_mcp_tail", "map": "{value: .}"})).unwrap();
    let fetched = block_on(fetch::fetch(&answers, &source, &json!({}), CancelToken::default())).unwrap();
    assert_eq!(fetched.params["value"], "[result cut: nothing, this is a log line]");
}
