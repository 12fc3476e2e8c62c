//! An hledger journal: accounts under `assets:`, `liabilities:`, `equity:`,
//! `income:`, `expenses:` with their names kept and a child category under its
//! parent (`expenses:식비:외식`), amounts in the vault's currency as the commodity,
//! each entry's id and tags as hledger tags, voided entries as comments.

use super::{Book, Entry, Names, nested_names, one_line};
use dochiya_domain::AccountKind;

/// hledger's account type letter and top-level account of each kind.
fn root(kind: AccountKind) -> (&'static str, &'static str) {
    match kind {
        AccountKind::Asset => ("A", "assets"),
        AccountKind::Liability => ("L", "liabilities"),
        AccountKind::Equity => ("E", "equity"),
        AccountKind::Income => ("R", "income"),
        AccountKind::Expense => ("X", "expenses"),
    }
}

/// One account name as a component: a `:` inside it would start a sub-account, so it
/// becomes `：` (U+FF1A), and runs of spaces (two end an account name) become one.
fn component(name: &str) -> String {
    one_line(name)
        .replace(':', "\u{ff1a}")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `kind:name`, a child category `kind:parent:name`, unique.
pub(super) fn account_names(book: &Book) -> Names {
    nested_names(book, |i| root(book.accounts[i].kind).1, component, " #")
}

/// A tag as an hledger tag: its name cannot hold `:`, `,` or spaces (they become `：`,
/// `，` and `-`); a tag that had any keeps its original as the value.
fn tag(text: &str) -> String {
    let name: String = one_line(text)
        .chars()
        .map(|c| match c {
            ':' => '\u{ff1a}',
            ',' => '\u{ff0c}',
            c if c.is_whitespace() => '-',
            c => c,
        })
        .collect();
    if name == text {
        format!("{name}:")
    } else {
        format!("{name}:{}", one_line(text).replace(',', "\u{ff0c}"))
    }
}

/// A comment naming the vault, the commodity's format (its decimal places, so
/// `1.000` is never read as a thousand) and every account with its type.
pub(super) fn preamble(book: &Book, out: &mut String) {
    let names = account_names(book);
    let code = book.currency.code();
    let places = usize::from(book.currency.exponent());
    out.push_str(&format!(
        "; dochiya export of vault \"{}\" ({code})\n",
        one_line(&book.vault_name)
    ));
    out.push_str(&format!("commodity 1000.{} {code}\n", "0".repeat(places)));
    for (a, name) in book.accounts.iter().zip(&names) {
        let owner = a
            .owner
            .as_deref()
            .map(|o| format!(", owner: {}", one_line(o).replace(',', "\u{ff0c}")))
            .unwrap_or_default();
        out.push_str(&format!("account {name}  ; type: {}{owner}\n", root(a.kind).0));
    }
    out.push('\n');
}

/// One transaction; a voided one is kept as a comment, so it counts nowhere.
pub(super) fn entry(book: &Book, names: &Names, entry: &Entry<'_>, out: &mut String) {
    let lead = if entry.voided { "; voided: " } else { "" };
    let indent = if entry.voided { ";    " } else { "    " };
    // `;` starts a comment anywhere in a description: it becomes `；` (U+FF1B).
    let memo = one_line(entry.memo).replace(';', "\u{ff1b}");
    let memo = memo.trim();
    // A leading `*`, `!` or `(` would be read as a status or a code: an empty code first.
    let code = if memo.starts_with(['*', '!', '(']) {
        "() "
    } else {
        ""
    };
    let mut tags = format!("id:{}", entry.id);
    for t in entry.tags {
        tags.push_str(", ");
        tags.push_str(&tag(t));
    }
    if let Some(f) = entry.for_name {
        tags.push_str(&format!(", for: {}", one_line(f).replace(',', "\u{ff0c}")));
    }
    out.push_str(&format!("{lead}{} {code}{memo}  ; {tags}\n", entry.date));
    for (account, amount) in &entry.postings {
        out.push_str(&format!(
            "{indent}{}  {amount} {}\n",
            names[*account],
            book.currency.code()
        ));
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::tag;

    #[test]
    fn tags_keep_their_name_or_their_original() {
        assert_eq!(tag("여행"), "여행:");
        assert_eq!(tag("health"), "health:");
        assert_eq!(tag("제주 여행"), "제주-여행:제주 여행");
        assert_eq!(tag("a:b,c"), "a\u{ff1a}b\u{ff0c}c:a:b\u{ff0c}c");
    }
}
