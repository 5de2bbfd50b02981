//! A cancellation token without a runtime: Stop in the UI cancels it, and every await that
//! matters (LLM request, tool call, retry sleep) races against [`CancelToken::cancelled`].

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

#[derive(Default)]
struct State {
    cancelled: bool,
    wakers: Vec<Waker>,
}

/// Cheap to clone; all clones share one state.
#[derive(Clone, Default)]
pub struct CancelToken(Rc<RefCell<State>>);

impl CancelToken {
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    pub fn cancel(&self) {
        let wakers = {
            let mut state = self.0.borrow_mut();
            state.cancelled = true;
            std::mem::take(&mut state.wakers)
        };
        for waker in wakers {
            waker.wake();
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.borrow().cancelled
    }

    /// Resolves once [`CancelToken::cancel`] has been called.
    pub fn cancelled(&self) -> Cancelled {
        Cancelled(self.clone())
    }

    /// Runs `work` unless the token is cancelled first; `None` means it was cancelled.
    pub async fn run<T>(&self, work: impl Future<Output = T>) -> Option<T> {
        use futures::future::{Either, select};
        let work = std::pin::pin!(work);
        match select(work, self.cancelled()).await {
            Either::Left((value, _)) => Some(value),
            Either::Right(((), _)) => None,
        }
    }
}

impl std::fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CancelToken").field("cancelled", &self.is_cancelled()).finish()
    }
}

/// The future returned by [`CancelToken::cancelled`].
pub struct Cancelled(CancelToken);

impl Future for Cancelled {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut state = self.0.0.borrow_mut();
        if state.cancelled {
            Poll::Ready(())
        } else {
            if !state.wakers.iter().any(|w| w.will_wake(cx.waker())) {
                state.wakers.push(cx.waker().clone());
            }
            Poll::Pending
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;

    #[test]
    fn run_returns_the_value_when_not_cancelled() {
        let token = CancelToken::new();
        assert_eq!(block_on(token.run(async { 7 })), Some(7));
    }

    #[test]
    fn run_returns_none_once_cancelled_even_if_work_never_finishes() {
        let token = CancelToken::new();
        let canceller = token.clone();
        let result = block_on(async {
            let pending = futures::future::pending::<u8>();
            let work = token.run(pending);
            let cancel_soon = async {
                canceller.cancel();
            };
            futures::join!(work, cancel_soon).0
        });
        assert_eq!(result, None);
        assert!(token.is_cancelled());
    }
}
