//! Wires a session to the fakes: scripted model, fake MCP hub, fake autoui, virtual clock.

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::agent::buffer::ResultBuffer;
use autoui_core::agent::event::AgentEvent;
use autoui_core::agent::run::RunSummary;
use autoui_core::agent::session::{AgentConfig, AgentDeps, AgentSession, UserTurn};
use autoui_core::cancel::CancelToken;
use autoui_core::settings::Settings;
use autoui_core::tool::LocalServer;
use futures::executor::block_on;

use super::autoui::FakeAutoui;
use super::clock::FakeClock;
use super::mcp::FakeMcp;
use super::model::{ScriptedModel, Step};

pub struct Harness {
    pub session: AgentSession,
    pub model: Rc<ScriptedModel>,
    pub mcp: Rc<FakeMcp>,
    pub autoui: Rc<FakeAutoui>,
    pub clock: FakeClock,
    pub results: Rc<ResultBuffer>,
    pub events: RefCell<Vec<AgentEvent>>,
    pub settings: Settings,
}

impl Harness {
    pub fn new(steps: impl IntoIterator<Item = Step>, mcp: FakeMcp) -> Harness {
        Harness::build(steps, mcp, AgentConfig::default(), Vec::new())
    }

    /// `extra` local servers come after autoui.
    pub fn build(
        steps: impl IntoIterator<Item = Step>,
        mcp: FakeMcp,
        config: AgentConfig,
        extra: Vec<Rc<dyn LocalServer>>,
    ) -> Harness {
        let clock = FakeClock::new();
        let results = Rc::new(ResultBuffer::new());
        let autoui = Rc::new(FakeAutoui::new(results.clone()));
        let model = Rc::new(ScriptedModel::new(steps));
        // Slow tools sleep on the session's clock, so a test can tell how long the calls took.
        let mcp = Rc::new(mcp.with_clock(Rc::new(clock.clone())));
        let mut local: Vec<Rc<dyn LocalServer>> = vec![autoui.clone()];
        local.extend(extra);
        let deps = AgentDeps {
            model: model.clone(),
            local,
            remote: mcp.clone(),
            clock: Rc::new(clock.clone()),
            results: results.clone(),
        };
        Harness {
            session: AgentSession::new(deps, config),
            model,
            mcp,
            autoui,
            clock,
            results,
            events: RefCell::new(Vec::new()),
            settings: Settings { api_key: "test-key".to_owned(), ..Settings::default() },
        }
    }

    pub fn run(&mut self, text: &str) -> RunSummary {
        self.run_turn(UserTurn::text(text), CancelToken::new())
    }

    pub fn run_turn(&mut self, turn: UserTurn, cancel: CancelToken) -> RunSummary {
        block_on(self.session.run(turn, &self.settings, cancel, &self.events))
    }

    pub fn events(&self) -> Vec<AgentEvent> {
        self.events.borrow().clone()
    }
}
