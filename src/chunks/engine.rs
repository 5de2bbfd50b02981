//! The engine chunk: the agent loop and its providers, the tool servers, WebMCP, the MCP servers and
//! their panel, the recipes browser, the chat's `/` prompt picker and attachments bar, the console, servers' questions (forms, pages
//! to open, sampling requests) and approval cards, the settings sections beyond the provider and key, a bound widget's source editor and the servers a dashboard's bindings need (what it brings
//! and how the page waits for it: `state::engine`).

use leptos::prelude::*;

use crate::deferred::part;
use crate::state::agent::run_turn;
use crate::state::approval::use_approval;
use crate::state::elicitation::use_elicitation;
use crate::state::engine::{Engine, start};
use crate::state::sampling::use_sampling;
use crate::ui::approval::ApprovalCards;
use crate::ui::attachments::AttachmentsBar;
use crate::ui::console::ConsolePanel;
use crate::ui::elicitation::ElicitationForms;
use crate::ui::needed_servers::NeededServers;
use crate::ui::prompts::PromptPicker;
use crate::ui::recipes::RecipesBrowser;
use crate::ui::sampling::SamplingCards;
use crate::ui::servers::ServersDrawer;
use crate::ui::settings_agent::AgentSettings;
use crate::widgets::mcp_app::ViewFrames;
use crate::ui::source_editor::SourceEditor;

part! {
    #[chunk(engine, "the agent", styles = "engine.css")]
    pub fn engine() -> Part<Engine> {
        Engine {
            start: |canvas| {
                start(canvas);
                ViewFrames::provide();
            },
            run: run_turn,
            servers_drawer: |open| view! { <ServersDrawer open /> }.into_any(),
            console_drawer: |open| view! { <ConsolePanel open /> }.into_any(),
            server_questions: || {
                view! {
                    {use_elicitation().map(|ctx| view! { <ElicitationForms ctx /> })}
                    {use_sampling().map(|ctx| view! { <SamplingCards ctx /> })}
                }
                .into_any()
            },
            prompt_picker: |draft, picking| view! { <PromptPicker draft picking /> }.into_any(),
            attachments_bar: || view! { <AttachmentsBar /> }.into_any(),
            approval_cards: || match use_approval() {
                Some(ctx) => view! { <ApprovalCards ctx /> }.into_any(),
                None => ().into_any(),
            },
            settings_sections: |open| view! { <AgentSettings open /> }.into_any(),
            recipes_page: || view! { <RecipesBrowser /> }.into_any(),
            source_editor: |id, close| view! { <SourceEditor id close /> }.into_any(),
            needed_servers: |open_servers| view! { <NeededServers open_servers /> }.into_any(),
        }
    }
}
