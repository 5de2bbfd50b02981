//! Serves the release build (`dist/`) on 127.0.0.1 with the headers production needs, recording the
//! request line (method and URI with its query) of every request, as a static host's log would.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::Request;
use axum::middleware::{self, Next};
use http::HeaderValue;
use http::header::{CACHE_CONTROL, HeaderName};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

/// The directory holding the release build: `AUTOUI_DIST`, or `dist/` at the workspace root.
pub fn dist_dir() -> PathBuf {
    std::env::var_os("AUTOUI_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../dist"))
}

/// The request lines an app server received, shared with the scenario.
pub type RequestLog = Arc<Mutex<Vec<String>>>;

pub struct AppServer {
    address: SocketAddr,
    log: RequestLog,
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl AppServer {
    /// Binds a free port and serves `dist/`, answering unknown paths with `index.html` (it is an SPA).
    pub async fn start() -> AppServer {
        AppServer::start_slowing(Vec::new()).await
    }

    /// Like [`AppServer::start`], but holds each request whose path contains one of `slow`'s
    /// patterns for its delay before answering, as a slow link or host would for that file.
    pub async fn start_slowing(slow: Vec<(String, Duration)>) -> AppServer {
        let dist = dist_dir();
        assert!(
            dist.join("index.html").is_file(),
            "no release build at {}: run `trunk build --release` first (the test script does)",
            dist.display()
        );
        let files = ServeDir::new(&dist).fallback(ServeFile::new(dist.join("index.html")));
        let log = RequestLog::default();
        let recorded = log.clone();
        let router = Router::new()
            .fallback_service(files)
            .layer(middleware::from_fn(move |request: Request, next: Next| {
                let line = format!("{} {}", request.method(), request.uri());
                recorded.lock().expect("request log").push(line);
                let path = request.uri().path();
                let delay = slow.iter().find(|(pattern, _)| path.contains(pattern.as_str())).map(|(_, delay)| *delay);
                async move {
                    if let Some(delay) = delay {
                        tokio::time::sleep(delay).await;
                    }
                    next.run(request).await
                }
            }))
            .layer(SetResponseHeaderLayer::overriding(
                HeaderName::from_static("origin-agent-cluster"),
                HeaderValue::from_static("?1"),
            ))
            .layer(SetResponseHeaderLayer::overriding(
                CACHE_CONTROL,
                HeaderValue::from_static("no-store"),
            ));
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind a loopback port for the app");
        let address = listener.local_addr().expect("bound address");
        let (shutdown, stop) = oneshot::channel();
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, router)
                .with_graceful_shutdown(async {
                    let _ = stop.await;
                })
                .await;
        });
        AppServer {
            address,
            log,
            shutdown,
            task,
        }
    }

    /// Every request line so far (`GET /?hs=... `): what the host's access log would hold.
    pub fn log(&self) -> RequestLog {
        self.log.clone()
    }

    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }

    pub async fn stop(self) {
        let _ = self.shutdown.send(());
        let _ = self.task.await;
    }
}
