//! Dev mode end to end inside the crate: configuration → `build` → minted token → principal,
//! and the rules that keep dev tokens and issuer tokens apart.

mod support;

use std::path::PathBuf;
use std::time::Duration;

use dochiya_auth::{AuthConfig, AuthConfigError, DEV_ISSUER, RuntimeEnvironment, build, dev_token_issuer};
use dochiya_protocol::{AuthFailure, Authenticator, Credentials, Principal};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::json;
use support::*;

const LOCAL: &str = "http://127.0.0.1:8080/mcp";
const SECRET: &str = "dev-secret-for-tests-0123456789abcdef";

fn data_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("dochiya-auth-dev-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Dev mode unless `vars` name another (builtin is the default since the authorization server).
fn config(vars: &[(&str, &str)]) -> Result<AuthConfig, AuthConfigError> {
    let lookup = |k: &str| {
        vars.iter()
            .chain(&[("DOCHIYA_AUTH", "dev")])
            .find(|(n, _)| *n == k)
            .map(|(_, v)| (*v).to_owned())
    };
    AuthConfig::from_lookup(lookup, RuntimeEnvironment::detect(&lookup), LOCAL)
}

async fn auth(a: &dyn Authenticator, token: &str) -> Result<Principal, AuthFailure> {
    let header = format!("Bearer {token}");
    a.authenticate(Credentials {
        authorization: Some(&header),
        query: None,
    })
    .await
}

fn rejected(reason: &str) -> Result<Principal, AuthFailure> {
    Err(AuthFailure::InvalidToken {
        reason: reason.to_owned(),
    })
}

#[tokio::test]
async fn a_minted_dev_token_authenticates_with_its_subject_and_scopes() {
    let dir = data_dir("mint");
    let config = config(&[]).expect("local config");
    let a = build(&config, &dir).expect("dev authenticator");
    let issuer = dev_token_issuer(&config, &dir).expect("dev issuer");
    assert_eq!(issuer.audience(), LOCAL);
    let token = issuer
        .mint(
            "local-person",
            &["ledger:read", "ledger:write"],
            Duration::from_secs(3600),
        )
        .expect("mint");
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let got = auth(a.as_ref(), &token).await;
    // The token's `iat` is when it was minted: just now.
    let issued_at = got.as_ref().ok().and_then(|p| p.issued_at);
    assert!(
        issued_at.is_some_and(|iat| (0..=5).contains(&(i64::try_from(before).unwrap_or(0) - iat))),
        "{issued_at:?} is not about {before}"
    );
    assert_eq!(
        got,
        Ok(Principal {
            person: "local-person".to_owned(),
            scopes: vec!["ledger:read".to_owned(), "ledger:write".to_owned()],
            // Dev tokens carry a display name: the subject unless one is given.
            name: Some("local-person".to_owned()),
            roster_hint: None,
            issued_at,
        })
    );
    let named = issuer
        .mint_named("junho", "준호", &["ledger:read"], Duration::from_secs(60))
        .expect("mint");
    assert_eq!(
        auth(a.as_ref(), &named).await.map(|p| p.name),
        Ok(Some("준호".to_owned()))
    );
    let read_only = issuer
        .mint("local-person", &["ledger:read"], Duration::from_secs(60))
        .expect("mint");
    assert_eq!(
        auth(a.as_ref(), &read_only).await.map(|p| p.scopes),
        Ok(vec!["ledger:read".to_owned()])
    );
    // The generated secret is reused by a second build (a restart keeps old tokens valid).
    let again = build(&config, &dir).expect("rebuild");
    assert_eq!(
        auth(again.as_ref(), &token).await.map(|p| p.person),
        Ok("local-person".to_owned())
    );
    std::fs::remove_dir_all(&dir).expect("cleanup");
}

#[tokio::test]
async fn dev_tokens_are_checked_like_any_other() {
    let dir = data_dir("rules");
    let config = config(&[("DOCHIYA_DEV_SECRET", SECRET)]).expect("config");
    let a = build(&config, &dir).expect("dev authenticator");
    assert!(!dir.exists(), "a configured secret writes nothing");
    let sign = |claims: &serde_json::Value, secret: &str| {
        jsonwebtoken::encode(
            &Header::new(Algorithm::HS256),
            claims,
            &EncodingKey::from_secret(secret.as_bytes()).expect("key"),
        )
        .expect("sign")
    };
    let now = now();
    let good = json!({"iss": DEV_ISSUER, "aud": LOCAL, "sub": "p", "scope": "ledger:read", "exp": now + 60});
    assert_eq!(
        auth(a.as_ref(), &sign(&good, SECRET)).await.map(|p| p.person),
        Ok("p".to_owned())
    );
    assert_eq!(
        auth(a.as_ref(), &sign(&good, "another-secret-0123456789abcdef-xyz")).await,
        rejected("bad signature")
    );
    // A dev token's roster hint is dropped (decision 044: only our own server's ES256
    // tokens carry one the ledger acts on; anyone holding the dev secret could forge it).
    let mut claims = good.clone();
    claims["rh"] = json!({"v": 1, "m": []});
    assert_eq!(
        auth(a.as_ref(), &sign(&claims, SECRET))
            .await
            .map(|p| p.roster_hint),
        Ok(None)
    );
    let mut claims = good.clone();
    claims["aud"] = json!("http://127.0.0.1:9999/mcp");
    assert_eq!(
        auth(a.as_ref(), &sign(&claims, SECRET)).await,
        rejected("audience does not include this resource")
    );
    let mut claims = good.clone();
    claims["iss"] = json!(ISSUER);
    assert_eq!(
        auth(a.as_ref(), &sign(&claims, SECRET)).await,
        rejected("wrong issuer")
    );
    let mut claims = good.clone();
    claims["exp"] = json!(now - 120);
    assert_eq!(
        auth(a.as_ref(), &sign(&claims, SECRET)).await,
        rejected("token expired")
    );
    // Dev mode accepts HS256 only: an RS256 token is refused whatever it claims.
    let rs = SigningKey::rsa_a().sign(&good);
    assert_eq!(
        auth(a.as_ref(), &rs).await,
        rejected("algorithm \"RS256\" is not accepted")
    );
}

#[tokio::test]
async fn a_dev_token_is_refused_by_a_jwt_mode_server() {
    let key = SigningKey::rsa_a();
    let server = JwksServer::start(jwks(&[&key])).await;
    let dev =
        config(&[("DOCHIYA_DEV_SECRET", SECRET), ("DOCHIYA_RESOURCE_URL", RESOURCE)]).expect("dev config");
    let token = dev_token_issuer(&dev, &data_dir("unused"))
        .expect("issuer")
        .mint("p", &["ledger:read"], Duration::from_secs(60))
        .expect("mint");
    let jwt = config(&[
        ("DOCHIYA_AUTH", "jwt"),
        ("DOCHIYA_RESOURCE_URL", RESOURCE),
        ("DOCHIYA_ISSUER", ISSUER),
        ("DOCHIYA_JWKS_URL", &server.url),
    ])
    .expect("jwt config");
    let a = build(&jwt, &data_dir("unused")).expect("jwt authenticator");
    assert_eq!(
        auth(a.as_ref(), &token).await,
        rejected("algorithm \"HS256\" is not accepted")
    );
    let err = dev_token_issuer(&jwt, &data_dir("unused")).expect_err("no dev tokens in jwt mode");
    assert_eq!(
        err.to_string(),
        "dev tokens can only be minted when DOCHIYA_AUTH=dev"
    );
    assert_eq!(server.hits(), 0);
}

#[tokio::test]
async fn build_refuses_dev_mode_in_a_real_lambda_even_if_the_config_was_assembled_by_hand() {
    let mut config = config(&[("DOCHIYA_DEV_SECRET", SECRET)]).expect("config");
    config.runtime = dochiya_auth::RuntimeEnvironment::Lambda;
    let err = build(&config, &data_dir("lambda")).err().expect("refused");
    assert!(matches!(err, AuthConfigError::DevModeInLambda), "{err}");
    let err = dev_token_issuer(&config, &data_dir("lambda")).expect_err("refused");
    assert!(matches!(err, AuthConfigError::DevModeInLambda), "{err}");
}
