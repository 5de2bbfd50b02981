//! Every canvas op through `Canvas::apply`: placement in the first free slot, snapping and bounds,
//! pushing blocks out of the way, and the errors the agent receives.

use std::sync::Arc;

use autoui_core::canvas::layout;
use autoui_core::canvas::model::{Canvas, Layout, MAX_BLOCK_ROWS, merge_data};
use autoui_core::canvas::op::{CanvasError, Op};
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

fn add(canvas: &mut Canvas, name: &str, kind: WidgetKind, layout: Option<Layout>) {
    let op = Op::Add {
        id: id(name),
        kind,
        data: Arc::new(json!({})),
        layout,
        style: Style::default(),
    };
    canvas.apply(op, &agent(), 1.0).unwrap();
}

fn at(x: u32, y: u32, w: u32, h: u32) -> Layout {
    Layout { x, y, w, h, z: 0 }
}

fn place(canvas: &Canvas, name: &str) -> (u32, u32, u32, u32) {
    let layout = canvas.get(&id(name)).unwrap().layout;
    (layout.x, layout.y, layout.w, layout.h)
}

#[test]
fn add_without_layout_fills_the_first_free_slot_at_the_kinds_default_size() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, None);
    add(&mut canvas, "w_b", WidgetKind::Stat, None);
    add(&mut canvas, "w_c", WidgetKind::Chart, None);
    add(&mut canvas, "w_d", WidgetKind::DataTable, None);
    assert_eq!(place(&canvas, "w_a"), (0, 0, 3, 2));
    assert_eq!(place(&canvas, "w_b"), (3, 0, 3, 2));
    assert_eq!(place(&canvas, "w_c"), (6, 0, 6, 4));
    assert_eq!(
        place(&canvas, "w_d"),
        (0, 4, 12, 6),
        "a full-width table goes below everything"
    );
}

#[test]
fn add_reuses_the_gap_a_removed_widget_left() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, None);
    add(&mut canvas, "w_b", WidgetKind::Stat, None);
    canvas
        .apply(Op::Remove { id: id("w_a") }, &Origin::User, 2.0)
        .unwrap();
    add(&mut canvas, "w_c", WidgetKind::StatCard, None);
    assert_eq!(place(&canvas, "w_c"), (0, 0, 3, 2));
}

#[test]
fn add_with_a_layout_takes_that_spot_and_pushes_what_was_there_down() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Chart, Some(at(0, 0, 6, 4)));
    add(&mut canvas, "w_b", WidgetKind::Stat, Some(at(0, 0, 12, 2)));
    assert_eq!(place(&canvas, "w_b"), (0, 0, 12, 2));
    assert_eq!(place(&canvas, "w_a"), (0, 2, 6, 4));
}

#[test]
fn add_gives_the_new_block_its_origin_times_and_the_same_data_allocation() {
    let mut canvas = Canvas::new();
    let data = Arc::new(json!({ "label": "Users", "value": 42 }));
    let op = Op::Add {
        id: id("w_a"),
        kind: WidgetKind::Stat,
        data: data.clone(),
        layout: None,
        style: Style::default(),
    };
    let applied = canvas.apply(op, &agent(), 1000.0).unwrap();
    let block = canvas.get(&id("w_a")).unwrap();
    assert_eq!(block.provenance, agent());
    assert_eq!((block.created_ms, block.updated_ms), (1000.0, 1000.0));
    assert!(
        Arc::ptr_eq(&block.data, &data),
        "data is shared, never deep-cloned"
    );
    assert_eq!(applied.changed.len(), 1);
}

#[test]
fn add_with_an_id_already_on_the_canvas_is_refused_and_changes_nothing() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, None);
    let before = canvas.clone();
    let op = Op::Add {
        id: id("w_a"),
        kind: WidgetKind::Kv,
        data: Arc::new(json!({})),
        layout: None,
        style: Style::default(),
    };
    let error = canvas.apply(op, &agent(), 2.0).unwrap_err();
    assert_eq!(error, CanvasError::DuplicateBlock(id("w_a")));
    assert_eq!(error.to_string(), "a widget with id \"w_a\" already exists");
    assert_eq!(canvas, before);
}

#[test]
fn update_replaces_the_data_and_keeps_place_and_creation_time() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, None);
    let data = Arc::new(json!({ "value": "99.8%" }));
    canvas
        .apply(
            Op::Update {
                id: id("w_a"),
                data: data.clone(),
            },
            &agent(),
            5.0,
        )
        .unwrap();
    let block = canvas.get(&id("w_a")).unwrap();
    assert!(Arc::ptr_eq(&block.data, &data));
    assert_eq!((block.created_ms, block.updated_ms), (1.0, 5.0));
    assert_eq!(place(&canvas, "w_a"), (0, 0, 3, 2));
}

#[test]
fn merging_an_update_keeps_the_keys_the_patch_does_not_mention() {
    let base = json!({ "label": "Uptime", "value": "99.1%", "trend": "up" });
    let merged = merge_data(&base, &json!({ "value": "99.8%" }));
    assert_eq!(
        merged,
        json!({ "label": "Uptime", "value": "99.8%", "trend": "up" })
    );
    assert_eq!(
        merge_data(&json!([1, 2]), &json!({ "a": 1 })),
        json!({ "a": 1 }),
        "a non-object is replaced whole"
    );
}

#[test]
fn move_keeps_the_block_inside_the_columns() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, None);
    canvas
        .apply(
            Op::Move {
                id: id("w_a"),
                x: 40,
                y: 0,
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    assert_eq!(
        place(&canvas, "w_a"),
        (9, 0, 3, 2),
        "a 3-wide block can start at column 9 at most"
    );
}

#[test]
fn move_far_below_stops_right_under_the_lowest_other_block() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Chart, None);
    add(&mut canvas, "w_b", WidgetKind::Stat, None);
    canvas
        .apply(
            Op::Move {
                id: id("w_b"),
                x: 0,
                y: 500,
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    assert_eq!(place(&canvas, "w_b"), (0, 4, 3, 2));
}

#[test]
fn moving_onto_another_block_pushes_it_down_and_the_ones_below_it_too() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Chart, Some(at(0, 0, 6, 4)));
    add(&mut canvas, "w_b", WidgetKind::Chart, Some(at(6, 0, 6, 4)));
    add(&mut canvas, "w_c", WidgetKind::Stat, Some(at(6, 4, 3, 2)));
    let applied = canvas
        .apply(
            Op::Move {
                id: id("w_a"),
                x: 6,
                y: 0,
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    assert_eq!(
        place(&canvas, "w_a"),
        (6, 0, 6, 4),
        "the moved block goes exactly where it was put"
    );
    assert_eq!(
        place(&canvas, "w_b"),
        (6, 4, 6, 4),
        "the block it landed on moves just below it"
    );
    assert_eq!(
        place(&canvas, "w_c"),
        (6, 8, 3, 2),
        "and the one under that follows"
    );
    let mut changed: Vec<&str> = applied
        .changed
        .iter()
        .map(|block| block.id.as_str())
        .collect();
    changed.sort();
    assert_eq!(
        changed,
        ["w_a", "w_b", "w_c"],
        "every pushed block is reported for re-render"
    );
}

#[test]
fn only_the_blocks_in_the_way_move() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, Some(at(0, 0, 3, 2)));
    add(&mut canvas, "w_b", WidgetKind::Stat, Some(at(9, 0, 3, 8)));
    add(&mut canvas, "w_c", WidgetKind::Stat, Some(at(0, 5, 3, 2)));
    canvas
        .apply(
            Op::Move {
                id: id("w_a"),
                x: 0,
                y: 4,
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    assert_eq!(place(&canvas, "w_b"), (9, 0, 3, 8));
    assert_eq!(place(&canvas, "w_c"), (0, 6, 3, 2));
}

#[test]
fn a_drag_snaps_to_the_nearest_grid_cell() {
    assert_eq!(layout::snap(130.0, 100.0), 1);
    assert_eq!(layout::snap(151.0, 100.0), 2);
    assert_eq!(
        layout::snap(-40.0, 100.0),
        0,
        "never left of or above the grid"
    );
    assert_eq!(
        layout::snap(50.0, 0.0),
        0,
        "a zero-width cell (hidden canvas) gives the origin"
    );
}

#[test]
fn resize_keeps_the_corner_and_clamps_the_size_to_the_grid() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, Some(at(3, 0, 3, 2)));
    canvas
        .apply(
            Op::Resize {
                id: id("w_a"),
                w: 4,
                h: 3,
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    assert_eq!(place(&canvas, "w_a"), (3, 0, 4, 3));
    canvas
        .apply(
            Op::Resize {
                id: id("w_a"),
                w: 0,
                h: 900,
            },
            &Origin::User,
            3.0,
        )
        .unwrap();
    assert_eq!(
        place(&canvas, "w_a"),
        (3, 0, 1, 40),
        "at least one column, at most forty rows"
    );
    canvas
        .apply(
            Op::Resize {
                id: id("w_a"),
                w: 12,
                h: 2,
            },
            &Origin::User,
            4.0,
        )
        .unwrap();
    assert_eq!(
        place(&canvas, "w_a"),
        (0, 0, 12, 2),
        "a full-width request slides left to keep its width"
    );
}

#[test]
fn growing_a_block_over_its_neighbour_pushes_the_neighbour_down() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, Some(at(0, 0, 3, 2)));
    add(&mut canvas, "w_b", WidgetKind::Stat, Some(at(0, 2, 3, 2)));
    canvas
        .apply(
            Op::Resize {
                id: id("w_a"),
                w: 3,
                h: 5,
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    assert_eq!(place(&canvas, "w_b"), (0, 5, 3, 2));
}

#[test]
fn style_replaces_the_blocks_style() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, None);
    let style = Style([("background".to_owned(), "#fff".to_owned())].into());
    canvas
        .apply(
            Op::Style {
                id: id("w_a"),
                style: style.clone(),
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    assert_eq!(canvas.get(&id("w_a")).unwrap().style, style);
    canvas
        .apply(
            Op::Style {
                id: id("w_a"),
                style: Style::default(),
            },
            &Origin::User,
            3.0,
        )
        .unwrap();
    assert!(canvas.get(&id("w_a")).unwrap().style.is_empty());
}

#[test]
fn an_op_on_an_unknown_id_tells_the_agent_which_ids_exist() {
    let mut canvas = Canvas::new();
    let error = canvas
        .apply(Op::Remove { id: id("w_zz") }, &agent(), 1.0)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "no widget with id \"w_zz\"; existing ids: none (the canvas is empty)"
    );
    add(&mut canvas, "w_a", WidgetKind::Stat, None);
    add(&mut canvas, "w_b", WidgetKind::Kv, None);
    let error = canvas
        .apply(
            Op::Move {
                id: id("w_zz"),
                x: 0,
                y: 0,
            },
            &agent(),
            1.0,
        )
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "no widget with id \"w_zz\"; existing ids: w_a, w_b"
    );
}

#[test]
fn remove_takes_the_block_away_and_reports_its_id() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, None);
    add(&mut canvas, "w_b", WidgetKind::Kv, None);
    let applied = canvas
        .apply(Op::Remove { id: id("w_a") }, &Origin::User, 2.0)
        .unwrap();
    assert_eq!(applied.removed, vec![id("w_a")]);
    assert_eq!(canvas.ids(), vec![id("w_b")]);
}

#[test]
fn bring_to_front_puts_the_block_above_all_others_once() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, None);
    add(&mut canvas, "w_b", WidgetKind::Stat, None);
    let applied = canvas
        .apply(Op::BringToFront { id: id("w_a") }, &Origin::User, 2.0)
        .unwrap();
    let z = |name: &str| canvas.get(&id(name)).unwrap().layout.z;
    assert!(z("w_a") > z("w_b"));
    assert_eq!(applied.changed.len(), 1);
    let again = canvas
        .apply(Op::BringToFront { id: id("w_a") }, &Origin::User, 3.0)
        .unwrap();
    assert!(again.is_empty(), "already on top: nothing to re-render");
}

#[test]
fn clear_removes_every_block_and_reports_them() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, None);
    add(&mut canvas, "w_b", WidgetKind::Kv, None);
    let applied = canvas.apply(Op::Clear, &Origin::User, 2.0).unwrap();
    assert!(canvas.is_empty());
    assert_eq!(applied.removed, vec![id("w_a"), id("w_b")]);
}

#[test]
fn replace_swaps_in_new_blocks_but_refuses_repeated_ids() {
    let mut source = Canvas::new();
    add(&mut source, "w_x", WidgetKind::Chart, None);
    add(&mut source, "w_y", WidgetKind::Kv, None);
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, None);
    let applied = canvas
        .apply(
            Op::Replace {
                blocks: source.blocks().to_vec(),
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    assert_eq!(canvas, source);
    assert_eq!(applied.removed, vec![id("w_a")]);
    assert_eq!(applied.changed.len(), 2);

    let twice = vec![source.blocks()[0].clone(), source.blocks()[0].clone()];
    let error = canvas
        .apply(Op::Replace { blocks: twice }, &Origin::User, 3.0)
        .unwrap_err();
    assert_eq!(error, CanvasError::DuplicateBlock(id("w_x")));
    assert_eq!(
        canvas, source,
        "a refused replace leaves the canvas as it was"
    );
}

#[test]
fn an_op_that_changes_nothing_reports_nothing_and_keeps_the_update_time() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_a", WidgetKind::Stat, None);
    let applied = canvas
        .apply(
            Op::Move {
                id: id("w_a"),
                x: 0,
                y: 0,
            },
            &Origin::User,
            9.0,
        )
        .unwrap();
    assert!(applied.is_empty());
    assert_eq!(canvas.get(&id("w_a")).unwrap().updated_ms, 1.0);
}

#[test]
fn ops_travel_as_tagged_json() {
    let op: Op =
        serde_json::from_value(json!({ "op": "move", "id": "w_a", "x": 2, "y": 3 })).unwrap();
    assert_eq!(
        op,
        Op::Move {
            id: id("w_a"),
            x: 2,
            y: 3
        }
    );
    let add = Op::Add {
        id: id("w_b"),
        kind: WidgetKind::StatCard,
        data: Arc::new(json!({})),
        layout: None,
        style: Style::default(),
    };
    let value: Value = serde_json::to_value(&add).unwrap();
    assert_eq!(
        value,
        json!({ "op": "add", "id": "w_b", "kind": "stat-card", "data": {} })
    );
    assert_eq!(serde_json::from_value::<Op>(value).unwrap(), add);
}

#[test]
fn fit_makes_a_block_taller_and_pushes_the_blocks_below_down() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_chart", WidgetKind::ChartRich, None);
    add(&mut canvas, "w_below", WidgetKind::Stat, Some(at(0, 5, 3, 2)));
    assert_eq!(place(&canvas, "w_chart"), (0, 0, 6, 5));

    let grow = Op::Fit { id: id("w_chart"), h: 6 };
    canvas.apply(grow, &Origin::User, 2.0).unwrap();
    assert_eq!(place(&canvas, "w_chart"), (0, 0, 6, 6), "six rows, so its legend shows whole");
    assert_eq!(place(&canvas, "w_below"), (0, 6, 3, 2), "the block under it moved down a row");

    let shrink = Op::Fit { id: id("w_chart"), h: 3 };
    let applied = canvas.apply(shrink, &Origin::User, 3.0).unwrap();
    assert!(applied.is_empty(), "a chart fills its frame: a fit never makes it shorter");
    assert_eq!(place(&canvas, "w_chart"), (0, 0, 6, 6));

    let beyond = Op::Fit { id: id("w_chart"), h: 500 };
    canvas.apply(beyond, &Origin::User, 4.0).unwrap();
    assert_eq!(place(&canvas, "w_chart").3, MAX_BLOCK_ROWS, "no taller than any block may be");

    let unknown = Op::Fit { id: id("w_gone"), h: 3 };
    assert!(matches!(canvas.apply(unknown, &Origin::User, 5.0), Err(CanvasError::UnknownBlock { .. })));
}

#[test]
fn fit_makes_a_table_with_few_rows_shorter_and_what_rested_on_it_comes_up() {
    // A dashboard as the agent lays it out at default sizes: a table across the grid, then two
    // blocks resting on its bottom edge, one resting on the first of those, and one apart.
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_table", WidgetKind::DataTable, None);
    add(&mut canvas, "w_kv", WidgetKind::Kv, None);
    add(&mut canvas, "w_list", WidgetKind::List, None);
    add(&mut canvas, "w_under_kv", WidgetKind::Stat, Some(at(0, 9, 3, 2)));
    add(&mut canvas, "w_apart", WidgetKind::Stat, Some(at(9, 10, 3, 2)));
    assert_eq!(place(&canvas, "w_table"), (0, 0, 12, 6));
    assert_eq!(place(&canvas, "w_kv"), (0, 6, 4, 3));
    assert_eq!(place(&canvas, "w_list"), (4, 6, 4, 3));

    let applied = canvas.apply(Op::Fit { id: id("w_table"), h: 3 }, &Origin::User, 2.0).unwrap();
    assert_eq!(place(&canvas, "w_table"), (0, 0, 12, 3), "three rows: its few rows show whole");
    assert_eq!(place(&canvas, "w_kv"), (0, 3, 4, 3), "up by the three rows the table freed");
    assert_eq!(place(&canvas, "w_list"), (4, 3, 4, 3));
    assert_eq!(place(&canvas, "w_under_kv"), (0, 6, 3, 2), "and what rested on it came up too");
    assert_eq!(place(&canvas, "w_apart"), (9, 10, 3, 2), "a block with a gap above it stays");
    let mut moved: Vec<&str> = applied.changed.iter().map(|block| block.id.as_str()).collect();
    moved.sort_unstable();
    assert_eq!(moved, ["w_kv", "w_list", "w_table", "w_under_kv"], "the changes name every block that moved");

    // The kv shrinks to two rows; the block under it rises only as far as nothing else is in its way.
    add(&mut canvas, "w_wide", WidgetKind::Stat, Some(at(0, 6, 12, 2)));
    assert_eq!(place(&canvas, "w_wide"), (0, 6, 12, 2));
    assert_eq!(place(&canvas, "w_under_kv"), (0, 8, 3, 2), "pushed down by the wide block");
    canvas.apply(Op::Fit { id: id("w_kv"), h: 2 }, &Origin::User, 3.0).unwrap();
    assert_eq!(place(&canvas, "w_kv"), (0, 3, 4, 2));
    assert_eq!(place(&canvas, "w_wide"), (0, 6, 12, 2), "the list beside the kv still holds the wide block where it is");
}

#[test]
fn fit_keeps_a_block_at_least_one_row_tall() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_tags", WidgetKind::Tags, None);
    canvas.apply(Op::Fit { id: id("w_tags"), h: 0 }, &Origin::User, 2.0).unwrap();
    assert_eq!(place(&canvas, "w_tags"), (0, 0, 4, 1));
}

#[test]
fn reading_order_goes_row_by_row_and_a_removed_blocks_place_goes_to_the_next_left_else_the_previous() {
    let mut canvas = Canvas::new();
    add(&mut canvas, "w_right", WidgetKind::Stat, Some(at(9, 0, 3, 2)));
    add(&mut canvas, "w_below", WidgetKind::DataTable, Some(at(0, 2, 12, 4)));
    add(&mut canvas, "w_left", WidgetKind::Stat, Some(at(0, 0, 3, 2)));
    add(&mut canvas, "w_middle", WidgetKind::Stat, Some(at(3, 0, 3, 2)));
    let before = canvas.reading_order();
    assert_eq!(
        before,
        [id("w_left"), id("w_middle"), id("w_right"), id("w_below")],
        "row by row, left to right, not in the order added"
    );
    let without = |canvas: &Canvas, gone: &[&str]| {
        let mut after = canvas.clone();
        for name in gone {
            after.apply(Op::Remove { id: id(name) }, &Origin::User, 2.0).unwrap();
        }
        after
    };
    let after = without(&canvas, &["w_middle"]);
    assert_eq!(after.taking_place_of(&before, &id("w_middle")), Some(id("w_right")));
    let after = without(&canvas, &["w_right"]);
    assert_eq!(after.taking_place_of(&before, &id("w_right")), Some(id("w_below")), "the next row's first");
    let after = without(&canvas, &["w_below"]);
    assert_eq!(after.taking_place_of(&before, &id("w_below")), Some(id("w_right")), "the last one's is the one before");
    let after = without(&canvas, &["w_middle", "w_right"]);
    assert_eq!(
        after.taking_place_of(&before, &id("w_middle")),
        Some(id("w_below")),
        "blocks removed by the same change are passed over"
    );
    let after = without(&canvas, &["w_right", "w_below"]);
    assert_eq!(after.taking_place_of(&before, &id("w_right")), Some(id("w_middle")), "else the nearest one before");
    assert_eq!(canvas.taking_place_of(&before, &id("w_gone")), None, "not on the canvas before");
    let after = without(&canvas, &["w_left", "w_middle", "w_right", "w_below"]);
    assert_eq!(after.taking_place_of(&before, &id("w_left")), None, "nothing left to read");
}
