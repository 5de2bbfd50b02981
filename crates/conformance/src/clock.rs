//! `Clock` over tokio's timer and the system clock.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use autoui_core::ports::Clock;
use futures::future::LocalBoxFuture;

pub struct TokioClock {
    started: Instant,
}

impl Default for TokioClock {
    fn default() -> TokioClock {
        TokioClock { started: Instant::now() }
    }
}

impl Clock for TokioClock {
    fn now_ms(&self) -> f64 {
        self.started.elapsed().as_secs_f64() * 1_000.0
    }

    fn unix_ms(&self) -> f64 {
        SystemTime::now().duration_since(UNIX_EPOCH).map_or(0.0, |since| since.as_secs_f64() * 1_000.0)
    }

    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(std::time::Duration::from_millis(u64::from(ms))))
    }
}
