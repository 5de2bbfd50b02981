//! Scenario 1: a dashboard from a real MCP server. The person adds server-everything (npm) through
//! the servers panel; the scripted model finds and reads a recipe, finds the server's weather tool by
//! searching its tools, calls it for every city its schema offers, shows four kinds of widget built
//! from the values the server returned, then changes one through `canvas`. The screen, the console
//! and the recorded LLM requests (lazy activation, compression) are checked against what the
//! server really answered.

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Exchange, Reply, ScriptedLlm, calls_to, exchanges, tool_names};
use autoui_e2e::mcp_server::{McpServer, Transport};
use autoui_e2e::with_app;
use serde_json::{Value, json};

const SEARCH_TOOLS: &str = "everything_mcp_search_tools";
const DISPLAY: &str = "autoui_webmcp_widget_display";

/// The weather tool as `search_tools` described it: its exposed name and the cities its schema allows.
fn weather_tool(request: &Value) -> (String, Vec<String>) {
    let found = calls_to(request, SEARCH_TOOLS)
        .pop()
        .map(|call| call.json())
        .unwrap_or_default();
    let tool = found
        .as_array()
        .into_iter()
        .flatten()
        .find(|tool| {
            tool["name"]
                .as_str()
                .is_some_and(|name| name.contains("structured"))
        })
        .cloned()
        .unwrap_or_default();
    let cities = tool["inputSchema"]["properties"]["location"]["enum"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|city| city.as_str().map(str::to_owned))
        .collect();
    (tool["name"].as_str().unwrap_or_default().to_owned(), cities)
}

/// One city's weather as the server answered it.
#[derive(Clone, Debug)]
struct Weather {
    city: String,
    temperature: f64,
    conditions: String,
    humidity: f64,
}

/// Every successful weather call in `request`, read from its result. Calls are told apart by their
/// arguments: the `search_tools` answer that named the tool is compressed away after two iterations.
fn readings(request: &Value) -> Vec<Weather> {
    exchanges(request)
        .into_iter()
        .filter(|call| {
            call.name.starts_with("everything_mcp_")
                && call.input.get("location").is_some()
                && !call.is_error
        })
        .filter_map(|call: Exchange| {
            let result = call.json();
            Some(Weather {
                city: call.input["location"].as_str()?.to_owned(),
                temperature: result["temperature"].as_f64()?,
                conditions: result["conditions"].as_str()?.to_owned(),
                humidity: result["humidity"].as_f64()?,
            })
        })
        .collect()
}

/// A reading as JSON: whole numbers stay integers, as the server wrote them.
fn number(value: f64) -> Value {
    if value.fract() == 0.0 {
        json!(value as i64)
    } else {
        json!(value)
    }
}

fn warmest(readings: &[Weather]) -> Option<&Weather> {
    readings
        .iter()
        .max_by(|a, b| a.temperature.total_cmp(&b.temperature))
}

/// The four widgets the model builds from the readings.
fn widgets(readings: &[Weather]) -> Reply {
    let Some(top) = warmest(readings) else {
        return Reply::text("the weather tool returned nothing I can read");
    };
    let rows: Vec<Value> = readings
        .iter()
        .map(|w| json!({"city": w.city, "temperature": number(w.temperature), "conditions": w.conditions, "humidity": number(w.humidity)}))
        .collect();
    Reply::tools(vec![
        (
            DISPLAY,
            json!({"name": "data-table", "params": {"title": "Weather by city", "columns": [
                {"key": "city", "label": "City"}, {"key": "temperature", "label": "Temperature", "type": "number"},
                {"key": "conditions", "label": "Conditions"}, {"key": "humidity", "label": "Humidity %", "type": "number"}],
                "rows": rows}}),
        ),
        (
            DISPLAY,
            json!({"name": "chart-rich", "params": {"title": "Temperature by city", "type": "bar",
                "labels": readings.iter().map(|w| w.city.clone()).collect::<Vec<_>>(),
                "data": [{"label": "Temperature", "values": readings.iter().map(|w| number(w.temperature)).collect::<Vec<_>>()}]}}),
        ),
        (
            DISPLAY,
            json!({"name": "stat-card", "params": {"label": format!("Warmest: {}", top.city), "value": shown(top.temperature), "unit": "°"}}),
        ),
        (
            DISPLAY,
            json!({"name": "kv", "params": {"title": top.city, "rows": [["Conditions", top.conditions], ["Humidity", format!("{}%", shown(top.humidity))]]}}),
        ),
    ])
}

/// The id of the stat-card shown in `request`'s conversation.
fn stat_card_id(request: &Value) -> Option<String> {
    calls_to(request, DISPLAY)
        .into_iter()
        .find(|call| call.input["name"] == "stat-card")
        .and_then(|call| call.json()["id"].as_str().map(str::to_owned))
}

fn script(request: &Value, index: usize) -> Reply {
    match index {
        0 => Reply::tool(
            "autoui_webmcp_search_recipes",
            json!({"query": "table of records"}),
        ),
        1 => {
            let found = calls_to(request, "autoui_webmcp_search_recipes")
                .pop()
                .map(|call| call.json())
                .unwrap_or_default();
            match found["recipes"][0]["name"].as_str() {
                Some(name) => Reply::tool("autoui_webmcp_get_recipe", json!({"name": name})),
                None => Reply::text("search_recipes found nothing"),
            }
        }
        2 => Reply::tool(SEARCH_TOOLS, json!({"query": "structured content weather"})),
        3 => {
            let (tool, cities) = weather_tool(request);
            if tool.is_empty() || cities.is_empty() {
                return Reply::text("no weather tool on this server");
            }
            Reply::tools(
                cities
                    .iter()
                    .map(|city| (tool.as_str(), json!({"location": city})))
                    .collect(),
            )
        }
        4 => widgets(&readings(request)),
        5 => {
            let readings = readings(request);
            match (stat_card_id(request), warmest(&readings)) {
                (Some(id), Some(top)) => Reply::tool(
                    "autoui_webmcp_canvas",
                    json!({"action": "update", "id": id, "params": {"data": {"delta": format!("humidity {}%", shown(top.humidity))}}}),
                ),
                _ => Reply::text("no stat-card to update"),
            }
        }
        _ => Reply::text("Your weather dashboard is ready."),
    }
}

/// How a small number reads on screen: no trailing `.0`.
fn shown(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{}", value as i64)
    } else {
        value.to_string()
    }
}

#[tokio::test]
async fn a_dashboard_is_built_from_a_real_mcp_server_added_in_the_servers_panel() {
    let server = McpServer::everything(Transport::Streamable).await;
    let llm = ScriptedLlm::start(script).await;
    let base = llm.base_url();
    let url = server.url();
    let llm_ref = &llm;
    let listed = &std::cell::Cell::new(0);
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm("anthropic", &base).await;
        let status = page.add_server(&url, "everything").await;
        let transport = page
            .text_content("[data-server-id=everything] [data-testid=server-transport-label]")
            .await;
        assert_eq!(
            transport, "Streamable HTTP",
            "auto-detection picked Streamable HTTP"
        );
        let tools: usize = status
            .split_whitespace()
            .find_map(|word| word.parse().ok())
            .unwrap_or(0);
        assert!(tools >= 10, "the panel counts the server's tools: {status}");
        listed.set(tools);

        page.say("Build me a weather dashboard from the everything server")
            .await;
        page.wait_for_runs(1).await;

        // Lazy activation is shown to the person.
        page.wait_for_text("[data-testid=transcript]", "everything")
            .await;
        let notes = page.texts("[data-testid=chat-note]").await;
        assert!(
            notes.iter().any(|note| note.contains("everything")),
            "the chat says the server's tools were activated: {notes:?}"
        );

        // The widgets show what the server returned.
        let requests = llm_ref.requests();
        let readings = readings(&requests[4]);
        assert!(
            readings.len() >= 3,
            "the tool was called for every city its schema offers: {readings:?}"
        );
        let top = warmest(&readings).expect("a warmest city").clone();
        for kind in ["data-table", "chart-rich", "stat-card", "kv"] {
            page.find(&format!("[data-widget-type={kind}]")).await;
        }
        let table = page
            .wait_for_text("[data-widget-type=data-table]", &readings[0].city)
            .await;
        for reading in &readings {
            for value in [
                reading.city.clone(),
                reading.conditions.clone(),
                shown(reading.temperature),
                shown(reading.humidity),
            ] {
                assert!(
                    table.contains(&value),
                    "the table shows {value:?} from the server: {table}"
                );
            }
        }
        let chart = page
            .find("[data-widget-type=chart-rich]")
            .await
            .html(false)
            .await
            .unwrap_or_default();
        for reading in &readings {
            assert!(
                chart.contains(&reading.city),
                "the chart labels {} : {chart}",
                reading.city
            );
        }
        let card = page.text("[data-widget-type=stat-card]").await;
        assert!(
            card.contains(&format!("Warmest: {}", top.city))
                && card.contains(&shown(top.temperature)),
            "{card}"
        );
        let kv = page.text("[data-widget-type=kv]").await;
        assert!(
            kv.contains(&top.conditions) && kv.contains(&format!("{}%", shown(top.humidity))),
            "{kv}"
        );

        // The update through `canvas` reached the screen.
        page.wait_for_text(
            "[data-widget-type=stat-card]",
            &format!("humidity {}%", shown(top.humidity)),
        )
        .await;
        assert_eq!(
            page.count("[data-testid=widget]").await,
            4,
            "the update changed a widget, it did not add one"
        );

        // The console lists every call with its elapsed time.
        let calls = exchanges(llm_ref.requests().last().expect("requests"));
        page.click("[data-testid=open-console]").await;
        page.wait_for_count("[data-testid=console-call]", calls.len())
            .await;
        for elapsed in page
            .texts("[data-testid=console-call] [data-testid=console-elapsed]")
            .await
        {
            let number = elapsed.strip_suffix(" ms").unwrap_or_default();
            assert!(
                number.parse::<u64>().is_ok(),
                "each call shows its elapsed time: {elapsed:?}"
            );
        }
        page.wait_for_text(
            "[data-testid=console-totals]",
            &format!("{} calls", calls.len()),
        )
        .await;
        let servers = page.texts("[data-testid=console-call]").await.join("\n");
        assert!(
            servers.contains("structured"),
            "the server's calls are listed: {servers}"
        );

        let errors = page.console_errors().await;
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;

    let requests = llm.requests();
    assert_eq!(requests.len(), 7, "one request per iteration");

    // Lazy activation: the weather tool is offered only once the server has been called.
    let (tool, _) = weather_tool(&requests[4]);
    assert!(tool.starts_with("everything_mcp_"), "{tool}");
    for (index, request) in requests.iter().enumerate() {
        let offered = tool_names(request);
        assert!(
            offered.iter().any(|name| name == SEARCH_TOOLS),
            "search_tools is offered in request {index}"
        );
        let has_tool = offered.contains(&tool);
        assert_eq!(
            has_tool,
            index >= 4,
            "request {index} offers {tool}: {has_tool} ({offered:?})"
        );
        // Before the first call only the pseudo-tools (search and list its tools, and, since it
        // offers resources, list and read them); after it, every tool the panel listed too.
        for pseudo in ["search_tools", "list_tools", "list_resources", "read_resource"] {
            let name = format!("everything_mcp_{pseudo}");
            assert!(offered.contains(&name), "request {index} offers {name}: {offered:?}");
        }
        let from_server = offered
            .iter()
            .filter(|name| name.starts_with("everything_mcp_"))
            .count();
        let expected = if index >= 4 { listed.get() + 4 } else { 4 };
        assert_eq!(
            from_server, expected,
            "everything's tools offered in request {index}: {offered:?}"
        );
    }

    // Compression: results older than the last two iterations are cut to a preview and a recall marker.
    let last = requests.last().expect("requests");
    let old = exchanges(last);
    let recipe = old
        .iter()
        .find(|call| call.name == "autoui_webmcp_get_recipe")
        .expect("the recipe was read");
    let search = old
        .iter()
        .find(|call| call.name == SEARCH_TOOLS)
        .expect("the tools were searched");
    for call in [recipe, search] {
        let text = call.result.as_deref().unwrap_or_default();
        assert!(
            text.contains("[compressed: "),
            "{} is compressed in the last request: {text}",
            call.name
        );
        assert!(
            text.contains(&format!("recall('{}')", call.id)),
            "the marker names the call to recall: {text}"
        );
        assert!(
            text.chars().count() < 400,
            "a compressed result is a short preview: {} characters",
            text.chars().count()
        );
    }
    let full = exchanges(&requests[2]);
    let recipe_then = full
        .iter()
        .find(|call| call.name == "autoui_webmcp_get_recipe")
        .and_then(|call| call.result.clone());
    assert!(
        recipe_then
            .as_deref()
            .is_some_and(|text| !text.contains("[compressed: ") && text.len() > 1_000),
        "the recipe was sent in full while it was recent"
    );
    llm.stop().await;
    drop(server);
}
