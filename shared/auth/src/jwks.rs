//! The issuer's signing keys: fetched from its JWKS URL, kept for the life of the process
//! (so warm Lambda invocations reuse them), refetched when a token names an unknown `kid`
//! — at most once per refetch interval, so a flood of made-up `kid`s cannot hammer the issuer.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, KeyAlgorithm, KeyOperations, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};
use reqwest::Url;
use serde::Deserialize;
use tokio::sync::Mutex;

use crate::config::{AuthConfigError, JwtConfig};

/// Why no key could be found for a token. Both reasons are for logs only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyError {
    /// The token names no key we have, or one that does not fit its algorithm.
    Rejected(String),
    /// The issuer's JWKS could not be fetched and no usable copy is cached: the token
    /// cannot be checked now, which is not the token's fault.
    Unavailable(String),
}

/// A JWKS document larger than this is refused (real ones are a few KiB).
pub const MAX_JWKS_BYTES: usize = 256 * 1024;
/// RSA keys shorter than this are ignored (RFC 7518 §3.3 requires 2048 bits).
pub const MIN_RSA_BITS: usize = 2048;

/// Algorithms accepted for tokens signed with issuer keys: asymmetric only. Never `none`,
/// never HS* (an HMAC "verified" with a public key is the classic key-confusion attack).
pub const ASYMMETRIC_ALGORITHMS: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// One usable verification key from the JWKS.
pub struct VerificationKey {
    /// The key's `kid`, if it has one.
    pub kid: Option<String>,
    /// The key material.
    pub key: DecodingKey,
    /// The algorithms this key may verify (its type's family, or its declared `alg`).
    pub algorithms: Vec<Algorithm>,
}

impl std::fmt::Debug for VerificationKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VerificationKey")
            .field("kid", &self.kid)
            .field("algorithms", &self.algorithms)
            .finish()
    }
}

/// A fetched key set, when it was fetched, and which fetch it came from.
#[derive(Clone)]
struct KeySet {
    keys: Arc<Vec<Arc<VerificationKey>>>,
    fetched_at: Instant,
    /// Counts successful fetches (1 for the first): tokens verified under one set are
    /// trusted from the verified-token cache only while that set is the current one.
    generation: u64,
}

/// Bookkeeping for fetches, guarded by the fetch lock (which also makes concurrent
/// requests share one fetch instead of each starting their own).
#[derive(Default)]
struct FetchState {
    /// When the last fetch of any kind was attempted and whether it worked.
    last_attempt: Option<(Instant, bool)>,
    /// When the last refetch caused by an unknown `kid` was attempted.
    last_unknown_kid_refetch: Option<Instant>,
}

/// The process-wide JWKS cache.
pub struct JwksCache {
    url: Url,
    client: reqwest::Client,
    policy: dochiya_outbound::Policy,
    keys: RwLock<Option<KeySet>>,
    fetch: Mutex<FetchState>,
    refetch_interval: Duration,
    max_key_age: Duration,
    /// The generation the next successful fetch gets (see [`KeySet::generation`]).
    next_generation: AtomicU64,
}

impl std::fmt::Debug for JwksCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwksCache")
            .field("url", &self.url.as_str())
            .finish_non_exhaustive()
    }
}

impl JwksCache {
    /// A cache for `config.jwks_url`; nothing is fetched until the first token arrives.
    pub fn new(config: &JwtConfig) -> Result<Self, AuthConfigError> {
        let url = Url::parse(&config.jwks_url).map_err(|e| AuthConfigError::InvalidUrl {
            var: crate::config::ENV_JWKS_URL,
            value: config.jwks_url.clone(),
            reason: e.to_string(),
        })?;
        // The one outbound policy (no redirects, public addresses, our resolver).
        let policy = dochiya_outbound::Policy::new(config.outbound);
        let client = policy
            .client_builder()
            .timeout(config.fetch_timeout)
            .connect_timeout(config.fetch_timeout)
            .user_agent(concat!("dochiya/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| AuthConfigError::HttpClient(e.to_string()))?;
        Ok(JwksCache {
            url,
            client,
            policy,
            keys: RwLock::new(None),
            fetch: Mutex::new(FetchState::default()),
            refetch_interval: config.refetch_interval,
            max_key_age: config.max_key_age,
            next_generation: AtomicU64::new(1),
        })
    }

    /// The key that verifies a token with this `kid` and `alg`, fetching or refetching as
    /// allowed, and the generation of the key set it belongs to.
    pub async fn key_for(
        &self,
        kid: Option<&str>,
        alg: Algorithm,
    ) -> Result<(Arc<VerificationKey>, u64), KeyError> {
        let set = self.current_keys().await.map_err(KeyError::Unavailable)?;
        if let Some(found) = select(&set.keys, kid, alg).map_err(KeyError::Rejected)? {
            return Ok((found, set.generation));
        }
        let Some(kid) = kid else {
            return Err(KeyError::Rejected(format!(
                "token has no kid and no single {alg:?} key is in the JWKS"
            )));
        };
        let set = self.refetch_for_unknown_kid(kid).await?;
        select(&set.keys, Some(kid), alg)
            .map_err(KeyError::Rejected)?
            .map(|found| (found, set.generation))
            .ok_or_else(|| KeyError::Rejected(format!("unknown kid `{}`", printable(kid))))
    }

    /// The generation of the key set a token would be verified with now (fetching first
    /// exactly as [`JwksCache::key_for`] would, e.g. when the set is older than the maximum age).
    pub async fn current_generation(&self) -> Result<u64, KeyError> {
        let set = self.current_keys().await.map_err(KeyError::Unavailable)?;
        Ok(set.generation)
    }

    /// How long a client should wait before retrying when the keys are unreachable.
    pub fn retry_after(&self) -> Duration {
        self.refetch_interval.max(Duration::from_secs(1))
    }

    /// The cached keys, fetched first if there are none or they are older than the maximum age.
    async fn current_keys(&self) -> Result<KeySet, String> {
        if let Some(set) = self.snapshot()
            && set.fetched_at.elapsed() < self.max_key_age
        {
            return Ok(set);
        }
        let mut state = self.fetch.lock().await;
        // Another request may have fetched while this one waited for the lock.
        let cached = self.snapshot();
        if let Some(set) = &cached
            && set.fetched_at.elapsed() < self.max_key_age
        {
            return Ok(set.clone());
        }
        let recently_failed = matches!(state.last_attempt,
            Some((at, false)) if at.elapsed() < self.refetch_interval);
        if recently_failed {
            return match cached {
                Some(set) => Ok(set),
                None => Err("JWKS unavailable (last fetch failed; retry is rate-limited)".to_owned()),
            };
        }
        match self.fetch_and_store(&mut state).await {
            Ok(keys) => Ok(keys),
            Err(reason) => match cached {
                // Stale keys beat no keys while the issuer is unreachable.
                Some(set) => {
                    tracing::warn!(?reason, "JWKS refresh failed; keeping the previous keys");
                    Ok(set)
                }
                None => Err(reason),
            },
        }
    }

    /// Refetch because a token named a `kid` we do not have, unless one such refetch happened
    /// within the refetch interval.
    async fn refetch_for_unknown_kid(&self, kid: &str) -> Result<KeySet, KeyError> {
        let mut state = self.fetch.lock().await;
        if let Some(set) = self.snapshot()
            && set.keys.iter().any(|k| k.kid.as_deref() == Some(kid))
        {
            return Ok(set);
        }
        let limited = |at: Option<Instant>| at.is_some_and(|at| at.elapsed() < self.refetch_interval);
        if limited(state.last_unknown_kid_refetch)
            || matches!(state.last_attempt, Some((at, false)) if limited(Some(at)))
        {
            return Err(KeyError::Rejected(format!(
                "unknown kid `{}` (JWKS refetch rate-limited)",
                printable(kid)
            )));
        }
        state.last_unknown_kid_refetch = Some(Instant::now());
        tracing::info!(kid = %printable(kid), "unknown kid; refetching the JWKS");
        self.fetch_and_store(&mut state)
            .await
            .map_err(KeyError::Unavailable)
    }

    fn snapshot(&self) -> Option<KeySet> {
        // A poisoned lock only means a panic elsewhere mid-write of a plain value; the data is whole.
        self.keys.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    async fn fetch_and_store(&self, state: &mut FetchState) -> Result<KeySet, String> {
        let started = Instant::now();
        let result = self.fetch_keys().await;
        state.last_attempt = Some((started, result.is_ok()));
        let keys = Arc::new(result?);
        tracing::info!(keys = keys.len(), url = %self.url, "fetched JWKS");
        let set = KeySet {
            keys,
            fetched_at: Instant::now(),
            // Under the fetch lock: generations follow the order the sets are stored in.
            generation: self.next_generation.fetch_add(1, Ordering::Relaxed),
        };
        *self.keys.write().unwrap_or_else(|e| e.into_inner()) = Some(set.clone());
        Ok(set)
    }

    async fn fetch_keys(&self) -> Result<Vec<Arc<VerificationKey>>, String> {
        let url = self
            .policy
            .check(self.url.as_str())
            .map_err(|refusal| format!("JWKS fetch refused: {refusal}"))?;
        let mut response = self
            .client
            .get(url)
            .header(
                reqwest::header::ACCEPT,
                "application/json, application/jwk-set+json",
            )
            .send()
            .await
            // reqwest alone says only "error sending request"; the causes say why.
            .map_err(|e| format!("JWKS fetch failed: {}", dochiya_protocol::cause_chain(&e)))?;
        if !response.status().is_success() {
            return Err(format!("JWKS fetch returned HTTP {}", response.status().as_u16()));
        }
        if response
            .content_length()
            .is_some_and(|len| len > MAX_JWKS_BYTES as u64)
        {
            return Err("JWKS document too large".to_owned());
        }
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| format!("JWKS fetch failed: {e}"))?
        {
            if body.len() + chunk.len() > MAX_JWKS_BYTES {
                return Err("JWKS document too large".to_owned());
            }
            body.extend_from_slice(&chunk);
        }
        parse_jwks(&body)
    }
}

/// Pick the key for a token: by `kid`, or the single key of the right type when the token has none.
/// `Ok(None)` means "not in this set"; `Err` means found but unusable for `alg`.
fn select(
    keys: &[Arc<VerificationKey>],
    kid: Option<&str>,
    alg: Algorithm,
) -> Result<Option<Arc<VerificationKey>>, String> {
    match kid {
        Some(kid) => match keys.iter().find(|k| k.kid.as_deref() == Some(kid)) {
            Some(key) if key.algorithms.contains(&alg) => Ok(Some(key.clone())),
            Some(_) => Err(format!(
                "algorithm {alg:?} does not match the type of key `{}`",
                printable(kid)
            )),
            None => Ok(None),
        },
        None => {
            let mut candidates = keys.iter().filter(|k| k.algorithms.contains(&alg));
            match (candidates.next(), candidates.next()) {
                (Some(only), None) => Ok(Some(only.clone())),
                _ => Ok(None),
            }
        }
    }
}

/// A `kid` as it may appear in a log line: bounded and without control characters.
fn printable(kid: &str) -> String {
    kid.chars().filter(|c| !c.is_control()).take(64).collect()
}

#[derive(Deserialize)]
struct RawJwkSet {
    keys: Vec<serde_json::Value>,
}

/// Parse a JWKS document into the keys we can use; unusable keys are skipped (and logged),
/// so one encryption key or exotic curve in the set does not break verification.
pub fn parse_jwks(body: &[u8]) -> Result<Vec<Arc<VerificationKey>>, String> {
    let raw: RawJwkSet = serde_json::from_slice(body).map_err(|e| format!("JWKS is not a JWK set: {e}"))?;
    let mut keys = Vec::with_capacity(raw.keys.len());
    for value in raw.keys {
        let kid = value.get("kid").and_then(|k| k.as_str()).map(printable);
        let parsed = serde_json::from_value::<Jwk>(value)
            .map_err(|e| e.to_string())
            .and_then(|jwk| key_from_jwk(&jwk));
        match parsed {
            Ok(key) => keys.push(Arc::new(key)),
            Err(reason) => tracing::debug!(?kid, ?reason, "skipping JWKS key"),
        }
    }
    if keys.is_empty() {
        tracing::warn!("the JWKS has no usable signing key");
    }
    Ok(keys)
}

/// Turn one JWK into a verification key, or say why it cannot be one.
pub fn key_from_jwk(jwk: &Jwk) -> Result<VerificationKey, String> {
    match &jwk.common.public_key_use {
        None | Some(PublicKeyUse::Signature) => {}
        Some(_) => return Err("not a signing key (`use` is not `sig`)".to_owned()),
    }
    if let Some(ops) = &jwk.common.key_operations
        && !ops.contains(&KeyOperations::Verify)
    {
        return Err("`key_ops` does not include `verify`".to_owned());
    }
    let (family, key): (&[Algorithm], DecodingKey) = match &jwk.algorithm {
        AlgorithmParameters::RSA(rsa) => {
            let n = URL_SAFE_NO_PAD
                .decode(rsa.n.trim_end_matches('='))
                .map_err(|e| format!("bad RSA modulus: {e}"))?;
            let significant = n.iter().skip_while(|b| **b == 0).count();
            if significant * 8 < MIN_RSA_BITS {
                return Err(format!("RSA key shorter than {MIN_RSA_BITS} bits"));
            }
            let key =
                DecodingKey::from_rsa_components(&rsa.n, &rsa.e).map_err(|e| format!("bad RSA key: {e}"))?;
            (&ASYMMETRIC_ALGORITHMS[..6], key)
        }
        AlgorithmParameters::EllipticCurve(ec) => {
            let family: &[Algorithm] = match ec.curve {
                EllipticCurve::P256 => &[Algorithm::ES256],
                EllipticCurve::P384 => &[Algorithm::ES384],
                _ => return Err("unsupported EC curve".to_owned()),
            };
            let key =
                DecodingKey::from_ec_components(&ec.x, &ec.y).map_err(|e| format!("bad EC key: {e}"))?;
            (family, key)
        }
        AlgorithmParameters::OctetKeyPair(okp) => {
            if okp.curve != EllipticCurve::Ed25519 {
                return Err("unsupported OKP curve".to_owned());
            }
            let key = DecodingKey::from_ed_components(&okp.x).map_err(|e| format!("bad Ed25519 key: {e}"))?;
            (&[Algorithm::EdDSA], key)
        }
        AlgorithmParameters::OctetKey(_) => {
            return Err("symmetric keys are never accepted from a JWKS".to_owned());
        }
        _ => return Err("unsupported key type".to_owned()),
    };
    let algorithms = match jwk.common.key_algorithm {
        None => family.to_vec(),
        Some(declared) => match declared_algorithm(declared) {
            Some(alg) if family.contains(&alg) => vec![alg],
            _ => return Err("declared `alg` does not fit the key type or is not allowed".to_owned()),
        },
    };
    Ok(VerificationKey {
        kid: jwk.common.key_id.clone(),
        key,
        algorithms,
    })
}

/// The signature algorithm a JWK declares, if it is one we could ever accept.
fn declared_algorithm(alg: KeyAlgorithm) -> Option<Algorithm> {
    Some(match alg {
        KeyAlgorithm::RS256 => Algorithm::RS256,
        KeyAlgorithm::RS384 => Algorithm::RS384,
        KeyAlgorithm::RS512 => Algorithm::RS512,
        KeyAlgorithm::PS256 => Algorithm::PS256,
        KeyAlgorithm::PS384 => Algorithm::PS384,
        KeyAlgorithm::PS512 => Algorithm::PS512,
        KeyAlgorithm::ES256 => Algorithm::ES256,
        KeyAlgorithm::ES384 => Algorithm::ES384,
        KeyAlgorithm::EdDSA => Algorithm::EdDSA,
        _ => return None,
    })
}
