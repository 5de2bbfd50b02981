//! The vega-lite widget end to end (release build, real Chromium, the page's CSP without
//! `unsafe-eval`): a spec the engine refuses comes back to a scripted model, which fixes it in one
//! retry; the chart draws with the engine the app serves itself (no CDN); a spec naming a data URL is
//! refused without any request; the console stays free of errors (a CSP violation would be one).

use std::time::Instant;

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm, tool_results};
use autoui_e2e::with_app;
use serde_json::{Value, json};

/// Orders per day as a bar chart, its bar heights computed by `expression`.
fn orders(expression: &str) -> Value {
    json!({"title": "Orders per day (thousands)",
        "data": {"values": [{"day": "Mon", "orders": 1200}, {"day": "Tue", "orders": 1480}, {"day": "Wed", "orders": 1310},
                            {"day": "Thu", "orders": 1650}, {"day": "Fri", "orders": 1920}]},
        "transform": [{"calculate": expression, "as": "thousands"}],
        "mark": {"type": "bar", "tooltip": true},
        "encoding": {"x": {"field": "day", "type": "ordinal", "sort": null}, "y": {"field": "thousands", "type": "quantitative"}}})
}

#[tokio::test]
async fn an_invalid_vega_lite_spec_is_fixed_in_one_retry_and_draws_under_the_csp_with_nothing_fetched_from_elsewhere() {
    let llm = ScriptedLlm::start(|request: &Value, index| match index {
        0 => Reply::tool("autoui_webmcp_widget_display", json!({"name": "vega-lite", "params": orders("datum.orders / 1000 +")})),
        1 => {
            let last = tool_results(request).pop().unwrap_or_default();
            if last.contains("Validation failed") && last.contains("Vega-Lite:") {
                Reply::tool("autoui_webmcp_widget_display", json!({"name": "vega-lite", "params": orders("datum.orders / 1000")}))
            } else {
                Reply::text(&format!("unexpected tool result: {last}"))
            }
        }
        2 => Reply::tool(
            "autoui_webmcp_widget_display",
            json!({"name": "vega-lite", "params": {"data": {"url": "https://evil.example.net/orders.csv"}, "mark": "bar"}}),
        ),
        _ => Reply::text("Here is the chart."),
    })
    .await;
    let base = llm.base_url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        let asked = Instant::now();
        page.say("Chart the orders per day").await;
        page.wait_for_count("[data-widget-type=vega-lite] figure.au-vega-lite[data-status=drawn]", 1).await;
        eprintln!("vega-lite: from the question to the drawn chart (two model turns, engine fetched and compiled): {} ms", asked.elapsed().as_millis());
        page.wait_for_count("[data-widget-type=vega-lite] svg g.mark-rect.role-mark > path", 5).await;
        page.wait_for_runs(1).await;
        assert_eq!(page.count("[data-widget-type=vega-lite]").await, 1, "the refused specs added nothing");

        let fetched = page.eval("return performance.getEntriesByType('resource').map(e => e.name);", vec![]).await;
        let fetched: Vec<String> = serde_json::from_value(fetched).unwrap_or_default();
        let origin = page.eval("return location.origin;", vec![]).await;
        let origin = origin.as_str().unwrap_or_default().to_owned();
        assert!(fetched.iter().any(|url| url == &format!("{origin}/charts/vega-interpreter.js")), "the engine comes from the app: {fetched:#?}");
        let elsewhere: Vec<&String> = fetched.iter().filter(|url| !url.starts_with(&origin) && !url.starts_with(&base)).collect();
        assert!(elsewhere.is_empty(), "fetched from elsewhere: {elsewhere:#?}");

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
    let requests = llm.requests();
    let compiled = tool_results(&requests[1]).pop().unwrap_or_default();
    assert!(compiled.contains("get_recipe") && compiled.contains("expected_schema"), "{compiled}");
    let refused = tool_results(&requests[3]).pop().unwrap_or_default();
    assert!(refused.contains("/data/url") && refused.contains("refused"), "{refused}");
    llm.stop().await;
}

/// A chart drawn on a canvas has its theme's colours in its pixels, so in the dark theme it would print
/// light grey labels on white paper. Printing (the toolbar's Print, or the browser's own) draws it
/// again in the light theme's colours, and once more in the dark theme's once the print is done.
#[tokio::test]
async fn a_chart_drawn_on_a_canvas_prints_in_the_light_themes_colours_from_the_dark_theme() {
    with_app(BrowserOptions::default(), |page| async move {
        // What the canvases draw text with while the page prints, noted by listeners called before the app's.
        let noting = "window.printing = false; window.printInk = [];
            addEventListener('beforeprint', () => { window.printing = true; });
            addEventListener('afterprint', () => { window.printing = false; });
            const fillText = CanvasRenderingContext2D.prototype.fillText;
            CanvasRenderingContext2D.prototype.fillText = function (...args) {
              if (window.printing) window.printInk.push(String(this.fillStyle));
              return fillText.apply(this, args);
            };";
        autoui_e2e::cdp::cdp(page.client(), "Page.addScriptToEvaluateOnNewDocument", json!({ "source": noting })).await.expect("a script run first");
        page.open("/#/").await;
        page.click("[data-testid=theme-toggle]").await;
        page.wait_until("the app is dark", "return document.documentElement.dataset.theme === 'dark';").await;
        let points: Vec<Value> = (0..800).map(|i| json!({"day": i, "orders": (i * 37) % 101})).collect();
        page.call_tool("widget_display", json!({"name": "vega-lite", "params": {"title": "Orders per day", "data": {"values": points},
            "mark": "point", "encoding": {"x": {"field": "day", "type": "quantitative"}, "y": {"field": "orders", "type": "quantitative"}}}})).await;
        page.wait_for_count("[data-widget-type=vega-lite] figure.au-vega-lite[data-status=drawn] canvas", 1).await;
        page.eval(
            "window.inkLightness = () => {
               const canvas = document.querySelector('[data-widget-type=vega-lite] .au-vega-lite__chart canvas');
               if (!canvas) return null;
               const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
               let sum = 0, count = 0;
               for (let i = 0; i < data.length; i += 4) {
                 const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
                 if (a > 200 && Math.max(r, g, b) - Math.min(r, g, b) < 60) { sum += (r + g + b) / 3; count += 1; }
               }
               return count > 50 ? sum / count : null;
             };
             window.inkWhenPrinted = [];
             window.print = () => window.inkWhenPrinted.push(window.inkLightness());",
            vec![],
        )
        .await;
        let on_screen = page.eval("return window.inkLightness();", vec![]).await.as_f64().expect("grey ink on the chart");
        assert!(on_screen > 140.0, "on screen, the dark theme's light labels: {on_screen}");

        // The toolbar's Print: the dialog opens once the chart is drawn for paper.
        page.click("[data-testid=print]").await;
        page.wait_until("the print dialog opened", "return window.inkWhenPrinted.length === 1;").await;
        let printed = page.eval("return window.inkWhenPrinted[0];", vec![]).await.as_f64().expect("grey ink when printed");
        assert!(printed < 120.0, "the chart printed with dark labels, as on light paper: {printed}");
        page.wait_until("the chart is dark again", "return window.inkLightness() > 140;").await;

        // The browser's own print (Ctrl+P, its menu; here WebDriver's, which is Chromium's): the chart is
        // drawn for paper after `beforeprint` and before `afterprint`, between which the print's layout
        // comes with no task in the middle, so only drawing in the event's microtasks reaches the paper.
        page.eval("window.printInk = [];", vec![]).await;
        page.client().print(fantoccini::wd::PrintConfiguration::default()).await.expect("a PDF of the page");
        let ink: Vec<String> = serde_json::from_value(page.eval("return window.printInk;", vec![]).await).expect("labels");
        // --au-text (the title) and --au-text-2 (the axis labels), light.
        assert!(ink.contains(&"#1a1a2e".to_owned()) && ink.iter().all(|style| ["#1a1a2e", "#5c5c80"].contains(&style.as_str())),
            "while printing the labels were drawn in the light theme's colours only: {ink:?}");
        page.wait_until("the chart is dark again", "return window.inkLightness() > 140;").await;
        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}
