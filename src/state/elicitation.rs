//! The page's elicitor: a server's request for input (`elicitation/create`) waits here as a pending
//! form (`state::pending`) the chat shows, until the person accepts, declines or cancels it. A call that ends first
//! (Stop, its timeout) drops the request's future, which withdraws the form.

use autoui_core::mcp::elicit::{ElicitationAnswer, ElicitationRequest, Elicitor};
use futures::future::LocalBoxFuture;
use leptos::prelude::*;

use crate::state::pending::PendingQueue;

/// Context handle for the pending questions; `Copy`.
pub type ElicitationCtx = PendingQueue<ElicitationRequest, ElicitationAnswer>;

/// The [`Elicitor`] the page's MCP hub asks through, forms and pages to open (URL mode) alike.
pub struct PageElicitor(pub ElicitationCtx);

impl Elicitor for PageElicitor {
    fn supports_url(&self) -> bool {
        true
    }

    fn elicit(&self, request: ElicitationRequest) -> LocalBoxFuture<'static, ElicitationAnswer> {
        self.0.ask(request, ElicitationAnswer::Cancel)
    }
}

pub fn provide_elicitation() -> ElicitationCtx {
    let ctx = ElicitationCtx::new();
    provide_context(ctx);
    ctx
}

pub fn use_elicitation() -> Option<ElicitationCtx> {
    use_context::<ElicitationCtx>()
}
