//! `Clock` and `Random` from the browser: `performance.now`, `Date.now`, `setTimeout`, `crypto`.

use autoui_core::ports::{Clock, Random};
use futures::future::LocalBoxFuture;
use wasm_bindgen_futures::JsFuture;

#[derive(Clone, Copy, Debug, Default)]
pub struct BrowserClock;

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
