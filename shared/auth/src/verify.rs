//! The `Authenticator`: bearer token → verified `Principal`, with every rule of docs/design.md §3
//! (algorithm allowlist, signature, pinned `iss`, `aud` naming this resource, `exp`/`nbf` with
//! leeway, `sub` required, scopes from `scope` or `scp`). Failure reasons are for logs only.

use async_trait::async_trait;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use dochiya_protocol::{AuthFailure, Authenticator, Challenge, Credentials, Principal};
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use serde_json::Value;

use crate::bearer::{bearer_token, invalid};
use crate::config::{DevSecret, JwtConfig};
use crate::jwks::{ASYMMETRIC_ALGORITHMS, JwksCache, KeyError};
use crate::metadata::ProtectedResource;
use crate::verified::{Expect, MAX_VERIFIED_TOKENS, TokenHash, VerifiedCache, VerifiedToken, token_hash};

/// The `iss` of dev-mode tokens.
pub const DEV_ISSUER: &str = "dochiya-dev";
/// The longest `sub` accepted, in bytes: it becomes part of storage keys (the ledger's bound).
pub const MAX_SUBJECT_LEN: usize = dochiya_domain::limits::MAX_SUBJECT_BYTES;

/// The largest roster hint kept, in bytes of JSON (eight vaults with long names fit).
pub const MAX_ROSTER_HINT_BYTES: usize = 4096;

/// The built-in authorization server's public key, handed over in process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuiltinKey {
    /// The JWS `kid`.
    pub kid: String,
    /// P-256 x, base64url.
    pub x: String,
    /// P-256 y, base64url.
    pub y: String,
}

/// Where verification keys come from.
enum KeySource {
    /// The issuer's JWKS (asymmetric algorithms only).
    Jwks(JwksCache),
    /// The dev-mode shared secret (HS256 only).
    Dev(DecodingKey),
    /// Our own authorization server's ES256 key (tokens typed `at+jwt`), and the dev
    /// secret beside it on a local run.
    Builtin {
        kid: String,
        key: DecodingKey,
        dev: Option<DecodingKey>,
    },
}

/// Verifies bearer JWTs for this resource and words its challenges.
pub struct BearerAuthenticator {
    resource: ProtectedResource,
    issuer: String,
    leeway_secs: u64,
    keys: KeySource,
    /// Asymmetric tokens already verified (not used for HS256, which costs less than a lookup).
    verified: VerifiedCache,
}

impl std::fmt::Debug for BearerAuthenticator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mode = match self.keys {
            KeySource::Jwks(_) => "jwt",
            KeySource::Dev(_) => "dev",
            KeySource::Builtin { .. } => "builtin",
        };
        f.debug_struct("BearerAuthenticator")
            .field("mode", &mode)
            .field("issuer", &self.issuer)
            .field("resource", &self.resource.resource_url())
            .finish()
    }
}

impl BearerAuthenticator {
    /// Verify tokens from `config.issuer` against its JWKS.
    pub fn jwt(
        resource_url: &str,
        authorization_servers: &[String],
        config: &JwtConfig,
    ) -> Result<Self, crate::AuthConfigError> {
        Ok(BearerAuthenticator {
            resource: ProtectedResource::new(resource_url, authorization_servers),
            issuer: config.issuer.clone(),
            leeway_secs: config.leeway.as_secs(),
            keys: KeySource::Jwks(JwksCache::new(config)?),
            verified: VerifiedCache::new(MAX_VERIFIED_TOKENS),
        })
    }

    /// Verify dev-mode tokens (HS256 with `secret`, `iss` = [`DEV_ISSUER`]).
    pub fn dev(
        resource_url: &str,
        authorization_servers: &[String],
        secret: &DevSecret,
        leeway: std::time::Duration,
    ) -> Result<Self, crate::AuthConfigError> {
        // `from_secret` refuses only an empty key, which `DevSecret` already rules out.
        let key = DecodingKey::from_secret(secret.as_bytes()).map_err(|_| {
            crate::AuthConfigError::DevSecretTooShort {
                min: crate::config::MIN_DEV_SECRET_LEN,
                len: secret.as_bytes().len(),
            }
        })?;
        Ok(BearerAuthenticator {
            resource: ProtectedResource::new(resource_url, authorization_servers),
            issuer: DEV_ISSUER.to_owned(),
            leeway_secs: leeway.as_secs(),
            keys: KeySource::Dev(key),
            verified: VerifiedCache::new(1),
        })
    }

    /// Verify tokens of the built-in authorization server `issuer` (ES256 with `key`, typed
    /// `at+jwt`), and dev tokens too when `dev` is given (local runs).
    pub fn builtin(
        resource_url: &str,
        authorization_servers: &[String],
        issuer: &str,
        key: &BuiltinKey,
        leeway: std::time::Duration,
        dev: Option<&DevSecret>,
    ) -> Result<Self, crate::AuthConfigError> {
        let decoding = DecodingKey::from_ec_components(&key.x, &key.y)
            .map_err(|e| crate::AuthConfigError::BuiltinKey(e.to_string()))?;
        let dev = match dev {
            None => None,
            Some(secret) => Some(DecodingKey::from_secret(secret.as_bytes()).map_err(|_| {
                crate::AuthConfigError::DevSecretTooShort {
                    min: crate::config::MIN_DEV_SECRET_LEN,
                    len: secret.as_bytes().len(),
                }
            })?),
        };
        Ok(BearerAuthenticator {
            resource: ProtectedResource::new(resource_url, authorization_servers),
            issuer: issuer.to_owned(),
            leeway_secs: leeway.as_secs(),
            keys: KeySource::Builtin {
                kid: key.kid.clone(),
                key: decoding,
                dev,
            },
            verified: VerifiedCache::new(MAX_VERIFIED_TOKENS),
        })
    }

    /// The resource description (metadata URL, document).
    pub fn resource(&self) -> &ProtectedResource {
        &self.resource
    }

    /// How many verified tokens are cached (for tests and benchmarks).
    pub fn cached_tokens(&self) -> usize {
        self.verified.len()
    }

    async fn verify(&self, token: &str) -> Result<Principal, AuthFailure> {
        // Dev tokens (HS256) are not cached: their HMAC costs less than the lookup.
        let hash = match self.keys {
            KeySource::Dev(_) => None,
            KeySource::Jwks(_) | KeySource::Builtin { .. } => Some(token_hash(token)),
        };
        let now = unix_now();
        if let Some(hash) = &hash
            && let Some(principal) = self.cached(hash, now).await
        {
            return Ok(principal);
        }
        self.verify_signed(token, hash, now).await
    }

    /// The principal of a token verified before, if it still holds now (see [`crate::verified`]).
    async fn cached(&self, hash: &TokenHash, now: u64) -> Option<Principal> {
        if self.verified.is_empty() {
            return None;
        }
        let generation = match &self.keys {
            // The set a token would be checked with now: fetched anew when too old, so a
            // cached token outlives neither its key set nor the key age limit.
            KeySource::Jwks(cache) => cache.current_generation().await.ok()?,
            KeySource::Builtin { .. } => 0,
            KeySource::Dev(_) => return None,
        };
        let expect = Expect {
            now,
            leeway: self.leeway_secs,
            issuer: &self.issuer,
            audience: self.resource.resource_url(),
            generation,
        };
        self.verified.get(hash, &expect)
    }

    /// Verify `token` in full (signature included), and cache it when it is asymmetric.
    async fn verify_signed(
        &self,
        token: &str,
        hash: Option<TokenHash>,
        now: u64,
    ) -> Result<Principal, AuthFailure> {
        let header = peek_header(token)?;
        let alg = self.allowed_algorithm(&header.alg)?;
        let jwks_key;
        let mut issuer = self.issuer.as_str();
        let mut generation = 0;
        let key: &DecodingKey = match &self.keys {
            KeySource::Dev(key) => key,
            KeySource::Jwks(cache) => {
                let (found, set) = cache
                    .key_for(header.kid.as_deref(), alg)
                    .await
                    .map_err(|e| match e {
                        KeyError::Rejected(reason) => invalid(reason),
                        KeyError::Unavailable(reason) => AuthFailure::Unavailable {
                            reason,
                            retry_after_secs: cache.retry_after().as_secs(),
                        },
                    })?;
                generation = set;
                jwks_key = found;
                &jwks_key.key
            }
            KeySource::Builtin { key, kid, dev } => match (alg, dev) {
                (Algorithm::HS256, Some(dev)) => {
                    issuer = DEV_ISSUER;
                    dev
                }
                _ => {
                    // RFC 9068 §4: an access token says so in `typ`; an upstream ID token
                    // (`JWT`) or any other JWT is not one, whoever signed it.
                    let typ_ok = header.typ.as_deref().is_some_and(|t| {
                        t.eq_ignore_ascii_case("at+jwt") || t.eq_ignore_ascii_case("application/at+jwt")
                    });
                    if !typ_ok {
                        return Err(invalid("not an access token (typ is not at+jwt)"));
                    }
                    if header.kid.as_deref() != Some(kid.as_str()) {
                        return Err(invalid("unknown key id"));
                    }
                    key
                }
            },
        };

        let mut validation = Validation::new(alg);
        validation.leeway = self.leeway_secs;
        validation.validate_exp = true;
        validation.validate_nbf = true;
        validation.validate_aud = true;
        validation.set_issuer(&[issuer]);
        validation.set_audience(&[self.resource.resource_url()]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);

        let mut claims = jsonwebtoken::decode::<AccessClaims>(token, key, &validation)
            .map_err(|e| invalid(reason(e.kind())))?
            .claims;
        let registered = RegisteredClaims::take(&mut claims);
        // Only the ES256 tokens our own authorization server signs carry a hint this
        // resource may act on: any other issuer's claim of that name is dropped.
        let ours = matches!(self.keys, KeySource::Builtin { .. }) && alg == Algorithm::ES256;
        let principal = principal_from(claims, ours)?;
        if let Some(hash) = hash
            && alg != Algorithm::HS256
            && let Some(registered) = registered
        {
            let entry = VerifiedToken {
                principal: principal.clone(),
                issuer: registered.iss,
                audiences: registered.aud,
                exp: registered.exp,
                nbf: registered.nbf,
                generation,
            };
            self.verified.insert(hash, entry, now, self.leeway_secs);
        }
        Ok(principal)
    }

    /// The header's `alg` if this mode accepts it.
    fn allowed_algorithm(&self, alg: &str) -> Result<Algorithm, AuthFailure> {
        let rejected = || {
            // Quoted with escapes: the header is untrusted and the reason reaches the log.
            invalid(format!(
                "algorithm {:?} is not accepted",
                alg.chars().take(16).collect::<String>()
            ))
        };
        let parsed: Algorithm = alg.parse().map_err(|_| rejected())?;
        let allowed = match &self.keys {
            KeySource::Jwks(_) => ASYMMETRIC_ALGORITHMS.contains(&parsed),
            KeySource::Dev(_) => parsed == Algorithm::HS256,
            KeySource::Builtin { dev, .. } => {
                parsed == Algorithm::ES256 || (parsed == Algorithm::HS256 && dev.is_some())
            }
        };
        if allowed { Ok(parsed) } else { Err(rejected()) }
    }
}

#[async_trait]
impl Authenticator for BearerAuthenticator {
    async fn authenticate(&self, credentials: Credentials<'_>) -> Result<Principal, AuthFailure> {
        let token = bearer_token(&credentials)?;
        let result = self.verify(token).await;
        if let Err(AuthFailure::InvalidToken { reason }) = &result {
            // The reason names the rule that failed, never the token. Debug level: the
            // protocol layer logs every rejection once at info.
            tracing::debug!(?reason, "bearer token rejected");
        }
        result
    }

    fn challenge(&self, challenge: &Challenge<'_>) -> String {
        self.resource.challenge(challenge)
    }

    fn resource_metadata(&self) -> &Value {
        self.resource.document()
    }
}

/// The JOSE header fields we look at before choosing a key.
struct PeekedHeader {
    alg: String,
    kid: Option<String>,
    typ: Option<String>,
}

/// Read the header without trusting it: shape, `alg`, `kid`, and no `crit` extensions.
fn peek_header(token: &str) -> Result<PeekedHeader, AuthFailure> {
    let parts: Vec<&str> = token.split('.').collect();
    if parts.len() == 5 {
        return Err(invalid("encrypted tokens (JWE) are not accepted"));
    }
    let [header, _, _] = parts.as_slice() else {
        return Err(invalid("not a JWT (expected three dot-separated parts)"));
    };
    let bytes = URL_SAFE_NO_PAD
        .decode(header)
        .map_err(|_| invalid("malformed token header"))?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|_| invalid("malformed token header"))?;
    let Some(obj) = value.as_object() else {
        return Err(invalid("malformed token header"));
    };
    if obj.contains_key("crit") {
        return Err(invalid("critical header extensions are not supported"));
    }
    let alg = obj
        .get("alg")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("token header has no alg"))?;
    let kid = match obj.get("kid") {
        None | Some(Value::Null) => None,
        Some(Value::String(kid)) => Some(kid.clone()),
        Some(_) => return Err(invalid("token header kid is not a string")),
    };
    let typ = obj.get("typ").and_then(Value::as_str).map(str::to_owned);
    Ok(PeekedHeader {
        alg: alg.to_owned(),
        kid,
        typ,
    })
}

/// The claims read after the signature and the registered claims have been checked.
#[derive(Deserialize)]
struct AccessClaims {
    iss: Option<Value>,
    aud: Option<Value>,
    exp: Option<Value>,
    nbf: Option<Value>,
    sub: Option<Value>,
    name: Option<Value>,
    preferred_username: Option<Value>,
    email: Option<Value>,
    scope: Option<Value>,
    scp: Option<Value>,
    /// The roster hint ([`dochiya_domain::scopes::ROSTER_HINT_CLAIM`], decision 044):
    /// kept only from our own authorization server.
    rh: Option<Value>,
    /// Issued at (epoch seconds).
    iat: Option<Value>,
}

/// `iss`, `aud`, `exp` and `nbf` of a verified token, as the cache re-checks them.
struct RegisteredClaims {
    iss: String,
    aud: Vec<String>,
    exp: u64,
    nbf: Option<u64>,
}

impl RegisteredClaims {
    /// Taken out of `claims`; `None` (the token is not cached) for any shape the cache
    /// would not re-check exactly as `jsonwebtoken` did, e.g. a fractional `exp`.
    fn take(claims: &mut AccessClaims) -> Option<RegisteredClaims> {
        let iss = match claims.iss.take()? {
            Value::String(iss) => iss,
            _ => return None,
        };
        let aud = match claims.aud.take()? {
            Value::String(aud) => vec![aud],
            Value::Array(items) => items
                .into_iter()
                .map(|v| match v {
                    Value::String(s) => Some(s),
                    _ => None,
                })
                .collect::<Option<Vec<String>>>()?,
            _ => return None,
        };
        let exp = claims.exp.take()?.as_u64()?;
        let nbf = match claims.nbf.take() {
            None | Some(Value::Null) => None,
            Some(nbf) => Some(nbf.as_u64()?),
        };
        Some(RegisteredClaims { iss, aud, exp, nbf })
    }
}

/// Seconds since the epoch (the clock `jsonwebtoken` checks `exp` against).
fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn principal_from(claims: AccessClaims, keep_hint: bool) -> Result<Principal, AuthFailure> {
    let person = match claims.sub {
        Some(Value::String(sub)) => sub,
        Some(_) => return Err(invalid("claim `sub` is not a string")),
        None => return Err(invalid("missing claim `sub`")),
    };
    if !dochiya_domain::is_usable_subject(&person) {
        return Err(invalid("claim `sub` is not a usable identifier"));
    }
    let mut scopes: Vec<String> = Vec::new();
    for claim in [&claims.scope, &claims.scp] {
        let words: Vec<&str> = match claim {
            None | Some(Value::Null) => Vec::new(),
            // `scope` is space-separated (RFC 8693/9068); some issuers put a string in `scp` too.
            Some(Value::String(s)) => s.split_whitespace().collect(),
            // `scp` as an array (Okta, Entra and others).
            Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
            Some(_) => return Err(invalid("scope claim has the wrong type")),
        };
        for word in words {
            if !scopes.iter().any(|s| s == word) {
                scopes.push(word.to_owned());
            }
        }
    }
    // A display name is a courtesy: a claim of the wrong type is skipped, not refused.
    let name = [&claims.name, &claims.preferred_username, &claims.email]
        .into_iter()
        .find_map(|c| match c {
            Some(Value::String(s)) if !s.trim().is_empty() => Some(s.clone()),
            _ => None,
        });
    // A hint is a courtesy too: one of another shape, or oversized, is dropped.
    let roster_hint = claims
        .rh
        .filter(|h| keep_hint && h.is_object() && h.to_string().len() <= MAX_ROSTER_HINT_BYTES);
    // Seconds as JSON allows them; a fraction is cut, another type is no `iat`.
    let issued_at = claims.iat.as_ref().and_then(|v| {
        v.as_i64()
            .or_else(|| v.as_u64().map(|n| i64::try_from(n).unwrap_or(i64::MAX)))
            .or_else(|| v.as_f64().filter(|f| f.is_finite()).map(|f| f as i64))
    });
    Ok(Principal {
        person,
        scopes,
        name,
        roster_hint,
        issued_at,
    })
}

/// The log-only reason for a `jsonwebtoken` rejection.
fn reason(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "token expired".to_owned(),
        ErrorKind::ImmatureSignature => "token not yet valid (nbf in the future)".to_owned(),
        ErrorKind::InvalidIssuer => "wrong issuer".to_owned(),
        ErrorKind::InvalidAudience => "audience does not include this resource".to_owned(),
        ErrorKind::InvalidSignature => "bad signature".to_owned(),
        ErrorKind::MissingRequiredClaim(claim) => format!("missing claim `{claim}`"),
        ErrorKind::InvalidClaimFormat(claim) => format!("claim `{claim}` has the wrong type"),
        ErrorKind::InvalidAlgorithm => "algorithm does not match the key".to_owned(),
        ErrorKind::InvalidToken | ErrorKind::Base64(_) | ErrorKind::Json(_) | ErrorKind::Utf8(_) => {
            "malformed token".to_owned()
        }
        other => format!("token rejected ({other:?})"),
    }
}
