//! Very large answers are cut to a stated cap while they stream in (issue 15, item 9): a tool
//! result over `McpOptions::max_result_bytes` reaches the model as the text of its first part with
//! a line giving both sizes, over an SSE stream cut anywhere, a JSON body, or a legacy `message`
//! event; a resource over its cap is refused with its size; the SSE parser keeps no more than its
//! cap of an event whatever its size; and reading a large body yields to the page every MiB.

#[path = "fixtures/mcp/support.rs"]
mod support;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::mcp::config::{McpOptions, ServerConfig, TransportChoice};
use autoui_core::mcp::cut::{self, CutAnswer};
use autoui_core::mcp::error::McpError;
use autoui_core::mcp::inbound::Notice;
use autoui_core::mcp::jsonrpc::RequestId;
use autoui_core::mcp::session::{Session, SessionPorts};
use autoui_core::mcp::sse::SseParser;
use autoui_core::ports::{Clock, HttpError};
use autoui_core::tool::ToolResult;
use futures::StreamExt;
use futures::future::LocalBoxFuture;
use futures::task::LocalSpawnExt;
use serde_json::{Value, json};
use support::{FakeClock, FakeNet, FakeServer, Logged, Reply, rpc_result, text_result};

const URL: &str = "http://127.0.0.1:3001/mcp";
const LEGACY_URL: &str = "http://127.0.0.1:3001/sse";
const CAP: usize = 64 * 1024;

/// `count` rows as a tool would print them: a JSON array, one object a row.
fn rows(count: usize) -> String {
    let rows: Vec<Value> =
        (0..count).map(|id| json!({"id": id, "city": "Gen\u{e8}ve \"centre\"", "population": 200_000 + id})).collect();
    serde_json::to_string(&rows).unwrap()
}

/// A tool result of `count` rows, the way the Python SDK writes it (id before the result).
fn big_answer(id: i64, count: usize) -> String {
    rpc_result(json!(id), text_result(&rows(count))).to_string()
}

struct Setup {
    clock: FakeClock,
    session: Rc<Session<FakeNet>>,
    notices: Rc<RefCell<Vec<Notice>>>,
}

fn setup(
    transport: TransportChoice,
    url: &str,
    options: McpOptions,
    net: Rc<FakeNet>,
) -> Setup {
    let clock = FakeClock::default();
    let notices = Rc::new(RefCell::new(Vec::new()));
    let sink = notices.clone();
    let ports = SessionPorts { http: net.clone(), event_sources: net, clock: Rc::new(clock.clone()) };
    let config = ServerConfig { transport, ..ServerConfig::new(url) };
    let session = Rc::new(Session::new(config, ports, options, Rc::new(move |notice| sink.borrow_mut().push(notice))));
    Setup { clock, session, notices }
}

/// A Streamable HTTP server whose `tools/call` and `resources/read` answers come from `answer`.
fn streamable(options: McpOptions, mut answer: impl FnMut(&Logged) -> Reply + 'static) -> Setup {
    let server = Rc::new(RefCell::new(FakeServer::default()));
    let net = FakeNet::new(move |request: &Logged, _net: &FakeNet| match request.rpc() {
        "tools/call" => answer(request),
        _ => server.borrow_mut().streamable(request),
    });
    setup(TransportChoice::Streamable, URL, options, net)
}

fn small_cap() -> McpOptions {
    McpOptions { max_result_bytes: CAP, ..McpOptions::default() }
}

fn connected<T: 'static>(setup: &Setup, main: impl AsyncFnOnce(Rc<Session<FakeNet>>) -> T + 'static) -> T {
    let (session, runner, notices, clock) =
        (setup.session.clone(), setup.session.clone(), setup.notices.clone(), setup.clock.clone());
    support::simulate(
        &setup.clock,
        move |spawner| {
            spawner
                .spawn_local(async move {
                    let reason = runner.run().await;
                    panic!("the session stopped: {reason}");
                })
                .unwrap()
        },
        async move {
            for _ in 0..10_000 {
                if notices.borrow().contains(&Notice::Connected) {
                    return main(session).await;
                }
                support::pass_time(&clock, 1).await;
            }
            panic!("never connected");
        },
    )
}

fn call(setup: &Setup) -> Result<ToolResult, McpError> {
    connected(setup, async move |session| session.call_tool("rows", json!({}), &CancelToken::new()).await)
}

/// `body` as an SSE answer in chunks of `size` bytes.
fn sse_in_chunks(body: &str, size: usize) -> Reply {
    let event = format!("event: message\ndata: {body}\n\n").into_bytes();
    Reply::sse_chunks(event.chunks(size).map(<[u8]>::to_vec).collect())
}

/// Checks a cut result: the note with both sizes first, then the rows' text as far as it was kept.
fn assert_cut(result: &ToolResult, total_bytes: usize) {
    assert!(!result.is_error, "a cut result is still a result");
    let text = result.text_content();
    let (note, rows) = text.split_once('\n').expect("a note line, then the text");
    let sent = format!("the server sent {:.1} MB", total_bytes as f64 / 1e6);
    assert!(note.starts_with("[result cut: ") && note.contains(&sent), "{note}");
    assert!(note.contains("more than the 65.5 kB this client keeps of one result"), "{note}");
    assert!(rows.starts_with(r#"[{"city":"Genève \"centre\"","id":0,"population":200000}"#), "decoded, not escaped: {}", &rows[..80]);
    // Decoding shrinks the text kept (its escapes), so a little less than the cap reaches the model.
    assert!(rows.len() <= CAP && rows.len() > CAP * 3 / 4, "about the cap is kept: {}", rows.len());
}

#[test]
fn a_tool_result_over_the_cap_streamed_as_sse_reaches_the_model_cut_with_both_sizes_stated() {
    let answer = big_answer(2, 20_000);
    for chunk in [1_000, 64 * 1024, answer.len() + 100] {
        let body = answer.clone();
        let setup = streamable(small_cap(), move |_| sse_in_chunks(&body, chunk));
        assert_cut(&call(&setup).unwrap(), answer.len());
    }
}

#[test]
fn a_tool_result_over_the_cap_sent_as_one_json_body_is_cut_the_same_way() {
    let answer = big_answer(2, 20_000);
    let body = answer.clone();
    let setup = streamable(small_cap(), move |_| Reply::Full {
        status: 200,
        headers: vec![("Content-Type".into(), "application/json".into())],
        chunks: body.as_bytes().chunks(8 * 1024).map(<[u8]>::to_vec).collect(),
    });
    assert_cut(&call(&setup).unwrap(), answer.len());
}

#[test]
fn a_server_that_writes_the_id_after_the_result_still_gets_its_cut_answer() {
    let answer = format!(r#"{{"result":{},"jsonrpc":"2.0","id":2}}"#, text_result(&rows(20_000)));
    let body = answer.clone();
    let setup = streamable(small_cap(), move |_| sse_in_chunks(&body, 16 * 1024));
    assert_cut(&call(&setup).unwrap(), answer.len());
}

#[test]
fn a_result_within_the_cap_is_read_whole_and_unchanged() {
    let answer = big_answer(2, 200);
    assert!(answer.len() < CAP);
    let body = answer.clone();
    let setup = streamable(small_cap(), move |_| sse_in_chunks(&body, 1_000));
    assert_eq!(call(&setup).unwrap().text_content(), rows(200));
}

#[test]
fn a_resource_over_its_cap_is_refused_with_its_size_while_it_streams_in() {
    let contents = json!({"contents": [{"uri": "file:///big.json", "mimeType": "application/json", "text": rows(20_000)}]});
    let total = rpc_result(json!(2), contents.clone()).to_string().len();
    let server = Rc::new(RefCell::new(FakeServer { offers: json!({"resources": {}}), ..FakeServer::default() }));
    let net = FakeNet::new(move |request: &Logged, _net: &FakeNet| match request.rpc() {
        "resources/list" => Reply::result(request.id(), json!({"resources": []})),
        "resources/read" => sse_in_chunks(&rpc_result(request.id(), contents.clone()).to_string(), 32 * 1024),
        _ => server.borrow_mut().streamable(request),
    });
    let options = McpOptions { max_resource_bytes: CAP, ..McpOptions::default() };
    let setup = setup(TransportChoice::Streamable, URL, options, net);
    let error = connected(&setup, async move |session| {
        session.read_resource("file:///big.json", &CancelToken::new()).await.unwrap_err()
    });
    let McpError::ResourceTooLarge { bytes, limit, .. } = &error else { panic!("{error}") };
    assert_eq!((*bytes as usize, *limit), (total, CAP));
    assert!(error.to_string().contains("more than the 65.5 kB this client reads at once"), "{error}");
}

#[test]
fn a_legacy_message_over_the_cap_answers_its_call_cut() {
    let server = Rc::new(RefCell::new(FakeServer::default()));
    let opens = Rc::new(Cell::new(0));
    let answer = Rc::new(RefCell::new(String::new()));
    let sent = answer.clone();
    let net = FakeNet::new(move |request: &Logged, net: &FakeNet| {
        if request.url == LEGACY_URL {
            return Reply::text(404, "Cannot POST /sse");
        }
        if request.rpc() == "tools/call" {
            let id = request.id().as_i64().unwrap();
            *sent.borrow_mut() = big_answer(id, 40_000);
            net.emit("message", &sent.borrow());
        } else if let Some(answer) = server.borrow_mut().answer(request) {
            net.emit("message", &answer.to_string());
        }
        Reply::accepted()
    });
    net.on_open(move |_, net| {
        opens.set(opens.get() + 1);
        net.emit("endpoint", &format!("/message?sessionId={}", opens.get()));
        true
    });
    let options = McpOptions { max_result_bytes: CAP, ..McpOptions::default() };
    let setup = setup(TransportChoice::Sse, LEGACY_URL, options, net);
    let result = call(&setup).unwrap();
    let total = answer.borrow().len();
    assert!(total > 2_000_000, "{total}");
    assert_cut(&result, total);
}

#[test]
fn the_sse_parser_keeps_no_more_than_its_cap_of_an_event_and_counts_the_rest() {
    let big = "x".repeat(3 * 1024 * 1024);
    let stream = format!("id: 7\ndata: {big}\ndata: more\n\ndata: small\n\n");
    let mut parser = SseParser::cutting(32 * 1024 * 1024, 1_000);
    let mut events = Vec::new();
    for chunk in stream.as_bytes().chunks(4_096) {
        events.extend(parser.feed(chunk).unwrap());
    }
    assert_eq!(events.len(), 2, "the cut event and the next one");
    assert!(events[0].data.len() <= 1_000 && events[0].data.starts_with(&"x".repeat(1_000 - "data: ".len())));
    assert_eq!(events[0].data.len() + events[0].dropped, big.len() + "\nmore".len());
    assert_eq!(events[0].id.as_deref(), Some("7"));
    assert_eq!((events[1].data.as_str(), events[1].dropped), ("small", 0), "the next event is whole");
}

#[test]
fn the_text_kept_is_decoded_wherever_the_cut_falls_in_an_escape() {
    let text = "caf\u{e9} \"quoted\" \\ back \u{1f600} end";
    let message = rpc_result(json!(5), text_result(text)).to_string();
    for end in message.find("\"text\":").unwrap() + 8..message.len() {
        if !message.is_char_boundary(end) {
            continue;
        }
        let cut = CutAnswer { kept: message[..end].to_owned(), total_bytes: message.len(), cap: end };
        let readable = cut.readable_text();
        let whole: String = text.chars().take(readable.chars().count()).collect();
        assert!(
            readable == whole || text.starts_with(readable.trim_end_matches('\u{fffd}')),
            "cut at {end}: {readable:?}"
        );
        assert_eq!(cut.answer_id(), Some(RequestId::Number(5)));
    }
}

#[test]
fn only_the_envelopes_id_names_the_request_not_an_id_inside_the_result() {
    let result_first = r#"{"result":{"structuredContent":{"rows":[{"id":41}"#;
    let cut = CutAnswer { kept: result_first.to_owned(), total_bytes: 10_000_000, cap: 50 };
    assert_eq!(cut.answer_id(), None);
    assert_eq!(CutAnswer::trailing_id(r#"...,{"id":41}]}},"jsonrpc":"2.0","id":"call-9"}"#), Some(RequestId::String("call-9".into())));
    assert_eq!(cut.readable_text(), r#"{"structuredContent":{"rows":[{"id":41}"#, "no text: the JSON kept, from the result on");
}

/// A clock that counts its zero-delay sleeps (yields).
#[derive(Default)]
struct CountingClock(Cell<usize>);

impl Clock for CountingClock {
    fn now_ms(&self) -> f64 {
        0.0
    }
    fn unix_ms(&self) -> f64 {
        0.0
    }
    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        assert_eq!(ms, 0);
        self.0.set(self.0.get() + 1);
        Box::pin(async {})
    }
}

#[test]
fn reading_a_large_body_yields_to_the_page_every_mebibyte() {
    let chunks: Vec<Result<Vec<u8>, HttpError>> = (0..20).map(|_| Ok(vec![b'x'; 512 * 1024])).collect();
    let clock = Rc::new(CountingClock::default());
    let body = cut::yielding(futures::stream::iter(chunks).boxed_local(), clock.clone(), cut::YIELD_EVERY_BYTES);
    let read: Vec<_> = futures::executor::block_on(body.collect::<Vec<_>>());
    assert_eq!(read.len(), 20, "every chunk comes through");
    assert_eq!(clock.0.get(), 10, "10 MiB read: a yield after each MiB");
}
