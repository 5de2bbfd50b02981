//! `HttpTransport` over the browser's `fetch`, streaming response bodies and aborting on Stop. A
//! request that gets no HTTP status is asked again in ways the browser answers differently, so the
//! person learns whether the server is down or refuses this page (and how), not "one or the other".

use autoui_core::cancel::CancelToken;
use autoui_core::ports::{Clock, HttpError, HttpRequest, HttpResponse, HttpTransport, Unanswered};
use futures::channel::oneshot;
use futures::future::{Either, LocalBoxFuture, select};
use futures::stream::{self, StreamExt};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, Headers, ReadableStreamDefaultReader, Request, RequestCache, RequestCredentials, RequestInit,
    RequestMode, Response,
};

use crate::adapters::clock::BrowserClock;

/// How long each diagnosis probe may take: the failed request already came back, so an answer is quick.
const PROBE_MS: u32 = 5_000;

/// The browser's fetch. Cheap to create; holds no state.
#[derive(Clone, Copy, Debug, Default)]
pub struct FetchTransport;

impl HttpTransport for FetchTransport {
    fn send(&self, request: HttpRequest, cancel: CancelToken) -> LocalBoxFuture<'_, Result<HttpResponse, HttpError>> {
        Box::pin(send(request, cancel))
    }
}

async fn send(request: HttpRequest, cancel: CancelToken) -> Result<HttpResponse, HttpError> {
    if cancel.is_cancelled() {
        return Err(HttpError::Aborted);
    }
    let controller = AbortController::new().map_err(|e| HttpError::Network(describe(&e)))?;
    let headers = Headers::new().map_err(|e| HttpError::Network(describe(&e)))?;
    for (name, value) in &request.headers {
        headers.append(name, value).map_err(|e| HttpError::Network(describe(&e)))?;
    }
    let init = RequestInit::new();
    init.set_method(request.method.as_str());
    init.set_headers(&headers);
    init.set_signal(Some(&controller.signal()));
    if let Some(body) = &request.body {
        init.set_body(&JsValue::from_str(body));
    }
    let js_request =
        Request::new_with_str_and_init(&request.url, &init).map_err(|e| HttpError::Network(describe(&e)))?;

    // Abort the fetch (and its body stream) when Stop is pressed, until the body is finished or dropped.
    let (finished, finished_signal) = oneshot::channel::<()>();
    let abort_on_cancel = cancel.clone();
    let abort_controller = controller.clone();
    wasm_bindgen_futures::spawn_local(async move {
        if let Either::Left(_) = select(abort_on_cancel.cancelled(), finished_signal).await {
            abort_controller.abort();
        }
    });
    // From here on, dropping this future or the body before the end aborts the fetch.
    let guard = BodyGuard { controller, complete: false, _finished: finished };

    let window = web_sys::window().ok_or_else(|| HttpError::Network("no window".to_owned()))?;
    let response: Response = match JsFuture::from(window.fetch_with_request(&js_request)).await {
        Ok(value) => value.unchecked_into(),
        Err(_) if cancel.is_cancelled() => return Err(HttpError::Aborted),
        Err(error) => {
            let detail = describe(&error);
            return Err(match cancel.run(diagnose(&request.url)).await {
                None => HttpError::Aborted,
                Some(Some(cause)) => HttpError::Unanswered { detail, cause },
                Some(None) => HttpError::Network(detail),
            });
        }
    };

    let mut header_pairs = Vec::new();
    if let Ok(Some(entries)) = js_sys::try_iter(&response.headers()) {
        for entry in entries.flatten() {
            let pair: js_sys::Array = entry.unchecked_into();
            header_pairs
                .push((pair.get(0).as_string().unwrap_or_default(), pair.get(1).as_string().unwrap_or_default()));
        }
    }

    let body = match response.body() {
        Some(stream) => {
            let reader: ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
            body_chunks(reader, cancel, guard).boxed_local()
        }
        None => {
            guard.complete();
            stream::empty().boxed_local()
        }
    };
    Ok(HttpResponse { status: response.status(), headers: header_pairs, body })
}

/// Owns the request until its body is read: dropping it sooner (a listener stopped, a caller gave
/// up, a timeout dropped the request) aborts the fetch, so the connection does not stay open unseen. Dropping
/// `_finished` releases the Stop watcher either way.
struct BodyGuard {
    controller: AbortController,
    complete: bool,
    _finished: oneshot::Sender<()>,
}

impl BodyGuard {
    /// The body was read to its end: nothing is left to abort.
    fn complete(mut self) {
        self.complete = true;
    }
}

impl Drop for BodyGuard {
    fn drop(&mut self) {
        if !self.complete {
            self.controller.abort();
        }
    }
}

/// Reads the body chunk by chunk; the guard is released at the end and aborts the fetch if dropped sooner.
fn body_chunks(
    reader: ReadableStreamDefaultReader,
    cancel: CancelToken,
    guard: BodyGuard,
) -> impl futures::Stream<Item = Result<Vec<u8>, HttpError>> {
    stream::unfold(Some((reader, guard)), move |state| {
        let cancel = cancel.clone();
        async move {
            let (reader, guard) = state?;
            match JsFuture::from(reader.read()).await {
                Ok(result) => {
                    let done = js_sys::Reflect::get(&result, &"done".into()).map(|d| d.is_truthy()).unwrap_or(true);
                    if done {
                        guard.complete();
                        return None;
                    }
                    let value = js_sys::Reflect::get(&result, &"value".into()).unwrap_or(JsValue::UNDEFINED);
                    let bytes = js_sys::Uint8Array::new(&value).to_vec();
                    Some((Ok(bytes), Some((reader, guard))))
                }
                Err(_) if cancel.is_cancelled() => Some((Err(HttpError::Aborted), None)),
                Err(error) => Some((Err(HttpError::Body(describe(&error))), None)),
            }
        }
    })
}

/// Why `url` gave no status: mixed content is known without asking; then a `no-cors` GET (which any
/// answering server satisfies, opaquely) tells "down" from "answers", and a simple GET (no custom
/// headers, so no preflight) tells "no Access-Control-Allow-Origin at all" from "preflight refused".
/// A cross-origin isolated page (COEP) gets no opaque responses, so there only a refused preflight can
/// be told apart. `None` when the probes cannot tell or time out.
async fn diagnose(url: &str) -> Option<Unanswered> {
    let window = web_sys::window()?;
    let isolated = js_sys::Reflect::get(&window, &"crossOriginIsolated".into()).ok()?.is_truthy();
    let location = window.location();
    let target = web_sys::Url::new(url).ok()?;
    let loopback = matches!(target.hostname().as_str(), "localhost" | "127.0.0.1" | "[::1]");
    if location.protocol().ok()? == "https:" && target.protocol() == "http:" && !loopback {
        return Some(Unanswered::MixedContent);
    }
    if !isolated && !probe(url, RequestMode::NoCors).await? {
        return Some(Unanswered::Down);
    }
    match probe(url, RequestMode::Cors).await? {
        true => Some(Unanswered::PreflightRefused),
        false if isolated => None,
        false => Some(Unanswered::NoAllowOrigin { origin: location.origin().ok()? }),
    }
}

/// Whether a bodiless GET to `url` in `mode` gets a response (its body is never read: the GET may
/// open an event stream); `None` if it neither answers nor fails within [`PROBE_MS`].
async fn probe(url: &str, mode: RequestMode) -> Option<bool> {
    let controller = AbortController::new().ok()?;
    let init = RequestInit::new();
    init.set_method("GET");
    init.set_mode(mode);
    init.set_cache(RequestCache::NoStore);
    init.set_credentials(RequestCredentials::Omit);
    init.set_signal(Some(&controller.signal()));
    let fetched = JsFuture::from(web_sys::window()?.fetch_with_str_and_init(url, &init));
    let outcome = match select(fetched, BrowserClock.sleep(PROBE_MS)).await {
        Either::Left((result, _)) => Some(result.is_ok()),
        Either::Right(_) => None,
    };
    controller.abort();
    outcome
}

/// A readable message from a JS exception (`TypeError: Failed to fetch` and the like).
pub fn describe(error: &JsValue) -> String {
    if let Some(error) = error.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    error.as_string().unwrap_or_else(|| format!("{error:?}"))
}
