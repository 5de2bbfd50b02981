//! Grid placement: where a new block goes when nobody says.

use crate::canvas::model::{Canvas, GRID_COLUMNS, Layout};

/// The first free slot (top to bottom, then left to right) where a `w` x `h` block overlaps nothing.
pub fn first_free_slot(canvas: &Canvas, w: u32, h: u32) -> (u32, u32) {
    let w = w.clamp(1, GRID_COLUMNS);
    let bottom = canvas.blocks().iter().map(|b| b.layout.y + b.layout.h).max().unwrap_or(0);
    for y in 0..=bottom {
        for x in 0..=(GRID_COLUMNS - w) {
            let candidate = Layout { x, y, w, h, z: 0 };
            if !canvas.blocks().iter().any(|b| overlaps(&b.layout, &candidate)) {
                return (x, y);
            }
        }
    }
    (0, bottom)
}

pub fn overlaps(a: &Layout, b: &Layout) -> bool {
    a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
}
