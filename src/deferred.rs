//! Code the first screen does not need, fetched on first use. In `split` builds (Trunk's, see
//! `scripts/split-wasm.sh`) the body of each [`deferred!`] function lands in a wasm chunk of its own
//! that the page fetches the first time the function is called; in other builds (browser tests) the
//! call is an ordinary one.
//!
//! A chunk's entry answers plain function pointers into the chunk (a [`Part`]'s value), so once it
//! has loaded, the rest of the app calls into it synchronously. The UI follows a part's [`Status`]:
//! a visible loading state while it comes, the error with a way to try again if it could not.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use futures::future::LocalBoxFuture;
use leptos::prelude::*;

/// A page from a chunk.
pub type Page = fn() -> AnyView;

/// A drawer from a chunk, given the signal that opens and closes it.
pub type Drawer = fn(RwSignal<bool>) -> AnyView;

/// A chunk that could not be fetched or started (network failure, server gone, a new deployment).
/// It is not remembered: the next use tries again.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} could not be loaded; check the connection and try again, or reload the page")]
pub struct LoadError {
    /// What the person was waiting for, as a noun phrase ("the gallery").
    pub what: &'static str,
}

/// Declares `async fn $name(args) -> Result<$ret, LoadError>` whose body runs in the chunk
/// `$chunk`, fetched by the first call; `$what` names it for the person. A body that names a
/// function (`render` as a `fn` pointer) moves that function, and everything only it uses, into
/// the chunk.
macro_rules! deferred {
    (#[chunk($chunk:ident, $what:literal)] $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {
        $(#[$attr])*
        $vis async fn $name($($arg: $ty),*) -> ::std::result::Result<$ret, $crate::deferred::LoadError> {
            // The same name inside: wasm-split names the chunk's symbols after it and its call site.
            #[cfg_attr(feature = "split", ::wasm_split_helpers::wasm_split($chunk, fallible))]
            fn $name($($arg: $ty),*) -> ::std::result::Result<$ret, ::wasm_split_helpers::SplitLoaderError> {
                Ok($body)
            }
            #[cfg(feature = "split")]
            let loaded = $name($($arg),*).await;
            #[cfg(not(feature = "split"))]
            let loaded = $name($($arg),*);
            loaded.map_err(|_| $crate::deferred::LoadError { what: $what })
        }
    };
}
pub(crate) use deferred;

/// Declares `fn $name() -> Part<$ty>`: the page's one [`Part`] whose value `$body` makes in the
/// chunk `$chunk` (one part per chunk). With `styles = "file.css"`, the stylesheet the chunk's views
/// need is fetched alongside it, and the part is ready only once both are here.
macro_rules! part {
    (#[chunk($chunk:ident, $what:literal)] $(#[$attr:meta])* $vis:vis fn $name:ident() -> Part<$ty:ty> $body:block) => {
        $crate::deferred::part! { #[chunk($chunk, $what, styles = "")] $(#[$attr])* $vis fn $name() -> Part<$ty> $body }
    };
    (#[chunk($chunk:ident, $what:literal, styles = $styles:literal)] $(#[$attr:meta])* $vis:vis fn $name:ident() -> Part<$ty:ty> $body:block) => {
        $(#[$attr])*
        $vis fn $name() -> $crate::deferred::Part<$ty> {
            $crate::deferred::deferred! { #[chunk($chunk, $what)] fn entry() -> $ty $body }
            thread_local! {
                static PART: $crate::deferred::Part<$ty> = $crate::deferred::Part::new($what, || {
                    ::std::boxed::Box::pin(async {
                        let (_, loaded) = ::futures::join!($crate::deferred::stylesheet($styles), entry());
                        loaded
                    })
                });
            }
            PART.with(::std::clone::Clone::clone)
        }
    };
}
pub(crate) use part;

/// A part declared in a higher layer and used by lower ones. `crate::chunks` declares each chunk
/// (its entry points name the panels and widgets it carries) and installs it here at start, so the
/// state and the UI reach the chunk through its type and never import the layer above them.
pub struct Slot<T: 'static>(OnceLock<fn() -> Part<T>>);

impl<T: 'static> Default for Slot<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: 'static> Slot<T> {
    pub const fn new() -> Self {
        Slot(OnceLock::new())
    }

    /// Installs the chunk's declaration; later calls keep the first.
    pub fn install(&self, part: fn() -> Part<T>) {
        let _ = self.0.set(part);
    }

    /// The page's part for this chunk.
    pub fn part(&self) -> Part<T> {
        let part = self.0.get().expect("chunks::install() runs before the app is mounted");
        part()
    }
}

/// Where a part stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Status<T> {
    NotRequested,
    Loading,
    Ready(T),
    Failed(LoadError),
}

type Entry<T> = fn() -> LocalBoxFuture<'static, Result<T, LoadError>>;

/// A part of the app loaded on first use: the value its chunk's entry answers (function pointers
/// into the chunk), and a reactive [`Status`]. Clones share the state.
pub struct Part<T: 'static> {
    what: &'static str,
    status: ArcRwSignal<Status<T>>,
    entry: Entry<T>,
}

impl<T> Clone for Part<T> {
    fn clone(&self) -> Self {
        Part { what: self.what, status: self.status.clone(), entry: self.entry }
    }
}

impl<T: Clone + Send + Sync + 'static> Part<T> {
    /// A part, named `what` for the person, whose chunk `entry` loads; nothing is fetched yet.
    pub fn new(what: &'static str, entry: Entry<T>) -> Part<T> {
        Part { what, status: ArcRwSignal::new(Status::NotRequested), entry }
    }

    /// The status (tracked).
    pub fn status(&self) -> Status<T> {
        self.status.get()
    }

    /// The status (untracked).
    pub fn status_untracked(&self) -> Status<T> {
        self.status.get_untracked()
    }

    /// The value if the chunk is here (untracked).
    pub fn ready(&self) -> Option<T> {
        match &*self.status.read_untracked() {
            Status::Ready(value) => Some(value.clone()),
            _ => None,
        }
    }

    /// Starts loading if nothing asked for it yet; returns at once. A failed load stays failed
    /// until [`Part::retry`], so views calling this as they re-render never loop.
    pub fn request(&self) {
        if matches!(*self.status.read_untracked(), Status::NotRequested) {
            self.spawn_load();
        }
    }

    /// Loads again after a failure (the person asked to); returns at once.
    pub fn retry(&self) {
        if matches!(*self.status.read_untracked(), Status::NotRequested | Status::Failed(_)) {
            self.spawn_load();
        }
    }

    fn spawn_load(&self) {
        // Loading from now on: the other views built in the same pass (a canvas of 26 widgets) find
        // it on its way rather than each spawning a load of its own.
        self.status.set(Status::Loading);
        let part = self.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let _ = part.load().await;
        });
    }

    /// The value, loading the chunk if it is not here yet. Concurrent loads share one fetch.
    pub async fn load(&self) -> Result<T, LoadError> {
        if let Some(value) = self.ready() {
            return Ok(value);
        }
        if !matches!(*self.status.read_untracked(), Status::Loading) {
            self.status.set(Status::Loading);
        }
        let loaded = (self.entry)().await;
        // Only the first load to finish says so: every view following the part is built again
        // when its status is set, so each later caller would rebuild them all once more.
        if self.ready().is_none() {
            self.status.set(match &loaded {
                Ok(value) => Status::Ready(value.clone()),
                Err(error) => Status::Failed(error.clone()),
            });
        }
        loaded
    }

    /// The value once the chunk is here, else what stands in for it (tracked); starts the load if
    /// nothing asked for it yet (after a failure, the "Try again" of what stands in).
    pub fn current(&self) -> Result<T, AnyView> {
        self.request();
        match self.status() {
            Status::Ready(value) => Ok(value),
            _ => Err(self.waiting()),
        }
    }

    /// `render`'s view of the value once the chunk is here, and [`Part::waiting`] until then. The load
    /// starts now if needed, and again if it failed before: a new view (a widget the agent just
    /// added) is a new attempt, while this view re-rendering is not.
    pub fn view<V: IntoView + 'static>(&self, render: impl Fn(T) -> V + Send + Sync + 'static) -> AnyView {
        self.view_any(Arc::new(move |value| render(value).into_any()))
    }

    /// [`Part::view`] with the view erased, so that its reactive wrapper is compiled once per part
    /// rather than once per caller (each copy would weigh on the first load).
    fn view_any(&self, render: Arc<dyn Fn(T) -> AnyView + Send + Sync>) -> AnyView {
        self.retry();
        let part = self.clone();
        (move || match part.status() {
            Status::Ready(value) => untrack(|| render(value)),
            _ => part.waiting(),
        })
        .into_any()
    }

    /// What stands in for the part until it is ready (tracked): a loading line naming it, or the
    /// error and a button to try again.
    pub fn waiting(&self) -> AnyView {
        match self.status() {
            Status::Failed(error) => {
                let part = self.clone();
                view! {
                    <div class="au-deferred au-deferred--failed" role="alert" data-testid="deferred-failed">
                        <p>{error.to_string()}</p>
                        <button class="au-button" data-testid="deferred-retry" on:click=move |_| part.retry()>
                            "Try again"
                        </button>
                    </div>
                }
                .into_any()
            }
            _ => view! {
                <p class="au-deferred" role="status" data-testid="deferred-loading">
                    <span class="au-spinner" aria-hidden="true"></span>
                    {format!("Loading {}\u{2026}", self.what)}
                </p>
            }
            .into_any(),
        }
    }
}

/// A drawer whose code comes in a chunk: nothing until it is first opened, then `current()`'s drawer
/// once its chunk is here, or an empty drawer holding what stands in for it (`current` is tracked).
pub fn drawer(open: RwSignal<bool>, current: impl Fn() -> Result<Drawer, AnyView> + Send + Sync + 'static) -> AnyView {
    let wanted = Memo::new(move |before: Option<&bool>| before.copied().unwrap_or(false) || open.get());
    (move || {
        if !wanted.get() {
            return ().into_any();
        }
        match current() {
            Ok(drawer) => untrack(|| drawer(open)),
            Err(waiting) => view! {
                <div class="au-drawer" role="dialog" hidden=move || !open.get()>{waiting}</div>
            }
            .into_any(),
        }
    })
    .into_any()
}

/// Links the stylesheet `href` (a file beside `index.html`) into the page and waits until it has
/// loaded or failed: a missing sheet leaves views unstyled, never unusable. Only split builds ship
/// such sheets (Trunk.toml); elsewhere, and for an empty `href`, it does nothing.
pub async fn stylesheet(href: &'static str) {
    if !cfg!(feature = "split") || href.is_empty() {
        return;
    }
    let Some(document) = web_sys::window().and_then(|window| window.document()) else { return };
    let (Some(head), Ok(link)) = (document.head(), document.create_element("link")) else { return };
    let settled = js_sys::Promise::new(&mut |resolve, _reject| {
        let _ = link.add_event_listener_with_callback("load", &resolve);
        let _ = link.add_event_listener_with_callback("error", &resolve);
    });
    let _ = link.set_attribute("rel", "stylesheet");
    let _ = link.set_attribute("href", href);
    if head.append_child(&link).is_ok() {
        let _ = wasm_bindgen_futures::JsFuture::from(settled).await;
    }
}

/// Runs `run` once the page has painted: a timeout queued from an animation frame runs after that
/// frame is painted.
pub fn after_first_paint(run: impl FnOnce() + 'static) {
    request_animation_frame(move || set_timeout(run, Duration::ZERO));
}

/// Runs `run` once, at the person's first press, key or focus move anywhere in the page: the first
/// sign they are about to do something rather than only look.
pub fn on_first_interaction(run: impl FnOnce() + 'static) {
    let run = Rc::new(Cell::new(Some(Box::new(run) as Box<dyn FnOnce()>)));
    let handles = Rc::new(RefCell::new(Vec::new()));
    for kind in ["pointerdown", "keydown", "focusin"] {
        let (run, listening) = (Rc::clone(&run), Rc::clone(&handles));
        let handle = window_event_listener_untyped(kind, move |_| {
            for handle in listening.take() {
                WindowListenerHandle::remove(handle);
            }
            if let Some(run) = run.take() {
                run();
            }
        });
        handles.borrow_mut().push(handle);
    }
}
