//! `export_transactions`: a vault's entries as text in a format the ledger world
//! reads (CSV for spreadsheets, hledger and Beancount journals), a page at a time.
//!
//! This module reads a page of the vault's entries and its accounts; the formats
//! themselves, the page bounds and the request and page types are in
//! [`crate::portability::export`]. docs/decisions/035-export-and-backup.md says why the formats look
//! as they do.

use crate::ledger::cursor;
use crate::ledger::resolve::{Catalogue, catalogue, join2};
use crate::ledger::roster::in_vault;
use crate::ledger::*;
use crate::stored::entry::TxRec;
use crate::stored::member::Membership;
use crate::stored::table::content_hash;
use crate::stored::{entry, table};
use dochiya_store::Query;

use crate::ledger::{groups, household};
use crate::portability::export::{Book, BookAccount, names_for, preamble, render};
use crate::portability::export::{ExportPage, ExportRequest, MAX_PAGE_BYTES, MAX_PAGE_ENTRIES};

/// The vault's book: its accounts under the names that mean them in every tool.
fn book_of(m: &Membership, cat: &Catalogue, owners: &std::collections::HashMap<String, String>) -> Book {
    let accounts = cat
        .accounts
        .iter()
        .map(|a| BookAccount {
            id: a.account_id,
            name: cat.shown_name(a).to_string(),
            kind: a.kind,
            parent: groups::parent_name(cat, a).zip(a.parent),
            owner: a.owner.as_ref().and_then(|o| owners.get(o).cloned()),
        })
        .collect();
    Book::new(m.name.clone(), m.currency, accounts)
}

pub(in crate::ledger) async fn export_transactions(
    ledger: &Ledger,
    who: &PersonId,
    request: ExportRequest,
) -> Result<ExportPage, LedgerError> {
    if let (Some(f), Some(t)) = (request.from, request.to) {
        LedgerError::check_range(&f, &t)?;
    }
    let request = &request;
    in_vault(ledger, who, request.vault.as_deref(), |v| async move {
        page(ledger, who, request, v.membership).await
    })
    .await
}

async fn page(
    ledger: &Ledger,
    who: &PersonId,
    request: &ExportRequest,
    m: Membership,
) -> Result<ExportPage, LedgerError> {
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
        pk: table::vault_pk(m.vault_id),
        range: entry::transactions_between(request.from, request.to),
        forward: true,
        limit: MAX_PAGE_ENTRIES,
        after,
    };
    let (items, cat) = join2(ledger.store.query(&query), catalogue(ledger, &m)).await;
    let (items, cat) = (items?, cat?);
    // Owners by name (one more read, only when an account has one).
    let owners = household::owner_labels(ledger, who, &m, &cat.accounts).await?;
    let book = book_of(&m, &cat, &owners);
    let names = names_for(request.format, &book);
    let mut text = String::new();
    if first_page {
        let first = items.items.first().map(TxRec::from_item).transpose()?;
        let first_date = request
            .from
            .or(first.map(|t| t.date))
            .unwrap_or_else(|| ledger.today_in(&m));
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
    let today = ledger.today_in(&m);
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

impl Ledger {
    /// The entries of a period as CSV, hledger or Beancount text, oldest first, a page at a time.
    pub async fn export_transactions(
        &self,
        who: &PersonId,
        request: ExportRequest,
    ) -> Result<ExportPage, LedgerError> {
        export_transactions(self, who, request).await
    }
}
