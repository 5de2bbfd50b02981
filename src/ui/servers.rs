//! The servers drawer: add an MCP server by URL (name, bearer token or OAuth client, transport),
//! sign in to one that requires OAuth, watch each one's
//! live status, last-call latency and progress, reconnect or remove it, browse its tools, resources
//! and prompts, choose the log level it sends to the console, and see, change or reset the approval
//! choices remembered for its tools.

use autoui_core::approval::{ApprovalChoice, ToolFacts, default_choice};
use autoui_core::ids::ServerId;
use autoui_core::mcp::config::{McpOptions, ServerConfig, TransportChoice};
use autoui_core::mcp::hub::{CallOutcome, ServerStatus};
use autoui_core::cancel::CancelToken;
use autoui_core::mcp::model::notify::LogLevel;
use autoui_core::mcp::oauth::client::Credentials;
use autoui_core::remote::RemoteServers;
use autoui_core::weburl::cleartext_remote_host;
use leptos::prelude::*;

use crate::adapters::confirm::confirm;
use crate::state::attachments::{Attachment, use_attachments};
use crate::state::oauth::AuthView;
use crate::state::servers::{CallProgress, LastCall, ServersCtx, use_servers};
use crate::ui::dismiss::follow_focus;
use crate::ui::icons::{Icon, IconSvg};

#[component]
pub fn ServersDrawer(open: RwSignal<bool>) -> impl IntoView {
    let close = NodeRef::<leptos::html::Button>::new();
    follow_focus(open, close, "open-servers");
    let servers = use_servers();

    view! {
        <div class="au-drawer au-servers" data-testid="servers" role="dialog" aria-modal="false" aria-labelledby="servers-title"
            class:au-drawer--open=move || open.get() hidden=move || !open.get()>
            <div class="au-drawer__header">
                <h2 id="servers-title">"MCP servers"</h2>
                <button class="au-icon-button" aria-label="Close servers" title="Close servers (Esc)" node_ref=close on:click=move |_| open.set(false)>
                    <IconSvg icon=Icon::Close />
                </button>
            </div>
            <AddServerForm servers=servers />
            <ul class="au-servers__list" data-testid="server-list">
                <For each=move || servers.ids() key=|id| id.clone() let(id)>
                    <ServerItem servers=servers id=id />
                </For>
            </ul>
            <Show when=move || servers.ids().is_empty()>
                <p class="au-servers__empty" data-testid="servers-empty">
                    "No server yet. Add the URL of a Streamable HTTP endpoint (often ending in /mcp) or of a legacy SSE endpoint (often /sse)."
                </p>
            </Show>
        </div>
    }
}

#[component]
fn AddServerForm(servers: ServersCtx) -> impl IntoView {
    let url = RwSignal::new(String::new());
    let name = RwSignal::new(String::new());
    let token = RwSignal::new(String::new());
    let client_id = RwSignal::new(String::new());
    let client_secret = RwSignal::new(String::new());
    let transport = RwSignal::new(TransportChoice::Auto);
    let timeout = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let default_timeout_s = McpOptions::default().call_timeout_ms / 1_000;
    // A dashboard's "Connect" names the server it needs: fill the name in, the person gives the URL.
    let url_input = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |_| {
        if let Some(wanted) = servers.take_wanted() {
            name.set(wanted);
            if let Some(input) = url_input.get_untracked() {
                let _ = input.focus();
            }
        }
    });

    let submit = move || {
        let text = url.get_untracked().trim().to_owned();
        if text.is_empty() {
            error.set(Some("enter the server's URL, for example http://127.0.0.1:3001/mcp".to_owned()));
            return;
        }
        let call_timeout_s = match non_empty(timeout.get_untracked()).map(|text| text.parse::<u32>()) {
            None => None,
            Some(Ok(seconds)) if seconds > 0 => Some(seconds),
            Some(_) => {
                error.set(Some("the call timeout must be a whole number of seconds, 1 or more".to_owned()));
                return;
            }
        };
        let bearer_token = non_empty(token.get_untracked());
        // A token over plain http to another machine is readable on the way: only if the person says so
        // (once: the server is then stored with it).
        if let Some(host) = bearer_token.as_ref().and_then(|_| cleartext_remote_host(&text)) {
            let question = format!(
                "{host} is reached over plain http: the bearer token would cross the network unencrypted, \
                 readable by anyone on the way. Send it anyway?"
            );
            if !confirm(&question) {
                error.set(Some(format!("not added: the token would go unencrypted to {host}; use https, or no token")));
                return;
            }
        }
        let oauth_client = non_empty(client_id.get_untracked()).map(|client_id| Credentials {
            client_secret: non_empty(client_secret.get_untracked()),
            ..Credentials::public(client_id.trim())
        });
        let config = ServerConfig {
            name: non_empty(name.get_untracked()),
            bearer_token,
            transport: transport.get_untracked(),
            call_timeout_s,
            oauth_client,
            ..ServerConfig::new(text)
        };
        match servers.add(config) {
            Ok(_) => {
                url.set(String::new());
                name.set(String::new());
                token.set(String::new());
                client_id.set(String::new());
                client_secret.set(String::new());
                transport.set(TransportChoice::Auto);
                timeout.set(String::new());
                error.set(None);
            }
            Err(refused) => error.set(Some(refused.to_string())),
        }
    };

    view! {
        <form class="au-servers__form" data-testid="server-form" novalidate on:submit=move |event| { event.prevent_default(); submit(); }>
            <label class="au-field">
                <span>"URL"</span>
                <input data-testid="server-url" type="url" required placeholder="http://127.0.0.1:3001/mcp" node_ref=url_input
                    prop:value=move || url.get() on:input=move |event| url.set(event_target_value(&event)) />
            </label>
            <label class="au-field">
                <span>"Name (optional)"</span>
                <input data-testid="server-name" placeholder="the server's own name"
                    prop:value=move || name.get() on:input=move |event| name.set(event_target_value(&event)) />
            </label>
            <label class="au-field">
                <span>"Bearer token (optional)"</span>
                <input data-testid="server-token" type="password" autocomplete="off"
                    prop:value=move || token.get() on:input=move |event| token.set(event_target_value(&event)) />
                <small class="au-field__note">"Stored in this browser only and sent only to this server."</small>
            </label>
            <details class="au-servers__oauth-client">
                <summary>"OAuth client (optional)"</summary>
                <small class="au-field__note">"For a server whose authorization server needs a client registered by hand; else the app registers itself."</small>
                <label class="au-field">
                    <span>"Client ID"</span>
                    <input data-testid="server-client-id" autocomplete="off"
                        prop:value=move || client_id.get() on:input=move |event| client_id.set(event_target_value(&event)) />
                </label>
                <label class="au-field">
                    <span>"Client secret (confidential clients only)"</span>
                    <input data-testid="server-client-secret" type="password" autocomplete="off"
                        prop:value=move || client_secret.get() on:input=move |event| client_secret.set(event_target_value(&event)) />
                </label>
            </details>
            <label class="au-field">
                <span>"Transport"</span>
                <select data-testid="server-transport"
                    on:change=move |event| transport.set(match event_target_value(&event).as_str() {
                        "streamable" => TransportChoice::Streamable,
                        "sse" => TransportChoice::Sse,
                        _ => TransportChoice::Auto,
                    })>
                    <option value="auto" selected=move || transport.get() == TransportChoice::Auto>"Auto-detect"</option>
                    <option value="streamable" selected=move || transport.get() == TransportChoice::Streamable>"Streamable HTTP"</option>
                    <option value="sse" selected=move || transport.get() == TransportChoice::Sse>"HTTP+SSE (legacy)"</option>
                </select>
            </label>
            <label class="au-field">
                <span>"Call timeout, seconds (optional)"</span>
                <input data-testid="server-timeout" inputmode="numeric" placeholder=default_timeout_s.to_string()
                    prop:value=move || timeout.get() on:input=move |event| timeout.set(event_target_value(&event)) />
                <small class="au-field__note">"A tool call with no answer by then is cancelled on the server and reported to the agent."</small>
            </label>
            <button type="submit" class="au-button au-button--primary" data-testid="server-add">"Add server"</button>
            {move || error.get().map(|message| view! {
                <p class="au-servers__error" role="alert" data-testid="server-add-error">{message}</p>
            })}
        </form>
    }
}

#[component]
fn ServerItem(servers: ServersCtx, id: ServerId) -> impl IntoView {
    let field = {
        let id = id.clone();
        move |read: fn(&crate::state::servers::ServerRow) -> String| {
            let id = id.clone();
            move || servers.with_row(&id, read).unwrap_or_default()
        }
    };
    let name = field(|row| row.snapshot.name.clone());
    let url = field(|row| row.snapshot.config.url.clone());
    let transport = field(|row| row.snapshot.transport.map(|kind| kind.label().to_owned()).unwrap_or_default());
    let status = field(|row| status_text(&row.snapshot.status));
    let state = field(|row| StatusKind::of(&row.snapshot.status).as_str().to_owned());
    let latency = field(|row| row.last_call.as_ref().map(last_call_text).unwrap_or_default());
    let progress = field(|row| row.progress.as_ref().map(progress_text).unwrap_or_default());
    let warning = field(|row| row.warning.clone().unwrap_or_default());
    let instructions = field(|row| row.snapshot.instructions.clone().unwrap_or_default());
    let agent_name = field(|row| format!("The agent calls its tools {}_mcp_…", row.snapshot.tool_prefix));
    let timeout = field(|row| {
        format!("Calls time out after {} s", row.snapshot.config.call_timeout_ms(&McpOptions::default()) / 1_000)
    });
    let removing = {
        let id = id.clone();
        move || servers.with_row(&id, |row| row.removing).unwrap_or(true)
    };
    let reconnect = {
        let id = id.clone();
        move |_| servers.reconnect(&id)
    };
    let remove = {
        let id = id.clone();
        move |_| servers.remove(&id)
    };
    let status_class = {
        let state = state.clone();
        move || format!("au-server__status au-server__status--{}", state())
    };
    let id_attr = id.to_string();

    view! {
        <li class="au-server" data-testid="server" data-server-id=id_attr>
            <div class="au-server__head">
                <span class=move || format!("au-server__dot au-server__dot--{}", state()) aria-hidden="true"></span>
                <strong class="au-server__name" data-testid="server-name-label">{name.clone()}</strong>
                <span class="au-server__transport" data-testid="server-transport-label">{transport}</span>
            </div>
            <div class="au-server__url">{url}</div>
            <OptionalLine class="au-server__agent-name" testid="server-agent-name" text=agent_name />
            <OptionalLine class="au-server__timeout" testid="server-timeout-label" text=timeout />
            <p class=status_class data-testid="server-status" role="status">{status}</p>
            <OptionalLine class="au-server__latency" testid="server-latency" text=latency />
            <OptionalLine class="au-server__progress" testid="server-progress" text=progress />
            <OptionalLine class="au-server__warning" testid="server-warning" text=warning />
            <SignIn servers=servers id=id.clone() />
            <div class="au-server__actions">
                <button class="au-button" data-testid="server-reconnect" disabled=removing.clone() on:click=reconnect>"Reconnect"</button>
                <button class="au-button au-button--danger" data-testid="server-remove" disabled=removing on:click=remove>"Remove"</button>
            </div>
            {move || {
                let text = instructions();
                (!text.is_empty()).then(|| view! {
                    <details class="au-server__instructions">
                        <summary>"Server instructions"</summary>
                        <p>{text}</p>
                    </details>
                })
            }}
            <LogLevelSelect servers=servers id=id.clone() />
            <Approvals servers=servers id=id.clone() name />
            <ToolBrowser servers=servers id=id.clone() />
            <OffersBrowser servers=servers id=id />
        </li>
    }
}

/// The server's OAuth: "Sign in required" with a Sign in button after a 401, the issuer, scopes
/// and expiry once signed in, with Sign out.
#[component]
fn SignIn(servers: ServersCtx, id: ServerId) -> impl IntoView {
    let not_started = RwSignal::new(None::<String>);
    let view_id = id.clone();
    move || {
        let (sign_in_id, sign_out_id) = (id.clone(), id.clone());
        let sign_in = move |_| not_started.set(servers.sign_in(&sign_in_id).err());
        let sign_out = move |_| servers.sign_out(&sign_out_id);
        match servers.auth_view(&view_id) {
            AuthView::None => None,
            AuthView::SignInRequired { error } => Some(view! {
                <div class="au-server__auth" data-testid="server-auth" data-auth="sign-in-required">
                    <p class="au-server__auth-state">"Sign in required"</p>
                    {error.or_else(|| not_started.get()).or_else(|| servers.redirect_error()).map(|message| view! {
                        <p class="au-servers__error" role="alert" data-testid="server-auth-error">{message}</p>
                    })}
                    <button class="au-button au-button--primary" data-testid="server-sign-in" on:click=sign_in>"Sign in"</button>
                </div>
            }.into_any()),
            AuthView::SigningIn => Some(view! {
                <div class="au-server__auth" data-testid="server-auth" data-auth="signing-in">
                    <p class="au-server__auth-state">"Signing in… (finish in the sign-in window)"</p>
                </div>
            }.into_any()),
            AuthView::SignedIn { issuer, scope, expires_at_unix_ms } => Some(view! {
                <div class="au-server__auth" data-testid="server-auth" data-auth="signed-in">
                    <p class="au-server__auth-state">{format!("Signed in at {issuer}")}</p>
                    {scope.map(|scope| view! { <p class="au-server__auth-scope">{format!("Scopes: {scope}")}</p> })}
                    {expires_at_unix_ms.map(|at| view! { <p class="au-server__auth-expiry">{expiry_text(at)}</p> })}
                    <button class="au-button" data-testid="server-sign-out" on:click=sign_out>"Sign out"</button>
                </div>
            }.into_any()),
        }
    }
}

/// "Access token expires at 14:05:09" in the person's local time (refreshed before then).
fn expiry_text(unix_ms: f64) -> String {
    let date = js_sys::Date::new(&unix_ms.into());
    format!("Access token expires at {} (renewed automatically)", String::from(date.to_locale_time_string("default")))
}

/// A line shown only while `text` has something to say.
#[component]
fn OptionalLine(
    class: &'static str,
    testid: &'static str,
    text: impl Fn() -> String + Send + Sync + 'static,
) -> impl IntoView {
    move || {
        let text = text();
        (!text.is_empty()).then(|| view! { <p class=class data-testid=testid>{text}</p> })
    }
}

/// Each tool's name, title, description and pretty-printed input schema, re-rendered only when the
/// server's tool list is replaced.
#[component]
fn ToolBrowser(servers: ServersCtx, id: ServerId) -> impl IntoView {
    let revision = {
        let id = id.clone();
        Memo::new(move |_| servers.with_row(&id, |row| row.tools_revision).unwrap_or_default())
    };
    let unreadable = {
        let id = id.clone();
        move || servers.with_row(&id, |row| row.snapshot.unreadable_tools.clone()).unwrap_or_default()
    };

    view! {
        {move || {
            // Read, not just tracked: a memo nobody read is never computed, so it would never change.
            let _ = revision.get();
            let tools = servers.tools_of(&id);
            let count = tools.len();
            let items = tools
                .iter()
                .map(|tool| {
                    let schema = serde_json::to_string_pretty(&tool.input_schema).unwrap_or_default();
                    let title = tool.title.clone().filter(|title| title != &tool.name);
                    view! {
                        <li class="au-tool" data-testid="server-tool" data-tool=tool.name.clone()>
                            <code class="au-tool__name">{tool.name.clone()}</code>
                            {title.map(|title| view! { <span class="au-tool__title">{title}</span> })}
                            <p class="au-tool__description">{tool.description.clone()}</p>
                            <ToolApproval servers id=id.clone() tool=tool.name.clone()
                                facts=ToolFacts { read_only: tool.read_only, hints: tool.hints } />
                            <details class="au-tool__schema">
                                <summary>"Input schema"</summary>
                                <pre data-testid="server-tool-schema" tabindex="0">{schema}</pre>
                            </details>
                        </li>
                    }
                })
                .collect_view();
            (count > 0).then(|| view! {
                <details class="au-server__tools" data-testid="server-tools">
                    <summary>{format!("Tools ({count})")}</summary>
                    <ul class="au-server__tool-list">{items}</ul>
                </details>
            })
        }}
        {move || {
            let unreadable = unreadable();
            (!unreadable.is_empty()).then(|| view! {
                <details class="au-server__unreadable" data-testid="server-unreadable-tools">
                    <summary>{format!("{} tool(s) this client could not read", unreadable.len())}</summary>
                    <ul>{unreadable.into_iter().map(|reason| view! { <li>{reason}</li> }).collect_view()}</ul>
                </details>
            })
        }}
    }
}

/// For a server that declared logging: the least severe entries it should send to the console
/// (`logging/setLevel`, asked again on every connection); what it refuses shows under the select.
#[component]
fn LogLevelSelect(servers: ServersCtx, id: ServerId) -> impl IntoView {
    let offered = {
        let id = id.clone();
        move || servers.with_row(&id, |row| row.snapshot.offers.logging).unwrap_or(false)
    };
    let chosen = {
        let id = id.clone();
        move || servers.with_row(&id, |row| row.snapshot.config.log_level).flatten()
    };
    let refused = RwSignal::new(None::<String>);
    let choose = move |name: String| {
        let Some(level) = LogLevel::from_name(&name) else { return };
        let hub = servers.hub();
        let id = id.clone();
        leptos::task::spawn_local(async move {
            refused.set(hub.set_log_level(&id, level).await.err());
        });
    };
    move || {
        offered().then(|| {
            let chosen = chosen.clone();
            let choose = choose.clone();
            view! {
                <label class="au-field au-server__log-level">
                    <span>"Log level sent to the console"</span>
                    <select data-testid="server-log-level" on:change=move |event| choose(event_target_value(&event))>
                        <option value="" selected=chosen().is_none() disabled=true>"the server's default"</option>
                        {LogLevel::ALL.into_iter().map(|level| view! {
                            <option value=level.as_str() selected=chosen() == Some(level)>{level.as_str()}</option>
                        }).collect_view()}
                    </select>
                    {move || refused.get().map(|reason| view! {
                        <small class="au-field__note au-field__note--error" role="alert" data-testid="server-log-level-error">{reason}</small>
                    })}
                </label>
            }
        })
    }
}

/// The server's resources, resource templates and prompts (the agent reads the resources through
/// its `list_resources`/`read_resource` tools; the person may attach one to the next message; the
/// chat offers the prompts after `/`), and those this client could not read, with the reason.
#[component]
fn OffersBrowser(servers: ServersCtx, id: ServerId) -> impl IntoView {
    let id = StoredValue::new(id);
    let offers = move || id.with_value(|id| servers.with_row(id, |row| row.snapshot.offers.clone())).unwrap_or_default();
    let attachments = use_attachments();
    let refused = RwSignal::new(None::<String>);
    // Reads the resource now, so what is attached is what the person saw when they chose it.
    let attach = move |name: String, uri: String| {
        let Some(attachments) = attachments else { return };
        let Some(server) = id.with_value(|id| servers.with_row(id, |row| row.snapshot.tool_prefix.clone())) else {
            return;
        };
        let hub = servers.hub();
        leptos::task::spawn_local(async move {
            match hub.read_resource(&server, &uri, CancelToken::new()).await {
                Ok(result) => {
                    refused.set(None);
                    attachments.add(Attachment { server, name, uri, text: result.text_content() });
                }
                Err(error) => refused.set(Some(error.to_string())),
            }
        });
    };
    move || {
        let offers = offers();
        let resources = (!offers.resources.is_empty() || !offers.resource_templates.is_empty()).then(|| {
            let count = offers.resources.len() + offers.resource_templates.len();
            let listed = offers.resources.iter().map(|resource| {
                let kind = resource.mime_type.clone().unwrap_or_default();
                let (name, uri) = (resource.name.clone(), resource.uri.clone());
                let label = format!("Attach {name} to the next message");
                let button = attachments.is_some().then(|| view! {
                    <button type="button" class="au-link-button" data-testid="server-resource-attach" aria-label=label
                        on:click=move |_| attach(name.clone(), uri.clone())>"Attach"</button>
                });
                view! {
                    <li data-testid="server-resource">
                        <span class="au-tool__name">{resource.name.clone()}</span>" "
                        <code>{resource.uri.clone()}</code>" "<span class="au-tool__title">{kind}</span>" "{button}
                    </li>
                }
            }).collect_view();
            let templates = offers.resource_templates.iter().map(|template| view! {
                <li data-testid="server-resource-template">
                    <span class="au-tool__name">{template.name.clone()}</span>" "<code>{template.uri_template.clone()}</code>
                </li>
            }).collect_view();
            view! {
                <details class="au-server__tools" data-testid="server-resources">
                    <summary>{format!("Resources ({count})")}</summary>
                    {move || refused.get().map(|reason| view! {
                        <p class="au-servers__error" role="alert" data-testid="server-resource-error">{reason}</p>
                    })}
                    <ul class="au-server__tool-list">{listed}{templates}</ul>
                </details>
            }
        });
        let prompts = (!offers.prompts.is_empty()).then(|| {
            let count = offers.prompts.len();
            let listed = offers.prompts.iter().map(|prompt| view! {
                <li data-testid="server-prompt">
                    <code class="au-tool__name">{format!("/{}", prompt.name)}</code>" "
                    <span class="au-tool__description">{prompt.description.clone().unwrap_or_default()}</span>
                </li>
            }).collect_view();
            view! {
                <details class="au-server__tools" data-testid="server-prompts">
                    <summary>{format!("Prompts ({count}), offered in the chat after /")}</summary>
                    <ul class="au-server__tool-list">{listed}</ul>
                </details>
            }
        });
        let unreadable = (!offers.unreadable.is_empty()).then(|| view! {
            <details class="au-server__unreadable" data-testid="server-unreadable-offers">
                <summary>{format!("{} resource or prompt note(s)", offers.unreadable.len())}</summary>
                <ul>{offers.unreadable.iter().map(|reason| view! { <li>{reason.clone()}</li> }).collect_view()}</ul>
            </details>
        });
        view! { {resources}{prompts}{unreadable} }
    }
}

/// The approval choices remembered for the server: one for all its tools, each tool's own (set in
/// a chat card or below), and a reset that brings back the default.
#[component]
fn Approvals(servers: ServersCtx, id: ServerId, name: impl Fn() -> String + Send + Sync + 'static) -> impl IntoView {
    let rules = {
        let id = id.clone();
        move || servers.approvals(&id)
    };
    let set_server = {
        let id = id.clone();
        move |value: String| servers.set_server_approval(&id, ApprovalChoice::from_name(&value))
    };
    let reset = {
        let id = id.clone();
        move |_| servers.reset_approvals(&id)
    };
    let remembered = {
        let rules = rules.clone();
        move || rules().tools.into_iter().collect::<Vec<_>>()
    };
    let server_choice = {
        let rules = rules.clone();
        move || rules().server.map(ApprovalChoice::as_str).unwrap_or_default()
    };
    let label_id = format!("server-approval-{id}");
    let labelled_by = label_id.clone();
    view! {
        <section class="au-server__approvals" data-testid="server-approvals" aria-labelledby=labelled_by>
            // The server's name makes each server's region name its own.
            <p class="au-server__approvals-title" id=label_id>"Tool approval"<span class="au-visually-hidden">{move || format!(" for {}", name())}</span></p>
            <label class="au-field">
                <span>"All tools of this server"</span>
                <ChoiceSelect testid="server-approval-all" default_label="Default: ask before tools that may change things"
                    chosen=server_choice on_change=set_server />
            </label>
            {move || {
                let remembered = remembered();
                (!remembered.is_empty()).then(|| view! {
                    <ul class="au-server__approval-list" data-testid="server-approval-list">
                        {remembered.into_iter().map(|(tool, choice)| { let tool_attr = tool.clone(); view! {
                            <li data-testid="server-approval" data-tool=tool_attr>
                                <code>{tool}</code>": "<span data-testid="server-approval-choice">{choice.label()}</span>
                            </li>
                        } }).collect_view()}
                    </ul>
                })
            }}
            <Show when=move || !rules().is_empty()>
                <button type="button" class="au-button" data-testid="server-approvals-reset" on:click=reset.clone()>
                    "Reset approval choices"
                </button>
            </Show>
        </section>
    }
}

/// One tool's approval choice in the tool browser.
#[component]
fn ToolApproval(servers: ServersCtx, id: ServerId, tool: String, facts: ToolFacts) -> impl IntoView {
    let chosen = {
        let (id, tool) = (id.clone(), tool.clone());
        move || servers.approvals(&id).tools.get(&tool).map(|choice| choice.as_str()).unwrap_or_default()
    };
    let default_label = format!("Default: {}", default_choice(facts).label().to_lowercase());
    let set = move |value: String| servers.set_approval(&id, &tool, ApprovalChoice::from_name(&value));
    view! {
        <label class="au-field au-tool__approval">
            <span>"Approval"</span>
            <ChoiceSelect testid="server-tool-approval" default_label chosen on_change=set />
        </label>
    }
}

/// A select of the four approval choices plus "default" (the empty value).
#[component]
fn ChoiceSelect(
    testid: &'static str,
    #[prop(into)] default_label: String,
    chosen: impl Fn() -> &'static str + Send + Sync + Clone + 'static,
    on_change: impl Fn(String) + 'static,
) -> impl IntoView {
    let default_chosen = chosen.clone();
    view! {
        <select data-testid=testid on:change=move |event| on_change(event_target_value(&event))>
            <option value="" selected=move || default_chosen().is_empty()>{default_label}</option>
            {ApprovalChoice::ALL.into_iter().map(|choice| {
                let chosen = chosen.clone();
                view! { <option value=choice.as_str() selected=move || chosen() == choice.as_str()>{choice.label()}</option> }
            }).collect_view()}
        </select>
    }
}

/// The status a person reads: what is happening, and for failures the whole reason.
fn status_text(status: &ServerStatus) -> String {
    match status {
        ServerStatus::Connecting => "connecting\u{2026}".to_owned(),
        ServerStatus::Connected { tools: 1 } => "connected with 1 tool".to_owned(),
        ServerStatus::Connected { tools } => format!("connected with {tools} tools"),
        ServerStatus::Reconnecting { reason } => format!("reconnecting: {reason}"),
        ServerStatus::Failed { reason } => format!("failed: {reason}"),
    }
}

fn last_call_text(call: &LastCall) -> String {
    let outcome = match &call.outcome {
        CallOutcome::Ok => "ok".to_owned(),
        CallOutcome::ToolError => "the tool reported an error".to_owned(),
        CallOutcome::Failed(reason) => format!("failed: {reason}"),
        CallOutcome::Cancelled => "cancelled".to_owned(),
    };
    format!("last call: {} in {:.0} ms ({outcome})", call.tool, call.latency_ms)
}

fn progress_text(progress: &CallProgress) -> String {
    format!("{}: {}", progress.tool, progress.describe())
}

/// The status as a CSS modifier, from one match (never from a server's string).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StatusKind {
    Connecting,
    Connected,
    Failed,
}

impl StatusKind {
    fn of(status: &ServerStatus) -> StatusKind {
        match status {
            ServerStatus::Connecting | ServerStatus::Reconnecting { .. } => StatusKind::Connecting,
            ServerStatus::Connected { .. } => StatusKind::Connected,
            ServerStatus::Failed { .. } => StatusKind::Failed,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            StatusKind::Connecting => "connecting",
            StatusKind::Connected => "connected",
            StatusKind::Failed => "failed",
        }
    }
}

fn non_empty(text: String) -> Option<String> {
    let trimmed = text.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}
