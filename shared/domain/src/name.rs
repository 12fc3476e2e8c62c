//! Vault and account names: the display form keeps the person's spelling, the
//! key form decides equality (docs/design.md §4).
//!
//! Key form: Unicode NFKC (macOS sends Hangul decomposed; full-width `ＫＡＫＡＯ` is
//! `KAKAO`), trimmed, inner whitespace collapsed to one space, case-folded. Two names
//! are the same name exactly when their keys are equal. A key stored before NFKC (an
//! NFC key) keeps its stored form for the items it names, and compares by its NFKC
//! refold (docs/decisions/016-invisible-characters-in-names.md).
//!
//! A new name may not mix Latin, Greek, Cyrillic, Armenian or Cherokee letters within
//! one word (`Kаkao` with a Cyrillic `а`): those scripts share look-alike letters.
//!
//! Invisible characters (format and bidi controls, Hangul fillers) are refused in a
//! new name, never stripped, so a name that renders like another cannot be created
//! and stored keys keep their meaning (docs/decisions/016-invisible-characters-in-names.md).

use std::fmt;

use unicode_normalization::UnicodeNormalization;

use super::ParseError;
use super::limits::{MAX_NAME_CHARS, MAX_SUGGEST_CHARS};
use super::time::LocalDate;

/// Raw input examined at most, in characters: room for a decomposed (NFD) name and
/// surrounding whitespace; anything longer is refused before normalizing.
const MAX_RAW_NAME_CHARS: usize = MAX_NAME_CHARS * 4;
/// How many candidates a suggestion compares at most (catalogues are smaller).
const MAX_SUGGEST_CANDIDATES: usize = 1000;

/// A valid name: its display form and its comparison key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Name {
    display: String,
    key: NameKey,
}

/// The normalized comparison form of a name; equality, order and hash are the key's.
#[derive(Debug, Clone)]
pub struct NameKey {
    key: String,
    /// The form stored before NFKC folding, when it differs (items keep their keys).
    stored: Option<String>,
}

impl PartialEq for NameKey {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl Eq for NameKey {}

impl PartialOrd for NameKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for NameKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key.cmp(&other.key)
    }
}

impl std::hash::Hash for NameKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

impl Name {
    /// Validate and normalize a name.
    pub fn parse(text: &str) -> Result<Name, ParseError> {
        // Bound the work before normalizing (a megabyte name costs nothing).
        let raw = text.chars().take(MAX_RAW_NAME_CHARS + 1).count();
        if raw > MAX_RAW_NAME_CHARS {
            return Err(too_long(text.chars().count()));
        }
        let nfc: String = text.nfc().collect();
        if nfc.chars().any(|c| c.is_control() && !c.is_whitespace()) || nfc.contains(['\n', '\r', '\t']) {
            return Err(ParseError::new(
                "a name may not contain control characters or line breaks",
            ));
        }
        if let Some(invisible) = find_invisible(&nfc) {
            return Err(ParseError::new(format!(
                "a name may not contain {invisible}: it is invisible, so the name would look like another one; remove it"
            )));
        }
        let display = collapse_whitespace(&nfc);
        if display.is_empty() {
            return Err(ParseError::new("a name may not be empty"));
        }
        let chars = display.chars().count();
        if chars > MAX_NAME_CHARS {
            return Err(too_long(chars));
        }
        if let Some((word, a, b)) = mixed_scripts(&display) {
            return Err(ParseError::new(format!(
                "a name may not mix {a} and {b} letters in one word (\"{word}\"): they look alike, so the name would look like another one; write the word in one script"
            )));
        }
        let key = NameKey::folded(fold(&display));
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
        NameKey::folded(fold(&collapse_whitespace(&nfc)))
    }

    fn folded(key: String) -> NameKey {
        NameKey { key, stored: None }
    }

    /// Wrap a key read back from storage. One written before NFKC folding compares by
    /// its refold and keeps its stored form for the items it names.
    pub fn from_stored(stored: String) -> NameKey {
        let key = fold(&stored);
        if key == stored {
            NameKey { key, stored: None }
        } else {
            NameKey {
                key,
                stored: Some(stored),
            }
        }
    }

    /// The key text as stored (item keys and attributes): the comparison form, except
    /// for a key stored before NFKC folding.
    pub fn as_str(&self) -> &str {
        self.stored.as_deref().unwrap_or(&self.key)
    }

    /// Whether both are stored under the same text (a rename from a pre-NFKC key to its
    /// refold is equal by comparison but must still move the name's item).
    pub fn same_stored(&self, other: &NameKey) -> bool {
        self.as_str() == other.as_str()
    }
}

fn too_long(chars: usize) -> ParseError {
    ParseError::new(format!(
        "a name may have at most {MAX_NAME_CHARS} characters; this one has {chars}"
    ))
}

/// The first invisible or text-direction character of `s`, described as
/// `U+XXXX (what it is)`: the one rule for every name a person sees (vaults, accounts,
/// member display names, OAuth client names on the consent page).
pub fn invisible_in(s: &str) -> Option<String> {
    find_invisible(s)
}

/// `s` without the invisible characters [`invisible_in`] finds (unchanged when it has
/// none, so an emoji sequence keeps its joiners): how a stored name from before the
/// rule, or a name from a token, is shown.
pub fn without_invisible(s: &str) -> std::borrow::Cow<'_, str> {
    if find_invisible(s).is_none() {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(s.chars().filter(|c| invisible_kind(*c).is_none()).collect())
}

/// The first invisible character of `s` that would make a look-alike name, described
/// as `U+XXXX (what it is)`. Default-ignorable code points, bidi controls and the
/// Hangul fillers count; a variation selector or zero width joiner is allowed only
/// between symbols (emoji sequences such as ❤️ or 👨‍👩‍👧), where it changes what is shown.
fn find_invisible(s: &str) -> Option<String> {
    let chars: Vec<char> = s.chars().collect();
    let symbol = |i: Option<usize>| {
        i.and_then(|i| chars.get(i))
            .is_some_and(|c| !c.is_alphanumeric() && !c.is_whitespace() && invisible_kind(*c).is_none())
    };
    chars.iter().enumerate().find_map(|(i, &c)| {
        let kind = invisible_kind(c)?;
        let joins_symbols = match c {
            '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' => symbol(i.checked_sub(1)),
            '\u{200D}' => symbol(i.checked_sub(1)) && symbol(Some(i + 1)),
            _ => false,
        };
        (!joins_symbols).then(|| format!("U+{:04X} ({kind})", u32::from(c)))
    })
}

/// What an invisible character is, or `None` for a visible one.
fn invisible_kind(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{00AD}' => "soft hyphen",
        '\u{034F}' => "combining grapheme joiner",
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => {
            "a text direction control"
        }
        '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' => "Hangul filler",
        '\u{17B4}' | '\u{17B5}' | '\u{180B}'..='\u{180F}' => "an invisible format character",
        '\u{200B}' => "zero width space",
        '\u{200C}' => "zero width non-joiner",
        '\u{200D}' => "zero width joiner",
        '\u{2060}' => "word joiner",
        '\u{2061}'..='\u{2065}' | '\u{206A}'..='\u{206F}' => "an invisible format character",
        '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' => "variation selector",
        '\u{FEFF}' => "byte order mark",
        '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}' => "an invisible format character",
        '\u{E0000}'..='\u{E0FFF}' => "a tag character",
        _ => return None,
    })
}

fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Compatibility folding (NFKC: full-width, ligatures, circled digits), then case folding
/// by full lowercase mapping, re-normalized (lowercasing can denormalize).
fn fold(s: &str) -> String {
    let compatible: String = s.nfkc().collect();
    collapse_whitespace(&compatible).to_lowercase().nfkc().collect()
}

/// The scripts whose letters are confused with each other's (Latin `a`, Cyrillic `а`,
/// Greek `ο`, Armenian `օ`, Cherokee `Ꭺ`); other scripts (Hangul, Han, Kana) mix freely
/// with Latin, as in `KB국민카드`.
fn confusable_script(c: char) -> Option<&'static str> {
    Some(match c {
        'A'..='Z' | 'a'..='z' | '\u{00C0}'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}' => "Latin",
        '\u{0370}'..='\u{03FF}' | '\u{1F00}'..='\u{1FFF}' => "Greek",
        '\u{0400}'..='\u{052F}'
        | '\u{1C80}'..='\u{1C8F}'
        | '\u{2DE0}'..='\u{2DFF}'
        | '\u{A640}'..='\u{A69F}' => "Cyrillic",
        '\u{0530}'..='\u{058F}' => "Armenian",
        '\u{13A0}'..='\u{13FF}' | '\u{AB70}'..='\u{ABBF}' => "Cherokee",
        _ => return None,
    })
}

/// The first word (run of letters and digits, after NFKC) that mixes two confusable
/// scripts, with the two.
fn mixed_scripts(display: &str) -> Option<(String, &'static str, &'static str)> {
    let compatible: String = display.nfkc().collect();
    compatible
        .split(|c: char| !c.is_alphanumeric() && !is_combining(c))
        .find_map(|word| {
            let mut scripts = word.chars().filter_map(confusable_script);
            let first = scripts.next()?;
            scripts
                .find(|s| *s != first)
                .map(|other| (word.to_owned(), first, other))
        })
}

/// Combining marks stay inside their word (`é` decomposed).
fn is_combining(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{1AB0}'..='\u{1AFF}' | '\u{20D0}'..='\u{20FF}')
}

/// The closest existing names to `wanted`, best first, at most `limit`.
///
/// Names are compared in a comparison-only form: NFKC (full-width `ＫＢ카드` is
/// `KB카드`), case-folded, whitespace collapsed. A candidate qualifies when one form
/// contains the other; or when its edit distance in characters (Hangul syllables) is
/// small for its length (1 up to three characters, so two different two-syllable names
/// are not close just because their distance is 2; else a third, at least 2); or, for
/// Hangul, when its distance in jamo (syllables decomposed, `식비` is ㅅㅣㄱㅂㅣ) is at
/// most 2 or a quarter; or when both share a run of at least two characters that is at
/// least half the shorter one (`외식비` for `식비2`). Containment ranks first, then
/// syllable distance, then jamo distance, then the name.
///
/// The work is bounded whatever the input: a wanted name longer than any name can be
/// gets no suggestions, at most [`MAX_SUGGEST_CANDIDATES`] candidates are compared, and
/// the quadratic comparisons run only on forms of bounded length.
pub fn closest_names<'a>(
    wanted: &str,
    candidates: impl IntoIterator<Item = &'a str>,
    limit: usize,
) -> Vec<String> {
    if wanted.chars().take(MAX_RAW_NAME_CHARS + 1).count() > MAX_RAW_NAME_CHARS {
        return Vec::new();
    }
    if NameKey::of(wanted).as_str().chars().count() > MAX_SUGGEST_CHARS {
        return Vec::new();
    }
    let want = Compared::of(wanted);
    if want.chars.is_empty() || want.chars.len() > MAX_COMPARED_CHARS {
        return Vec::new();
    }
    let mut scored: Vec<(u8, usize, usize, String)> = candidates
        .into_iter()
        .take(MAX_SUGGEST_CANDIDATES)
        .filter_map(|display| {
            let cand = Compared::of(display);
            rank(&want, &cand).map(|(tier, ds, dj)| (tier, ds, dj, display.to_string()))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.3 == b.3);
    scored.into_iter().take(limit).map(|(.., n)| n).collect()
}

/// Longest comparison form compared with edit distances (NFKC can lengthen a name).
const MAX_COMPARED_CHARS: usize = MAX_SUGGEST_CHARS * 2;

/// A name's comparison-only form, by characters and by jamo.
struct Compared {
    text: String,
    chars: Vec<char>,
    hangul: bool,
}

impl Compared {
    fn of(text: &str) -> Compared {
        let nfkc: String = text.nfkc().collect();
        let text = fold(&collapse_whitespace(&nfkc));
        let chars: Vec<char> = text.chars().collect();
        let hangul = chars.iter().any(|c| ('\u{AC00}'..='\u{D7A3}').contains(c));
        Compared { text, chars, hangul }
    }

    /// The form with Hangul syllables decomposed into their jamo.
    fn jamo(&self) -> Vec<char> {
        self.text.nfd().collect()
    }
}

/// How close `cand` is to `want` as `(tier, syllable distance, jamo distance)`, or
/// `None` when it is not close enough to suggest. Tier 0: the same comparison form;
/// 1: one contains the other; 2: close by distance or a shared run.
fn rank(want: &Compared, cand: &Compared) -> Option<(u8, usize, usize)> {
    if cand.chars.is_empty() {
        return None;
    }
    if want.text == cand.text {
        return Some((0, 0, 0));
    }
    let longer = want.chars.len().max(cand.chars.len());
    if cand.text.contains(&want.text) || want.text.contains(&cand.text) {
        return Some((1, longer - want.chars.len().min(cand.chars.len()), 0));
    }
    if cand.chars.len() > MAX_COMPARED_CHARS {
        return None;
    }
    let allowed = if longer <= 3 { 1 } else { (longer / 3).max(2) };
    let ds = edit_distance(&want.chars, &cand.chars);
    // Jamo only where they can change the outcome or the order: near in syllables.
    let dj = if (want.hangul || cand.hangul) && ds <= 2 {
        let (wj, cj) = (want.jamo(), cand.jamo());
        let dj = edit_distance(&wj, &cj);
        (dj, dj <= (wj.len().max(cj.len()) / 4).max(2))
    } else {
        (ds, false)
    };
    let shared = longest_common_run(&want.chars, &cand.chars);
    let run = shared >= 2 && shared * 2 >= want.chars.len().min(cand.chars.len());
    (ds <= allowed || dj.1 || run).then_some((2, ds, dj.0))
}

/// Length of the longest run of characters both have.
fn longest_common_run(a: &[char], b: &[char]) -> usize {
    let mut prev = vec![0; b.len() + 1];
    let mut cur = vec![0; b.len() + 1];
    let mut best = 0;
    for ca in a {
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = if ca == cb { prev[j] + 1 } else { 0 };
            best = best.max(cur[j + 1]);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    best
}

/// The handle of an archived account: its name, the day it was archived in the
/// vault's zone, and `#n` for the n-th archived the same day under the same name
/// (`"국민카드 (archived 2026-05-31)"`, `"국민카드 (archived 2026-05-31 #2)"`). Accounts
/// archived before the day was kept have no date (`"국민카드 (archived)"`).
pub fn archived_handle(name: &str, on: Option<LocalDate>, ordinal: usize) -> String {
    let suffix = if ordinal > 1 {
        format!(" #{ordinal}")
    } else {
        String::new()
    };
    match on {
        Some(day) => format!("{name} (archived {day}{suffix})"),
        None => format!("{name} (archived{suffix})"),
    }
}

/// Whether a name has the shape of an archived account's handle (any case): such a
/// name is refused for a new account so that a handle always means one archived account.
pub fn is_archived_handle(text: &str) -> bool {
    let key = NameKey::of(text);
    let Some(inner) = key.as_str().strip_suffix(')') else {
        return false;
    };
    let Some(at) = inner.rfind("(archived") else {
        return false;
    };
    let rest = &inner[at + "(archived".len()..];
    let (date, ordinal) = match rest.split_once(" #") {
        Some((d, n)) => (d, Some(n)),
        None => (rest, None),
    };
    let date_ok = date.is_empty()
        || date
            .strip_prefix(' ')
            .is_some_and(|d| LocalDate::parse(d).is_ok() && d.len() == 10);
    let ordinal_ok = ordinal.is_none_or(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    date_ok && ordinal_ok
}

/// What kind of id a text looks like (worded by the tools).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdShape {
    /// A UUID, as vault and account ids are.
    Uuid,
    /// A transaction id's 16 to 20 digits.
    Transaction,
    /// An id of no shape of ours (it matched an id, not a name).
    Other,
}

/// What kind of id `text` looks like when it has the shape of one of ours (a UUID, as
/// vault and account ids are, or a transaction id's 16 to 20 digits) rather than a name.
pub fn id_shape(text: &str) -> Option<IdShape> {
    let t = text.trim();
    let hex = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit());
    let parts: Vec<&str> = t.split('-').collect();
    let dashed = parts.len() == 5
        && parts.iter().map(|p| p.len()).eq([8, 4, 4, 4, 12])
        && parts.iter().all(|p| hex(p));
    if dashed || (t.len() == 32 && hex(t)) {
        return Some(IdShape::Uuid);
    }
    ((16..=20).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit())).then_some(IdShape::Transaction)
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

    #[test]
    fn an_over_long_wanted_name_gets_no_suggestions() {
        // It contains "식비", which a substring match would otherwise suggest (after
        // an edit distance against every candidate, quadratic in the length).
        let huge = "식비".repeat(500_000);
        assert!(closest_names(&huge, ["식비", "외식비"], 3).is_empty());
        let just_over = "식비".repeat(33);
        assert!(closest_names(&just_over, ["식비"], 3).is_empty());
        assert_eq!(closest_names(&"식비".repeat(30), ["식비"], 3), vec!["식비"]);
    }

    #[test]
    fn an_over_long_name_is_refused_without_echoing_it() {
        let huge = "가".repeat(1_000_000);
        assert_eq!(
            Name::parse(&huge).unwrap_err().to_string(),
            "a name may have at most 64 characters; this one has 1000000"
        );
    }

    #[test]
    fn invisible_characters_are_refused_by_name() {
        let cases = [
            ("식비\u{200B}", "U+200B (zero width space)"),
            ("식\u{200D}비", "U+200D (zero width joiner)"),
            ("식비\u{2060}", "U+2060 (word joiner)"),
            ("\u{FEFF}식비", "U+FEFF (byte order mark)"),
            ("식\u{00AD}비", "U+00AD (soft hyphen)"),
            ("\u{202E}식비", "U+202E (a text direction control)"),
            ("식비\u{3164}", "U+3164 (Hangul filler)"),
            ("\u{115F}식비", "U+115F (Hangul filler)"),
            ("식비\u{FE0F}", "U+FE0F (variation selector)"),
        ];
        for (name, described) in cases {
            assert_eq!(
                Name::parse(name).unwrap_err().to_string(),
                format!(
                    "a name may not contain {described}: it is invisible, so the name would look like another one; remove it"
                ),
                "{name:?}"
            );
        }
    }

    #[test]
    fn emoji_sequences_and_ordinary_names_keep_their_keys() {
        assert_eq!(
            Name::parse("❤\u{FE0F} 데이트").unwrap().key().as_str(),
            "❤\u{FE0F} 데이트"
        );
        let family = "👨\u{200D}👩\u{200D}👧 생활비";
        assert_eq!(Name::parse(family).unwrap().key().as_str(), family);
        assert_eq!(Name::parse("식비").unwrap().key().as_str(), "식비");
        // Lookups of stored look-alikes made before this rule still work.
        assert_eq!(NameKey::of("식비\u{200B}").as_str(), "식비\u{200B}");
    }

    #[test]
    fn archived_handles_name_the_day_and_number_repeats() {
        let day = LocalDate::parse("2026-05-31").ok();
        assert_eq!(
            archived_handle("국민카드", day, 1),
            "국민카드 (archived 2026-05-31)"
        );
        assert_eq!(
            archived_handle("국민카드", day, 2),
            "국민카드 (archived 2026-05-31 #2)"
        );
        assert_eq!(archived_handle("국민카드", None, 1), "국민카드 (archived)");
        assert_eq!(archived_handle("국민카드", None, 3), "국민카드 (archived #3)");
    }

    #[test]
    fn handle_shaped_names_are_recognized_in_any_case() {
        for handle in [
            "국민카드 (archived 2026-05-31)",
            "국민카드 (ARCHIVED 2026-05-31 #12)",
            " 국민카드  (archived) ",
            "국민카드 (archived #2)",
            "(archived)",
        ] {
            assert!(is_archived_handle(handle), "{handle:?}");
        }
        for name in [
            "국민카드",
            "국민카드 (archived soon)",
            "국민카드 (archived 2026-02-30)",
            "국민카드 (archived 2026-05-31 #)",
            "국민카드 (archived 2026-05-31 #x)",
            "국민카드 (archived 2026-05-31",
            "archived",
        ] {
            assert!(!is_archived_handle(name), "{name:?}");
        }
    }

    #[test]
    fn ids_are_told_from_names() {
        assert_eq!(
            id_shape("76f9e0cc-1058-490e-baf1-c0a11af84f00"),
            Some(IdShape::Uuid)
        );
        assert_eq!(
            id_shape(" 76F9E0CC1058490EBAF1C0A11AF84F00 "),
            Some(IdShape::Uuid)
        );
        assert_eq!(id_shape("4818349030747375096"), Some(IdShape::Transaction));
        for name in [
            "식비",
            "2026",
            "123456789012345",
            "76f9e0cc-1058-490e-baf1-c0a11af84f0g",
            "a-b-c-d-e",
        ] {
            assert_eq!(id_shape(name), None, "{name:?}");
        }
    }

    #[test]
    fn two_syllable_hangul_names_rank_by_syllable_then_jamo() {
        let names = [
            "식비",
            "식대",
            "교통비",
            "외식비",
            "월급",
            "월세",
            "카카오뱅크",
            "KB카드",
        ];
        assert_eq!(closest_names("식빕", names, 5), vec!["식비", "식대"]);
        assert_eq!(closest_names("월굽", names, 5), vec!["월급", "월세"]);
        // Two jamo off in two syllables is still a typo; an equal tie goes by name.
        assert_eq!(closest_names("삭배", names, 5), vec!["식대", "식비"]);
        assert_eq!(closest_names("교통", names, 5), vec!["교통비"]);
        assert_eq!(closest_names("교퉁비", names, 5), vec!["교통비"]);
        // A shared run of two syllables relates them.
        assert_eq!(closest_names("식비2", names, 5), vec!["식비", "외식비"]);
        // Unrelated two-syllable names are not close just because their distance is 2.
        assert!(closest_names("주유", names, 5).is_empty());
        assert!(closest_names("없음", names, 5).is_empty());
        assert_eq!(
            closest_names("교통비2", ["식비", "교통", "월급"], 5),
            vec!["교통"]
        );
    }

    #[test]
    fn confusable_spellings_are_one_name_or_refused() {
        // Full-width and case fold into the same key (NFKC).
        let kakao = Name::parse("Kakao").unwrap();
        assert_eq!(Name::parse("ＫＡＫＡＯ").unwrap().key(), kakao.key());
        assert_eq!(Name::parse("ＫＡＫＡＯ").unwrap().display(), "ＫＡＫＡＯ");
        assert_eq!(NameKey::of("ｋａｋａｏ"), *kakao.key());
        // A Cyrillic а inside a Latin word is refused, naming the word and the scripts.
        assert_eq!(
            Name::parse("K\u{0430}kao").unwrap_err().to_string(),
            "a name may not mix Latin and Cyrillic letters in one word (\"K\u{0430}kao\"): they look alike, so the name would look like another one; write the word in one script"
        );
        assert!(Name::parse("Pay\u{03C1}al").is_err(), "Greek rho");
        assert!(Name::parse("카카오 K\u{0430}kao").is_err());
        // Scripts that are not confused mix freely, and whole words in one script are fine.
        for ok in [
            "KB국민카드",
            "LG유플러스",
            "Сбербанк",
            "Sber Сбербанк",
            "Café",
            "Cafe\u{0301}",
            "ΑΒΓ fund",
            "①번 통장",
        ] {
            assert!(Name::parse(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn a_key_stored_before_nfkc_compares_refolded_and_keeps_its_stored_form() {
        // What an NFC-only fold stored for "ＫＢ카드".
        let legacy = NameKey::from_stored("ｋｂ카드".to_owned());
        assert_eq!(legacy, NameKey::of("KB카드"));
        assert_eq!(legacy, NameKey::of("ＫＢ카드"));
        assert_eq!(legacy.as_str(), "ｋｂ카드", "its items keep their keys");
        assert!(!legacy.same_stored(&NameKey::of("KB카드")));
        let current = NameKey::from_stored("kb카드".to_owned());
        assert_eq!(current.as_str(), "kb카드");
        assert!(current.same_stored(&NameKey::of("ＫＢ카드")));
    }

    #[test]
    fn full_width_forms_are_compared_folded() {
        let names = ["KB카드", "신한카드", "카카오뱅크"];
        // The same name once folded comes first; another card shares the run "카드".
        assert_eq!(closest_names("ＫＢ카드", names, 5), vec!["KB카드", "신한카드"]);
        assert_eq!(closest_names("ｋｂ　카드", names, 5), vec!["KB카드", "신한카드"]);
        assert_eq!(closest_names("카카오뱅쿠", names, 5), vec!["카카오뱅크"]);
        // Keys fold them too (NFKC): the full-width spelling is the same name.
        assert_eq!(NameKey::of("ＫＢ카드"), NameKey::of("KB카드"));
    }
}
