//! The page's approver: a tool call that needs the person's approval (`autoui_core::approval`) waits
//! here as a pending card (`state::pending`) the chat shows (`ui/approval.rs`) until they allow or deny it. Stop drops
//! the call's future, which withdraws the card. Remembered choices are read from and written to the
//! server's config in the MCP hub, which saves it with the other server configs.

use std::rc::Rc;

use autoui_core::approval::{ApprovalAnswer, ApprovalChoice, ApprovalRequest, Approver};
use autoui_core::ids::ServerId;
use autoui_core::recipes::validate::SchemaValidator;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;

use crate::state::pending::PendingQueue;
use crate::state::servers::ServersCtx;

/// Context handle for the pending approvals; `Copy`.
#[derive(Clone, Copy)]
pub struct ApprovalCtx {
    queue: PendingQueue<ApprovalRequest, ApprovalAnswer>,
    /// Checks edited arguments against the tool's `inputSchema`.
    validator: StoredValue<Rc<dyn SchemaValidator>, LocalStorage>,
}

impl ApprovalCtx {
    fn new(validator: Rc<dyn SchemaValidator>) -> ApprovalCtx {
        ApprovalCtx { queue: PendingQueue::new(), validator: StoredValue::new_local(validator) }
    }

    /// The calls waiting, oldest first, with their ids (tracked).
    pub fn pending(&self) -> Vec<(u64, ApprovalRequest)> {
        self.queue.pending()
    }

    pub fn validator(&self) -> Rc<dyn SchemaValidator> {
        self.validator.get_value()
    }

    /// Sends the person's answer to the waiting call, and takes the card away.
    pub fn answer(&self, id: u64, answer: ApprovalAnswer) {
        self.queue.answer(id, answer);
    }
}

/// The [`Approver`] the agent's dispatcher waits on.
pub struct PageApprover {
    pub ctx: ApprovalCtx,
    pub servers: ServersCtx,
}

impl Approver for PageApprover {
    fn remembered(&self, server: &ServerId, tool: &str) -> Option<ApprovalChoice> {
        self.servers.hub().approvals(server).choice_for(tool)
    }

    fn remember(&self, server: &ServerId, tool: &str, choice: ApprovalChoice) {
        self.servers.hub().update_approvals(server, |rules| rules.set_tool(tool, Some(choice)));
    }

    fn ask(&self, request: ApprovalRequest) -> LocalBoxFuture<'static, ApprovalAnswer> {
        // The card went away without an answer (the page is closing): nothing runs.
        self.ctx.queue.ask(request, ApprovalAnswer::Deny)
    }
}

pub fn provide_approval(validator: Rc<dyn SchemaValidator>) -> ApprovalCtx {
    let ctx = ApprovalCtx::new(validator);
    provide_context(ctx);
    ctx
}

pub fn use_approval() -> Option<ApprovalCtx> {
    use_context::<ApprovalCtx>()
}
