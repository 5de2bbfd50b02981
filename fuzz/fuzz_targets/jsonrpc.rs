//! JSON-RPC decoding of a server's body: never panics, and every message read writes back to JSON
//! that reads as the same message.
#![no_main]

use autoui_core::mcp::jsonrpc::Message;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(messages) = Message::parse_all(text) else { return };
    for message in messages {
        let again = Message::parse_all(&message.to_json()).expect("our own JSON reads back");
        assert_eq!(again, vec![message]);
    }
});
