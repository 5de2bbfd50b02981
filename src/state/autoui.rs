//! The page's one `autoui` tool server, shared by the in-app agent and the WebMCP page tools, with
//! the result buffer its `recall` tool reads, the schema validator it checks widget data with, and
//! the ledger of the conversation's URLs that model-made images may load from (chat, text widget,
//! widget image fields).

use std::rc::Rc;

use autoui_core::agent::buffer::ResultBuffer;
use autoui_core::autoui::AutoUi;
use autoui_core::autoui::bind::Sources;
use autoui_core::provenance::{ImageSources, UrlLedger};
use autoui_core::recipes::validate::SchemaValidator;
use autoui_core::recipes::validate::compact::CompactValidator;
use leptos::prelude::*;

use crate::adapters::clock::BrowserRandom;
use crate::adapters::vega::EngineCompiler;
use crate::adapters::validator::{BrowserPatterns, LazyValidator, VALIDATOR_MODULE};
use crate::state::canvas::CanvasCtx;

/// Context handle; the server itself is `!Send`, so it lives in local storage of the reactive arena.
#[derive(Clone, Copy)]
pub struct AutoUiCtx {
    server: StoredValue<Rc<AutoUi>, LocalStorage>,
    results: StoredValue<Rc<ResultBuffer>, LocalStorage>,
    validator: StoredValue<Rc<dyn SchemaValidator>, LocalStorage>,
    urls: StoredValue<Rc<UrlLedger>, LocalStorage>,
    /// Bumps when the ledger may have changed, so held-back images are looked at again.
    urls_revision: RwSignal<u64>,
}

impl AutoUiCtx {
    pub fn server(&self) -> Rc<AutoUi> {
        self.server.get_value()
    }

    /// The buffer the agent session fills and `recall` reads: the same `Rc` for both.
    pub fn results(&self) -> Rc<ResultBuffer> {
        self.results.get_value()
    }

    /// The page's schema validator, for every local server that validates (`samples` takes it in
    /// `Samples::new`).
    pub fn validator(&self) -> Rc<dyn SchemaValidator> {
        self.validator.get_value()
    }

    /// The ledger the agent session fills: the same `Rc` for both.
    pub fn urls(&self) -> Rc<UrlLedger> {
        self.urls.get_value()
    }

    /// Says the ledger changed (a tool result, a message, a restored or cleared conversation).
    pub fn urls_changed(&self) {
        self.urls_revision.update(|revision| *revision += 1);
    }

    /// Calls `render` with the image rule for model-made markdown (tracked: re-runs when it changes).
    pub fn with_image_sources<T>(&self, render: impl FnOnce(ImageSources<'_>) -> T) -> T {
        self.urls_revision.track();
        let urls = self.urls.get_value();
        render(ImageSources::Known(&urls))
    }
}

/// The page's schema validator: the compact one, which fetches the full validator module only for a
/// schema outside its subset (no recipe's, no built-in tool's; a server's output schema may be).
pub fn page_validator() -> Rc<dyn SchemaValidator> {
    Rc::new(CompactValidator::new(BrowserPatterns, LazyValidator::new(VALIDATOR_MODULE)))
}

/// The page's autoui server, validating with `validator` ([`page_validator`]). Widgets may be bound
/// to data through `sources` (the MCP client, see `state::refresh`).
pub fn provide_autoui(canvas: CanvasCtx, sources: Sources, validator: Rc<dyn SchemaValidator>) -> AutoUiCtx {
    provide_autoui_over(canvas, validator, Some(sources))
}

/// The autoui server with a given validator (browser tests validate in-process).
pub fn provide_autoui_with(canvas: CanvasCtx, validator: Rc<dyn SchemaValidator>) -> AutoUiCtx {
    provide_autoui_over(canvas, validator, None)
}

/// The autoui server with a given validator whose widgets may be bound through `sources` (browser
/// tests fetch from a stand-in).
pub fn provide_autoui_with_sources(canvas: CanvasCtx, validator: Rc<dyn SchemaValidator>, sources: Sources) -> AutoUiCtx {
    provide_autoui_over(canvas, validator, Some(sources))
}

fn provide_autoui_over(canvas: CanvasCtx, validator: Rc<dyn SchemaValidator>, sources: Option<Sources>) -> AutoUiCtx {
    let results = Rc::new(ResultBuffer::new());
    let urls = Rc::new(UrlLedger::default());
    let server = AutoUi::with_validator(Rc::new(canvas), results.clone(), Rc::new(BrowserRandom), validator.clone())
        .with_url_ledger(urls.clone())
        .with_chart_compiler(Rc::new(EngineCompiler));
    let server = Rc::new(match sources {
        Some(sources) => server.with_sources(sources),
        None => server,
    });
    let ctx = AutoUiCtx {
        server: StoredValue::new_local(server),
        results: StoredValue::new_local(results),
        validator: StoredValue::new_local(validator),
        urls: StoredValue::new_local(urls),
        urls_revision: RwSignal::new(0),
    };
    provide_context(ctx);
    ctx
}

pub fn use_autoui() -> AutoUiCtx {
    expect_context::<AutoUiCtx>()
}
