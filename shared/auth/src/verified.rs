//! A bounded cache of tokens whose signature has been verified (decision 029), so a token
//! seen again is not verified again: an RS256/ES256 signature costs tens of µs, a lookup
//! one SHA-256 of the token.
//!
//! What a hit still checks, every time: `exp` and `nbf` against the clock (with the leeway),
//! `iss` and `aud` against this authenticator, and that the key set the signature was
//! checked under is still the current one. Scopes are not the cache's business: the entry
//! hands back the token's own scopes and the protocol layer checks them for each request
//! as before. An entry lives no longer than its token's `exp` (plus leeway), and a refetch
//! of the issuer's JWKS ends every entry verified under the previous set, whichever key
//! signed it.

use std::collections::HashMap;
use std::sync::Mutex;

use dochiya_protocol::Principal;
use sha2::{Digest as _, Sha256};

/// Most tokens kept (a few hundred bytes each). Many more people than a household.
pub const MAX_VERIFIED_TOKENS: usize = 1024;

/// The cache key: SHA-256 of the whole compact token, so a token that differs in any
/// byte (header, claims or signature) is another key.
pub type TokenHash = [u8; 32];

/// The hash a token is cached under.
pub fn token_hash(token: &str) -> TokenHash {
    Sha256::digest(token.as_bytes()).into()
}

/// What a verified token said, kept to re-check it without its signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedToken {
    /// The person, scopes and name the token was verified to carry.
    pub principal: Principal,
    /// Its `iss`.
    pub issuer: String,
    /// Its `aud` values.
    pub audiences: Vec<String>,
    /// Its `exp`, seconds since the epoch.
    pub exp: u64,
    /// Its `nbf`, if any.
    pub nbf: Option<u64>,
    /// The key-set generation its signature was checked under (0 for a fixed key).
    pub generation: u64,
}

/// What this request requires of a cached token.
#[derive(Debug, Clone, Copy)]
pub struct Expect<'a> {
    /// Seconds since the epoch now.
    pub now: u64,
    /// Leeway on `exp` and `nbf`, seconds.
    pub leeway: u64,
    /// The one issuer accepted.
    pub issuer: &'a str,
    /// The audience that must be among the token's (this resource).
    pub audience: &'a str,
    /// The current key-set generation.
    pub generation: u64,
}

impl VerifiedToken {
    /// Whether the token is still good for a request expecting `expect` (the same rules
    /// as a full verification, without the signature).
    fn holds(&self, expect: &Expect<'_>) -> bool {
        self.exp.saturating_add(expect.leeway) >= expect.now
            && self
                .nbf
                .is_none_or(|nbf| nbf <= expect.now.saturating_add(expect.leeway))
            && self.issuer == expect.issuer
            && self.audiences.iter().any(|a| a == expect.audience)
            && self.generation == expect.generation
    }
}

/// The bounded map from token hash to what it was verified to say.
#[derive(Debug)]
pub struct VerifiedCache {
    entries: Mutex<HashMap<TokenHash, VerifiedToken>>,
    capacity: usize,
}

impl VerifiedCache {
    /// An empty cache holding at most `capacity` tokens (at least one).
    pub fn new(capacity: usize) -> Self {
        VerifiedCache {
            entries: Mutex::new(HashMap::new()),
            capacity: capacity.max(1),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<TokenHash, VerifiedToken>> {
        // A plain map: a panic elsewhere cannot leave it half-changed.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The principal of a cached token that still holds for `expect`. An entry that no
    /// longer holds is dropped (the caller verifies the token in full, which says why).
    pub fn get(&self, hash: &TokenHash, expect: &Expect<'_>) -> Option<Principal> {
        let mut entries = self.lock();
        let entry = entries.get(hash)?;
        if entry.holds(expect) {
            return Some(entry.principal.clone());
        }
        entries.remove(hash);
        None
    }

    /// Remember a token just verified. When full, expired entries go first, then the
    /// ones closest to their `exp` (they would be the next to go anyway), down to 7/8 of
    /// the capacity: one sweep makes room for many inserts, so a flood of new tokens
    /// costs O(1) per token amortised, not a scan each.
    pub fn insert(&self, hash: TokenHash, token: VerifiedToken, now: u64, leeway: u64) {
        let mut entries = self.lock();
        if entries.len() >= self.capacity && !entries.contains_key(&hash) {
            entries.retain(|_, e| e.exp.saturating_add(leeway) >= now);
            let target = self.capacity - self.capacity.div_ceil(8);
            if entries.len() > target {
                let excess = entries.len() - target;
                let mut by_exp: Vec<(u64, TokenHash)> = entries.iter().map(|(h, e)| (e.exp, *h)).collect();
                by_exp.select_nth_unstable(excess - 1);
                for (_, soonest) in &by_exp[..excess] {
                    entries.remove(soonest);
                }
            }
        }
        entries.insert(hash, token);
    }

    /// How many tokens are cached.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no token is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ISS: &str = "https://issuer.test/";
    const AUD: &str = "https://mcp.test/mcp";

    fn token(person: &str, exp: u64, generation: u64) -> VerifiedToken {
        VerifiedToken {
            principal: Principal {
                person: person.to_owned(),
                scopes: vec!["ledger:read".to_owned()],
                name: None,
                roster_hint: None,
                issued_at: None,
            },
            issuer: ISS.to_owned(),
            audiences: vec![AUD.to_owned()],
            exp,
            nbf: Some(100),
            generation,
        }
    }

    fn expect(now: u64) -> Expect<'static> {
        Expect {
            now,
            leeway: 10,
            issuer: ISS,
            audience: AUD,
            generation: 1,
        }
    }

    #[test]
    fn a_hit_returns_the_verified_principal_with_its_own_scopes() {
        let cache = VerifiedCache::new(4);
        let hash = token_hash("a.b.c");
        cache.insert(hash, token("p", 200, 1), 150, 10);
        let got = cache.get(&hash, &expect(150)).expect("hit");
        assert_eq!(got.person, "p");
        assert_eq!(got.scopes, vec!["ledger:read".to_owned()]);
        assert!(!got.has_scope("ledger:write"));
    }

    #[test]
    fn an_expired_token_misses_and_is_dropped_even_though_cached() {
        let cache = VerifiedCache::new(4);
        let hash = token_hash("a.b.c");
        cache.insert(hash, token("p", 200, 1), 150, 10);
        // Within the leeway it still holds; one second past exp + leeway it does not.
        assert!(cache.get(&hash, &expect(210)).is_some());
        assert_eq!(cache.get(&hash, &expect(211)), None);
        assert_eq!(cache.len(), 0, "the expired entry is gone");
    }

    #[test]
    fn not_yet_valid_wrong_audience_wrong_issuer_or_another_key_set_miss() {
        let cache = VerifiedCache::new(4);
        let hash = token_hash("a.b.c");
        let cases: [(&str, Expect<'static>); 4] = [
            ("nbf", Expect { now: 89, ..expect(0) }),
            (
                "aud",
                Expect {
                    audience: "https://other.test/mcp",
                    ..expect(150)
                },
            ),
            (
                "iss",
                Expect {
                    issuer: "https://evil.test/",
                    ..expect(150)
                },
            ),
            (
                "generation",
                Expect {
                    generation: 2,
                    ..expect(150)
                },
            ),
        ];
        for (why, e) in cases {
            cache.insert(hash, token("p", 200, 1), 150, 10);
            assert_eq!(cache.get(&hash, &e), None, "{why}");
        }
    }

    #[test]
    fn a_token_differing_in_one_byte_is_another_key() {
        let cache = VerifiedCache::new(4);
        cache.insert(token_hash("aaaa.bbbb.cccc"), token("p", 200, 1), 150, 10);
        assert_eq!(cache.get(&token_hash("aaaa.bbbb.cccd"), &expect(150)), None);
        assert_eq!(cache.get(&token_hash("aaaa.bbbc.cccc"), &expect(150)), None);
    }

    #[test]
    fn the_cache_is_bounded_dropping_expired_then_soonest_to_expire() {
        let cache = VerifiedCache::new(3);
        cache.insert(token_hash("expired"), token("e", 100, 1), 50, 10);
        cache.insert(token_hash("late"), token("l", 900, 1), 50, 10);
        cache.insert(token_hash("soon"), token("s", 300, 1), 50, 10);
        // Full at now = 150: "expired" (100 + 10 < 150) goes, nothing else has to.
        cache.insert(token_hash("new1"), token("n1", 800, 1), 150, 10);
        assert_eq!(cache.len(), 3);
        assert_eq!(cache.get(&token_hash("expired"), &expect(150)), None);
        // Full again, nothing expired: the one closest to exp ("soon") goes.
        cache.insert(token_hash("new2"), token("n2", 700, 1), 150, 10);
        assert_eq!(cache.len(), 3);
        assert_eq!(cache.get(&token_hash("soon"), &expect(150)), None);
        for kept in ["late", "new1", "new2"] {
            assert!(cache.get(&token_hash(kept), &expect(150)).is_some(), "{kept}");
        }
    }
}
