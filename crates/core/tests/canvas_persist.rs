//! The storage format: the session (canvas and conversation) and named dashboards survive a
//! round trip; corrupted, foreign and newer documents are typed errors, never panics; a bad part
//! of a readable document is set aside whole while the rest loads.

use std::cell::Cell;
use std::sync::Arc;

use autoui_core::canvas::history::HistoryLimits;
use autoui_core::canvas::model::{Canvas, Layout};
use autoui_core::canvas::op::Op;
use autoui_core::canvas::persist::{
    DashboardLibrary, LibraryError, PersistError, STORAGE_VERSION, Saved, Session, decode_session,
    encode_session,
};
use autoui_core::canvas::store::CanvasStore;
use autoui_core::canvas::style::Style;
use autoui_core::ids::{BlockId, CallId, ServerId};
use autoui_core::llm::message::{ContentBlock, Message, Role};
use autoui_core::ports::Random;
use autoui_core::tool::{DataSource, Origin, ResultPart};
use autoui_core::widget_kind::WidgetKind;
use serde_json::{Value, json};

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

fn id(name: &str) -> BlockId {
    BlockId::new(name)
}

fn sample_canvas() -> Canvas {
    let mut store = CanvasStore::new(Canvas::new(), HistoryLimits::default());
    let agent = Origin::Agent {
        call_id: CallId::new("toolu_01"),
        source: Some(DataSource {
            server: ServerId::sanitize("Tricoteuses"),
            tool: "list_deputes".to_owned(),
        }),
    };
    let table = Arc::new(
        json!({ "columns": [{ "key": "nom" }], "rows": [{ "nom": "Alice" }, { "nom": "Zoé <b>" }] }),
    );
    store
        .apply(
            Op::Add {
                id: id("w_tab1"),
                kind: WidgetKind::DataTable,
                data: table,
                layout: None,
                style: Style::default(),
            },
            &agent,
            1.0,
        )
        .unwrap();
    let style = Style([("border-color".to_owned(), "#e84855".to_owned())].into());
    let layout = Some(Layout {
        x: 3,
        y: 6,
        w: 4,
        h: 2,
        z: 0,
    });
    store
        .apply(
            Op::Add {
                id: id("w_kpi2"),
                kind: WidgetKind::StatCard,
                data: Arc::new(json!({ "label": "Sièges", "value": 577 })),
                layout,
                style,
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    store.canvas().clone()
}

fn sample_conversation() -> Vec<Message> {
    vec![
        Message::user_text("show the deputies"),
        Message {
            role: Role::Assistant,
            content: vec![ContentBlock::ToolUse {
                id: "toolu_01".to_owned(),
                name: "autoui_webmcp_widget_display".to_owned(),
                input: json!({ "name": "data-table" }),
            }],
        },
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult {
                tool_use_id: "toolu_01".to_owned(),
                content: vec![ResultPart::Text {
                    text: "{\"id\":\"w_tab1\"}".to_owned(),
                }],
                is_error: false,
            }],
        },
    ]
}

fn session_value() -> Value {
    let session = Session {
        canvas: sample_canvas(),
        conversation: sample_conversation(),
    };
    serde_json::from_str(&encode_session(&session, 1234.0)).unwrap()
}

#[test]
fn a_session_survives_a_round_trip_with_ids_layout_style_provenance_and_conversation() {
    let session = Session {
        canvas: sample_canvas(),
        conversation: sample_conversation(),
    };
    let text = encode_session(&session, 1234.0);
    let loaded = decode_session(&text, &random(), 99.0).unwrap();
    assert!(loaded.set_aside.is_empty());
    assert_eq!(loaded.value, session);
}

#[test]
fn the_stored_session_names_its_kind_and_version() {
    let value = session_value();
    assert_eq!(value["autoui"], "session");
    assert_eq!(value["version"], STORAGE_VERSION);
    assert_eq!(value["canvas"]["blocks"][0]["type"], "data-table");
}

#[test]
fn text_that_is_not_json_is_a_typed_error() {
    let error = decode_session("{\"autoui\": \"session\", \"vers", &random(), 1.0).unwrap_err();
    assert!(
        matches!(
            error,
            PersistError::NotJson {
                expected: "session",
                ..
            }
        ),
        "{error:?}"
    );
    assert!(
        error
            .to_string()
            .starts_with("the stored session is not valid JSON: ")
    );
}

#[test]
fn a_document_from_a_newer_version_is_refused_with_both_versions_named() {
    let mut value = session_value();
    value["version"] = json!(7);
    let error = decode_session(&value.to_string(), &random(), 1.0).unwrap_err();
    assert_eq!(
        error,
        PersistError::NewerVersion {
            expected: "session",
            found: 7,
            supported: STORAGE_VERSION
        }
    );
    assert_eq!(
        error.to_string(),
        "the stored session was written by a newer autoui (format 7); this version reads up to 1"
    );
}

#[test]
fn a_document_with_an_unreadable_version_is_refused() {
    for version in [json!("1"), json!(0), json!(-3), json!(1.5)] {
        let mut value = session_value();
        value["version"] = version.clone();
        let error = decode_session(&value.to_string(), &random(), 1.0).unwrap_err();
        assert!(
            matches!(error, PersistError::UnknownVersion { .. }),
            "{version}: {error:?}"
        );
    }
    let mut value = session_value();
    value.as_object_mut().unwrap().remove("version");
    assert!(matches!(
        decode_session(&value.to_string(), &random(), 1.0),
        Err(PersistError::UnknownVersion { .. })
    ));
}

#[test]
fn someone_elses_document_is_not_taken_for_a_session() {
    let library = DashboardLibrary::default().encode();
    let error = decode_session(&library, &random(), 1.0).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the stored document is not an autoui session (it is a \"dashboards\" document)"
    );
    let error = decode_session("[1, 2]", &random(), 1.0).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the stored document is not an autoui session (it is an array)"
    );
    let error = decode_session("{\"blocks\": []}", &random(), 1.0).unwrap_err();
    assert!(matches!(error, PersistError::WrongDocument { .. }));
}

#[test]
fn a_damaged_block_is_set_aside_whole_and_the_others_load() {
    let mut value = session_value();
    let blocks = value["canvas"]["blocks"].as_array_mut().unwrap();
    blocks.insert(
        1,
        json!({ "id": "w_old", "type": "map", "data": { "center": [48.8, 2.3] } }),
    );
    blocks.push(json!("not a block"));
    let loaded = decode_session(&value.to_string(), &random(), 1.0).unwrap();
    assert_eq!(loaded.value.canvas.ids(), vec![id("w_tab1"), id("w_kpi2")]);
    assert_eq!(loaded.set_aside.len(), 2);
    assert_eq!(loaded.set_aside[0].what, "canvas, block 2");
    assert_eq!(
        loaded.set_aside[0].reason,
        "\"map\" is not one of the 27 widget types of this app"
    );
    assert_eq!(
        loaded.set_aside[0].raw["data"]["center"][0], 48.8,
        "nothing is lost"
    );
    assert_eq!(loaded.set_aside[1].reason, "not a JSON object");
    assert_eq!(loaded.value.conversation.len(), 3);
}

#[test]
fn a_block_with_a_broken_layout_or_id_is_repaired_not_dropped() {
    let mut value = session_value();
    let blocks = value["canvas"]["blocks"].as_array_mut().unwrap();
    blocks[0]["layout"] = json!("top-left");
    blocks[1]["id"] = json!("w_tab1");
    let loaded = decode_session(&value.to_string(), &random(), 1.0).unwrap();
    let canvas = &loaded.value.canvas;
    assert_eq!(canvas.len(), 2);
    assert_eq!(canvas.blocks()[0].id, id("w_tab1"));
    assert_ne!(
        canvas.blocks()[1].id,
        id("w_tab1"),
        "a repeated id gets a fresh one"
    );
    assert!(canvas.blocks()[1].id.as_str().starts_with("w_"));
    let placed = canvas.blocks()[0].layout;
    assert_eq!(
        (placed.w, placed.h),
        WidgetKind::DataTable.default_size(),
        "an unreadable layout is placed afresh"
    );
}

#[test]
fn an_unreadable_conversation_is_set_aside_whole_and_the_canvas_still_loads() {
    let mut value = session_value();
    value["conversation"][1]["content"][0]["type"] = json!("teleport");
    let loaded = decode_session(&value.to_string(), &random(), 1.0).unwrap();
    assert!(loaded.value.conversation.is_empty());
    assert_eq!(loaded.value.canvas.len(), 2);
    assert_eq!(loaded.set_aside.len(), 1);
    assert_eq!(loaded.set_aside[0].what, "conversation");
    assert_eq!(loaded.set_aside[0].raw.as_array().unwrap().len(), 3);
}

#[test]
fn a_truncated_document_never_panics() {
    let text = encode_session(
        &Session {
            canvas: sample_canvas(),
            conversation: sample_conversation(),
        },
        1.0,
    );
    for end in (0..text.len()).filter(|&end| text.is_char_boundary(end)) {
        let outcome = decode_session(&text[..end], &random(), 1.0);
        assert!(
            outcome.is_err(),
            "a cut document is never taken for a whole one (cut at {end})"
        );
    }
}

#[test]
fn dashboards_can_be_saved_listed_reopened_and_deleted() {
    let mut library = DashboardLibrary::default();
    let canvas = sample_canvas();
    assert_eq!(
        library.save("  Assemblée  ", &canvas, 10.0),
        Ok(Saved::Created)
    );
    assert_eq!(
        library.save("Empty", &Canvas::new(), 20.0),
        Ok(Saved::Created)
    );
    let listed: Vec<(String, usize)> = library
        .list()
        .into_iter()
        .map(|summary| (summary.name, summary.widgets))
        .collect();
    assert_eq!(
        listed,
        [("Empty".to_owned(), 0), ("Assemblée".to_owned(), 2)],
        "most recent first, names trimmed"
    );
    assert_eq!(library.open("Assemblée").unwrap().canvas, canvas);
    assert_eq!(library.delete("Empty").unwrap().name, "Empty");
    assert_eq!(library.list().len(), 1);
}

#[test]
fn saving_under_an_existing_name_replaces_that_dashboard() {
    let mut library = DashboardLibrary::default();
    library.save("Weekly", &sample_canvas(), 1.0).unwrap();
    assert_eq!(
        library.save("Weekly", &Canvas::new(), 2.0),
        Ok(Saved::Replaced)
    );
    assert_eq!(library.list().len(), 1);
    assert!(library.open("Weekly").unwrap().canvas.is_empty());
}

#[test]
fn dashboard_names_and_lookups_fail_with_actionable_messages() {
    let mut library = DashboardLibrary::default();
    assert_eq!(
        library.save("   ", &Canvas::new(), 1.0),
        Err(LibraryError::EmptyName)
    );
    let long = "n".repeat(81);
    assert_eq!(
        library
            .save(&long, &Canvas::new(), 1.0)
            .unwrap_err()
            .to_string(),
        "a dashboard name has at most 80 characters"
    );
    assert_eq!(
        library.open("Sales").unwrap_err().to_string(),
        "no dashboard named \"Sales\"; saved dashboards: none yet"
    );
    library.save("Budget", &Canvas::new(), 1.0).unwrap();
    assert_eq!(
        library.delete("Sales").unwrap_err().to_string(),
        "no dashboard named \"Sales\"; saved dashboards: Budget"
    );
}

#[test]
fn the_dashboard_library_survives_a_round_trip() {
    let mut library = DashboardLibrary::default();
    library.save("Assemblée", &sample_canvas(), 10.0).unwrap();
    library.save("Empty", &Canvas::new(), 20.0).unwrap();
    let loaded = DashboardLibrary::decode(&library.encode(), &random(), 1.0).unwrap();
    assert!(loaded.set_aside.is_empty());
    assert_eq!(loaded.value, library);
}

#[test]
fn a_stored_library_with_a_nameless_or_repeated_dashboard_keeps_everything_it_can() {
    let text = json!({
        "autoui": "dashboards",
        "version": 1,
        "dashboards": [
            { "name": "Budget", "saved_ms": 1.0, "canvas": { "blocks": [] } },
            { "saved_ms": 2.0, "canvas": { "blocks": [] } },
            { "name": "Budget", "saved_ms": 3.0, "canvas": { "blocks": [{ "type": "stat", "data": {} }] } },
            { "name": "Broken", "canvas": 12 }
        ]
    })
    .to_string();
    let loaded = DashboardLibrary::decode(&text, &random(), 50.0).unwrap();
    let names: Vec<String> = loaded
        .value
        .list()
        .into_iter()
        .map(|summary| summary.name)
        .collect();
    assert_eq!(names, ["Broken", "Budget (2)", "Budget"]);
    assert_eq!(loaded.value.open("Budget (2)").unwrap().canvas.len(), 1);
    let what: Vec<&str> = loaded
        .set_aside
        .iter()
        .map(|item| item.what.as_str())
        .collect();
    assert_eq!(what, ["dashboard 2", "dashboard \"Broken\""]);
}

#[test]
fn opening_a_saved_dashboard_is_one_undoable_step() {
    let mut library = DashboardLibrary::default();
    library.save("Assemblée", &sample_canvas(), 1.0).unwrap();
    let mut store = CanvasStore::new(Canvas::new(), HistoryLimits::default());
    let blocks = library.open("Assemblée").unwrap().canvas.blocks().to_vec();
    store
        .apply(Op::Replace { blocks }, &Origin::User, 2.0)
        .unwrap();
    assert_eq!(store.canvas(), &sample_canvas());
    store.undo(&Origin::User).unwrap();
    assert!(store.canvas().is_empty());
}

#[test]
fn a_bindings_rename_mark_round_trips_and_a_damaged_binding_leaves_the_widget_unbound() {
    use autoui_core::binding::source::{Binding, Source};

    let mut canvas = sample_canvas();
    let first = canvas.blocks()[0].id.clone();
    let source = Source::parse(&json!({"call": "s_mcp_t", "map": "{title: .name}"})).unwrap();
    let binding = Binding { renamed: true, ..Binding::fresh(source, 5.0) };
    canvas.apply(Op::Bind { id: first.clone(), binding: Some(Arc::new(binding.clone())) }, &Origin::User, 6.0).unwrap();
    let session = Session { canvas, conversation: Vec::new() };
    let text = encode_session(&session, 7.0);
    let loaded = decode_session(&text, &random(), 8.0).unwrap();
    assert_eq!(loaded.value.canvas.get(&first).unwrap().binding.as_deref(), Some(&binding), "the mark is kept");

    let mut damaged: Value = serde_json::from_str(&text).unwrap();
    damaged["canvas"]["blocks"][0]["binding"]["renamed"] = json!("yes");
    let loaded = decode_session(&damaged.to_string(), &random(), 8.0).unwrap();
    let block = loaded.value.canvas.get(&first).unwrap();
    assert_eq!(block.binding, None, "a binding that does not read is dropped");
    assert_eq!(block.data, session.canvas.get(&first).unwrap().data, "the widget keeps its data");
}
