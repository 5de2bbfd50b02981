//! Questions waiting for the person: a tool call to approve, a server's form, a server's sampling
//! request. Each waits as a pending card the chat shows until the person answers it; the asking
//! future dropped first (Stop, the call's timeout, the call ending) takes the card away.

use std::cell::RefCell;
use std::rc::Rc;

use futures::channel::oneshot;
use futures::future::LocalBoxFuture;
use leptos::prelude::*;

/// One question and the way back to whoever asked it.
struct Pending<Q, A> {
    id: u64,
    question: Q,
    answer: RefCell<Option<oneshot::Sender<A>>>,
}

/// The questions of one kind waiting, oldest first; `Copy`.
pub struct PendingQueue<Q: 'static, A: 'static> {
    items: RwSignal<Vec<Rc<Pending<Q, A>>>, LocalStorage>,
    next_id: StoredValue<u64, LocalStorage>,
}

impl<Q, A> Clone for PendingQueue<Q, A> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Q, A> Copy for PendingQueue<Q, A> {}

impl<Q: Clone + 'static, A: 'static> Default for PendingQueue<Q, A> {
    fn default() -> Self {
        Self::new()
    }
}

impl<Q: Clone + 'static, A: 'static> PendingQueue<Q, A> {
    pub fn new() -> PendingQueue<Q, A> {
        PendingQueue { items: RwSignal::new_local(Vec::new()), next_id: StoredValue::new_local(0) }
    }

    /// The questions waiting, oldest first, with their ids (tracked).
    pub fn pending(&self) -> Vec<(u64, Q)> {
        self.items.with(|items| items.iter().map(|item| (item.id, item.question.clone())).collect())
    }

    /// Sends the person's answer to whoever asked, and takes the card away.
    pub fn answer(&self, id: u64, answer: A) {
        let found = self.items.with_untracked(|items| items.iter().find(|item| item.id == id).cloned());
        if let Some(sender) = found.and_then(|item| item.answer.borrow_mut().take()) {
            let _ = sender.send(answer);
        }
        self.withdraw(id);
    }

    /// Shows `question` until it is answered; `unanswered` is the answer when the card goes away
    /// without one (the page is closing). Dropping the future withdraws the card.
    pub fn ask(&self, question: Q, unanswered: A) -> LocalBoxFuture<'static, A> {
        let (sender, receiver) = oneshot::channel();
        let id = self.next_id.get_value();
        self.next_id.set_value(id + 1);
        let item = Rc::new(Pending { id, question, answer: RefCell::new(Some(sender)) });
        self.items.update(|items| items.push(item));
        let withdraw = Withdraw { queue: *self, id };
        Box::pin(async move {
            let _withdraw = withdraw;
            receiver.await.unwrap_or(unanswered)
        })
    }

    fn withdraw(&self, id: u64) {
        self.items.try_update(|items| items.retain(|item| item.id != id));
    }
}

/// Takes the card away however the wait ends.
struct Withdraw<Q: Clone + 'static, A: 'static> {
    queue: PendingQueue<Q, A>,
    id: u64,
}

impl<Q: Clone + 'static, A: 'static> Drop for Withdraw<Q, A> {
    fn drop(&mut self) {
        self.queue.withdraw(self.id);
    }
}
