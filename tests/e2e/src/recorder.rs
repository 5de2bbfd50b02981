//! A loopback HTTP server that records the request line of everything it is asked for and answers
//! with a 1x1 PNG: stands for an attacker's host (did the page ever send it anything?) or for a
//! host whose images the data names.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// The smallest valid PNG (1x1, transparent), so a loaded image raises no console error.
const PIXEL: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
    0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41,
    0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49,
    0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

pub struct Recorder {
    host: String,
    lines: Arc<Mutex<Vec<String>>>,
    task: JoinHandle<()>,
}

impl Recorder {
    pub async fn start() -> Recorder {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind a loopback port for the recorder");
        let host = listener.local_addr().expect("bound address").to_string();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let recorded = lines.clone();
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let recorded = recorded.clone();
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    let mut buffer = [0u8; 4096];
                    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
                        match stream.read(&mut buffer).await {
                            Ok(0) | Err(_) => return,
                            Ok(read) => head.extend_from_slice(&buffer[..read]),
                        }
                    }
                    let text = String::from_utf8_lossy(&head);
                    let line = text.lines().next().unwrap_or_default().to_owned();
                    recorded.lock().expect("recorder lock").push(line);
                    let reply = format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        PIXEL.len()
                    );
                    let _ = stream.write_all(reply.as_bytes()).await;
                    let _ = stream.write_all(PIXEL).await;
                });
            }
        });
        Recorder { host, lines, task }
    }

    /// `127.0.0.1:PORT`.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The request lines received so far (`GET /?d=... HTTP/1.1`).
    pub fn request_lines(&self) -> Vec<String> {
        self.lines.lock().expect("recorder lock").clone()
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.task.abort();
    }
}
