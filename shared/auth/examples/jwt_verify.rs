//! What `jwt` mode costs per request: RS256 and ES256 tokens (the committed test-only keys)
//! checked by the real authenticator against a JWKS served on 127.0.0.1.
//!
//! For each algorithm, per token: `jsonwebtoken::decode` alone (the signature and claim
//! checks every request paid before decision 029), the authenticator on a token it has not
//! seen (full verification, then cached), and on a token it has seen (the verified-token
//! cache: a SHA-256 and a lookup). Three rounds each; the minimum and the median are printed.
//!
//! Run: `cargo run --release -p dochiya-auth --example jwt_verify [TOKENS]` (default 1000).

#[path = "../tests/support/mod.rs"]
mod support;

use std::time::{Duration, Instant};

use dochiya_auth::verified::MAX_VERIFIED_TOKENS;
use dochiya_auth::{BearerAuthenticator, JwtConfig};
use dochiya_protocol::{Authenticator, Credentials};
use jsonwebtoken::jwk::Jwk;
use jsonwebtoken::{DecodingKey, Validation};
use support::{ISSUER, JwksServer, RESOURCE, SigningKey, good_claims, jwks};

const ROUNDS: usize = 3;

async fn authenticate(a: &BearerAuthenticator, token: &str) {
    let header = format!("Bearer {token}");
    let credentials = Credentials {
        authorization: Some(&header),
        query: None,
    };
    a.authenticate(credentials).await.expect("the token is valid");
}

fn per_token(started: Instant, tokens: usize) -> Duration {
    started.elapsed() / u32::try_from(tokens).expect("few tokens")
}

fn summary(mut rounds: Vec<Duration>) -> String {
    rounds.sort();
    format!(
        "min {:>9.1?}  median {:>9.1?}",
        rounds[0],
        rounds[rounds.len() / 2]
    )
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let tokens: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000)
        // All of a round's tokens fit in the cache, so the second pass is all hits.
        .clamp(1, MAX_VERIFIED_TOKENS - 1);
    println!("{tokens} tokens per round, {ROUNDS} rounds, per token:");
    for key in [SigningKey::rsa_a(), SigningKey::ec()] {
        let server = JwksServer::start(jwks(&[&key])).await;
        // Distinct tokens (one subject each), so every first sight is a full verification.
        let fresh: Vec<Vec<String>> = (0..ROUNDS)
            .map(|r| {
                (0..tokens)
                    .map(|i| {
                        key.sign(&good_claims(
                            &format!("person-{r}-{i}"),
                            "ledger:read ledger:write",
                        ))
                    })
                    .collect()
            })
            .collect();
        let jwk: Jwk = serde_json::from_value(key.jwk()).expect("JWK");
        let decoding = DecodingKey::from_jwk(&jwk).expect("key");
        let mut validation = Validation::new(key.alg);
        validation.set_issuer(&[ISSUER]);
        validation.set_audience(&[RESOURCE]);
        let mut decode = Vec::new();
        for round in &fresh {
            let started = Instant::now();
            for token in round {
                jsonwebtoken::decode::<serde_json::Value>(token, &decoding, &validation).expect("decodes");
            }
            decode.push(per_token(started, tokens));
        }

        let (mut first, mut again) = (Vec::new(), Vec::new());
        let mut cached = 0;
        for round in &fresh {
            // A new authenticator (an empty cache) per round; its JWKS fetch is not timed.
            let a = BearerAuthenticator::jwt(
                RESOURCE,
                &[ISSUER.to_owned()],
                &JwtConfig::new(ISSUER, &server.url).allowing_local_http(),
            )
            .expect("authenticator builds");
            authenticate(&a, &key.sign(&good_claims("warm-up", "ledger:read"))).await;
            let started = Instant::now();
            for token in round {
                authenticate(&a, token).await;
            }
            first.push(per_token(started, tokens));
            let started = Instant::now();
            for token in round {
                authenticate(&a, token).await;
            }
            again.push(per_token(started, tokens));
            cached = a.cached_tokens();
        }
        println!("{:?}", key.alg);
        println!("  jsonwebtoken::decode alone         {}", summary(decode));
        println!("  authenticator, token not seen yet  {}", summary(first));
        println!("  authenticator, token seen before   {}", summary(again));
        println!(
            "  (JWKS fetches: {}, tokens cached after a round: {cached})",
            server.hits()
        );
    }
}
