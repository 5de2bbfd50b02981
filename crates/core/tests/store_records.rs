//! The record layout of the browser store: a session (canvas, conversation, activated servers and
//! their tool lists, results, a turn in flight) survives a round trip through records; one small edit writes one small record even next
//! to megabytes of tables; a write that never committed is planned again; missing or broken records
//! are reported and the rest loads; the move from the local storage documents loses nothing.

use std::cell::Cell;
use std::sync::Arc;

use autoui_core::agent::buffer::{ResultBuffer, StoredResult};
use autoui_core::agent::session::{ActivatedServer, ServerTools, SessionSnapshot};
use autoui_core::autoui::recall::recall;
use autoui_core::canvas::history::HistoryLimits;
use autoui_core::canvas::model::Canvas;
use autoui_core::canvas::op::Op;
use autoui_core::canvas::persist::{DashboardLibrary, PersistError, Session, encode_session};
use autoui_core::canvas::store::CanvasStore;
use autoui_core::canvas::style::Style;
use autoui_core::ids::{BlockId, ServerId};
use autoui_core::llm::message::{ContentBlock, Message, Role};
use autoui_core::mcp::config::ServerConfig;
use autoui_core::ports::Random;
use autoui_core::store::library::{delete_dashboard, put_dashboard, read_library};
use autoui_core::store::migrate::{
    LEGACY_DASHBOARDS_KEY, LEGACY_SERVERS_KEY, LEGACY_SESSION_KEY, LegacyDocuments, migrate,
};
use autoui_core::store::session::{
    SessionState, SessionWriter, keep_set_aside, read_session, read_session_update, written_keys,
};
use autoui_core::store::{SESSION_KEY, SERVERS_KEY, StoreName, StoredRecords};
use autoui_core::tool::{Origin, ToolSpec};
use autoui_core::tool_name::Protocol;
use autoui_core::widget_kind::WidgetKind;
use serde_json::json;

struct Counter(Cell<u64>);

impl Random for Counter {
    fn next_u64(&self) -> u64 {
        self.0.set(self.0.get() + 1);
        self.0.get() * 7919
    }
}

fn random() -> Counter {
    Counter(Cell::new(0))
}

/// A canvas of `tables` data-tables of `rows` rows each, then one stat card.
fn store_with(tables: usize, rows: usize) -> CanvasStore {
    let mut store = CanvasStore::new(Canvas::new(), HistoryLimits::default());
    for table in 0..tables {
        let rows: Vec<_> = (0..rows).map(|row| json!({ "n": row, "city": format!("City {row}") })).collect();
        let data = Arc::new(json!({ "title": format!("T{table}"), "columns": [{ "key": "n" }, { "key": "city" }], "rows": rows }));
        let op = Op::Add { id: BlockId::new(format!("w_t{table}")), kind: WidgetKind::DataTable, data, layout: None, style: Style::default() };
        store.apply(op, &Origin::User, 1.0).unwrap();
    }
    let data = Arc::new(json!({ "label": "Total", "value": 42 }));
    let op = Op::Add { id: BlockId::new("w_kpi"), kind: WidgetKind::StatCard, data, layout: None, style: Style::default() };
    store.apply(op, &Origin::User, 1.0).unwrap();
    store
}

fn conversation() -> Vec<Message> {
    vec![
        Message { role: Role::User, content: vec![ContentBlock::Text { text: "weather?".to_owned() }] },
        Message {
            role: Role::Assistant,
            content: vec![ContentBlock::ToolUse { id: "f1".to_owned(), name: "weather_mcp_forecast".to_owned(), input: json!({}) }],
        },
    ]
}

fn state(store: &CanvasStore) -> SessionState {
    SessionState {
        canvas: store.canvas().clone(),
        agent: SessionSnapshot {
            messages: conversation(),
            activated: vec![ActivatedServer { server: ServerId::sanitize("weather"), protocol: Protocol::Mcp }],
            tool_lists: vec![weather_tools("forecast")],
            results: vec![StoredResult { id: "f1".to_owned(), text: Arc::from("{\"temp\": 18}") }],
            evicted: vec!["f0".to_owned()],
            in_flight: true,
            views: [("c1".to_owned(), json!({"server": "weather", "tool": "forecast", "uri": "ui://weather/view.html",
                "input": {"city": "Paris"}, "result": {"content": [], "isError": false}, "call_id": "c1"}))]
            .into_iter()
            .collect(),
        },
        imported: false,
        name: None,
    }
}

/// The weather server's tool list, with one tool named `tool`.
fn weather_tools(tool: &str) -> ServerTools {
    ServerTools {
        server: ServerId::sanitize("weather"),
        name: "weather".to_owned(),
        instructions: Some("Ask for one city at a time.".to_owned()),
        tools: vec![ToolSpec {
            name: tool.to_owned(),
            title: None,
            description: "The forecast for a city".to_owned(),
            input_schema: json!({ "type": "object", "properties": { "city": { "type": "string" } } }),
            read_only: true,
            hints: Default::default(),
            ui: None,
        }],
    }
}

/// Writes `state` into `records` the way the app does (plan, commit, confirm).
fn commit(writer: &mut SessionWriter, records: &mut StoredRecords, state: SessionState) -> usize {
    let write = writer.plan(state);
    records.apply(&write.plan);
    let bytes = write.plan.bytes();
    writer.confirm(write);
    bytes
}

fn read_back(records: &StoredRecords) -> SessionState {
    let read = read_session(records, &random(), 5.0).expect("readable").expect("stored");
    assert!(read.loaded.set_aside.is_empty(), "nothing set aside: {:?}", read.loaded.set_aside);
    read.loaded.value
}

#[test]
fn a_session_comes_back_whole_from_its_records() {
    let store = store_with(2, 50);
    let mut records = StoredRecords::default();
    commit(&mut SessionWriter::default(), &mut records, state(&store));
    assert_eq!(records.blocks.len(), 3, "one record per block");
    assert_eq!(records.messages.len(), 2, "one record per message");
    assert_eq!(read_back(&records), state(&store));
}

#[test]
fn an_imported_canvas_whose_buttons_are_not_allowed_stays_so_and_allowing_rewrites_only_the_index() {
    let store = store_with(2, 50);
    let mut records = StoredRecords::default();
    let mut writer = SessionWriter::default();
    commit(&mut writer, &mut records, SessionState { imported: true, ..state(&store) });
    assert!(read_back(&records).imported, "a reload keeps the import's buttons from messaging the agent");

    let allowed = writer.plan(state(&store));
    assert_eq!(allowed.plan.puts.len(), 1, "only the index changes: {:?}", allowed.plan.puts);
    records.apply(&allowed.plan);
    writer.confirm(allowed);
    assert!(!read_back(&records).imported);
}

#[test]
fn a_named_dashboard_keeps_its_name_across_a_reload_and_renaming_rewrites_only_the_index() {
    let store = store_with(2, 50);
    let mut records = StoredRecords::default();
    let mut writer = SessionWriter::default();
    commit(&mut writer, &mut records, SessionState { name: Some("Sales".to_owned()), ..state(&store) });
    assert_eq!(read_back(&records).name.as_deref(), Some("Sales"));

    let renamed = writer.plan(SessionState { name: Some("Sales Q3".to_owned()), ..state(&store) });
    assert_eq!(renamed.plan.puts.len(), 1, "only the index changes: {:?}", renamed.plan.puts);
    records.apply(&renamed.plan);
    writer.confirm(renamed);
    assert_eq!(read_back(&records).name.as_deref(), Some("Sales Q3"));
    commit(&mut writer, &mut records, state(&store));
    assert_eq!(read_back(&records).name, None);
}

#[test]
fn moving_one_widget_beside_big_tables_writes_only_that_widget() {
    let mut store = store_with(20, 10_000);
    let mut writer = SessionWriter::default();
    let mut records = StoredRecords::default();
    let first = commit(&mut writer, &mut records, state(&store));
    assert!(first > 5_000_000, "the first write holds the tables: {first} bytes");

    // Along its own row, so no other widget is pushed.
    let y = store.canvas().get(&BlockId::new("w_kpi")).unwrap().layout.y;
    store.apply(Op::Move { id: BlockId::new("w_kpi"), x: 6, y }, &Origin::User, 2.0).unwrap();
    let write = writer.plan(state(&store));
    assert_eq!(write.plan.puts.len(), 1, "only the moved block: {:?}", write.plan.stores());
    assert_eq!(write.plan.puts[0].key, "w_kpi");
    assert!(write.plan.bytes() < 1_000, "a small edit is a small write: {} bytes", write.plan.bytes());
    records.apply(&write.plan);
    writer.confirm(write);
    assert_eq!(read_back(&records).canvas, store.canvas().clone());
    assert!(writer.plan(state(&store)).plan.is_empty(), "nothing changed, nothing to write");
}

#[test]
fn removing_a_widget_deletes_its_record_and_rewrites_the_index() {
    let mut store = store_with(2, 5);
    let mut writer = SessionWriter::default();
    let mut records = StoredRecords::default();
    commit(&mut writer, &mut records, state(&store));
    store.apply(Op::Remove { id: BlockId::new("w_t0") }, &Origin::User, 2.0).unwrap();
    let write = writer.plan(state(&store));
    assert_eq!(write.plan.deletes, [(StoreName::Blocks, "w_t0".to_owned())]);
    assert_eq!(write.plan.puts.iter().map(|r| r.key.as_str()).collect::<Vec<_>>(), [SESSION_KEY]);
    records.apply(&write.plan);
    writer.confirm(write);
    assert_eq!(read_back(&records).canvas.ids(), [BlockId::new("w_t1"), BlockId::new("w_kpi")]);
}

#[test]
fn a_write_that_did_not_commit_is_planned_again_and_the_store_keeps_the_previous_state() {
    let mut store = store_with(1, 5);
    let mut writer = SessionWriter::default();
    let mut records = StoredRecords::default();
    commit(&mut writer, &mut records, state(&store));
    let before = read_back(&records);

    store.apply(Op::Move { id: BlockId::new("w_kpi"), x: 3, y: 9 }, &Origin::User, 2.0).unwrap();
    let refused = writer.plan(state(&store));
    assert!(!refused.plan.is_empty());
    // The store refused (quota): nothing applied, nothing confirmed.
    assert_eq!(read_back(&records), before, "the previous state is whole");
    let again = writer.plan(state(&store));
    assert_eq!(again.plan, refused.plan, "the next save writes the same change");
}

#[test]
fn the_conversation_grows_by_one_record_per_new_message_and_results_come_and_go() {
    let store = store_with(0, 0);
    let mut writer = SessionWriter::default();
    let mut records = StoredRecords::default();
    commit(&mut writer, &mut records, state(&store));
    let mut next = state(&store);
    next.agent.messages.push(Message { role: Role::User, content: vec![ContentBlock::Text { text: "more".to_owned() }] });
    next.agent.results = vec![StoredResult { id: "f2".to_owned(), text: Arc::from("new") }];
    let write = writer.plan(next.clone());
    let keys: Vec<(StoreName, &str)> = write.plan.puts.iter().map(|r| (r.store, r.key.as_str())).collect();
    assert_eq!(keys, [(StoreName::Messages, "00000002"), (StoreName::Results, "f2"), (StoreName::Meta, SESSION_KEY)]);
    assert_eq!(write.plan.deletes, [(StoreName::Results, "f1".to_owned())]);
    records.apply(&write.plan);
    writer.confirm(write);
    assert_eq!(read_back(&records), next);
}

#[test]
fn a_servers_tool_list_is_a_record_of_its_own_written_again_only_when_it_changes() {
    let store = store_with(0, 0);
    let mut writer = SessionWriter::default();
    let mut records = StoredRecords::default();
    commit(&mut writer, &mut records, state(&store));
    assert!(records.meta("tools/weather").is_some_and(|list| list.contains("forecast")), "{:?}", records.meta);

    // A new message: the tool list is not written again.
    let mut next = state(&store);
    next.agent.messages.push(Message { role: Role::User, content: vec![ContentBlock::Text { text: "more".to_owned() }] });
    let write = writer.plan(next.clone());
    assert!(write.plan.puts.iter().all(|record| record.key != "tools/weather"), "{:?}", write.plan.puts);
    records.apply(&write.plan);
    writer.confirm(write);

    // The server came back with another list: it replaces the stored one.
    next.agent.tool_lists = vec![weather_tools("forecast_by_hour")];
    let write = writer.plan(next.clone());
    assert_eq!(write.plan.puts.iter().map(|r| r.key.as_str()).collect::<Vec<_>>(), ["tools/weather"]);
    records.apply(&write.plan);
    writer.confirm(write);
    assert_eq!(read_back(&records).agent.tool_lists, [weather_tools("forecast_by_hour")]);

    // A conversation started over has no activated server: its list goes.
    next.agent.tool_lists.clear();
    let write = writer.plan(next);
    assert!(write.plan.deletes.contains(&(StoreName::Meta, "tools/weather".to_owned())), "{:?}", write.plan.deletes);
}

#[test]
fn a_tab_following_the_writer_reads_only_what_a_write_put_and_keeps_the_rest_as_it_was() {
    let mut store = store_with(3, 1_000);
    let mut writer = SessionWriter::default();
    let mut records = StoredRecords::default();
    commit(&mut writer, &mut records, state(&store));
    let followed = read_back(&records);

    let y = store.canvas().get(&BlockId::new("w_kpi")).unwrap().layout.y;
    store.apply(Op::Move { id: BlockId::new("w_kpi"), x: 6, y }, &Origin::User, 2.0).unwrap();
    let mut next = state(&store);
    next.agent.messages.push(Message { role: Role::User, content: vec![ContentBlock::Text { text: "more".to_owned() }] });
    let write = writer.plan(next.clone());
    let keys = written_keys(&write.plan);
    records.apply(&write.plan);
    writer.confirm(write);

    // What the follower reads: the records that write put, and the index.
    let mut all = records.clone();
    let mut changed = StoredRecords::default();
    for (name, key) in &keys {
        let found = all.store_mut(*name).iter().find(|(k, _)| k == key).cloned().expect("a record the write put");
        changed.store_mut(*name).push(found);
    }
    assert_eq!(changed.blocks.len(), 1, "one block was read: {keys:?}");
    let update = read_session_update(&changed, &followed, &random(), 5.0).expect("readable").expect("stored");
    assert!(update.loaded.set_aside.is_empty(), "{:?}", update.loaded.set_aside);
    assert_eq!(update.loaded.value, read_back(&records), "the same session as a full read");
    for id in ["w_t0", "w_t1", "w_t2"] {
        let id = BlockId::new(id);
        let (now, before) = (update.loaded.value.canvas.get(&id).unwrap(), followed.canvas.get(&id).unwrap());
        assert!(Arc::ptr_eq(&now.data, &before.data), "table {id:?} was kept as it was, not read again");
    }
}

#[test]
fn a_missing_block_record_is_reported_and_the_other_blocks_load() {
    let store = store_with(2, 3);
    let mut records = StoredRecords::default();
    commit(&mut SessionWriter::default(), &mut records, state(&store));
    records.blocks.retain(|(key, _)| key != "w_t1");
    let read = read_session(&records, &random(), 5.0).unwrap().unwrap();
    assert_eq!(read.loaded.value.canvas.ids(), [BlockId::new("w_t0"), BlockId::new("w_kpi")]);
    assert_eq!(read.loaded.set_aside.len(), 1);
    assert_eq!(read.loaded.set_aside[0].what, "block w_t1");
    assert_eq!(read.loaded.value.agent.messages, conversation(), "the conversation is untouched");
}

#[test]
fn a_conversation_missing_a_message_is_set_aside_whole_rather_than_cut() {
    let store = store_with(1, 3);
    let mut records = StoredRecords::default();
    commit(&mut SessionWriter::default(), &mut records, state(&store));
    records.messages.retain(|(key, _)| key != "00000000");
    let read = read_session(&records, &random(), 5.0).unwrap().unwrap();
    assert!(read.loaded.value.agent.messages.is_empty());
    assert_eq!(read.loaded.set_aside[0].what, "conversation");
    assert!(read.loaded.set_aside[0].reason.contains("message 1 is missing"), "{:?}", read.loaded.set_aside);
    assert_eq!(read.loaded.value.canvas.len(), 2, "the canvas still loads");
}

#[test]
fn an_unreadable_message_keeps_the_conversation_up_to_the_last_finished_answer() {
    let store = store_with(1, 3);
    let mut records = StoredRecords::default();
    let mut session = state(&store);
    let answered = Message { role: Role::Assistant, content: vec![ContentBlock::Text { text: "18 degrees".to_owned() }] };
    let result = Message {
        role: Role::User,
        content: vec![ContentBlock::ToolResult { tool_use_id: "f1".to_owned(), content: Vec::new(), is_error: false }],
    };
    let asked_again = Message { role: Role::User, content: vec![ContentBlock::Text { text: "and tomorrow?".to_owned() }] };
    let calls_again = Message {
        role: Role::Assistant,
        content: vec![ContentBlock::ToolUse { id: "f2".to_owned(), name: "weather_mcp_forecast".to_owned(), input: json!({}) }],
    };
    session.agent.messages.extend([result.clone(), answered.clone(), asked_again, calls_again, result.clone()]);
    commit(&mut SessionWriter::default(), &mut records, session);
    // The answer to the second call (message 7) no longer reads.
    for (key, text) in &mut records.messages {
        if key == "00000006" {
            *text = "{\"role\": \"user\", \"content\": [{\"type\": \"hologram\"}]}".to_owned();
        }
    }
    let read = read_session(&records, &random(), 5.0).unwrap().unwrap();
    let mut kept = conversation();
    kept.extend([result, answered]);
    assert_eq!(read.loaded.value.agent.messages, kept, "the first question and its answer are kept, the unfinished turn is not");
    let aside = &read.loaded.set_aside[0];
    assert_eq!(aside.what, "conversation");
    assert!(aside.reason.contains("message 7") && aside.reason.contains("up to message 4"), "{}", aside.reason);
    assert_eq!(aside.raw.as_array().map(Vec::len), Some(7), "every message is set aside as it was read");

    // Kept beside the session, the conversation as it was survives the writes that follow.
    let (keep, keys) = keep_set_aside(&read.loaded.set_aside, &records, 5.0);
    records.apply(&keep);
    let reread = read_session(&records, &random(), 5.5).unwrap().unwrap();
    let (again_kept, same_keys) = keep_set_aside(&reread.loaded.set_aside, &records, 5.5);
    assert!(again_kept.is_empty() && same_keys == keys, "a reload before the next write keeps no second copy");
    let write = read.writer().plan(read.loaded.value.clone());
    records.apply(&write.plan);
    let kept = records.meta(&keys[0]).expect("the set-aside conversation is still stored");
    assert!(kept.contains("hologram") && kept.contains("and tomorrow?"), "{kept}");
    let again = read_session(&records, &random(), 6.0).unwrap().unwrap();
    assert_eq!(again.loaded.value.agent.messages.len(), 4, "the next start reads the kept part of the conversation");
    assert!(again.loaded.set_aside.is_empty(), "{:?}", again.loaded.set_aside);
    assert!(again.orphans.iter().all(|(_, key)| !key.starts_with("set-aside/")), "{:?}", again.orphans);
}

#[test]
fn an_unreadable_block_record_is_set_aside_as_its_text() {
    let store = store_with(2, 3);
    let mut records = StoredRecords::default();
    commit(&mut SessionWriter::default(), &mut records, state(&store));
    for (key, text) in &mut records.blocks {
        if key == "w_t1" {
            text.truncate(text.len() / 2);
        }
    }
    let read = read_session(&records, &random(), 5.0).unwrap().unwrap();
    assert_eq!(read.loaded.set_aside[0].what, "block w_t1");
    let raw = read.loaded.set_aside[0].raw.as_str().expect("the record's text");
    assert!(raw.starts_with("{") && raw.len() > 10, "{raw}");
}

#[test]
fn records_no_index_names_are_deleted_by_the_next_write() {
    let store = store_with(1, 3);
    let mut records = StoredRecords::default();
    commit(&mut SessionWriter::default(), &mut records, state(&store));
    records.blocks.push(("w_stray".to_owned(), "{}".to_owned()));
    let read = read_session(&records, &random(), 5.0).unwrap().unwrap();
    assert_eq!(read.orphans, [(StoreName::Blocks, "w_stray".to_owned())]);
    let mut writer = SessionWriter::restored(&read.loaded.value, read.orphans);
    let write = writer.plan(read.loaded.value.clone());
    assert_eq!(write.plan.deletes, [(StoreName::Blocks, "w_stray".to_owned())]);
    assert!(write.plan.puts.is_empty(), "what was read is not written again");
    records.apply(&write.plan);
    writer.confirm(write);
    assert!(writer.plan(read.loaded.value).plan.is_empty());
}

#[test]
fn an_index_from_a_newer_version_is_a_typed_error() {
    let mut records = StoredRecords::default();
    records.meta.push((SESSION_KEY.to_owned(), json!({ "autoui": "session", "version": 9 }).to_string()));
    assert_eq!(
        read_session(&records, &random(), 5.0).unwrap_err(),
        PersistError::NewerVersion { expected: "session", found: 9, supported: 2 }
    );
    assert_eq!(read_session(&StoredRecords::default(), &random(), 5.0).unwrap(), None);
}

#[test]
fn saving_or_deleting_a_dashboard_touches_only_its_record() {
    let store = store_with(1, 3);
    let mut library = DashboardLibrary::default();
    library.save("Sales", store.canvas(), 10.0).unwrap();
    library.save("Ops", &Canvas::new(), 20.0).unwrap();
    let mut records = StoredRecords::default();
    for dashboard in library.dashboards() {
        records.apply(&put_dashboard(dashboard));
    }
    let read = read_library(&records, &random(), 30.0);
    assert!(read.set_aside.is_empty());
    assert_eq!(read.value, library);
    let delete = delete_dashboard("Ops");
    assert_eq!(delete.deletes, [(StoreName::Dashboards, "Ops".to_owned())]);
    records.apply(&delete);
    assert_eq!(read_library(&records, &random(), 30.0).value.list().len(), 1);
}

#[test]
fn the_local_storage_documents_move_into_records_with_nothing_lost() {
    let store = store_with(2, 100);
    let session = Session { canvas: store.canvas().clone(), conversation: conversation() };
    let mut library = DashboardLibrary::default();
    library.save("Sales", store.canvas(), 10.0).unwrap();
    let servers = vec![ServerConfig::new("http://127.0.0.1:9/mcp")];
    let documents = LegacyDocuments {
        session: Some(encode_session(&session, 1.0)),
        dashboards: Some(library.encode()),
        servers: Some(serde_json::to_string(&servers).unwrap()),
    };
    let migration = migrate(&documents, &random(), 5.0).expect("something to move");
    assert!(migration.unreadable.is_empty() && migration.set_aside.is_empty());
    assert_eq!(migration.moved, [LEGACY_SESSION_KEY, LEGACY_DASHBOARDS_KEY, LEGACY_SERVERS_KEY]);

    let mut records = StoredRecords::default();
    records.apply(&migration.plan());
    let restored = read_back(&records);
    assert_eq!(restored.canvas, session.canvas);
    assert_eq!(restored.agent.messages, session.conversation);
    assert_eq!(read_library(&records, &random(), 5.0).value, library);
    let stored: Vec<ServerConfig> = serde_json::from_str(records.meta(SERVERS_KEY).unwrap()).unwrap();
    assert_eq!(stored, servers);

    // Once committed, the first save after the move (of what it brought) writes nothing again.
    let moved = migration.session.clone();
    let mut writer = SessionWriter::default();
    writer.confirm(migration.write);
    assert!(writer.plan(moved).plan.is_empty());
}

#[test]
fn a_document_that_does_not_read_is_not_moved_so_it_stays_in_local_storage() {
    let documents = LegacyDocuments { session: Some("{broken".to_owned()), ..LegacyDocuments::default() };
    let migration = migrate(&documents, &random(), 5.0).expect("something to look at");
    assert!(migration.moved.is_empty());
    assert_eq!(migration.unreadable[0].0, LEGACY_SESSION_KEY);
    assert!(migrate(&LegacyDocuments::default(), &random(), 5.0).is_none());
}

#[test]
fn recall_of_a_result_forgotten_for_room_says_so_after_a_restore() {
    let buffer = ResultBuffer::with_capacity(10);
    buffer.insert("old", Arc::from("1234567890"));
    buffer.insert("new", Arc::from("1234567890"));
    let restored = ResultBuffer::with_capacity(10);
    restored.restore(buffer.entries(), buffer.evicted());
    let error = recall(&restored, &json!({ "id": "old" })).unwrap_err().to_string();
    assert!(error.contains("no longer kept") && error.contains("oldest first"), "{error}");
    let full = recall(&restored, &json!({ "id": "new" })).unwrap();
    assert_eq!(full.structured.unwrap()["total"], 10);
}

#[test]
fn export_all_reads_back_every_dashboard_and_the_conversation() {
    use autoui_core::store::backup::{export_all, is_backup, read_backup};
    let store = store_with(1, 3);
    let mut library = DashboardLibrary::default();
    library.save("Sales", store.canvas(), 10.0).unwrap();
    library.save("Ops", &Canvas::new(), 20.0).unwrap();
    let text = export_all((store.canvas(), Some("Sales")), &conversation(), &library, 30.0);
    assert!(is_backup(&text));
    let read = read_backup(&text, &random(), 40.0).expect("a backup");
    assert!(read.set_aside.is_empty());
    assert_eq!(read.value.canvas, store.canvas().clone());
    assert_eq!(read.value.name.as_deref(), Some("Sales"), "the canvas keeps its name");
    let unnamed = read_backup(&export_all((store.canvas(), None), &conversation(), &library, 30.0), &random(), 40.0).unwrap();
    assert_eq!(unnamed.value.name, None);
    let mut hostile: serde_json::Value = serde_json::from_str(&text).unwrap();
    hostile["session"]["name"] = json!("Q3\n\u{202e}sales");
    assert_eq!(read_backup(&hostile.to_string(), &random(), 40.0).unwrap().value.name.as_deref(), Some("Q3 sales"), "one tidy line");
    assert_eq!(read.value.conversation, conversation());
    assert_eq!(read.value.dashboards, library.dashboards());

    // Added back next to dashboards of the same name, nothing is replaced.
    let mut mine = library.clone();
    let name = mine.add_unique(read.value.dashboards[0].clone());
    assert_eq!(name, "Sales (2)");
    assert_eq!(mine.list().len(), 3);
}

#[test]
fn a_corrupt_or_foreign_backup_is_a_clear_error() {
    use autoui_core::store::backup::read_backup;
    let not_json = read_backup("{\"autoui\": \"backup\"", &random(), 1.0).unwrap_err();
    assert!(matches!(not_json, PersistError::NotJson { .. }), "{not_json}");
    let foreign = read_backup("{\"name\": \"someone else's\"}", &random(), 1.0).unwrap_err();
    assert!(foreign.to_string().contains("not an autoui backup"), "{foreign}");
    let newer = read_backup("{\"autoui\": \"backup\", \"version\": 7}", &random(), 1.0).unwrap_err();
    assert!(newer.to_string().contains("newer autoui"), "{newer}");
}

/// A page closing with a save still to make keeps the write as text (Chromium may abort a write
/// begun while the page unloads); the next start commits it: the session is whole, even when the
/// first write of the two had already landed.
#[test]
fn a_write_kept_aside_as_the_page_closes_comes_back_whole_once_committed() {
    use autoui_core::store::kept::{keep, kept};
    let mut store = store_with(2, 5);
    let mut writer = SessionWriter::default();
    let mut records = StoredRecords::default();
    commit(&mut writer, &mut records, state(&store));

    // A widget removed and another moved, then the page closes before the store has either.
    store.apply(Op::Remove { id: BlockId::new("w_t0") }, &Origin::User, 2.0).unwrap();
    store.apply(Op::Move { id: BlockId::new("w_kpi"), x: 6, y: 0 }, &Origin::User, 3.0).unwrap();
    let closing = writer.plan(state(&store));
    let text = keep(&closing.plan);
    assert_eq!(kept(&text).expect("its own text reads back"), closing.plan);

    records.apply(&kept(&text).unwrap());
    assert_eq!(read_back(&records).canvas, store.canvas().clone(), "the next start shows what the page showed");
    // Applied twice (the browser had landed it after all): the same state.
    records.apply(&kept(&text).unwrap());
    assert_eq!(read_back(&records).canvas, store.canvas().clone());
}

/// The page may close while a save is still committing: the one it then plans is measured from
/// what was confirmed, so it carries the first one's changes too and either order of landing ends
/// in the state the page showed.
#[test]
fn a_save_planned_while_another_commits_carries_both_changes() {
    let mut store = store_with(2, 5);
    let mut writer = SessionWriter::default();
    let mut records = StoredRecords::default();
    commit(&mut writer, &mut records, state(&store));

    store.apply(Op::Remove { id: BlockId::new("w_t0") }, &Origin::User, 2.0).unwrap();
    let first = writer.plan(state(&store));
    store.apply(Op::Move { id: BlockId::new("w_kpi"), x: 6, y: 0 }, &Origin::User, 3.0).unwrap();
    let second = writer.plan(state(&store));
    // Only the second lands (the first was aborted): whole.
    let mut only_second = records.clone();
    only_second.apply(&second.plan);
    assert_eq!(read_back(&only_second).canvas, store.canvas().clone());
    // Both, in order: whole.
    records.apply(&first.plan);
    records.apply(&second.plan);
    assert_eq!(read_back(&records).canvas, store.canvas().clone());
}

#[test]
fn a_kept_write_that_is_not_one_is_refused_whole() {
    use autoui_core::store::kept::kept;
    for (text, why) in [
        ("not json", "not JSON"),
        (r#"{"puts": []}"#, "no `deletes` list"),
        (r#"{"puts": [["blocks", "w_a"]], "deletes": []}"#, "puts[0] is not [store, key, value]"),
        (r#"{"puts": [["attic", "w_a", "{}"]], "deletes": []}"#, "\"attic\" is not a store"),
        (r#"{"puts": [], "deletes": [["blocks", 7]]}"#, "deletes[0] is not [store, key]"),
    ] {
        let error = kept(text).expect_err(text);
        assert!(error.contains(why), "{text}: {error}");
    }
}
