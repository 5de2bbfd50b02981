//! `Clock` and `Random` from the browser: `performance.now`, `Date.now`, `setTimeout`, `crypto`; and
//! [`Span`], a User Timing measure benchmarks read from the page.

use autoui_core::ports::{Clock, Random};
use futures::future::LocalBoxFuture;
use wasm_bindgen_futures::JsFuture;

#[derive(Clone, Copy, Debug, Default)]
pub struct BrowserClock;

/// `unix_ms` as the person's local time of day, e.g. "14:05:09".
pub fn local_time(unix_ms: f64) -> String {
    String::from(js_sys::Date::new(&unix_ms.into()).to_locale_time_string("en-GB"))
}

/// The day and time of `unix_ms` in the person's time zone, as "7 Dec, 09:12".
pub fn local_date_time(unix_ms: f64) -> String {
    formatted(unix_ms, &[("day", "numeric"), ("month", "short"), ("hour", "2-digit"), ("minute", "2-digit")])
}

/// The same with the year, for what is kept (a print): "7 Dec 2026, 09:12".
pub fn local_date_time_year(unix_ms: f64) -> String {
    formatted(unix_ms, &[("day", "numeric"), ("month", "short"), ("year", "numeric"), ("hour", "2-digit"), ("minute", "2-digit")])
}

fn formatted(unix_ms: f64, parts: &[(&str, &str)]) -> String {
    let options = js_sys::Object::new();
    for (key, value) in parts {
        let _ = js_sys::Reflect::set(&options, &(*key).into(), &(*value).into());
    }
    String::from(js_sys::Date::new(&unix_ms.into()).to_locale_string("en-GB", &options))
}

impl Clock for BrowserClock {
    fn now_ms(&self) -> f64 {
        web_sys::window().and_then(|w| w.performance()).map(|p| p.now()).unwrap_or_else(js_sys::Date::now)
    }

    fn unix_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        let promise = js_sys::Promise::new(&mut |resolve, _reject| {
            if let Some(window) = web_sys::window() {
                let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms.min(i32::MAX as u32) as i32);
            }
        });
        Box::pin(async move {
            let _ = JsFuture::from(promise).await;
        })
    }
}

#[derive(Clone, Copy, Debug, Default)]
pub struct BrowserRandom;

impl Random for BrowserRandom {
    fn next_u64(&self) -> u64 {
        let mut bytes = [0u8; 8];
        let filled = web_sys::window()
            .and_then(|w| w.crypto().ok())
            .is_some_and(|crypto| crypto.get_random_values_with_u8_array(&mut bytes).is_ok());
        if filled {
            u64::from_le_bytes(bytes)
        } else {
            (js_sys::Math::random() * u64::MAX as f64) as u64
        }
    }
}

/// A stretch of main-thread work measured as `performance.measure(name)` when dropped, so the
/// benchmarks read it with `performance.getEntriesByName(name)` (the app reads nothing back).
pub struct Span {
    name: &'static str,
}

impl Span {
    pub fn start(name: &'static str) -> Span {
        if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
            let _ = performance.mark(&format!("{name}:start"));
        }
        Span { name }
    }
}

impl Drop for Span {
    fn drop(&mut self) {
        if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
            let (start, end) = (format!("{}:start", self.name), format!("{}:end", self.name));
            let _ = performance.mark(&end);
            let _ = performance.measure_with_start_mark_and_end_mark(self.name, &start, &end);
        }
    }
}
