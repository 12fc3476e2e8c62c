//! The back channel: `/token` (authorization_code with PKCE, refresh_token with rotation
//! and reuse detection) and `/revoke` (RFC 7009). Public clients only: the client proves
//! itself by PKCE and by holding the code or refresh token, never by a secret.
//!
//! A refresh token is `rt1.<family secret>.<token secret>`. The family is stored under the
//! hash of its secret (the access tokens' `sid`, which therefore reveals nothing usable),
//! and only the hash of the one current token is kept: presenting any other token of a live family means an old one was copied,
//! so the whole family is revoked (OAuth 2.1 §4.3.1).

use bytes::Bytes;
use dochiya_store::{Condition, Guard, Item, StoreError, Value, WriteOp};
use http::{Request, Response, StatusCode};
use serde_json::json;

use crate::clients::store_failure;
use crate::state::{self, CodeRecord, Family, attrs, text};
use crate::{AuthServer, web};

/// The refresh token format's prefix.
pub const REFRESH_PREFIX: &str = "rt1.";

/// PKCE verifier rules (RFC 7636 §4.1): 43 to 128 unreserved characters.
fn is_verifier(v: &str) -> bool {
    (43..=128).contains(&v.len())
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

fn s256(verifier: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(web::sha256(verifier.as_bytes()))
}

/// `POST /oauth/token`.
pub async fn token(server: &AuthServer, req: &Request<Bytes>) -> Response<Bytes> {
    let params = match web::form(req) {
        Ok(p) => p,
        Err(e) => return web::oauth_error("invalid_request", &e.to_string()),
    };
    let Some(client_id) = params.get("client_id") else {
        return web::oauth_error("invalid_client", "client_id is required (public clients)");
    };
    match params.get("grant_type") {
        Some("authorization_code") => code_grant(server, &params, client_id).await,
        Some("refresh_token") => refresh_grant(server, &params, client_id).await,
        Some(_) => web::oauth_error(
            "unsupported_grant_type",
            "grant_type must be authorization_code or refresh_token",
        ),
        None => web::oauth_error("invalid_request", "grant_type is required"),
    }
}

async fn code_grant(server: &AuthServer, params: &web::Params, client_id: &str) -> Response<Bytes> {
    let Some(code) = params.get("code").filter(|c| web::looks_like_token(c)) else {
        return web::oauth_error("invalid_grant", "the code is missing or malformed");
    };
    let code_hash = web::hash(code);
    let (code_key, used_key) = (state::code_key(&code_hash), state::used_code_key(&code_hash));
    let items = match server.store.get_many(&[code_key.clone(), used_key.clone()]).await {
        Ok(items) => items,
        Err(e) => return store_failure(&e),
    };
    let now = server.now();
    let record = items
        .first()
        .and_then(Option::as_ref)
        .and_then(|i| CodeRecord::from_attrs(&i.attrs));
    let Some(record) = record else {
        // Gone: either never ours, or redeemed before. A second use revokes what it issued.
        if let Some(Some(used)) = items.get(1)
            && let Some(sid) = state::s(&used.attrs, "sid")
        {
            tracing::warn!("an authorization code was used twice: revoking its grant");
            if let Err(e) = Family::revoke(&*server.store, &sid).await {
                return store_failure(&e);
            }
        }
        return web::oauth_error("invalid_grant", "the code is unknown, expired or already used");
    };
    if record.expires_at <= now {
        return web::oauth_error("invalid_grant", "the code is unknown, expired or already used");
    }
    if record.client_id != client_id {
        return web::oauth_error("invalid_grant", "the code was issued to another client");
    }
    if params.get("redirect_uri") != Some(record.redirect_uri.as_str()) {
        return web::oauth_error(
            "invalid_grant",
            "redirect_uri does not match the authorization request",
        );
    }
    let Some(verifier) = params.get("code_verifier") else {
        return web::oauth_error("invalid_grant", "code_verifier is required (PKCE)");
    };
    if !is_verifier(verifier) || !web::same_secret(&s256(verifier), &record.challenge) {
        return web::oauth_error("invalid_grant", "code_verifier does not match the code_challenge");
    }
    if params.get("resource").is_some_and(|r| r != record.resource) {
        return web::oauth_error(
            "invalid_target",
            "resource does not match the authorization request",
        );
    }
    let Ok(token_secret) = web::random_token(32) else {
        return web::oauth_error("server_error", "no randomness");
    };
    let sid = record.sid.clone();
    let refresh = format!("{REFRESH_PREFIX}{}.{token_secret}", record.family_secret);
    let family = Family {
        sid: sid.clone(),
        client_id: record.client_id.clone(),
        sub: record.sub.clone(),
        name: record.name.clone(),
        scope: record.scope.clone(),
        resource: record.resource.clone(),
        current: web::hash(&refresh),
        expires_at: now + server.config.lifetimes.refresh,
        since: now,
    };
    let ops = vec![
        // Single use: the delete succeeds for exactly one redemption.
        WriteOp::Delete {
            key: code_key,
            guard: Some(Guard::new("code-unused", Condition::Exists)),
        },
        WriteOp::Put {
            item: Item {
                key: used_key,
                attrs: attrs(&[
                    ("sid", text(&sid)),
                    // Kept past the code's life so a late replay still revokes.
                    (
                        dochiya_store::TTL_ATTRIBUTE,
                        Some(Value::N(now + server.config.lifetimes.refresh)),
                    ),
                ]),
            },
            guard: Some(Guard::new("code-used-marker", Condition::NotExists)),
        },
        WriteOp::Put {
            item: family.item(),
            guard: Some(Guard::new("family-new", Condition::NotExists)),
        },
        // Found again by its person when they delete their data (`forget`).
        WriteOp::Put {
            item: family.index_item(),
            guard: None,
        },
    ];
    match server.store.write(ops).await {
        Ok(()) => {}
        Err(StoreError::ConditionFailed { .. }) => {
            // Another redemption won the race: this one is the reuse.
            let _ = Family::revoke(&*server.store, &sid).await;
            return web::oauth_error("invalid_grant", "the code is unknown, expired or already used");
        }
        Err(e) => return store_failure(&e),
    }
    token_response(server, &family, &family.scope, &refresh).await
}

/// Parse `rt1.<family secret>.<token secret>` → (family secret, sid).
fn refresh_family(token: &str) -> Option<(&str, String)> {
    let rest = token.strip_prefix(REFRESH_PREFIX)?;
    let (family, secret) = rest.split_once('.')?;
    (web::looks_like_token(family) && web::looks_like_token(secret)).then(|| (family, web::hash(family)))
}

async fn refresh_grant(server: &AuthServer, params: &web::Params, client_id: &str) -> Response<Bytes> {
    let Some(presented) = params.get("refresh_token") else {
        return web::oauth_error("invalid_request", "refresh_token is required");
    };
    let Some((family_secret, sid)) = refresh_family(presented) else {
        return web::oauth_error(
            "invalid_grant",
            "the refresh token is unknown, expired or revoked",
        );
    };
    let sid = sid.as_str();
    let family = match server.store.get(&state::family_key(sid)).await {
        Ok(item) => item.and_then(|i| Family::from_item(sid, &i.attrs)),
        Err(e) => return store_failure(&e),
    };
    let now = server.now();
    let Some(family) = family.filter(|f| f.expires_at > now) else {
        return web::oauth_error(
            "invalid_grant",
            "the refresh token is unknown, expired or revoked",
        );
    };
    if family.client_id != client_id {
        return web::oauth_error("invalid_grant", "the refresh token was issued to another client");
    }
    let presented_hash = web::hash(presented);
    if !web::same_secret(&presented_hash, &family.current) {
        tracing::warn!("a rotated-out refresh token was presented: revoking its family");
        if let Err(e) = Family::revoke(&*server.store, sid).await {
            return store_failure(&e);
        }
        return web::oauth_error(
            "invalid_grant",
            "the refresh token is unknown, expired or revoked",
        );
    }
    // A person who deleted their data after this sign-in: the grant ends here (a family
    // from before the per-person index was kept is found this way, not by `forget`).
    if let Some(hints) = &server.hints {
        match hints.closed_at(&family.sub).await {
            Ok(Some(at)) if family.since < at => {
                if let Err(e) = Family::revoke(&*server.store, sid).await {
                    return store_failure(&e);
                }
                return web::oauth_error(
                    "invalid_grant",
                    "the refresh token is unknown, expired or revoked",
                );
            }
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(error = %e, "cannot read whether the person deleted their data");
                return web::oauth_error("temporarily_unavailable", "try the refresh again");
            }
        }
    }
    let granted: Vec<&str> = family.scope.split(' ').collect();
    let scope = match params.get("scope") {
        None => family.scope.clone(),
        Some(asked) => {
            let asked: Vec<&str> = asked.split(' ').filter(|w| !w.is_empty()).collect();
            if asked.is_empty() || asked.iter().any(|s| !granted.contains(s)) {
                return web::oauth_error("invalid_scope", "a refresh may only narrow the granted scopes");
            }
            crate::SCOPES
                .iter()
                .copied()
                .filter(|s| asked.contains(s))
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    if params.get("resource").is_some_and(|r| r != family.resource) {
        return web::oauth_error("invalid_target", "resource does not match the grant");
    }
    let Ok(secret) = web::random_token(48) else {
        return web::oauth_error("server_error", "no randomness");
    };
    let refresh = format!("{REFRESH_PREFIX}{family_secret}.{secret}");
    let next = Family {
        current: web::hash(&refresh),
        expires_at: now + server.config.lifetimes.refresh,
        ..family.clone()
    };
    let op = WriteOp::Put {
        item: next.item(),
        // Rotation only from the token we checked: a concurrent use loses, and is reuse.
        guard: Some(Guard::new(
            "refresh-current",
            Condition::AttrEquals("current".into(), Value::S(presented_hash)),
        )),
    };
    // The index entry slides with the family's expiry.
    let index = WriteOp::Put {
        item: next.index_item(),
        guard: None,
    };
    match server.store.write(vec![op, index]).await {
        Ok(()) => token_response(server, &next, &scope, &refresh).await,
        Err(StoreError::ConditionFailed { .. }) => {
            let _ = Family::revoke(&*server.store, sid).await;
            web::oauth_error(
                "invalid_grant",
                "the refresh token is unknown, expired or revoked",
            )
        }
        Err(e) => store_failure(&e),
    }
}

async fn token_response(server: &AuthServer, family: &Family, scope: &str, refresh: &str) -> Response<Bytes> {
    let now = server.now();
    let lifetime = server.config.lifetimes.access;
    let jti = web::random_token(16).unwrap_or_default();
    let mut claims = json!({
        "iss": server.issuer(),
        "sub": family.sub,
        "aud": family.resource,
        "scope": scope,
        "client_id": family.client_id,
        "sid": family.sid,
        "iat": now,
        "nbf": now,
        "exp": now + lifetime,
        "jti": jti,
    });
    if let (Some(name), Some(obj)) = (&family.name, claims.as_object_mut()) {
        obj.insert("name".into(), json!(name));
    }
    if let Some(hints) = &server.hints
        && let Some(hint) = hints.roster_hint(&family.sub).await
        && let Some(obj) = claims.as_object_mut()
    {
        obj.insert(dochiya_domain::scopes::ROSTER_HINT_CLAIM.into(), hint);
    }
    let access = match server.key.sign_access_token(&claims).await {
        Ok(t) => t,
        Err(e) => {
            tracing::error!(error = %e, "cannot sign an access token");
            return web::oauth_error("server_error", "cannot sign the token");
        }
    };
    let mut response = web::json(
        StatusCode::OK,
        &json!({
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": lifetime,
            "refresh_token": refresh,
            "scope": scope,
        }),
        true,
    );
    response
        .headers_mut()
        .insert(http::header::PRAGMA, http::HeaderValue::from_static("no-cache"));
    response
}

/// `POST /oauth/revoke` (RFC 7009): a refresh token revokes its family; an access token
/// of ours revokes the family it came from (the access token itself lives out its hour:
/// the resource verifies tokens without a store read).
///
/// One rule (decision 050): the client names itself with `client_id`, as at `/token`
/// (public clients have no secret; RFC 7009 §2.1 has the client authenticated or
/// identified), and a token is revoked only for the client it was issued to. No
/// `client_id` is `invalid_client`; another client's token is `invalid_grant` and stays
/// live; a token that is not ours, malformed or already revoked is a 200 (§2.2).
pub async fn revoke(server: &AuthServer, req: &Request<Bytes>) -> Response<Bytes> {
    let params = match web::form(req) {
        Ok(p) => p,
        Err(e) => return web::oauth_error("invalid_request", &e.to_string()),
    };
    let Some(token) = params.get("token") else {
        return web::oauth_error("invalid_request", "token is required");
    };
    let Some(client_id) = params.get("client_id") else {
        return web::oauth_error("invalid_client", "client_id is required (public clients)");
    };
    let sid = match refresh_family(token) {
        Some((_, sid)) => Some(sid),
        None => server
            .key
            .verify_own(token)
            .and_then(|claims| claims.get("sid").and_then(|v| v.as_str()).map(str::to_owned)),
    };
    let Some(sid) = sid.filter(|s| web::looks_like_token(s)) else {
        return web::json(StatusCode::OK, &json!({}), true);
    };
    let family = match server.store.get(&state::family_key(&sid)).await {
        Ok(item) => item.and_then(|i| Family::from_item(&sid, &i.attrs)),
        Err(e) => return store_failure(&e),
    };
    match family {
        Some(family) if family.client_id != client_id => {
            tracing::warn!("a client tried to revoke another client's token");
            web::oauth_error("invalid_grant", "the token was issued to another client")
        }
        Some(_) => match Family::revoke(&*server.store, &sid).await {
            Ok(()) => {
                tracing::info!("a grant was revoked");
                web::json(StatusCode::OK, &json!({}), true)
            }
            Err(e) => store_failure(&e),
        },
        None => web::json(StatusCode::OK, &json!({}), true),
    }
}
