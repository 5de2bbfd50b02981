//! Dashboard import (JSON in our format, the reference formats, or markdown): never panics, and
//! what it imports exports and imports again to the same widgets.
#![no_main]

use autoui_core::canvas::exchange;
use autoui_core::ports::Random;
use libfuzzer_sys::fuzz_target;

struct Counter(std::cell::Cell<u64>);

impl Random for Counter {
    fn next_u64(&self) -> u64 {
        self.0.set(self.0.get() + 1);
        self.0.get()
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let random = Counter(std::cell::Cell::new(0));
    let Ok(imported) = exchange::import(text, &random, 0.0) else { return };
    let again = exchange::import(&exchange::export_file(&imported.canvas, None), &random, 0.0).expect("our export imports");
    let kinds = |canvas: &autoui_core::canvas::model::Canvas| canvas.blocks().iter().map(|block| block.kind).collect::<Vec<_>>();
    assert_eq!(kinds(&again.canvas), kinds(&imported.canvas));
});
