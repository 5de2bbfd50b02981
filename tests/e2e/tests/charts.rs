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
