//! Undo/redo through `CanvasStore`: every op from anyone lands on one history, `clear` is
//! undoable, and the memory the history keeps alive stays bounded.

use std::sync::{Arc, Weak};

use autoui_core::canvas::history::HistoryLimits;
use autoui_core::canvas::model::{Canvas, Layout};
use autoui_core::canvas::op::Op;
use autoui_core::canvas::store::CanvasStore;
use autoui_core::canvas::style::Style;
use autoui_core::ids::{BlockId, CallId};
use autoui_core::tool::Origin;
use autoui_core::widget_kind::WidgetKind;
use serde_json::{Value, json};

fn id(name: &str) -> BlockId {
    BlockId::new(name)
}

fn agent() -> Origin {
    Origin::Agent {
        call_id: CallId::new("toolu_1"),
        source: None,
    }
}

fn add_op(name: &str, kind: WidgetKind, data: Value) -> Op {
    Op::Add {
        id: id(name),
        kind,
        data: Arc::new(data),
        layout: None,
        style: Style::default(),
    }
}

fn store_with_two_blocks() -> CanvasStore {
    let mut store = CanvasStore::new(Canvas::new(), HistoryLimits::default());
    store
        .apply(
            add_op("w_a", WidgetKind::Stat, json!({ "value": 1 })),
            &agent(),
            1.0,
        )
        .unwrap();
    store
        .apply(
            add_op("w_b", WidgetKind::Chart, json!({ "bars": [] })),
            &agent(),
            2.0,
        )
        .unwrap();
    store
}

#[test]
fn every_op_kind_is_undone_exactly_and_redone_exactly() {
    let style = Style([("border-color".to_owned(), "red".to_owned())].into());
    let ops = vec![
        add_op("w_c", WidgetKind::Kv, json!({})),
        Op::Update {
            id: id("w_a"),
            data: Arc::new(json!({ "value": 2 })),
        },
        Op::Move {
            id: id("w_a"),
            x: 6,
            y: 0,
        },
        Op::Resize {
            id: id("w_b"),
            w: 12,
            h: 3,
        },
        Op::Style {
            id: id("w_b"),
            style,
        },
        Op::Remove { id: id("w_a") },
        Op::BringToFront { id: id("w_a") },
        Op::Clear,
        Op::Replace { blocks: Vec::new() },
    ];
    for op in ops {
        let mut store = store_with_two_blocks();
        let before = store.canvas().clone();
        let label = format!("{op:?}");
        store.apply(op, &Origin::User, 10.0).unwrap();
        let after = store.canvas().clone();
        assert_ne!(before, after, "{label} changed something");
        store.undo(&Origin::User).unwrap();
        assert_eq!(store.canvas(), &before, "undo of {label}");
        store.redo(&Origin::User).unwrap();
        assert_eq!(store.canvas(), &after, "redo of {label}");
    }
}

#[test]
fn clear_is_undoable_with_every_widget_back_in_its_place() {
    let mut store = store_with_two_blocks();
    store
        .apply(
            Op::Move {
                id: id("w_b"),
                x: 0,
                y: 7,
            },
            &Origin::User,
            3.0,
        )
        .unwrap();
    let before = store.canvas().clone();
    store.apply(Op::Clear, &Origin::User, 4.0).unwrap();
    assert!(store.canvas().is_empty());
    let applied = store.undo(&Origin::User).unwrap();
    assert_eq!(store.canvas(), &before);
    assert_eq!(
        applied.changed.len(),
        2,
        "both widgets come back to be rendered"
    );
}

#[test]
fn agent_user_and_external_agent_changes_share_one_history() {
    let mut store = store_with_two_blocks();
    store
        .apply(
            Op::Move {
                id: id("w_a"),
                x: 9,
                y: 0,
            },
            &Origin::User,
            3.0,
        )
        .unwrap();
    store
        .apply(Op::Remove { id: id("w_b") }, &Origin::ExternalAgent, 4.0)
        .unwrap();
    assert_eq!(store.history().undo_len(), 4);
    store.undo(&Origin::User).unwrap();
    assert!(
        store.canvas().get(&id("w_b")).is_some(),
        "the external agent's removal is undone first"
    );
    store.undo(&Origin::User).unwrap();
    assert_eq!(
        store.canvas().get(&id("w_a")).unwrap().layout.x,
        0,
        "then the user's move"
    );
    store.undo(&Origin::User).unwrap();
    assert!(
        store.canvas().get(&id("w_b")).is_none(),
        "then the agent's add"
    );
}

#[test]
fn a_new_change_after_undo_forgets_what_could_be_redone() {
    let mut store = store_with_two_blocks();
    store.undo(&Origin::User).unwrap();
    assert!(store.history().can_redo());
    store
        .apply(add_op("w_c", WidgetKind::Kv, json!({})), &Origin::User, 3.0)
        .unwrap();
    assert!(!store.history().can_redo());
    assert!(store.redo(&Origin::User).is_none());
}

#[test]
fn refused_ops_and_ops_that_change_nothing_leave_no_undo_step() {
    let mut store = store_with_two_blocks();
    assert!(
        store
            .apply(Op::Remove { id: id("w_zz") }, &agent(), 3.0)
            .is_err()
    );
    store
        .apply(
            Op::Move {
                id: id("w_a"),
                x: 0,
                y: 0,
            },
            &Origin::User,
            3.0,
        )
        .unwrap();
    assert_eq!(store.history().undo_len(), 2);
}

#[test]
fn undo_and_redo_report_exactly_the_blocks_to_render_again() {
    let mut store = store_with_two_blocks();
    store
        .apply(
            Op::Update {
                id: id("w_a"),
                data: Arc::new(json!({ "value": 3 })),
            },
            &agent(),
            3.0,
        )
        .unwrap();
    let undone = store.undo(&Origin::User).unwrap();
    assert_eq!(
        undone
            .changed
            .iter()
            .map(|block| block.id.clone())
            .collect::<Vec<_>>(),
        vec![id("w_a")]
    );
    assert!(undone.removed.is_empty());
    store.undo(&Origin::User).unwrap();
    let redone = store.redo(&Origin::User).unwrap();
    assert_eq!(redone.changed.len(), 1);
    store.undo(&Origin::User).unwrap();
    store.undo(&Origin::User).unwrap();
    assert!(store.undo(&Origin::User).is_none(), "nothing left to undo");
    assert!(store.canvas().is_empty());
}

#[test]
fn the_history_keeps_at_most_its_step_limit() {
    let limits = HistoryLimits {
        max_steps: 5,
        ..HistoryLimits::default()
    };
    let mut store = CanvasStore::new(Canvas::new(), limits);
    store
        .apply(add_op("w_a", WidgetKind::Stat, json!({})), &agent(), 1.0)
        .unwrap();
    for step in 0..20 {
        store
            .apply(
                Op::Move {
                    id: id("w_a"),
                    x: step % 9 + 1,
                    y: 0,
                },
                &Origin::User,
                2.0,
            )
            .unwrap();
        store
            .apply(
                Op::Move {
                    id: id("w_a"),
                    x: 0,
                    y: 0,
                },
                &Origin::User,
                2.0,
            )
            .unwrap();
    }
    assert_eq!(store.history().undo_len(), 5);
    let mut undone = 0;
    while store.undo(&Origin::User).is_some() {
        undone += 1;
    }
    assert_eq!(undone, 5);
}

/// About 50 KB of JSON that no other value shares.
fn big_table(seed: usize) -> Value {
    let rows: Vec<Value> = (0..500)
        .map(|row| json!({ "row": row, "label": format!("{seed:08}-{row:040}") }))
        .collect();
    json!({ "rows": rows })
}

#[test]
fn replaced_table_data_kept_for_undo_stays_under_the_byte_limit_and_is_freed_when_dropped() {
    let limits = HistoryLimits {
        max_steps: 1000,
        max_bytes: 1024 * 1024,
    };
    let mut store = CanvasStore::new(Canvas::new(), limits);
    store
        .apply(
            add_op("w_t", WidgetKind::DataTable, big_table(0)),
            &agent(),
            1.0,
        )
        .unwrap();
    let first: Weak<Value> = Arc::downgrade(&store.canvas().get(&id("w_t")).unwrap().data);
    for seed in 1..=200 {
        store
            .apply(
                Op::Update {
                    id: id("w_t"),
                    data: Arc::new(big_table(seed)),
                },
                &agent(),
                2.0,
            )
            .unwrap();
        assert!(
            store.history().retained_bytes() <= limits.max_bytes,
            "bound holds after update {seed}"
        );
    }
    let steps = store.history().undo_len();
    assert!(
        (5..200).contains(&steps),
        "older steps were dropped to stay in budget ({steps} kept)"
    );
    assert!(
        first.upgrade().is_none(),
        "the first table is freed once no step holds it"
    );
    for _ in 0..steps {
        store.undo(&Origin::User).unwrap();
    }
    let oldest_kept = store.canvas().get(&id("w_t")).unwrap().data["rows"][0]["label"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        oldest_kept.starts_with(&format!("{:08}", 200 - steps)),
        "undo walks back through every kept version"
    );
}

#[test]
fn snapshots_share_widget_data_with_the_live_canvas() {
    let mut store = CanvasStore::new(Canvas::new(), HistoryLimits::default());
    store
        .apply(
            add_op("w_t", WidgetKind::DataTable, big_table(7)),
            &agent(),
            1.0,
        )
        .unwrap();
    for step in 0..100u32 {
        store
            .apply(
                Op::Resize {
                    id: id("w_t"),
                    w: 12,
                    h: 7 + step % 2,
                },
                &Origin::User,
                2.0,
            )
            .unwrap();
    }
    let data = &store.canvas().get(&id("w_t")).unwrap().data;
    assert!(
        Arc::strong_count(data) > 100,
        "one allocation, shared by the live canvas and every step"
    );
    assert!(
        store.history().retained_bytes() < 100 * 1024,
        "a hundred resizes of a 50 KB table keep only their block records ({} bytes)",
        store.history().retained_bytes()
    );
}

#[test]
fn the_last_change_stays_undoable_even_when_it_alone_exceeds_the_byte_limit() {
    let limits = HistoryLimits {
        max_steps: 100,
        max_bytes: 1024,
    };
    let mut store = CanvasStore::new(Canvas::new(), limits);
    store
        .apply(
            add_op("w_t", WidgetKind::DataTable, big_table(1)),
            &agent(),
            1.0,
        )
        .unwrap();
    let before = store.canvas().clone();
    store.apply(Op::Clear, &Origin::User, 2.0).unwrap();
    store.undo(&Origin::User).unwrap();
    assert_eq!(store.canvas(), &before);
}

#[test]
fn a_restored_session_starts_with_nothing_to_undo() {
    let mut canvas = Canvas::new();
    let op = Op::Add {
        id: id("w_a"),
        kind: WidgetKind::Stat,
        data: Arc::new(json!({})),
        layout: Some(Layout {
            x: 0,
            y: 0,
            w: 3,
            h: 2,
            z: 1,
        }),
        style: Style::default(),
    };
    canvas.apply(op, &agent(), 1.0).unwrap();
    let store = CanvasStore::new(canvas, HistoryLimits::default());
    assert!(!store.history().can_undo());
    assert_eq!(store.canvas().len(), 1);
}

#[test]
fn a_fit_is_neither_a_step_to_undo_nor_news_for_the_agent() {
    let mut store = store_with_two_blocks();
    store.mark();
    store.apply(Op::Fit { id: id("w_a"), h: 4 }, &Origin::User, 3.0).unwrap();
    assert_eq!(store.canvas().get(&id("w_a")).unwrap().layout.h, 4);
    assert_eq!(store.changes_since_mark(), None, "the agent is not told the app made a widget taller");

    // Undo takes back the last add, not the fit, and the fitted block stays as tall (the state it
    // goes back to was saved before the fit); redo keeps it so too.
    store.undo(&Origin::User).unwrap();
    assert!(store.canvas().get(&id("w_b")).is_none(), "undo took back the last add");
    assert_eq!(store.canvas().get(&id("w_a")).unwrap().layout.h, 4, "the fit outlives an undo");
    store.redo(&Origin::User).unwrap();
    assert!(store.canvas().get(&id("w_b")).is_some());
    assert_eq!(store.canvas().get(&id("w_a")).unwrap().layout.h, 4, "and a redo");
    store.undo(&Origin::User).unwrap();
    store.undo(&Origin::User).unwrap();
    assert!(store.canvas().get(&id("w_a")).is_none(), "undoing its add still takes the block away");
}
