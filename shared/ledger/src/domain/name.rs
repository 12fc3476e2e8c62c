//! Vault and account names: the display form keeps the person's spelling, the
//! key form decides equality (DESIGN.md §4).
//!
//! Key form: Unicode NFC (macOS sends Hangul decomposed), trimmed, inner
//! whitespace collapsed to one space, case-folded. Two names are the same name
//! exactly when their keys are equal.

use std::fmt;

use unicode_normalization::UnicodeNormalization;

use super::ParseError;

/// Longest name, in characters after normalization.
pub const MAX_NAME_CHARS: usize = 64;

/// A valid name: its display form and its comparison key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Name {
    display: String,
    key: NameKey,
}

/// The normalized comparison form of a name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NameKey(String);

impl Name {
    /// Validate and normalize a name.
    pub fn parse(text: &str) -> Result<Name, ParseError> {
        let nfc: String = text.nfc().collect();
        if nfc.chars().any(|c| c.is_control() && !c.is_whitespace()) || nfc.contains(['\n', '\r', '\t']) {
            return Err(ParseError::new(
                "a name may not contain control characters or line breaks",
            ));
        }
        let display = collapse_whitespace(&nfc);
        if display.is_empty() {
            return Err(ParseError::new("a name may not be empty"));
        }
        let chars = display.chars().count();
        if chars > MAX_NAME_CHARS {
            return Err(ParseError::new(format!(
                "a name may have at most {MAX_NAME_CHARS} characters; this one has {chars}"
            )));
        }
        let key = NameKey(fold(&display));
        Ok(Name { display, key })
    }

    /// The name as the person wrote it (NFC, outer whitespace trimmed, inner runs collapsed).
    pub fn display(&self) -> &str {
        &self.display
    }

    /// The comparison key.
    pub fn key(&self) -> &NameKey {
        &self.key
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display)
    }
}

impl NameKey {
    /// The key of any text, valid name or not (for lookups: an invalid name simply matches nothing).
    pub fn of(text: &str) -> NameKey {
        let nfc: String = text.nfc().collect();
        NameKey(fold(&collapse_whitespace(&nfc)))
    }

    /// Wrap a key read back from storage (already normalized when written).
    pub fn from_stored(key: String) -> NameKey {
        NameKey(key)
    }

    /// The key text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Case folding by full lowercase mapping, re-normalized (lowercasing can denormalize).
fn fold(s: &str) -> String {
    s.to_lowercase().nfc().collect()
}

/// The closest existing names to `wanted`, best first, at most `limit`.
///
/// A candidate qualifies when one key contains the other, or when its edit
/// distance (in characters) is within a third of the longer key (at least 2).
pub fn closest_names<'a>(
    wanted: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    limit: usize,
) -> Vec<String> {
    let want = NameKey::of(wanted);
    let want_chars: Vec<char> = want.as_str().chars().collect();
    let mut scored: Vec<(usize, String)> = candidates
        .into_iter()
        .filter_map(|display| {
            let key = NameKey::of(display);
            let cand: Vec<char> = key.as_str().chars().collect();
            let d = edit_distance(&want_chars, &cand);
            let substring = !want.as_str().is_empty()
                && (key.as_str().contains(want.as_str()) || want.as_str().contains(key.as_str()));
            let allowed = (want_chars.len().max(cand.len()) / 3).max(2);
            (substring || d <= allowed).then(|| (if substring { d.min(1) } else { d }, display.to_string()))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(limit).map(|(_, n)| n).collect()
}

/// Levenshtein distance over characters.
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nfd_hangul_from_macos_equals_nfc() {
        let nfd: String = "카카오뱅크".nfd().collect();
        assert_ne!(nfd, "카카오뱅크", "the fixture really is decomposed");
        let a = Name::parse(&nfd).unwrap();
        let b = Name::parse("카카오뱅크").unwrap();
        assert_eq!(a.key(), b.key());
        assert_eq!(a.display(), "카카오뱅크", "display is stored composed");
    }

    #[test]
    fn trailing_space_is_the_same_name() {
        let a = Name::parse("카카오뱅크 ").unwrap();
        assert_eq!(a.key(), Name::parse("카카오뱅크").unwrap().key());
        assert_eq!(a.display(), "카카오뱅크");
    }

    #[test]
    fn case_and_inner_whitespace_fold_but_display_keeps_spelling() {
        let a = Name::parse("  Shinhan   Card ").unwrap();
        assert_eq!(a.display(), "Shinhan Card");
        assert_eq!(a.key().as_str(), "shinhan card");
        assert_eq!(a.key(), Name::parse("SHINHAN card").unwrap().key());
        assert_eq!(
            NameKey::of("shinhan\u{3000}card"),
            *a.key(),
            "ideographic space collapses too"
        );
    }

    #[test]
    fn limits_are_enforced() {
        assert_eq!(
            Name::parse("   ").unwrap_err().to_string(),
            "a name may not be empty"
        );
        assert!(
            Name::parse("식\u{0007}비")
                .unwrap_err()
                .to_string()
                .contains("control characters")
        );
        assert!(Name::parse("a\nb").is_err());
        assert!(Name::parse(&"가".repeat(64)).is_ok());
        assert_eq!(
            Name::parse(&"가".repeat(65)).unwrap_err().to_string(),
            "a name may have at most 64 characters; this one has 65"
        );
    }

    #[test]
    fn closest_names_prefers_substrings_and_small_edits() {
        let names = ["식비", "외식비", "카카오뱅크", "교통비", "Shinhan Card"];
        assert_eq!(closest_names("식비2", names, 3), vec!["식비", "외식비"]);
        assert_eq!(closest_names("카카오", names, 3), vec!["카카오뱅크"]);
        assert_eq!(closest_names("shinhan", names, 3), vec!["Shinhan Card"]);
        assert!(closest_names("zzzzzzzzzz", names, 3).is_empty());
    }
}
