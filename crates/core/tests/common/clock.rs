//! A virtual clock: sleeps complete in deadline order, advancing time instantly, so timeouts and
//! backoff are tested without waiting. `slept` records every requested sleep.
//!
//! Time only moves when nothing else can: the earliest sleep first yields a few times, so other
//! futures of a `join!` (a test pressing Stop, say) run before a timeout fires.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use autoui_core::ports::Clock;
use futures::future::LocalBoxFuture;

#[derive(Default)]
struct State {
    now: f64,
    next_id: u64,
    /// Registered, unfinished sleeps by (deadline, id).
    timers: BTreeMap<(u64, u64), Option<Waker>>,
    slept: Vec<u32>,
}

#[derive(Clone, Default)]
pub struct FakeClock(Rc<RefCell<State>>);

impl FakeClock {
    pub fn new() -> FakeClock {
        FakeClock::default()
    }

    /// Every sleep requested so far, in milliseconds.
    pub fn slept(&self) -> Vec<u32> {
        self.0.borrow().slept.clone()
    }

    pub fn advance(&self, ms: f64) {
        self.0.borrow_mut().now += ms;
    }
}

impl Clock for FakeClock {
    fn now_ms(&self) -> f64 {
        self.0.borrow().now
    }

    fn unix_ms(&self) -> f64 {
        1_767_225_600_000.0 + self.now_ms()
    }

    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        let mut state = self.0.borrow_mut();
        state.slept.push(ms);
        state.next_id += 1;
        let key = (state.now as u64 + u64::from(ms), state.next_id);
        Box::pin(Sleep { clock: self.0.clone(), key, registered: false, yields: 0 })
    }
}

struct Sleep {
    clock: Rc<RefCell<State>>,
    key: (u64, u64),
    registered: bool,
    yields: u32,
}

/// Polls an earliest sleep gives away before it completes.
const YIELDS_BEFORE_FIRING: u32 = 3;

impl Future for Sleep {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let key = self.key;
        let clock = self.clock.clone();
        let mut state = clock.borrow_mut();
        state.timers.insert(key, Some(cx.waker().clone()));
        // The earliest pending sleep is the next thing to happen in virtual time.
        let earliest = state.timers.keys().next() == Some(&key);
        if earliest && self.yields < YIELDS_BEFORE_FIRING {
            self.yields += 1;
            self.registered = true;
            cx.waker().wake_by_ref();
            Poll::Pending
        } else if earliest {
            state.timers.remove(&key);
            state.now = state.now.max(key.0 as f64);
            self.registered = false;
            wake_earliest(&mut state);
            Poll::Ready(())
        } else {
            self.registered = true;
            Poll::Pending
        }
    }
}

impl Drop for Sleep {
    fn drop(&mut self) {
        if self.registered {
            let mut state = self.clock.borrow_mut();
            state.timers.remove(&self.key);
            wake_earliest(&mut state);
        }
    }
}

fn wake_earliest(state: &mut State) {
    if let Some(Some(waker)) = state.timers.values_mut().next().map(Option::take) {
        waker.wake();
    }
}
