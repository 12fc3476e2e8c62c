//! Identifiers: transaction ids (64-bit, time-ordered, above 2^53), vault and
//! account UUIDs, and the person a request acts for.

use dochiya_quote::quote;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use super::ParseError;
use super::limits::{MAX_DISPLAY_NAME_CHARS, MAX_SUBJECT_BYTES};

/// 2^53: every transaction id is above it, so a client that rounds ids through
/// a JSON number visibly breaks them instead of silently hitting another one.
pub const TWO_POW_53: u64 = 1 << 53;

/// Bits of randomness below the millisecond timestamp in a transaction id.
const RANDOM_BITS: u32 = 20;
/// Set in every id: keeps ids far above 2^53 and below 2^63 (fits `i64` too).
const HIGH_BIT: u64 = 1 << 62;
/// 2020-01-01T00:00:00Z in Unix milliseconds: the epoch of the id's clock part.
const ID_EPOCH_MS: i64 = 1_577_836_800_000;

/// A transaction id: a 64-bit integer, time-ordered, always above 2^53.
/// It travels as a decimal string and is parsed only from one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TransactionId(u64);

impl TransactionId {
    /// Parse the decimal text of an id (the content of a JSON string).
    pub fn parse(text: &str) -> Result<TransactionId, ParseError> {
        let t = text.trim();
        if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseError::new(format!(
                "{t} is not a transaction id; ids are decimal strings of digits, like \"{}\"; copy transactionId from list_transactions",
                TransactionId(HIGH_BIT | 1),
                t = quote(t)
            )));
        }
        if t.len() > 1 && t.starts_with('0') {
            return Err(ParseError::new(format!(
                "{t} is not a transaction id: ids have no leading zeros",
                t = quote(t)
            )));
        }
        let n: u64 = t.parse().map_err(|_| {
            ParseError::new(format!(
                "{t} is not a transaction id: it is larger than any 64-bit id",
                t = quote(t)
            ))
        })?;
        TransactionId::from_u64(n).ok_or_else(|| {
            ParseError::new(format!(
                "{t} is not a transaction id: every id is above 2^53 (9007199254740992); copy transactionId exactly from list_transactions",
                t = quote(t)
            ))
        })
    }

    /// An id from its integer value, if it can be one (above 2^53).
    pub fn from_u64(n: u64) -> Option<TransactionId> {
        (n > TWO_POW_53).then_some(TransactionId(n))
    }

    /// The integer value.
    pub fn get(self) -> u64 {
        self.0
    }

    /// Fixed-width (20-digit) form, so ids sort as text in numeric order (keys).
    pub fn to_key_string(self) -> String {
        format!("{:020}", self.0)
    }

    /// A new id from the current time (Unix ms) and 20 random bits.
    pub fn generate(unix_ms: i64, random: u64) -> TransactionId {
        let ms =
            u64::try_from(unix_ms.saturating_sub(ID_EPOCH_MS)).unwrap_or(0) & ((1 << (62 - RANDOM_BITS)) - 1);
        TransactionId(HIGH_BIT | (ms << RANDOM_BITS) | (random & ((1 << RANDOM_BITS) - 1)))
    }
}

impl fmt::Display for TransactionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident, $what:literal) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(uuid::Uuid);

        impl $name {
            /// Wrap a UUID.
            pub fn from_uuid(id: uuid::Uuid) -> Self {
                Self(id)
            }

            /// The UUID.
            pub fn as_uuid(&self) -> uuid::Uuid {
                self.0
            }

            /// Parse the hyphenated text form.
            pub fn parse(text: &str) -> Result<Self, ParseError> {
                uuid::Uuid::try_parse(text.trim())
                    .map(Self)
                    .map_err(|_| ParseError::new(format!("{} is not a {} id (a UUID)", quote(text.trim()), $what)))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0.hyphenated())
            }
        }
    };
}

uuid_id!(
    /// A vault's id (UUID); appears in results only.
    VaultId,
    "vault"
);
uuid_id!(
    /// An account's id (UUID); appears in results only.
    AccountId,
    "account"
);

/// Whether a token's `sub` can name a person: not blank after trimming, at most
/// [`MAX_SUBJECT_BYTES`], no control characters (auth and the ledger share this rule).
pub fn is_usable_subject(sub: &str) -> bool {
    !sub.trim().is_empty() && sub.len() <= MAX_SUBJECT_BYTES && !sub.chars().any(char::is_control)
}

/// The person a request acts for: the token's `sub`, and the display name its
/// token carries (if any), which other members of a shared vault see.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PersonId {
    sub: String,
    name: Option<String>,
    /// When their token was issued (epoch seconds), if it says.
    issued_at: Option<i64>,
}

impl PersonId {
    /// Wrap a subject; refused when blank, over [`MAX_SUBJECT_BYTES`], or containing control characters.
    pub fn new(sub: impl Into<String>) -> Result<PersonId, ParseError> {
        let sub = sub.into();
        if !is_usable_subject(&sub) {
            return Err(ParseError::new(
                "the token subject is empty, too long, or has control characters",
            ));
        }
        Ok(PersonId {
            sub,
            name: None,
            issued_at: None,
        })
    }

    /// The same person with the display name from their token (`name`,
    /// `preferred_username` or `email`); a blank one is dropped, a long one
    /// cut to [`MAX_DISPLAY_NAME_CHARS`], control and invisible characters removed.
    pub fn with_name(self, name: Option<String>) -> PersonId {
        let name = name
            .map(|n| {
                let clean: String = super::without_invisible(&n)
                    .chars()
                    .filter(|c| !c.is_control())
                    .collect();
                clean
                    .trim()
                    .chars()
                    .take(MAX_DISPLAY_NAME_CHARS)
                    .collect::<String>()
            })
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty());
        PersonId { name, ..self }
    }

    /// The same person, signed in at `issued_at` (the token's `iat`, epoch seconds): a
    /// person who deleted their data since is refused on tokens from before.
    pub fn with_issued_at(self, issued_at: Option<i64>) -> PersonId {
        PersonId { issued_at, ..self }
    }

    /// When their token was issued (epoch seconds), if it says.
    pub fn issued_at(&self) -> Option<i64> {
        self.issued_at
    }

    /// The subject text.
    pub fn as_str(&self) -> &str {
        &self.sub
    }

    /// What other members see: the token's name, else a short stable handle
    /// derived from the subject (never the subject itself).
    pub fn display_name(&self) -> String {
        match &self.name {
            Some(n) => n.clone(),
            None => super::invite::handle_for(&self.sub),
        }
    }
}

impl fmt::Display for PersonId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sub)
    }
}

/// A source of randomness for new ids, injected so tests are reproducible.
pub trait Entropy: Send + Sync + 'static {
    /// 64 random bits.
    fn next_u64(&self) -> u64;
}

/// Randomness from the operating system (through `uuid`'s v4 generator).
#[derive(Debug, Default, Clone, Copy)]
pub struct OsEntropy;

impl Entropy for OsEntropy {
    fn next_u64(&self) -> u64 {
        uuid::Uuid::new_v4().as_u64_pair().0
    }
}

/// Deterministic randomness (SplitMix64) for tests.
#[derive(Debug)]
pub struct SeededEntropy(AtomicU64);

impl SeededEntropy {
    /// A sequence determined by the seed.
    pub fn new(seed: u64) -> Self {
        Self(AtomicU64::new(seed))
    }
}

impl Entropy for SeededEntropy {
    fn next_u64(&self) -> u64 {
        let mut z = self
            .0
            .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed)
            .wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A random UUID (v4 layout) from injected entropy.
pub fn random_uuid(entropy: &dyn Entropy) -> uuid::Uuid {
    let hi = entropy.next_u64().to_be_bytes();
    let lo = entropy.next_u64().to_be_bytes();
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&hi);
    bytes[8..].copy_from_slice(&lo);
    uuid::Builder::from_random_bytes(bytes).into_uuid()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_ids_are_refused_as_not_ours() {
        let err = TransactionId::parse("12").unwrap_err().to_string();
        assert!(err.contains("every id is above 2^53"), "{err}");
        assert!(TransactionId::parse("9007199254740992").is_err());
    }

    #[test]
    fn ids_above_two_pow_53_parse_exactly() {
        let id = TransactionId::parse("9007199254740993").unwrap();
        assert_eq!(id.get(), 9_007_199_254_740_993);
        assert_eq!(id.to_string(), "9007199254740993");
        assert_eq!(id.to_key_string(), "00009007199254740993");
    }

    #[test]
    fn ids_near_u64_max() {
        assert_eq!(
            TransactionId::parse("18446744073709551615").unwrap().get(),
            u64::MAX
        );
        let err = TransactionId::parse("18446744073709551616")
            .unwrap_err()
            .to_string();
        assert!(err.contains("larger than any 64-bit id"), "{err}");
    }

    #[test]
    fn malformed_ids_are_refused() {
        for bad in ["", "-5", "1.0", "0x10", "04611686018427387905", "1e19", " "] {
            assert!(TransactionId::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn generated_ids_are_above_two_pow_53_and_time_ordered() {
        let a = TransactionId::generate(1_790_000_000_000, u64::MAX);
        let b = TransactionId::generate(1_790_000_000_001, 0);
        assert!(a.get() > TWO_POW_53);
        assert!(a < b, "a later millisecond sorts after any randomness");
        assert!(b.get() < 1 << 63, "fits in i64");
        let before_epoch = TransactionId::generate(0, 7);
        assert_eq!(before_epoch.get(), HIGH_BIT | 7);
        assert_eq!(TransactionId::parse(&a.to_string()).unwrap(), a);
    }

    #[test]
    fn seeded_entropy_is_reproducible() {
        let a = SeededEntropy::new(1);
        let b = SeededEntropy::new(1);
        assert_eq!(a.next_u64(), b.next_u64());
        assert_ne!(a.next_u64(), a.next_u64());
        assert_eq!(random_uuid(&SeededEntropy::new(3)).get_version_num(), 4);
    }

    #[test]
    fn a_subject_must_be_a_usable_person() {
        for bad in ["", "   ", "\t\n", "a\u{1b}b"] {
            assert!(PersonId::new(bad).is_err(), "{bad:?}");
        }
        assert!(PersonId::new("x".repeat(MAX_SUBJECT_BYTES + 1)).is_err());
        assert_eq!(
            PersonId::new("x".repeat(MAX_SUBJECT_BYTES)).map(|p| p.as_str().len()),
            Ok(255)
        );
    }

    #[test]
    fn a_person_shows_their_token_name_or_a_handle_never_the_subject() {
        let p = PersonId::new("auth0|abc").unwrap();
        assert_eq!(p.display_name(), super::super::handle_for("auth0|abc"));
        assert!(!p.display_name().contains("auth0"));
        let named = p.clone().with_name(Some("  민지\u{7}  ".into()));
        assert_eq!(named.display_name(), "민지");
        assert_eq!(named.as_str(), "auth0|abc");
        assert_eq!(
            p.clone().with_name(Some(" \t ".into())).display_name(),
            p.display_name()
        );
        let long = p.with_name(Some("가".repeat(MAX_DISPLAY_NAME_CHARS + 10)));
        assert_eq!(long.display_name().chars().count(), MAX_DISPLAY_NAME_CHARS);
    }
}
