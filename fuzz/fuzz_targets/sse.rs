//! The SSE parser on arbitrary bytes: never panics, and cutting the stream anywhere (as the network
//! does) yields the same events as feeding it whole.
#![no_main]

use autoui_core::mcp::sse::SseParser;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&cut, body)) = data.split_first() else { return };
    let mut whole = SseParser::new(4 * 1024);
    let at_once = whole.feed(body);
    let mut pieces = SseParser::new(4 * 1024);
    let cut = usize::from(cut).min(body.len());
    let first = pieces.feed(&body[..cut]);
    let second = pieces.feed(&body[cut..]);
    if let (Ok(all), Ok(mut split), Ok(rest)) = (at_once, first, second) {
        split.extend(rest);
        assert_eq!(all, split, "events depend on where the stream was cut");
    }
});
