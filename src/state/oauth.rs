//! OAuth for the page's MCP servers: each remote server without a static bearer token gets the
//! core's `AuthorizedHttp` in `SignInMode::OnRequest` (a 401 waits for the person's "Sign in"
//! click), and [`OAuthRouter`], the hub's one HTTP transport, sends each request through its
//! server's (the core's `server_for_request` decides which server that is). The grants live in the
//! servers' configs (`state/servers.rs` saves them).

use std::cell::RefCell;
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::mcp::config::ServerConfig;
use autoui_core::mcp::oauth::client::{ClientIdentity, metadata_document_url};
use autoui_core::mcp::oauth::flow::{Grant, OAuthPorts};
use autoui_core::mcp::oauth::route::server_for_request;
use autoui_core::mcp::oauth::transport::{AuthorizedHttp, SignInMode};
use autoui_core::ports::{HttpError, HttpRequest, HttpResponse, HttpTransport};
use futures::future::LocalBoxFuture;

use crate::adapters::clock::{BrowserClock, BrowserRandom};
use crate::adapters::http::FetchTransport;
use crate::adapters::oauth_popup::{PopupAuthorizer, redirect_uri};

/// The name authorization servers show the person.
const CLIENT_NAME: &str = "autoui";
/// Where the app is deployed, when the build was told (`AUTOUI_PUBLIC_URL`, which also has
/// `scripts/oauth-client.sh` write the Client ID Metadata Document served there).
const PUBLIC_URL: Option<&str> = option_env!("AUTOUI_PUBLIC_URL");

/// The hub's HTTP transport: a request to a server with OAuth goes through that server's
/// `AuthorizedHttp` (which adds its token and notices refusals), any other straight to fetch.
#[derive(Default)]
pub struct OAuthRouter {
    /// Every server of the hub, those without OAuth too: a request is routed by its exact server.
    servers: RefCell<Vec<Routed>>,
    popup: Rc<PopupAuthorizer>,
}

struct Routed {
    url: String,
    /// `None` for a server with a static bearer token.
    auth: Option<Rc<AuthorizedHttp>>,
}

impl OAuthRouter {
    /// Gives `config`'s server its `AuthorizedHttp` (replacing any it had), started from the
    /// stored grant. Servers with a static bearer token keep it and get none, but are known, so
    /// that their requests are never taken for another server's.
    pub fn register(&self, config: &ServerConfig) {
        self.forget(&config.url);
        let url = config.url.trim().to_owned();
        if config.authorization().is_some() {
            self.servers.borrow_mut().push(Routed { url, auth: None });
            return;
        }
        let ports = OAuthPorts {
            http: Rc::new(FetchTransport),
            random: Rc::new(BrowserRandom),
            clock: Rc::new(BrowserClock),
            authorizer: self.popup.clone(),
        };
        let redirect_uri = redirect_uri();
        let identity = ClientIdentity {
            client_name: CLIENT_NAME.to_owned(),
            metadata_document_url: metadata_document_url(PUBLIC_URL, &redirect_uri),
            redirect_uri,
            preregistered: config.oauth_client.clone(),
        };
        let auth = AuthorizedHttp::new(ports, SignInMode::OnRequest, identity, &url, config.oauth_grant.clone());
        self.servers.borrow_mut().push(Routed { url, auth: Some(Rc::new(auth)) });
    }

    pub fn forget(&self, url: &str) {
        self.servers.borrow_mut().retain(|server| server.url != url.trim());
    }

    /// The `AuthorizedHttp` of the server at `url`.
    pub fn server(&self, url: &str) -> Option<Rc<AuthorizedHttp>> {
        self.servers.borrow().iter().find(|server| server.url == url.trim()).and_then(|server| server.auth.clone())
    }

    /// The sign-in window, opened inside the click that starts a sign-in.
    pub fn popup(&self) -> Rc<PopupAuthorizer> {
        self.popup.clone()
    }

    /// The `AuthorizedHttp` of the server a request is for, if that server uses OAuth.
    fn route(&self, url: &str) -> Option<Rc<AuthorizedHttp>> {
        let servers = self.servers.borrow();
        server_for_request(&servers, |server| &server.url, url).and_then(|server| server.auth.clone())
    }
}

impl HttpTransport for OAuthRouter {
    fn send(&self, request: HttpRequest, cancel: CancelToken) -> LocalBoxFuture<'_, Result<HttpResponse, HttpError>> {
        match self.route(&request.url) {
            Some(auth) => Box::pin(async move { auth.send(request, cancel).await }),
            None => FetchTransport.send(request, cancel),
        }
    }
}

/// What the servers panel shows of a server's sign-in.
#[derive(Clone, Debug, PartialEq)]
pub enum AuthView {
    /// No OAuth asked for (or a static bearer token).
    None,
    /// The server answered 401: "Sign in required", with why the last attempt failed, if it did.
    SignInRequired { error: Option<String> },
    SigningIn,
    SignedIn { issuer: String, scope: Option<String>, expires_at_unix_ms: Option<f64> },
}

impl AuthView {
    pub fn of(auth: &AuthorizedHttp, signing_in: bool) -> AuthView {
        if signing_in {
            return AuthView::SigningIn;
        }
        let error = auth.last_error().filter(|error| !error.is_cancelled_by_person()).map(|error| error.to_string());
        if auth.sign_in_required().is_some() {
            return AuthView::SignInRequired { error };
        }
        match auth.grant() {
            Some(grant) => signed_in(&grant),
            None if error.is_some() => AuthView::SignInRequired { error },
            None => AuthView::None,
        }
    }
}

fn signed_in(grant: &Grant) -> AuthView {
    AuthView::SignedIn {
        issuer: grant.issuer.clone(),
        scope: grant.tokens.scope.clone().or_else(|| Some(grant.requested_scopes.join(" ")).filter(|s| !s.is_empty())),
        expires_at_unix_ms: grant.tokens.expires_at_unix_ms,
    }
}
