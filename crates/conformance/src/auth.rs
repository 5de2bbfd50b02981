//! The runner's side of OAuth: the "person" who follows the authorization URL (a request that does
//! not follow redirects, reading `code` from `Location`, as the suite expects of a client), system
//! randomness for PKCE and `state`, and pre-registered credentials from `MCP_CONFORMANCE_CONTEXT`.

use autoui_core::mcp::oauth::client::{ClientIdentity, Credentials};
use autoui_core::mcp::oauth::flow::Authorizer;
use autoui_core::ports::Random;
use futures::future::LocalBoxFuture;
use serde_json::Value;

/// The suite's authorization servers redirect here at once; nothing listens, the runner reads the URL.
const REDIRECT_URI: &str = "http://localhost:3000/callback";
/// The Client ID Metadata Document URL the `auth/basic-cimd` scenario expects a client to use.
const METADATA_DOCUMENT_URL: &str = "https://conformance-test.local/client-metadata.json";

/// This client, with the credentials `context` (the suite's `MCP_CONFORMANCE_CONTEXT`) carries.
pub fn identity(context: Option<&str>) -> ClientIdentity {
    let context: Value = context.and_then(|text| serde_json::from_str(text).ok()).unwrap_or_default();
    let field = |name: &str| context.get(name).and_then(Value::as_str).map(str::to_owned);
    ClientIdentity {
        client_name: "autoui-conformance".to_owned(),
        redirect_uri: REDIRECT_URI.to_owned(),
        metadata_document_url: Some(METADATA_DOCUMENT_URL.to_owned()),
        preregistered: field("client_id").map(|client_id| Credentials {
            client_id,
            client_secret: field("client_secret"),
            auth_method: None,
        }),
    }
}

pub struct FollowRedirect {
    client: reqwest::Client,
}

impl FollowRedirect {
    pub fn new() -> Result<FollowRedirect, reqwest::Error> {
        let client = reqwest::Client::builder().no_proxy().redirect(reqwest::redirect::Policy::none()).build()?;
        Ok(FollowRedirect { client })
    }
}

impl Authorizer for FollowRedirect {
    fn authorize(&self, url: String) -> LocalBoxFuture<'_, Result<String, String>> {
        Box::pin(async move {
            let response = self.client.get(&url).send().await.map_err(|error| format!("no answer: {error}"))?;
            let status = response.status();
            let location = response.headers().get(reqwest::header::LOCATION).and_then(|value| value.to_str().ok());
            match location {
                Some(location) if status.is_redirection() => Ok(location.to_owned()),
                _ => Err(format!("expected a redirect to {REDIRECT_URI}, got HTTP {status}")),
            }
        })
    }
}

pub struct SystemRandom;

impl Random for SystemRandom {
    fn next_u64(&self) -> u64 {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).expect("the operating system's random source");
        u64::from_le_bytes(bytes)
    }
}
