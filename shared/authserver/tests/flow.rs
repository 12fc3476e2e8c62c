//! The whole local flow in process (embedded store in memory): metadata, registration,
//! authorize → sign-in → consent → code → token → refresh → revoke, and the verifier
//! accepting what we issue.

mod support;

use std::time::Duration;

use dochiya_auth::{BearerAuthenticator, BuiltinKey};
use dochiya_protocol::{Authenticator, Credentials};
use http::{Request, StatusCode};
use support::*;

fn verifier(h: &Harness) -> BearerAuthenticator {
    let public = h.server.public_key();
    BearerAuthenticator::builtin(
        MCP,
        &[ISSUER.to_owned()],
        ISSUER,
        &BuiltinKey {
            kid: public.kid,
            x: public.x,
            y: public.y,
        },
        Duration::from_secs(60),
        None,
    )
    .unwrap()
}

async fn authenticate(
    v: &BearerAuthenticator,
    token: &str,
) -> Result<dochiya_protocol::Principal, dochiya_protocol::AuthFailure> {
    let header = format!("Bearer {token}");
    v.authenticate(Credentials {
        authorization: Some(&header),
        query: None,
    })
    .await
}

#[tokio::test]
async fn the_metadata_names_every_endpoint_and_only_s256() {
    let h = Harness::new();
    let r = h
        .send(
            Request::get("/.well-known/oauth-authorization-server")
                .body(bytes::Bytes::new())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    assert_eq!(r.headers()["access-control-allow-origin"], "*");
    assert_eq!(
        json(&r),
        serde_json::json!({
            "issuer": ISSUER,
            "authorization_endpoint": "http://127.0.0.1:8080/oauth/authorize",
            "token_endpoint": "http://127.0.0.1:8080/oauth/token",
            "jwks_uri": "http://127.0.0.1:8080/oauth/jwks",
            "registration_endpoint": "http://127.0.0.1:8080/oauth/register",
            "revocation_endpoint": "http://127.0.0.1:8080/oauth/revoke",
            "scopes_supported": ["ledger:read", "ledger:write"],
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "token_endpoint_auth_methods_supported": ["none"],
            "revocation_endpoint_auth_methods_supported": ["none"],
            "code_challenge_methods_supported": ["S256"],
            "client_id_metadata_document_supported": true,
            "authorization_response_iss_parameter_supported": true,
        })
    );
    let jwks = json(
        &h.send(Request::get("/oauth/jwks").body(bytes::Bytes::new()).unwrap())
            .await,
    );
    let key = &jwks["keys"][0];
    assert_eq!(
        (key["kty"].as_str(), key["crv"].as_str(), key["alg"].as_str()),
        (Some("EC"), Some("P-256"), Some("ES256"))
    );
    assert_eq!(key["kid"].as_str(), Some(h.server.public_key().kid.as_str()));
}

#[tokio::test]
async fn a_person_signs_in_consents_and_the_client_gets_tokens_the_resource_accepts() {
    let h = Harness::new();
    let client = h.register(REDIRECT).await;
    let (verifier_text, challenge) = pkce();
    let mut browser = Browser::default();
    let back = sign_in_and_allow(
        &h,
        &mut browser,
        &Ask {
            client_id: &client,
            redirect: REDIRECT,
            challenge: &challenge,
            scope: Some("ledger:read ledger:write"),
            resource: None,
            state: "st-1",
        },
        "도치",
    )
    .await;
    assert!(back.starts_with(REDIRECT), "{back}");
    assert_eq!(param(&back, "state").as_deref(), Some("st-1"));
    assert_eq!(param(&back, "iss").as_deref(), Some(ISSUER));
    let code = param(&back, "code").unwrap();

    let r = redeem(&h, &client, &code, &verifier_text).await;
    assert_eq!(r.status(), StatusCode::OK, "{}", text(&r));
    assert_eq!(r.headers()["cache-control"], "no-store");
    let body = json(&r);
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["expires_in"], 3600);
    assert_eq!(body["scope"], "ledger:read ledger:write");
    let access = body["access_token"].as_str().unwrap().to_owned();
    let refresh_token = body["refresh_token"].as_str().unwrap().to_owned();

    let v = verifier(&h);
    let principal = authenticate(&v, &access).await.unwrap();
    assert_eq!(principal.person, "도치");
    assert_eq!(principal.scopes, ["ledger:read", "ledger:write"]);

    // Refresh: a new pair; the new access token works too.
    let r = refresh(&h, &client, &refresh_token, None).await;
    assert_eq!(r.status(), StatusCode::OK, "{}", text(&r));
    let body = json(&r);
    let second_refresh = body["refresh_token"].as_str().unwrap().to_owned();
    assert_ne!(second_refresh, refresh_token);
    assert_eq!(
        authenticate(&v, body["access_token"].as_str().unwrap())
            .await
            .unwrap()
            .person,
        "도치"
    );

    // Revoke: the refresh token stops working.
    let r = h
        .send(
            Request::post("/oauth/revoke")
                .header("content-type", "application/x-www-form-urlencoded")
                .body(form(&[("token", &second_refresh), ("client_id", &client)]))
                .unwrap(),
        )
        .await;
    assert_eq!(r.status(), StatusCode::OK);
    let r = refresh(&h, &client, &second_refresh, None).await;
    assert_eq!(r.status(), StatusCode::BAD_REQUEST);
    assert_eq!(json(&r)["error"], "invalid_grant");
}

/// The hint the ledger would give: the subject's roster at the n-th minting.
struct Minted(std::sync::atomic::AtomicI64);

#[async_trait::async_trait]
impl dochiya_authserver::TokenHints for Minted {
    async fn roster_hint(&self, sub: &str) -> Option<serde_json::Value> {
        let n = self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        (sub == "도치").then(|| serde_json::json!({ "v": n, "m": [] }))
    }
}

/// The payload of a compact JWT, unverified (to look at what was signed in).
fn payload(token: &str) -> serde_json::Value {
    use base64::Engine as _;
    let part = token.split('.').nth(1).expect("three parts");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(part)
        .expect("base64url");
    serde_json::from_slice(&bytes).expect("JSON")
}

/// Decision 044: the access token of a code grant and of each refresh carries the roster
/// hint read at its minting (`rh`), and the verifier hands it on with the principal; a
/// person the ledger gives no hint for gets a token without the claim.
#[tokio::test]
async fn access_tokens_carry_the_roster_hint_read_when_minted() {
    let h = Harness::new().with_hints(std::sync::Arc::new(Minted(0.into())));
    let v = verifier(&h);
    let client = h.register(REDIRECT).await;
    let mut tokens = Vec::new();
    for person in ["도치", "고슴"] {
        let (verifier_text, challenge) = pkce();
        let back = sign_in_and_allow(
            &h,
            &mut Browser::default(),
            &Ask {
                client_id: &client,
                redirect: REDIRECT,
                challenge: &challenge,
                scope: Some("ledger:read ledger:write"),
                resource: None,
                state: "st-h",
            },
            person,
        )
        .await;
        let r = redeem(&h, &client, &param(&back, "code").unwrap(), &verifier_text).await;
        assert_eq!(r.status(), StatusCode::OK, "{}", text(&r));
        tokens.push(json(&r));
    }
    let first = tokens[0]["access_token"].as_str().unwrap();
    assert_eq!(payload(first)["rh"], serde_json::json!({ "v": 1, "m": [] }));
    let principal = authenticate(&v, first).await.unwrap();
    assert_eq!(
        principal.roster_hint,
        Some(serde_json::json!({ "v": 1, "m": [] }))
    );
    let other = tokens[1]["access_token"].as_str().unwrap();
    assert_eq!(payload(other).get("rh"), None);
    assert_eq!(authenticate(&v, other).await.unwrap().roster_hint, None);

    // A refresh reads the roster again: the new token carries the roster as it is now.
    let r = refresh(&h, &client, tokens[0]["refresh_token"].as_str().unwrap(), None).await;
    assert_eq!(r.status(), StatusCode::OK, "{}", text(&r));
    let refreshed = json(&r)["access_token"].as_str().unwrap().to_owned();
    assert_eq!(payload(&refreshed)["rh"], serde_json::json!({ "v": 3, "m": [] }));
    assert_eq!(
        authenticate(&v, &refreshed).await.unwrap().roster_hint,
        Some(serde_json::json!({ "v": 3, "m": [] }))
    );
}

/// A hint is kept only as a JSON object of at most MAX_ROSTER_HINT_BYTES, from a token
/// signed with our key: an oversized or mis-shaped claim is dropped, the token still good.
#[tokio::test]
async fn the_verifier_keeps_only_a_bounded_object_as_the_hint() {
    let h = Harness::new();
    let v = verifier(&h);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let big = "가".repeat(dochiya_auth::MAX_ROSTER_HINT_BYTES / 3 + 1);
    let cases = [
        (serde_json::json!({ "v": 2, "m": [] }), true),
        (serde_json::json!({ "v": 2, "m": [[big]] }), false),
        (serde_json::json!([2, []]), false),
        (serde_json::json!("v2"), false),
    ];
    for (hint, kept) in cases {
        let token = h
            .sign_access_token(&serde_json::json!({
                "iss": ISSUER, "sub": "도치", "aud": MCP, "scope": "ledger:read",
                "iat": now, "exp": now + 600, "rh": hint,
            }))
            .await;
        let principal = authenticate(&v, &token).await.expect("the token is good");
        assert_eq!(principal.roster_hint, kept.then_some(hint.clone()), "{hint}");
    }
}

#[tokio::test]
async fn tokens_expire_after_an_hour_and_codes_after_a_minute() {
    let h = Harness::new();
    let client = h.register(REDIRECT).await;
    let (v1, c1) = pkce();
    let mut browser = Browser::default();
    let ask = Ask {
        client_id: &client,
        redirect: REDIRECT,
        challenge: &c1,
        scope: None,
        resource: None,
        state: "s",
    };
    let back = sign_in_and_allow(&h, &mut browser, &ask, "a").await;
    h.clock.advance(61);
    let r = redeem(&h, &client, &param(&back, "code").unwrap(), &v1).await;
    assert_eq!(json(&r)["error"], "invalid_grant");
    assert_eq!(
        json(&r)["error_description"],
        "the code is unknown, expired or already used"
    );
}

#[tokio::test]
async fn a_remembered_consent_skips_the_consent_page_for_the_same_scopes_only() {
    let h = Harness::new();
    let client = h.register(REDIRECT).await;
    let mut browser = Browser::default();
    let (_, c) = pkce();
    let ask = Ask {
        client_id: &client,
        redirect: REDIRECT,
        challenge: &c,
        scope: Some("ledger:read"),
        resource: None,
        state: "s",
    };
    // First time: consent with "remember".
    let r = browser.get(&h, &ask.url()).await;
    let page = browser.get(&h, &location(&r)).await;
    let html = text(&page);
    let r = browser
        .post(
            &h,
            "/oauth/signin",
            &[
                ("request", &hidden(&html, "request")),
                ("csrf", &hidden(&html, "csrf")),
                ("name", "kim"),
                ("code", &h.code()),
            ],
        )
        .await;
    let page = browser.get(&h, &location(&r)).await;
    let html = text(&page);
    let r = browser
        .post(
            &h,
            "/oauth/consent",
            &[
                ("request", &hidden(&html, "request")),
                ("csrf", &hidden(&html, "csrf")),
                ("decision", "allow"),
                ("remember", "yes"),
            ],
        )
        .await;
    assert!(location(&r).starts_with(REDIRECT));
    // Second time, same scopes: straight back with a code after sign-in.
    let back = sign_in_and_allow(&h, &mut browser, &ask, "kim").await;
    assert!(param(&back, "code").is_some(), "{back}");
    // Wider scopes: the consent page again.
    let wider = Ask {
        scope: Some("ledger:read ledger:write"),
        ..ask
    };
    let r = browser.get(&h, &wider.url()).await;
    let page = browser.get(&h, &location(&r)).await;
    let html = text(&page);
    let r = browser
        .post(
            &h,
            "/oauth/signin",
            &[
                ("request", &hidden(&html, "request")),
                ("csrf", &hidden(&html, "csrf")),
                ("name", "kim"),
                ("code", &h.code()),
            ],
        )
        .await;
    assert!(
        location(&r).starts_with("http://127.0.0.1:8080/oauth/consent?request="),
        "{}",
        location(&r)
    );
}

#[tokio::test]
async fn deny_sends_access_denied_with_the_state() {
    let h = Harness::new();
    let client = h.register(REDIRECT).await;
    let (_, c) = pkce();
    let mut browser = Browser::default();
    let ask = Ask {
        client_id: &client,
        redirect: REDIRECT,
        challenge: &c,
        scope: None,
        resource: None,
        state: "keep",
    };
    let r = browser.get(&h, &ask.url()).await;
    let page = browser.get(&h, &location(&r)).await;
    let html = text(&page);
    let r = browser
        .post(
            &h,
            "/oauth/signin",
            &[
                ("request", &hidden(&html, "request")),
                ("csrf", &hidden(&html, "csrf")),
                ("name", "lee"),
                ("code", &h.code()),
            ],
        )
        .await;
    let page = browser.get(&h, &location(&r)).await;
    let html = text(&page);
    let r = browser
        .post(
            &h,
            "/oauth/consent",
            &[
                ("request", &hidden(&html, "request")),
                ("csrf", &hidden(&html, "csrf")),
                ("decision", "deny"),
            ],
        )
        .await;
    let back = location(&r);
    assert_eq!(param(&back, "error").as_deref(), Some("access_denied"));
    assert_eq!(param(&back, "state").as_deref(), Some("keep"));
    assert_eq!(param(&back, "code"), None);
}

#[tokio::test]
async fn the_consent_page_speaks_korean_when_asked() {
    let h = Harness::new();
    let client = h.register(REDIRECT).await;
    let (_, c) = pkce();
    let mut browser = Browser {
        cookie: None,
        lang: Some("ko-KR,ko;q=0.9,en;q=0.5"),
    };
    let ask = Ask {
        client_id: &client,
        redirect: REDIRECT,
        challenge: &c,
        scope: None,
        resource: None,
        state: "s",
    };
    let r = browser.get(&h, &ask.url()).await;
    let page = browser.get(&h, &location(&r)).await;
    let html = text(&page);
    assert!(html.contains("dochiya 로그인"), "{html}");
    let r = browser
        .post(
            &h,
            "/oauth/signin",
            &[
                ("request", &hidden(&html, "request")),
                ("csrf", &hidden(&html, "csrf")),
                ("name", "도치"),
                ("code", &h.code()),
            ],
        )
        .await;
    let page = browser.get(&h, &location(&r)).await;
    let html = text(&page);
    assert!(html.contains("가계부 보기"), "{html}");
    assert!(html.contains("Test client"));
    assert!(html.contains("127.0.0.1"));
}

#[tokio::test]
async fn registration_is_rate_limited_per_hour() {
    let mut config = dochiya_authserver::AuthServerConfig::local(MCP).unwrap();
    config.dcr_per_hour = 2;
    let h = Harness::with(config, store());
    h.register(REDIRECT).await;
    h.register(REDIRECT).await;
    let body = serde_json::json!({ "redirect_uris": [REDIRECT] });
    let r = h
        .send(
            Request::post("/oauth/register")
                .header("content-type", "application/json")
                .body(bytes::Bytes::from(body.to_string()))
                .unwrap(),
        )
        .await;
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(json(&r)["error"], "temporarily_unavailable");
    h.clock.advance(3600);
    h.register(REDIRECT).await;
}

#[tokio::test]
async fn registration_refuses_confidential_clients_and_unsafe_redirects() {
    let h = Harness::new();
    let post = |body: serde_json::Value| {
        Request::post("/oauth/register")
            .header("content-type", "application/json")
            .body(bytes::Bytes::from(body.to_string()))
            .unwrap()
    };
    let r = h
        .send(post(serde_json::json!({ "redirect_uris": [REDIRECT], "token_endpoint_auth_method": "client_secret_basic" })))
        .await;
    assert_eq!(json(&r)["error"], "invalid_client_metadata");
    let r = h
        .send(post(
            serde_json::json!({ "redirect_uris": ["http://evil.example/cb"] }),
        ))
        .await;
    assert_eq!(json(&r)["error"], "invalid_redirect_uri");
    assert_eq!(
        json(&r)["error_description"],
        "a plain http redirect URI must be a loopback address"
    );
    let r = h.send(post(serde_json::json!({ "redirect_uris": [] }))).await;
    assert_eq!(json(&r)["error"], "invalid_redirect_uri");
}

/// A client's refresh token, from a whole sign-in as `name`.
async fn refresh_token_of(h: &Harness, client: &str, name: &str) -> String {
    let (verifier_text, challenge) = pkce();
    let back = sign_in_and_allow(
        h,
        &mut Browser::default(),
        &Ask {
            client_id: client,
            redirect: REDIRECT,
            challenge: &challenge,
            scope: None,
            resource: None,
            state: "s",
        },
        name,
    )
    .await;
    let r = redeem(h, client, &param(&back, "code").unwrap(), &verifier_text).await;
    json(&r)["refresh_token"].as_str().unwrap().to_owned()
}

async fn revoke(h: &Harness, pairs: &[(&str, &str)]) -> http::Response<bytes::Bytes> {
    h.send(
        Request::post("/oauth/revoke")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form(pairs))
            .unwrap(),
    )
    .await
}

/// One rule (decision 050): the client names itself, and a token is revoked only for
/// the client it was issued to; a token that is not ours is a quiet 200 (RFC 7009 §2.2).
#[tokio::test]
async fn revocation_needs_the_client_the_token_was_issued_to() {
    let h = Harness::new();
    let mine = h.register(REDIRECT).await;
    let other = h.register(REDIRECT).await;
    let rt = refresh_token_of(&h, &mine, "kim").await;
    // No client named: refused, and the token still works.
    let r = revoke(&h, &[("token", &rt)]).await;
    assert_eq!(
        (r.status(), json(&r)),
        (
            StatusCode::UNAUTHORIZED,
            serde_json::json!({"error": "invalid_client", "error_description": "client_id is required (public clients)"})
        )
    );
    // Another client: refused, and the token still works.
    let r = revoke(&h, &[("token", &rt), ("client_id", &other)]).await;
    assert_eq!(
        (r.status(), json(&r)),
        (
            StatusCode::BAD_REQUEST,
            serde_json::json!({"error": "invalid_grant", "error_description": "the token was issued to another client"})
        )
    );
    let r = refresh(&h, &mine, &rt, None).await;
    assert_eq!(r.status(), StatusCode::OK, "{}", text(&r));
    let rt = json(&r)["refresh_token"].as_str().unwrap().to_owned();
    // Its own client: revoked.
    let r = revoke(&h, &[("token", &rt), ("client_id", &mine)]).await;
    assert_eq!((r.status(), json(&r)), (StatusCode::OK, serde_json::json!({})));
    let r = refresh(&h, &mine, &rt, None).await;
    assert_eq!(json(&r)["error"], "invalid_grant");
    // Not a token of ours, or revoked already: 200, nothing to say.
    for token in ["not-a-token", rt.as_str()] {
        let r = revoke(&h, &[("token", token), ("client_id", &mine)]).await;
        assert_eq!(
            (r.status(), json(&r)),
            (StatusCode::OK, serde_json::json!({})),
            "{token}"
        );
    }
}

/// With a remembered consent the sign-in post is answered with the redirect to the
/// client; browsers apply the page's form-action to that redirect, so the sign-in page
/// allows the request's redirect origin (as the consent page does) and no other.
#[tokio::test]
async fn the_sign_in_page_lets_its_post_reach_the_clients_redirect() {
    let h = Harness::new();
    let client = h.register(REDIRECT).await;
    let (_, challenge) = pkce();
    let ask = Ask {
        client_id: &client,
        redirect: REDIRECT,
        challenge: &challenge,
        scope: None,
        resource: None,
        state: "s",
    };
    let mut browser = Browser::default();
    let r = browser.get(&h, &ask.url()).await;
    let page = browser.get(&h, &location(&r)).await;
    let origin = reqwest::Url::parse(REDIRECT)
        .unwrap()
        .origin()
        .ascii_serialization();
    assert_eq!(
        page.headers()["content-security-policy"],
        format!(
            "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self' {origin}; \
             frame-ancestors 'none'; base-uri 'none'"
        )
        .as_str()
    );
}

/// Deleting a person (decision 059): every grant of theirs ends, rotated or not, on
/// every client, with their consents; another person's grant is untouched; running it
/// again finds nothing.
#[tokio::test]
async fn forgetting_a_person_ends_every_grant_of_theirs_and_no_other() {
    use dochiya_authserver::forget::{Forgotten, forget};
    let h = Harness::new();
    let one = h.register(REDIRECT).await;
    let two = h.register(REDIRECT).await;
    let first = refresh_token_of(&h, &one, "kim").await;
    // Rotated once: the index follows the family.
    let r = refresh(&h, &one, &first, None).await;
    assert_eq!(r.status(), StatusCode::OK, "{}", text(&r));
    let kim_one = json(&r)["refresh_token"].as_str().unwrap().to_owned();
    let kim_two = refresh_token_of(&h, &two, "kim").await;
    let lee = refresh_token_of(&h, &one, "lee").await;
    // kim has the consent to client two remembered (its code is never redeemed).
    let mut browser = Browser::default();
    let (_, c) = pkce();
    let ask = Ask {
        client_id: &two,
        redirect: REDIRECT,
        challenge: &c,
        scope: Some("ledger:read"),
        resource: None,
        state: "s",
    };
    let r = browser.get(&h, &ask.url()).await;
    let html = text(&browser.get(&h, &location(&r)).await);
    let r = browser
        .post(
            &h,
            "/oauth/signin",
            &[
                ("request", &hidden(&html, "request")),
                ("csrf", &hidden(&html, "csrf")),
                ("name", "kim"),
                ("code", &h.code()),
            ],
        )
        .await;
    let html = text(&browser.get(&h, &location(&r)).await);
    let r = browser
        .post(
            &h,
            "/oauth/consent",
            &[
                ("request", &hidden(&html, "request")),
                ("csrf", &hidden(&html, "csrf")),
                ("decision", "allow"),
                ("remember", "yes"),
            ],
        )
        .await;
    assert!(location(&r).starts_with(REDIRECT));

    let gone = forget(h.store.as_ref(), "kim").await.expect("forget");
    // Two families (one per client) and the remembered consent.
    assert_eq!(
        gone,
        Forgotten {
            grants: 2,
            consents: 1,
            sessions: 0,
        }
    );
    // The consent is forgotten: kim's next sign-in asks again.
    let r = browser.get(&h, &ask.url()).await;
    let html = text(&browser.get(&h, &location(&r)).await);
    let r = browser
        .post(
            &h,
            "/oauth/signin",
            &[
                ("request", &hidden(&html, "request")),
                ("csrf", &hidden(&html, "csrf")),
                ("name", "kim"),
                ("code", &h.code()),
            ],
        )
        .await;
    assert!(location(&r).contains("/oauth/consent"), "{}", location(&r));
    for (client, rt) in [(&one, &kim_one), (&two, &kim_two)] {
        let r = refresh(&h, client, rt, None).await;
        assert_eq!(
            (r.status(), json(&r)["error"].clone()),
            (StatusCode::BAD_REQUEST, serde_json::json!("invalid_grant"))
        );
    }
    let r = refresh(&h, &one, &lee, None).await;
    assert_eq!(r.status(), StatusCode::OK, "{}", text(&r));
    assert_eq!(
        forget(h.store.as_ref(), "kim").await.expect("again"),
        Forgotten::default()
    );
}

/// The ledger's closing mark of a person who deleted their data (decision 059).
struct Closed(std::sync::atomic::AtomicI64);

#[async_trait::async_trait]
impl dochiya_authserver::TokenHints for Closed {
    async fn roster_hint(&self, _sub: &str) -> Option<serde_json::Value> {
        None
    }
    async fn closed_at(&self, sub: &str) -> Result<Option<i64>, String> {
        let at = self.0.load(std::sync::atomic::Ordering::SeqCst);
        Ok((sub == "kim" && at > 0).then_some(at))
    }
}

/// A grant from before the person deleted their data is refused at its next refresh,
/// even one no per-person index lists (stored before the index was kept); a sign-in
/// after the deletion refreshes.
#[tokio::test]
async fn a_grant_from_before_a_deletion_refreshes_no_more() {
    use dochiya_authserver::Clock as _;
    let closed = std::sync::Arc::new(Closed(0.into()));
    let h = Harness::new().with_hints(closed.clone());
    let client = h.register(REDIRECT).await;
    let before = refresh_token_of(&h, &client, "kim").await;
    let lee = refresh_token_of(&h, &client, "lee").await;
    h.clock.advance(10);
    closed.0.store(h.clock.now(), std::sync::atomic::Ordering::SeqCst);
    let r = refresh(&h, &client, &before, None).await;
    assert_eq!(
        (r.status(), json(&r)["error"].clone()),
        (StatusCode::BAD_REQUEST, serde_json::json!("invalid_grant"))
    );
    let r = refresh(&h, &client, &lee, None).await;
    assert_eq!(r.status(), StatusCode::OK, "another person: {}", text(&r));
    let after = refresh_token_of(&h, &client, "kim").await;
    let r = refresh(&h, &client, &after, None).await;
    assert_eq!(r.status(), StatusCode::OK, "a sign-in after: {}", text(&r));
}
