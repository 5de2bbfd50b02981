//! axe-core finds no accessibility violation on any screen of the app, in the light and the dark
//! theme: the canvas holding one widget of each kind beside a chat with a turn cut by the output limit
//! (Continue) that shows a held-back image ("Load image"), a server's elicitation form (untouched, and
//! refusing an empty required field) and sampling request, a tool call
//! waiting for approval, the servers drawer with several servers, remembered approval choices, a
//! tool's input schema and a server asking to sign in (OAuth), an MCP Apps view on the canvas, a
//! tool call opened in the chat and in the console, the gallery,
//! the recipes, each drawer and menu open, a bound widget's source editor, and last the servers a
//! dashboard needs once its server is removed; then, in narrower windows, the canvas reflowed beside
//! the chat and, on a phone, the canvas, the chat and the console drawer. A new screen is one more row in
//! `SCREENS` (or `NARROW_SCREENS`).

use autoui_e2e::axe::{Violation, audit};
use autoui_e2e::browser::BrowserOptions;
use autoui_e2e::llm::{Part, Reply, ScriptedLlm, calls_to, user_texts};
use autoui_e2e::mcp_server::{McpServer, Transport, free_port};
use autoui_e2e::page::Page;
use autoui_e2e::with_app;
use serde_json::{Value, json};

/// One state of the app to audit: open `route` on a fresh page load, send `prompt` to the scripted
/// model if there is one (a turn with a tool call, waited for unless it is `ASK_ME`, `APPROVE_ME` or `SAMPLE_ME`,
/// which wait for the person, and stay in the conversation: every later turn repeats them, so screens
/// with other prompts come first), click `clicks` in order, wait until `ready` is visible, then run axe on the whole
/// document.
struct Screen {
    name: &'static str,
    route: &'static str,
    prompt: Option<&'static str>,
    clicks: &'static [&'static str],
    ready: &'static str,
}

/// The prompt to which the scripted model calls server-everything's elicitation tool.
const ASK_ME: &str = "Ask me for the details";
/// The prompt to which the scripted model calls server-everything's `echo`, set to "Ask every time".
const APPROVE_ME: &str = "Echo this once I approve";
/// The prompt to which the scripted model calls server-everything's sampling tool.
const SAMPLE_ME: &str = "Let the server ask my model";
/// The prompt to which the scripted model shows a card bound to server-everything's `echo`.
const BIND_ME: &str = "Show a card that follows the server";
/// The prompt to which the scripted model calls the notes server's tool that ships an MCP Apps view.
const VIEW_ME: &str = "Show my notes";
const VIEW_TOOL: &str = "notes_mcp_show-notes";
const DISPLAY: &str = "autoui_webmcp_widget_display";

const SCREENS: &[Screen] = &[
    Screen {
        name: "canvas with one widget of each kind, beside the chat after one turn cut by the output limit",
        route: "/#/",
        prompt: Some("Describe my dashboard"),
        clicks: &[],
        ready: "[data-testid=continue]",
    },
    Screen {
        name: "gallery",
        route: "/#/gallery",
        prompt: None,
        clicks: &[],
        ready: "[data-testid=gallery-item-trombinoscope]",
    },
    Screen {
        name: "recipes",
        route: "/#/recipes",
        prompt: None,
        clicks: &[],
        ready: "[data-testid=recipe-detail]",
    },
    Screen {
        name: "settings drawer",
        route: "/#/",
        prompt: None,
        clicks: &["[data-testid=open-settings]"],
        // The last section that comes with the engine, once it has read the browser's figures.
        ready: "[data-testid=settings-storage-space]",
    },
    Screen {
        name: "servers drawer with a connected server and its tools listed",
        route: "/#/",
        prompt: None,
        clicks: &["[data-testid=open-servers]", "[data-testid=server-tools] > summary"],
        ready: "[data-testid=server-tool]",
    },
    Screen {
        name: "console drawer after one turn",
        route: "/#/",
        prompt: Some("Describe my dashboard"),
        clicks: &["[data-testid=open-console]"],
        ready: "[data-testid=console-iteration]",
    },
    Screen {
        name: "a tool call opened in the chat",
        route: "/#/",
        prompt: Some("Describe my dashboard"),
        clicks: &["[data-testid=chat-tool-call] > summary"],
        ready: "[data-testid=chat-tool-result]",
    },
    Screen {
        name: "a call opened in the console",
        route: "/#/",
        prompt: Some("Describe my dashboard"),
        clicks: &["[data-testid=open-console]", "[data-testid=console-call] > summary"],
        ready: "[data-testid=console-call] .au-console__pre",
    },
    Screen {
        name: "dashboards menu",
        route: "/#/",
        prompt: None,
        clicks: &["[data-testid=dashboards] > summary"],
        ready: "[data-testid=dashboard-name]",
    },
    Screen {
        name: "a chart's export menu",
        route: "/#/",
        prompt: None,
        clicks: &["[data-widget-type=chart] [data-testid=widget-export] > summary"],
        ready: "[data-widget-type=chart] [data-testid=export-svg]",
    },
    Screen {
        name: "a server's elicitation form in the chat",
        route: "/#/",
        prompt: Some(ASK_ME),
        clicks: &[],
        ready: "[data-testid=elicitation] [data-testid=elicitation-accept]",
    },
    Screen {
        name: "a server's elicitation form refusing an empty required field",
        route: "/#/",
        prompt: Some(ASK_ME),
        clicks: &["[data-testid=elicitation] [data-testid=elicitation-accept]"],
        ready: "[data-testid=elicitation-problems]",
    },
    Screen {
        name: "a tool call waiting for approval in the chat",
        route: "/#/",
        prompt: Some(APPROVE_ME),
        clicks: &[],
        ready: "[data-testid=approval] [data-testid=approval-deny]",
    },
    Screen {
        name: "a server's sampling request in the chat",
        route: "/#/",
        prompt: Some(SAMPLE_ME),
        clicks: &[],
        ready: "[data-testid=sampling] [data-testid=sampling-send]",
    },
    Screen {
        name: "a bound widget's source editor",
        route: "/#/",
        prompt: None,
        clicks: &["[data-testid=widget-source]"],
        ready: "[data-testid=source-editor] [data-testid=source-map]",
    },
    Screen {
        name: "a widget expanded over the page",
        route: "/#/",
        prompt: None,
        clicks: &["[data-widget-type=data-table] [data-testid=widget-expand]"],
        ready: "[data-testid=widget-expanded] tbody td",
    },
    Screen {
        name: "a widget pointed at for the next message",
        route: "/#/",
        prompt: None,
        clicks: &["[data-widget-type=data-table] [data-testid=widget-ask]"],
        ready: "[data-testid=chat-pointed-widget]",
    },
    Screen {
        name: "the keyboard shortcuts",
        route: "/#/",
        prompt: None,
        clicks: &["[data-testid=open-settings]", "[data-testid=open-shortcuts]"],
        ready: "[data-testid=shortcuts] dl",
    },
    Screen {
        name: "share link",
        route: "/#/",
        prompt: None,
        clicks: &["[data-testid=share]"],
        ready: "[data-testid=share-link]",
    },
    Screen {
        name: "an MCP Apps view on the canvas",
        route: "/#/",
        prompt: None,
        clicks: &[],
        ready: "[data-widget-type=mcp-app] [data-testid=mcp-app-frame]",
    },
    Screen {
        name: "servers drawer with a server asking to sign in",
        route: "/#/",
        prompt: None,
        clicks: &["[data-testid=open-servers]"],
        ready: "[data-server-id='crm'] [data-auth=sign-in-required]",
    },
    Screen {
        name: "servers drawer with two servers and a tool's input schema open",
        route: "/#/",
        prompt: None,
        clicks: &[
            "[data-testid=open-servers]",
            "[data-server-id=everything] [data-testid=server-tools] > summary",
            "[data-server-id=everything] [data-testid=server-tool][data-tool=echo] .au-tool__schema > summary",
        ],
        ready: "[data-server-id=everything] [data-testid=server-tool-schema]",
    },
    Screen {
        name: "canvas presented (opened at #/present)",
        route: "/#/present",
        prompt: None,
        clicks: &[],
        ready: "[data-testid=present-exit]",
    },
];

/// Screens whose layout changes with the window, in narrower windows than the 1,400 px of the others:
/// the canvas reflowed beside the chat, and on a phone the canvas, the chat and a drawer over it.
const NARROW_SCREENS: &[(u32, u32, Screen)] = &[
    (
        1200,
        900,
        Screen {
            name: "canvas with one widget of each kind, reflowed beside the chat",
            route: "/#/",
            prompt: None,
            clicks: &[],
            ready: "[data-widget-type=trombinoscope]",
        },
    ),
    (
        390,
        844,
        Screen {
            name: "canvas with one widget of each kind on a phone",
            route: "/#/",
            prompt: None,
            clicks: &[],
            ready: "[data-widget-type=trombinoscope]",
        },
    ),
    (
        390,
        844,
        Screen {
            name: "the chat over the canvas on a phone",
            route: "/#/",
            prompt: None,
            clicks: &["[data-testid=open-chat]"],
            ready: "[data-testid=chat-input]",
        },
    ),
    (
        390,
        844,
        Screen {
            name: "console drawer on a phone",
            route: "/#/",
            prompt: None,
            clicks: &["[data-testid=open-console]"],
            ready: "[data-testid=console]",
        },
    ),
];

#[tokio::test]
async fn no_screen_has_an_accessibility_violation_in_the_light_theme() {
    audit_every_screen("light").await;
}

#[tokio::test]
async fn no_screen_has_an_accessibility_violation_in_the_dark_theme() {
    audit_every_screen("dark").await;
}

async fn audit_every_screen(theme: &'static str) {
    // Each turn makes a tool call, so the chat and the console show a tool line as well as text.
    let llm = ScriptedLlm::start(|request: &Value, index| match index % 2 {
        // Set-up: one card bound to the server, then the turn ends.
        _ if user_texts(request).last().map(String::as_str) == Some(BIND_ME) => match calls_to(request, DISPLAY).is_empty() {
            true => Reply::tool(DISPLAY, json!({"name": "stat-card", "params": {"label": "Echo"},
                "source": {"call": "everything_mcp_echo", "arguments": {"message": "42"}, "map": "{value: .}", "refresh": "manual"}})),
            false => Reply::text("The card follows the server."),
        },
        // Set-up: an MCP Apps view on the canvas, then the turn ends.
        _ if user_texts(request).last().map(String::as_str) == Some(VIEW_ME) => match calls_to(request, VIEW_TOOL).is_empty() {
            true => Reply::tool(VIEW_TOOL, json!({"note": "Paris weather notes for the week", "count": 3, "wait_s": 0})),
            false => Reply::text("Your notes are on the canvas."),
        },
        // First: the conversation still holds the earlier turns when a later one is sent.
        _ if request["messages"].to_string().contains(SAMPLE_ME) => {
            Reply::tool("everything_mcp_trigger-sampling-request", json!({"prompt": "name a colour"}))
        }
        _ if request["messages"].to_string().contains(APPROVE_ME) => Reply::tool("everything_mcp_echo", json!({"message": "hi"})),
        _ if request["messages"].to_string().contains(ASK_ME) => {
            Reply::tool("everything_mcp_trigger-elicitation-request", json!({}))
        }
        0 => Reply::tool("autoui_webmcp_search_recipes", json!({"query": "kpi"})),
        // A reply cut by the output limit (the chat offers Continue) showing a web image the data
        // never named (held behind "Load image"; nothing is fetched).
        _ => Reply::CutOff(vec![
            Part::Text("Your canvas holds **one widget of each kind**.\n\n![Sales by region](http://127.0.0.1:9/sales.png)\n\n".to_owned()),
            Part::Text("The regions are compared in the chart".to_owned()),
        ]),
    })
    .await;
    let server = McpServer::everything(Transport::Streamable).await;
    // A second server, so the servers drawer lists two (each one's regions must be told apart).
    let second = McpServer::python("table_server.py", Transport::Streamable).await;
    // A server whose tool ships an MCP Apps view, and one behind OAuth that asks to sign in.
    let notes = McpServer::python("lifecycle_app_server.py", Transport::Streamable).await;
    let (provider_port, protected_port) = (free_port(), free_port());
    let issuer = format!("http://127.0.0.1:{provider_port}");
    let protected =
        McpServer::python_on("protected_server.py", Transport::Streamable, protected_port, vec![("PROTECTED_ISSUER".into(), issuer)]).await;
    let notes_url = notes.url();
    let protected_url = protected.url();
    let llm_url = llm.base_url();
    let server_url = server.url();
    let second_url = second.url();
    with_app(BrowserOptions::default(), |page| async move {
        let _provider = McpServer::oauth_provider(
            provider_port,
            vec![("OAUTH_RESOURCE".into(), protected_url.clone()), ("OAUTH_APP_ORIGIN".into(), page.url(""))],
        )
        .await;
        page.open("/").await;
        use_settings(&page, theme, &llm_url).await;
        fill_canvas_with_every_widget(&page).await;
        page.add_server(&server_url, "everything").await;
        // Bound before `echo` needs approval: binding runs the call once.
        page.say(BIND_ME).await;
        page.wait_for_runs(1).await;
        page.find("[data-testid=widget-source]").await;
        ask_before_echo(&page).await;
        page.add_server(&second_url, "table").await;
        // The view stays on the canvas for every later screen.
        page.add_server(&notes_url, "notes").await;
        page.say(VIEW_ME).await;
        // The second run since the page loaded (the first bound the card).
        page.wait_for_runs(2).await;
        page.find("[data-testid=mcp-app-frame]").await;
        add_server_asking_to_sign_in(&page, &protected_url).await;

        let mut report = String::new();
        for screen in SCREENS {
            let violations = audit_screen(&page, screen).await;
            report_violations(&mut report, &format!("{} ({theme} theme)", screen.name), &violations);
        }
        for (width, height, screen) in NARROW_SCREENS {
            page.client().set_window_size(*width, *height).await.expect("resize the window");
            let violations = audit_screen(&page, screen).await;
            report_violations(&mut report, &format!("{} in a {width} px window ({theme} theme)", screen.name), &violations);
        }
        page.client().set_window_size(1400, 900).await.expect("resize the window");
        let violations = audit_needed_servers(&page).await;
        report_violations(&mut report, &format!("the servers a dashboard needs ({theme} theme)"), &violations);
        assert!(report.is_empty(), "axe-core found accessibility violations:{report}");
        // The server behind OAuth answers each connection attempt 401 until the person signs in: the
        // browser logs that response, and it is no error of the page.
        let refused = format!("{protected_url} - Failed to load resource: the server responded with a status of 401");
        let errors: Vec<String> = page.console_errors().await.into_iter().filter(|error| !error.starts_with(&refused)).collect();
        assert!(errors.is_empty(), "console errors: {errors:#?}");
    })
    .await;
}

/// Adds the server behind OAuth, which waits for the person's "Sign in", and closes the drawer.
async fn add_server_asking_to_sign_in(page: &Page, url: &str) {
    page.click("[data-testid=open-servers]").await;
    page.type_into("[data-testid=server-url]", url).await;
    page.type_into("[data-testid=server-name]", "crm").await;
    page.click("[data-testid=server-add]").await;
    page.wait_for_text("[data-server-id='crm'] [data-auth=sign-in-required]", "Sign in required").await;
    page.close_servers().await;
}

/// Adds `violations`, if any, to `report` under `heading`.
fn report_violations(report: &mut String, heading: &str, violations: &[Violation]) {
    if violations.is_empty() {
        return;
    }
    report.push_str(&format!("\n{heading}:\n"));
    for violation in violations {
        report.push_str(&violation.to_string());
    }
}

/// Stores settings with `theme` and the scripted model, then reloads so the app starts with them.
async fn use_settings(page: &Page, theme: &str, llm_url: &str) {
    let settings = json!({
        "provider": "anthropic", "model": "scripted-model", "base_url": llm_url, "api_key": "test-key", "limits_from_profile": false,
        "theme": theme,
    });
    page.eval(
        "localStorage.setItem('autoui.settings.v1', arguments[0]);",
        vec![Value::String(settings.to_string())],
    )
    .await;
    page.reload().await;
    page.wait_until(
        &format!("the page is in the {theme} theme"),
        &format!("return document.documentElement.dataset.theme === '{theme}';"),
    )
    .await;
}

/// Sets server-everything's `echo` to "Ask every time" (its server is "Always allow"), so the
/// servers drawer lists a remembered choice and `APPROVE_ME` shows an approval card.
async fn ask_before_echo(page: &Page) {
    page.click("[data-testid=open-servers]").await;
    page.click("[data-server-id=everything] [data-testid=server-tools] > summary").await;
    page.click("[data-server-id=everything] [data-testid=server-tool][data-tool=echo] [data-testid=server-tool-approval] option[value=ask]")
        .await;
    page.find("[data-server-id=everything] [data-testid=server-approval][data-tool=echo]").await;
    page.close_servers().await;
}

/// Removes the bound card's server, so the canvas lists it among the servers the dashboard needs
/// (with "Connect"), and audits that. Last: the server stays removed.
async fn audit_needed_servers(page: &Page) -> Vec<Violation> {
    page.open("/#/").await;
    page.reload().await;
    page.click("[data-testid=open-servers]").await;
    // The removal asks first; the person agrees.
    page.eval("window.confirm = () => true;", vec![]).await;
    page.click("[data-server-id=everything] [data-testid=server-remove]").await;
    page.close_servers().await;
    page.wait_until(
        "the canvas lists the server its card needs",
        "const list = document.querySelector('[data-testid=needed-servers]'); return !!list && list.checkVisibility();",
    )
    .await;
    audit(page).await
}

/// Adds every gallery example to the canvas, as a person would, and waits until all are shown.
async fn fill_canvas_with_every_widget(page: &Page) {
    page.open("/#/gallery").await;
    page.find("[data-testid=gallery-item-trombinoscope]").await;
    let buttons = page
        .eval(
            "return [...document.querySelectorAll('[data-testid^=gallery-add-]')].map((b) => b.dataset.testid);",
            vec![],
        )
        .await;
    let buttons: Vec<String> = serde_json::from_value(buttons).expect("gallery button ids");
    assert_eq!(buttons.len(), 26, "the gallery offers one example of each of the 26 widget kinds");
    for testid in &buttons {
        page.click(&format!("[data-testid={testid}]")).await;
    }
    page.open("/#/").await;
    page.wait_for_count("[data-testid=widget]", buttons.len()).await;
}

async fn audit_screen(page: &Page, screen: &Screen) -> Vec<Violation> {
    page.open(screen.route).await;
    // A fresh load, so no drawer or menu is left open by the screen before.
    page.reload().await;
    if let Some(prompt) = screen.prompt {
        page.say(prompt).await;
        if ![ASK_ME, APPROVE_ME, SAMPLE_ME].contains(&prompt) {
            // Runs are counted from the page load.
            page.wait_for_runs(1).await;
        }
    }
    for css in screen.clicks {
        page.click(css).await;
    }
    page.wait_until(
        &format!("{} shows `{}`", screen.name, screen.ready),
        &format!(
            "const element = document.querySelector({:?}); return !!element && element.checkVisibility();",
            screen.ready
        ),
    )
    .await;
    audit(page).await
}
