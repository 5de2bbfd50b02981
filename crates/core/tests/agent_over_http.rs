//! A session driven through the real HTTP model and the Anthropic wire (over a scripted transport):
//! a tool call cut off by the output token limit is answered with an error the model can act on,
//! and the conversation it sends next is one the API accepts.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::agent::buffer::ResultBuffer;
use autoui_core::agent::event::AgentEvent;
use autoui_core::agent::session::{AgentConfig, AgentDeps, AgentSession, UserTurn};
use autoui_core::agent::stop::StopReason;
use autoui_core::cancel::CancelToken;
use autoui_core::llm::http::HttpChatModel;
use autoui_core::settings::Settings;
use autoui_core::tool::LocalServer;
use common::autoui::FakeAutoui;
use common::clock::FakeClock;
use common::mcp::FakeMcp;
use common::transport::{FakeTransport, Scripted};
use common::{Counter, fixture};
use futures::executor::block_on;
use serde_json::{Value, json};

#[test]
fn a_tool_call_cut_off_by_the_token_limit_gets_an_actionable_error_and_the_run_goes_on() {
    let transport = Rc::new(FakeTransport::new([
        Scripted::sse(&fixture("anthropic_max_tokens.sse"), 9),
        Scripted::sse(&fixture("anthropic_text.sse"), 9),
    ]));
    let clock = FakeClock::new();
    let results = Rc::new(ResultBuffer::new());
    let autoui = Rc::new(FakeAutoui::new(results.clone()));
    let local: Vec<Rc<dyn LocalServer>> = vec![autoui.clone()];
    let deps = AgentDeps {
        model: Rc::new(HttpChatModel::new(transport.clone(), Rc::new(clock.clone()), Rc::new(Counter::default()))),
        local,
        remote: Rc::new(FakeMcp::new()),
        clock: Rc::new(clock),
        results,
    };
    let mut session = AgentSession::new(deps, AgentConfig::default());
    let settings = Settings { api_key: "sk-ant-test".to_owned(), ..Settings::default() };
    let events = RefCell::new(Vec::<AgentEvent>::new());
    let summary = block_on(session.run(UserTurn::text("a big table"), &settings, CancelToken::new(), &events));

    assert_eq!(summary.reason, StopReason::Completed);
    assert!(autoui.received.borrow().is_empty(), "the cut-off call never reached the server");
    let record = &summary.calls[0];
    assert!(record.is_error());
    assert_eq!(
        record.args["unparsed_arguments"].as_str().map(|raw| raw.starts_with("{\"name\": \"data-table\"")),
        Some(true)
    );

    let second: Value = serde_json::from_str(transport.requests()[1].body.as_deref().expect("body")).expect("JSON");
    let messages = second["messages"].as_array().expect("messages");
    assert_eq!(
        messages[1]["content"][0],
        json!({ "type": "tool_use", "id": "toolu_01CutOff", "name": "autoui_webmcp_widget_display", "input": {} })
    );
    let result = &messages[2]["content"][0];
    assert_eq!(result["tool_use_id"], "toolu_01CutOff");
    assert_eq!(result["is_error"], true);
    let text = result["content"][0]["text"].as_str().expect("text");
    assert!(text.starts_with("Error: the arguments of this call are not valid JSON"), "{text}");
    assert!(text.contains("call again with smaller arguments"), "{text}");
}
