//! Markdown rendering of any text: never panics, and its HTML never holds an element or URL that
//! could run code, nor loads an image from a URL the ledger does not know.
#![no_main]

use autoui_core::view::markdown::to_safe_html_with;
use autoui_core::provenance::{ImageSources, UrlLedger};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let ledger = UrlLedger::default();
    let html = to_safe_html_with(text, ImageSources::Known(&ledger)).to_ascii_lowercase();
    for forbidden in ["<script", "<iframe", "<object", "<embed", "<style", "<svg", "<math", "href=\"javascript:", "src=\"javascript:", "<img src=\"http"] {
        assert!(!html.contains(forbidden), "{forbidden} in {html}");
    }
});
