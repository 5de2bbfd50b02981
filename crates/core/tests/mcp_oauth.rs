//! OAuth for MCP servers end to end in the core: `AuthorizedHttp` against a fake protected MCP
//! endpoint and authorization server (routed by URL, recording every request), with a fake person
//! who follows the authorization URL.

mod common;

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use autoui_core::cancel::CancelToken;
use autoui_core::mcp::oauth::client::{ClientIdentity, Credentials};
use autoui_core::mcp::oauth::error::Step;
use autoui_core::mcp::oauth::flow::{Authorizer, OAuthPorts};
use autoui_core::mcp::oauth::pkce::s256;
use autoui_core::mcp::oauth::route::server_for_request;
use autoui_core::mcp::oauth::transport::{AuthorizedHttp, SignInMode};
use autoui_core::ports::{HttpError, HttpRequest, HttpResponse, HttpTransport, Method};
use common::Counter;
use common::clock::FakeClock;
use futures::executor::block_on;
use futures::future::LocalBoxFuture;
use futures::stream::{self, StreamExt};
use serde_json::{Value, json};

const MCP: &str = "https://mcp.example.com/mcp";
const AS: &str = "https://auth.example.com";
const PRM: &str = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
const REDIRECT: &str = "https://app.example.com/oauth/callback.html";

/// A protected MCP endpoint and its authorization server. Tools need `basic`; calls need `write` too.
struct Servers {
    requests: RefCell<Vec<HttpRequest>>,
    prm: RefCell<Option<Value>>,
    /// Where the authorization server's metadata is served, and what it says.
    metadata: RefCell<Option<(String, Value)>>,
    /// The scope the authorization request asked for, by the code it issued.
    codes: RefCell<Vec<(String, String, String)>>,
    /// Issued access tokens and their scopes.
    tokens: RefCell<Vec<(String, String)>>,
    issued: Cell<u32>,
    challenge_scope: &'static str,
    call_scope: &'static str,
    refresh_rotates: bool,
    /// The authorization server no longer honours refresh tokens.
    revoked: Cell<bool>,
    /// How many refresh requests the token endpoint answers 503 (a moment of trouble) first.
    refresh_outages: Cell<u32>,
    /// The MCP endpoint answers 401 to any token (it does not accept this issuer's).
    refuses_every_token: Cell<bool>,
    /// What the protected-resource metadata URL answers instead of the metadata: a status, or
    /// (`None`) no HTTP answer at all.
    prm_failure: Cell<Option<Option<u16>>>,
}

impl Servers {
    fn new() -> Rc<Servers> {
        Rc::new(Servers {
            requests: RefCell::new(Vec::new()),
            prm: RefCell::new(Some(json!({"resource": MCP, "authorization_servers": [AS], "scopes_supported": ["basic", "write"]}))),
            metadata: RefCell::new(Some((format!("{AS}/.well-known/oauth-authorization-server"), as_metadata()))),
            codes: RefCell::new(Vec::new()),
            tokens: RefCell::new(Vec::new()),
            issued: Cell::new(0),
            challenge_scope: "basic",
            call_scope: "basic write",
            refresh_rotates: true,
            revoked: Cell::new(false),
            refresh_outages: Cell::new(0),
            refuses_every_token: Cell::new(false),
            prm_failure: Cell::new(None),
        })
    }

    fn urls(&self) -> Vec<String> {
        self.requests.borrow().iter().map(|r| format!("{} {}", r.method.as_str(), r.url.split('?').next().unwrap())).collect()
    }

    fn requests_to(&self, url: &str) -> Vec<HttpRequest> {
        self.requests.borrow().iter().filter(|r| r.url == url).cloned().collect()
    }

    fn respond(&self, request: &HttpRequest) -> (u16, Vec<(String, String)>, String) {
        let url = request.url.as_str();
        let form = |name: &str| form_field(request.body.as_deref().unwrap_or(""), name);
        if url == MCP {
            let bearer = request.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case("authorization")).map(|(_, v)| v.clone());
            let granted = bearer
                .and_then(|value| value.strip_prefix("Bearer ").map(str::to_owned))
                .and_then(|token| self.tokens.borrow().iter().find(|(t, _)| *t == token).map(|(_, s)| s.clone()))
                .filter(|_| !self.refuses_every_token.get());
            let needed = if request.body.as_deref().unwrap_or("").contains("tools/call") { self.call_scope } else { self.challenge_scope };
            return match granted {
                None => (
                    401,
                    vec![("WWW-Authenticate".into(), format!(r#"Bearer resource_metadata="{PRM}", scope="{}""#, self.challenge_scope))],
                    String::new(),
                ),
                Some(scopes) if !needed.split(' ').all(|s| scopes.split(' ').any(|g| g == s)) => (
                    403,
                    vec![("WWW-Authenticate".into(), format!(r#"Bearer error="insufficient_scope", scope="{needed}""#))],
                    String::new(),
                ),
                Some(_) => (200, vec![], r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into()),
            };
        }
        if let (PRM, Some(Some(status))) = (url, self.prm_failure.get()) {
            return (status, vec![], "<html>oops</html>".into());
        }
        if url == PRM {
            return self.prm.borrow().as_ref().map_or((404, vec![], String::new()), |prm| (200, vec![], prm.to_string()));
        }
        if let Some((_, metadata)) = self.metadata.borrow().as_ref().filter(|(at, _)| at == url) {
            return (200, vec![], metadata.to_string());
        }
        if url == format!("{AS}/register") {
            return (201, vec![], json!({"client_id": "dynamic-client"}).to_string());
        }
        if url == format!("{AS}/revoke") {
            return (200, vec![], String::new());
        }
        if url == format!("{AS}/token") {
            let outage = self.refresh_outages.get();
            if outage > 0 && form("grant_type").as_deref() == Some("refresh_token") {
                self.refresh_outages.set(outage - 1);
                return (503, vec![], "Service Unavailable".into());
            }
            let scope = match form("grant_type").as_deref() {
                Some("authorization_code") => {
                    let code = form("code").unwrap_or_default();
                    let found = self.codes.borrow().iter().find(|(c, _, _)| *c == code).cloned();
                    let Some((_, scope, challenge)) = found else { return (400, vec![], r#"{"error":"invalid_grant"}"#.into()) };
                    if s256(&form("code_verifier").unwrap_or_default()) != challenge {
                        return (400, vec![], r#"{"error":"invalid_grant","error_description":"PKCE"}"#.into());
                    }
                    scope
                }
                Some("refresh_token") if !self.revoked.get() && form("refresh_token").is_some_and(|t| t.starts_with("refresh-")) => {
                    self.tokens.borrow().last().map(|(_, s)| s.clone()).unwrap_or_default()
                }
                _ => return (400, vec![], r#"{"error":"invalid_grant","error_description":"revoked"}"#.into()),
            };
            self.issued.set(self.issued.get() + 1);
            let n = self.issued.get();
            self.tokens.borrow_mut().push((format!("access-{n}"), scope.clone()));
            let mut answer = json!({"access_token": format!("access-{n}"), "token_type": "bearer", "expires_in": 3600, "scope": scope});
            if self.refresh_rotates || n == 1 {
                answer["refresh_token"] = json!(format!("refresh-{n}"));
            }
            return (200, vec![], answer.to_string());
        }
        (404, vec![], "not found".into())
    }
}

fn as_metadata() -> Value {
    json!({
        "issuer": AS,
        "authorization_endpoint": format!("{AS}/authorize"),
        "token_endpoint": format!("{AS}/token"),
        "registration_endpoint": format!("{AS}/register"),
        "code_challenge_methods_supported": ["S256"],
        "response_types_supported": ["code"]
    })
}

fn form_field(text: &str, name: &str) -> Option<String> {
    form_urlencoded::parse(text.as_bytes()).find(|(k, _)| k == name).map(|(_, v)| v.into_owned())
}

struct Http(Rc<Servers>);

impl HttpTransport for Http {
    fn send(&self, request: HttpRequest, _cancel: CancelToken) -> LocalBoxFuture<'_, Result<HttpResponse, HttpError>> {
        self.0.requests.borrow_mut().push(request.clone());
        if request.url == PRM && self.0.prm_failure.get() == Some(None) {
            return Box::pin(async { Err(HttpError::Network("connection refused".into())) });
        }
        let (status, headers, body) = self.0.respond(&request);
        Box::pin(async move { Ok(HttpResponse { status, headers, body: stream::iter([Ok(body.into_bytes())]).boxed_local() }) })
    }
}

/// The person: follows the authorization URL (recorded) and comes back with a code, or tampers.
struct Person {
    servers: Rc<Servers>,
    visited: RefCell<Vec<String>>,
    wrong_state: bool,
}

impl Authorizer for Person {
    fn authorize(&self, url: String) -> LocalBoxFuture<'_, Result<String, String>> {
        self.visited.borrow_mut().push(url.clone());
        let query = url.split_once('?').map(|(_, q)| q.to_owned()).unwrap_or_default();
        let field = |name: &str| form_field(&query, name).unwrap_or_default();
        let code = format!("code-{}", self.visited.borrow().len());
        self.servers.codes.borrow_mut().push((code.clone(), field("scope"), field("code_challenge")));
        let state = if self.wrong_state { "forged".to_owned() } else { field("state") };
        let callback = format!("{}?code={code}&state={state}", field("redirect_uri"));
        Box::pin(async move { Ok(callback) })
    }
}

struct Setup {
    servers: Rc<Servers>,
    person: Rc<Person>,
    clock: FakeClock,
    http: AuthorizedHttp,
}

fn setup(servers: Rc<Servers>, identity: ClientIdentity, wrong_state: bool) -> Setup {
    setup_in(SignInMode::Automatic, servers, identity, wrong_state)
}

fn setup_in(mode: SignInMode, servers: Rc<Servers>, identity: ClientIdentity, wrong_state: bool) -> Setup {
    let person = Rc::new(Person { servers: servers.clone(), visited: RefCell::new(Vec::new()), wrong_state });
    let clock = FakeClock::new();
    let ports = OAuthPorts {
        http: Rc::new(Http(servers.clone())),
        random: Rc::new(Counter::new(7)),
        clock: Rc::new(clock.clone()),
        authorizer: person.clone(),
    };
    let http = AuthorizedHttp::new(ports, mode, identity, MCP, None);
    Setup { servers, person, clock, http }
}

fn identity() -> ClientIdentity {
    ClientIdentity { client_name: "autoui".into(), redirect_uri: REDIRECT.into(), metadata_document_url: None, preregistered: None }
}

fn call(http: &AuthorizedHttp, method: &str) -> u16 {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": method}).to_string();
    block_on(http.send(HttpRequest::new(Method::Post, MCP).json_body(body), CancelToken::new())).unwrap().status
}

fn query_of(url: &str) -> String {
    url.split_once('?').map(|(_, q)| q.to_owned()).unwrap_or_default()
}

#[test]
fn a_401_leads_through_discovery_registration_and_pkce_to_a_retried_request_with_the_token() {
    let s = setup(Servers::new(), identity(), false);
    assert_eq!(call(&s.http, "tools/list"), 200);
    assert_eq!(
        s.servers.urls(),
        [
            format!("POST {MCP}"),
            format!("GET {PRM}"),
            format!("GET {AS}/.well-known/oauth-authorization-server"),
            format!("POST {AS}/register"),
            format!("POST {AS}/token"),
            format!("POST {MCP}"),
        ]
    );
    let registration: Value = serde_json::from_str(s.servers.requests_to(&format!("{AS}/register"))[0].body.as_ref().unwrap()).unwrap();
    assert_eq!(registration["application_type"], "web");
    assert_eq!(registration["token_endpoint_auth_method"], "none");
    assert_eq!(registration["redirect_uris"], json!([REDIRECT]));
    let visited = s.person.visited.borrow()[0].clone();
    assert!(visited.starts_with(&format!("{AS}/authorize?")), "{visited}");
    let query = query_of(&visited);
    assert_eq!(form_field(&query, "code_challenge_method").as_deref(), Some("S256"));
    assert_eq!(form_field(&query, "client_id").as_deref(), Some("dynamic-client"));
    assert_eq!(form_field(&query, "resource").as_deref(), Some(MCP));
    assert_eq!(form_field(&query, "scope").as_deref(), Some("basic"), "the challenge's scope wins over scopes_supported");
    assert!(form_field(&query, "state").is_some_and(|state| state.len() >= 22));
    let token_form = s.servers.requests_to(&format!("{AS}/token"))[0].body.clone().unwrap();
    assert_eq!(form_field(&token_form, "resource").as_deref(), Some(MCP));
    assert_eq!(form_field(&token_form, "client_id").as_deref(), Some("dynamic-client"));
    let retried = s.servers.requests_to(MCP).pop().unwrap();
    assert!(retried.headers.contains(&("Authorization".into(), "Bearer access-1".into())));
    let grant = s.http.grant().unwrap();
    assert_eq!(grant.issuer, AS);
    assert!(!format!("{grant:?}").contains("access-1"), "tokens stay out of debug output");
    // The next request goes out with the token at once.
    assert_eq!(call(&s.http, "tools/list"), 200);
    assert_eq!(s.servers.requests.borrow().len(), 7);
}

#[test]
fn without_a_challenge_url_the_path_form_then_the_root_well_known_is_tried_and_an_issuer_path_keeps_its_order() {
    let servers = Servers::new();
    // Served at the root well-known only (below), with the issuer at a path.
    let mut prm = servers.prm.borrow_mut().take().unwrap();
    prm["authorization_servers"] = json!([format!("{AS}/tenant1")]);
    prm["resource"] = json!("https://mcp.example.com");
    let mut metadata = as_metadata();
    metadata["issuer"] = json!(format!("{AS}/tenant1"));
    *servers.metadata.borrow_mut() = Some((format!("{AS}/tenant1/.well-known/openid-configuration"), metadata));
    let root = "https://mcp.example.com/.well-known/oauth-protected-resource";
    let s = setup(servers, identity(), false);
    let http = RootPrm { inner: Http(s.servers.clone()), root, prm };
    let discovered = block_on(autoui_core::mcp::oauth::discovery::discover(&http, MCP, None)).unwrap();
    assert_eq!(discovered.server.issuer, format!("{AS}/tenant1"));
    assert_eq!(discovered.resource, "https://mcp.example.com");
    assert_eq!(
        s.servers.urls(),
        [
            format!("GET {PRM}"),
            format!("GET {root}"),
            format!("GET {AS}/.well-known/oauth-authorization-server/tenant1"),
            format!("GET {AS}/.well-known/openid-configuration/tenant1"),
            format!("GET {AS}/tenant1/.well-known/openid-configuration"),
        ]
    );
}

/// Serves protected-resource metadata at the root well-known, over the fake servers.
struct RootPrm {
    inner: Http,
    root: &'static str,
    prm: Value,
}

impl HttpTransport for RootPrm {
    fn send(&self, request: HttpRequest, cancel: CancelToken) -> LocalBoxFuture<'_, Result<HttpResponse, HttpError>> {
        if request.url == self.root {
            self.inner.0.requests.borrow_mut().push(request);
            let body = self.prm.to_string();
            return Box::pin(async move { Ok(HttpResponse { status: 200, headers: vec![], body: stream::iter([Ok(body.into_bytes())]).boxed_local() }) });
        }
        self.inner.send(request, cancel)
    }
}

#[test]
fn an_authorization_server_without_s256_is_refused_before_the_person_is_sent_anywhere() {
    let servers = Servers::new();
    let mut metadata = as_metadata();
    metadata.as_object_mut().unwrap().remove("code_challenge_methods_supported");
    *servers.metadata.borrow_mut() = Some((format!("{AS}/.well-known/oauth-authorization-server"), metadata));
    let s = setup(servers, identity(), false);
    assert_eq!(call(&s.http, "tools/list"), 401, "the caller gets the server's refusal");
    let error = s.http.last_error().unwrap();
    assert_eq!(error.step, Step::Discovery);
    assert!(error.to_string().contains("does not support PKCE with S256"), "{error}");
    assert!(s.person.visited.borrow().is_empty());
}

#[test]
fn a_protected_resource_metadata_for_another_server_is_refused() {
    let servers = Servers::new();
    servers.prm.borrow_mut().as_mut().unwrap()["resource"] = json!("https://evil.example.com/mcp");
    let s = setup(servers, identity(), false);
    assert_eq!(call(&s.http, "tools/list"), 401);
    assert!(s.http.last_error().unwrap().to_string().contains("is for https://evil.example.com/mcp"));
    assert!(s.person.visited.borrow().is_empty());
}

#[test]
fn pre_registered_credentials_skip_registration_and_authenticate_with_basic() {
    let mut identity = identity();
    identity.preregistered = Some(Credentials { client_id: "my app".into(), client_secret: Some("s3:cret".into()), auth_method: None });
    let s = setup(Servers::new(), identity, false);
    assert_eq!(call(&s.http, "tools/list"), 200);
    assert!(s.servers.requests_to(&format!("{AS}/register")).is_empty());
    let token = &s.servers.requests_to(&format!("{AS}/token"))[0];
    // base64("my+app:s3%3Acret")
    assert!(token.headers.contains(&("Authorization".into(), "Basic bXkrYXBwOnMzJTNBY3JldA==".into())), "{:?}", token.headers);
    assert_eq!(form_field(token.body.as_deref().unwrap(), "client_secret"), None);
}

#[test]
fn a_client_id_metadata_document_is_used_when_the_server_supports_it() {
    let servers = Servers::new();
    servers.metadata.borrow_mut().as_mut().unwrap().1["client_id_metadata_document_supported"] = json!(true);
    let mut identity = identity();
    identity.metadata_document_url = Some("https://app.example.com/oauth/client.json".into());
    let s = setup(servers, identity, false);
    assert_eq!(call(&s.http, "tools/list"), 200);
    assert!(s.servers.requests_to(&format!("{AS}/register")).is_empty());
    let query = query_of(&s.person.visited.borrow()[0]);
    assert_eq!(form_field(&query, "client_id").as_deref(), Some("https://app.example.com/oauth/client.json"));
}

#[test]
fn without_any_way_to_get_a_client_id_the_message_asks_the_person_for_one() {
    let servers = Servers::new();
    servers.metadata.borrow_mut().as_mut().unwrap().1.as_object_mut().unwrap().remove("registration_endpoint");
    let s = setup(servers, identity(), false);
    assert_eq!(call(&s.http, "tools/list"), 401);
    let error = s.http.last_error().unwrap();
    assert_eq!(error.step, Step::Registration);
    assert!(error.to_string().contains("enter a client_id"), "{error}");
}

#[test]
fn a_callback_with_the_wrong_state_is_ignored_and_no_token_is_requested() {
    let s = setup(Servers::new(), identity(), true);
    assert_eq!(call(&s.http, "tools/list"), 401);
    let error = s.http.last_error().unwrap();
    assert_eq!(error.step, Step::Authorization);
    assert!(error.to_string().contains("state does not match"), "{error}");
    assert!(s.servers.requests_to(&format!("{AS}/token")).is_empty());
    assert!(s.http.grant().is_none());
}

#[test]
fn insufficient_scope_steps_up_once_with_the_union_of_scopes_and_an_impossible_scope_stops() {
    let s = setup(Servers::new(), identity(), false);
    assert_eq!(call(&s.http, "tools/list"), 200);
    assert_eq!(call(&s.http, "tools/call"), 200);
    let visited = s.person.visited.borrow().clone();
    assert_eq!(visited.len(), 2);
    assert_eq!(form_field(&query_of(&visited[1]), "scope").as_deref(), Some("basic write"));
    assert_eq!(s.servers.requests_to(&format!("{AS}/register")).len(), 1, "the step-up reuses the client_id");

    // A server that keeps refusing a scope already asked for gets its 403 back, without a new sign-in.
    let servers = Rc::new(Servers { call_scope: "basic", challenge_scope: "basic", ..Rc::try_unwrap(Servers::new()).ok().unwrap() });
    let s = setup(servers, identity(), false);
    assert_eq!(call(&s.http, "tools/list"), 200);
    s.servers.tokens.borrow_mut().iter_mut().for_each(|(_, scope)| *scope = String::new());
    assert_eq!(call(&s.http, "tools/list"), 403);
    assert_eq!(s.person.visited.borrow().len(), 1);
}

#[test]
fn an_expiring_token_is_refreshed_before_the_request_and_the_rotated_refresh_token_kept() {
    let s = setup(Servers::new(), identity(), false);
    assert_eq!(call(&s.http, "tools/list"), 200);
    s.clock.advance(3_590_000.0);
    assert_eq!(call(&s.http, "tools/list"), 200);
    let refresh = s.servers.requests_to(&format!("{AS}/token")).pop().unwrap();
    let form = refresh.body.unwrap();
    assert_eq!(form_field(&form, "grant_type").as_deref(), Some("refresh_token"));
    assert_eq!(form_field(&form, "refresh_token").as_deref(), Some("refresh-1"));
    assert_eq!(form_field(&form, "resource").as_deref(), Some(MCP));
    let grant = s.http.grant().unwrap();
    assert_eq!(grant.tokens.access_token, "access-2");
    assert_eq!(grant.tokens.refresh_token.as_deref(), Some("refresh-2"));
    assert_eq!(s.person.visited.borrow().len(), 1, "no new sign-in");
}

#[test]
fn a_2025_03_26_server_without_metadata_uses_the_default_endpoints_at_its_origin() {
    let servers = Rc::new(Servers { prm: RefCell::new(None), metadata: RefCell::new(None), ..Rc::try_unwrap(Servers::new()).ok().unwrap() });
    let s = setup(servers, identity(), false);
    // The fake serves /register and /token on the authorization server's host only: the flow
    // fails at the origin's /register, which the error names.
    assert_eq!(call(&s.http, "tools/list"), 401);
    let error = s.http.last_error().unwrap();
    assert_eq!(error.step, Step::Registration);
    assert!(error.url == "https://mcp.example.com/register", "{error}");
    assert!(s.servers.urls().contains(&"GET https://mcp.example.com/.well-known/oauth-authorization-server".to_owned()));
}

#[test]
fn the_token_is_sent_only_to_the_servers_own_origin() {
    let s = setup(Servers::new(), identity(), false);
    assert_eq!(call(&s.http, "tools/list"), 200);
    let elsewhere = HttpRequest::new(Method::Get, "https://other.example.com/mcp");
    let _ = block_on(s.http.send(elsewhere, CancelToken::new()));
    let sent = s.servers.requests.borrow().last().cloned().unwrap();
    assert_eq!(sent.url, "https://other.example.com/mcp");
    assert!(sent.headers.iter().all(|(name, _)| !name.eq_ignore_ascii_case("authorization")));
}

/// A page's client: refusals wait for the person's "Sign in"; every grant change is reported.
fn on_request() -> (Setup, Rc<RefCell<Vec<Option<String>>>>) {
    let servers = Servers::new();
    servers.metadata.borrow_mut().as_mut().unwrap().1["revocation_endpoint"] = json!(format!("{AS}/revoke"));
    let s = setup_in(SignInMode::OnRequest, servers, identity(), false);
    let changes = Rc::new(RefCell::new(Vec::new()));
    let seen = changes.clone();
    s.http.on_grant_change(Box::new(move |grant| seen.borrow_mut().push(grant.map(|g| g.tokens.access_token.clone()))));
    (s, changes)
}

#[test]
fn on_request_a_401_waits_for_the_persons_sign_in_which_then_uses_the_challenge() {
    let (s, changes) = on_request();
    assert_eq!(call(&s.http, "tools/list"), 401);
    assert!(s.person.visited.borrow().is_empty(), "no sign-in without the person");
    assert_eq!(s.http.sign_in_required().unwrap().scope.as_deref(), Some("basic"));
    let grant = block_on(s.http.sign_in()).unwrap();
    assert_eq!(grant.requested_scopes, ["basic"]);
    assert_eq!(s.person.visited.borrow().len(), 1);
    assert!(s.http.sign_in_required().is_none());
    assert_eq!(*changes.borrow(), [Some("access-1".to_owned())]);
    assert_eq!(call(&s.http, "tools/list"), 200);
    // A step-up also waits for the person.
    assert_eq!(call(&s.http, "tools/call"), 403);
    assert_eq!(s.http.sign_in_required().unwrap().scope.as_deref(), Some("basic write"));
    assert_eq!(s.person.visited.borrow().len(), 1);
}

#[test]
fn on_request_a_revoked_refresh_token_forgets_the_grant_and_asks_for_sign_in_again() {
    let (s, changes) = on_request();
    let _ = call(&s.http, "tools/list");
    block_on(s.http.sign_in()).unwrap();
    s.servers.tokens.borrow_mut().clear();
    s.servers.revoked.set(true);
    assert_eq!(call(&s.http, "tools/list"), 401);
    assert!(s.http.grant().is_none());
    assert!(s.http.sign_in_required().is_some());
    assert_eq!(s.http.last_error().unwrap().step, Step::Refresh);
    assert_eq!(*changes.borrow(), [Some("access-1".to_owned()), None]);
    assert_eq!(call(&s.http, "tools/list"), 401);
    let next = s.servers.requests_to(MCP).pop().unwrap();
    assert!(next.headers.iter().all(|(name, _)| !name.eq_ignore_ascii_case("authorization")), "no stale token is sent");
    assert!(s.servers.requests_to(&format!("{AS}/token")).len() == 2, "no second refresh attempt with the dead token");
}

#[test]
fn sign_out_revokes_the_refresh_token_and_forgets_the_grant() {
    let (s, changes) = on_request();
    let _ = call(&s.http, "tools/list");
    block_on(s.http.sign_in()).unwrap();
    block_on(s.http.sign_out()).unwrap();
    let revocation = s.servers.requests_to(&format!("{AS}/revoke")).pop().expect("a revocation request");
    let form = revocation.body.unwrap();
    assert_eq!(form_field(&form, "token").as_deref(), Some("refresh-1"));
    assert_eq!(form_field(&form, "token_type_hint").as_deref(), Some("refresh_token"));
    assert!(s.http.grant().is_none());
    assert_eq!(changes.borrow().last(), Some(&None));
    assert_eq!(call(&s.http, "tools/list"), 401);
}

/// What the authorization server redirects to for `authorization_url` (a code it will accept).
fn answer_for(s: &Setup, authorization_url: &str, state_override: Option<&str>) -> String {
    let person = Person { servers: s.servers.clone(), visited: RefCell::new(Vec::new()), wrong_state: false };
    let callback = block_on(person.authorize(authorization_url.to_owned())).unwrap();
    match state_override {
        Some(state) => callback.replace(&format!("state={}", form_field(&query_of(&callback), "state").unwrap()), &format!("state={state}")),
        None => callback,
    }
}

#[test]
fn a_sign_in_split_across_a_page_load_survives_as_json_and_keeps_its_checks() {
    let (s, changes) = on_request();
    assert_eq!(call(&s.http, "tools/list"), 401);
    let pending = block_on(s.http.begin_sign_in()).unwrap();
    assert!(pending.authorization_url.starts_with(&format!("{AS}/authorize?")), "{}", pending.authorization_url);
    assert!(s.person.visited.borrow().is_empty(), "the page itself sends the person away");
    let debug = format!("{pending:?}");
    let stored = serde_json::to_string(&pending).unwrap();
    let verifier = stored.split("\"verifier\":\"").nth(1).unwrap().split('"').next().unwrap().to_owned();
    assert!(!debug.contains(&verifier), "Debug hides the verifier: {debug}");

    // The page is reloaded: the pending sign-in comes back from storage.
    let restored: autoui_core::mcp::oauth::flow::PendingSignIn = serde_json::from_str(&stored).unwrap();
    let forged = answer_for(&s, &restored.authorization_url, Some("forged"));
    let error = block_on(s.http.finish_sign_in(&restored, &forged)).unwrap_err();
    assert!(error.detail.contains("state does not match"), "{error}");
    assert!(s.servers.requests_to(&format!("{AS}/token")).is_empty(), "no token asked for a forged answer");

    let answer = answer_for(&s, &restored.authorization_url, None);
    let grant = block_on(s.http.finish_sign_in(&restored, &answer)).unwrap();
    assert_eq!(grant.requested_scopes, ["basic"]);
    let token_request = s.servers.requests_to(&format!("{AS}/token")).pop().unwrap();
    let form = token_request.body.unwrap_or_default();
    assert_eq!(form_field(&form, "code_verifier").as_deref(), Some(verifier.as_str()), "the stored verifier is the one used");
    assert!(s.http.sign_in_required().is_none() && s.http.last_error().is_none());
    assert_eq!(*changes.borrow(), [Some("access-1".to_owned())], "the grant is stored");
    assert_eq!(call(&s.http, "tools/list"), 200);
}

/// The refresh requests the token endpoint has received.
fn refreshes(servers: &Servers) -> usize {
    let grant_type = |request: &HttpRequest| form_field(request.body.as_deref().unwrap_or(""), "grant_type");
    servers.requests_to(&format!("{AS}/token")).iter().filter(|request| grant_type(request).as_deref() == Some("refresh_token")).count()
}

/// Signs in on request, then has the server stop accepting the access token (as when it expires
/// early or is revoked), keeping what it grants.
fn signed_in_then_token_refused() -> (Setup, Rc<RefCell<Vec<Option<String>>>>) {
    let (s, changes) = on_request();
    let _ = call(&s.http, "tools/list");
    block_on(s.http.sign_in()).unwrap();
    s.servers.tokens.borrow_mut().iter_mut().for_each(|(token, _)| token.push_str("-no-longer-accepted"));
    (s, changes)
}

#[test]
fn a_refresh_the_authorization_server_cannot_answer_keeps_the_person_signed_in_and_a_later_request_refreshes() {
    let (s, changes) = signed_in_then_token_refused();
    s.servers.refresh_outages.set(1);
    assert_eq!(call(&s.http, "tools/list"), 401, "the caller gets the server's refusal");
    assert_eq!(s.http.grant().and_then(|grant| grant.tokens.refresh_token).as_deref(), Some("refresh-1"), "the grant is kept");
    assert!(s.http.sign_in_required().is_none(), "no sign-in is asked for");
    let error = s.http.last_error().unwrap();
    assert_eq!(error.step, Step::Refresh);
    assert!(error.to_string().contains("HTTP 503") && error.to_string().contains("you are still signed in: try again"), "{error}");
    assert_eq!(*changes.borrow(), [Some("access-1".to_owned())], "the stored grant is not dropped");

    assert_eq!(call(&s.http, "tools/list"), 200);
    assert_eq!(s.http.grant().unwrap().tokens.access_token, "access-2");
    assert_eq!(refreshes(&s.servers), 2);
    assert!(s.http.last_error().is_none(), "the error is gone once a refresh worked");
    assert!(s.person.visited.borrow().len() == 1, "no new sign-in");
}

#[test]
fn a_server_that_refuses_even_a_refreshed_token_asks_for_sign_in_after_one_refresh() {
    let (s, _) = signed_in_then_token_refused();
    s.servers.refuses_every_token.set(true);
    assert_eq!(call(&s.http, "tools/list"), 401);
    assert_eq!(refreshes(&s.servers), 1, "one refresh, not one per retry");
    assert!(s.http.sign_in_required().is_some(), "the panel offers Sign in rather than Signed in");
    let error = s.http.last_error().unwrap();
    assert!(error.to_string().contains("refused the token even just after it was renewed; sign in again"), "{error}");

    // Until the person signs in, later requests use up no more refresh tokens.
    assert_eq!(call(&s.http, "tools/list"), 401);
    assert_eq!(refreshes(&s.servers), 1);
    s.servers.refuses_every_token.set(false);
    block_on(s.http.sign_in()).unwrap();
    assert!(s.http.sign_in_required().is_none());
    assert_eq!(call(&s.http, "tools/list"), 200);
}

#[test]
fn a_static_token_servers_request_keeps_its_own_header_beside_a_signed_in_server_on_the_same_origin() {
    const B: &str = "https://mcp.example.com/b/mcp";
    let s = setup(Servers::new(), identity(), false);
    assert_eq!(call(&s.http, "tools/list"), 200, "A is signed in");

    // The page's router asks which server a request is for: B's requests are B's, not A's.
    let servers = [(MCP, "oauth"), (B, "static token")];
    let owner = |servers: &[(&'static str, &'static str)], url: &str| {
        server_for_request(servers, |(url, _)| url, url).map(|(url, _)| *url)
    };
    assert_eq!(owner(&servers, B), Some(B));
    assert_eq!(owner(&servers, MCP), Some(MCP));
    let message_endpoint = "https://mcp.example.com/messages?sessionId=1";
    assert_eq!(owner(&servers, message_endpoint), None, "on a shared origin, a URL of neither server is nobody's");
    assert_eq!(owner(&servers[..1], message_endpoint), Some(MCP), "alone on its origin, a server's own message endpoint is its");

    // And a request that carries its own credentials keeps them, even through A's transport.
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string();
    let request = HttpRequest::new(Method::Post, B).header("Authorization", "Bearer b-static").json_body(body);
    let _ = block_on(s.http.send(request, CancelToken::new()));
    let sent = s.servers.requests_to(B).pop().unwrap();
    let authorization: Vec<&str> =
        sent.headers.iter().filter(|(name, _)| name.eq_ignore_ascii_case("authorization")).map(|(_, value)| value.as_str()).collect();
    assert_eq!(authorization, ["Bearer b-static"]);
}

#[test]
fn authorization_server_metadata_for_another_issuer_is_refused_naming_both() {
    let servers = Servers::new();
    servers.metadata.borrow_mut().as_mut().unwrap().1["issuer"] = json!("https://evil.example.com");
    let s = setup(servers, identity(), false);
    assert_eq!(call(&s.http, "tools/list"), 401);
    let error = s.http.last_error().unwrap();
    assert_eq!(error.step, Step::Discovery);
    assert_eq!(error.url, format!("{AS}/.well-known/oauth-authorization-server"));
    assert!(error.detail.contains("https://evil.example.com") && error.detail.contains(&format!("not {AS},")), "{error}");
    assert!(s.servers.requests_to(&format!("{AS}/register")).is_empty());
    assert!(s.person.visited.borrow().is_empty());

    // A trailing slash (as some SDKs write the issuer in the resource metadata) names the same issuer.
    let servers = Servers::new();
    servers.prm.borrow_mut().as_mut().unwrap()["authorization_servers"] = json!([format!("{AS}/")]);
    let s = setup(servers, identity(), false);
    assert_eq!(call(&s.http, "tools/list"), 200);

    // A 2025-03-26 server's metadata names an issuer at its own origin.
    let servers = Rc::new(Servers { prm: RefCell::new(None), ..Rc::try_unwrap(Servers::new()).ok().unwrap() });
    let mut metadata = as_metadata();
    metadata["issuer"] = json!("https://evil.example.com");
    *servers.metadata.borrow_mut() = Some(("https://mcp.example.com/.well-known/oauth-authorization-server".into(), metadata));
    let s = setup(servers, identity(), false);
    assert_eq!(call(&s.http, "tools/list"), 401);
    assert!(s.http.last_error().unwrap().detail.contains("https://evil.example.com, which is not at https://mcp.example.com"));
}

#[test]
fn protected_resource_metadata_that_cannot_be_read_stops_discovery_naming_its_url() {
    for (failure, why) in [(Some(500), "HTTP 500"), (None, "no HTTP answer (connection refused")] {
        let servers = Servers::new();
        servers.prm_failure.set(Some(failure));
        let s = setup(servers, identity(), false);
        assert_eq!(call(&s.http, "tools/list"), 401);
        let error = s.http.last_error().unwrap();
        assert_eq!((error.step, error.url.as_str()), (Step::Discovery, PRM), "{error}");
        assert!(error.detail.contains(why), "{error}");
        let guessed: Vec<String> =
            s.servers.urls().into_iter().filter(|url| url.contains("/register") || url.contains("authorization-server")).collect();
        assert!(guessed.is_empty(), "no endpoint is made up: {guessed:?}");
    }
}

#[test]
fn without_a_challenge_url_only_metadata_absent_everywhere_means_a_2025_03_26_server() {
    let discover = |s: &Setup| block_on(autoui_core::mcp::oauth::discovery::discover(&Http(s.servers.clone()), MCP, None));
    // The path form fails, the root has none: the failure is what the person must hear about.
    let servers = Servers::new();
    servers.prm_failure.set(Some(Some(503)));
    let s = setup(servers, identity(), false);
    let error = discover(&s).unwrap_err();
    assert_eq!(error.url, PRM, "{error}");
    assert!(error.detail.contains("HTTP 503"), "{error}");

    // 404 at both: no metadata published, so the 2025-03-26 defaults apply.
    let unpublished = Servers { prm: RefCell::new(None), metadata: RefCell::new(None), ..Rc::try_unwrap(Servers::new()).ok().unwrap() };
    let servers = Rc::new(unpublished);
    let s = setup(servers, identity(), false);
    let discovered = discover(&s).unwrap();
    assert!(discovered.default_endpoints);
    assert_eq!(discovered.server.registration_endpoint.as_deref(), Some("https://mcp.example.com/register"));
}
