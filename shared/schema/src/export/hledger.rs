//! An hledger journal: accounts under `assets:`, `liabilities:`, `equity:`,
//! `income:`, `expenses:` with their names kept, amounts in the vault's currency
//! as the commodity, each entry's id as an `id:` tag, voided entries as comments.

use super::{Book, Entry, Names, one_line, unique};
use crate::domain::AccountKind;

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

/// `kind:name`; a `:` inside a name would start a sub-account, so it becomes `：`
/// (U+FF1A), and runs of spaces (two end an account name) become one.
pub(super) fn account_names(book: &Book) -> Names {
    let names = book
        .accounts
        .iter()
        .map(|a| {
            let name = one_line(&a.name)
                .replace(':', "\u{ff1a}")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            format!("{}:{name}", root(a.kind).1)
        })
        .collect();
    unique(book, names, " #")
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
        out.push_str(&format!("account {name}  ; type: {}\n", root(a.kind).0));
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
    for tag in entry.tags {
        tags.push_str(&format!(", {}:", tag.replace([',', ':', ' '], "-")));
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
