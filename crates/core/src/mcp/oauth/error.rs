//! What went wrong while authorizing, naming the step and the URL so the person (or whoever runs
//! the server) knows where to look.

use crate::ports::HttpError;

/// The step of the flow that failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Discovery,
    Registration,
    Authorization,
    Token,
    Refresh,
    Revocation,
}

impl Step {
    pub fn label(self) -> &'static str {
        match self {
            Step::Discovery => "discovery",
            Step::Registration => "client registration",
            Step::Authorization => "authorization",
            Step::Token => "token request",
            Step::Refresh => "token refresh",
            Step::Revocation => "token revocation",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("OAuth {} failed at {url}: {detail}", .step.label())]
pub struct OAuthError {
    pub step: Step,
    pub url: String,
    pub detail: String,
}

impl OAuthError {
    pub fn new(step: Step, url: impl Into<String>, detail: impl Into<String>) -> OAuthError {
        OAuthError { step, url: url.into(), detail: detail.into() }
    }

    /// A request that got no HTTP status: from a page, CORS is the usual cause.
    pub fn from_http(step: Step, url: &str, error: HttpError) -> OAuthError {
        let detail = match error {
            HttpError::Network(detail) => format!(
                "no HTTP answer ({detail}); the server is down, or (from a browser) its response lacks \
                 Access-Control-Allow-Origin for this page's origin (a CORS failure)"
            ),
            other => other.to_string(),
        };
        OAuthError::new(step, url, detail)
    }

    /// The person closed the sign-in window or refused consent: not a fault of the server.
    pub fn is_cancelled_by_person(&self) -> bool {
        self.step == Step::Authorization && self.detail.starts_with(CANCELLED)
    }
}

/// How an [`crate::mcp::oauth::Authorizer`] reports a sign-in the person abandoned.
pub const CANCELLED: &str = "sign-in cancelled";
