//! The page's elicitor: a server's request for input (`elicitation/create`) waits here as a pending
//! form the chat shows, until the person accepts, declines or cancels it. A call that ends first
//! (Stop, its timeout) drops the request's future, which withdraws the form.

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::mcp::elicit::{ElicitationAnswer, ElicitationRequest, Elicitor};
use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;

/// One question waiting for the person.
struct PendingElicitation {
    id: u64,
    request: ElicitationRequest,
    answer: RefCell<Option<oneshot::Sender<ElicitationAnswer>>>,
}

/// Context handle for the pending questions; `Copy`.
#[derive(Clone, Copy)]
pub struct ElicitationCtx {
    pending: RwSignal<Vec<Rc<PendingElicitation>>, LocalStorage>,
    next_id: StoredValue<u64, LocalStorage>,
}

impl ElicitationCtx {
    fn new() -> ElicitationCtx {
        ElicitationCtx { pending: RwSignal::new_local(Vec::new()), next_id: StoredValue::new_local(0) }
    }

    /// The questions waiting, oldest first, with their ids (tracked).
    pub fn pending(&self) -> Vec<(u64, ElicitationRequest)> {
        self.pending.with(|pending| pending.iter().map(|item| (item.id, item.request.clone())).collect())
    }

    /// Sends the person's answer to the server that asked, and takes the form away.
    pub fn answer(&self, id: u64, answer: ElicitationAnswer) {
        let found = self.pending.with_untracked(|pending| pending.iter().find(|item| item.id == id).cloned());
        if let Some(sender) = found.and_then(|item| item.answer.borrow_mut().take()) {
            let _ = sender.send(answer);
        }
        self.withdraw(id);
    }

    fn withdraw(&self, id: u64) {
        self.pending.try_update(|pending| pending.retain(|item| item.id != id));
    }

    fn ask(&self, request: ElicitationRequest) -> (u64, oneshot::Receiver<ElicitationAnswer>) {
        let (sender, receiver) = oneshot::channel();
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        let item = Rc::new(PendingElicitation { id, request, answer: RefCell::new(Some(sender)) });
        self.pending.update(|pending| pending.push(item));
        (id, receiver)
    }
}

/// The [`Elicitor`] the page's MCP hub asks through. URL mode is not offered (so not declared).
pub struct PageElicitor(pub ElicitationCtx);

impl Elicitor for PageElicitor {
    fn supports_url(&self) -> bool {
        false
    }

    fn elicit(&self, request: ElicitationRequest) -> LocalBoxFuture<'static, ElicitationAnswer> {
        let ctx = self.0;
        let (id, receiver) = ctx.ask(request);
        let withdraw = Withdraw { ctx, id };
        Box::pin(async move {
            let _withdraw = withdraw;
            receiver.await.unwrap_or(ElicitationAnswer::Cancel)
        })
    }
}

/// Takes the form away however the question ends.
struct Withdraw {
    ctx: ElicitationCtx,
    id: u64,
}

impl Drop for Withdraw {
    fn drop(&mut self) {
        self.ctx.withdraw(self.id);
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
