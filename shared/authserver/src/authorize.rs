//! The browser half: `/authorize` validates the request and remembers it, the person signs
//! in (our local page, or the upstream OpenID provider and its callback), consents (or a
//! remembered consent covers it), and a single-use code goes back to the client.
//!
//! Trust order: until the client and its redirect URI are known good, errors are shown on
//! our own page (never a redirect: no open redirector); after that they go back to the
//! client with `state` and `iss` (RFC 9207). Every later step is bound to the browser that
//! started it (a cookie whose hash the request keeps), carries an anti-CSRF token, and moves
//! the request on by one stage with a conditional write, so nothing can be replayed.

use bytes::Bytes;
use dochiya_store::{Condition, Guard, Item, TTL_ATTRIBUTE, Value, WriteOp};
use http::header;
use http::{Request, Response, StatusCode};
use reqwest::Url;

use crate::cimd::Fetcher;
use crate::clients::{self, ClientError, store_failure};
use crate::config::{Deployment, SignIn};
use crate::pages::{self, ClientOrigin, ConsentView, Lang};
use crate::sign_in::{BINDING_COOKIE, NotStarted, callback_url};
use crate::signin_code::CodeRefusal;
use crate::state::{self, CodeRecord, PendingRequest, Stage, attrs, text};
use crate::{AuthServer, SCOPES, web};

/// The longest name the local sign-in accepts (it becomes the `sub`).
pub const MAX_LOCAL_NAME_CHARS: usize = 64;

/// A PKCE S256 challenge: base64url of a SHA-256, 43 characters.
fn is_s256_challenge(v: &str) -> bool {
    v.len() == 43
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Scopes asked for → the granted list in advertised order; `None` if any is unknown.
/// No scope asked means every scope this server has (what MCP clients expect when the
/// challenge names them all).
pub fn granted_scopes(asked: Option<&str>) -> Option<Vec<&'static str>> {
    let Some(asked) = asked else {
        return Some(SCOPES.to_vec());
    };
    // `offline_access` is ignored, not refused: refresh tokens are always issued, and some
    // clients ask for it out of OpenID habit.
    let words: Vec<&str> = asked
        .split(' ')
        .filter(|w| !w.is_empty() && *w != "offline_access")
        .collect();
    if words.iter().any(|w| !SCOPES.contains(w)) {
        return None;
    }
    let granted: Vec<&'static str> = SCOPES.iter().copied().filter(|s| words.contains(s)).collect();
    if granted.is_empty() { None } else { Some(granted) }
}

/// `redirect_uri` with `pairs` appended to its query.
pub fn with_params(redirect_uri: &str, pairs: &[(&str, &str)]) -> String {
    match Url::parse(redirect_uri) {
        Ok(mut url) => {
            {
                let mut q = url.query_pairs_mut();
                for (k, v) in pairs {
                    q.append_pair(k, v);
                }
            }
            url.to_string()
        }
        Err(_) => redirect_uri.to_owned(),
    }
}

/// The CSP source that lets the consent form's redirect reach the client.
fn redirect_source(redirect_uri: &str) -> Option<String> {
    let url = Url::parse(redirect_uri).ok()?;
    match url.scheme() {
        "http" | "https" => Some(url.origin().ascii_serialization()),
        scheme => Some(format!("{scheme}:")),
    }
}

/// A URL's host, and its port when it names one (`127.0.0.1:8123`).
fn url_host(url: &str) -> String {
    Url::parse(url)
        .ok()
        .and_then(|u| {
            let host = u.host_str()?.to_owned();
            Some(match u.port() {
                Some(port) => format!("{host}:{port}"),
                None => host,
            })
        })
        .unwrap_or_default()
}

fn redirect_host(redirect_uri: &str) -> String {
    Url::parse(redirect_uri)
        .ok()
        .and_then(|u| {
            u.host_str()
                .map(str::to_owned)
                .or_else(|| Some(format!("{}:", u.scheme())))
        })
        .unwrap_or_default()
}

fn error_back(
    server: &AuthServer,
    redirect_uri: &str,
    state: Option<&str>,
    error: &str,
    description: &str,
) -> Response<Bytes> {
    let mut pairs = vec![("error", error), ("error_description", description)];
    if let Some(state) = state {
        pairs.push(("state", state));
    }
    pairs.push(("iss", server.issuer()));
    web::redirect(&with_params(redirect_uri, &pairs))
}

/// `GET|POST /oauth/authorize`.
pub async fn authorize(server: &AuthServer, req: &Request<Bytes>) -> Response<Bytes> {
    let lang = Lang::negotiate(req);
    let params = match web::params(req) {
        Ok(p) => p,
        Err(e) => return pages::error(lang, StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let Some(client_id) = params.get("client_id") else {
        return pages::error(lang, StatusCode::BAD_REQUEST, "client_id is missing");
    };
    let client = match clients::resolve(server, client_id).await {
        Ok(c) => c,
        Err(ClientError::Store(e)) => return store_failure(&e),
        Err(e) => return pages::error(lang, StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let Some(redirect_uri) = params.get("redirect_uri") else {
        return pages::error(lang, StatusCode::BAD_REQUEST, "redirect_uri is missing");
    };
    if !client.allows_redirect(redirect_uri) {
        return pages::error(
            lang,
            StatusCode::BAD_REQUEST,
            "redirect_uri is not one of this client's registered redirect URIs",
        );
    }
    // From here the redirect target is trusted: errors go back to the client.
    let state_param = params.get("state");
    let back =
        |error: &str, description: &str| error_back(server, redirect_uri, state_param, error, description);
    if params.get("response_type") != Some("code") {
        return back("unsupported_response_type", "response_type must be code");
    }
    let Some(challenge) = params.get("code_challenge") else {
        return back("invalid_request", "code_challenge is required (PKCE)");
    };
    if params.get("code_challenge_method") != Some("S256") {
        return back("invalid_request", "code_challenge_method must be S256");
    }
    if !is_s256_challenge(challenge) {
        return back("invalid_request", "code_challenge is not an S256 challenge");
    }
    let resource = params.get("resource").unwrap_or(&server.config.resource_url);
    if resource != server.config.resource_url {
        return back("invalid_target", "resource must be this server's MCP URL");
    }
    let Some(scopes) = granted_scopes(params.get("scope")) else {
        return back(
            "invalid_scope",
            "scope may only contain ledger:read and ledger:write",
        );
    };
    let Ok(binding_value) = crate::sign_in::binding_value(req) else {
        return back("server_error", "no randomness");
    };
    let (Ok(id), Ok(csrf)) = (web::random_token(16), web::random_token(32)) else {
        return back("server_error", "no randomness");
    };
    let pending = PendingRequest {
        id,
        client_id: client.id.clone(),
        client_name: client.name.clone(),
        redirect_uri: redirect_uri.to_owned(),
        state: state_param.map(str::to_owned),
        challenge: challenge.to_owned(),
        resource: resource.to_owned(),
        scope: scopes.join(" "),
        binding: web::hash(&binding_value),
        csrf,
        stage: Stage::SignIn,
        sub: None,
        name: None,
        upstream_state: None,
        nonce: None,
        upstream_verifier: None,
        expires_at: server.now() + server.config.lifetimes.request,
    };
    match crate::sign_in::start(server, pending, &binding_value).await {
        Ok(response) => response,
        Err(NotStarted::Target(error, description)) => back(error, description),
        Err(NotStarted::Store(e)) => store_failure(&e),
    }
}

/// A live request that this browser started, at `stage`; else the page to show.
async fn bound_request(
    server: &AuthServer,
    req: &Request<Bytes>,
    id: Option<&str>,
    stage: Stage,
) -> Result<PendingRequest, Response<Bytes>> {
    let lang = Lang::negotiate(req);
    let Some(id) = id else {
        return Err(pages::error(
            lang,
            StatusCode::BAD_REQUEST,
            "the sign-in request is missing",
        ));
    };
    let pending = match PendingRequest::load(&*server.store, id, server.now()).await {
        Ok(Some(p)) => p,
        Ok(None) => {
            return Err(pages::error(
                lang,
                StatusCode::BAD_REQUEST,
                "this sign-in request is unknown or has expired; start again from your app",
            ));
        }
        Err(e) => return Err(store_failure(&e)),
    };
    let bound =
        web::cookie(req, BINDING_COOKIE).is_some_and(|c| web::same_secret(&web::hash(c), &pending.binding));
    if !bound {
        return Err(pages::error(
            lang,
            StatusCode::FORBIDDEN,
            "this sign-in was started in another browser; start again from your app",
        ));
    }
    if pending.stage != stage {
        return Err(pages::error(
            lang,
            StatusCode::BAD_REQUEST,
            "this step of the sign-in was already done; start again from your app",
        ));
    }
    Ok(pending)
}

/// A form post from our own page: same origin (when the browser says), the request's CSRF
/// token. The refusal page, if any.
fn check_post(
    server: &AuthServer,
    req: &Request<Bytes>,
    params: &web::Params,
    pending: &PendingRequest,
) -> Option<Response<Bytes>> {
    let lang = Lang::negotiate(req);
    let origin = req.headers().get(header::ORIGIN).and_then(|v| v.to_str().ok());
    if origin.is_some_and(|o| o != server.issuer()) {
        return Some(pages::error(
            lang,
            StatusCode::FORBIDDEN,
            "the form was sent from another site",
        ));
    }
    let csrf_ok = params
        .get("csrf")
        .is_some_and(|c| web::same_secret(c, &pending.csrf));
    if !csrf_ok {
        return Some(pages::error(
            lang,
            StatusCode::FORBIDDEN,
            "the form's security token is missing or wrong",
        ));
    }
    None
}

fn local_signin_enabled(server: &AuthServer) -> bool {
    server.config.deployment == Deployment::Local && server.config.sign_in == SignIn::Local
}

/// `GET /oauth/signin?request=…` (local mode only).
pub async fn signin_page(server: &AuthServer, req: &Request<Bytes>) -> Response<Bytes> {
    if !local_signin_enabled(server) {
        return web::not_found();
    }
    let params = web::query(req).unwrap_or_default();
    match bound_request(server, req, params.get("request"), Stage::SignIn).await {
        // A remembered consent answers the sign-in post with the redirect to the client,
        // so this page's form-action allows that origin, as the consent page's does.
        Ok(p) => web::html(
            StatusCode::OK,
            pages::signin(Lang::negotiate(req), &p.id, &p.csrf),
            redirect_source(&p.redirect_uri).as_deref(),
        ),
        Err(page) => page,
    }
}

/// The name typed on the local page, as a `sub`: trimmed, 1 to 64 characters, no controls.
pub fn local_subject(name: &str) -> Option<String> {
    let name = name.trim();
    let count = name.chars().count();
    if count == 0 || count > MAX_LOCAL_NAME_CHARS || name.chars().any(char::is_control) {
        return None;
    }
    Some(name.to_owned())
}

/// `POST /oauth/signin` (local mode only).
pub async fn signin_submit(server: &AuthServer, req: &Request<Bytes>) -> Response<Bytes> {
    if !local_signin_enabled(server) {
        return web::not_found();
    }
    let lang = Lang::negotiate(req);
    let params = match web::form(req) {
        Ok(p) => p,
        Err(e) => return pages::error(lang, StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let mut pending = match bound_request(server, req, params.get("request"), Stage::SignIn).await {
        Ok(p) => p,
        Err(page) => return page,
    };
    if let Some(page) = check_post(server, req, &params, &pending) {
        return page;
    }
    // Proof of access to this machine's dochiya: the code printed at start and kept in the
    // data directory (anyone, any web page, can reach 127.0.0.1; decision 033).
    let Some(code) = &server.signin_code else {
        return web::not_found();
    };
    match code.check(params.get("code").unwrap_or("")) {
        Ok(()) => {}
        Err(CodeRefusal::Wrong) => {
            tracing::warn!("local sign-in with a wrong code");
            return pages::error(
                lang,
                StatusCode::FORBIDDEN,
                "the sign-in code is not right: copy it from where dochiya was started, or from the file signin-code in its data directory, then go back and try again",
            );
        }
        Err(CodeRefusal::TooMany) => {
            tracing::warn!("local sign-in refused: too many wrong codes");
            return pages::error(
                lang,
                StatusCode::TOO_MANY_REQUESTS,
                "too many wrong sign-in codes in the last minute; wait a minute, then go back and try again",
            );
        }
    }
    let Some(sub) = params.get("name").and_then(local_subject) else {
        return pages::error(
            lang,
            StatusCode::BAD_REQUEST,
            "the name must be 1 to 64 characters",
        );
    };
    pending.name = Some(sub.clone());
    pending.sub = Some(sub);
    signed_in(server, pending, Stage::SignIn).await
}

/// `GET /oauth/callback?code&state` from the upstream provider.
pub async fn upstream_callback(server: &AuthServer, req: &Request<Bytes>) -> Response<Bytes> {
    let lang = Lang::negotiate(req);
    let Some(upstream) = &server.upstream else {
        return web::not_found();
    };
    let params = match web::query(req) {
        Ok(p) => p,
        Err(e) => return pages::error(lang, StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let Some((id, secret)) = params.get("state").and_then(|s| s.split_once('.')) else {
        return pages::error(
            lang,
            StatusCode::BAD_REQUEST,
            "the sign-in answer has no usable state",
        );
    };
    let mut pending = match bound_request(server, req, Some(id), Stage::SignIn).await {
        Ok(p) => p,
        Err(page) => return page,
    };
    let state_ok = pending
        .upstream_state
        .as_deref()
        .is_some_and(|h| web::same_secret(h, &web::hash(secret)));
    if !state_ok {
        return pages::error(
            lang,
            StatusCode::FORBIDDEN,
            "the sign-in answer does not belong to this request",
        );
    }
    if let Some(error) = params.get("error") {
        let redirect_uri = pending.redirect_uri.clone();
        let state = pending.state.clone();
        pending.stage = Stage::Done;
        let _ = pending.advance(&*server.store, Stage::SignIn).await;
        // The provider's text, quoted: it may hold line breaks or look like a log field.
        tracing::info!(error = ?error, "upstream sign-in refused");
        return error_back(
            server,
            &redirect_uri,
            state.as_deref(),
            "access_denied",
            "sign-in was not completed",
        );
    }
    let (Some(code), Some(nonce), Some(verifier)) = (
        params.get("code"),
        pending.nonce.clone(),
        pending.upstream_verifier.clone(),
    ) else {
        return pages::error(lang, StatusCode::BAD_REQUEST, "the sign-in answer has no code");
    };
    let identity = match upstream
        .finish(code, &verifier, &nonce, &callback_url(server))
        .await
    {
        Ok(i) => i,
        Err(e) => {
            tracing::warn!(error = ?e.to_string(), "upstream sign-in could not be completed");
            return pages::error(
                lang,
                StatusCode::BAD_GATEWAY,
                "the sign-in provider's answer could not be verified",
            );
        }
    };
    pending.sub = Some(identity.sub);
    pending.name = Some(identity.name);
    // Spent: a replayed callback finds neither the state nor the stage.
    pending.upstream_state = None;
    pending.nonce = None;
    pending.upstream_verifier = None;
    signed_in(server, pending, Stage::SignIn).await
}

/// After sign-in: a remembered consent that covers the scopes issues the code at once;
/// otherwise on to the consent page.
async fn signed_in(server: &AuthServer, mut pending: PendingRequest, from: Stage) -> Response<Bytes> {
    // The account page's own sign-in: a session there, no code for any client.
    if pending.client_id == crate::account::ACCOUNT_CLIENT {
        return crate::account::signed_in(server, pending, from).await;
    }
    let Some(sub) = pending.sub.clone() else {
        return web::oauth_error("server_error", "no subject");
    };
    match remembered(server, &sub, &pending.client_id, &pending.scope).await {
        Ok(true) => return issue_code(server, pending, from, None).await,
        Ok(false) => {}
        Err(e) => return store_failure(&e),
    }
    pending.stage = Stage::Consent;
    match pending.advance(&*server.store, from).await {
        Ok(true) => web::redirect(&format!(
            "{}{}?request={}",
            server.issuer(),
            crate::CONSENT_PATH,
            pending.id
        )),
        Ok(false) => pages::error(
            Lang::En,
            StatusCode::BAD_REQUEST,
            "this step of the sign-in was already done",
        ),
        Err(e) => store_failure(&e),
    }
}

async fn remembered(
    server: &AuthServer,
    sub: &str,
    client_id: &str,
    scope: &str,
) -> Result<bool, dochiya_store::StoreError> {
    let Some(item) = server.store.get(&state::consent_key(sub, client_id)).await? else {
        return Ok(false);
    };
    let live = state::n(&item.attrs, TTL_ATTRIBUTE).is_some_and(|t| t > server.now());
    let covered = state::s(&item.attrs, "scope").is_some_and(|granted| {
        let granted: Vec<&str> = granted.split(' ').collect();
        scope.split(' ').all(|s| granted.contains(&s))
    });
    let same_client = state::s(&item.attrs, "clientId").as_deref() == Some(client_id);
    Ok(live && covered && same_client)
}

/// `GET /oauth/consent?request=…`.
pub async fn consent_page(server: &AuthServer, req: &Request<Bytes>) -> Response<Bytes> {
    let params = web::query(req).unwrap_or_default();
    let pending = match bound_request(server, req, params.get("request"), Stage::Consent).await {
        Ok(p) => p,
        Err(page) => return page,
    };
    let scopes: Vec<&str> = pending.scope.split(' ').collect();
    let person = pending.name.as_deref().or(pending.sub.as_deref()).unwrap_or("?");
    let host = redirect_host(&pending.redirect_uri);
    let document_host = Fetcher::is_document_url(&pending.client_id).then(|| url_host(&pending.client_id));
    let origin = match &document_host {
        Some(host) => ClientOrigin::Document { host },
        None => ClientOrigin::Registered,
    };
    let html = pages::consent(
        Lang::negotiate(req),
        &ConsentView {
            client_name: &pending.client_name,
            origin,
            redirect_host: &host,
            scopes: &scopes,
            person,
            request_id: &pending.id,
            csrf: &pending.csrf,
        },
    );
    web::html(
        StatusCode::OK,
        html,
        redirect_source(&pending.redirect_uri).as_deref(),
    )
}

/// `POST /oauth/consent`: Allow (code, maybe remembered) or Deny (`access_denied`).
pub async fn consent_submit(server: &AuthServer, req: &Request<Bytes>) -> Response<Bytes> {
    let lang = Lang::negotiate(req);
    let params = match web::form(req) {
        Ok(p) => p,
        Err(e) => return pages::error(lang, StatusCode::BAD_REQUEST, &e.to_string()),
    };
    let mut pending = match bound_request(server, req, params.get("request"), Stage::Consent).await {
        Ok(p) => p,
        Err(page) => return page,
    };
    if let Some(page) = check_post(server, req, &params, &pending) {
        return page;
    }
    match params.get("decision") {
        Some("allow") => {
            let remember = params.get("remember") == Some("yes");
            issue_code(server, pending, Stage::Consent, remember.then_some(())).await
        }
        Some("deny") => {
            let redirect_uri = pending.redirect_uri.clone();
            let state = pending.state.clone();
            pending.stage = Stage::Done;
            match pending.advance(&*server.store, Stage::Consent).await {
                Ok(true) => error_back(
                    server,
                    &redirect_uri,
                    state.as_deref(),
                    "access_denied",
                    "the person declined",
                ),
                Ok(false) => pages::error(
                    lang,
                    StatusCode::BAD_REQUEST,
                    "this step of the sign-in was already done",
                ),
                Err(e) => store_failure(&e),
            }
        }
        _ => pages::error(lang, StatusCode::BAD_REQUEST, "choose Allow or Deny"),
    }
}

/// Finish the request and send a fresh code to the client, in one atomic write (the
/// request moves to Done only if it was still at `from`; the code is new).
async fn issue_code(
    server: &AuthServer,
    mut pending: PendingRequest,
    from: Stage,
    remember: Option<()>,
) -> Response<Bytes> {
    let (Some(sub), Ok(code), Ok(sid_secret)) =
        (pending.sub.clone(), web::random_token(32), web::random_token(32))
    else {
        return web::oauth_error("server_error", "no randomness");
    };
    let now = server.now();
    let record = CodeRecord {
        client_id: pending.client_id.clone(),
        redirect_uri: pending.redirect_uri.clone(),
        challenge: pending.challenge.clone(),
        resource: pending.resource.clone(),
        scope: pending.scope.clone(),
        sub: sub.clone(),
        name: pending.name.clone(),
        sid: web::hash(&sid_secret),
        family_secret: sid_secret,
        expires_at: now + server.config.lifetimes.code,
    };
    pending.stage = Stage::Done;
    let mut ops = vec![
        WriteOp::Put {
            item: pending.item(),
            guard: Some(Guard::new(
                "request-stage",
                Condition::AttrEquals("stage".into(), Value::S(stage_name(from).into())),
            )),
        },
        WriteOp::Put {
            item: Item {
                key: state::code_key(&web::hash(&code)),
                attrs: record.attrs(),
            },
            guard: Some(Guard::new("code-new", Condition::NotExists)),
        },
    ];
    if remember.is_some() {
        ops.push(WriteOp::Put {
            item: Item {
                key: state::consent_key(&sub, &pending.client_id),
                attrs: attrs(&[
                    ("clientId", text(&pending.client_id)),
                    ("scope", text(&pending.scope)),
                    (
                        TTL_ATTRIBUTE,
                        Some(Value::N(now + server.config.lifetimes.consent)),
                    ),
                ]),
            },
            guard: None,
        });
    }
    match server.store.write(ops).await {
        Ok(()) => {}
        Err(dochiya_store::StoreError::ConditionFailed { .. }) => {
            return pages::error(
                Lang::En,
                StatusCode::BAD_REQUEST,
                "this step of the sign-in was already done",
            );
        }
        Err(e) => return store_failure(&e),
    }
    let mut pairs = vec![("code", code.as_str())];
    if let Some(state) = pending.state.as_deref() {
        pairs.push(("state", state));
    }
    pairs.push(("iss", server.issuer()));
    web::redirect(&with_params(&pending.redirect_uri, &pairs))
}

fn stage_name(stage: Stage) -> &'static str {
    match stage {
        Stage::SignIn => "signin",
        Stage::Consent => "consent",
        Stage::Done => "done",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_are_granted_only_within_the_two() {
        assert_eq!(granted_scopes(None), Some(vec!["ledger:read", "ledger:write"]));
        assert_eq!(
            granted_scopes(Some("ledger:write ledger:read")),
            Some(vec!["ledger:read", "ledger:write"])
        );
        assert_eq!(granted_scopes(Some("ledger:read")), Some(vec!["ledger:read"]));
        assert_eq!(granted_scopes(Some("ledger:read admin")), None);
        assert_eq!(
            granted_scopes(Some("offline_access ledger:read")),
            Some(vec!["ledger:read"])
        );
        assert_eq!(granted_scopes(Some("offline_access")), None);
        assert_eq!(granted_scopes(Some("")), None);
    }

    #[test]
    fn local_names_are_bounded() {
        assert_eq!(local_subject("  도치  "), Some("도치".into()));
        assert_eq!(local_subject(" "), None);
        assert_eq!(local_subject(&"a".repeat(65)), None);
        assert_eq!(local_subject("a\nb"), None);
    }

    #[test]
    fn parameters_are_appended_to_an_existing_query() {
        assert_eq!(
            with_params("https://app.example/cb?x=1", &[("code", "a b"), ("state", "s&t")]),
            "https://app.example/cb?x=1&code=a+b&state=s%26t"
        );
    }
}
