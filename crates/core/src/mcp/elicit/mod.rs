//! Elicitation: a server asks the person for input while it handles a request. The core reads the
//! request into a [`form::Form`] (or a URL to open), hands it to an [`Elicitor`] (the page's chat, or
//! the conformance runner), and checks what comes back before it answers the server.

pub mod form;

use std::rc::Rc;

use futures::future::LocalBoxFuture;
use serde_json::{Map, Value};

use crate::mcp::elicit::form::Form;
use crate::mcp::endpoint::server_host;
use crate::mcp::model::elicit::{ElicitAction, ElicitParams, ElicitResult};

/// What the person is asked.
#[derive(Clone, Debug, PartialEq)]
pub struct ElicitationRequest {
    /// The server asking, as the hub names it.
    pub server: String,
    pub message: String,
    pub kind: ElicitationKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ElicitationKind {
    Form(Form),
    /// Open `url` (only after the person agrees); `host` is what to show them.
    Url { url: String, host: String, elicitation_id: String },
}

/// The person's answer. `Accept` carries the form's values (empty for a URL).
#[derive(Clone, Debug, PartialEq)]
pub enum ElicitationAnswer {
    Accept(Map<String, Value>),
    Decline,
    Cancel,
}

/// Whoever answers elicitations. Dropping the returned future (Stop, a timeout) withdraws the question.
pub trait Elicitor {
    /// Whether URL mode is handled (it is declared to servers only then).
    fn supports_url(&self) -> bool;
    fn elicit(&self, request: ElicitationRequest) -> LocalBoxFuture<'static, ElicitationAnswer>;
}

/// Why a request could not be put to the person; the server gets it as an invalid-params error.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ElicitError {
    #[error("malformed elicitation request: {0}")]
    Malformed(String),
    #[error("elicitation mode \"{0}\" is not supported by this client")]
    UnsupportedMode(String),
    #[error("the requested schema cannot be shown as a form: {0}")]
    BadSchema(#[from] form::FormError),
}

/// Reads `params` into what to ask, for `server`.
pub fn read_request(server: &str, params: Option<Value>, supports_url: bool) -> Result<ElicitationRequest, ElicitError> {
    let params: ElicitParams = serde_json::from_value(params.unwrap_or(Value::Null))
        .map_err(|error| ElicitError::Malformed(error.to_string()))?;
    let kind = match params.mode.as_deref() {
        None | Some("form") => {
            let schema = params.requested_schema.ok_or_else(|| ElicitError::Malformed("no requestedSchema".to_owned()))?;
            ElicitationKind::Form(Form::from_schema(&schema)?)
        }
        Some("url") if supports_url => {
            let url = params.url.ok_or_else(|| ElicitError::Malformed("no url".to_owned()))?;
            let host = server_host(&url).map_err(|error| ElicitError::Malformed(error.to_string()))?;
            ElicitationKind::Url { url, host, elicitation_id: params.elicitation_id.unwrap_or_default() }
        }
        Some(other) => return Err(ElicitError::UnsupportedMode(other.to_owned())),
    };
    Ok(ElicitationRequest { server: server.to_owned(), message: params.message, kind })
}

/// The result sent back. An accepted form is checked again here, so an elicitor can never send
/// values the form would refuse: those become a decline.
pub fn to_result(request: &ElicitationRequest, answer: ElicitationAnswer) -> ElicitResult {
    match (answer, &request.kind) {
        (ElicitationAnswer::Accept(values), ElicitationKind::Form(form)) => match form.check(&values) {
            Ok(content) => ElicitResult { action: ElicitAction::Accept, content: Some(content) },
            Err(_) => ElicitResult { action: ElicitAction::Decline, content: None },
        },
        (ElicitationAnswer::Accept(_), ElicitationKind::Url { .. }) => {
            ElicitResult { action: ElicitAction::Accept, content: None }
        }
        (ElicitationAnswer::Decline, _) => ElicitResult { action: ElicitAction::Decline, content: None },
        (ElicitationAnswer::Cancel, _) => ElicitResult { action: ElicitAction::Cancel, content: None },
    }
}

/// An elicitor with nobody to ask: it submits each form exactly as [`Form::prefilled`] fills it
/// (the defaults), the same values a person would send by pressing Accept at once, and declines
/// forms whose required fields have no default. For unattended clients (the conformance runner).
pub struct AcceptDefaults;

impl Elicitor for AcceptDefaults {
    fn supports_url(&self) -> bool {
        false
    }

    fn elicit(&self, request: ElicitationRequest) -> LocalBoxFuture<'static, ElicitationAnswer> {
        let answer = match &request.kind {
            ElicitationKind::Form(form) => match form.check(&form.prefilled()) {
                Ok(values) => ElicitationAnswer::Accept(values),
                Err(_) => ElicitationAnswer::Decline,
            },
            ElicitationKind::Url { .. } => ElicitationAnswer::Decline,
        };
        Box::pin(async move { answer })
    }
}

pub type SharedElicitor = Rc<dyn Elicitor>;
