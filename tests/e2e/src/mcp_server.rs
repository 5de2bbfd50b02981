//! Real MCP servers for scenarios, one process per scenario on a free loopback port: npm's
//! server-everything (node, bound to 127.0.0.1 by `loopback.mjs`) and the Python test servers (PyPI
//! `mcp`, from `tests/servers/.venv`), and the Python servers there that are not MCP servers (the
//! Ollama-like `ollama_server.py`). A server is killed when dropped, so also when a scenario
//! panics, and can be killed and restarted on the same port mid-scenario.

use std::fs::File;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub use crate::ports::free_port;

/// How long a server may take to listen (node and Python both start in about a second).
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// Which MCP transport the server speaks; the URL path follows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// Streamable HTTP at `/mcp`.
    Streamable,
    /// Legacy HTTP+SSE: the event stream at `/sse`.
    Sse,
}

impl Transport {
    fn path(self) -> &'static str {
        match self {
            Transport::Streamable => "/mcp",
            Transport::Sse => "/sse",
        }
    }
}

/// The program behind a server.
#[derive(Clone, Debug)]
enum Program {
    Everything,
    /// An MCP Apps example server from npm (`tests/servers/node_modules/@modelcontextprotocol/<name>`),
    /// Streamable HTTP at `/mcp`, bound to 127.0.0.1 by `loopback.mjs`.
    App(&'static str),
    /// A script in `tests/servers/` taking `--transport streamable|sse --port PORT`.
    Python(&'static str),
    /// A script in `tests/servers/` taking `--port PORT` only: an HTTP server of another kind.
    PythonApp(&'static str),
    /// The authorization server of `tests/oauth-server` (npm oidc-provider), configured by its environment.
    OAuthProvider,
}

pub struct McpServer {
    program: Program,
    transport: Transport,
    port: u16,
    child: Option<Child>,
    log: PathBuf,
    /// Environment variables the process starts with (e.g. the hosts a test server names).
    env: Vec<(String, String)>,
}

impl McpServer {
    /// `@modelcontextprotocol/server-everything` from `tests/servers/node_modules`.
    pub async fn everything(transport: Transport) -> McpServer {
        McpServer::start(Program::Everything, transport, Vec::new()).await
    }

    /// An MCP Apps example server, e.g. `server-basic-vanillajs`.
    pub async fn app(package: &'static str) -> McpServer {
        McpServer::start(Program::App(package), Transport::Streamable, Vec::new()).await
    }

    /// A Python server from `tests/servers/`, e.g. `table_server.py`.
    pub async fn python(script: &'static str, transport: Transport) -> McpServer {
        McpServer::start(Program::Python(script), transport, Vec::new()).await
    }

    /// A Python HTTP server that is not an MCP server, e.g. `ollama_server.py`; see [`McpServer::base_url`].
    pub async fn python_app(script: &'static str) -> McpServer {
        McpServer::start(Program::PythonApp(script), Transport::Streamable, Vec::new()).await
    }

    /// `http://127.0.0.1:PORT`, the root of a [`McpServer::python_app`].
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// A Python server started with environment variables `env`.
    pub async fn python_with_env(script: &'static str, transport: Transport, env: Vec<(String, String)>) -> McpServer {
        McpServer::start(Program::Python(script), transport, env).await
    }

    /// [`McpServer::python_with_env`] on a port chosen beforehand (e.g. named to another server first).
    pub async fn python_on(script: &'static str, transport: Transport, port: u16, env: Vec<(String, String)>) -> McpServer {
        McpServer::start_on(Program::Python(script), transport, port, env).await
    }

    /// The OAuth authorization server of `tests/oauth-server/server.mjs` on `port`, its issuer
    /// `http://127.0.0.1:PORT`; `env` configures it (see the script).
    pub async fn oauth_provider(port: u16, env: Vec<(String, String)>) -> McpServer {
        McpServer::start_on(Program::OAuthProvider, Transport::Streamable, port, env).await
    }

    async fn start(program: Program, transport: Transport, env: Vec<(String, String)>) -> McpServer {
        McpServer::start_on(program, transport, free_port(), env).await
    }

    async fn start_on(program: Program, transport: Transport, port: u16, env: Vec<(String, String)>) -> McpServer {
        let log =
            std::env::temp_dir().join(format!("autoui-e2e-mcp-{}-{port}.log", std::process::id()));
        let mut server = McpServer {
            program,
            transport,
            port,
            child: None,
            log,
            env,
        };
        server.launch().await;
        server
    }

    /// The URL a person types into the servers panel.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}{}", self.port, self.transport.path())
    }

    /// Kills the process outright (SIGKILL, as a crash would), and waits until it is gone.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port (after [`McpServer::kill`]); it has no memory of
    /// earlier sessions, like a real restart.
    pub async fn restart(&mut self) {
        self.kill();
        self.launch().await;
    }

    async fn launch(&mut self) {
        let servers = servers_dir();
        let mut command = match &self.program {
            Program::Everything => {
                let entry = servers
                    .join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
                assert!(
                    entry.is_file(),
                    "missing {}: run scripts/setup.sh --test",
                    entry.display()
                );
                let mut command = Command::new("node");
                command
                    .arg("--import")
                    .arg(servers.join("loopback.mjs"))
                    .arg(entry)
                    .arg(match self.transport {
                        Transport::Streamable => "streamableHttp",
                        Transport::Sse => "sse",
                    });
                command.env("PORT", self.port.to_string());
                command
            }
            Program::App(package) => {
                let entry = servers.join(format!("node_modules/@modelcontextprotocol/{package}/dist/index.js"));
                assert!(entry.is_file(), "missing {}: run scripts/setup.sh --test", entry.display());
                let mut command = Command::new("node");
                command.arg("--import").arg(servers.join("loopback.mjs")).arg(entry);
                command.env("PORT", self.port.to_string());
                command
            }
            Program::OAuthProvider => {
                let dir = servers.join("../oauth-server");
                assert!(dir.join("node_modules/oidc-provider").is_dir(), "missing oidc-provider in {}: run scripts/setup.sh --test", dir.display());
                let mut command = Command::new("node");
                command.arg(dir.join("server.mjs")).env("PORT", self.port.to_string());
                command
            }
            Program::Python(script) | Program::PythonApp(script) => {
                let python = servers.join(".venv/bin/python");
                assert!(
                    python.is_file(),
                    "missing {}: run scripts/setup.sh --test",
                    python.display()
                );
                let mut command = Command::new(python);
                command.arg(servers.join(script)).arg("--port").arg(self.port.to_string());
                if let Program::Python(_) = self.program {
                    command.arg("--transport").arg(match self.transport {
                        Transport::Streamable => "streamable",
                        Transport::Sse => "sse",
                    });
                }
                command
            }
        };
        let log = File::create(&self.log)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", self.log.display()));
        let log_err = log.try_clone().expect("clone the log file handle");
        let child = command
            .envs(self.env.iter().map(|(key, value)| (key, value)))
            .stdin(Stdio::null())
            .stdout(Stdio::from(log))
            .stderr(Stdio::from(log_err))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start the {:?} MCP server: {e}", self.program));
        self.child = Some(child);
        self.wait_until_listening().await;
    }

    async fn wait_until_listening(&mut self) {
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if tokio::net::TcpStream::connect(("127.0.0.1", self.port))
                .await
                .is_ok()
            {
                return;
            }
            let exited = self
                .child
                .as_mut()
                .and_then(|child| child.try_wait().ok().flatten());
            if let Some(status) = exited {
                panic!(
                    "the {:?} MCP server exited ({status}) before listening; its log:\n{}",
                    self.program,
                    self.log_text()
                );
            }
            assert!(
                Instant::now() < deadline,
                "the {:?} MCP server did not listen on port {} within {START_TIMEOUT:?}; its log:\n{}",
                self.program,
                self.port,
                self.log_text()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// `GET path` on the server, read as JSON (the Ollama-like server's `/requests`).
    pub async fn get_json(&self, path: &str) -> serde_json::Value {
        self.request_json("GET", path).await
    }

    /// `POST path` (empty body) on the server, read as JSON (the OAuth server's test control).
    pub async fn post_json(&self, path: &str) -> serde_json::Value {
        self.request_json("POST", path).await
    }

    async fn request_json(&self, method: &str, path: &str) -> serde_json::Value {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", self.port)).await.expect("connect");
        let request = format!("{method} {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n");
        stream.write_all(request.as_bytes()).await.expect("send");
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).await.expect("read");
        let answer = String::from_utf8_lossy(&answer);
        let body = answer.split_once("\r\n\r\n").map_or("", |(_, body)| body);
        serde_json::from_str(body).unwrap_or_else(|e| panic!("{method} {path}: {e}: {answer}"))
    }

    /// What the server printed so far, for failure messages.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for McpServer {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_file(&self.log);
    }
}

fn servers_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../servers")
}

