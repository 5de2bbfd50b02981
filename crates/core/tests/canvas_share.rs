//! Share links and JSON files: our canvas survives both round trips with layout, style and
//! provenance; links and files from the reference system (webmcp-auto-ui) open here in all their
//! encodings and payload shapes; damaged links are typed errors.
//!
//! The reference links below were made with Python's `gzip` and `base64` modules, not with our
//! encoder, so they pin the wire format rather than our own round trip.

use std::cell::Cell;
use std::sync::Arc;

use autoui_core::canvas::exchange::{self, ImportError, SourceFormat};
use autoui_core::canvas::gzip;
use autoui_core::canvas::history::HistoryLimits;
use autoui_core::canvas::model::{Canvas, Layout};
use autoui_core::canvas::op::Op;
use autoui_core::canvas::share::{self, ShareError};
use autoui_core::canvas::store::CanvasStore;
use autoui_core::canvas::style::Style;
use autoui_core::ids::{BlockId, CallId, ServerId};
use autoui_core::ports::Random;
use autoui_core::tool::{DataSource, Origin};
use autoui_core::widget_kind::WidgetKind;
use base64::Engine;
use serde_json::{Value, json};

/// A flat "canvas skill" (`{version, name, mcp, blocks}`) as the reference composer shares it, gz branch.
const REFERENCE_FLAT_URL: &str = "https://demos.hyperskills.net/flex?lang=fr&hs=gz.H4sIAAAAAAACA1WRQW6DMBBFr4K8LRBDkxaxS5ojZNUoigwZtRYGW2acqkIciF3PUC5Wj5O2AiGkP_8N_1se2BVsL3XHyohlKWdxxDrRAsm-kUol2XNW8N-H7NqCQLgQkfN8nfCnJOMHXpSc-zf11CthbW0IeUc0fblaeZnW-gJr-qTgaECYUm3AhGwc6Urpuun96Dgw_DS3IiiQvItA4fXAlKhAkXOA1syTFegsEHEVyoWVPIu-v15ohBa6UPYh-5N7aWniDBvHOPoPIg_smXLOKCoFi1SUqAK2nyfjcJ56sq3-uNftdDjKVsk6LL5Z7W7_3bIQcwd2ulraOzaelkVaYRbRNXQI1Pm4LtJiE0d5-rjxOycP9WDpDslkwqF2kp3GHziQ0O3YAQAA";

/// The reference viewer's `{meta, content: {blocks}}` with a stale top-level `blocks`, plain base64url branch.
const REFERENCE_META_PLAIN: &str = "eyJtZXRhIjp7InRpdGxlIjoiTcOpdMOpbyBQYXJpcyIsImRlc2NyaXB0aW9uIjoiZCIsInZlcnNpb24iOiIxIiwibWNwIjoiaHR0cHM6Ly9tY3AuZXhhbXBsZS5vcmcvbWNwIiwicHJvdmVuYW5jZSI6eyJtY3BTZXJ2ZXJzIjpbeyJuYW1lIjoibWV0ZW8iLCJ1cmwiOiJodHRwczovL21ldGVvLmV4YW1wbGUub3JnL21jcCJ9LCJodHRwczovL21jcC5leGFtcGxlLm9yZy9tY3AiXSwidG9vbHNVc2VkIjpbIngiXX19LCJjb250ZW50Ijp7ImJsb2NrcyI6W3sidHlwZSI6Imt2IiwiZGF0YSI6eyJ0aXRsZSI6Ik5vdyIsInJvd3MiOltbIndpbmQiLCIxMiBrbS9oIl1dfX0seyJ0eXBlIjoiYWxlcnQiLCJkYXRhIjp7InRpdGxlIjoiU3Rvcm0iLCJsZXZlbCI6Indhcm4ifX1dfSwiYmxvY2tzIjpbeyJ0eXBlIjoidGV4dCIsImRhdGEiOnsiY29udGVudCI6InN0YWxlIn19XX0";

/// The same document, gzipped, in the standard base64 alphabet with padding.
const REFERENCE_META_STD_PADDED_GZ: &str = "gz.H4sIAAAAAAACA32QQWrDMBBFrxJmbWLSpe/QUghdBS9Ue0iEJY0YTW0X4wPlHLlYZhoIKSnd6X+N3v+jBSKKg2YB8RIQGni9nOVyps27Y1+ggh5Lxz6Lp6S3vTojcrmpnarYZT2dRHJp6lrVFmcXc8At8dG0zmSmEZNLHVqSentko0BzWCC5aLnaA0lnvzg88sx9Iq7Vv4FtBUIUykfBXiNghnbVJx0lwSRW4TNQN9zi5Ttb/DDaru73X7zRpC7TZKMHmHyy/XcvmyHWJ2iNege4gCx/MPZCHNUPOKJtNjlOsK6tFnpuITg/Mu6NoYjyf55dAfT//UCyAQAA";

/// A markdown recipe, as the reference recipe browser's "hs" button shares it.
const REFERENCE_RECIPE_GZ: &str = "gz.H4sIAAAAAAACAyXLQQqFMAxF0XlW8eCP4wKcfVyEQ41ttAVtJQ24fQuO77nMTEUuHfGoeFLjKC1tVSxS1BYs355rGfGHaci3Evfjh_nTRJOcJ9ZDfdlrF9J8RS8FLdUHgpDEfKAXm6Yz_WgAAAA";

struct Counter(Cell<u64>);

impl Random for Counter {
    fn next_u64(&self) -> u64 {
        self.0.set(self.0.get() + 1);
        self.0.get() * 104_729
    }
}

fn random() -> Counter {
    Counter(Cell::new(0))
}

fn id(name: &str) -> BlockId {
    BlockId::new(name)
}

/// A dashboard worth sharing: a moved, restyled KPI by the user and a table the agent made from MCP data.
fn dashboard(rows: usize) -> Canvas {
    let mut store = CanvasStore::new(Canvas::new(), HistoryLimits::default());
    let agent = Origin::Agent {
        call_id: CallId::new("toolu_7"),
        source: Some(DataSource {
            server: ServerId::sanitize("Tricoteuses"),
            tool: "list_deputes".to_owned(),
        }),
    };
    let rows: Vec<Value> = (0..rows)
        .map(|row| json!({ "nom": format!("Député {row}"), "groupe": "LFI" }))
        .collect();
    let table = Arc::new(json!({ "title": "Députés", "rows": rows }));
    store
        .apply(
            Op::Add {
                id: id("w_tab"),
                kind: WidgetKind::DataTable,
                data: table,
                layout: None,
                style: Style::default(),
            },
            &agent,
            1.0,
        )
        .unwrap();
    let kpi = Arc::new(json!({ "label": "Sièges", "value": 577 }));
    store
        .apply(
            Op::Add {
                id: id("w_kpi"),
                kind: WidgetKind::StatCard,
                data: kpi,
                layout: None,
                style: Style::default(),
            },
            &Origin::User,
            2.0,
        )
        .unwrap();
    store
        .apply(
            Op::Move {
                id: id("w_kpi"),
                x: 9,
                y: 6,
            },
            &Origin::User,
            3.0,
        )
        .unwrap();
    let style = Style([("border-color".to_owned(), "#0d9488".to_owned())].into());
    store
        .apply(
            Op::Style {
                id: id("w_kpi"),
                style,
            },
            &Origin::User,
            4.0,
        )
        .unwrap();
    store.canvas().clone()
}

fn kinds(canvas: &Canvas) -> Vec<WidgetKind> {
    canvas.blocks().iter().map(|block| block.kind).collect()
}

#[test]
fn a_share_link_round_trip_keeps_ids_layout_style_provenance_and_title() {
    let canvas = dashboard(200);
    let param = share::encode_param(&canvas, Some("Assemblée"), &[]);
    let url = share::link("https://autoui.example/app/", &param);
    let opened = share::open(&url, &random(), 99.0).unwrap();
    assert_eq!(opened.canvas, canvas);
    assert_eq!(opened.title.as_deref(), Some("Assemblée"));
    assert_eq!(opened.source, SourceFormat::Autoui);
    assert!(opened.set_aside.is_empty());
}

#[test]
fn large_dashboards_are_gzipped_and_small_ones_are_not() {
    let large = share::encode_param(&dashboard(200), None, &[]);
    assert!(large.starts_with("gz."), "{}", &large[..20]);
    assert!(
        large.len() < 3000,
        "200 similar rows compress well ({} characters)",
        large.len()
    );
    assert!(
        large[3..]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
        "base64url, no padding"
    );
    let small = share::encode_param(&Canvas::new(), None, &[]);
    assert!(!small.contains('.'), "{small}");
    assert!(
        share::open(&small, &random(), 1.0)
            .unwrap()
            .canvas
            .is_empty()
    );
}

#[test]
fn a_link_carries_the_dashboard_in_its_fragment_keeps_other_parameters_and_drops_an_old_hs() {
    // The fragment never reaches the app's host: no dashboard data in its logs, no 414 for long ones.
    assert_eq!(
        share::link("https://a.example/?lang=fr&hs=old#top", "gz.NEW"),
        "https://a.example/?lang=fr#hs=gz.NEW"
    );
    assert_eq!(
        share::link("https://a.example/page", "abc"),
        "https://a.example/page#hs=abc"
    );
}

#[test]
fn fragment_links_and_older_query_links_both_open() {
    let canvas = share::open(REFERENCE_FLAT_URL, &random(), 1.0).unwrap().canvas;
    let param = share::encode_param(&canvas, None, &[]);
    let fragment = share::link("https://viewer.example/", &param);
    assert_eq!(kinds(&share::open(&fragment, &random(), 2.0).unwrap().canvas), kinds(&canvas));
    let query = format!("https://viewer.example/?hs={param}#/");
    assert_eq!(kinds(&share::open(&query, &random(), 3.0).unwrap().canvas), kinds(&canvas));
    assert_eq!(share::fragment_param("#hs=abc%3D").as_deref(), Some("abc="));
    assert_eq!(share::fragment_param("#/gallery"), None);
    assert_eq!(share::open("https://a.example/#hs=", &random(), 1.0).err(), Some(share::ShareError::Empty));
}

#[test]
fn a_flat_skill_shared_from_the_reference_composer_opens_here() {
    let opened = share::open(REFERENCE_FLAT_URL, &random(), 5.0).unwrap();
    assert_eq!(opened.source, SourceFormat::ReferenceFlat);
    assert_eq!(
        kinds(&opened.canvas),
        [WidgetKind::Stat, WidgetKind::DataTable],
        "the legacy render_data_table name resolves"
    );
    assert_eq!(opened.canvas.blocks()[0].data["value"], "21 °C");
    assert_eq!(opened.mcp_servers, ["https://mcp.code4code.eu/mcp"]);
    assert_eq!(opened.title.as_deref(), Some("skill-1718000000000"));
    assert_eq!(
        opened.set_aside.len(),
        1,
        "the map widget, which has no equivalent here, is kept aside"
    );
    assert_eq!(opened.set_aside[0].raw["type"], "map");
    let first = &opened.canvas.blocks()[0];
    assert_eq!(
        first.layout,
        Layout {
            x: 0,
            y: 0,
            w: 3,
            h: 2,
            z: 1
        },
        "blocks without layout are placed in the grid"
    );
    assert_eq!(first.provenance, Origin::User);
    assert!(first.id.as_str().starts_with("w_"));
}

#[test]
fn a_meta_content_skill_from_the_reference_viewer_opens_from_content_blocks() {
    let opened = share::open(REFERENCE_META_PLAIN, &random(), 5.0).unwrap();
    assert_eq!(opened.source, SourceFormat::ReferenceMetaContent);
    assert_eq!(
        kinds(&opened.canvas),
        [WidgetKind::Kv, WidgetKind::Alert],
        "content.blocks wins over a stale top-level blocks"
    );
    assert_eq!(opened.title.as_deref(), Some("Météo Paris"));
    assert_eq!(
        opened.mcp_servers,
        [
            "https://mcp.example.org/mcp",
            "https://meteo.example.org/mcp"
        ]
    );
}

#[test]
fn standard_base64_with_padding_and_pluses_mangled_into_spaces_still_opens() {
    assert!(
        REFERENCE_META_STD_PADDED_GZ.contains('+') && REFERENCE_META_STD_PADDED_GZ.contains('/')
    );
    let expected = kinds(
        &share::open(REFERENCE_META_PLAIN, &random(), 5.0)
            .unwrap()
            .canvas,
    );
    let bare = share::open(REFERENCE_META_STD_PADDED_GZ, &random(), 5.0).unwrap();
    assert_eq!(kinds(&bare.canvas), expected);
    let unencoded_in_url = format!("https://viewer.example/?hs={REFERENCE_META_STD_PADDED_GZ}");
    assert_eq!(
        kinds(
            &share::open(&unencoded_in_url, &random(), 5.0)
                .unwrap()
                .canvas
        ),
        expected
    );
    let spaces = REFERENCE_META_STD_PADDED_GZ.replace('+', " ");
    assert_eq!(
        kinds(&share::open(&spaces, &random(), 5.0).unwrap().canvas),
        expected
    );
    let percent = REFERENCE_META_STD_PADDED_GZ
        .replace('+', "%2B")
        .replace('/', "%2F")
        .replace('=', "%3D");
    assert_eq!(
        kinds(
            &share::open(&format!("?hs={percent}"), &random(), 5.0)
                .unwrap()
                .canvas
        ),
        expected
    );
}

#[test]
fn a_shared_markdown_recipe_opens_as_one_text_widget() {
    let opened = share::open(REFERENCE_RECIPE_GZ, &random(), 5.0).unwrap();
    assert_eq!(opened.source, SourceFormat::Markdown);
    assert_eq!(opened.title.as_deref(), Some("weather-dashboard"));
    assert_eq!(kinds(&opened.canvas), [WidgetKind::Text]);
    assert_eq!(
        opened.canvas.blocks()[0].data["content"],
        "# Weather\n\nCall `get_forecast` then show a chart."
    );
}

#[test]
fn damaged_and_unsupported_links_are_typed_errors() {
    assert_eq!(
        share::open("https://a.example/?lang=fr", &random(), 1.0),
        Err(ShareError::NoParam)
    );
    assert_eq!(
        share::open("https://a.example/?hs=", &random(), 1.0),
        Err(ShareError::Empty)
    );
    assert_eq!(
        share::open("br.GxoAAI", &random(), 1.0),
        Err(ShareError::UnsupportedCompression("br".to_owned()))
    );
    assert!(matches!(
        share::open("gz.%%%%", &random(), 1.0),
        Err(ShareError::NotBase64(_))
    ));
    assert!(matches!(
        share::open("gz.aGVsbG8gd29ybGQ", &random(), 1.0),
        Err(ShareError::NotGzip(_))
    ));
    let cut = &REFERENCE_FLAT_URL[..REFERENCE_FLAT_URL.len() - 40];
    assert!(
        share::open(cut, &random(), 1.0).is_err(),
        "a link cut short in a chat message"
    );
    let error = share::open("eyJmb28iOiAxfQ", &random(), 1.0).unwrap_err();
    assert_eq!(error, ShareError::Import(ImportError::NotADashboard));
    assert_eq!(
        error.to_string(),
        "the document holds no dashboard: expected {\"content\": {\"blocks\": [...]}} or {\"blocks\": [...]}"
    );
}

#[test]
fn a_gzip_bomb_stops_at_the_payload_limit() {
    let packed = gzip::compress(&vec![b' '; share::MAX_PAYLOAD_BYTES + 1]);
    let param = format!(
        "gz.{}",
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed)
    );
    assert!(param.len() < 100_000, "a {} character link", param.len());
    assert_eq!(
        share::open(&param, &random(), 1.0),
        Err(ShareError::PayloadTooLarge {
            limit: share::MAX_PAYLOAD_BYTES
        })
    );
}

#[test]
fn a_json_file_round_trip_keeps_everything() {
    let canvas = dashboard(20);
    let file = exchange::export_file(&canvas, Some("Assemblée"), &[]);
    assert!(
        file.contains("\n  \"content\""),
        "the file is pretty-printed for people"
    );
    let imported = exchange::import(&file, &random(), 9.0).unwrap();
    assert_eq!(imported.canvas, canvas);
    assert_eq!(imported.title.as_deref(), Some("Assemblée"));
}

#[test]
fn a_files_or_links_title_becomes_a_one_line_name_of_at_most_eighty_characters() {
    let canvas = dashboard(2);
    let hostile = format!("Sales\n\u{202e}  Q3\t{}", "x".repeat(500));
    let imported = exchange::import(&exchange::export_file(&canvas, Some(&hostile), &[]), &random(), 9.0).unwrap();
    let name = imported.title.expect("a name is left");
    assert!(name.starts_with("Sales Q3 xxx"), "one line, overrides and runs of spaces gone: {name:?}");
    assert_eq!(name.chars().count(), 80, "{name:?}");
    assert!(name.ends_with('\u{2026}'), "cut, and says so: {name:?}");

    let blank = exchange::import(&exchange::export_file(&canvas, Some(" \n\u{202e} "), &[]), &random(), 9.0).unwrap();
    assert_eq!(blank.title, None, "nothing readable: no name");
    let opened = share::open(&share::encode_param(&canvas, Some("Sales"), &[]), &random(), 9.0).unwrap();
    assert_eq!(opened.title.as_deref(), Some("Sales"));
}

#[test]
fn our_file_is_readable_by_the_reference_viewer_shape() {
    let file: Value = serde_json::from_str(&exchange::export_file(&dashboard(2), None, &[])).unwrap();
    let first = &file["content"]["blocks"][0];
    assert_eq!(first["type"], "data-table");
    assert_eq!(first["data"]["title"], "Députés");
    assert_eq!(file["meta"]["format"], "autoui-canvas");
}

#[test]
fn a_file_from_a_newer_autoui_or_that_is_not_a_dashboard_is_refused_with_the_reason() {
    let newer = json!({ "meta": { "format": "autoui-canvas", "format_version": 4 }, "content": { "blocks": [] } });
    let error = exchange::import(&newer.to_string(), &random(), 1.0).unwrap_err();
    assert_eq!(
        error,
        ImportError::NewerFormat {
            found: 4,
            supported: 1
        }
    );
    assert!(matches!(
        exchange::import("{\"blocks\": [", &random(), 1.0),
        Err(ImportError::NotJson(_))
    ));
    assert_eq!(
        exchange::import("  \n", &random(), 1.0),
        Err(ImportError::Empty)
    );
    assert_eq!(
        exchange::import("[1]", &random(), 1.0),
        Err(ImportError::NotADashboard)
    );
}

#[test]
fn a_file_with_a_repeated_id_imports_every_block() {
    let mut file: Value =
        serde_json::from_str(&exchange::export_file(&dashboard(2), None, &[])).unwrap();
    file["content"]["blocks"][1]["id"] = json!("w_tab");
    let imported = exchange::import(&file.to_string(), &random(), 1.0).unwrap();
    assert_eq!(imported.canvas.len(), 2);
    let ids = imported.canvas.ids();
    assert_ne!(ids[0], ids[1]);
    let mut store = CanvasStore::new(Canvas::new(), HistoryLimits::default());
    store
        .apply(
            Op::Replace {
                blocks: imported.canvas.blocks().to_vec(),
            },
            &Origin::User,
            1.0,
        )
        .unwrap();
}

#[test]
fn a_link_cannot_smuggle_unsafe_styles_onto_a_widget() {
    let mut file: Value =
        serde_json::from_str(&exchange::export_file(&dashboard(2), None, &[])).unwrap();
    file["content"]["blocks"][1]["style"] = json!({
        "border-color": "#0d9488",
        "background": "url(https://tracker.example/pixel.gif)",
        "position": "fixed",
    });
    let param = share::link(
        "https://autoui.example/",
        &base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(file.to_string()),
    );
    let opened = share::open(&param, &random(), 1.0).unwrap();
    let style = &opened.canvas.get(&id("w_kpi")).unwrap().style;
    assert_eq!(
        style.0.keys().collect::<Vec<_>>(),
        ["border-color"],
        "only the safe declaration stays"
    );
    assert_eq!(opened.set_aside.len(), 1);
    assert_eq!(opened.set_aside[0].what, "block 2, style");
    assert!(
        opened.set_aside[0].reason.contains("url("),
        "{}",
        opened.set_aside[0].reason
    );
    assert!(
        opened.set_aside[0]
            .reason
            .contains("\"position\" is not an allowed style property")
    );
}
