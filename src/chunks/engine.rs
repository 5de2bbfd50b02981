//! The engine chunk: the agent loop and its providers, the tool servers, WebMCP, the MCP servers and
//! their panel, and the console (what it brings and how the page waits for it: `state::engine`).

use leptos::prelude::*;

use crate::deferred::part;
use crate::state::agent::run_turn;
use crate::state::engine::{Engine, start};
use crate::ui::console::ConsolePanel;
use crate::ui::servers::ServersDrawer;

part! {
    #[chunk(engine, "the agent")]
    pub fn engine() -> Part<Engine> {
        Engine {
            start,
            run: run_turn,
            servers_drawer: |open| view! { <ServersDrawer open /> }.into_any(),
            console_drawer: |open| view! { <ConsolePanel open /> }.into_any(),
        }
    }
}
