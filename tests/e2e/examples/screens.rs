//! Screenshots of every screen in populated states, for design review (not a test): a scripted agent
//! run fills the chat, the console and the canvas, the gallery adds more widgets, then each drawer,
//! notice, the running and stopped states and a read-only shared dashboard are shot at 1400 and 420 px,
//! light and dark. Needs a release build in `dist/`.
//!
//! `cargo run -p autoui-e2e --example screens -- /tmp/shots` (default directory: `screens/` here).

use std::path::{Path, PathBuf};
use std::time::Duration;

use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Reply, ScriptedLlm};
use autoui_e2e::page::Page;
use autoui_e2e::with_app;
use serde_json::{Value, json};

const WIDE: (u32, u32) = (1400, 900);
const NARROW: (u32, u32) = (420, 860);

/// Widgets the gallery adds after the agent's run, so the canvas holds about a dozen kinds.
const GALLERY_KINDS: [&str; 8] = [
    "kv",
    "list",
    "alert",
    "timeline",
    "tags",
    "hemicycle",
    "log",
    "profile",
];

const ANSWER: &str = "Here is your **sales dashboard** for 2023-2024:\n\n\
- Revenue grew `+11.4%` in 2024\n\
- North leads every quarter\n\n\
| Region | Revenue |\n|---|---|\n| North | 8.8M € |\n| South | 7.2M € |\n\n\
Ask me to *filter by region* or change a chart.";

fn display(name: &str, params: Value) -> (&'static str, Value) {
    (
        "autoui_webmcp_widget_display",
        json!({ "name": name, "params": params }),
    )
}

/// The scripted model: discovery, the data call, six widgets (one invalid first), then markdown.
fn script(_request: &Value, index: usize) -> Reply {
    match index {
        0 => Reply::tools(vec![(
            "samples_webmcp_search_recipes",
            json!({ "query": "sales" }),
        )]),
        1 => Reply::tools(vec![("samples_webmcp_monthly_sales", json!({}))]),
        2 => Reply::tools(vec![
            display(
                "stat-card",
                json!({ "label": "Revenue 2023-2024", "value": "29.6M", "unit": "€", "delta": "+11.4% in 2024", "trend": "up", "variant": "success" }),
            ),
            display(
                "stat-card",
                json!({ "label": "Gross margin", "value": "14.0M", "unit": "€", "delta": "47.1% of revenue" }),
            ),
            display("stat-card", json!({ "value": "142,032" })),
        ]),
        3 => Reply::tools(vec![
            display(
                "stat-card",
                json!({ "label": "Units sold", "value": "142,032", "delta": "-2.1%", "trend": "down" }),
            ),
            display(
                "chart-rich",
                json!({ "title": "Monthly revenue by region (€)", "type": "line", "labels": ["2024-07", "2024-08", "2024-09", "2024-10", "2024-11", "2024-12"], "data": [
                { "label": "North", "values": [401200, 398100, 415800, 423321, 433401, 439604] },
                { "label": "South", "values": [341200, 338900, 352100, 350695, 376291, 363789] },
                { "label": "East", "values": [262100, 259800, 270400, 271053, 306316, 307270] },
                { "label": "West", "values": [366400, 371200, 380100, 379763, 404054, 408149] }] }),
            ),
            display(
                "chart-rich",
                json!({ "title": "Revenue by product line", "type": "donut", "unit": "€", "labels": ["Hardware", "Software", "Services"], "data": [{ "label": "Revenue", "values": [12100936, 12390514, 5147074] }] }),
            ),
            display(
                "data-table",
                json!({ "title": "Sales by region", "columns": [
                { "key": "region", "label": "Region" }, { "key": "revenue", "label": "Revenue (€)", "type": "number" },
                { "key": "units", "label": "Units", "type": "number" }, { "key": "margin_pct", "label": "Margin %", "type": "number" }],
                "rows": [
                { "region": "North", "revenue": 8831646, "units": 41492, "margin_pct": 47.9 },
                { "region": "South", "revenue": 7199244, "units": 34569, "margin_pct": 47.0 },
                { "region": "East", "revenue": 5607355, "units": 27928, "margin_pct": 45.6 },
                { "region": "West", "revenue": 8000279, "units": 38043, "margin_pct": 47.5 }] }),
            ),
        ]),
        4 => Reply::text(ANSWER),
        // Second run: slow, so the running state (spinner, Stop) can be shot.
        5 => {
            // Off the runtime's worker, so the browser session keeps running meanwhile.
            tokio::task::block_in_place(|| std::thread::sleep(Duration::from_secs(5)));
            Reply::text("Nothing to change.")
        }
        // Third run: a provider error, so the stopped note and Retry show.
        _ => Reply::Error {
            status: 400,
            retry_after_s: None,
            message: "model not found: scripted-model".to_owned(),
        },
    }
}

struct Shots {
    dir: PathBuf,
}

impl Shots {
    async fn take(&self, page: &Page, name: &str, (width, height): (u32, u32)) {
        page.client()
            .set_window_size(width, height)
            .await
            .expect("resize the window");
        tokio::time::sleep(Duration::from_millis(400)).await;
        let png = page.client().screenshot().await.expect("screenshot");
        let path = self.dir.join(format!("{name}-{width}.png"));
        std::fs::write(&path, png).expect("write the screenshot");
        println!("{}", path.display());
    }

    /// The chat panel over the canvas in a narrow window (it closes when the window narrows).
    async fn narrow_chat(&self, page: &Page, name: &str) {
        page.client()
            .set_window_size(NARROW.0, NARROW.1)
            .await
            .expect("resize the window");
        tokio::time::sleep(Duration::from_millis(300)).await;
        show_chat(page).await;
        self.take(page, name, NARROW).await;
        self.take(page, "wide", WIDE).await;
    }

    /// The same state at both widths, ending wide (where the rest of the script acts).
    async fn both(&self, page: &Page, name: &str) {
        self.take(page, name, NARROW).await;
        self.take(page, name, WIDE).await;
    }
}

async fn set_theme(page: &Page, base: &str, theme: &str) {
    let settings = json!({ "provider": "anthropic", "model": "scripted-model", "base_url": base, "api_key": "test-key", "theme": theme });
    page.eval(
        "localStorage.setItem('autoui.settings.v1', arguments[0]);",
        vec![Value::String(settings.to_string())],
    )
    .await;
    page.reload().await;
    page.find("[data-testid=canvas], [data-testid=gallery], [data-testid=recipes]")
        .await;
}

/// Opens the chat panel when it is hidden (narrow windows start with it closed).
async fn show_chat(page: &Page) {
    if !page.is_displayed("[data-testid=chat-input]").await {
        page.click("[data-testid=open-chat]").await;
    }
}

async fn review(page: Page, base: String, shots: Shots) {
    page.open("/").await;
    page.find("[data-testid=canvas-empty]").await;
    shots.both(&page, "first-run-nokey").await;
    shots.narrow_chat(&page, "first-run-nokey-chat").await;

    set_theme(&page, &base, "light").await;
    shots.both(&page, "first-run-key").await;
    show_chat(&page).await;
    page.say("Build me a sales dashboard from the sample data")
        .await;
    page.wait_for_runs(1).await;
    page.find("[data-widget-type=data-table]").await;
    page.eval(
        "document.querySelector('[data-testid=chat-tool-call]')?.setAttribute('open', '')",
        vec![],
    )
    .await;
    shots.both(&page, "after-run").await;
    shots.narrow_chat(&page, "after-run-chat").await;

    page.open("/#/gallery").await;
    for kind in GALLERY_KINDS {
        // Through the DOM: the notices stacking up can cover the next button.
        page.find(&format!("[data-testid=gallery-add-{kind}]"))
            .await;
        page.eval(
            "document.querySelector(arguments[0]).click()",
            vec![json!(format!("[data-testid=gallery-add-{kind}]"))],
        )
        .await;
    }
    shots.take(&page, "gallery-notices", WIDE).await;
    page.open("/#/").await;
    page.find("[data-widget-type=profile]").await;
    shots.both(&page, "canvas-full").await;
    page.eval(
        "window.scrollTo(0, 0); document.querySelector('.au-canvas').scrollTop = 900",
        vec![],
    )
    .await;
    shots.take(&page, "canvas-scrolled", WIDE).await;

    page.eval(
        "document.querySelector('[data-testid=widget]').focus()",
        vec![],
    )
    .await;
    page.click("[data-testid=widget] [data-testid=widget-export] summary")
        .await;
    shots.take(&page, "widget-focus-export", WIDE).await;
    page.click("[data-testid=widget] [data-testid=widget-export] summary")
        .await;

    page.click("[data-testid=open-console]").await;
    page.eval(
        "document.querySelector('[data-testid=console-call]')?.setAttribute('open', '')",
        vec![],
    )
    .await;
    shots.both(&page, "console").await;
    page.click("[data-testid=open-settings]").await;
    shots.both(&page, "settings").await;
    page.click("[data-testid=open-servers]").await;
    shots.take(&page, "servers-empty", WIDE).await;
    page.type_into("[data-testid=server-url]", "http://127.0.0.1:9/mcp")
        .await;
    page.click("[data-testid=server-add]").await;
    page.wait_for_text("[data-testid=server-status]", "failed")
        .await;
    shots.both(&page, "servers-failed").await;
    page.click("[data-testid=open-servers]").await;

    page.click("[data-testid=dashboards] summary").await;
    page.type_into("[data-testid=dashboard-name]", "Sales review\n")
        .await;
    shots.take(&page, "dashboards-menu", WIDE).await;
    page.click("[data-testid=dashboards] summary").await;

    show_chat(&page).await;
    page.say("Refresh it").await;
    page.find("[data-testid=stop]").await;
    shots.take(&page, "running", WIDE).await;
    shots.narrow_chat(&page, "running-chat").await;
    page.wait_for_runs(2).await;
    page.say("And again").await;
    page.wait_for_runs(3).await;
    page.find("[data-testid=retry]").await;
    shots.take(&page, "stopped-retry", WIDE).await;
    shots.narrow_chat(&page, "stopped-retry-chat").await;

    page.open("/#/recipes").await;
    shots.both(&page, "recipes").await;
    page.open("/#/gallery").await;
    shots.both(&page, "gallery").await;

    set_theme(&page, &base, "dark").await;
    page.open("/#/").await;
    page.find("[data-widget-type=profile]").await;
    shots.both(&page, "dark-canvas").await;
    page.click("[data-testid=open-settings]").await;
    shots.both(&page, "dark-settings").await;
    page.click("[data-testid=open-console]").await;
    shots.take(&page, "dark-console", WIDE).await;
    page.click("[data-testid=open-console]").await;
    page.open("/#/gallery").await;
    shots.both(&page, "dark-gallery").await;
    page.open("/#/recipes").await;
    shots.take(&page, "dark-recipes", WIDE).await;

    page.open("/#/").await;
    page.find("[data-testid=share]").await;
    page.click("[data-testid=share]").await;
    let link = page
        .find("[data-testid=share-link]")
        .await
        .prop("value")
        .await
        .ok()
        .flatten()
        .unwrap_or_default();
    page.client()
        .goto(&link)
        .await
        .expect("open the share link");
    page.find("[data-testid=read-only-banner]").await;
    shots.both(&page, "dark-read-only").await;
    set_theme(&page, &base, "light").await;
    shots.both(&page, "read-only").await;
}

#[tokio::main(flavor = "multi_thread", worker_threads = 4)]
async fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new("screens").to_owned());
    std::fs::create_dir_all(&dir).expect("create the screenshot directory");
    let llm = ScriptedLlm::start(script).await;
    let base = llm.base_url();
    with_app(BrowserOptions::default(), |page| {
        review(page, base, Shots { dir })
    })
    .await;
    llm.stop().await;
}
