//! Grid placement: where a new block goes, how a layout is kept on the grid, and what happens to
//! the blocks a moved, resized or added block lands on.
//!
//! The rule for collisions: the block being placed takes exactly the spot it was given, and any
//! block it now covers is pushed straight down, just below it; pushed blocks push the blocks they
//! land on in turn. Nothing moves up or sideways and nothing else moves at all, so gaps the user
//! left stay where they are and no widget ever hides another. This is what dashboard grids people
//! already know do (Grafana, react-grid-layout), and it keeps every agent `move` predictable: the
//! widget goes where the agent said and the others make room. One exception, the app's own fit of a
//! new block to its content: a block it makes shorter takes the blocks resting on its bottom edge up
//! with it, so the fit leaves no gap nobody made.

use crate::canvas::model::{Block, Canvas, GRID_COLUMNS, Layout, MAX_BLOCK_ROWS};
use crate::sort::sort_by_key;

/// The first free slot (top to bottom, then left to right) where a `w` x `h` block overlaps nothing.
pub fn first_free_slot(canvas: &Canvas, w: u32, h: u32) -> (u32, u32) {
    let w = w.clamp(1, GRID_COLUMNS);
    let h = h.clamp(1, MAX_BLOCK_ROWS);
    let bottom = canvas.bottom();
    for y in 0..bottom {
        for x in 0..=(GRID_COLUMNS - w) {
            let candidate = Layout { x, y, w, h, z: 0 };
            if !canvas
                .blocks()
                .iter()
                .any(|block| overlaps(&block.layout, &candidate))
            {
                return (x, y);
            }
        }
    }
    (0, bottom)
}

/// A pointer offset in pixels as whole grid cells, rounded to the nearest one: what a drag or a
/// resize handle turns into before it becomes an `Op`. Offsets left of or above the origin give 0.
pub fn snap(offset_px: f64, cell_px: f64) -> u32 {
    let cells = (offset_px / cell_px).round();
    if cells.is_finite() && cells > 0.0 {
        cells.min(f64::from(u32::MAX)) as u32
    } else {
        0
    }
}

pub fn overlaps(a: &Layout, b: &Layout) -> bool {
    a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.bottom() && b.y < a.bottom()
}

/// Keeps a layout on the grid: 1..=12 columns wide, 1..=40 rows high, inside the columns (a block
/// too far right slides left so it keeps the width it asked for), and no lower than `max_y`.
pub fn clamp(layout: Layout, max_y: u32) -> Layout {
    let w = layout.w.clamp(1, GRID_COLUMNS);
    let h = layout.h.clamp(1, MAX_BLOCK_ROWS);
    let x = layout.x.min(GRID_COLUMNS - w);
    let y = layout.y.min(max_y);
    Layout {
        x,
        y,
        w,
        h,
        z: layout.z,
    }
}

/// Pushes down every block that overlaps `blocks[anchor]`, then every block those land on, and so
/// on. The anchor itself never moves.
pub fn push_down_from(blocks: &mut [Block], anchor: usize) {
    let mut order: Vec<usize> = (0..blocks.len()).filter(|&index| index != anchor).collect();
    sort_by_key(&mut order, |&index| (blocks[index].layout.y, blocks[index].layout.x));
    let mut settled = vec![anchor];
    for index in order {
        // Each pass moves the block strictly down, and `settled` is finite, so this ends.
        while let Some(floor) = settled
            .iter()
            .filter(|&&other| overlaps(&blocks[other].layout, &blocks[index].layout))
            .map(|&other| blocks[other].layout.bottom())
            .max()
        {
            blocks[index].layout.y = floor;
        }
        settled.push(index);
    }
}

/// After `blocks[anchor]` got shorter (its bottom was `old_bottom`), lifts the blocks that rested on
/// its bottom edge by as many of the freed rows as they can rise without covering anything, then the
/// blocks resting on those, and so on, top to bottom. Other blocks stay where they are.
pub fn lift_resting_on(blocks: &mut [Block], anchor: usize, old_bottom: u32) {
    let freed = old_bottom.saturating_sub(blocks[anchor].layout.bottom());
    // The blocks that rose, with where their bottom edge was; a block resting on one starts there.
    let mut risen = vec![(anchor, old_bottom)];
    let lowest = blocks.iter().map(|block| block.layout.y).max().unwrap_or(0);
    for y in old_bottom..=lowest {
        for index in 0..blocks.len() {
            let was = blocks[index].layout;
            let rests = was.y == y
                && risen.iter().any(|&(other, bottom)| {
                    let under = &blocks[other].layout;
                    bottom == y && was.x < under.x + under.w && under.x < was.x + was.w
                });
            if !rests {
                continue;
            }
            let free = |rise: u32| {
                let lifted = Layout { y: was.y - rise, ..was };
                !blocks.iter().enumerate().any(|(other, block)| other != index && overlaps(&block.layout, &lifted))
            };
            let mut rise = 0;
            while rise < freed && free(rise + 1) {
                rise += 1;
            }
            if rise > 0 {
                blocks[index].layout.y -= rise;
                risen.push((index, was.bottom()));
            }
        }
    }
}
