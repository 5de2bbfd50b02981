//! The page's approver: a tool call that needs the person's approval (`autoui_core::approval`) waits
//! here as a pending card the chat shows (`ui/approval.rs`) until they allow or deny it. Stop drops
//! the call's future, which withdraws the card. Remembered choices are read from and written to the
//! server's config in the MCP hub, which saves it with the other server configs.

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::approval::{ApprovalAnswer, ApprovalChoice, ApprovalRequest, Approver};
use autoui_core::ids::ServerId;
use autoui_core::recipes::validate::SchemaValidator;
use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;

use crate::state::servers::ServersCtx;

/// One call waiting for the person.
struct PendingApproval {
    id: u64,
    request: ApprovalRequest,
    answer: RefCell<Option<oneshot::Sender<ApprovalAnswer>>>,
}

/// Context handle for the pending approvals; `Copy`.
#[derive(Clone, Copy)]
pub struct ApprovalCtx {
    pending: RwSignal<Vec<Rc<PendingApproval>>, LocalStorage>,
    next_id: StoredValue<u64, LocalStorage>,
    /// Checks edited arguments against the tool's `inputSchema`.
    validator: StoredValue<Rc<dyn SchemaValidator>, LocalStorage>,
}

impl ApprovalCtx {
    fn new(validator: Rc<dyn SchemaValidator>) -> ApprovalCtx {
        ApprovalCtx {
            pending: RwSignal::new_local(Vec::new()),
            next_id: StoredValue::new_local(0),
            validator: StoredValue::new_local(validator),
        }
    }

    /// The calls waiting, oldest first, with their ids (tracked).
    pub fn pending(&self) -> Vec<(u64, ApprovalRequest)> {
        self.pending.with(|pending| pending.iter().map(|item| (item.id, item.request.clone())).collect())
    }

    pub fn validator(&self) -> Rc<dyn SchemaValidator> {
        self.validator.get_value()
    }

    /// Sends the person's answer to the waiting call, and takes the card away.
    pub fn answer(&self, id: u64, answer: ApprovalAnswer) {
        let found = self.pending.with_untracked(|pending| pending.iter().find(|item| item.id == id).cloned());
        if let Some(sender) = found.and_then(|item| item.answer.borrow_mut().take()) {
            let _ = sender.send(answer);
        }
        self.withdraw(id);
    }

    fn withdraw(&self, id: u64) {
        self.pending.try_update(|pending| pending.retain(|item| item.id != id));
    }

    fn ask(&self, request: ApprovalRequest) -> (u64, oneshot::Receiver<ApprovalAnswer>) {
        let (sender, receiver) = oneshot::channel();
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        let item = Rc::new(PendingApproval { id, request, answer: RefCell::new(Some(sender)) });
        self.pending.update(|pending| pending.push(item));
        (id, receiver)
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
        let ctx = self.ctx;
        let (id, receiver) = ctx.ask(request);
        let withdraw = Withdraw { ctx, id };
        Box::pin(async move {
            let _withdraw = withdraw;
            // The card went away without an answer (the page is closing): nothing runs.
            receiver.await.unwrap_or(ApprovalAnswer::Deny)
        })
    }
}

/// Takes the card away however the wait ends.
struct Withdraw {
    ctx: ApprovalCtx,
    id: u64,
}

impl Drop for Withdraw {
    fn drop(&mut self) {
        self.ctx.withdraw(self.id);
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
