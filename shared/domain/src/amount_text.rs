//! Why an amount the way people write it is not a plain decimal: one message naming every
//! problem (currency sign, thousands separators, spaces, Korean unit words), and the
//! exact string to send when the intent is unambiguous (`"₩9,000"` → `"9000"`).
//!
//! Only explains: amounts are never accepted in these forms (docs/decisions/027-archived-account-handles.md).

use super::ParseError;
use super::money::Decimal;
use dochiya_quote::quote;

impl Decimal {
    /// Parse the text of a decimal string: optional `-`, digits, optional `.` and digits.
    ///
    /// Refused, each with a message saying how to write it instead: thousands
    /// separators (`"12,500"`: a comma means a decimal point in half the world),
    /// exponents (`"1e3"`), a leading `+`, a bare `.5` or `5.`, and anything else.
    pub fn parse(text: &str) -> Result<Decimal, ParseError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(ParseError::new(
                "the amount is empty; write digits like \"12500\" or \"12.50\"",
            ));
        }
        Decimal::parse_plain(t).map_err(|plain| match explain(t) {
            Some(message) => ParseError::new(message),
            None => plain,
        })
    }
}

/// Longest text examined, in characters; a longer amount just gets the plain refusal.
const MAX_EXPLAINED_CHARS: usize = 64;

/// What a currency mark is, for the message.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mark {
    Sign,
    Code,
    Word,
}

/// Currency signs and words, longest first where one starts another.
const MARKS: &[(&str, Mark)] = &[
    ("US$", Mark::Sign),
    ("₩", Mark::Sign),
    ("￦", Mark::Sign),
    ("$", Mark::Sign),
    ("€", Mark::Sign),
    ("£", Mark::Sign),
    ("¥", Mark::Sign),
    ("￥", Mark::Sign),
    ("円", Mark::Word),
    ("원", Mark::Word),
    ("달러", Mark::Word),
    ("엔", Mark::Word),
    ("유로", Mark::Word),
];

/// Korean number units: the small ones multiply within a group of four digits, the
/// large ones start a new group (`2천만` is 2 × 1000 × 10000).
const SMALL_UNITS: &[(char, i128)] = &[('십', 10), ('백', 100), ('천', 1000)];
const LARGE_UNITS: &[(char, i128)] = &[('만', 10_000), ('억', 100_000_000), ('조', 1_000_000_000_000)];

/// Characters that group digits (besides `,` and `.`, which may also be a decimal mark).
const GROUPERS: &[char] = &[' ', '\u{00A0}', '\u{202F}', '\u{2009}', '\'', '’', '_'];

/// The message for `t` (trimmed, not a plain decimal) when it is a number written with
/// marks people use; `None` when it is something else (the plain refusal applies).
pub(super) fn explain(t: &str) -> Option<String> {
    if t.chars().count() > MAX_EXPLAINED_CHARS {
        return None;
    }
    if let Some(v) = exponent(t) {
        return Some(format!(
            "{t} uses exponent notation; an amount is plain digits in the vault's currency, with \".\" for decimals: send \"{v}\"",
            t = quote(t)
        ));
    }
    let mut problems: Vec<String> = Vec::new();
    // Full-width digits and marks (an IME's "１２，０００") read as their ASCII forms.
    let half: String = t.chars().map(half_width).collect();
    if half != t {
        problems.push("full-width characters".into());
    }
    let shown = t;
    let t = half.as_str();
    let mut rest = t;
    let mut negative = false;
    let mut take_sign = |rest: &mut &str, problems: &mut Vec<String>| {
        if let Some(r) = rest.strip_prefix('-') {
            negative = !negative;
            *rest = r.trim_start();
        } else if let Some(r) = rest.strip_prefix('+') {
            problems.push("a plus sign".into());
            *rest = r.trim_start();
        }
    };
    take_sign(&mut rest, &mut problems);
    let mut marks: Vec<(String, Mark)> = Vec::new();
    if let Some((mark, kind, r)) = strip_mark(rest, true) {
        marks.push((mark, kind));
        rest = r.trim_start();
        take_sign(&mut rest, &mut problems);
    }
    if let Some((mark, kind, r)) = strip_mark(rest, false) {
        marks.push((mark, kind));
        rest = r.trim_end();
    }
    for kind in [Mark::Sign, Mark::Code, Mark::Word] {
        let of_kind: Vec<&str> = marks
            .iter()
            .filter(|(_, k)| *k == kind)
            .map(|(m, _)| m.as_str())
            .collect();
        if !of_kind.is_empty() {
            let what = match kind {
                Mark::Sign => "a currency sign",
                Mark::Code => "a currency code",
                Mark::Word => "a currency word",
            };
            problems.push(format!("{what} ({})", of_kind.join(" ")));
        }
    }
    let has_units = rest
        .chars()
        .any(|c| SMALL_UNITS.iter().chain(LARGE_UNITS).any(|(u, _)| *u == c));
    let value = if has_units {
        with_units(rest, &mut problems)
    } else {
        ungrouped(rest, &mut problems)
    };
    if problems.is_empty() {
        return None;
    }
    let listed = match problems.as_slice() {
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
        [] => return None,
    };
    let advice = "an amount is plain digits in the vault's currency, with \".\" for decimals";
    let t = shown;
    Some(match value {
        Some(v) => {
            let sign = if negative && !v.is_zero() { "-" } else { "" };
            format!("{t} has {listed}; {advice}: send \"{sign}{v}\"", t = quote(t))
        }
        None => format!(
            "{t} has {listed}; {advice}, like \"12500\" or \"12.50\"",
            t = quote(t)
        ),
    })
}

/// The ASCII form of a full-width digit, sign or mark; any other character as it is.
fn half_width(c: char) -> char {
    match c {
        '\u{FF10}'..='\u{FF19}' | '\u{FF0B}' | '\u{FF0C}' | '\u{FF0D}' | '\u{FF0E}' => {
            char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c)
        }
        '\u{3000}' => ' ',
        _ => c,
    }
}

/// The plain decimal of `t` when it is a number in exponent notation (`4.321e3`,
/// `-1.5E+2`), exactly; `None` otherwise or when the exponent is out of reason.
fn exponent(t: &str) -> Option<String> {
    let (mantissa, exp) = t.split_once(['e', 'E'])?;
    let exp: i32 = exp.strip_prefix('+').unwrap_or(exp).parse().ok()?;
    if exp.unsigned_abs() > 30 {
        return None;
    }
    let (sign, body) = match mantissa.strip_prefix('-') {
        Some(b) => ("-", b),
        None => ("", mantissa),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !digits(int) || !digits(frac) || (body.contains('.') && frac.is_empty()) {
        return None;
    }
    let all = format!("{int}{frac}");
    // Where the decimal point lands, counted from the left of `all`.
    let point = i32::try_from(int.len()).ok()? + exp;
    let text = if point <= 0 {
        format!("0.{}{all}", "0".repeat(usize::try_from(-point).ok()?))
    } else if usize::try_from(point).ok()? >= all.len() {
        format!("{all}{}", "0".repeat(usize::try_from(point).ok()? - all.len()))
    } else {
        let (i, f) = all.split_at(usize::try_from(point).ok()?);
        format!("{i}.{f}")
    };
    let v = Decimal::parse_plain(&text).ok()?;
    Some(format!("{sign}{v}"))
}

/// The currency a mark stands for (`¥` → JPY), when it names one.
fn currency_of(mark: &str) -> Option<&str> {
    Some(match mark {
        "₩" | "￦" | "원" => "KRW",
        "US$" | "$" | "달러" => "USD",
        "¥" | "￥" | "円" | "엔" => "JPY",
        "€" | "유로" => "EUR",
        "£" => "GBP",
        code if code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase()) => code,
        _ => return None,
    })
}

/// When the amount text `t` names another currency than the vault's (`vault`, an ISO
/// code): the refusal, naming the vault's currency and suggesting no number, since a
/// converted guess would be recorded as fact ("¥1,200" is not 1,200 won).
pub fn other_currency(t: &str, vault: &str) -> Option<String> {
    let t = t.trim();
    if t.chars().count() > MAX_EXPLAINED_CHARS {
        return None;
    }
    let rest = t.trim_start_matches(['-', '+']).trim_start();
    let named = strip_mark(rest, true)
        .or_else(|| strip_mark(rest, false))
        .and_then(|(mark, _, _)| currency_of(&mark).map(str::to_string))?;
    (named != vault).then(|| {
        format!(
            "{t} is an amount in {named}, but this vault keeps {vault}: send the amount actually charged in {vault} (as the card statement or receipt shows it), as plain digits; do not convert it yourself",
            t = quote(t)
        )
    })
}

/// A currency mark at the start (`prefix`) or end of `t`, and the text without it.
fn strip_mark(t: &str, prefix: bool) -> Option<(String, Mark, &str)> {
    for (mark, kind) in MARKS {
        let rest = if prefix {
            t.strip_prefix(mark)
        } else {
            t.strip_suffix(mark)
        };
        if let Some(rest) = rest {
            return Some(((*mark).to_string(), *kind, rest));
        }
    }
    // An ISO code (any case), not part of a longer word.
    let is_letter = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphabetic());
    let (code, rest, next) = if prefix {
        let code = t.get(..3)?;
        (code, &t[3..], t[3..].chars().next())
    } else {
        let at = t.len().checked_sub(3)?;
        let code = t.get(at..)?;
        (code, &t[..at], t[..at].chars().next_back())
    };
    let upper = code.to_ascii_uppercase();
    (code.bytes().all(|b| b.is_ascii_alphabetic())
        && !is_letter(next)
        && super::Currency::supported().any(|c| c == upper))
    .then_some((upper, Mark::Code, rest))
}

/// The value of a number written with thousands separators, noting them; `None`
/// when it is not such a number or the separators leave it ambiguous.
fn ungrouped(t: &str, problems: &mut Vec<String>) -> Option<Decimal> {
    let dots = t.matches('.').count();
    let commas = t.matches(',').count();
    // Which of "," and "." is the decimal mark: the last one, when both appear; a lone
    // "." is one; a lone "," followed by other than three digits could be either.
    let decimal = match (commas, dots) {
        (0, 1) => Some('.'),
        (0, _) => None,
        (1, 0)
            if t.rsplit(',')
                .next()
                .is_some_and(|after| after.chars().count() != 3) =>
        {
            problems.push(format!(
                "a comma that may be a decimal comma or a thousands separator (write \"{}\" if it is a decimal point)",
                t.replace(',', ".")
            ));
            return None;
        }
        (_, 0) => None,
        _ => {
            let mark = t[t.rfind([',', '.'])?..].chars().next()?;
            if t.matches(mark).count() != 1 {
                return None;
            }
            Some(mark)
        }
    };
    let mut seps: Vec<&str> = Vec::new();
    if commas > 0 && decimal != Some(',') {
        seps.push("\",\"");
    }
    if dots > 0 && decimal != Some('.') {
        seps.push("\".\"");
    }
    for (c, shown) in [('\'', "\"'\""), ('’', "\"’\""), ('_', "\"_\"")] {
        if t.contains(c) {
            seps.push(shown);
        }
    }
    let spaces = t
        .chars()
        .any(|c| [' ', '\u{00A0}', '\u{202F}', '\u{2009}'].contains(&c));
    if !seps.is_empty() {
        if spaces {
            seps.push("spaces");
        }
        problems.push(format!("thousands separators ({})", seps.join(", ")));
    } else if spaces {
        problems.push("spaces between digits".into());
    }
    if decimal == Some(',') {
        problems.push("a decimal comma".into());
    }
    let (int, frac) = match decimal {
        Some(mark) => {
            let (i, f) = t.rsplit_once(mark)?;
            (i, Some(f))
        }
        None => (t, None),
    };
    // Groups of three after a first group of one to three digits, or no grouping at all.
    let groups: Vec<&str> = int
        .split(|c: char| GROUPERS.contains(&c) || c == ',' || c == '.')
        .collect();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let grouped_ok = groups.iter().all(|g| digits(g))
        && (groups.len() == 1 || (groups[0].len() <= 3 && groups[1..].iter().all(|g| g.len() == 3)));
    if !grouped_ok || frac.is_some_and(|f| !digits(f)) {
        return None;
    }
    let plain = match frac {
        Some(f) => format!("{}.{f}", groups.concat()),
        None => groups.concat(),
    };
    Decimal::parse_plain(&plain).ok()
}

/// The value of a number written with Korean units (`3만 5천`, `1.5만`, `천`), noting
/// the units; `None` when the units are not in a readable order.
fn with_units(t: &str, problems: &mut Vec<String>) -> Option<Decimal> {
    let mut seen: Vec<char> = Vec::new();
    let mut segments: Vec<(Decimal, i128)> = Vec::new();
    let mut chars = t.chars().peekable();
    let mut readable = true;
    while chars.peek().is_some() {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let mut number = String::new();
        while let Some(c) = chars.next_if(|c| c.is_ascii_digit() || *c == '.' || *c == ',') {
            number.push(c);
        }
        let mut unit: i128 = 1;
        let mut named = false;
        if let Some(&(u, m)) = chars
            .peek()
            .and_then(|c| SMALL_UNITS.iter().find(|(u, _)| u == c))
        {
            chars.next();
            seen.push(u);
            unit = m;
            named = true;
        }
        if let Some(&(u, m)) = chars
            .peek()
            .and_then(|c| LARGE_UNITS.iter().find(|(u, _)| u == c))
        {
            chars.next();
            seen.push(u);
            unit *= m;
            named = true;
        }
        if number.is_empty() && !named {
            // Something else than a number and its unit.
            readable = false;
            break;
        }
        let value = if number.is_empty() {
            Decimal::from_parts(1, 0)
        } else {
            match Decimal::parse_plain(&number.replace(',', "")) {
                Ok(v) => v,
                Err(_) => {
                    readable = false;
                    break;
                }
            }
        };
        segments.push((value, unit));
    }
    if t.contains(',') {
        problems.push("thousands separators (\",\")".into());
    }
    seen.dedup();
    let units: Vec<String> = seen.iter().map(char::to_string).collect();
    problems.push(if units.len() == 1 {
        format!("a unit word ({})", units[0])
    } else {
        format!("unit words ({})", units.join(", "))
    });
    // Each part smaller than the one before (`1억 2천만 5천`), or the sum is no reading.
    let descending = segments.windows(2).all(|w| w[0].1 > w[1].1);
    if !readable || !descending || segments.is_empty() {
        return None;
    }
    let scale = segments.iter().map(|(v, _)| v.parts().1).max()?;
    let mut total: i128 = 0;
    for (v, unit) in &segments {
        let (m, s) = v.parts();
        let term = m
            .checked_mul(*unit)?
            .checked_mul(10_i128.checked_pow(scale - s)?)?;
        total = total.checked_add(term)?;
    }
    Some(Decimal::from_parts(total, scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(t: &str) -> String {
        Decimal::parse(t).unwrap_err().to_string()
    }

    #[test]
    fn a_sign_and_separators_are_named_together_with_the_string_to_send() {
        assert_eq!(
            message("₩9,000"),
            "\"₩9,000\" has a currency sign (₩) and thousands separators (\",\"); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"9000\""
        );
        assert_eq!(
            message("$1,234.50"),
            "\"$1,234.50\" has a currency sign ($) and thousands separators (\",\"); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"1234.5\""
        );
        assert_eq!(
            message("12,500원"),
            "\"12,500원\" has a currency word (원) and thousands separators (\",\"); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"12500\""
        );
        assert_eq!(
            message("KRW 1 000 000"),
            "\"KRW 1 000 000\" has a currency code (KRW) and spaces between digits; an amount is plain digits in the vault's currency, with \".\" for decimals: send \"1000000\""
        );
        assert_eq!(
            message("-₩3,000"),
            "\"-₩3,000\" has a currency sign (₩) and thousands separators (\",\"); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"-3000\""
        );
        assert_eq!(
            message("12.50 usd"),
            "\"12.50 usd\" has a currency code (USD); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"12.5\""
        );
        assert_eq!(
            message("+5000"),
            "\"+5000\" has a plus sign; an amount is plain digits in the vault's currency, with \".\" for decimals: send \"5000\""
        );
    }

    /// Another currency than the vault's: refused with no number; the vault's own: none.
    #[test]
    fn another_currency_is_refused_without_a_number() {
        assert_eq!(
            other_currency("¥1,200", "KRW").as_deref(),
            Some(
                "\"¥1,200\" is an amount in JPY, but this vault keeps KRW: send the amount actually charged in KRW (as the card statement or receipt shows it), as plain digits; do not convert it yourself"
            )
        );
        for (t, named) in [
            ("$12", "USD"),
            ("1200엔", "JPY"),
            ("12 달러", "USD"),
            ("USD 12", "USD"),
            ("€5", "EUR"),
        ] {
            let m = other_currency(t, "KRW").unwrap_or_default();
            assert!(
                m.starts_with(&format!("\"{t}\" is an amount in {named}, but")),
                "{m}"
            );
        }
        assert_eq!(other_currency("₩9,000", "KRW"), None);
        assert_eq!(other_currency("9,000원", "KRW"), None);
        assert_eq!(other_currency("¥1,200", "JPY"), None);
        assert_eq!(other_currency("12,000", "KRW"), None);
    }

    /// Full-width digits (an IME's) and exponent notation get the exact string to send.
    #[test]
    fn full_width_digits_and_exponents_get_the_string_to_send() {
        assert_eq!(
            message("１２０００"),
            "\"１２０００\" has full-width characters; an amount is plain digits in the vault's currency, with \".\" for decimals: send \"12000\""
        );
        assert_eq!(
            message("１２，０００"),
            "\"１２，０００\" has full-width characters and thousands separators (\",\"); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"12000\""
        );
        let exp = |t: &str, v: &str| {
            assert_eq!(
                message(t),
                format!(
                    "\"{t}\" uses exponent notation; an amount is plain digits in the vault's currency, with \".\" for decimals: send \"{v}\""
                )
            )
        };
        exp("4.321e3", "4321");
        exp("1E3", "1000");
        exp("1.5e-2", "0.015");
        exp("-2.5E+1", "-25");
        exp("12.5e1", "125");
        // Not a number in exponent notation: the plain refusal.
        assert!(message("e3").starts_with("\"e3\" uses exponent notation; write the plain decimal"));
        assert!(message("1e99").starts_with("\"1e99\" uses exponent notation; write the plain decimal"));
    }

    #[test]
    fn korean_units_are_read_exactly() {
        let send = |t: &str| {
            let m = message(t);
            m.rsplit_once("send \"")
                .map(|(_, v)| v.trim_end_matches('"').to_string())
                .unwrap_or(m)
        };
        assert_eq!(
            message("3만원"),
            "\"3만원\" has a currency word (원) and a unit word (만); an amount is plain digits in the vault's currency, with \".\" for decimals: send \"30000\""
        );
        assert_eq!(send("천원"), "1000");
        assert_eq!(send("3만 5천원"), "35000");
        assert_eq!(send("1.5만"), "15000");
        assert_eq!(send("1억 2천만"), "120000000");
        assert_eq!(send("2,500만원"), "25000000");
        assert_eq!(send("₩5천"), "5000");
        assert_eq!(
            message("5천 3만"),
            "\"5천 3만\" has unit words (천, 만); an amount is plain digits in the vault's currency, with \".\" for decimals, like \"12500\" or \"12.50\""
        );
    }

    #[test]
    fn ambiguous_separators_are_named_without_a_guess() {
        assert_eq!(
            message("12,5"),
            "\"12,5\" has a comma that may be a decimal comma or a thousands separator (write \"12.5\" if it is a decimal point); an amount is plain digits in the vault's currency, with \".\" for decimals, like \"12500\" or \"12.50\""
        );
        assert_eq!(
            message("1,23,456"),
            "\"1,23,456\" has thousands separators (\",\"); an amount is plain digits in the vault's currency, with \".\" for decimals, like \"12500\" or \"12.50\""
        );
        // European grouping, read by its last mark.
        assert_eq!(
            message("1.234.567,89"),
            "\"1.234.567,89\" has thousands separators (\".\") and a decimal comma; an amount is plain digits in the vault's currency, with \".\" for decimals: send \"1234567.89\""
        );
    }

    #[test]
    fn other_malformed_text_keeps_its_own_message() {
        assert!(message("1e3").contains("exponent notation"));
        assert!(message("abc").contains("is not a plain decimal number"));
        assert!(message("9k").contains("is not a plain decimal number"));
        // Too long to examine: the plain refusal, still naming separators.
        let long = format!("₩{}", "1,000".repeat(20));
        assert!(
            message(&long).contains("has digit separators"),
            "{}",
            message(&long)
        );
    }
}
