//! The repetition guard: the same tool with the same arguments failing twice in a run makes the
//! third attempt come back with a note to change approach, without calling the tool again.

mod common;

use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::dispatch::{Dispatcher, Executed};
use autoui_core::ids::CallId;
use autoui_core::tool::{LocalServer, ToolResult};
use common::clock::FakeClock;
use common::mcp::{Behaviour, FakeMcp, spec};
use futures::executor::block_on;
use serde_json::{Value, json};

fn failing() -> (Dispatcher, Rc<FakeMcp>) {
    let mcp = FakeMcp::new().server("db", vec![spec("query", "SQL")]).on_args("db", "query", |args| {
        match args.get("sql").and_then(Value::as_str) {
            Some("SELECT 1") => Behaviour::Reply(ToolResult::text("1")),
            _ => Behaviour::Fail("syntax error at or near \"SELEC\"".to_owned()),
        }
    });
    let mcp = Rc::new(mcp);
    let dispatcher = Dispatcher::new(Vec::<Rc<dyn LocalServer>>::new(), mcp.clone(), Rc::new(FakeClock::new()), 60_000);
    (dispatcher, mcp)
}

fn call(dispatcher: &mut Dispatcher, args: Value) -> Executed {
    let catalog = dispatcher.catalog();
    let prepared = dispatcher.prepare(&catalog, CallId::new("c"), "db_mcp_query", args);
    block_on(dispatcher.execute(&catalog, prepared, &CancelToken::new()))
}

#[test]
fn the_third_identical_failing_call_is_answered_with_a_note_and_not_made() {
    let (mut dispatcher, mcp) = failing();
    let bad = json!({ "sql": "SELEC 1" });
    assert_eq!(call(&mut dispatcher, bad.clone()).text.as_ref(), "Error: syntax error at or near \"SELEC\"");
    call(&mut dispatcher, bad.clone());
    let third = call(&mut dispatcher, bad);
    assert!(third.result.is_error);
    assert!(
        third.text.starts_with("Error: this exact call to db_mcp_query already failed 2 times in this run"),
        "{}",
        third.text
    );
    assert!(third.text.contains("syntax error at or near"), "the note repeats the last error");
    assert!(third.text.contains("change approach"), "{}", third.text);
    assert_eq!(mcp.calls().len(), 2);
}

#[test]
fn the_same_arguments_in_another_key_order_are_the_same_call() {
    let (mut dispatcher, mcp) = failing();
    call(&mut dispatcher, json!({ "sql": "SELEC 1", "limit": 5 }));
    call(&mut dispatcher, json!({ "limit": 5, "sql": "SELEC 1" }));
    assert!(call(&mut dispatcher, json!({ "sql": "SELEC 1", "limit": 5 })).text.contains("already failed 2 times"));
    assert_eq!(mcp.calls().len(), 2);
}

#[test]
fn changed_arguments_are_tried_and_a_success_clears_the_count() {
    let (mut dispatcher, mcp) = failing();
    call(&mut dispatcher, json!({ "sql": "SELEC 1" }));
    call(&mut dispatcher, json!({ "sql": "SELEC 1" }));
    assert_eq!(call(&mut dispatcher, json!({ "sql": "SELECT 1" })).text.as_ref(), "1", "other arguments go through");
    assert_eq!(mcp.calls().len(), 3);
}

#[test]
fn the_guard_starts_over_with_each_run() {
    let (mut dispatcher, mcp) = failing();
    call(&mut dispatcher, json!({ "sql": "SELEC 1" }));
    call(&mut dispatcher, json!({ "sql": "SELEC 1" }));
    dispatcher.begin_run();
    assert_eq!(
        call(&mut dispatcher, json!({ "sql": "SELEC 1" })).text.as_ref(),
        "Error: syntax error at or near \"SELEC\""
    );
    assert_eq!(mcp.calls().len(), 3);
}
