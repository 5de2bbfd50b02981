//! The page's one `autoui` tool server, shared by the in-app agent and the WebMCP page tools, with
//! the result buffer its `recall` tool reads.

use std::rc::Rc;

use autoui_core::agent::buffer::ResultBuffer;
use autoui_core::autoui::AutoUi;
use leptos::prelude::*;

use crate::adapters::clock::BrowserRandom;
use crate::state::canvas::CanvasCtx;

/// Context handle; the server itself is `!Send`, so it lives in local storage of the reactive arena.
#[derive(Clone, Copy)]
pub struct AutoUiCtx {
    server: StoredValue<Rc<AutoUi>, LocalStorage>,
    results: StoredValue<Rc<ResultBuffer>, LocalStorage>,
}

impl AutoUiCtx {
    pub fn server(&self) -> Rc<AutoUi> {
        self.server.get_value()
    }

    /// The buffer the agent session fills and `recall` reads: the same `Rc` for both.
    pub fn results(&self) -> Rc<ResultBuffer> {
        self.results.get_value()
    }
}

pub fn provide_autoui(canvas: CanvasCtx) -> AutoUiCtx {
    let results = Rc::new(ResultBuffer::new());
    let server = Rc::new(AutoUi::new(Rc::new(canvas), results.clone(), Rc::new(BrowserRandom)));
    let ctx = AutoUiCtx { server: StoredValue::new_local(server), results: StoredValue::new_local(results) };
    provide_context(ctx);
    ctx
}

pub fn use_autoui() -> AutoUiCtx {
    expect_context::<AutoUiCtx>()
}
