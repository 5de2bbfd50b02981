//! Model behaviours: scripted providers that imitate what real models and providers do, each of
//! which must still end with the samples' sales dashboard (six widgets) on the canvas:
//! a model that only ever calls tools in its `tools` list (staged activation), several `tool_use`
//! blocks per turn (answered in the model's order), a tool call cut by `max_tokens` (never run; the
//! next request asks for more output), a stream that stalls (abandoned after the idle limit and
//! retried), an `overloaded_error` event mid-stream, a 429 with `retry-after`, a text reply cut
//! by the output limit (Continue), and Ollama's native API through an Ollama-like server
//! (`tests/servers/ollama_server.py`) whose small default context cuts a prompt without `num_ctx`,
//! on this machine and, under a name that looks like another machine, with a key sent over plain
//! http only once the person agreed.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Part, Reply, ScriptedLlm, calls_to, exchanges, tool_names};
use autoui_e2e::mcp_server::McpServer;
use autoui_e2e::page::Page;
use autoui_e2e::with_app;
use serde_json::{Value, json};

const DISPLAY: &str = "autoui_webmcp_widget_display";
const LIST: &str = "samples_webmcp_list_recipes";
const RECIPE: &str = "samples_webmcp_get_recipe";
const DONE: &str = "Here is your sales dashboard.";
/// A model with a built-in profile (200k context, 8,192 output tokens asked for, 64,000 allowed).
const KNOWN_MODEL: &str = "claude-haiku-4-5";

/// Where the samples' sales flow stands in the conversation a request carries.
enum Stage {
    ListRecipes,
    ReadRecipe(String),
    ReadData(String),
    Display(Value),
    Done,
}

fn answered(request: &Value, name: &str) -> Option<Value> {
    calls_to(request, name).into_iter().rev().find(|call| !call.is_error && call.result.is_some()).map(|call| call.json())
}

/// The tool the sales recipe names (`"tool": "samples_webmcp_…"` in its body).
fn tool_named_by_recipe(recipe: &Value) -> Option<String> {
    let body = recipe["recipe"].as_str()?;
    let start = body.find("\"tool\": \"")? + "\"tool\": \"".len();
    let end = body[start..].find('"')? + start;
    Some(body[start..end].to_owned())
}

/// Read from the calls made, latest step first: results of early steps are compressed to a preview
/// after two iterations, so only the step just done needs its result whole.
fn stage(request: &Value) -> Stage {
    if calls_to(request, DISPLAY).iter().any(|call| !call.is_error && call.result.is_some()) {
        return Stage::Done;
    }
    let data = exchanges(request).into_iter().rev().find(|call| {
        call.name.starts_with("samples_webmcp_") && ![LIST, RECIPE].contains(&call.name.as_str()) && !call.is_error
    });
    if let Some(data) = data.filter(|call| call.result.is_some()) {
        return Stage::Display(data.json());
    }
    if let Some(recipe) = answered(request, RECIPE) {
        return tool_named_by_recipe(&recipe).map_or(Stage::Done, Stage::ReadData);
    }
    let Some(listed) = answered(request, LIST) else { return Stage::ListRecipes };
    let sales = listed["recipes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|recipe| recipe["name"].as_str())
        .find(|name| name.contains("sales"))
        .unwrap_or("sales");
    Stage::ReadRecipe(sales.to_owned())
}

/// The six widget calls, in one turn.
fn dashboard_calls(data: &Value) -> Vec<Part> {
    let totals = &data["totals"];
    let lines = data["by_product_line"].as_array().cloned().unwrap_or_default();
    let widget = |name: &str, params: Value| Part::Tool { name: DISPLAY.to_owned(), input: json!({"name": name, "params": params}) };
    vec![
        widget("stat-card", json!({"label": "Revenue", "value": totals["revenue"].to_string(), "unit": "€"})),
        widget("stat-card", json!({"label": "Gross margin", "value": totals["margin"].to_string(), "unit": "€"})),
        widget("stat-card", json!({"label": "Units sold", "value": totals["units"].to_string()})),
        widget("chart-rich", json!({"title": "Monthly revenue by region", "type": "line", "labels": data["months"], "data": data["series_by_region"]})),
        widget("chart-rich", json!({"title": "Revenue by product line", "type": "donut",
            "labels": lines.iter().map(|line| line["product_line"].clone()).collect::<Vec<_>>(),
            "data": [{"label": "Revenue", "values": lines.iter().map(|line| line["revenue"].clone()).collect::<Vec<_>>()}]})),
        widget("data-table", json!({"title": "Sales by region", "columns": [
            {"key": "region", "label": "Region"}, {"key": "revenue", "label": "Revenue (€)", "type": "number"},
            {"key": "units", "label": "Units", "type": "number"}], "rows": data["by_region"]})),
    ]
}

/// The flow's next step, calling only tools the request offers when `only_offered`.
fn next_step(request: &Value, only_offered: bool) -> Reply {
    let call = |name: &str, input: Value| {
        if only_offered && !tool_names(request).iter().any(|offered| offered == name) {
            return Reply::text(&format!("I cannot call {name}: it is not in my tool list."));
        }
        Reply::tool(name, input)
    };
    match stage(request) {
        Stage::ListRecipes => call(LIST, json!({})),
        Stage::ReadRecipe(name) => call(RECIPE, json!({"name": name})),
        Stage::ReadData(tool) => call(&tool, json!({})),
        Stage::Display(data) => {
            if only_offered && !tool_names(request).iter().any(|offered| offered == DISPLAY) {
                return Reply::text("widget_display is not offered");
            }
            Reply::Message(dashboard_calls(&data))
        }
        Stage::Done => Reply::text(DONE),
    }
}

async fn expect_dashboard(page: &Page) {
    page.wait_for_runs(1).await;
    page.wait_for_text("[data-testid=chat-assistant]", DONE).await;
    page.wait_for_count("[data-testid=widget]", 6).await;
    // The browser logs an HTTP error status it was sent (the 429 scenario's) as a console error.
    let errors: Vec<String> =
        page.console_errors().await.into_iter().filter(|error| !error.contains("status of 429")).collect();
    assert!(errors.is_empty(), "console errors: {errors:#?}");
}

/// Asks for the dashboard in the app configured for `llm` (Anthropic wire) with `extra` settings.
async fn scenario(extra: Value, llm: &ScriptedLlm, then: impl AsyncFnOnce(&Page)) {
    let base = llm.base_url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm_with("anthropic", &base, extra).await;
        page.say("build me a sales dashboard").await;
        then(&page).await;
    })
    .await;
}

#[tokio::test]
async fn a_model_that_only_calls_offered_tools_builds_the_dashboard_with_several_calls_per_turn() {
    let llm = ScriptedLlm::start(|request, _| next_step(request, true)).await;
    scenario(json!({"model": KNOWN_MODEL, "limits_from_profile": true}), &llm, async |page| expect_dashboard(page).await).await;
    let requests = llm.requests();
    let data_tool = requests
        .iter()
        .find_map(|request| calls_to(request, "samples_webmcp_monthly_sales").pop())
        .expect("the data tool was called");
    assert_eq!(data_tool.name, "samples_webmcp_monthly_sales");
    // The six widget calls of one turn are answered in the order the model wrote them.
    let last = requests.last().expect("requests");
    let displays: Vec<String> = exchanges(last).into_iter().filter(|call| call.name == DISPLAY).map(|call| call.id).collect();
    let results: Vec<String> = last["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|message| message["content"].as_array().cloned().unwrap_or_default())
        .filter(|block| block["type"] == "tool_result")
        .filter_map(|block| block["tool_use_id"].as_str().map(str::to_owned))
        .filter(|id| displays.contains(id))
        .collect();
    assert_eq!(displays.len(), 6);
    assert_eq!(results, displays, "results in the model's order");
}

#[tokio::test]
async fn a_tool_call_cut_by_max_tokens_is_never_run_and_the_retry_asks_for_more_output() {
    let llm = ScriptedLlm::start(|request, _| match stage(request) {
        // The first display turn: the table call is cut off mid-JSON by the output limit.
        Stage::Display(data) if calls_to(request, DISPLAY).is_empty() => {
            Reply::CutOff(dashboard_calls(&data).split_off(5))
        }
        _ => next_step(request, false),
    })
    .await;
    scenario(json!({"model": KNOWN_MODEL, "limits_from_profile": true}), &llm, async |page| {
        expect_dashboard(page).await;
        assert_eq!(page.count("[data-widget-type=data-table]").await, 1, "one table: the cut one never ran");
    })
    .await;
    let requests = llm.requests();
    let after_cut = requests
        .iter()
        .position(|request| calls_to(request, DISPLAY).iter().any(|call| call.is_error))
        .expect("the cut call was answered");
    let error = calls_to(&requests[after_cut], DISPLAY)[0].result.clone().unwrap_or_default();
    assert!(error.contains("cut off by the output token limit (8192 tokens)"), "{error}");
    assert_eq!(requests[after_cut - 1]["max_tokens"], 8_192);
    assert_eq!(requests[after_cut]["max_tokens"], 16_384, "the next request asks for twice the output");
}

#[tokio::test]
async fn a_stream_that_stalls_for_a_minute_is_abandoned_after_the_idle_limit_and_retried() {
    let stalled = Arc::new(AtomicBool::new(false));
    let once = stalled.clone();
    let llm = ScriptedLlm::start(move |request, _| {
        let reply = next_step(request, false);
        match stage(request) {
            Stage::ReadRecipe(_) if !once.swap(true, Ordering::SeqCst) => {
                Reply::Stalled { silence: Duration::from_secs(60), reply: Box::new(reply) }
            }
            _ => reply,
        }
    })
    .await;
    let started = Instant::now();
    scenario(json!({"idle_timeout_s": 2}), &llm, async |page| {
        expect_dashboard(page).await;
        let notes = page.texts("[data-testid=chat-note]").await.join("\n");
        assert!(notes.contains("sent nothing for 2 s in the middle of the reply"), "the retry is shown: {notes}");
    })
    .await;
    assert!(stalled.load(Ordering::SeqCst), "the stall happened");
    assert!(started.elapsed() < Duration::from_secs(50), "the minute of silence was not waited out");
}

#[tokio::test]
async fn an_overloaded_error_in_the_middle_of_a_stream_is_retried() {
    let overloaded = Arc::new(AtomicBool::new(false));
    let once = overloaded.clone();
    let llm = ScriptedLlm::start(move |request, _| match stage(request) {
        Stage::ReadData(_) if !once.swap(true, Ordering::SeqCst) => Reply::OverloadedMidStream,
        _ => next_step(request, false),
    })
    .await;
    scenario(json!({}), &llm, async |page| {
        expect_dashboard(page).await;
        let notes = page.texts("[data-testid=chat-note]").await.join("\n");
        assert!(notes.contains("Overloaded") && notes.contains("retrying"), "{notes}");
    })
    .await;
    assert!(overloaded.load(Ordering::SeqCst));
}

#[tokio::test]
async fn a_rate_limit_with_retry_after_is_waited_for_then_the_flow_goes_on() {
    let times: Arc<Mutex<Vec<Instant>>> = Arc::default();
    let seen = times.clone();
    let llm = ScriptedLlm::start(move |request, index| {
        seen.lock().expect("times").push(Instant::now());
        match index {
            0 => Reply::Error { status: 429, retry_after_s: Some(2), message: "Rate limit reached".to_owned() },
            _ => next_step(request, false),
        }
    })
    .await;
    scenario(json!({}), &llm, async |page| expect_dashboard(page).await).await;
    let times = times.lock().expect("times").clone();
    assert!(times.len() >= 2);
    assert!(times[1] - times[0] >= Duration::from_millis(1_900), "waited {:?}", times[1] - times[0]);
}

#[tokio::test]
async fn a_reply_cut_by_the_output_limit_offers_continue_which_finishes_it() {
    let llm = ScriptedLlm::start(|request, _| {
        let continued = request["messages"].to_string().contains("cut off by the output token limit");
        match stage(request) {
            Stage::Done if !continued => Reply::CutOff(vec![Part::Text(
                "The dashboard shows revenue, margin and units, by region and by product line, month by month.".to_owned(),
            )]),
            Stage::Done => Reply::text(DONE),
            _ => next_step(request, false),
        }
    })
    .await;
    scenario(json!({}), &llm, async |page| {
        page.wait_for_runs(1).await;
        page.wait_for_count("[data-testid=widget]", 6).await;
        page.wait_for_text("[data-testid=transcript]", "The reply was cut off").await;
        assert_eq!(page.count("[data-testid=retry]").await, 0, "Continue, not Retry");
        page.click("[data-testid=continue]").await;
        page.wait_for_runs(2).await;
        let replies = page.texts("[data-testid=chat-assistant]").await;
        assert!(replies.iter().any(|reply| reply.starts_with("The dashboard shows")), "the cut reply stays: {replies:?}");
        assert_eq!(replies.last().map(String::as_str), Some(DONE), "the model was told to continue: {replies:?}");
        assert_eq!(page.count("[data-testid=continue]").await, 0);
    })
    .await;
}

/// The model `ollama_server.py` serves, its context length (`/api/show`) and its default context.
const OLLAMA_MODEL: &str = "qwen2.5:7b";
const OLLAMA_CONTEXT: u64 = 32_768;
const OLLAMA_DEFAULT_CONTEXT: usize = 2_048;

fn recorded(received: &Value, path: &str) -> Vec<Value> {
    received.as_array().into_iter().flatten().filter(|request| request["path"] == path).cloned().collect()
}

#[tokio::test]
async fn ollama_native_sends_the_models_context_length_as_num_ctx_so_nothing_is_cut() {
    let ollama = McpServer::python_app("ollama_server.py").await;
    let base = ollama.base_url();
    with_app(BrowserOptions::default(), |page| async move {
        page.open("/").await;
        page.configure_llm_with("ollama", &base, json!({"model": OLLAMA_MODEL, "api_key": "", "limits_from_profile": true})).await;
        page.say("build me a sales dashboard").await;
        expect_dashboard(&page).await;
    })
    .await;
    let received = ollama.get_json("/requests").await;
    let shows = recorded(&received, "/api/show");
    assert_eq!(shows.len(), 1, "the context length is asked once: {shows:?}");
    assert_eq!(shows[0]["body"]["model"], OLLAMA_MODEL);
    let chats = recorded(&received, "/api/chat");
    assert!(chats.len() >= 5, "the flow's five steps: {}", chats.len());
    for chat in &chats {
        assert_eq!(chat["body"]["options"]["num_ctx"], OLLAMA_CONTEXT, "every chat sets the context");
        assert_eq!(chat["authorization"], Value::Null, "no key, no header");
    }
    // Without num_ctx the later prompts (recipe and data read) would have been cut to the server's
    // default context, their instructions first.
    let largest = chats.iter().map(|chat| chat["body"].to_string().len() / 4).max().unwrap_or_default();
    assert!(largest > OLLAMA_DEFAULT_CONTEXT, "the largest prompt is {largest} tokens");
}

#[tokio::test]
async fn a_key_goes_over_plain_http_to_another_machine_only_after_the_person_agrees() {
    let ollama = McpServer::python_app("ollama_server.py").await;
    // A name the browser resolves to 127.0.0.1: to the app, a machine on the local network.
    let host = "ollama-box.lan.test";
    let base = format!("http://{host}:{}", ollama.port());
    let options = BrowserOptions { loopback_hosts: vec![host.to_owned()], ..BrowserOptions::default() };
    let server = &ollama;
    with_app(options, |page| async move {
        page.open("/").await;
        page.configure_llm_with("ollama", &base, json!({"model": OLLAMA_MODEL, "api_key": "lan-secret", "limits_from_profile": true}))
            .await;
        page.say("build me a sales dashboard").await;
        let question = page.client().get_alert_text().await.expect("the page asks before sending the key");
        assert!(question.contains(host) && question.contains("unencrypted"), "{question}");
        page.client().dismiss_alert().await.expect("answer no");
        assert_eq!(server.get_json("/requests").await, json!([]), "no request after a no");
        assert_eq!(page.count("[data-testid=chat-user]").await, 0, "not sent");
        // The message waits in the box; sending again asks again.
        page.click("[data-testid=send]").await;
        page.client().get_alert_text().await.expect("asked again");
        page.client().accept_alert().await.expect("answer yes");
        expect_dashboard(&page).await;
        let stored = page.eval("return localStorage.getItem('autoui.settings.v1');", vec![]).await;
        let origin = format!("http://{host}:{}", server.port());
        assert!(stored.as_str().is_some_and(|stored| stored.contains(&origin)), "remembered for {origin}: {stored}");
    })
    .await;
    let chats = recorded(&ollama.get_json("/requests").await, "/api/chat");
    assert!(!chats.is_empty());
    assert!(chats.iter().all(|chat| chat["authorization"] == "Bearer lan-secret"), "{chats:?}");
}
