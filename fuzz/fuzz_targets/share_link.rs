//! Share-link decoding (a full URL or the bare `hs` value, base64, gzip, then the import): never
//! panics, whatever the link holds.
#![no_main]

use autoui_core::canvas::share;
use autoui_core::ports::Random;
use libfuzzer_sys::fuzz_target;

struct Fixed;

impl Random for Fixed {
    fn next_u64(&self) -> u64 {
        42
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = share::open(text, &Fixed, 0.0);
    let _ = share::open(&format!("https://app.example/#hs={text}"), &Fixed, 0.0);
    let _ = share::fragment_param(text);
});
