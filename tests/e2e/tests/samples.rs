//! "Build me a sales dashboard" on the built-in `samples` server, with no MCP server configured: the
//! scripted model searches the samples recipes, reads the one it finds, calls the tool that recipe
//! names, and shows KPI cards, two charts and a table built from the data it got back. The screen is
//! checked against that data.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm, calls_to, tool_names};
use autoui_e2e::numbers::grouped;
use autoui_e2e::with_app;
use serde_json::{Value, json};

const DISPLAY: &str = "autoui_webmcp_widget_display";

/// The tool the recipe read in `request` says to call (`{"tool": "samples_webmcp_…"}` in its body).
fn tool_named_by_recipe(request: &Value) -> Option<String> {
    let recipe = calls_to(request, "samples_webmcp_get_recipe").pop()?.json();
    let body = recipe["recipe"].as_str()?;
    let start = body.find("\"tool\": \"")? + "\"tool\": \"".len();
    let end = body[start..].find('"')? + start;
    Some(body[start..end].to_owned())
}

/// The sales data as the model read it.
fn sales(request: &Value) -> Value {
    match tool_named_by_recipe(request) {
        Some(tool) => calls_to(request, &tool)
            .pop()
            .map(|call| call.json())
            .unwrap_or_default(),
        None => Value::Null,
    }
}

fn figure(value: &Value) -> String {
    value
        .as_i64()
        .map(grouped)
        .unwrap_or_else(|| value.to_string())
}

fn dashboard(data: &Value) -> Reply {
    let totals = &data["totals"];
    if totals.is_null() {
        return Reply::text("the sales tool returned nothing I can read");
    }
    let lines = data["by_product_line"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    Reply::tools(vec![
        (
            DISPLAY,
            json!({"name": "stat-card", "params": {"label": "Revenue", "value": figure(&totals["revenue"]), "unit": "€"}}),
        ),
        (
            DISPLAY,
            json!({"name": "stat-card", "params": {"label": "Gross margin", "value": figure(&totals["margin"]), "unit": "€",
                "delta": format!("{}% of revenue", totals["margin_pct"])}}),
        ),
        (
            DISPLAY,
            json!({"name": "stat-card", "params": {"label": "Units sold", "value": figure(&totals["units"])}}),
        ),
        (
            DISPLAY,
            json!({"name": "chart-rich", "params": {"title": "Monthly revenue by region", "type": "line",
                "labels": data["months"], "data": data["series_by_region"]}}),
        ),
        (
            DISPLAY,
            json!({"name": "chart-rich", "params": {"title": "Revenue by product line", "type": "donut",
                "labels": lines.iter().map(|line| line["product_line"].clone()).collect::<Vec<_>>(),
                "data": [{"label": "Revenue", "values": lines.iter().map(|line| line["revenue"].clone()).collect::<Vec<_>>()}]}}),
        ),
        (
            DISPLAY,
            json!({"name": "data-table", "params": {"title": "Sales by region", "columns": [
                {"key": "region", "label": "Region"}, {"key": "revenue", "label": "Revenue (€)", "type": "number"},
                {"key": "units", "label": "Units", "type": "number"}, {"key": "margin_pct", "label": "Margin %", "type": "number"}],
                "rows": data["by_region"]}}),
        ),
    ])
}

fn script(request: &Value, index: usize) -> Reply {
    match index {
        0 => Reply::tool("samples_webmcp_list_recipes", json!({})),
        1 => {
            let listed = calls_to(request, "samples_webmcp_list_recipes")
                .pop()
                .map(|call| call.json())
                .unwrap_or_default();
            let sales = listed["recipes"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|recipe| recipe["name"].as_str())
                .find(|name| name.contains("sales"));
            match sales {
                Some(name) => Reply::tool("samples_webmcp_get_recipe", json!({"name": name})),
                None => Reply::text("no samples recipe for sales"),
            }
        }
        2 => match tool_named_by_recipe(request) {
            Some(tool) => Reply::tool(&tool, json!({})),
            None => Reply::text("the recipe names no tool"),
        },
        3 => dashboard(&sales(request)),
        _ => Reply::text("Here is your sales dashboard."),
    }
}

#[tokio::test]
async fn a_sales_dashboard_is_built_from_the_built_in_samples_without_any_mcp_server() {
    let llm = ScriptedLlm::start(script).await;
    let base = llm.base_url();
    let llm_ref = &llm;
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        page.say("build me a sales dashboard").await;
        page.wait_for_runs(1).await;
        page.wait_for_text(
            "[data-testid=chat-assistant]",
            "Here is your sales dashboard.",
        )
        .await;

        let requests = llm_ref.requests();
        assert_eq!(
            tool_named_by_recipe(&requests[3]).as_deref(),
            Some("samples_webmcp_monthly_sales")
        );
        let data = sales(&requests[3]);
        let totals = &data["totals"];
        assert!(
            totals["revenue"]
                .as_i64()
                .is_some_and(|revenue| revenue > 0),
            "the model read the totals: {data}"
        );

        page.wait_for_count("[data-testid=widget]", 6).await;
        let cards = page.texts("[data-widget-type=stat-card]").await.join("\n");
        for key in ["revenue", "margin", "units"] {
            let value = figure(&totals[key]);
            assert!(
                cards.contains(&value),
                "a card shows the total {key} {value}: {cards}"
            );
        }

        // Who placed a widget shows whole even in a stat-card's narrow frame ("agent", not "ag…");
        // its tooltip and a wide frame's badge name the server's tool too.
        let card_badge = "[data-widget-type=stat-card] [data-testid=provenance]";
        assert_eq!(page.text(card_badge).await, "agent");
        let shown = page
            .eval(
                "const badge = document.querySelector(arguments[0]); return [badge.scrollWidth <= badge.clientWidth, badge.title];",
                vec![json!(card_badge)],
            )
            .await;
        assert_eq!(shown, json!([true, "Made by agent \u{b7} samples/monthly_sales"]));
        let table_badge = page.text("[data-widget-type=data-table] [data-testid=provenance]").await;
        assert_eq!(
            table_badge.split_whitespace().collect::<Vec<_>>().join(" "),
            "agent \u{b7} samples/monthly_sales"
        );

        let table = page.text("[data-widget-type=data-table]").await;
        let regions = data["by_region"].as_array().cloned().unwrap_or_default();
        assert_eq!(regions.len(), 4, "four regions in the samples data");
        let mut sum = 0;
        for region in &regions {
            let name = region["region"].as_str().unwrap_or_default();
            let revenue = region["revenue"].as_i64().unwrap_or_default();
            sum += revenue;
            assert!(
                table.contains(name) && table.contains(&grouped(revenue)),
                "the table shows {name} at {revenue}: {table}"
            );
        }
        assert_eq!(
            Some(sum),
            totals["revenue"].as_i64(),
            "the regions add up to the revenue card"
        );

        let charts = page
            .texts("[data-widget-type=chart-rich] .au-frame__title")
            .await;
        assert_eq!(
            charts,
            ["Monthly revenue by region", "Revenue by product line"]
        );
        // In a half-width frame the title shows whole, not cut by an ellipsis: the badge's
        // "· server/tool" gives way first. (A fraction of a pixel short already cuts a letter or two,
        // and scrollWidth rounds it away, so the title's box is compared with its text's width.)
        let headers = page
            .eval(
                "return [...document.querySelectorAll('[data-widget-type=chart-rich] .au-frame__header')].map(header => {
                    const title = header.querySelector('.au-frame__title');
                    const text = document.createRange();
                    text.selectNodeContents(title);
                    const who = header.querySelector('.au-frame__who');
                    return [title.getBoundingClientRect().width + 0.01 >= text.getBoundingClientRect().width,
                        who.textContent, who.scrollWidth <= who.clientWidth];
                });",
                vec![],
            )
            .await;
        assert_eq!(headers, json!([[true, "agent", true], [true, "agent", true]]));
        let line = page
            .find("[data-widget-type=chart-rich]")
            .await
            .html(false)
            .await
            .unwrap_or_default();
        for region in &regions {
            let name = region["region"].as_str().unwrap_or_default();
            assert!(
                line.contains(name),
                "the line chart has a series for {name}"
            );
        }

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;

    let requests = llm.requests();
    assert_eq!(requests.len(), 5);
    assert!(
        !tool_names(&requests[0])
            .iter()
            .any(|name| name == "samples_webmcp_monthly_sales"),
        "samples' data tools wait for activation"
    );
    assert!(
        tool_names(&requests[3])
            .iter()
            .any(|name| name == "samples_webmcp_monthly_sales")
    );
    llm.stop().await;
}
