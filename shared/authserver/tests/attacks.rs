//! The attack list of the authorization server, one test each (in process, embedded store in memory):
//! redirect URI mismatch and open redirect; missing, plain or wrong PKCE; code reuse; a
//! code presented by another client; resource or audience mismatch; scope escalation at
//! refresh; refresh token reuse; CIMD pointing at a private address, redirecting, oversized
//! or slow; consent without the CSRF token or framed; upstream state/nonce replay; an
//! upstream ID token or access token presented to the resource.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use dochiya_auth::{BearerAuthenticator, BuiltinKey};
use dochiya_authserver::config::{Deployment, SignIn, UpstreamConfig};
use dochiya_authserver::{AuthServerConfig, SigningKey};
use dochiya_protocol::{AuthFailure, Authenticator, Credentials};
use http::{Request, StatusCode};
use serde_json::json;
use support::*;

async fn registered() -> (Harness, String) {
    let h = Harness::new();
    let client = h.register(REDIRECT).await;
    (h, client)
}

fn ask<'a>(client: &'a str, challenge: &'a str) -> Ask<'a> {
    Ask {
        client_id: client,
        redirect: REDIRECT,
        challenge,
        scope: None,
        resource: None,
        state: "xyz",
    }
}

async fn get(h: &Harness, url: &str) -> http::Response<Bytes> {
    h.send(Request::get(url).body(Bytes::new()).unwrap()).await
}

/// Tokens and code for a finished local flow.
async fn granted(h: &Harness, client: &str, scope: Option<&str>) -> (String, String, serde_json::Value) {
    let (verifier, challenge) = pkce();
    let mut browser = Browser::default();
    let back = sign_in_and_allow(
        h,
        &mut browser,
        &Ask {
            scope,
            ..ask(client, &challenge)
        },
        "park",
    )
    .await;
    let code = param(&back, "code").unwrap();
    let r = redeem(h, client, &code, &verifier).await;
    assert_eq!(r.status(), StatusCode::OK, "{}", text(&r));
    (code, verifier, json(&r))
}

// --- redirect URIs -------------------------------------------------------------------

#[tokio::test]
async fn a_redirect_uri_mismatch_is_shown_on_our_page_and_never_redirected() {
    let (h, client) = registered().await;
    let (_, challenge) = pkce();
    for bad in [
        "https://evil.example/callback",
        "http://127.0.0.1:7777/callback/../evil",
        "http://127.0.0.1:7777/callbackx",
        "http://localhost:7777/callback",
    ] {
        let r = get(
            &h,
            &Ask {
                redirect: bad,
                ..ask(&client, &challenge)
            }
            .url(),
        )
        .await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST, "{bad}");
        assert!(r.headers().get("location").is_none(), "{bad}");
        assert!(
            text(&r).contains("redirect_uri is not one of this client's registered redirect URIs"),
            "{}",
            text(&r)
        );
    }
    // The loopback port may vary (RFC 8252 §7.3).
    let r = get(
        &h,
        &Ask {
            redirect: "http://127.0.0.1:50123/callback",
            ..ask(&client, &challenge)
        }
        .url(),
    )
    .await;
    assert_eq!(r.status(), StatusCode::FOUND);
}

#[tokio::test]
async fn an_unknown_client_is_never_an_open_redirect() {
    let h = Harness::new();
    let (_, challenge) = pkce();
    let r = get(
        &h,
        &Ask {
            redirect: "https://evil.example/",
            ..ask("dcr_AAAAAAAAAAAAAAAAAAAAAA", &challenge)
        }
        .url(),
    )
    .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(r.headers().get("location").is_none());
    assert!(text(&r).contains("unknown client_id"));
    let r = get(
        &h,
        "/oauth/authorize?response_type=code&redirect_uri=https%3A%2F%2Fevil.example%2F",
    )
    .await;
    assert!(r.headers().get("location").is_none());
    assert!(text(&r).contains("client_id is missing"));
}

// --- PKCE ------------------------------------------------------------------------------

#[tokio::test]
async fn pkce_is_required_s256_only_and_the_verifier_must_match() {
    let (h, client) = registered().await;
    let base = format!(
        "/oauth/authorize?response_type=code&client_id={client}&redirect_uri={}&state=s",
        urlencode(REDIRECT)
    );
    // Missing challenge.
    let back = location(&get(&h, &base).await);
    assert_eq!(param(&back, "error").as_deref(), Some("invalid_request"));
    assert_eq!(
        param(&back, "error_description").as_deref(),
        Some("code_challenge is required (PKCE)")
    );
    assert_eq!(param(&back, "state").as_deref(), Some("s"));
    assert_eq!(param(&back, "iss").as_deref(), Some(ISSUER));
    // plain, and no method (which means plain).
    let (_, challenge) = pkce();
    for method in ["&code_challenge_method=plain", ""] {
        let back = location(&get(&h, &format!("{base}&code_challenge={challenge}{method}")).await);
        assert_eq!(
            param(&back, "error_description").as_deref(),
            Some("code_challenge_method must be S256"),
            "{method}"
        );
    }
    // Wrong and missing verifier at the token endpoint.
    let (verifier, challenge) = pkce();
    let mut browser = Browser::default();
    let back = sign_in_and_allow(&h, &mut browser, &ask(&client, &challenge), "a").await;
    let code = param(&back, "code").unwrap();
    let (other_verifier, _) = pkce();
    let r = redeem(&h, &client, &code, &other_verifier).await;
    assert_eq!(json(&r)["error"], "invalid_grant");
    assert_eq!(
        json(&r)["error_description"],
        "code_verifier does not match the code_challenge"
    );
    let r = token(
        &h,
        &[
            ("grant_type", "authorization_code"),
            ("client_id", &client),
            ("code", &code),
            ("redirect_uri", REDIRECT),
        ],
    )
    .await;
    assert_eq!(json(&r)["error_description"], "code_verifier is required (PKCE)");
    // The challenge itself as the verifier (what a plain-method client would send).
    let r = redeem(&h, &client, &code, &challenge).await;
    assert_eq!(json(&r)["error"], "invalid_grant");
    // The right one still works: failed attempts changed nothing.
    let r = redeem(&h, &client, &code, &verifier).await;
    assert_eq!(r.status(), StatusCode::OK, "{}", text(&r));
}

fn urlencode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

// --- codes -----------------------------------------------------------------------------

#[tokio::test]
async fn a_reused_code_is_refused_and_revokes_what_it_issued() {
    let (h, client) = registered().await;
    let (code, verifier, first) = granted(&h, &client, None).await;
    let r = redeem(&h, &client, &code, &verifier).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert_eq!(json(&r)["error"], "invalid_grant");
    let r = refresh(&h, &client, first["refresh_token"].as_str().unwrap(), None).await;
    assert_eq!(
        json(&r)["error"],
        "invalid_grant",
        "the first redemption's refresh token is revoked"
    );
}

#[tokio::test]
async fn a_code_presented_by_another_client_is_refused() {
    let (h, client) = registered().await;
    let thief = h.register(REDIRECT).await;
    let (verifier, challenge) = pkce();
    let mut browser = Browser::default();
    let back = sign_in_and_allow(&h, &mut browser, &ask(&client, &challenge), "a").await;
    let code = param(&back, "code").unwrap();
    let r = redeem(&h, &thief, &code, &verifier).await;
    assert_eq!(json(&r)["error"], "invalid_grant");
    assert_eq!(
        json(&r)["error_description"],
        "the code was issued to another client"
    );
    let r = token(
        &h,
        &[
            ("grant_type", "authorization_code"),
            ("client_id", &client),
            ("code", &code),
            ("redirect_uri", "http://127.0.0.1:7777/other"),
            ("code_verifier", &verifier),
        ],
    )
    .await;
    assert_eq!(
        json(&r)["error_description"],
        "redirect_uri does not match the authorization request"
    );
}

// --- resource and audience ---------------------------------------------------------------

#[tokio::test]
async fn a_resource_other_than_the_mcp_url_is_refused_and_so_is_a_foreign_audience() {
    let (h, client) = registered().await;
    let (_, challenge) = pkce();
    let back = location(
        &get(
            &h,
            &Ask {
                resource: Some("https://other.example/mcp"),
                ..ask(&client, &challenge)
            }
            .url(),
        )
        .await,
    );
    assert_eq!(param(&back, "error").as_deref(), Some("invalid_target"));

    let (verifier, challenge) = pkce();
    let mut browser = Browser::default();
    let back = sign_in_and_allow(&h, &mut browser, &ask(&client, &challenge), "a").await;
    let code = param(&back, "code").unwrap();
    let r = token(
        &h,
        &[
            ("grant_type", "authorization_code"),
            ("client_id", &client),
            ("code", &code),
            ("redirect_uri", REDIRECT),
            ("code_verifier", &verifier),
            ("resource", "https://other.example/mcp"),
        ],
    )
    .await;
    assert_eq!(json(&r)["error"], "invalid_target");

    // A token of ours for another audience is refused by the resource.
    let v = resource_verifier(&h.server.public_key());
    let mut claims = access_claims("someone");
    claims["aud"] = json!("https://other.example/mcp");
    let token_text = h.sign_access_token(&claims).await;
    assert_eq!(
        reason(&v, &token_text).await,
        "audience does not include this resource"
    );
}

// --- refresh -----------------------------------------------------------------------------

#[tokio::test]
async fn a_refresh_may_narrow_scopes_but_never_widen_them() {
    let (h, client) = registered().await;
    let (_, _, granted_read) = granted(&h, &client, Some("ledger:read")).await;
    let rt = granted_read["refresh_token"].as_str().unwrap();
    let r = refresh(&h, &client, rt, Some("ledger:read ledger:write")).await;
    assert_eq!(json(&r)["error"], "invalid_scope");
    assert_eq!(
        json(&r)["error_description"],
        "a refresh may only narrow the granted scopes"
    );
    // Refused without rotating: the same token still refreshes.
    let r = refresh(&h, &client, rt, Some("ledger:read")).await;
    assert_eq!(json(&r)["scope"], "ledger:read");

    let (_, _, both) = granted(&h, &client, None).await;
    let r = refresh(
        &h,
        &client,
        both["refresh_token"].as_str().unwrap(),
        Some("ledger:read"),
    )
    .await;
    assert_eq!(json(&r)["scope"], "ledger:read");
}

#[tokio::test]
async fn a_reused_refresh_token_revokes_the_whole_family() {
    let (h, client) = registered().await;
    let (_, _, first) = granted(&h, &client, None).await;
    let old = first["refresh_token"].as_str().unwrap().to_owned();
    let r = refresh(&h, &client, &old, None).await;
    let new = json(&r)["refresh_token"].as_str().unwrap().to_owned();
    // The attacker replays the old one: refused, and the family is gone.
    let r = refresh(&h, &client, &old, None).await;
    assert_eq!(json(&r)["error"], "invalid_grant");
    let r = refresh(&h, &client, &new, None).await;
    assert_eq!(
        json(&r)["error"],
        "invalid_grant",
        "the legitimate holder's token died with the family"
    );
    // Another client cannot use a live token either.
    let (_, _, other) = granted(&h, &client, None).await;
    let thief = h.register(REDIRECT).await;
    let r = refresh(&h, &thief, other["refresh_token"].as_str().unwrap(), None).await;
    assert_eq!(
        json(&r)["error_description"],
        "the refresh token was issued to another client"
    );
}

#[tokio::test]
async fn the_refresh_family_slides_and_then_expires() {
    let (h, client) = registered().await;
    let (_, _, first) = granted(&h, &client, None).await;
    let mut rt = first["refresh_token"].as_str().unwrap().to_owned();
    // 20 days, twice: each use moves the 30-day window on.
    for _ in 0..2 {
        h.clock.advance(20 * 24 * 3600);
        let r = refresh(&h, &client, &rt, None).await;
        assert_eq!(r.status(), StatusCode::OK, "{}", text(&r));
        rt = json(&r)["refresh_token"].as_str().unwrap().to_owned();
    }
    h.clock.advance(30 * 24 * 3600 + 1);
    assert_eq!(
        json(&refresh(&h, &client, &rt, None).await)["error"],
        "invalid_grant"
    );
}

// --- CIMD ------------------------------------------------------------------------------

fn document(client_id: &str) -> serde_json::Value {
    json!({ "client_id": client_id, "client_name": "Doc Client", "redirect_uris": [REDIRECT] })
}

async fn authorize_error(h: &Harness, client_id: &str) -> String {
    let (_, challenge) = pkce();
    let r = get(h, &ask(client_id, &challenge).url()).await;
    assert!(r.headers().get("location").is_none(), "{}", text(&r));
    text(&r)
}

fn aws() -> Harness {
    let mut config = AuthServerConfig::local(MCP).unwrap();
    config.deployment = Deployment::Aws;
    Harness::with(config, store())
}

const NOT_PUBLIC: &str =
    "the client document's address is not public; a client_id must be a public https URL";

#[tokio::test]
async fn a_client_document_on_a_private_or_loopback_address_is_refused_in_every_mode() {
    let port =
        serve(|_, port| Canned::json(&document(&format!("https://127.0.0.1:{port}/client.json")))).await;
    // Local mode too (it used to fetch all of these): only http:// and https://127.0.0.1,
    // spelled so, are allowed there.
    let loopback = format!("https://127.0.0.1:{port}/client.json");
    assert!(authorize_error(&aws(), &loopback).await.contains(NOT_PUBLIC));
    for h in [aws(), Harness::new()] {
        for id in [
            format!("https://127.0.0.2:{port}/client.json"),
            format!("https://localhost:{port}/client.json"),
            format!("https://2130706433:{port}/client.json"),
            "https://10.1.2.3/client.json".to_owned(),
            "https://169.254.169.254/latest/meta-data".to_owned(),
            "https://2852039166/latest/meta-data".to_owned(),
            "https://[::1]/client.json".to_owned(),
            "https://[fd00::1]/client.json".to_owned(),
            "https://[::ffff:10.0.0.1]/client.json".to_owned(),
            "https://100.64.0.1/client.json".to_owned(),
        ] {
            assert!(authorize_error(&h, &id).await.contains(NOT_PUBLIC), "{id}");
        }
        assert_eq!(h.server.outbound_connection_attempts(), 0);
    }
    // Plain http is refused in AWS even to a public name.
    assert!(
        authorize_error(&aws(), "http://client.example/c.json")
            .await
            .contains("client_id is not an https URL")
    );
}

/// Resolves every name to fixed addresses, recording the names asked.
struct Fixed(Vec<std::net::IpAddr>, Arc<std::sync::Mutex<Vec<String>>>);

impl dochiya_outbound::Resolve for Fixed {
    fn resolve(
        &self,
        host: &str,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = std::io::Result<Vec<std::net::IpAddr>>> + Send>>
    {
        self.1.lock().unwrap().push(host.to_owned());
        let addrs = self.0.clone();
        Box::pin(async move { Ok(addrs) })
    }
}

/// A public-looking name that resolves inward is refused before connecting, and the
/// failure is remembered: asking again a moment later resolves nothing.
#[tokio::test]
async fn a_client_document_name_resolving_inward_is_refused_once_and_remembered() {
    // A listener on loopback stands for the inside: it must never see a connection.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    for addrs in [
        vec!["127.0.0.1"],
        vec!["93.184.215.14", "10.0.0.7"],
        vec!["::ffff:192.168.0.1"],
    ] {
        let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
        let resolver = Fixed(addrs.iter().map(|a| a.parse().unwrap()).collect(), asked.clone());
        let policy = dochiya_outbound::Policy::with_resolver(
            dochiya_outbound::Allowance::LocalLoopbackHttp,
            Arc::new(resolver),
        );
        let h = Harness::with_policy(AuthServerConfig::local(MCP).unwrap(), store(), policy);
        let id = format!("https://client.example:{port}/client.json");
        assert!(authorize_error(&h, &id).await.contains(NOT_PUBLIC), "{addrs:?}");
        assert!(authorize_error(&h, &id).await.contains(NOT_PUBLIC), "{addrs:?}");
        assert_eq!(
            asked.lock().unwrap().as_slice(),
            ["client.example"],
            "resolved once"
        );
    }
    let accepted = tokio::time::timeout(Duration::from_millis(50), listener.accept()).await;
    assert!(accepted.is_err(), "a connection reached the inside");
}

#[tokio::test]
async fn a_client_document_that_redirects_is_refused() {
    let target =
        serve(|_, port| Canned::json(&document(&format!("http://127.0.0.1:{port}/client.json")))).await;
    let port = serve(move |_, _| Canned {
        status: 302,
        headers: vec![(
            "location".into(),
            format!("http://127.0.0.1:{target}/client.json"),
        )],
        body: Vec::new(),
        delay: Duration::ZERO,
    })
    .await;
    let h = Harness::new();
    let page = authorize_error(&h, &format!("http://127.0.0.1:{port}/client.json")).await;
    assert!(
        page.contains("the client document URL redirects; redirects are not followed"),
        "{page}"
    );
}

#[tokio::test]
async fn an_oversized_client_document_is_refused() {
    let port = serve(|_, port| {
        let mut doc = document(&format!("http://127.0.0.1:{port}/client.json"));
        doc["padding"] = json!("x".repeat(6000));
        Canned::json(&doc)
    })
    .await;
    let h = Harness::new();
    let page = authorize_error(&h, &format!("http://127.0.0.1:{port}/client.json")).await;
    assert!(
        page.contains("the client document is larger than 5120 bytes"),
        "{page}"
    );
}

#[tokio::test]
async fn a_slow_client_document_is_given_up_on() {
    let port = serve(|_, port| Canned {
        delay: Duration::from_secs(3),
        ..Canned::json(&document(&format!("http://127.0.0.1:{port}/client.json")))
    })
    .await;
    let mut config = AuthServerConfig::local(MCP).unwrap();
    config.cimd.timeout = Duration::from_millis(300);
    let h = Harness::with(config, store());
    let started = std::time::Instant::now();
    let page = authorize_error(&h, &format!("http://127.0.0.1:{port}/client.json")).await;
    assert!(
        page.contains("the client document could not be fetched in time"),
        "{page}"
    );
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn a_good_client_document_is_used_checked_and_cached() {
    let fetched = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&fetched);
    let port = serve(move |seen, port| {
        count.fetch_add(1, Ordering::SeqCst);
        assert_eq!(seen.path, "/client.json");
        Canned::json(&document(&format!("http://127.0.0.1:{port}/client.json")))
    })
    .await;
    let h = Harness::new();
    let client = format!("http://127.0.0.1:{port}/client.json");
    let (verifier, challenge) = pkce();
    let mut browser = Browser::default();
    let back = sign_in_and_allow(&h, &mut browser, &ask(&client, &challenge), "doc").await;
    let r = redeem(&h, &client, &param(&back, "code").unwrap(), &verifier).await;
    assert_eq!(r.status(), StatusCode::OK, "{}", text(&r));
    // A redirect URI the document does not list is refused; the document was fetched once.
    let r = get(
        &h,
        &Ask {
            redirect: "https://evil.example/cb",
            ..ask(&client, &challenge)
        }
        .url(),
    )
    .await;
    assert!(r.headers().get("location").is_none());
    assert_eq!(fetched.load(Ordering::SeqCst), 1);

    // A document that names another client_id is refused.
    let liar = serve(|_, _| Canned::json(&document("https://someone-else.example/client.json"))).await;
    let page = authorize_error(&h, &format!("http://127.0.0.1:{liar}/client.json")).await;
    assert!(page.contains("its client_id is not its own URL"), "{page}");
}

// --- consent page ------------------------------------------------------------------------

/// A browser at the consent page: (browser, request id, csrf).
async fn at_consent(h: &Harness, client: &str) -> (Browser, String, String) {
    let (_, challenge) = pkce();
    let mut browser = Browser::default();
    let r = browser.get(h, &ask(client, &challenge).url()).await;
    let page = browser.get(h, &location(&r)).await;
    let html = text(&page);
    let r = browser
        .post(
            h,
            "/oauth/signin",
            &[
                ("request", &hidden(&html, "request")),
                ("csrf", &hidden(&html, "csrf")),
                ("name", "a"),
                ("code", &h.code()),
            ],
        )
        .await;
    let page = browser.get(h, &location(&r)).await;
    assert_eq!(page.headers()["x-frame-options"], "DENY");
    let csp = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert!(
        csp.contains("default-src 'none'") && !csp.contains("script-src"),
        "{csp}"
    );
    assert!(csp.contains("form-action 'self' http://127.0.0.1:7777"), "{csp}");
    let html = text(&page);
    assert!(!html.contains("<script"), "no script on the page");
    (browser, hidden(&html, "request"), hidden(&html, "csrf"))
}

#[tokio::test]
async fn consent_without_or_with_a_wrong_csrf_token_is_refused() {
    let (h, client) = registered().await;
    let (mut browser, request, csrf) = at_consent(&h, &client).await;
    for pairs in [
        vec![("request", request.as_str()), ("decision", "allow")],
        vec![
            ("request", request.as_str()),
            ("csrf", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
            ("decision", "allow"),
        ],
    ] {
        let r = browser.post(&h, "/oauth/consent", &pairs).await;
        assert_eq!(r.status(), StatusCode::FORBIDDEN);
        assert!(text(&r).contains("the form's security token is missing or wrong"));
        assert!(r.headers().get("location").is_none());
    }
    // From another site (a framing or auto-submitting page): refused by Origin.
    let r = h
        .send(
            Request::post("/oauth/consent")
                .header("content-type", "application/x-www-form-urlencoded")
                .header("origin", "https://evil.example")
                .header("cookie", browser.cookie.clone().unwrap())
                .body(form(&[
                    ("request", &request),
                    ("csrf", &csrf),
                    ("decision", "allow"),
                ]))
                .unwrap(),
        )
        .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert!(text(&r).contains("the form was sent from another site"));
    // From another browser (no binding cookie), even with the token.
    let mut stranger = Browser::default();
    let r = stranger
        .post(
            &h,
            "/oauth/consent",
            &[("request", &request), ("csrf", &csrf), ("decision", "allow")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert!(text(&r).contains("started in another browser"));
    // The real one still works, once.
    let r = browser
        .post(
            &h,
            "/oauth/consent",
            &[("request", &request), ("csrf", &csrf), ("decision", "allow")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER);
    let r = browser
        .post(
            &h,
            "/oauth/consent",
            &[("request", &request), ("csrf", &csrf), ("decision", "allow")],
        )
        .await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(text(&r).contains("already done"));
}

// --- upstream OpenID provider --------------------------------------------------------------

struct StandIn {
    port: u16,
    nonce: Arc<Mutex<Option<String>>>,
    key: Arc<SigningKey>,
}

/// A stand-in OpenID provider on loopback: discovery, JWKS, and a token endpoint whose
/// ID token carries whatever nonce the test put in `nonce`.
async fn stand_in_provider() -> StandIn {
    let (key, _) = SigningKey::generate().unwrap();
    let key = Arc::new(key);
    let nonce: Arc<Mutex<Option<String>>> = Arc::new(Mutex::new(None));
    let (k, n) = (Arc::clone(&key), Arc::clone(&nonce));
    let port = serve(move |seen, port| {
        let issuer = format!("http://127.0.0.1:{port}");
        match seen.path.as_str() {
            "/.well-known/openid-configuration" => Canned::json(&json!({
                "issuer": issuer,
                "authorization_endpoint": format!("{issuer}/auth"),
                "token_endpoint": format!("{issuer}/token"),
                "jwks_uri": format!("{issuer}/jwks"),
                "response_types_supported": ["code"],
                "subject_types_supported": ["public"],
                "id_token_signing_alg_values_supported": ["ES256"],
            })),
            "/jwks" => Canned::json(&json!({ "keys": [k.public().jwk()] })),
            "/token" => {
                assert!(seen.body.contains("code_verifier="), "PKCE verifier sent upstream: {}", seen.body);
                let claims = json!({
                    "iss": issuer, "sub": "user-1", "aud": "dochiya-app", "iat": now(), "exp": now() + 300,
                    "nonce": n.lock().unwrap().clone(), "name": "Test Person",
                });
                // A local key signs without waiting on anything: block_on is immediate.
                let id_token = futures::executor::block_on(k.sign_jwt("JWT", &claims)).unwrap();
                Canned::json(&json!({ "access_token": "upstream-access", "token_type": "Bearer", "expires_in": 300, "id_token": id_token }))
            }
            _ => Canned { status: 404, headers: vec![], body: vec![], delay: Duration::ZERO },
        }
    })
    .await;
    StandIn { port, nonce, key }
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn upstream_harness(op: &StandIn) -> Harness {
    let mut config = AuthServerConfig::local(MCP).unwrap();
    config.sign_in = SignIn::Upstream(UpstreamConfig {
        issuer: format!("http://127.0.0.1:{}", op.port),
        client_id: "dochiya-app".into(),
        client_secret: None,
        scopes: vec!["openid".into(), "profile".into()],
        allow_loopback_http: true,
    });
    Harness::with(config, store())
}

/// Authorize → the upstream URL's (state, nonce) and our PKCE verifier; the browser keeps its cookie.
async fn to_upstream(h: &Harness, browser: &mut Browser, client: &str) -> (String, String, String) {
    let (verifier, challenge) = pkce();
    let r = browser.get(h, &ask(client, &challenge).url()).await;
    assert_eq!(r.status(), StatusCode::FOUND, "{}", text(&r));
    let upstream = location(&r);
    assert!(upstream.contains("/auth?"), "{upstream}");
    assert_eq!(param(&upstream, "code_challenge_method").as_deref(), Some("S256"));
    assert_eq!(
        param(&upstream, "redirect_uri").as_deref(),
        Some("http://127.0.0.1:8080/oauth/callback")
    );
    (
        param(&upstream, "state").unwrap(),
        param(&upstream, "nonce").unwrap(),
        verifier,
    )
}

#[tokio::test]
async fn upstream_sign_in_derives_our_subject_and_a_replayed_state_is_refused() {
    let op = stand_in_provider().await;
    let h = upstream_harness(&op);
    let client = h.register(REDIRECT).await;
    let mut browser = Browser::default();
    let (state, nonce, verifier) = to_upstream(&h, &mut browser, &client).await;
    *op.nonce.lock().unwrap() = Some(nonce);
    let callback = format!("/oauth/callback?code=upstream-code&state={}", urlencode(&state));
    let r = browser.get(&h, &callback).await;
    assert_eq!(r.status(), StatusCode::SEE_OTHER, "{}", text(&r));
    let page = browser.get(&h, &location(&r)).await;
    assert!(
        text(&page).contains("<strong>Test Person</strong>"),
        "{}",
        text(&page)
    );
    // Replay of the same callback: refused.
    let r = browser.get(&h, &callback).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert!(text(&r).contains("already done"));
    // The code's subject is derived from the upstream issuer and subject.
    let html = text(&page);
    let r = browser
        .post(
            &h,
            "/oauth/consent",
            &[
                ("request", &hidden(&html, "request")),
                ("csrf", &hidden(&html, "csrf")),
                ("decision", "allow"),
            ],
        )
        .await;
    let back = location(&r);
    let r = redeem(&h, &client, &param(&back, "code").unwrap(), &verifier).await;
    assert_eq!(r.status(), StatusCode::OK, "{}", text(&r));
    let access = json(&r)["access_token"].as_str().unwrap().to_owned();
    let header = format!("Bearer {access}");
    let v = resource_verifier(&h.server.public_key());
    let p = v
        .authenticate(Credentials {
            authorization: Some(&header),
            query: None,
        })
        .await
        .unwrap();
    let expected =
        dochiya_authserver::upstream::derive_subject(&format!("http://127.0.0.1:{}", op.port), "user-1");
    assert_eq!(p.person, expected);
    assert_ne!(p.person, "user-1");
}

#[tokio::test]
async fn a_forged_state_or_a_replayed_nonce_is_refused() {
    let op = stand_in_provider().await;
    let h = upstream_harness(&op);
    let client = h.register(REDIRECT).await;
    // First sign-in: remember its nonce.
    let mut first = Browser::default();
    let (_, old_nonce, _) = to_upstream(&h, &mut first, &client).await;
    // Second sign-in, but the provider's ID token carries the first one's nonce.
    let mut browser = Browser::default();
    let (state, _, _) = to_upstream(&h, &mut browser, &client).await;
    *op.nonce.lock().unwrap() = Some(old_nonce);
    let r = browser
        .get(&h, &format!("/oauth/callback?code=c&state={}", urlencode(&state)))
        .await;
    assert_eq!(r.status(), StatusCode::BAD_GATEWAY);
    assert!(text(&r).contains("could not be verified"));
    // A state with the right request id but a forged secret.
    let mut third = Browser::default();
    let (state, _, _) = to_upstream(&h, &mut third, &client).await;
    let forged = format!(
        "{}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        state.split('.').next().unwrap()
    );
    let r = third
        .get(
            &h,
            &format!("/oauth/callback?code=c&state={}", urlencode(&forged)),
        )
        .await;
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    assert!(text(&r).contains("does not belong to this request"));
}

// --- what the resource refuses ----------------------------------------------------------------

fn resource_verifier(public: &dochiya_authserver::PublicKey) -> BearerAuthenticator {
    BearerAuthenticator::builtin(
        MCP,
        &[ISSUER.to_owned()],
        ISSUER,
        &BuiltinKey {
            kid: public.kid.clone(),
            x: public.x.clone(),
            y: public.y.clone(),
        },
        Duration::from_secs(60),
        None,
    )
    .unwrap()
}

async fn reason(v: &BearerAuthenticator, token: &str) -> String {
    let header = format!("Bearer {token}");
    match v
        .authenticate(Credentials {
            authorization: Some(&header),
            query: None,
        })
        .await
    {
        Err(AuthFailure::InvalidToken { reason }) => reason,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn access_claims(sub: &str) -> serde_json::Value {
    json!({ "iss": ISSUER, "sub": sub, "aud": MCP, "scope": "ledger:read", "iat": now(), "exp": now() + 600 })
}

#[tokio::test]
async fn upstream_id_and_access_tokens_are_refused_by_the_resource() {
    let op = stand_in_provider().await;
    let h = upstream_harness(&op);
    let v = resource_verifier(&h.server.public_key());
    // The upstream's ID token: another key, another issuer, typ JWT.
    let id_token = op
        .key
        .sign_jwt("JWT", &json!({ "iss": format!("http://127.0.0.1:{}", op.port), "sub": "user-1", "aud": MCP, "exp": now() + 300 }))
        .await
        .unwrap();
    assert_eq!(
        reason(&v, &id_token).await,
        "not an access token (typ is not at+jwt)"
    );
    // Even typed as an access token, the upstream's key is not ours.
    let typed = op.key.sign_access_token(&access_claims("user-1")).await.unwrap();
    assert_eq!(reason(&v, &typed).await, "unknown key id");
    // An ID-token-shaped JWT signed by OUR key is still not an access token.
    let ours_as_id = h.sign_jwt("JWT", &access_claims("x")).await;
    assert_eq!(
        reason(&v, &ours_as_id).await,
        "not an access token (typ is not at+jwt)"
    );
    // The upstream's opaque access token.
    assert_eq!(
        reason(&v, "upstream-access").await,
        "not a JWT (expected three dot-separated parts)"
    );
    // And a real one of ours passes.
    let good = h.sign_access_token(&access_claims("person")).await;
    let header = format!("Bearer {good}");
    let p = v
        .authenticate(Credentials {
            authorization: Some(&header),
            query: None,
        })
        .await
        .unwrap();
    assert_eq!(p.person, "person");
}

/// Registration is JSON only (a cross-site form or text/plain POST needs no preflight and
/// would spend the hourly budget), and a client name with an invisible or bidi character
/// is refused: the consent page shows it.
#[tokio::test]
async fn registration_needs_json_and_a_visible_client_name() {
    let h = Harness::new();
    let body =
        json!({ "redirect_uris": ["http://127.0.0.1:7777/callback"], "client_name": "Test" }).to_string();
    for content_type in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        Some("multipart/form-data"),
    ] {
        let mut req = Request::post("/oauth/register");
        if let Some(t) = content_type {
            req = req.header("content-type", t);
        }
        let r = h.send(req.body(Bytes::from(body.clone())).unwrap()).await;
        assert_eq!(r.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE, "{content_type:?}");
        assert_eq!(
            json(&r)["error_description"],
            "send the registration as Content-Type: application/json"
        );
    }
    for name in ["Claude\u{202E}tfosorciM", "Cla\u{200B}ude"] {
        let body = json!({ "redirect_uris": ["http://127.0.0.1:7777/callback"], "client_name": name });
        let r = h
            .send(
                Request::post("/oauth/register")
                    .header("content-type", "application/json; charset=utf-8")
                    .body(Bytes::from(body.to_string()))
                    .unwrap(),
            )
            .await;
        assert_eq!(r.status(), StatusCode::BAD_REQUEST);
        assert_eq!(
            json(&r)["error_description"],
            "client_name may not contain invisible or text-direction characters"
        );
    }
    h.register("http://127.0.0.1:7777/callback").await;
}
