//! Tool approval: the default policy (remote tools that are not read-only, and destructive ones, ask;
//! the built-in servers never do), the person's remembered choices, and the dispatcher waiting on the
//! approver before a remote call: a denial reaches the model and the server never sees the call,
//! Stop ends the wait with nothing run, an edit runs with the person's arguments, and edited
//! arguments are checked against the tool's `inputSchema`.

mod common;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;

use autoui_core::approval::{
    AllowScope, ApprovalAnswer, ApprovalChoice, ApprovalRequest, ApprovalRules, Approver, ArgumentsRefused, Gate,
    ServerKind, ToolFacts, check_arguments, gate, runs_unattended,
};
use autoui_core::cancel::CancelToken;
use autoui_core::dispatch::{Dispatcher, Executed};
use autoui_core::ids::{CallId, ServerId};
use autoui_core::mcp::config::ServerConfig;
use autoui_core::recipes::validate::in_process::JsonSchemaValidator;
use autoui_core::tool::{LocalServer, ToolHints, ToolResult, ToolSpec};
use common::autoui::{FakeAutoui, FakeSamples};
use common::clock::FakeClock;
use common::mcp::{Behaviour, FakeMcp, spec};
use futures::executor::block_on;
use futures::future::LocalBoxFuture;
use serde_json::{Value, json};

const NO_HINTS: ToolHints = ToolHints { destructive: None, idempotent: None, open_world: None };
const READ_ONLY: ToolFacts = ToolFacts { read_only: true, hints: NO_HINTS };
const WRITES: ToolFacts = ToolFacts { read_only: false, hints: NO_HINTS };
const DESTRUCTIVE: ToolFacts = ToolFacts { read_only: false, hints: ToolHints { destructive: Some(true), ..NO_HINTS } };

#[test]
fn by_default_remote_tools_ask_unless_read_only_and_built_in_ones_never_ask() {
    assert_eq!(gate(ServerKind::Remote, READ_ONLY, None, false), Gate::Run);
    assert_eq!(gate(ServerKind::Remote, WRITES, None, false), Gate::Ask);
    assert_eq!(gate(ServerKind::Remote, DESTRUCTIVE, None, false), Gate::Ask);
    let read_only_but_destructive = ToolFacts { read_only: true, ..DESTRUCTIVE };
    assert_eq!(gate(ServerKind::Remote, read_only_but_destructive, None, false), Gate::Ask, "destructive always asks");
    for facts in [READ_ONLY, WRITES, DESTRUCTIVE] {
        assert_eq!(gate(ServerKind::BuiltIn, facts, Some(ApprovalChoice::Never), false), Gate::Run);
    }
}

#[test]
fn remembered_choices_decide_over_the_hints() {
    let remote = |choice, granted| gate(ServerKind::Remote, DESTRUCTIVE, Some(choice), granted);
    assert_eq!(remote(ApprovalChoice::AlwaysAllow, false), Gate::Run);
    assert_eq!(remote(ApprovalChoice::Never, true), Gate::Refuse, "never wins even over a grant");
    assert_eq!(remote(ApprovalChoice::Ask, true), Gate::Ask, "ask every time means every time");
    assert_eq!(remote(ApprovalChoice::AllowForChat, false), Gate::Ask, "once per chat");
    assert_eq!(remote(ApprovalChoice::AllowForChat, true), Gate::Run);
    assert_eq!(gate(ServerKind::Remote, READ_ONLY, Some(ApprovalChoice::Never), false), Gate::Refuse);
    assert_eq!(gate(ServerKind::Remote, READ_ONLY, Some(ApprovalChoice::Ask), false), Gate::Ask);
}

#[test]
fn only_calls_that_run_without_asking_in_a_fresh_chat_run_unattended() {
    assert!(runs_unattended(ServerKind::BuiltIn, DESTRUCTIVE, None));
    assert!(runs_unattended(ServerKind::Remote, READ_ONLY, None));
    assert!(runs_unattended(ServerKind::Remote, DESTRUCTIVE, Some(ApprovalChoice::AlwaysAllow)));
    assert!(!runs_unattended(ServerKind::Remote, WRITES, None));
    assert!(!runs_unattended(ServerKind::Remote, READ_ONLY, Some(ApprovalChoice::AllowForChat)));
}

#[test]
fn a_tools_own_choice_wins_over_its_servers_and_the_rules_are_stored_with_the_config() {
    let mut rules = ApprovalRules { server: Some(ApprovalChoice::Never), ..ApprovalRules::default() };
    rules.set_tool("delete_note", Some(ApprovalChoice::AlwaysAllow));
    assert_eq!(rules.choice_for("delete_note"), Some(ApprovalChoice::AlwaysAllow));
    assert_eq!(rules.choice_for("add_note"), Some(ApprovalChoice::Never));
    let config = ServerConfig { approvals: rules.clone(), ..ServerConfig::new("https://notes.example/mcp") };
    let stored = serde_json::to_value(&config).unwrap();
    assert_eq!(stored["approvals"], json!({ "server": "never", "tools": { "delete_note": "always_allow" } }));
    let read: ServerConfig = serde_json::from_value(stored).unwrap();
    assert_eq!(read.approvals, rules);
    rules.set_tool("delete_note", None);
    assert_eq!(rules.choice_for("delete_note"), Some(ApprovalChoice::Never), "reset: back to the server's choice");
    let plain = serde_json::to_value(ServerConfig::new("https://a.example/mcp")).unwrap();
    assert!(plain.get("approvals").is_none(), "nothing stored when nothing was chosen");
}

#[test]
fn annotations_are_read_from_tools_list_and_kept_with_the_tool() {
    let tool: autoui_core::mcp::model::tool::Tool = serde_json::from_value(json!({
        "name": "delete_note",
        "inputSchema": { "type": "object" },
        "annotations": { "destructiveHint": true, "idempotentHint": false }
    }))
    .unwrap();
    let (spec, _) = tool.into_spec();
    assert!(!spec.read_only);
    assert_eq!(spec.hints, ToolHints { destructive: Some(true), idempotent: Some(false), open_world: None });
    let stored: ToolSpec = serde_json::from_value(serde_json::to_value(&spec).unwrap()).unwrap();
    assert_eq!(stored, spec, "a stored tool list keeps the hints");
}

/// Answers approval requests from a script, recording what it was asked and told to remember.
#[derive(Default)]
struct ScriptedApprover {
    answers: RefCell<VecDeque<Option<ApprovalAnswer>>>,
    asked: RefCell<Vec<ApprovalRequest>>,
    remembered: RefCell<Vec<(String, String, ApprovalChoice)>>,
    /// Pressed when a question arrives that has no scripted answer (the person presses Stop).
    stop: RefCell<Option<CancelToken>>,
}

impl ScriptedApprover {
    fn answering(answers: Vec<Option<ApprovalAnswer>>) -> Rc<ScriptedApprover> {
        Rc::new(ScriptedApprover { answers: RefCell::new(answers.into()), ..ScriptedApprover::default() })
    }
}

impl Approver for ScriptedApprover {
    fn remembered(&self, server: &ServerId, tool: &str) -> Option<ApprovalChoice> {
        let remembered = self.remembered.borrow();
        remembered.iter().rev().find(|(s, t, _)| s == server.as_str() && t == tool).map(|(_, _, choice)| *choice)
    }

    fn remember(&self, server: &ServerId, tool: &str, choice: ApprovalChoice) {
        self.remembered.borrow_mut().push((server.to_string(), tool.to_owned(), choice));
    }

    fn ask(&self, request: ApprovalRequest) -> LocalBoxFuture<'static, ApprovalAnswer> {
        self.asked.borrow_mut().push(request);
        match self.answers.borrow_mut().pop_front().flatten() {
            Some(answer) => Box::pin(async move { answer }),
            None => {
                if let Some(stop) = self.stop.borrow().as_ref() {
                    stop.cancel();
                }
                Box::pin(futures::future::pending())
            }
        }
    }
}

fn destructive_spec(name: &str) -> ToolSpec {
    ToolSpec {
        input_schema: json!({
            "type": "object",
            "properties": { "id": { "type": "integer", "minimum": 1 } },
            "required": ["id"]
        }),
        read_only: false,
        hints: ToolHints { destructive: Some(true), ..ToolHints::default() },
        ..spec(name, "Deletes a note for good")
    }
}

struct Setup {
    dispatcher: Dispatcher,
    mcp: Rc<FakeMcp>,
}

fn notes() -> FakeMcp {
    FakeMcp::new()
        .server("Notes", vec![spec("list_notes", "Lists the notes"), destructive_spec("delete_note")])
        .on("notes", "list_notes", Behaviour::Reply(ToolResult::json(json!([{ "id": 1 }]))))
        .on_args("notes", "delete_note", |args| Behaviour::Reply(ToolResult::text(format!("deleted {}", args["id"]))))
}

fn setup(approver: Option<Rc<ScriptedApprover>>) -> Setup {
    let clock = FakeClock::new();
    let mcp = Rc::new(notes().with_clock(Rc::new(clock.clone())));
    let results = Rc::new(autoui_core::agent::buffer::ResultBuffer::new());
    let local: Vec<Rc<dyn LocalServer>> = vec![Rc::new(FakeAutoui::new(results)), Rc::new(FakeSamples)];
    let mut dispatcher = Dispatcher::new(local, mcp.clone(), Rc::new(clock), 60_000);
    if let Some(approver) = approver {
        dispatcher.set_approver(approver);
    }
    Setup { dispatcher, mcp }
}

impl Setup {
    fn call_with(&mut self, id: &str, name: &str, args: Value, cancel: &CancelToken) -> Executed {
        let catalog = self.dispatcher.catalog();
        let prepared = self.dispatcher.prepare(&catalog, CallId::new(id), name, args);
        block_on(self.dispatcher.execute(&catalog, prepared, cancel))
    }

    fn call(&mut self, id: &str, name: &str, args: Value) -> Executed {
        self.call_with(id, name, args, &CancelToken::new())
    }

    fn delete_calls(&self) -> usize {
        self.mcp.calls().iter().filter(|call| call.tool == "delete_note").count()
    }
}

#[test]
fn a_denied_call_never_reaches_the_server_and_the_model_is_told() {
    let approver = ScriptedApprover::answering(vec![Some(ApprovalAnswer::Deny)]);
    let mut setup = setup(Some(approver.clone()));
    let executed = setup.call("c1", "notes_mcp_delete_note", json!({ "id": 1 }));
    assert!(executed.result.is_error);
    assert!(executed.text.starts_with("The person declined this call: delete_note on the Notes server did not run"));
    assert_eq!(setup.delete_calls(), 0, "the server never saw it");
    let asked = approver.asked.borrow();
    assert_eq!(asked.len(), 1);
    assert_eq!((asked[0].server.as_str(), asked[0].server_name.as_str()), ("notes", "Notes"));
    assert_eq!((asked[0].tool.as_str(), &asked[0].args), ("delete_note", &json!({ "id": 1 })));
    assert_eq!(asked[0].facts.hints.destructive, Some(true));
    assert_eq!(asked[0].schema["required"], json!(["id"]));
}

#[test]
fn read_only_tools_run_without_asking_and_allowed_ones_run_once_per_answer() {
    let allow_once = ApprovalAnswer::Allow { args: json!({ "id": 1 }), scope: AllowScope::Once };
    let approver = ScriptedApprover::answering(vec![Some(allow_once.clone()), Some(ApprovalAnswer::Deny)]);
    let mut setup = setup(Some(approver.clone()));
    assert_eq!(setup.call("c1", "notes_mcp_list_notes", json!({})).text.as_ref(), r#"[{"id":1}]"#);
    assert!(approver.asked.borrow().is_empty(), "a read-only tool does not ask");
    assert_eq!(setup.call("c2", "notes_mcp_delete_note", json!({ "id": 1 })).text.as_ref(), "deleted 1");
    let again = setup.call("c3", "notes_mcp_delete_note", json!({ "id": 2 }));
    assert!(again.text.starts_with("The person declined"), "allow once asks again next time");
    assert_eq!(setup.delete_calls(), 1);
    assert!(approver.remembered.borrow().is_empty(), "once is not remembered");
}

#[test]
fn allow_for_this_chat_is_remembered_and_lasts_until_the_conversation_is_reset() {
    let for_chat = ApprovalAnswer::Allow { args: json!({ "id": 1 }), scope: AllowScope::ForChat };
    let approver = ScriptedApprover::answering(vec![Some(for_chat), Some(ApprovalAnswer::Deny)]);
    let mut setup = setup(Some(approver.clone()));
    setup.call("c1", "notes_mcp_delete_note", json!({ "id": 1 }));
    assert_eq!(setup.call("c2", "notes_mcp_delete_note", json!({ "id": 2 })).text.as_ref(), "deleted 2");
    assert_eq!(approver.asked.borrow().len(), 1, "not asked again in this chat");
    assert_eq!(
        approver.remembered.borrow().as_slice(),
        [("notes".to_owned(), "delete_note".to_owned(), ApprovalChoice::AllowForChat)]
    );
    setup.dispatcher.reset();
    assert!(setup.call("c3", "notes_mcp_delete_note", json!({ "id": 3 })).text.starts_with("The person declined"));
    assert_eq!(approver.asked.borrow().len(), 2, "a new chat asks again");
}

#[test]
fn always_allow_is_remembered_and_never_refuses_without_asking() {
    let always = ApprovalAnswer::Allow { args: json!({ "id": 1 }), scope: AllowScope::Always };
    let approver = ScriptedApprover::answering(vec![Some(always), Some(ApprovalAnswer::Deny)]);
    let mut setup = setup(Some(approver.clone()));
    setup.call("c1", "notes_mcp_delete_note", json!({ "id": 1 }));
    setup.dispatcher.reset();
    assert_eq!(setup.call("c2", "notes_mcp_delete_note", json!({ "id": 2 })).text.as_ref(), "deleted 2");
    assert_eq!(approver.asked.borrow().len(), 1, "remembered across chats");

    approver.remembered.borrow_mut().clear();
    let asks = setup.call("c3", "notes_mcp_delete_note", json!({ "id": 3 }));
    assert!(asks.text.starts_with("The person declined"), "a reset choice asks again, even in the same chat");
    assert_eq!(approver.asked.borrow().len(), 2);

    approver.remember(&ServerId::sanitize("notes"), "delete_note", ApprovalChoice::Never);
    let refused = setup.call("c4", "notes_mcp_delete_note", json!({ "id": 4 }));
    assert!(refused.text.starts_with("The person does not allow delete_note on the Notes server"), "{}", refused.text);
    assert_eq!(approver.asked.borrow().len(), 2, "never does not ask");
    assert_eq!(setup.delete_calls(), 2);
}

#[test]
fn an_edited_call_runs_with_the_persons_arguments_and_the_model_is_told() {
    let edited = ApprovalAnswer::Allow { args: json!({ "id": 7 }), scope: AllowScope::Once };
    let mut setup = setup(Some(ScriptedApprover::answering(vec![Some(edited)])));
    let executed = setup.call("c1", "notes_mcp_delete_note", json!({ "id": 1 }));
    assert_eq!(setup.mcp.calls().last().unwrap().args, json!({ "id": 7 }));
    assert_eq!(
        executed.text.as_ref(),
        "The person edited the arguments before allowing this call; it ran with {\"id\":7}.\ndeleted 7"
    );
}

#[test]
fn stop_ends_the_wait_for_approval_and_nothing_runs() {
    let approver = ScriptedApprover::answering(vec![None]);
    let cancel = CancelToken::new();
    *approver.stop.borrow_mut() = Some(cancel.clone());
    let mut setup = setup(Some(approver.clone()));
    let executed = setup.call_with("c1", "notes_mcp_delete_note", json!({ "id": 1 }), &cancel);
    assert_eq!(executed.text.as_ref(), "Error: cancelled by the user");
    assert_eq!(setup.delete_calls(), 0);
    assert_eq!(approver.asked.borrow().len(), 1);
}

#[test]
fn without_an_approver_a_call_that_needs_one_does_not_run() {
    let mut setup = setup(None);
    let executed = setup.call("c1", "notes_mcp_delete_note", json!({ "id": 1 }));
    assert!(executed.text.contains("needs the person's approval, and nobody is there to give it"));
    assert_eq!(setup.delete_calls(), 0);
    assert_eq!(setup.call("c2", "notes_mcp_list_notes", json!({})).text.as_ref(), r#"[{"id":1}]"#);
}

#[test]
fn edited_arguments_are_checked_against_the_tools_input_schema() {
    let validator = JsonSchemaValidator::default();
    let schema = Arc::new(destructive_spec("delete_note").input_schema);
    let check = |text: &str| block_on(check_arguments(text, &schema, &validator));
    assert_eq!(check(r#"{"id": 3}"#), Ok(json!({ "id": 3 })));
    assert!(matches!(check(r#"{"id": 3"#), Err(ArgumentsRefused::NotJson(_))));
    assert_eq!(check("[1]"), Err(ArgumentsRefused::NotObject));
    let Err(ArgumentsRefused::Invalid(reason)) = check(r#"{"id": 0}"#) else { panic!("a minimum of 1 is refused") };
    assert!(reason.starts_with("/id: "), "names the field: {reason}");
    let Err(refused) = check("{}") else { panic!("a missing required field is refused") };
    assert!(refused.to_string().contains("id"), "{refused}");
}
