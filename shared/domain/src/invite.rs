//! Invite codes: what `share_vault` hands out and `join_vault` takes back.
//!
//! A code is 140 random bits written as 28 Crockford base32 characters in
//! seven groups of four (`7K2M-…`), so it can be read aloud or pasted; reading
//! is forgiving (any case, dashes and spaces ignored, `O` read as `0`, `I`/`L`
//! as `1`). Only the SHA-256 of the code is stored: the store never holds a
//! usable code. With 140 bits an unsalted hash is enough (nobody can try them all).

use sha2::{Digest, Sha256};

use super::Entropy;
use super::limits::MAX_INVITE_CODE_CHARS;

/// Characters of a code, 5 bits each (Crockford's base32: no I, L, O, U).
const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// Characters in a code (28 × 5 = 140 bits).
pub const CODE_CHARS: usize = 28;
/// Characters per group in the written form.
const GROUP: usize = 4;

/// An invite code in its canonical form (28 characters of the alphabet, no dashes).
#[derive(Clone, PartialEq, Eq)]
pub struct InviteCode(String);

impl std::fmt::Debug for InviteCode {
    // A code is a secret: never in logs or debug output.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("InviteCode(…)")
    }
}

impl InviteCode {
    /// A fresh code from `entropy` (three 64-bit draws, 140 bits used).
    pub fn generate(entropy: &dyn Entropy) -> Self {
        let bits = [entropy.next_u64(), entropy.next_u64(), entropy.next_u64()];
        let mut out = String::with_capacity(CODE_CHARS);
        for i in 0..CODE_CHARS {
            // Character i takes bits 5i..5i+5 of the 192 drawn.
            let at = i * 5;
            let (word, shift) = (at / 64, at % 64);
            let mut v = bits[word] >> shift;
            if shift > 59 {
                v |= bits[word + 1] << (64 - shift);
            }
            out.push(char::from(ALPHABET[(v & 31) as usize]));
        }
        InviteCode(out)
    }

    /// Read a code as a person typed or pasted it; `None` when it cannot be one.
    pub fn parse(text: &str) -> Option<Self> {
        if text.chars().count() > MAX_INVITE_CODE_CHARS {
            return None;
        }
        let mut out = String::with_capacity(CODE_CHARS);
        for c in text.chars() {
            let c = match c.to_ascii_uppercase() {
                '-' | ' ' => continue,
                'O' => '0',
                'I' | 'L' => '1',
                c => c,
            };
            if !c.is_ascii() || !ALPHABET.contains(&(c as u8)) {
                return None;
            }
            out.push(c);
        }
        (out.len() == CODE_CHARS).then_some(InviteCode(out))
    }

    /// The written form: groups of four joined by dashes.
    pub fn display(&self) -> String {
        let chars: Vec<char> = self.0.chars().collect();
        chars
            .chunks(GROUP)
            .map(|g| g.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("-")
    }

    /// The stored form: SHA-256 of the canonical code, lowercase hex.
    pub fn hash(&self) -> String {
        hex(&Sha256::digest(self.0.as_bytes()))
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// A short stable handle for a person whose token carries no display name
/// (`member-` and 8 hex digits of the subject's SHA-256): never the raw `sub`.
pub fn handle_for(sub: &str) -> String {
    format!("member-{}", &hex(&Sha256::digest(sub.as_bytes()))[..8])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SeededEntropy;
    use crate::limits::MAX_INVITE_CODE_CHARS;

    #[test]
    fn a_code_is_seven_groups_of_four_and_reads_back() {
        let code = InviteCode::generate(&SeededEntropy::new(7));
        let shown = code.display();
        assert_eq!(shown.len(), 34);
        assert_eq!(shown.split('-').map(str::len).collect::<Vec<_>>(), vec![4; 7]);
        assert_eq!(InviteCode::parse(&shown), Some(code.clone()));
        assert_eq!(
            InviteCode::parse(&shown.to_lowercase().replace('-', " ")),
            Some(code)
        );
    }

    #[test]
    fn reading_forgives_lookalikes_and_refuses_the_rest() {
        let canonical = "0123456789ABCDEFGHJKMNPQRSTV";
        let typed = "o1l3-4567-89ab-cdef-ghjk-mnpq-rstv";
        assert_eq!(
            InviteCode::parse(typed).map(|c| c.0),
            Some("0113456789ABCDEFGHJKMNPQRSTV".to_owned())
        );
        assert!(InviteCode::parse(canonical).is_some());
        assert_eq!(
            InviteCode::parse("0123456789ABCDEFGHJKMNPQRST"),
            None,
            "27 characters"
        );
        assert_eq!(
            InviteCode::parse("0123456789ABCDEFGHJKMNPQRSTU"),
            None,
            "U is not in the alphabet"
        );
        assert_eq!(
            InviteCode::parse(&"-".repeat(MAX_INVITE_CODE_CHARS + 1)),
            None,
            "too long to read"
        );
    }

    #[test]
    fn codes_differ_and_only_their_hash_is_stored() {
        let e = SeededEntropy::new(1);
        let a = InviteCode::generate(&e);
        let b = InviteCode::generate(&e);
        assert_ne!(a, b);
        assert_eq!(a.hash().len(), 64);
        assert!(!a.hash().to_uppercase().contains(&a.0));
        assert_eq!(format!("{a:?}"), "InviteCode(…)");
    }

    #[test]
    fn the_handle_is_stable_and_hides_the_subject() {
        assert_eq!(handle_for("auth0|abc"), handle_for("auth0|abc"));
        assert_ne!(handle_for("auth0|abc"), handle_for("auth0|abd"));
        assert!(handle_for("auth0|abc").starts_with("member-"));
        assert_eq!(handle_for("auth0|abc").len(), 15);
    }
}
