//! The change log the agent reads on its next turn: edits by the user and external agents since
//! the last mark, folded and worded so the model can act on them; its own edits are left out.

use std::sync::Arc;

use autoui_core::canvas::event::{WidgetAction, WidgetEvent};
use autoui_core::canvas::history::HistoryLimits;
use autoui_core::canvas::model::{Canvas, Layout};
use autoui_core::canvas::op::Op;
use autoui_core::canvas::store::CanvasStore;
use autoui_core::canvas::style::Style;
use autoui_core::ids::{BlockId, CallId};
use autoui_core::tool::Origin;
use autoui_core::widget_kind::WidgetKind;
use serde_json::json;

fn id(name: &str) -> BlockId {
    BlockId::new(name)
}

fn agent() -> Origin {
    Origin::Agent {
        call_id: CallId::new("toolu_1"),
        source: None,
    }
}

fn store() -> CanvasStore {
    let mut store = CanvasStore::new(Canvas::new(), HistoryLimits::default());
    let blocks = [
        ("w_a", WidgetKind::Chart, (0, 0, 6, 4)),
        ("w_b", WidgetKind::StatCard, (6, 0, 3, 2)),
        ("w_c", WidgetKind::Kv, (0, 4, 4, 3)),
    ];
    for (name, kind, (x, y, w, h)) in blocks {
        let data = Arc::new(json!({ "title": "t", "value": 1 }));
        let layout = Some(Layout { x, y, w, h, z: 0 });
        store
            .apply(
                Op::Add {
                    id: id(name),
                    kind,
                    data,
                    layout,
                    style: Style::default(),
                },
                &agent(),
                1.0,
            )
            .unwrap();
    }
    store.mark();
    store
}

fn lines(store: &CanvasStore) -> Vec<String> {
    let summary = store.changes_since_mark().expect("a summary");
    summary
        .lines()
        .skip(1)
        .map(|line| line.trim_start_matches("- ").to_owned())
        .collect()
}

#[test]
fn the_agents_own_changes_are_not_reported_back_to_it() {
    let mut store = store();
    store
        .apply(
            Op::Move {
                id: id("w_a"),
                x: 6,
                y: 8,
            },
            &agent(),
            2.0,
        )
        .unwrap();
    store
        .apply(Op::Remove { id: id("w_b") }, &agent(), 2.0)
        .unwrap();
    assert_eq!(store.changes_since_mark(), None);
}

#[test]
fn user_moves_resizes_styles_data_edits_and_removals_are_summarised() {
    let mut store = store();
    store
        .apply(
            Op::Move {
                id: id("w_b"),
                x: 9,
                y: 0,
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    store
        .apply(
            Op::Resize {
                id: id("w_c"),
                w: 6,
                h: 3,
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    let style = Style([("background".to_owned(), "#ffeedd".to_owned())].into());
    store
        .apply(
            Op::Style {
                id: id("w_a"),
                style,
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    let edited = Arc::new(json!({ "title": "t", "value": 2, "unit": "%" }));
    store
        .apply(
            Op::Update {
                id: id("w_b"),
                data: edited,
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    store
        .apply(Op::Remove { id: id("w_c") }, &Origin::User, 2.0)
        .unwrap();
    let summary = store.changes_since_mark().unwrap();
    assert!(summary.starts_with("Canvas changes since your last turn"));
    assert_eq!(
        lines(&store),
        [
            "the user moved w_b (stat-card) to x=9, y=0",
            "the user resized w_c (kv) to 6 columns x 3 rows",
            "the user restyled w_a (chart): background: #ffeedd",
            "the user edited the data of w_b (stat-card) (changed: unit, value)",
            "the user removed w_c (kv)",
        ]
    );
}

#[test]
fn several_keyboard_moves_of_one_widget_read_as_one_move_to_where_it_ended() {
    let mut store = store();
    for x in 7..=9 {
        store
            .apply(
                Op::Move {
                    id: id("w_b"),
                    x,
                    y: 0,
                },
                &Origin::User,
                2.0,
            )
            .unwrap();
    }
    assert_eq!(
        lines(&store),
        ["the user moved w_b (stat-card) to x=9, y=0"]
    );
}

#[test]
fn widgets_pushed_out_of_the_way_are_reported_as_pushed() {
    let mut store = store();
    store
        .apply(
            Op::Move {
                id: id("w_b"),
                x: 0,
                y: 0,
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    assert_eq!(
        lines(&store),
        [
            "the user moved w_b (stat-card) to x=0, y=0",
            "w_a (chart) was pushed down to y=2 to make room for w_b",
            "w_c (kv) was pushed down to y=6 to make room for w_b",
        ]
    );
}

#[test]
fn marking_starts_a_fresh_log() {
    let mut store = store();
    store
        .apply(Op::BringToFront { id: id("w_a") }, &Origin::User, 2.0)
        .unwrap();
    assert_eq!(lines(&store), ["the user brought w_a (chart) to the front"]);
    store.mark();
    assert_eq!(store.changes_since_mark(), None);
}

#[test]
fn external_agents_and_undo_are_named_as_such() {
    let mut store = store();
    store
        .apply(Op::Remove { id: id("w_a") }, &Origin::ExternalAgent, 2.0)
        .unwrap();
    store.undo(&Origin::User).unwrap();
    assert_eq!(
        lines(&store),
        [
            "an external agent removed w_a (chart)",
            "the user (undo) added w_a (chart)"
        ]
    );
}

#[test]
fn a_clear_and_an_opened_dashboard_are_one_line_each() {
    let mut store = store();
    let dashboard = store.canvas().blocks()[..2].to_vec();
    store.apply(Op::Clear, &Origin::User, 2.0).unwrap();
    store
        .apply(Op::Replace { blocks: dashboard }, &Origin::User, 3.0)
        .unwrap();
    assert_eq!(
        lines(&store),
        [
            "the user cleared the canvas (3 widgets removed)",
            "the user replaced the whole canvas with 2 widgets (opened a dashboard, a file or a link)",
        ]
    );
}

#[test]
fn a_click_becomes_the_widgets_selection_and_is_reported() {
    let mut store = store();
    let event = WidgetEvent {
        widget: id("w_c"),
        kind: WidgetKind::Kv,
        action: WidgetAction::RowClick,
        payload: json!({ "key": "wind" }),
    };
    store.record_event(event.clone(), &Origin::User);
    assert_eq!(store.selection(&id("w_c")), Some(&event));
    assert_eq!(
        lines(&store),
        ["in w_c (kv), the user selected a row: {\"key\":\"wind\"}"]
    );
    store
        .apply(Op::Remove { id: id("w_c") }, &Origin::User, 2.0)
        .unwrap();
    assert_eq!(
        store.selection(&id("w_c")),
        None,
        "a removed widget has no selection"
    );
}

#[test]
fn a_long_session_of_edits_lists_the_last_twenty_and_counts_the_earlier_ones() {
    let mut store = CanvasStore::new(Canvas::new(), HistoryLimits::default());
    for index in 0..30 {
        let op = Op::Add {
            id: id(&format!("w_{index}")),
            kind: WidgetKind::Stat,
            data: Arc::new(json!({})),
            layout: None,
            style: Style::default(),
        };
        store.apply(op, &Origin::User, 1.0).unwrap();
    }
    let summary = store.changes_since_mark().unwrap();
    assert_eq!(summary.lines().count(), 22);
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(lines[1], "- … 10 earlier changes not listed");
    assert_eq!(lines[2], "- the user added w_10 (stat)");
    assert_eq!(lines[21], "- the user added w_29 (stat)");
}
