//! The page's sampling reviewer: a server's request for a completion (`sampling/createMessage`)
//! waits here as a pending card (`state::pending`, shown by `ui/sampling.rs`) with the model that
//! would answer and the cost estimate, until the person sends it (perhaps edited) or declines. The
//! core's `ModelSampler` sends only what they approved, through the configured provider.

use std::rc::Rc;

use autoui_core::llm::http::HttpChatModel;
use autoui_core::mcp::sampling::{ModelSampler, SamplingRequest, SamplingReview, SamplingReviewer, SharedSampler};
use futures::future::LocalBoxFuture;
use leptos::prelude::*;

use crate::adapters::clock::{BrowserClock, BrowserRandom};
use crate::adapters::http::FetchTransport;
use crate::state::pending::PendingQueue;
use crate::state::settings::SettingsCtx;

/// Context handle for the pending sampling requests; the answer is the request to send, or `None`.
pub type SamplingCtx = PendingQueue<SamplingReview, Option<SamplingRequest>>;

struct PageReviewer(SamplingCtx);

impl SamplingReviewer for PageReviewer {
    fn review(&self, review: SamplingReview) -> LocalBoxFuture<'static, Option<SamplingRequest>> {
        // The card went away unanswered (the page is closing): nothing is sent.
        self.0.ask(review, None)
    }
}

/// The hub's sampler: the person's settings at the time of each request, their approval, their provider.
pub fn provide_sampling() -> SharedSampler {
    let ctx = SamplingCtx::new();
    provide_context(ctx);
    // A panel mounted without the app's settings (browser tests) has no key: requests are refused.
    let settings = use_context::<SettingsCtx>();
    Rc::new(ModelSampler {
        model: Rc::new(HttpChatModel::new(Rc::new(FetchTransport), Rc::new(BrowserClock), Rc::new(BrowserRandom))),
        settings: Rc::new(move || settings.map(|settings| settings.0.get_untracked()).unwrap_or_default()),
        reviewer: Rc::new(PageReviewer(ctx)),
    })
}

pub fn use_sampling() -> Option<SamplingCtx> {
    use_context::<SamplingCtx>()
}
