//! The SSE parser follows the event-stream format: `data` lines join with `\n`, comments are
//! skipped, `event`/`id`/`retry` are read, CRLF/CR/LF all end lines, and the result does not depend
//! on where the byte stream was cut. One event may not grow past the cap.

use autoui_core::mcp::sse::{SseError, SseEvent, SseParser, SseStream};
use autoui_core::ports::HttpError;
use futures::StreamExt;
use futures::executor::block_on;

const CAP: usize = 64 * 1024;

fn event(kind: &str, data: &str, id: Option<&str>) -> SseEvent {
    SseEvent {
        event: kind.to_owned(),
        data: data.to_owned(),
        id: id.map(str::to_owned),
        dropped: 0,
    }
}

fn parse_whole(bytes: &[u8]) -> Vec<SseEvent> {
    SseParser::new(CAP).feed(bytes).unwrap()
}

/// Feeds `bytes` cut at `cuts` (sorted positions) and collects every event.
fn parse_cut(bytes: &[u8], cuts: &[usize]) -> Vec<SseEvent> {
    let mut parser = SseParser::new(CAP);
    let mut events = Vec::new();
    let mut start = 0;
    for &cut in cuts.iter().chain(std::iter::once(&bytes.len())) {
        events.extend(parser.feed(&bytes[start..cut]).unwrap());
        start = cut;
    }
    events
}

/// A stream using every feature, with all three line endings and a UTF-8 character that a cut can split.
const MIXED: &[u8] = b"\xEF\xBB\xBF: a comment\r\nretry: 2500\r\nevent: endpoint\r\ndata: /message?sessionId=abc\r\n\r\n\
id: 41\rdata: {\"a\":\r\ndata:  1}\r\rdata: caf\xC3\xA9\n\nid\ndata: no-id\n\n: keep-alive\n\nevent: message\ndata\n\n";

fn mixed_expected() -> Vec<SseEvent> {
    vec![
        event("endpoint", "/message?sessionId=abc", None),
        event("message", "{\"a\":\n 1}", Some("41")),
        event("message", "caf\u{e9}", Some("41")),
        event("message", "no-id", None),
        event("message", "", None),
    ]
}

#[test]
fn a_stream_with_every_feature_parses_in_one_chunk() {
    assert_eq!(parse_whole(MIXED), mixed_expected());
}

#[test]
fn the_result_is_the_same_whatever_single_position_the_stream_is_cut_at() {
    for cut in 0..=MIXED.len() {
        assert_eq!(parse_cut(MIXED, &[cut]), mixed_expected(), "cut at {cut}");
    }
}

#[test]
fn the_result_is_the_same_when_every_byte_arrives_alone() {
    let cuts: Vec<usize> = (1..MIXED.len()).collect();
    assert_eq!(parse_cut(MIXED, &cuts), mixed_expected());
}

#[test]
fn the_result_is_the_same_for_every_pair_of_cuts() {
    for first in 0..=MIXED.len() {
        for second in first..=MIXED.len() {
            assert_eq!(
                parse_cut(MIXED, &[first, second]),
                mixed_expected(),
                "cuts at {first} and {second}"
            );
        }
    }
}

#[test]
fn a_crlf_split_between_chunks_ends_one_line_only() {
    let mut parser = SseParser::new(CAP);
    assert!(parser.feed(b"data: a\r").unwrap().is_empty());
    assert!(parser.feed(b"\ndata: b\r").unwrap().is_empty());
    assert_eq!(
        parser.feed(b"\n\r\n").unwrap(),
        vec![event("message", "a\nb", None)]
    );
}

#[test]
fn retry_and_last_event_id_are_kept_for_reconnection() {
    let mut parser = SseParser::new(CAP);
    parser
        .feed(b"retry: 3000\nretry: soon\nid: 7\ndata: x\n\nid: 8\n\n")
        .unwrap();
    assert_eq!(parser.retry_ms(), Some(3000));
    // An event without data is not dispatched, but its id still counts (the priming event).
    assert_eq!(parser.last_event_id(), Some("8"));
}

#[test]
fn an_empty_id_resets_the_last_event_id_and_an_id_with_nul_is_ignored() {
    let mut parser = SseParser::new(CAP);
    let events = parser
        .feed(b"id: 1\ndata: a\n\nid: x\0y\ndata: b\n\nid:\ndata: c\n\n")
        .unwrap();
    assert_eq!(
        events,
        vec![
            event("message", "a", Some("1")),
            event("message", "b", Some("1")),
            event("message", "c", None)
        ]
    );
    assert_eq!(parser.last_event_id(), None);
}

#[test]
fn an_unfinished_event_at_the_end_of_the_stream_is_dropped() {
    assert_eq!(
        parse_whole(b"data: complete\n\ndata: half"),
        vec![event("message", "complete", None)]
    );
}

#[test]
fn an_event_over_the_cap_is_refused_even_without_a_newline() {
    let mut parser = SseParser::new(16);
    assert_eq!(
        parser.feed(b"data: 0123456789abcdef"),
        Err(SseError::EventTooLarge { limit: 16 })
    );
    let mut parser = SseParser::new(16);
    assert!(parser.feed(b"data: 01234\n").is_ok());
    assert_eq!(
        parser.feed(b"data: 56789abc\n"),
        Err(SseError::EventTooLarge { limit: 16 })
    );
}

#[test]
fn many_small_events_pass_under_a_small_cap() {
    let mut parser = SseParser::new(16);
    let events = parser.feed(&b"data: 0123456789\n\n".repeat(100)).unwrap();
    assert_eq!(events.len(), 100);
}

#[test]
fn the_stream_adapter_reads_chunks_and_stops_after_a_body_error() {
    let chunks: Vec<Result<Vec<u8>, HttpError>> = vec![
        Ok(b"data: one\n".to_vec()),
        Ok(b"\nid: 5\ndata: two\n\n".to_vec()),
        Err(HttpError::Network("reset".into())),
        Ok(b"data: never\n\n".to_vec()),
    ];
    let mut stream = SseStream::new(futures::stream::iter(chunks), CAP);
    let items: Vec<_> = block_on(async {
        let mut items = Vec::new();
        while let Some(item) = stream.next().await {
            items.push(item);
        }
        items
    });
    assert_eq!(
        items,
        vec![
            Ok(event("message", "one", None)),
            Ok(event("message", "two", Some("5"))),
            Err(SseError::Body(HttpError::Network("reset".into()))),
        ]
    );
    assert_eq!(stream.last_event_id(), Some("5"));
}
