//! The partial-JSON parser on any prefix of any text: never panics, and a complete document reads
//! as what serde_json reads.
#![no_main]

use autoui_core::llm::partial_json::parse_prefix;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parsed = parse_prefix(text);
    if let Ok(complete) = serde_json::from_str::<serde_json::Value>(text) {
        if complete.is_object() || complete.is_array() {
            assert_eq!(parsed, Some(complete), "a complete document reads as itself");
        }
    }
});
