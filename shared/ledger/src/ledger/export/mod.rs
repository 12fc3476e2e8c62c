//! `export_transactions`: a vault's entries as text in a format the ledger world
//! reads (CSV for spreadsheets, hledger and Beancount journals), a page at a time.
//!
//! A page is at most [`MAX_PAGE_ENTRIES`] entries or about [`MAX_PAGE_BYTES`] of
//! text, oldest first; the pages of one export, concatenated in order, are one
//! file (the first page alone carries the format's preamble: CSV's byte-order mark
//! and header, a journal's directives). Each format is its own module and renders
//! from the same [`Book`]: the vault's accounts and one entry at a time.
//! docs/decisions/035-export-and-backup.md says why the formats look as they do.

mod beancount;
mod csv;
mod hledger;

use std::collections::BTreeMap;

use super::codec::{Membership, TxRec, content_hash};
use super::cursor;
use super::resolve::{Catalogue, catalogue, join2};
use super::roster::in_vault;
use super::*;
use crate::domain::{AccountId, AccountKind, Currency, Money};
use crate::keys;
use crate::store::Query;

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
pub(super) struct BookAccount {
    pub id: AccountId,
    /// The name that means it in every tool (an archived account's handle).
    pub name: String,
    pub kind: AccountKind,
    /// The parent account's name, once accounts have parents (empty until then).
    pub parent: Option<String>,
}

/// What every format renders from: the vault and its accounts.
#[derive(Debug, Clone)]
pub(super) struct Book {
    pub vault_name: String,
    pub currency: Currency,
    /// Accounts by kind, then name, then id: a fixed order, so generated names are stable.
    pub accounts: Vec<BookAccount>,
    index: BTreeMap<AccountId, usize>,
}

/// One entry as the formats see it.
#[derive(Debug, Clone)]
pub(super) struct Entry<'a> {
    pub id: TransactionId,
    pub date: LocalDate,
    pub memo: &'a str,
    pub voided: bool,
    /// The entry's tags, once entries have tags (empty until then).
    pub tags: &'a [String],
    /// (index into `Book::accounts`, signed amount: debits positive).
    pub postings: Vec<(usize, Money)>,
}

impl Book {
    fn new(m: &Membership, cat: &Catalogue) -> Book {
        let mut accounts: Vec<BookAccount> = cat
            .accounts
            .iter()
            .map(|a| BookAccount {
                id: a.account_id,
                name: cat.shown_name(a).to_string(),
                kind: a.kind,
                parent: None,
            })
            .collect();
        accounts.sort_by(|a, b| {
            (kind_order(a.kind), &a.name, a.id.to_string()).cmp(&(
                kind_order(b.kind),
                &b.name,
                b.id.to_string(),
            ))
        });
        let index = accounts.iter().enumerate().map(|(i, a)| (a.id, i)).collect();
        Book {
            vault_name: m.name.clone(),
            currency: m.currency,
            accounts,
            index,
        }
    }

    fn entry<'a>(&self, tx: &'a TxRec) -> Result<Entry<'a>, LedgerError> {
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
            tags: &[],
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
fn preamble(format: ExportFormat, book: &Book, first_date: LocalDate, out: &mut String) {
    match format {
        ExportFormat::Csv => csv::preamble(out),
        ExportFormat::Hledger => hledger::preamble(book, out),
        ExportFormat::Beancount => beancount::preamble(book, first_date, out),
    }
}

/// One entry's text.
fn render(format: ExportFormat, book: &Book, names: &Names, entry: &Entry<'_>, out: &mut String) {
    match format {
        ExportFormat::Csv => csv::entry(book, entry, out),
        ExportFormat::Hledger => hledger::entry(book, names, entry, out),
        ExportFormat::Beancount => beancount::entry(book, names, entry, out),
    }
}

/// Each account's name in a journal format (index as in `Book::accounts`).
pub(super) type Names = Vec<String>;

fn names_for(format: ExportFormat, book: &Book) -> Names {
    match format {
        ExportFormat::Csv => Vec::new(),
        ExportFormat::Hledger => hledger::account_names(book),
        ExportFormat::Beancount => beancount::account_names(book),
    }
}

/// Make `names` unique: a later account whose name an earlier one already has gets
/// the first 8 hex digits of its id appended with `sep` (a fixed order, so stable).
pub(super) fn unique(book: &Book, names: Vec<String>, sep: &str) -> Names {
    let mut seen = std::collections::BTreeSet::new();
    names
        .into_iter()
        .zip(&book.accounts)
        .map(|(name, a)| {
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

pub(super) async fn export_transactions(
    ledger: &Ledger,
    who: &PersonId,
    request: ExportRequest,
) -> Result<ExportPage, LedgerError> {
    if let (Some(f), Some(t)) = (request.from, request.to) {
        LedgerError::check_range(&f, &t)?;
    }
    let request = &request;
    in_vault(ledger, who, request.vault.as_deref(), |v| async move {
        page(ledger, request, v.m).await
    })
    .await
}

async fn page(ledger: &Ledger, request: &ExportRequest, m: Membership) -> Result<ExportPage, LedgerError> {
    let filter = content_hash(&[
        "export",
        request.format.as_str(),
        &request.from.map(|d| d.to_string()).unwrap_or_default(),
        &request.to.map(|d| d.to_string()).unwrap_or_default(),
    ]);
    let after = request
        .cursor
        .as_deref()
        .filter(|c| !c.trim().is_empty())
        .map(|c| cursor::decode(c, m.vault_id, &filter))
        .transpose()?;
    let first_page = after.is_none();
    let query = Query {
        pk: keys::vault_pk(m.vault_id),
        range: keys::transactions_between(request.from, request.to),
        forward: true,
        limit: MAX_PAGE_ENTRIES,
        after,
    };
    let (items, cat) = join2(ledger.store.query(&query), catalogue(ledger, &m)).await;
    let (items, cat) = (items?, cat?);
    let book = Book::new(&m, &cat);
    let names = names_for(request.format, &book);
    let mut text = String::new();
    if first_page {
        let first = items.items.first().map(TxRec::from_item).transpose()?;
        let first_date = request
            .from
            .or(first.map(|t| t.date))
            .unwrap_or_else(|| m.today(ledger));
        preamble(request.format, &book, first_date, &mut text);
    }
    let (mut count, mut first, mut last, mut last_sk) = (0u32, None, None, None);
    let mut next = items.last_sk.clone();
    let mut piece = String::new();
    for item in &items.items {
        let tx = TxRec::from_item(item)?;
        piece.clear();
        render(request.format, &book, &names, &book.entry(&tx)?, &mut piece);
        if count > 0 && text.len() + piece.len() > MAX_PAGE_BYTES {
            next = last_sk;
            break;
        }
        text.push_str(&piece);
        count += 1;
        first = first.or(Some(tx.date));
        last = Some(tx.date);
        last_sk = Some(item.key.sk.clone());
    }
    let today = m.today(ledger);
    let from = request.from.or(first).unwrap_or(today);
    Ok(ExportPage {
        vault: m.vault_ref(),
        format: request.format,
        from,
        to: request.to.or(last).unwrap_or(from.max(today)),
        count,
        text,
        next_cursor: next.map(|sk| cursor::encode(m.vault_id, &filter, &sk)),
    })
}

/// Text on one line: line breaks and tabs become spaces (a memo is one line in every format).
pub(super) fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
