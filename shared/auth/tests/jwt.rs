//! JWT mode against a real JWKS server on 127.0.0.1 with real signed tokens: every
//! verification rule, the classic attacks, and the key cache's refetch and rate limit.

mod support;

use std::time::Duration;

use dochiya_auth::{BearerAuthenticator, JwtConfig};
use dochiya_protocol::{AuthFailure, Authenticator, Challenge, Credentials, Principal};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::json;
use support::*;

fn authenticator(server: &JwksServer, refetch_interval: Duration) -> BearerAuthenticator {
    let mut config = JwtConfig::new(ISSUER, &server.url).allowing_local_http();
    config.refetch_interval = refetch_interval;
    BearerAuthenticator::jwt(RESOURCE, &[ISSUER.to_owned()], &config).expect("authenticator builds")
}

/// The principal a token yields, its `iat` set aside (`the_tokens_iat_is_handed_on` checks it).
async fn auth(a: &BearerAuthenticator, token: &str) -> Result<Principal, AuthFailure> {
    auth_with_iat(a, token)
        .await
        .map(|p| Principal { issued_at: None, ..p })
}

async fn auth_with_iat(a: &BearerAuthenticator, token: &str) -> Result<Principal, AuthFailure> {
    let header = format!("Bearer {token}");
    a.authenticate(Credentials {
        authorization: Some(&header),
        query: None,
    })
    .await
}

/// `iat` reaches the ledger (a person deleted since is refused on older tokens): a whole
/// number as it is, a fraction cut, another type as none.
#[tokio::test]
async fn the_tokens_iat_is_handed_on() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, SLOW);
    for (iat, expected) in [
        (json!(1_790_000_000), Some(1_790_000_000)),
        (json!(1_790_000_000.75), Some(1_790_000_000)),
        (json!("1790000000"), None),
    ] {
        let mut claims = good_claims("person-iat", "ledger:read");
        claims["iat"] = iat.clone();
        let got = auth_with_iat(&a, &key.sign(&claims)).await.map(|p| p.issued_at);
        assert_eq!(got, Ok(expected), "{iat}");
    }
}

fn rejected(reason: &str) -> Result<Principal, AuthFailure> {
    Err(AuthFailure::InvalidToken {
        reason: reason.to_owned(),
    })
}

fn principal(person: &str, scopes: &[&str]) -> Result<Principal, AuthFailure> {
    Ok(Principal {
        person: person.to_owned(),
        scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
        name: None,
        roster_hint: None,
        issued_at: None,
    })
}

const SLOW: Duration = Duration::from_secs(30);

#[tokio::test]
async fn a_valid_token_yields_the_person_and_scopes_and_keys_are_cached() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, SLOW);
    let token = key.sign(&good_claims("person-1", "ledger:read ledger:write"));
    assert_eq!(
        auth(&a, &token).await,
        principal("person-1", &["ledger:read", "ledger:write"])
    );
    assert_eq!(
        auth(&a, &token).await,
        principal("person-1", &["ledger:read", "ledger:write"])
    );
    assert_eq!(server.hits(), 1, "the JWKS is fetched once and cached");
}

/// Decision 044: a roster hint is acted on only from our own authorization server; an
/// `rh` claim in another issuer's token is dropped (the token itself is still good).
#[tokio::test]
async fn another_issuers_roster_hint_is_dropped() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, SLOW);
    let mut claims = good_claims("person-rh", "ledger:read");
    claims["rh"] = json!({"v": 1, "m": []});
    assert_eq!(
        auth(&a, &key.sign(&claims)).await,
        principal("person-rh", &["ledger:read"])
    );
}

#[tokio::test]
async fn ec_and_eddsa_keys_verify_their_own_algorithms() {
    let (ec, ed) = (SigningKey::ec(), SigningKey::ed());
    let server = JwksServer::start(jwks(&[&ec, &ed])).await;
    let a = authenticator(&server, SLOW);
    assert_eq!(
        auth(&a, &ec.sign(&good_claims("p-ec", "ledger:read"))).await,
        principal("p-ec", &["ledger:read"])
    );
    assert_eq!(
        auth(&a, &ed.sign(&good_claims("p-ed", "ledger:read"))).await,
        principal("p-ed", &["ledger:read"])
    );
}

#[tokio::test]
async fn alg_none_is_refused_before_any_key_is_fetched() {
    let server = JwksServer::start(jwks(&[&SigningKey::rsa_a()])).await;
    let a = authenticator(&server, SLOW);
    let header = json!({ "alg": "none", "typ": "JWT", "kid": "rsa-a" });
    let claims = good_claims("mallory", "ledger:read ledger:write");
    assert_eq!(
        auth(&a, &raw_token(&header, &claims, "")).await,
        rejected("algorithm \"none\" is not accepted")
    );
    let header = json!({ "alg": "None", "kid": "rsa-a" });
    assert_eq!(
        auth(&a, &raw_token(&header, &claims, "")).await,
        rejected("algorithm \"None\" is not accepted")
    );
    // ESC and a line break in `alg` reach the log reason escaped (no forged log line).
    let header = json!({ "alg": "\u{1b}[2K\nINFO", "kid": "rsa-a" });
    assert_eq!(
        auth(&a, &raw_token(&header, &claims, "")).await,
        rejected("algorithm \"\\u{1b}[2K\\nINFO\" is not accepted")
    );
    assert_eq!(server.hits(), 0);
}

#[tokio::test]
async fn hs256_signed_with_the_rsa_public_key_is_refused() {
    let server = JwksServer::start(jwks(&[&SigningKey::rsa_a()])).await;
    let a = authenticator(&server, SLOW);
    let public_pem = include_bytes!("fixtures/test-only-rsa-a.public.pem");
    let mut header = Header::new(Algorithm::HS256);
    header.kid = Some("rsa-a".to_owned());
    let key = EncodingKey::from_secret(public_pem).expect("hmac key");
    let token = jsonwebtoken::encode(&header, &good_claims("mallory", "ledger:write"), &key).expect("signs");
    assert_eq!(
        auth(&a, &token).await,
        rejected("algorithm \"HS256\" is not accepted")
    );
    assert_eq!(server.hits(), 0);
}

#[tokio::test]
async fn an_algorithm_the_key_does_not_declare_is_refused() {
    // The JWK declares RS256; a PS256 signature by the same RSA key is not accepted for it.
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, SLOW);
    let token = key.sign_with(Algorithm::PS256, Some("rsa-a"), &good_claims("p", "ledger:read"));
    assert_eq!(
        auth(&a, &token).await,
        rejected("algorithm PS256 does not match the type of key `rsa-a`")
    );
    // An EC algorithm named against an RSA key is refused the same way.
    let ec = SigningKey::ec();
    let token = ec.sign_with(Algorithm::ES256, Some("rsa-a"), &good_claims("p", "ledger:read"));
    assert_eq!(
        auth(&a, &token).await,
        rejected("algorithm ES256 does not match the type of key `rsa-a`")
    );
}

#[tokio::test]
async fn issuer_audience_and_subject_rules() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, SLOW);
    let with = |patch: serde_json::Value| {
        let mut claims = good_claims("person-1", "ledger:read");
        for (k, v) in patch.as_object().expect("object") {
            if v.is_null() {
                claims.as_object_mut().expect("object").remove(k);
            } else {
                claims[k] = v.clone();
            }
        }
        key.sign(&claims)
    };
    assert_eq!(
        auth(&a, &with(json!({"iss": "https://evil.example.test/"}))).await,
        rejected("wrong issuer")
    );
    assert_eq!(
        auth(&a, &with(json!({"iss": "https://auth.example.test"}))).await,
        rejected("wrong issuer")
    );
    assert_eq!(
        auth(&a, &with(json!({"iss": null}))).await,
        rejected("missing claim `iss`")
    );
    let wrong_aud = rejected("audience does not include this resource");
    assert_eq!(
        auth(&a, &with(json!({"aud": "https://other.example.test/mcp"}))).await,
        wrong_aud
    );
    assert_eq!(
        auth(&a, &with(json!({"aud": ["https://other.example.test/mcp", "x"]}))).await,
        wrong_aud
    );
    assert_eq!(
        auth(&a, &with(json!({"aud": "https://mcp.example.test/mcp/"}))).await,
        wrong_aud
    );
    assert_eq!(
        auth(&a, &with(json!({"aud": null}))).await,
        rejected("missing claim `aud`")
    );
    assert_eq!(
        auth(
            &a,
            &with(json!({"aud": ["https://auth.example.test/userinfo", RESOURCE]}))
        )
        .await,
        principal("person-1", &["ledger:read"])
    );
    assert_eq!(
        auth(&a, &with(json!({"sub": null}))).await,
        rejected("missing claim `sub`")
    );
    assert_eq!(
        auth(&a, &with(json!({"sub": ""}))).await,
        rejected("claim `sub` is not a usable identifier")
    );
    assert_eq!(
        auth(&a, &with(json!({"sub": "x".repeat(256)}))).await,
        rejected("claim `sub` is not a usable identifier")
    );
    // Blank after trimming is no person (it was accepted as one).
    assert_eq!(
        auth(&a, &with(json!({"sub": " \t "}))).await,
        rejected("claim `sub` is not a usable identifier")
    );
    assert_eq!(
        auth(&a, &with(json!({"sub": "x".repeat(255)}))).await,
        principal(&"x".repeat(255), &["ledger:read"])
    );
    assert_eq!(
        auth(&a, &with(json!({"exp": null}))).await,
        rejected("missing claim `exp`")
    );
    // A non-numeric `exp` counts as absent: refused all the same.
    assert_eq!(
        auth(&a, &with(json!({"exp": "soon"}))).await,
        rejected("missing claim `exp`")
    );
    // The display name shown to other members: `name`, else `preferred_username`, else `email`.
    let named = |patch| async { auth(&a, &with(patch)).await.map(|p| p.name) };
    assert_eq!(
        named(json!({"name": "민지", "preferred_username": "minji", "email": "m@example.test"})).await,
        Ok(Some("민지".to_owned()))
    );
    assert_eq!(
        named(json!({"name": " ", "preferred_username": "minji", "email": "m@example.test"})).await,
        Ok(Some("minji".to_owned()))
    );
    assert_eq!(
        named(json!({"name": 7, "email": "m@example.test"})).await,
        Ok(Some("m@example.test".to_owned())),
        "a claim of the wrong type is skipped, not refused"
    );
    assert_eq!(named(json!({})).await, Ok(None));
}

#[tokio::test]
async fn expiry_and_not_before_allow_sixty_seconds_of_skew_and_no_more() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, SLOW);
    let at = |exp: u64, nbf: u64| {
        let mut claims = good_claims("person-1", "ledger:read");
        claims["exp"] = json!(exp);
        claims["nbf"] = json!(nbf);
        key.sign(&claims)
    };
    let now = now();
    assert_eq!(
        auth(&a, &at(now - 120, now - 600)).await,
        rejected("token expired")
    );
    assert_eq!(
        auth(&a, &at(now - 30, now - 600)).await,
        principal("person-1", &["ledger:read"])
    );
    assert_eq!(
        auth(&a, &at(now + 600, now + 120)).await,
        rejected("token not yet valid (nbf in the future)")
    );
    assert_eq!(
        auth(&a, &at(now + 600, now + 30)).await,
        principal("person-1", &["ledger:read"])
    );
}

#[tokio::test]
async fn a_tampered_payload_fails_the_signature() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, SLOW);
    let token = key.sign(&good_claims("person-1", "ledger:read"));
    let parts: Vec<&str> = token.split('.').collect();
    let forged = raw_token(
        &json!({"alg": "RS256", "kid": "rsa-a", "typ": "JWT"}),
        &good_claims("person-2", "ledger:read ledger:write"),
        parts[2],
    );
    assert_eq!(auth(&a, &forged).await, rejected("bad signature"));
    // Same header bytes, payload swapped: still the signature that fails.
    let swapped = format!(
        "{}.{}.{}",
        parts[0],
        forged.split('.').nth(1).expect("payload"),
        parts[2]
    );
    assert_eq!(auth(&a, &swapped).await, rejected("bad signature"));
    // A signature by a key that is not the one the kid names.
    let other = SigningKey::rsa_b().sign_with(
        Algorithm::RS256,
        Some("rsa-a"),
        &good_claims("person-1", "ledger:read"),
    );
    assert_eq!(auth(&a, &other).await, rejected("bad signature"));
}

#[tokio::test]
async fn scopes_come_from_scope_or_scp() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, SLOW);
    let mut claims = good_claims("p", "");
    claims.as_object_mut().expect("object").remove("scope");
    claims["scp"] = json!(["ledger:read", "ledger:write"]);
    assert_eq!(
        auth(&a, &key.sign(&claims)).await,
        principal("p", &["ledger:read", "ledger:write"])
    );
    claims["scp"] = json!("ledger:read");
    assert_eq!(
        auth(&a, &key.sign(&claims)).await,
        principal("p", &["ledger:read"])
    );
    claims["scope"] = json!("openid  ledger:read");
    claims["scp"] = json!(["ledger:read", "ledger:write"]);
    assert_eq!(
        auth(&a, &key.sign(&claims)).await,
        principal("p", &["openid", "ledger:read", "ledger:write"])
    );
    claims.as_object_mut().expect("object").remove("scp");
    claims.as_object_mut().expect("object").remove("scope");
    assert_eq!(auth(&a, &key.sign(&claims)).await, principal("p", &[]));
    claims["scope"] = json!(7);
    assert_eq!(
        auth(&a, &key.sign(&claims)).await,
        rejected("scope claim has the wrong type")
    );
}

#[tokio::test]
async fn an_unknown_kid_refetches_once_then_is_rate_limited() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, SLOW);
    assert_eq!(
        auth(&a, &key.sign(&good_claims("p", "ledger:read"))).await,
        principal("p", &["ledger:read"])
    );
    assert_eq!(server.hits(), 1);

    let stranger = SigningKey::rsa_b();
    let ghost = stranger.sign_with(
        Algorithm::RS256,
        Some("ghost-0"),
        &good_claims("p", "ledger:read"),
    );
    assert_eq!(auth(&a, &ghost).await, rejected("unknown kid `ghost-0`"));
    assert_eq!(server.hits(), 2, "one refetch for the unknown kid");

    // A flood of made-up kids does not reach the issuer again within the interval.
    for i in 1..=50 {
        let kid = format!("ghost-{i}");
        let token = stranger.sign_with(Algorithm::RS256, Some(&kid), &good_claims("p", "ledger:read"));
        assert_eq!(
            auth(&a, &token).await,
            rejected(&format!("unknown kid `{kid}` (JWKS refetch rate-limited)"))
        );
    }
    assert_eq!(server.hits(), 2);
    // Known keys keep working meanwhile, from the cache.
    assert_eq!(
        auth(&a, &key.sign(&good_claims("p", "ledger:read"))).await,
        principal("p", &["ledger:read"])
    );
    assert_eq!(server.hits(), 2);
}

#[tokio::test]
async fn after_the_interval_another_refetch_is_allowed() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, Duration::from_millis(300));
    let stranger = SigningKey::rsa_b();
    let token = |kid: &str| stranger.sign_with(Algorithm::RS256, Some(kid), &good_claims("p", "ledger:read"));
    assert_eq!(auth(&a, &token("g1")).await, rejected("unknown kid `g1`"));
    assert_eq!(server.hits(), 2, "initial fetch plus one refetch");
    assert_eq!(
        auth(&a, &token("g2")).await,
        rejected("unknown kid `g2` (JWKS refetch rate-limited)")
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(auth(&a, &token("g3")).await, rejected("unknown kid `g3`"));
    assert_eq!(server.hits(), 3);
}

#[tokio::test]
async fn key_rotation_is_picked_up_without_restart_and_the_old_key_stops_working() {
    let (old, new) = (SigningKey::rsa_a(), SigningKey::rsa_b());
    let server = JwksServer::start(jwks(&[&old])).await;
    let a = authenticator(&server, SLOW);
    assert_eq!(
        auth(&a, &old.sign(&good_claims("p", "ledger:read"))).await,
        principal("p", &["ledger:read"])
    );
    server.serve(jwks(&[&new]));
    assert_eq!(
        auth(&a, &new.sign(&good_claims("p", "ledger:read"))).await,
        principal("p", &["ledger:read"])
    );
    assert_eq!(server.hits(), 2);
    // The new set no longer has rsa-a; a refetch for it within the interval is rate-limited.
    assert_eq!(
        auth(&a, &old.sign(&good_claims("p", "ledger:read"))).await,
        rejected("unknown kid `rsa-a` (JWKS refetch rate-limited)")
    );
}

#[tokio::test]
async fn concurrent_first_requests_share_one_fetch() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = std::sync::Arc::new(authenticator(&server, SLOW));
    let token = key.sign(&good_claims("p", "ledger:read"));
    let tasks: Vec<_> = (0..20)
        .map(|_| {
            let (a, token) = (a.clone(), token.clone());
            tokio::spawn(async move { auth(&a, &token).await })
        })
        .collect();
    for task in tasks {
        assert_eq!(task.await.expect("task"), principal("p", &["ledger:read"]));
    }
    assert_eq!(server.hits(), 1);
}

#[tokio::test]
async fn an_unreachable_jwks_fails_closed_as_unavailable_and_is_not_hammered() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    server.fail_with(500);
    let a = authenticator(&server, SLOW);
    let token = key.sign(&good_claims("p", "ledger:read"));
    // Not the token's fault: "retry later" (503), never "sign in again" (401).
    let unavailable = |reason: &str| {
        Err(AuthFailure::Unavailable {
            reason: reason.to_owned(),
            retry_after_secs: 30,
        })
    };
    assert_eq!(
        auth(&a, &token).await,
        unavailable("JWKS fetch returned HTTP 500")
    );
    assert_eq!(
        auth(&a, &token).await,
        unavailable("JWKS unavailable (last fetch failed; retry is rate-limited)")
    );
    assert_eq!(server.hits(), 1);
}

#[tokio::test]
async fn weak_symmetric_and_encryption_keys_in_the_jwks_are_ignored() {
    let good = SigningKey::rsa_a();
    let mut enc = SigningKey::rsa_b().jwk();
    enc["use"] = json!("enc");
    enc["kid"] = json!("rsa-enc");
    let document = json!({ "keys": [
        good.jwk(),
        rsa_weak_jwk(),
        enc,
        { "kty": "oct", "kid": "hmac", "k": "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA" },
        { "kty": "EC", "crv": "P-521", "kid": "p521", "x": "AA", "y": "AA" },
        { "kty": "weird" }
    ]});
    let server = JwksServer::start(document).await;
    let a = authenticator(&server, SLOW);
    assert_eq!(
        auth(&a, &good.sign(&good_claims("p", "ledger:read"))).await,
        principal("p", &["ledger:read"])
    );
    assert_eq!(
        // The key is ignored, so the token is refused by its kid before any signature check.
        auth(
            &a,
            &raw_token(
                &json!({"alg": "RS256", "kid": "rsa-weak"}),
                &good_claims("p", "ledger:read"),
                "c2ln"
            )
        )
        .await,
        rejected("unknown kid `rsa-weak`")
    );
    let by_enc_key = SigningKey::rsa_b().sign_with(
        Algorithm::RS256,
        Some("rsa-enc"),
        &good_claims("p", "ledger:read"),
    );
    assert_eq!(
        auth(&a, &by_enc_key).await,
        rejected("unknown kid `rsa-enc` (JWKS refetch rate-limited)")
    );
}

#[tokio::test]
async fn a_token_without_kid_needs_a_single_candidate_key() {
    let (k1, k2) = (SigningKey::rsa_a(), SigningKey::rsa_b());
    let server = JwksServer::start(jwks(&[&k1])).await;
    let a = authenticator(&server, SLOW);
    let token = k1.sign_with(Algorithm::RS256, None, &good_claims("p", "ledger:read"));
    assert_eq!(auth(&a, &token).await, principal("p", &["ledger:read"]));

    let server = JwksServer::start(jwks(&[&k1, &k2])).await;
    let a = authenticator(&server, SLOW);
    assert_eq!(
        auth(&a, &token).await,
        rejected("token has no kid and no single RS256 key is in the JWKS")
    );
}

#[tokio::test]
async fn malformed_tokens_and_credentials() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, SLOW);
    assert_eq!(
        auth(&a, "a.b.c.d.e").await,
        rejected("encrypted tokens (JWE) are not accepted")
    );
    assert_eq!(
        auth(&a, "abc").await,
        rejected("not a JWT (expected three dot-separated parts)")
    );
    assert_eq!(
        auth(&a, "!!!.b.c").await,
        rejected("bearer token has characters a JWT cannot contain")
    );
    assert_eq!(auth(&a, "e30.e30.").await, rejected("token header has no alg"));
    let crit = raw_token(
        &json!({"alg": "RS256", "kid": "rsa-a", "crit": ["b64"], "b64": false}),
        &good_claims("p", ""),
        "x",
    );
    assert_eq!(
        auth(&a, &crit).await,
        rejected("critical header extensions are not supported")
    );

    let token = key.sign(&good_claims("p", "ledger:read"));
    let query = format!("access_token={token}");
    assert_eq!(
        a.authenticate(Credentials {
            authorization: None,
            query: Some(&query)
        })
        .await,
        rejected("access token in the URL query string")
    );
    let header = format!("Bearer {token}");
    assert_eq!(
        a.authenticate(Credentials {
            authorization: Some(&header),
            query: Some(&query)
        })
        .await,
        rejected("access token in the URL query string")
    );
    assert_eq!(
        a.authenticate(Credentials::default()).await,
        Err(AuthFailure::Missing)
    );
    assert_eq!(server.hits(), 0, "nothing malformed reaches the key cache");
}

#[tokio::test]
async fn challenges_and_metadata_through_the_trait() {
    let server = JwksServer::start(jwks(&[&SigningKey::rsa_a()])).await;
    let a: std::sync::Arc<dyn Authenticator> = std::sync::Arc::new(authenticator(&server, SLOW));
    let md = "https://mcp.example.test/.well-known/oauth-protected-resource/mcp";
    assert_eq!(
        a.challenge(&Challenge::Unauthorized { invalid_token: false }),
        format!("Bearer resource_metadata=\"{md}\", scope=\"ledger:read ledger:write\"")
    );
    assert_eq!(
        a.challenge(&Challenge::Unauthorized { invalid_token: true }),
        format!(
            "Bearer resource_metadata=\"{md}\", scope=\"ledger:read ledger:write\", error=\"invalid_token\""
        )
    );
    assert_eq!(
        a.challenge(&Challenge::InsufficientScope {
            scope: "ledger:write"
        }),
        format!("Bearer error=\"insufficient_scope\", scope=\"ledger:write\", resource_metadata=\"{md}\"")
    );
    assert_eq!(
        a.resource_metadata(),
        &json!({
            "resource": RESOURCE,
            "authorization_servers": [ISSUER],
            "scopes_supported": ["ledger:read", "ledger:write"],
            "bearer_methods_supported": ["header"],
            "resource_name": "dochiya",
        })
    );
}

#[tokio::test]
async fn no_single_character_change_to_a_valid_token_is_accepted() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, SLOW);
    let token = key.sign(&good_claims("person-1", "ledger:read"));
    assert_eq!(auth(&a, &token).await, principal("person-1", &["ledger:read"]));
    let mut checked = 0;
    for (i, c) in token.char_indices() {
        if c == '.' {
            continue;
        }
        let replacement = if c == 'A' { 'B' } else { 'A' };
        let mut mutated = token.clone();
        mutated.replace_range(i..i + 1, &replacement.to_string());
        match auth(&a, &mutated).await {
            Err(AuthFailure::InvalidToken { .. }) => checked += 1,
            other => panic!("position {i}: {c} -> {replacement} gave {other:?}"),
        }
    }
    assert_eq!(checked, token.len() - 2);
    // The valid token was cached first; no mutation of it matched it or was cached itself.
    assert_eq!(a.cached_tokens(), 1);
    // Mutated kids may cost one refetch; never more.
    assert!(server.hits() <= 2, "{} fetches", server.hits());
}

// The verified-token cache (decision 029): a token seen again skips its signature, and
// nothing else.

#[tokio::test]
async fn a_cached_token_grants_only_its_own_scopes_each_time() {
    let key = SigningKey::ec();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, SLOW);
    let read_only = key.sign(&good_claims("p", "ledger:read"));
    let first = auth(&a, &read_only).await.expect("verified");
    assert_eq!(a.cached_tokens(), 1);
    let again = auth(&a, &read_only).await.expect("from the cache");
    assert_eq!(again, first);
    assert!(again.has_scope("ledger:read"));
    assert!(!again.has_scope("ledger:write"), "the cache adds no scope");
    // Another token of the same person is its own entry, with its own scopes.
    let full = key.sign(&good_claims("p", "ledger:read ledger:write"));
    assert_eq!(
        auth(&a, &full).await,
        principal("p", &["ledger:read", "ledger:write"])
    );
    assert_eq!(a.cached_tokens(), 2);
    assert_eq!(auth(&a, &read_only).await, principal("p", &["ledger:read"]));
}

#[tokio::test]
async fn a_cached_token_is_refused_once_it_expires() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let mut config = JwtConfig::new(ISSUER, &server.url).allowing_local_http();
    config.leeway = Duration::ZERO;
    let a = BearerAuthenticator::jwt(RESOURCE, &[ISSUER.to_owned()], &config).expect("authenticator builds");
    let mut claims = good_claims("p", "ledger:read");
    claims["exp"] = json!(now() + 1);
    let token = key.sign(&claims);
    assert_eq!(auth(&a, &token).await, principal("p", &["ledger:read"]));
    assert_eq!(a.cached_tokens(), 1);
    // Past `exp` (whole seconds) the cached copy no longer holds.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    assert_eq!(auth(&a, &token).await, rejected("token expired"));
    assert_eq!(a.cached_tokens(), 0, "the expired entry is dropped");
}

#[tokio::test]
async fn a_token_tampered_in_one_byte_misses_the_cache_and_is_refused() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let a = authenticator(&server, SLOW);
    let token = key.sign(&good_claims("p", "ledger:read"));
    assert_eq!(auth(&a, &token).await, principal("p", &["ledger:read"]));
    // One byte in the middle of the signature.
    let i = token.rfind('.').expect("three parts") + 40;
    let c = token.as_bytes()[i];
    let mut tampered = token.clone();
    tampered.replace_range(i..=i, if c == b'A' { "B" } else { "A" });
    assert_eq!(auth(&a, &tampered).await, rejected("bad signature"));
    assert_eq!(a.cached_tokens(), 1);
    assert_eq!(auth(&a, &token).await, principal("p", &["ledger:read"]));
}

#[tokio::test]
async fn a_jwks_refetch_ends_the_cached_tokens_of_the_old_key_set() {
    let (old, new) = (SigningKey::rsa_a(), SigningKey::rsa_b());
    let server = JwksServer::start(jwks(&[&old])).await;
    // Refetches allowed at once, so the old key's token gets a fresh look at the new set.
    let a = authenticator(&server, Duration::ZERO);
    let old_token = old.sign(&good_claims("p", "ledger:read"));
    assert_eq!(auth(&a, &old_token).await, principal("p", &["ledger:read"]));
    assert_eq!(auth(&a, &old_token).await, principal("p", &["ledger:read"]));
    assert_eq!(server.hits(), 1);
    // The issuer rotates rsa-a out; a token of the new key makes us refetch.
    server.serve(jwks(&[&new]));
    assert_eq!(
        auth(&a, &new.sign(&good_claims("q", "ledger:read"))).await,
        principal("q", &["ledger:read"])
    );
    assert_eq!(server.hits(), 2);
    // The very same old token string, cached before the refetch, is refused now.
    assert_eq!(auth(&a, &old_token).await, rejected("unknown kid `rsa-a`"));
}
