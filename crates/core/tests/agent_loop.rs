//! The loop's contract: each way a run ends has its own stop reason; Stop reaches the LLM request and
//! tool calls in flight and leaves a valid conversation; a reply that says nothing is reported and
//! leaves no empty message; text that streamed before Stop or a failure is kept; streaming reaches the
//! sink as it arrives; a conversation survives persistence, with the tool lists of its activated
//! servers, and a running turn reports where it could be sent again from.

mod common;

use std::rc::Rc;

use autoui_core::agent::event::AgentEvent;
use autoui_core::agent::frame::framed;
use autoui_core::agent::session::{AgentConfig, AgentDeps, AgentSession, SessionSnapshot, UserTurn};
use autoui_core::agent::stop::StopReason;
use autoui_core::cancel::CancelToken;
use autoui_core::ids::ServerId;
use autoui_core::llm::message::{ContentBlock, Role};
use autoui_core::llm::model::{ChatModel, ChatRequest, LlmError, ModelEvent, ModelReply, Usage};
use autoui_core::remote::RemoteStatus;
use autoui_core::settings::Settings;
use autoui_core::tool::{ResultPart, ToolResult};
use common::harness::Harness;
use common::mcp::{Behaviour, FakeMcp, spec};
use common::model::{Step, call, text};
use common::yield_now;
use futures::executor::block_on;
use futures::future::LocalBoxFuture;
use serde_json::json;

fn weather() -> FakeMcp {
    FakeMcp::new().server("weather", vec![spec("get_forecast", "Forecast for a city")]).on(
        "weather",
        "get_forecast",
        Behaviour::Reply(ToolResult::json(json!({ "city": "Paris", "temp": 18 }))),
    )
}

fn last_stop(harness: &Harness) -> Option<StopReason> {
    harness.events().into_iter().rev().find_map(|event| match event {
        AgentEvent::RunStopped { reason, .. } => Some(reason),
        _ => None,
    })
}

#[test]
fn a_reply_without_tool_calls_completes_the_run() {
    let mut harness = Harness::new([Step::Reply(vec![text("Hello! What should I show?")])], weather());
    let summary = harness.run("hi");
    assert_eq!(summary.reason, StopReason::Completed);
    assert_eq!(summary.iterations, 1);
    assert_eq!(last_stop(&harness), Some(StopReason::Completed));
    let messages = harness.session.messages();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[1].role, Role::Assistant);
}

#[test]
fn the_iteration_cap_stops_a_model_that_keeps_calling_tools() {
    let steps = (0..5)
        .map(|n| Step::Reply(vec![call(&format!("c{n}"), "weather_mcp_get_forecast", json!({ "city": "Paris" }))]));
    let mut harness = Harness::new(steps, weather());
    harness.settings.max_iterations = 3;
    let summary = harness.run("forecast forever");
    assert_eq!(summary.reason, StopReason::IterationLimit { limit: 3 });
    assert_eq!(harness.model.seen().len(), 3);
    assert!(summary.reason.describe().contains("3 iterations"), "{}", summary.reason.describe());
    // Every tool_use got its tool_result, so the next turn can go on.
    let last = harness.session.messages().last().expect("messages");
    assert!(matches!(last.content[0], ContentBlock::ToolResult { .. }));
}

#[test]
fn the_default_cap_is_twelve_iterations() {
    let steps =
        (0..13).map(|n| Step::Reply(vec![call(&format!("c{n}"), "weather_mcp_get_forecast", json!({ "n": n }))]));
    let mut harness = Harness::new(steps, weather());
    assert_eq!(harness.run("loop").reason, StopReason::IterationLimit { limit: 12 });
}

#[test]
fn a_provider_failure_stops_the_run_with_the_providers_own_message() {
    let error = LlmError::Api {
        provider: "Anthropic".to_owned(),
        status: 401,
        message: "invalid x-api-key".to_owned(),
        retry_after_ms: None,
    };
    let mut harness = Harness::new([Step::Fail(error)], weather());
    let summary = harness.run("hi");
    let StopReason::ProviderFailed { message, .. } = &summary.reason else { panic!("{:?}", summary.reason) };
    assert!(summary.reason.fixed_in_settings(), "a refused key is changed in the settings");
    assert!(message.contains("invalid x-api-key") && message.contains("401"), "{message}");
    assert_eq!(
        summary.reason.describe(),
        "Stopped: Anthropic answered 401: invalid x-api-key. The provider refused the API key: check it in Settings."
    );
}

#[test]
fn a_provider_stop_without_the_settings_flag_reads_as_not_fixed_in_settings() {
    let before: StopReason =
        serde_json::from_value(json!({"reason": "provider_failed", "message": "Anthropic answered 400: bad"})).expect("reads");
    assert!(!before.fixed_in_settings());
    // The flag is written only when set, so a stop that needs no settings keeps its JSON shape.
    let plain = StopReason::ProviderFailed { message: "down".to_owned(), settings: false };
    assert_eq!(serde_json::to_value(&plain).expect("writes"), json!({"reason": "provider_failed", "message": "down"}));
    let key = StopReason::ProviderFailed { message: "401".to_owned(), settings: true };
    let read: StopReason = serde_json::from_value(serde_json::to_value(&key).expect("writes")).expect("reads");
    assert!(read.fixed_in_settings());
}

#[test]
fn a_provider_refusal_says_what_to_change_where_its_status_tells() {
    let stopped = |status: u16, message: &str| {
        let error = LlmError::Api { provider: "OpenAI".to_owned(), status, message: message.to_owned(), retry_after_ms: None };
        Harness::new([Step::Fail(error)], weather()).run("hi").reason
    };
    let stop = |status: u16, message: &str| stopped(status, message).describe();
    assert!(stopped(404, "no such model").fixed_in_settings());
    assert!(!stopped(429, "slow down").fixed_in_settings(), "a rate limit is waited out, not configured");
    assert_eq!(
        stop(404, "The model `gpt-9` does not exist."),
        "Stopped: OpenAI answered 404: The model `gpt-9` does not exist. Check the model's name and the base URL in Settings."
    );
    assert!(stop(429, "Rate limit reached").ends_with("wait a minute, then press Retry."));
    assert!(stop(503, "upstream unavailable").ends_with("press Retry in a moment."));
    // A 400 is the request itself: the provider's own words are the advice.
    assert_eq!(stop(400, "max_tokens is too large"), "Stopped: OpenAI answered 400: max_tokens is too large");
    let unreachable = LlmError::Unreachable {
        provider: "Ollama".to_owned(),
        url: "http://127.0.0.1:11434".to_owned(),
        detail: "connection refused".to_owned(),
        hint: "is Ollama running?".to_owned(),
    };
    assert_eq!(
        Harness::new([Step::Fail(unreachable)], weather()).run("hi").reason.describe(),
        "Stopped: could not reach Ollama at http://127.0.0.1:11434: connection refused; is Ollama running?"
    );
}

#[test]
fn stop_during_the_llm_stream_ends_the_run_and_keeps_what_was_shown() {
    let mut harness = Harness::new(
        [Step::HangAfter("Working on your dash".to_owned()), Step::Reply(vec![text("Resuming.")])],
        weather(),
    );
    let cancel = CancelToken::new();
    let stopper = cancel.clone();
    let summary = block_on(async {
        let run = harness.session.run(UserTurn::text("sales"), &harness.settings, cancel, &harness.events);
        let stop = async {
            yield_now().await;
            stopper.cancel();
        };
        futures::join!(run, stop).0
    });
    assert_eq!(summary.reason, StopReason::Cancelled);
    assert_eq!(last_stop(&harness), Some(StopReason::Cancelled));
    let messages = harness.session.messages();
    assert_eq!(messages.last().map(|message| message.role), Some(Role::Assistant));
    assert_eq!(messages.last().map(|message| message.content.clone()), Some(vec![text("Working on your dash")]));

    let next = harness.run("go on");
    assert_eq!(next.reason, StopReason::Completed);
    let sent = &harness.model.seen()[1];
    assert_eq!(sent.messages.len(), 3, "user, the partial assistant text, user");
}

#[test]
fn a_reply_that_says_nothing_after_a_tool_result_ends_the_turn_with_a_note_and_retry_asks_again() {
    let mut harness = Harness::new(
        [
            Step::Reply(vec![call("f1", "weather_mcp_get_forecast", json!({ "city": "Paris" }))]),
            Step::Reply(Vec::new()),
            Step::Reply(vec![text("18°C in Paris.")]),
        ],
        weather(),
    );
    let summary = harness.run("weather in Paris");
    assert_eq!(summary.reason, StopReason::EmptyReply);
    assert_eq!(last_stop(&harness), Some(StopReason::EmptyReply));
    assert_eq!(summary.reason.describe(), "The model ended its reply without saying anything. Retry, or rephrase.");
    // Providers refuse an empty assistant message: the conversation ends with the call's result.
    let messages = harness.session.messages();
    assert_eq!(messages.len(), 3, "the person's message, the call and its result");
    assert!(matches!(messages[2].content[0], ContentBlock::ToolResult { .. }));

    let retried = harness.run_turn(UserTurn::default(), CancelToken::new());
    assert_eq!(retried.reason, StopReason::Completed);
    let seen = harness.model.seen();
    assert_eq!(seen[2].messages, seen[1].messages, "Retry sends the same conversation again");
}

#[test]
fn a_reply_of_only_whitespace_counts_as_saying_nothing() {
    let mut harness = Harness::new([Step::Reply(vec![text("\n\n ")])], weather());
    assert_eq!(harness.run("hi").reason, StopReason::EmptyReply);
    assert_eq!(harness.session.messages().len(), 1, "only the person's message");
}

/// Streams `text`, then fails: a dropped stream, a 5xx in the middle of the reply, the idle timeout.
struct FailsMidReply {
    text: &'static str,
    error: LlmError,
}

impl ChatModel for FailsMidReply {
    fn request_bytes(&self, _request: &ChatRequest<'_>, _settings: &Settings) -> usize {
        0
    }

    fn complete<'a>(
        &'a self,
        _request: ChatRequest<'a>,
        _settings: &'a Settings,
        _cancel: CancelToken,
        events: &'a dyn Fn(ModelEvent),
    ) -> LocalBoxFuture<'a, Result<ModelReply, LlmError>> {
        Box::pin(async move {
            for piece in self.text.split_inclusive(' ') {
                events(ModelEvent::TextDelta(piece.to_owned()));
            }
            Err(self.error.clone())
        })
    }
}

#[test]
fn a_provider_failure_after_text_streamed_keeps_the_text_and_reports_the_failure() {
    let harness = Harness::new([Step::Reply(vec![text("and here is the rest.")])], weather());
    let error = LlmError::Api {
        provider: "Anthropic".to_owned(),
        status: 529,
        message: "Overloaded".to_owned(),
        retry_after_ms: None,
    };
    let failing = FailsMidReply { text: "Here is the first part", error };
    let mut session = AgentSession::new(AgentDeps { model: Rc::new(failing), ..deps_of(&harness) }, AgentConfig::default());
    let summary =
        block_on(session.run(UserTurn::text("sales"), &harness.settings, CancelToken::new(), &harness.events));
    let StopReason::ProviderFailed { message, .. } = &summary.reason else { panic!("{:?}", summary.reason) };
    assert!(message.contains("529") && message.contains("Overloaded"), "{message}");
    assert_eq!(last_stop(&harness), Some(summary.reason.clone()));
    let messages = session.messages();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[1].role, Role::Assistant);
    assert_eq!(messages[1].content, vec![text("Here is the first part")]);

    // A reload reads the conversation back with the text in it.
    let stored = serde_json::to_string(&session.snapshot()).expect("serialisable");
    let snapshot: SessionSnapshot = serde_json::from_str(&stored).expect("readable");
    let mut restored = AgentSession::restore(deps_of(&harness), AgentConfig::default(), snapshot);
    assert_eq!(restored.messages(), messages);

    // Retry shows the model what it already said, and ends with a user message (models that take no
    // prefill refuse a conversation that ends with their own).
    let retried = block_on(restored.run(UserTurn::default(), &harness.settings, CancelToken::new(), &harness.events));
    assert_eq!(retried.reason, StopReason::Completed);
    let sent = &harness.model.seen()[0];
    assert_eq!(sent.messages.len(), 3, "the person's message, the partial reply, a note to go on");
    assert_eq!(sent.messages[1].content, vec![text("Here is the first part")]);
    assert_eq!(sent.messages[2].role, Role::User);
    assert!(sent.last_user_text().contains("stopped before it was complete"), "{}", sent.last_user_text());
}

#[test]
fn stop_during_a_tool_call_reaches_the_call_and_answers_every_pending_tool_use() {
    let mcp =
        FakeMcp::new().server("slow", vec![spec("crunch", "Takes forever")]).on("slow", "crunch", Behaviour::Hang);
    let mut harness = Harness::new(
        [Step::Reply(vec![
            call("a", "slow_mcp_crunch", json!({})),
            call("b", "autoui_webmcp_list_recipes", json!({})),
        ])],
        mcp,
    );
    let cancel = CancelToken::new();
    let stopper = cancel.clone();
    let summary = block_on(async {
        let run = harness.session.run(UserTurn::text("crunch"), &harness.settings, cancel, &harness.events);
        let stop = async {
            yield_now().await;
            stopper.cancel();
        };
        futures::join!(run, stop).0
    });
    assert_eq!(summary.reason, StopReason::Cancelled);
    assert_eq!(harness.mcp.stopped(), 1, "the in-flight MCP call saw the Stop");
    assert_eq!(harness.model.seen().len(), 1, "no LLM request after Stop");
    assert!(harness.autoui.received.borrow().is_empty(), "the second call never ran");
    let results: Vec<(String, String)> = harness
        .session
        .messages()
        .last()
        .expect("tool results")
        .content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::ToolResult { tool_use_id, content, is_error: true } => match &content[0] {
                ResultPart::Text { text } => Some((tool_use_id.clone(), text.clone())),
                ResultPart::Image { .. } => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(
        results,
        vec![
            ("a".to_owned(), "Error: cancelled by the user".to_owned()),
            ("b".to_owned(), "Error: cancelled by the user before this call ran".to_owned()),
        ]
    );
}

#[test]
fn text_streams_to_the_sink_in_pieces_before_the_run_ends() {
    let mut harness =
        Harness::new([Step::Reply(vec![text("Here is your dashboard, built from live data.")])], weather());
    harness.run("hi");
    let events = harness.events();
    let pieces: Vec<String> = events
        .iter()
        .filter_map(|event| match event {
            AgentEvent::TextStreamed { delta } => Some(delta.clone()),
            _ => None,
        })
        .collect();
    assert!(pieces.len() > 3, "{pieces:?}");
    assert_eq!(pieces.concat(), "Here is your dashboard, built from live data.");
    // The person's message is kept first, then the request goes out.
    assert!(matches!(events.first(), Some(AgentEvent::ConversationAdvanced { .. })));
    assert!(matches!(events.get(1), Some(AgentEvent::IterationStarted { iteration: 1, .. })));
    assert!(matches!(events.last(), Some(AgentEvent::RunStopped { .. })));
}

#[test]
fn tool_input_streams_with_a_parsed_prefix_that_names_the_widget_before_the_call_starts() {
    let params = json!({ "label": "Revenue with a long descriptive label", "value": "€1.2M", "trend": "up" });
    let mut harness = Harness::new(
        [
            Step::Reply(vec![call(
                "w",
                "autoui_webmcp_widget_display",
                json!({ "name": "stat-card", "params": params }),
            )]),
            Step::Reply(vec![text("Done.")]),
        ],
        weather(),
    );
    harness.run("show revenue");
    let events = harness.events();
    let started =
        events.iter().position(|event| matches!(event, AgentEvent::ToolCallStarted { .. })).expect("the call started");
    let streamed: Vec<(String, Option<serde_json::Value>)> = events[..started]
        .iter()
        .filter_map(|event| match event {
            AgentEvent::ToolInputStreamed { call_id, name, delta, parsed } if call_id.as_str() == "w" => {
                assert_eq!(name, "autoui_webmcp_widget_display");
                Some((delta.clone(), parsed.clone()))
            }
            _ => None,
        })
        .collect();
    let json: String = streamed.iter().map(|(delta, _)| delta.as_str()).collect();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&json).ok(),
        Some(json!({ "name": "stat-card", "params": params }))
    );
    let parsed: Vec<&serde_json::Value> = streamed.iter().filter_map(|(_, parsed)| parsed.as_ref()).collect();
    assert!(parsed.len() >= 2, "the prefix is re-parsed as it grows");
    assert_eq!(parsed[0]["name"], "stat-card", "the widget is known early: {}", parsed[0]);
    assert_ne!(parsed[0], &json!({ "name": "stat-card", "params": params }), "the first parse saw only a prefix");
}

#[test]
fn usage_and_cost_are_reported_per_iteration_and_summed_for_the_run() {
    let mut harness = Harness::new(
        [
            Step::Reply(vec![call("c", "weather_mcp_get_forecast", json!({}))]),
            Step::Reply(vec![text("18°C in Paris.")]),
        ],
        weather(),
    );
    harness.settings.model = "claude-sonnet-4-5".to_owned();
    let summary = harness.run("weather");
    let per_iteration: Vec<(Usage, Option<f64>)> = harness
        .events()
        .into_iter()
        .filter_map(|event| match event {
            AgentEvent::IterationFinished { usage, cost_usd, request_bytes, .. } => {
                assert!(request_bytes > 0);
                Some((usage, cost_usd))
            }
            _ => None,
        })
        .collect();
    assert_eq!(per_iteration.len(), 2);
    // 1,000 input tokens at $3/M and 100 output at $15/M per iteration.
    assert!((per_iteration[0].1.expect("priced") - 0.0045).abs() < 1e-9);
    assert_eq!(summary.usage.input_tokens, 2_000);
    assert_eq!(summary.usage.output_tokens, 200);
    assert!((summary.cost_usd.expect("priced") - 0.009).abs() < 1e-9);
}

#[test]
fn extra_context_goes_before_the_users_words_in_the_same_message() {
    let mut harness = Harness::new([Step::Reply(vec![text("Noted.")])], weather());
    let turn = UserTurn::text("why did it drop?").with_context("The user clicked bar \"March\" in widget w_3.");
    harness.run_turn(turn, CancelToken::new());
    let first = &harness.model.seen()[0].messages[0];
    assert_eq!(first.role, Role::User);
    assert_eq!(
        first.content,
        vec![text("<context>\nThe user clicked bar \"March\" in widget w_3.\n</context>"), text("why did it drop?")]
    );
}

#[test]
fn a_persisted_conversation_restores_messages_activations_and_recallable_results() {
    let mut harness = Harness::new(
        [
            Step::Reply(vec![call("f1", "weather_mcp_get_forecast", json!({ "city": "Paris" }))]),
            Step::Reply(vec![text("18°C.")]),
        ],
        weather(),
    );
    harness.run("weather in Paris");
    let stored = serde_json::to_string(&harness.session.snapshot()).expect("serialisable");
    let snapshot: SessionSnapshot = serde_json::from_str(&stored).expect("readable");

    let restored = Harness::new(
        [Step::Reply(vec![call("r", "autoui_webmcp_recall", json!({ "id": "f1" }))]), Step::Reply(vec![text("Same.")])],
        weather(),
    );
    let deps = AgentDeps {
        model: restored.model.clone(),
        local: vec![restored.autoui.clone()],
        remote: restored.mcp.clone(),
        clock: std::rc::Rc::new(restored.clock.clone()),
        results: restored.results.clone(),
    };
    let mut session = AgentSession::restore(deps, AgentConfig::default(), snapshot);
    assert_eq!(session.messages(), harness.session.messages());
    block_on(session.run(UserTurn::text("and again?"), &restored.settings, CancelToken::new(), &restored.events));

    let first = &restored.model.seen()[0];
    assert_eq!(first.messages.len(), 5, "the old turn is sent again");
    assert!(first.tools.contains(&"weather_mcp_get_forecast".to_owned()), "weather stays activated");
    let recalled = restored.model.seen()[1].result_of("r").expect("recall answered");
    let forecast = json!({ "city": "Paris", "temp": 18 }).to_string();
    assert_eq!(recalled, framed(&ServerId::sanitize("weather"), &forecast), "still named as the server's data");
}

#[test]
fn the_tools_of_servers_activated_before_a_reload_are_offered_while_they_connect_then_their_own_list() {
    let mut harness = Harness::new(
        [
            Step::Reply(vec![call("f1", "weather_mcp_get_forecast", json!({ "city": "Paris" }))]),
            Step::Reply(vec![text("18°C.")]),
        ],
        weather(),
    );
    harness.run("weather in Paris");
    let stored = serde_json::to_string(&harness.session.snapshot()).expect("serialisable");
    let snapshot: SessionSnapshot = serde_json::from_str(&stored).expect("readable");
    assert_eq!(snapshot.tool_lists.len(), 1, "the activated server's list is kept");

    // After the reload the server is still connecting: it lists no tools yet.
    let connecting = FakeMcp::new().server_with_status("weather", Vec::new(), RemoteStatus::Connecting);
    let restored = Harness::new([Step::Reply(vec![text("Still 18°C.")]), Step::Reply(vec![text("Rain.")])], connecting);
    let mut session = AgentSession::restore(deps_of(&restored), AgentConfig::default(), snapshot);
    block_on(session.run(UserTurn::text("and tomorrow?"), &restored.settings, CancelToken::new(), &restored.events));
    assert!(
        restored.model.seen()[0].tools.contains(&"weather_mcp_get_forecast".to_owned()),
        "the first request after the reload offers the stored tools: {:?}",
        restored.model.seen()[0].tools
    );

    // Connected, with another list: it replaces the stored one, in requests and in what is stored.
    restored.mcp.set_server("weather", vec![spec("get_hourly", "Hour by hour")], RemoteStatus::Connected);
    block_on(session.run(UserTurn::text("by the hour?"), &restored.settings, CancelToken::new(), &restored.events));
    let tools = &restored.model.seen()[1].tools;
    assert!(tools.contains(&"weather_mcp_get_hourly".to_owned()) && !tools.contains(&"weather_mcp_get_forecast".to_owned()), "{tools:?}");
    let lists = session.snapshot().tool_lists;
    assert_eq!(lists.iter().flat_map(|list| list.tools.iter().map(|tool| tool.name.as_str())).collect::<Vec<_>>(), ["get_hourly"]);
}

#[test]
fn a_running_turn_reports_its_conversation_whenever_it_could_be_sent_again() {
    let mut harness = Harness::new(
        [
            Step::Reply(vec![call("f1", "weather_mcp_get_forecast", json!({ "city": "Paris" }))]),
            Step::Reply(vec![text("18°C.")]),
        ],
        weather(),
    );
    harness.run("weather in Paris");
    let advanced: Vec<SessionSnapshot> = harness
        .events()
        .into_iter()
        .filter_map(|event| match event {
            AgentEvent::ConversationAdvanced { snapshot } => Some(snapshot),
            _ => None,
        })
        .collect();
    let lengths: Vec<usize> = advanced.iter().map(|snapshot| snapshot.messages.len()).collect();
    assert_eq!(lengths, [1, 3], "the person's message, then the finished tool step");
    for snapshot in &advanced {
        assert!(snapshot.in_flight);
        assert_eq!(snapshot.messages.last().map(|message| message.role), Some(Role::User), "each ends where a request can start");
    }
    assert!(matches!(advanced[1].messages[2].content[0], ContentBlock::ToolResult { .. }));
    let step = &advanced[1];
    assert_eq!(step.activated.len(), 1, "the server the step activated is kept with it");
    assert_eq!(step.tool_lists.len(), 1, "and its tool list");
    assert_eq!(step.results.len(), 1, "and the step's full result");
}

fn deps_of(harness: &Harness) -> AgentDeps {
    AgentDeps {
        model: harness.model.clone(),
        local: vec![harness.autoui.clone()],
        remote: harness.mcp.clone(),
        clock: std::rc::Rc::new(harness.clock.clone()),
        results: harness.results.clone(),
    }
}

#[test]
fn clearing_the_session_forgets_messages_activations_and_results() {
    let mut harness = Harness::new(
        [Step::Reply(vec![call("f1", "weather_mcp_get_forecast", json!({}))]), Step::Reply(vec![text("18°C.")])],
        weather(),
    );
    harness.run("weather");
    assert!(!harness.results.is_empty());
    harness.session.clear();
    assert!(harness.session.messages().is_empty());
    assert!(harness.session.activated().is_empty());
    assert!(harness.results.is_empty());
}

#[test]
fn an_empty_turn_lets_the_model_go_on_where_the_last_run_stopped() {
    let mut harness = Harness::new(
        [
            Step::Reply(vec![call("c1", "weather_mcp_get_forecast", json!({}))]),
            Step::Reply(vec![text("18°C in Paris.")]),
        ],
        weather(),
    );
    harness.settings.max_iterations = 1;
    assert_eq!(harness.run("weather").reason, StopReason::IterationLimit { limit: 1 });
    let summary = harness.run_turn(UserTurn::default(), CancelToken::new());
    assert_eq!(summary.reason, StopReason::Completed);
    let resumed = &harness.model.seen()[1];
    assert_eq!(resumed.messages.len(), 3, "no empty user message was added");
    assert!(matches!(resumed.messages[2].content[0], ContentBlock::ToolResult { .. }));
}
