//! `AuthorizedHttp`: an [`HttpTransport`] for one MCP server that refreshes tokens before they
//! expire and on 401, signs in when the server answers 401 and steps up on `403 insufficient_scope`
//! (at once, or when the person asks: see [`SignInMode`]), and retries the request. Its token goes
//! only to the server's own origin, never in place of credentials a request already carries; the
//! MCP session above never sees OAuth.

use std::cell::RefCell;

use futures::future::LocalBoxFuture;
use futures::lock::Mutex;

use crate::cancel::CancelToken;
use crate::mcp::oauth::challenge::Challenge;
use crate::mcp::oauth::client::ClientIdentity;
use crate::mcp::oauth::discovery::origin_and_path;
use crate::mcp::oauth::error::{OAuthError, Step};
use crate::mcp::oauth::flow::{
    Grant, OAuthPorts, PendingSignIn, RefreshError, begin_sign_in, finish_sign_in, refresh, revoke, sign_in,
};
use crate::ports::{HttpError, HttpRequest, HttpResponse, HttpTransport};

/// Sign-ins (first one and step-ups) one request may cause before its refusal is passed on: a
/// server that keeps asking for scopes it never grants must not loop.
pub const MAX_SIGN_INS_PER_REQUEST: usize = 3;
/// Refresh this long before the access token expires.
pub const REFRESH_MARGIN_MS: f64 = 60_000.0;

/// When a refusal leads to a sign-in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignInMode {
    /// At once, inside the refused request (an unattended client such as the conformance runner).
    Automatic,
    /// Only through [`AuthorizedHttp::sign_in`]: the refusal is passed on and its challenge kept
    /// ([`AuthorizedHttp::sign_in_required`]), for a page whose popup must come from a click.
    OnRequest,
}

/// Called with the grant after every sign-in, refresh and sign-out (`None`), to store it.
pub type GrantListener = Box<dyn Fn(Option<&Grant>)>;

pub struct AuthorizedHttp {
    ports: OAuthPorts,
    mode: SignInMode,
    /// The challenge of the last refusal that needs the person, in [`SignInMode::OnRequest`].
    pending: RefCell<Option<Challenge>>,
    listener: RefCell<Option<GrantListener>>,
    identity: ClientIdentity,
    server_url: String,
    origin: Option<String>,
    grant: RefCell<Option<Grant>>,
    last_error: RefCell<Option<OAuthError>>,
    /// One sign-in or refresh at a time; requests that hit 401 meanwhile reuse its result.
    exclusive: Mutex<()>,
}

impl AuthorizedHttp {
    /// `ports.http` carries both the MCP requests and the OAuth ones.
    pub fn new(
        ports: OAuthPorts,
        mode: SignInMode,
        identity: ClientIdentity,
        server_url: &str,
        grant: Option<Grant>,
    ) -> AuthorizedHttp {
        AuthorizedHttp {
            ports,
            mode,
            pending: RefCell::new(None),
            listener: RefCell::new(None),
            identity,
            server_url: server_url.to_owned(),
            origin: origin_and_path(server_url).map(|(origin, _)| origin),
            grant: RefCell::new(grant),
            last_error: RefCell::new(None),
            exclusive: Mutex::new(()),
        }
    }

    pub fn server_url(&self) -> &str {
        &self.server_url
    }

    pub fn grant(&self) -> Option<Grant> {
        self.grant.borrow().clone()
    }

    /// Why the last sign-in, step-up or refresh failed (the request then got the server's refusal).
    pub fn last_error(&self) -> Option<OAuthError> {
        self.last_error.borrow().clone()
    }

    pub fn on_grant_change(&self, listener: GrantListener) {
        *self.listener.borrow_mut() = Some(listener);
    }

    /// The refusal that waits for the person to sign in ([`SignInMode::OnRequest`]).
    pub fn sign_in_required(&self) -> Option<Challenge> {
        self.pending.borrow().clone()
    }

    /// Signs in now (the person pressed "Sign in"), with the last refusal's challenge if any.
    pub async fn sign_in(&self) -> Result<Grant, OAuthError> {
        let _exclusive = self.exclusive.lock().await;
        let challenge = self.pending.borrow().clone();
        let previous = self.grant();
        let result = sign_in(&self.ports, &self.identity, &self.server_url, challenge.as_ref(), previous.as_ref()).await;
        match &result {
            Ok(grant) => {
                *self.pending.borrow_mut() = None;
                self.store(Some(grant.clone()));
            }
            Err(error) => *self.last_error.borrow_mut() = Some(error.clone()),
        }
        result
    }

    /// The first half of a sign-in whose answer comes back to another page load (a full-page
    /// redirect, when the sign-in window was blocked): the caller sends the person to
    /// `authorization_url` and keeps the rest for [`AuthorizedHttp::finish_sign_in`].
    pub async fn begin_sign_in(&self) -> Result<PendingSignIn, OAuthError> {
        let _exclusive = self.exclusive.lock().await;
        let challenge = self.pending.borrow().clone();
        let previous = self.grant();
        let result = begin_sign_in(&self.ports, &self.identity, &self.server_url, challenge.as_ref(), previous.as_ref()).await;
        self.note(&result);
        result
    }

    /// The second half: the authorization server's answer (`callback`) for `pending`, exchanged
    /// for tokens.
    pub async fn finish_sign_in(&self, pending: &PendingSignIn, callback: &str) -> Result<Grant, OAuthError> {
        let _exclusive = self.exclusive.lock().await;
        let result = finish_sign_in(&self.ports, pending, callback).await;
        if let Ok(grant) = &result {
            *self.pending.borrow_mut() = None;
            self.store(Some(grant.clone()));
        }
        self.note(&result);
        result
    }

    fn note<T>(&self, result: &Result<T, OAuthError>) {
        *self.last_error.borrow_mut() = result.as_ref().err().cloned();
    }

    /// Forgets the grant, revoking it first where the server offers revocation; `Err` says the
    /// revocation failed (the grant is forgotten all the same).
    pub async fn sign_out(&self) -> Result<(), OAuthError> {
        let _exclusive = self.exclusive.lock().await;
        let Some(grant) = self.grant() else { return Ok(()) };
        self.store(None);
        revoke(&self.ports, &grant).await
    }

    fn store(&self, grant: Option<Grant>) {
        *self.grant.borrow_mut() = grant.clone();
        if let Some(listener) = self.listener.borrow().as_ref() {
            listener(grant.as_ref());
        }
    }

    fn access_token(&self) -> Option<String> {
        self.grant.borrow().as_ref().map(|grant| grant.tokens.access_token.clone())
    }

    fn is_for_server(&self, url: &str) -> bool {
        self.origin.is_some() && origin_and_path(url).map(|(origin, _)| origin) == self.origin
    }

    fn has_refresh_token(&self) -> bool {
        self.grant.borrow().as_ref().is_some_and(|grant| grant.tokens.refresh_token.is_some())
    }

    async fn send_authorized(&self, request: HttpRequest, cancel: CancelToken) -> Result<HttpResponse, HttpError> {
        // Whether the token about to be sent is new since this request began: a 401 to it means
        // renewing cannot help, and refreshing again would only use up refresh tokens.
        let mut renewed = self.refresh_if_expiring().await;
        let mut sign_ins = 0;
        loop {
            let token = self.access_token();
            let mut attempt = request.clone();
            if let Some(token) = &token {
                attempt.headers.push(("Authorization".to_owned(), format!("Bearer {token}")));
            }
            let response = self.ports.http.send(attempt, cancel.clone()).await?;
            let challenge = response.header("WWW-Authenticate").and_then(Challenge::parse);
            let wants_sign_in = match response.status {
                401 => true,
                403 => challenge.as_ref().is_some_and(|c| c.is_insufficient_scope() && self.asks_for_more(c)),
                _ => false,
            };
            if !wants_sign_in || sign_ins >= MAX_SIGN_INS_PER_REQUEST || cancel.is_cancelled() {
                return Ok(response);
            }
            let unauthorized = response.status == 401;
            if self.mode == SignInMode::OnRequest {
                if unauthorized && renewed {
                    *self.last_error.borrow_mut() = Some(OAuthError::new(
                        Step::Refresh,
                        &self.server_url,
                        "the server refused the token even just after it was renewed; sign in again",
                    ));
                }
                // Once the person is asked to sign in, refusals wait for them rather than refresh.
                let refreshable = unauthorized && !renewed && self.pending.borrow().is_none() && self.has_refresh_token();
                if !refreshable {
                    *self.pending.borrow_mut() = challenge.or(Some(Challenge::default()));
                    return Ok(response);
                }
            }
            sign_ins += 1;
            let refresh_first = unauthorized && !renewed && self.has_refresh_token();
            if let Err(error) = self.reauthorize(token, refresh_first, challenge.as_ref()).await {
                *self.last_error.borrow_mut() = Some(error);
                // The caller gets the server's own refusal.
                return Ok(response);
            }
            renewed = unauthorized;
        }
    }

    /// Whether a `403 insufficient_scope` asks for a scope not yet asked for (else stepping up
    /// cannot help).
    fn asks_for_more(&self, challenge: &Challenge) -> bool {
        let asked = self.grant.borrow().as_ref().map(|grant| grant.requested_scopes.clone()).unwrap_or_default();
        challenge.scopes().iter().any(|scope| !asked.contains(scope))
    }

    /// A new token, unless another request already got one since `sent_with` was sent: refreshed
    /// when `refresh_first` allows, else (or when the refresh token is refused, outside
    /// [`SignInMode::OnRequest`]) by a new sign-in.
    async fn reauthorize(
        &self,
        sent_with: Option<String>,
        refresh_first: bool,
        challenge: Option<&Challenge>,
    ) -> Result<(), OAuthError> {
        let _exclusive = self.exclusive.lock().await;
        if self.access_token() != sent_with {
            return Ok(());
        }
        let previous = self.grant();
        if let (true, Some(grant)) = (refresh_first, previous.as_ref()) {
            match self.refresh_grant(grant, challenge).await {
                Ok(()) => return Ok(()),
                Err(RefreshError::Refused(error)) if self.mode == SignInMode::OnRequest => return Err(error),
                Err(RefreshError::Unavailable(error)) => return Err(error),
                Err(RefreshError::Refused(_)) => {}
            }
        }
        let grant = sign_in(&self.ports, &self.identity, &self.server_url, challenge, previous.as_ref()).await?;
        self.store(Some(grant));
        *self.last_error.borrow_mut() = None;
        Ok(())
    }

    /// Refreshes `grant`. A refused refresh token ends the grant (and, in
    /// [`SignInMode::OnRequest`], asks the person to sign in); any other failure (no answer, 5xx,
    /// 429) keeps it, so one bad moment at the authorization server signs no one out.
    async fn refresh_grant(&self, grant: &Grant, challenge: Option<&Challenge>) -> Result<(), RefreshError> {
        let result = refresh(&self.ports, grant).await;
        match &result {
            Ok(refreshed) => {
                self.store(Some(refreshed.clone()));
                *self.last_error.borrow_mut() = None;
            }
            Err(RefreshError::Refused(error)) => {
                self.store(None);
                if self.mode == SignInMode::OnRequest {
                    *self.pending.borrow_mut() = Some(challenge.cloned().unwrap_or_default());
                }
                *self.last_error.borrow_mut() = Some(error.clone());
            }
            Err(RefreshError::Unavailable(error)) => *self.last_error.borrow_mut() = Some(error.clone()),
        }
        result.map(|_| ())
    }

    /// Refreshes a token about to expire; `true` when a new one is in place. On failure the request
    /// goes out with the old token (or none, when the refresh token was refused).
    async fn refresh_if_expiring(&self) -> bool {
        let expiring = self.grant.borrow().as_ref().is_some_and(|grant| {
            grant.tokens.refresh_token.is_some() && grant.expires_within(self.ports.clock.unix_ms(), REFRESH_MARGIN_MS)
        });
        if !expiring {
            return false;
        }
        let _exclusive = self.exclusive.lock().await;
        let Some(grant) = self.grant() else { return false };
        if !grant.expires_within(self.ports.clock.unix_ms(), REFRESH_MARGIN_MS) {
            // Another request refreshed it meanwhile.
            return true;
        }
        self.refresh_grant(&grant, None).await.is_ok()
    }
}

impl HttpTransport for AuthorizedHttp {
    fn send(&self, request: HttpRequest, cancel: CancelToken) -> LocalBoxFuture<'_, Result<HttpResponse, HttpError>> {
        // A request that carries its own credentials (a server configured with a static token)
        // keeps them, and its refusals are not this server's to answer with a sign-in.
        let has_own_credentials = request.headers.iter().any(|(name, _)| name.eq_ignore_ascii_case("authorization"));
        if !self.is_for_server(&request.url) || has_own_credentials {
            return self.ports.http.send(request, cancel);
        }
        Box::pin(self.send_authorized(request, cancel))
    }
}
