//! The URL parser on any text: never panics, and a web URL it accepts holds no space, quote,
//! backslash or angle bracket (so it cannot leave an attribute or pass for another host).
#![no_main]

use autoui_core::weburl::{Target, parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(parsed) = parse(text) {
        if let Target::Web { host } = &parsed.target {
            assert!(!host.is_empty());
            assert!(!parsed.url.contains([' ', '"', '\'', '\\', '<', '>']), "{}", parsed.url);
        }
    }
});
