//! A Beancount file. Beancount wants each account component to start with an
//! uppercase letter or a digit, then letters, digits and `-`; Korean has no
//! uppercase, so names are mapped (stable, reversible through metadata):
//! - letters and digits stay; every other run of characters becomes one `-`;
//! - a name starting with a lowercase ASCII letter gets it uppercased
//!   (`cash` → `Cash`), one starting with anything else but `A`–`Z` or a digit gets
//!   `X-` in front (`카카오뱅크` → `X-카카오뱅크`);
//! - a name an earlier account (in kind, name, id order) already maps to gets
//!   `-` and the first 8 hex digits of its id;
//! - each account's `open` carries `name:` (the name exactly as the vault has it)
//!   and `id:` (its account id), so the mapping reads back from the file itself.

use super::{Book, Entry, Names, one_line, unique};
use crate::domain::{AccountKind, LocalDate};

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

/// `Kind:Component` for every account, unique.
pub(super) fn account_names(book: &Book) -> Names {
    let names = book
        .accounts
        .iter()
        .map(|a| format!("{}:{}", root(a.kind), component(&a.name)))
        .collect();
    unique(book, names, "-")
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
    }
    out.push('\n');
}

/// One transaction; a voided one is kept as a comment, so it counts nowhere.
pub(super) fn entry(book: &Book, names: &Names, entry: &Entry<'_>, out: &mut String) {
    let lead = if entry.voided { "; voided: " } else { "" };
    let cont = if entry.voided { "; " } else { "" };
    out.push_str(&format!("{lead}{} * {}\n", entry.date, quoted(entry.memo)));
    out.push_str(&format!("{cont}  id: \"{}\"\n", entry.id));
    if !entry.tags.is_empty() {
        out.push_str(&format!("{cont}  tags: {}\n", quoted(&entry.tags.join(","))));
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
    use super::component;

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
