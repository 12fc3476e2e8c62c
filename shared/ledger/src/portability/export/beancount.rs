//! A Beancount file. Beancount wants each account component to start with an
//! uppercase letter or a digit, then letters, digits and `-`; Korean has no
//! uppercase, so names are mapped (stable, reversible through metadata):
//! - letters and digits stay; every other run of characters becomes one `-`;
//! - a name starting with a lowercase ASCII letter gets it uppercased
//!   (`cash` → `Cash`), one starting with anything else but `A`–`Z` or a digit gets
//!   `X-` in front (`카카오뱅크` → `X-카카오뱅크`);
//! - a name an earlier account (in kind, name, id order) already maps to gets
//!   `-` and the first 8 hex digits of its id;
//! - a child category nests under its parent (`Expenses:X-식비:X-외식`);
//! - each account's `open` carries `name:` (the name exactly as the vault has it)
//!   and `id:` (its account id), so the mapping reads back from the file itself.
//!
//! Tags are `#tag` on the transaction line: Beancount takes ASCII letters, digits
//! and `-_/.` only, so other ASCII becomes `-` and a tag with other letters is
//! written in Punycode (`#xn--9i5bo9z` for 여행, as IDNA writes 여행 in a host name);
//! the `tags:` metadata keeps the tags as written.

use super::{Book, Entry, Names, nested_names, one_line};
use dochiya_domain::{AccountKind, LocalDate};

fn root(kind: AccountKind) -> &'static str {
    match kind {
        AccountKind::Asset => "Assets",
        AccountKind::Liability => "Liabilities",
        AccountKind::Equity => "Equity",
        AccountKind::Income => "Income",
        AccountKind::Expense => "Expenses",
    }
}

/// Letters Beancount's account names accept beyond ASCII (scripts we have checked
/// with bean-check): Latin with accents, Hangul, kana, CJK ideographs.
fn is_kept_letter(c: char) -> bool {
    matches!(c,
        '\u{c0}'..='\u{d6}' | '\u{d8}'..='\u{f6}' | '\u{f8}'..='\u{24f}'
        | '\u{1100}'..='\u{11ff}' | '\u{3131}'..='\u{318e}' | '\u{ac00}'..='\u{d7a3}'
        | '\u{3041}'..='\u{3096}' | '\u{30a1}'..='\u{30fa}'
        | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}')
}

/// One account name as a Beancount component (before making it unique).
pub(super) fn component(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || is_kept_letter(c) {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    match out.chars().next() {
        None => "X".to_string(),
        Some(c) if c.is_ascii_lowercase() => format!("{}{}", c.to_ascii_uppercase(), &out[1..]),
        Some(c) if c.is_ascii_uppercase() || c.is_ascii_digit() => out,
        Some(_) => format!("X-{out}"),
    }
}

/// `Kind:Component` for every account, a child category `Kind:Parent:Component`, unique.
pub(super) fn account_names(book: &Book) -> Names {
    nested_names(book, |i| root(book.accounts[i].kind), component, "-")
}

/// A tag as a Beancount tag (without the `#`).
pub(super) fn tag(text: &str) -> String {
    let kept: String = text
        .chars()
        .map(|c| match c {
            c if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '/' | '.') => c,
            c if c.is_ascii() || c.is_whitespace() || c.is_control() => '-',
            c => c,
        })
        .collect();
    if kept.is_ascii() {
        kept
    } else {
        format!("xn--{}", punycode(&kept))
    }
}

/// RFC 3492 Punycode of `text` (what IDNA writes after `xn--`).
fn punycode(text: &str) -> String {
    const BASE: u64 = 36;
    const T_MIN: u64 = 1;
    const T_MAX: u64 = 26;
    const SKEW: u64 = 38;
    const DAMP: u64 = 700;
    fn adapt(delta: u64, points: u64, first: bool) -> u64 {
        let mut delta = if first { delta / DAMP } else { delta / 2 };
        delta += delta / points;
        let mut k = 0;
        while delta > ((BASE - T_MIN) * T_MAX) / 2 {
            delta /= BASE - T_MIN;
            k += BASE;
        }
        k + (BASE - T_MIN + 1) * delta / (delta + SKEW)
    }
    fn digit(d: u64) -> char {
        let d = u8::try_from(d).unwrap_or(0);
        char::from(if d < 26 { b'a' + d } else { b'0' + d - 26 })
    }
    let points: Vec<u64> = text.chars().map(|c| u64::from(u32::from(c))).collect();
    let mut out: String = text.chars().filter(char::is_ascii).collect();
    let basic = out.len() as u64;
    if basic > 0 {
        out.push('-');
    }
    let (mut n, mut delta, mut bias, mut handled) = (128u64, 0u64, 72u64, basic);
    while handled < points.len() as u64 {
        let Some(m) = points.iter().copied().filter(|&c| c >= n).min() else {
            break;
        };
        delta += (m - n) * (handled + 1);
        n = m;
        for &c in &points {
            if c < n {
                delta += 1;
            }
            if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = if k <= bias { T_MIN } else { (k - bias).min(T_MAX) };
                    if q < t {
                        break;
                    }
                    out.push(digit(t + (q - t) % (BASE - t)));
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                out.push(digit(q));
                bias = adapt(delta, handled + 1, handled == basic);
                delta = 0;
                handled += 1;
            }
        }
        delta += 1;
        n += 1;
    }
    out
}

/// A Beancount string literal.
fn quoted(text: &str) -> String {
    format!(
        "\"{}\"",
        one_line(text).replace('\\', "\\\\").replace('"', "\\\"")
    )
}

/// The title and currency options, and an `open` for every account on `first_date`
/// (before any posting), with its original name and id as metadata.
pub(super) fn preamble(book: &Book, first_date: LocalDate, out: &mut String) {
    let code = book.currency.code();
    out.push_str(&format!(
        "; dochiya export of vault {} ({code})\n",
        quoted(&book.vault_name)
    ));
    out.push_str(&format!("option \"title\" {}\n", quoted(&book.vault_name)));
    out.push_str(&format!("option \"operating_currency\" \"{code}\"\n\n"));
    for (a, name) in book.accounts.iter().zip(account_names(book)) {
        out.push_str(&format!(
            "{first_date} open {name} {code}\n  name: {}\n  id: \"{}\"\n",
            quoted(&a.name),
            a.id
        ));
        if let Some(o) = &a.owner {
            out.push_str(&format!("  owner: {}\n", quoted(o)));
        }
    }
    out.push('\n');
}

/// One transaction; a voided one is kept as a comment, so it counts nowhere.
pub(super) fn entry(book: &Book, names: &Names, entry: &Entry<'_>, out: &mut String) {
    let lead = if entry.voided { "; voided: " } else { "" };
    let cont = if entry.voided { "; " } else { "" };
    let tags: String = entry.tags.iter().map(|t| format!(" #{}", tag(t))).collect();
    out.push_str(&format!("{lead}{} * {}{tags}\n", entry.date, quoted(entry.memo)));
    out.push_str(&format!("{cont}  id: \"{}\"\n", entry.id));
    if !entry.tags.is_empty() {
        out.push_str(&format!("{cont}  tags: {}\n", quoted(&entry.tags.join(","))));
    }
    if let Some(f) = entry.for_name {
        out.push_str(&format!("{cont}  for: {}\n", quoted(f)));
    }
    for (account, amount) in &entry.postings {
        out.push_str(&format!(
            "{cont}  {}  {amount} {}\n",
            names[*account],
            book.currency.code()
        ));
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::{component, tag};

    #[test]
    fn tags_map_to_what_beancount_accepts() {
        // Punycode as Python's `str.encode("punycode")` gives it.
        let cases = [
            ("여행", "xn--9i5bo9z"),
            ("의료", "xn--9r2b19x"),
            ("제주 여행", "xn----bs6f29cvzac37b"),
            ("bücher", "xn--bcher-kva"),
            ("health", "health"),
            ("Jeju trip!", "Jeju-trip-"),
            ("a.b/c_d", "a.b/c_d"),
        ];
        for (text, expected) in cases {
            assert_eq!(tag(text), expected, "{text}");
        }
    }

    #[test]
    fn names_map_to_components_beancount_accepts() {
        let cases = [
            ("카카오뱅크", "X-카카오뱅크"),
            ("KB국민카드", "KB국민카드"),
            ("cash", "Cash"),
            ("2026 여행", "2026-여행"),
            ("식비 (외식)", "X-식비-외식"),
            ("기초잔액", "X-기초잔액"),
            ("Opening Balances", "Opening-Balances"),
            ("🍔", "X"),
            ("a_b", "A-b"),
            (
                "국민카드 (archived 2026-05-31 #2)",
                "X-국민카드-archived-2026-05-31-2",
            ),
        ];
        for (name, expected) in cases {
            assert_eq!(component(name), expected, "{name}");
        }
    }
}
