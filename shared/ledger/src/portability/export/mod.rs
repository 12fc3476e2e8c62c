//! The export formats of `export_transactions`: a vault's entries as text in a format the ledger world
//! reads (CSV for spreadsheets, hledger and Beancount journals), a page at a time.
//!
//! A page is at most [`MAX_PAGE_ENTRIES`] entries or about [`MAX_PAGE_BYTES`] of
//! text, oldest first; the pages of one export, concatenated in order, are one
//! file (the first page alone carries the format's preamble: CSV's byte-order mark
//! and header, a journal's directives). Each format is its own module and renders
//! from the same [`Book`]: the vault's accounts and one entry at a time.
//! docs/decisions/035-export-and-backup.md says why the formats look as they do.

//! The ledger (dochiya-ledger's `export` module) reads the page; this module only renders.

mod beancount;
mod csv;
mod hledger;

use std::collections::BTreeMap;

use crate::api::LedgerError;
use crate::api::VaultRef;
use crate::stored::entry::TxRec;
use dochiya_domain::{AccountId, AccountKind, Currency, LocalDate, Money, TransactionId};

/// Most entries on one page.
pub const MAX_PAGE_ENTRIES: u32 = 500;
/// A page stops before the entry that would take its text past this many bytes
/// (well under the tool-result limits of the clients).
pub const MAX_PAGE_BYTES: usize = 100 * 1024;

/// The text formats of `export_transactions`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// UTF-8 CSV with a byte-order mark, one row per posting (RFC 4180 quoting).
    Csv,
    /// An hledger journal.
    Hledger,
    /// A Beancount file.
    Beancount,
}

impl ExportFormat {
    /// Every format, in the order messages list them.
    pub const ALL: [ExportFormat; 3] = [ExportFormat::Csv, ExportFormat::Hledger, ExportFormat::Beancount];

    /// Its name in arguments and results.
    pub fn as_str(self) -> &'static str {
        match self {
            ExportFormat::Csv => "csv",
            ExportFormat::Hledger => "hledger",
            ExportFormat::Beancount => "beancount",
        }
    }

    /// The format with this name.
    pub fn parse(text: &str) -> Option<ExportFormat> {
        Self::ALL.into_iter().find(|f| f.as_str() == text.trim())
    }
}

/// Arguments of `export_transactions`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportRequest {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// Entries dated on or after this day (default: the first).
    pub from: Option<LocalDate>,
    /// Entries dated on or before this day (default: the last, later-dated ones included).
    pub to: Option<LocalDate>,
    /// The text format.
    pub format: ExportFormat,
    /// The previous page's `next_cursor`.
    pub cursor: Option<String>,
}

/// One page of an export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportPage {
    /// The vault.
    pub vault: VaultRef,
    /// The format of `text`.
    pub format: ExportFormat,
    /// The period's first day: as asked, or this page's first entry's date (today when there is none).
    pub from: LocalDate,
    /// The period's last day: as asked, or this page's last entry's date (or `from`, or today).
    pub to: LocalDate,
    /// Entries on this page (voided ones included: CSV marks them, journals keep them as comments).
    pub count: u32,
    /// The page's text; the pages concatenated in order are the whole file.
    pub text: String,
    /// Where the next page starts, when there is one.
    pub next_cursor: Option<String>,
}

/// An account as the formats see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookAccount {
    pub id: AccountId,
    /// The name that means it in every tool (an archived account's handle).
    pub name: String,
    pub kind: AccountKind,
    /// Its parent category (decision 038): the parent's name as every tool means it,
    /// and its id (journals nest the account under it).
    pub parent: Option<(String, AccountId)>,
    /// The member whose account it is, by name (`None`: the household's; decision 060).
    pub owner: Option<String>,
}

/// What every format renders from: the vault and its accounts.
#[derive(Debug, Clone)]
pub struct Book {
    pub vault_name: String,
    pub currency: Currency,
    /// Accounts by kind, then name, then id: a fixed order, so generated names are stable.
    pub accounts: Vec<BookAccount>,
    index: BTreeMap<AccountId, usize>,
    /// Each account's parent, as an index into `accounts`.
    parents: Vec<Option<usize>>,
}

/// One entry as the formats see it.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    pub id: TransactionId,
    pub date: LocalDate,
    pub memo: &'a str,
    pub voided: bool,
    /// The entry's tags, as written.
    pub tags: &'a [String],
    /// Whose spending it was when not its categories': a member's name, or `shared`.
    pub for_name: Option<&'a str>,
    /// (index into `Book::accounts`, signed amount: debits positive).
    pub postings: Vec<(usize, Money)>,
}

impl Book {
    /// The book of vault `vault_name` with these accounts, put in the formats' fixed order.
    pub fn new(vault_name: String, currency: Currency, mut accounts: Vec<BookAccount>) -> Book {
        accounts.sort_by(|a, b| {
            (kind_order(a.kind), &a.name, a.id.to_string()).cmp(&(
                kind_order(b.kind),
                &b.name,
                b.id.to_string(),
            ))
        });
        let index: BTreeMap<AccountId, usize> = accounts.iter().enumerate().map(|(i, a)| (a.id, i)).collect();
        let parents = accounts
            .iter()
            .map(|a| a.parent.as_ref().and_then(|(_, id)| index.get(id).copied()))
            .collect();
        Book {
            vault_name,
            currency,
            accounts,
            index,
            parents,
        }
    }

    /// The parent of account `i` (an index into `accounts`), when it has one.
    pub fn parent_of(&self, i: usize) -> Option<usize> {
        self.parents.get(i).copied().flatten()
    }

    /// A stored entry as the formats see it.
    pub fn entry<'a>(&self, tx: &'a TxRec) -> Result<Entry<'a>, LedgerError> {
        let postings = tx
            .postings
            .iter()
            .map(|p| match self.index.get(&p.account_id) {
                Some(i) => Ok((*i, Money::from_minor(p.amount, self.currency))),
                None => Err(LedgerError::internal(
                    "a posting names an account the vault does not have",
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Entry {
            id: tx.id,
            date: tx.date,
            memo: &tx.memo,
            voided: tx.voided,
            tags: &tx.tags,
            for_name: tx.for_name.as_deref(),
            postings,
        })
    }
}

/// Kinds in the order of a balance sheet, then the income statement.
fn kind_order(kind: AccountKind) -> u8 {
    match kind {
        AccountKind::Asset => 0,
        AccountKind::Liability => 1,
        AccountKind::Equity => 2,
        AccountKind::Income => 3,
        AccountKind::Expense => 4,
    }
}

/// The text before the first entry (first page only). `first_date` dates the
/// directives that must precede every posting (Beancount's `open`).
pub fn preamble(format: ExportFormat, book: &Book, first_date: LocalDate, out: &mut String) {
    match format {
        ExportFormat::Csv => csv::preamble(out),
        ExportFormat::Hledger => hledger::preamble(book, out),
        ExportFormat::Beancount => beancount::preamble(book, first_date, out),
    }
}

/// One entry's text.
pub fn render(format: ExportFormat, book: &Book, names: &Names, entry: &Entry<'_>, out: &mut String) {
    match format {
        ExportFormat::Csv => csv::entry(book, entry, out),
        ExportFormat::Hledger => hledger::entry(book, names, entry, out),
        ExportFormat::Beancount => beancount::entry(book, names, entry, out),
    }
}

/// Each account's name in a journal format (index as in `Book::accounts`).
pub type Names = Vec<String>;

/// The account names of `format` (none for CSV).
pub fn names_for(format: ExportFormat, book: &Book) -> Names {
    match format {
        ExportFormat::Csv => Vec::new(),
        ExportFormat::Hledger => hledger::account_names(book),
        ExportFormat::Beancount => beancount::account_names(book),
    }
}

/// Make `names` unique: a later account whose name an earlier one already has gets
/// the first 8 hex digits of its id appended with `sep` (a fixed order, so stable).
/// Only the names `counted` takes part; the others are kept as they are.
fn unique_where(book: &Book, names: Vec<String>, sep: &str, counted: impl Fn(usize) -> bool) -> Names {
    let mut seen = std::collections::BTreeSet::new();
    names
        .into_iter()
        .zip(&book.accounts)
        .enumerate()
        .map(|(i, (name, a))| {
            if !counted(i) {
                return name;
            }
            let id = a.id.as_uuid().simple().to_string();
            let mut candidate = name.clone();
            let mut digits = 8;
            while !seen.insert(candidate.to_lowercase()) {
                candidate = format!("{name}{sep}{}", &id[..digits.min(id.len())]);
                digits = (digits + 4).min(32);
            }
            candidate
        })
        .collect()
}

/// Each account's journal name, nested: `root` is the kind's top-level account (by
/// account index) and `component` an account name as the format writes it; a child
/// category is `<its parent's name>:<component>`, so `expenses:식비:외식` and the
/// parent's balance includes its children's (decision 047). Unique as [`unique_where`]
/// says: the top-level names first, then every name with the children under them.
pub(crate) fn nested_names(
    book: &Book,
    root: impl Fn(usize) -> &'static str,
    component: impl Fn(&str) -> String,
    sep: &str,
) -> Names {
    let parts: Vec<String> = book.accounts.iter().map(|a| component(&a.name)).collect();
    let top: Vec<String> = parts
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{}:{c}", root(i)))
        .collect();
    let top = unique_where(book, top, sep, |i| book.parent_of(i).is_none());
    let names = (0..book.accounts.len())
        .map(|i| match book.parent_of(i) {
            Some(p) => format!("{}:{}", top[p], parts[i]),
            None => top[i].clone(),
        })
        .collect();
    unique_where(book, names, sep, |_| true)
}

/// Text on one line: line breaks and tabs become spaces (a memo is one line in every format).
pub(crate) fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
