//! Browser tier for the `vega-lite` widget before its engine is on the page (this test binary never
//! installs it, and the test server has no `charts/`): the widget says it is drawing while the engine
//! is fetched, then says why it could not draw, and the page around it is intact.
#![cfg(target_arch = "wasm32")]

mod support;

use autoui_core::widget_kind::WidgetKind;
use support::{assert_not_pwned, example, mount_widget, next_frame};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn the_widget_says_it_is_drawing_while_the_engine_loads_then_why_it_could_not() {
    let mounted = mount_widget(WidgetKind::VegaLite, example(WidgetKind::VegaLite));
    next_frame().await;
    let figure = mounted.query("figure.au-vega-lite").expect("figure");
    assert_eq!(figure.get_attribute("data-status").as_deref(), Some("drawing"));
    let line = mounted.query("[data-testid=vega-lite-loading]").expect("a loading line while the engine is fetched");
    assert_eq!(line.text_content().as_deref(), Some("Drawing the chart…"));
    assert_eq!(line.get_attribute("role").as_deref(), Some("status"));

    let mut frames = 0;
    while figure.get_attribute("data-status").as_deref() == Some("drawing") && frames < 600 {
        next_frame().await;
        frames += 1;
    }
    assert_eq!(figure.get_attribute("data-status").as_deref(), Some("failed"), "the engine cannot be fetched here");
    assert!(mounted.query("[data-testid=vega-lite-loading]").is_none(), "the loading line goes once it is settled");
    let text = mounted.text();
    assert!(text.contains("Vega-Lite:") && text.contains("vega-lite recipe"), "{text}");
    assert!(mounted.query("svg").is_none(), "nothing half drawn");
    // The three scripts were asked for at once (not each after the previous one ran), to run in order.
    let scripts = web_sys::window().and_then(|w| w.document()).expect("document").query_selector_all("script[src^='charts/']").expect("query");
    let sources: Vec<(String, bool)> = (0..scripts.length())
        .filter_map(|i| scripts.item(i))
        .map(|node| {
            let script: &web_sys::Element = node.unchecked_ref();
            let ordered = js_sys::Reflect::get(script, &"async".into()).ok().and_then(|a| a.as_bool()) == Some(false);
            (script.get_attribute("src").unwrap_or_default(), ordered)
        })
        .collect();
    assert_eq!(
        sources.iter().take(3).cloned().collect::<Vec<_>>(),
        [("charts/vega.min.js", true), ("charts/vega-lite.min.js", true), ("charts/vega-interpreter.js", true)]
            .map(|(src, ordered)| (src.to_owned(), ordered)),
        "all three inserted at once, in order, not async: {sources:?}"
    );
    assert_not_pwned();
}
