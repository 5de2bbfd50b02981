//! The recipes browser: every widget recipe and every flow recipe the page's data servers offer,
//! and every recipe connected MCP servers list, searchable; a widget recipe shows its example rendered live (and can be put on the canvas), its
//! guidance and its JSON Schema; a flow recipe can be handed to the agent.

use std::rc::Rc;
use std::sync::Arc;

use autoui_core::cancel::CancelToken;
use autoui_core::canvas::op::Op;
use autoui_core::ids::BlockId;
use autoui_core::dispatch::alias::RecipeRole;
use autoui_core::dispatch::catalog::Catalog;
use autoui_core::ids::ServerId;
use autoui_core::mcp::hub::ServerStatus;
use autoui_core::recipes::listing::{parse_recipe_list, recipe_body};
use autoui_core::provenance::ImageSources;
use autoui_core::recipes::registry;
use autoui_core::remote::RemoteServers;
use autoui_core::tool::{CallContext, LocalServer, Origin};
use autoui_core::widget_kind::WidgetKind;
use leptos::prelude::*;
use serde_json::{Value, json};

use crate::adapters::clock::BrowserRandom;
use crate::state::agent::use_agent;
use crate::state::canvas::use_canvas;
use crate::state::engine::DataServersCtx;
use crate::state::notices::use_notices;
use crate::state::servers::use_servers;
use crate::ui::views::{render_widget, safe_html};
use crate::widgets::WidgetProps;

/// A flow recipe from a data server of this page or from a remote MCP server.
#[derive(Clone, Debug, PartialEq)]
struct Flow {
    server: String,
    name: String,
    description: String,
    source: FlowSource,
}

#[derive(Clone, Debug, PartialEq)]
enum FlowSource {
    Local,
    /// A connected MCP server, and the real name of its tool that reads one recipe (if it has one).
    Remote { server: ServerId, get_tool: Option<String> },
}

#[derive(Clone, Debug, PartialEq)]
enum Selected {
    Widget(WidgetKind),
    Flow(Flow),
}

fn context() -> CallContext {
    CallContext { origin: Origin::User, cancel: CancelToken::new() }
}

async fn list_flows(server: Rc<dyn LocalServer>) -> Vec<Flow> {
    let result = server.call("list_recipes", json!({}), context()).await;
    parse_recipe_list(&result)
        .into_iter()
        .map(|recipe| Flow {
            server: server.name().to_owned(),
            name: recipe.name,
            description: recipe.description,
            source: FlowSource::Local,
        })
        .collect()
}

/// The recipes of every connected MCP server that has a recipe-listing tool.
async fn remote_flows(remote: Rc<dyn RemoteServers>) -> Vec<Flow> {
    let catalog = Catalog::build(&[], &remote.servers());
    let mut flows = Vec::new();
    for server in catalog.servers().iter().filter(|server| server.is_ready()) {
        let Some(list) = server.recipe_tool(RecipeRole::List) else { continue };
        let Ok(result) = remote.call_tool(&server.id, &list.real, json!({}), CancelToken::new()).await else { continue };
        let get_tool = server.recipe_tool(RecipeRole::Get).map(|tool| tool.real.clone());
        flows.extend(parse_recipe_list(&result).into_iter().map(|recipe| Flow {
            server: server.name.clone(),
            name: recipe.name,
            description: recipe.description,
            source: FlowSource::Remote { server: server.id.clone(), get_tool: get_tool.clone() },
        }));
    }
    flows
}

async fn flow_body(flow: Flow, local: Option<Rc<dyn LocalServer>>, remote: Rc<dyn RemoteServers>) -> String {
    let args = json!({ "name": flow.name });
    match (&flow.source, local) {
        (FlowSource::Local, Some(server)) => recipe_body(&server.call("get_recipe", args, context()).await),
        (FlowSource::Local, None) => "This server is no longer available.".to_owned(),
        (FlowSource::Remote { get_tool: None, .. }, _) => {
            "This server lists its recipes but has no tool to read one; ask the agent to use it.".to_owned()
        }
        (FlowSource::Remote { server, get_tool: Some(tool) }, _) => {
            match remote.call_tool(server, tool, args, CancelToken::new()).await {
                Ok(result) => recipe_body(&result),
                Err(error) => format!("The recipe could not be read: {error}"),
            }
        }
    }
}

fn matches(query: &str, fields: &[&str]) -> bool {
    let query = query.trim().to_lowercase();
    query.is_empty() || fields.iter().any(|field| field.to_lowercase().contains(&query))
}

#[component]
fn WidgetDetail(kind: WidgetKind) -> impl IntoView {
    let canvas = use_canvas();
    let notices = use_notices();
    let Some(recipe) = registry().get(kind) else {
        return view! { <p>"This widget has no recipe."</p> }.into_any();
    };
    let example = Arc::new(recipe.examples.first().cloned().unwrap_or(Value::Null));
    let inserted = example.clone();
    let insert = move |_| {
        let op = Op::Add { id: BlockId::generate(&BrowserRandom), kind, data: inserted.clone(), layout: None, style: Default::default() };
        match canvas.apply(op, Origin::User) {
            Ok(_) => notices.info(format!("Added the {kind} example to the canvas.")),
            Err(error) => notices.error(format!("The {kind} example could not be added: {error}")),
        }
    };
    let props = WidgetProps {
        id: BlockId::new(format!("recipe_preview_{}", kind.as_str().replace('-', "_"))),
        data: Signal::stored(example),
        emit: Callback::new(|_| {}),
    };
    let schema = serde_json::to_string_pretty(&*recipe.schema).unwrap_or_default();
    view! {
        <article class="au-recipe" data-testid="recipe-detail">
            <header class="au-recipe__header">
                <h2>{kind.as_str()}</h2>
                <p>{recipe.description.clone()}</p>
                <p class="au-recipe__tags">{recipe.tags.iter().map(|tag| view! { <span class="au-recipe__tag">{tag.clone()}</span> }).collect_view()}</p>
                <button class="au-button au-button--primary" data-testid="recipe-insert" on:click=insert>"Add this example to the canvas"</button>
            </header>
            <div class="au-recipe__preview au-widget" data-testid="recipe-preview">{render_widget(kind, props)}</div>
            <div class="au-recipe__body au-markdown" inner_html=move || safe_html(&recipe.body, ImageSources::Any)></div>
            <details class="au-recipe__schema">
                <summary>"JSON Schema of the params"</summary>
                <pre tabindex="0">{schema}</pre>
            </details>
        </article>
    }
    .into_any()
}

#[component]
fn FlowDetail(flow: Flow) -> impl IntoView {
    let servers = expect_context::<DataServersCtx>();
    let remote = use_servers().remote();
    let agent = use_agent();
    let local = servers.0.with_value(|list| list.iter().find(|s| s.name() == flow.server).cloned());
    let fetched = flow.clone();
    let body = LocalResource::new(move || flow_body(fetched.clone(), local.clone(), remote.clone()));
    let ask = {
        let flow = flow.clone();
        move |_| agent.send(format!("Follow the {} recipe \u{201c}{}\u{201d} to build this dashboard.", flow.server, flow.name))
    };
    view! {
        <article class="au-recipe" data-testid="recipe-detail">
            <header class="au-recipe__header">
                <h2>{flow.name.clone()}</h2>
                <p>{format!("{} \u{b7} from the {} server", flow.description, flow.server)}</p>
                <button class="au-button au-button--primary" data-testid="recipe-ask" on:click=ask>"Ask the agent to build it"</button>
            </header>
            <Suspense fallback=|| view! { <p>"Loading\u{2026}"</p> }>
                {move || body.get().map(|text| view! { <div class="au-recipe__body au-markdown" inner_html=move || safe_html(&text, ImageSources::Any)></div> })}
            </Suspense>
        </article>
    }
}

#[component]
pub fn RecipesBrowser() -> impl IntoView {
    let servers = expect_context::<DataServersCtx>();
    let remote_servers = use_servers();
    let query = RwSignal::new(String::new());
    let selected = RwSignal::new(Selected::Widget(WidgetKind::StatCard));
    // The connected servers and their tool lists: recipes are listed again only when these change.
    let connected = Memo::new(move |_| {
        remote_servers
            .ids()
            .into_iter()
            .filter_map(|id| remote_servers.with_row(&id, |row| (matches!(row.snapshot.status, ServerStatus::Connected { .. }), row.tools_revision)).map(|state| (id, state)))
            .filter(|(_, (connected, _))| *connected)
            .collect::<Vec<_>>()
    });
    let flows = LocalResource::new(move || {
        let list = servers.0.get_value();
        let remote = remote_servers.remote();
        connected.track();
        async move {
            let mut all = Vec::new();
            for server in list {
                all.extend(list_flows(server).await);
            }
            all.extend(remote_flows(remote).await);
            all
        }
    });
    let widgets = move || {
        let query = query.get();
        registry()
            .all()
            .iter()
            .filter(|r| matches(&query, &[r.kind.as_str(), &r.description, &r.tags.join(" ")]))
            .map(|r| (r.kind, r.description.clone()))
            .collect::<Vec<_>>()
    };
    // The list shows the recipe chosen at first (below the fold of a phone's short list), and a newly
    // chosen recipe is read from its top, not from where the one before was scrolled to.
    let list = NodeRef::<leptos::html::Nav>::new();
    let detail = NodeRef::<leptos::html::Div>::new();
    Effect::new(move |shown: Option<Selected>| {
        let chosen = selected.get();
        match (shown, list.get(), detail.get()) {
            (None, Some(list), _) => request_animation_frame(move || {
                if let Ok(Some(item)) = list.query_selector(".au-recipes__item[aria-current]") {
                    let options = web_sys::ScrollIntoViewOptions::new();
                    options.set_block(web_sys::ScrollLogicalPosition::Nearest);
                    item.scroll_into_view_with_scroll_into_view_options(&options);
                }
            }),
            (Some(before), _, Some(detail)) if before != chosen => detail.set_scroll_top(0),
            _ => {}
        }
        chosen
    });
    let matching_flows = move || {
        let query = query.get();
        flows.get().unwrap_or_default().into_iter().filter(|f| matches(&query, &[&f.name, &f.description, &f.server])).collect::<Vec<_>>()
    };
    view! {
        <section class="au-recipes" data-testid="recipes" aria-label="Recipes">
            <div class="au-recipes__layout">
                <nav class="au-recipes__list" aria-label="Recipe list" node_ref=list>
                    <input type="search" class="au-recipes__search" placeholder="Search recipes" aria-label="Search recipes"
                        data-testid="recipes-search" prop:value=move || query.get() on:input=move |e| query.set(event_target_value(&e)) />
                    <h2>"Widgets"</h2>
                    <ul>
                        <For each=widgets key=|(kind, _)| *kind let((kind, description))>
                            <li>
                                <button class="au-recipes__item" data-testid=format!("recipe-{kind}")
                                    aria-current=move || (selected.get() == Selected::Widget(kind)).then_some("true")
                                    on:click=move |_| selected.set(Selected::Widget(kind))>
                                    <strong>{kind.as_str()}</strong><small>{description}</small>
                                </button>
                            </li>
                        </For>
                    </ul>
                    <h2>"Data recipes"</h2>
                    <ul>
                        <For each=matching_flows key=|flow| (flow.server.clone(), flow.name.clone()) let(flow)>
                            {
                                let chosen = flow.clone();
                                let current = flow.clone();
                                view! {
                                    <li>
                                        <button class="au-recipes__item" data-testid=format!("recipe-flow-{}", flow.name)
                                            aria-current=move || (selected.get() == Selected::Flow(current.clone())).then_some("true")
                                            on:click=move |_| selected.set(Selected::Flow(chosen.clone()))>
                                            <strong>{flow.name.clone()}</strong><small>{format!("{} \u{b7} {}", flow.server, flow.description)}</small>
                                        </button>
                                    </li>
                                }
                            }
                        </For>
                    </ul>
                </nav>
                <div class="au-recipes__detail" node_ref=detail>
                    {move || match selected.get() {
                        Selected::Widget(kind) => view! { <WidgetDetail kind /> }.into_any(),
                        Selected::Flow(flow) => view! { <FlowDetail flow /> }.into_any(),
                    }}
                </div>
            </div>
        </section>
    }
}
