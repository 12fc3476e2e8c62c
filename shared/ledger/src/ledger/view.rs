//! A stored transaction as results show it (`TxRec` -> `Transaction`), its earlier
//! versions, its direction note and the "no such transaction" error: what the write
//! and read paths (record, edit, batch, idempotency, read) all show the same way.

use super::resolve::{Catalogue, catalogue, join2};
use super::*;
use crate::api::Entity;
use crate::stored::entry;
use crate::stored::entry::{PostingRec, TxRec, VersionRec};
use crate::stored::member::Membership;
use dochiya_domain::{Currency, Money};

/// How the entry reads when its direction is unusual: the first pair of a `from` and a
/// `to` line, in line order, whose kinds make one (`domain::reading`); one note per
/// entry, so a split with several such pairs names the first.
pub(super) fn direction_note(tx: &TxRec, cat: &Catalogue) -> Option<DirectionNote> {
    let account = |p: &PostingRec| cat.by_id(p.account_id);
    let to: Vec<_> = tx
        .postings
        .iter()
        .filter(|p| p.amount > 0)
        .filter_map(account)
        .collect();
    tx.postings
        .iter()
        .filter(|p| p.amount < 0)
        .filter_map(account)
        .flat_map(|f| to.iter().map(move |t| (f, *t)))
        .find_map(|(f, t)| {
            dochiya_domain::reading(f.kind, t.kind).map(|reading| DirectionNote {
                reading,
                from: f.name.clone(),
                to: t.name.clone(),
            })
        })
}

/// A stored transaction as results show it; account names from the catalogue when given
/// (current names), else as recorded.
pub(super) fn view(tx: &TxRec, cat: Option<&Catalogue>, currency: Currency) -> Transaction {
    Transaction {
        transaction_id: tx.id,
        date: tx.date,
        memo: tx.memo.clone(),
        voided: tx.voided,
        recorded_by: tx.recorded_by.clone(),
        postings: tx
            .postings
            .iter()
            .map(|p| Posting {
                account_id: p.account_id,
                account: cat
                    .and_then(|c| c.by_id(p.account_id))
                    .map(|a| a.name.clone())
                    .unwrap_or_else(|| p.name.clone()),
                amount: Money::from_minor(p.amount, currency),
            })
            .collect(),
        version: tx.version,
        history: Vec::new(),
        void_reason: tx.voided.then(|| tx.void_reason.clone().unwrap_or_default()),
        voided_at: tx
            .voided_at
            .filter(|_| tx.voided)
            .and_then(|s| jiff::Timestamp::from_second(s).ok()),
        voided_by: tx.voided_by.clone().filter(|_| tx.voided),
        recurring: tx.recurring.clone(),
        installments: tx.installments.map(|p| p.count.count()),
        preview: false,
        tags: tx.tags.clone(),
        for_whom: tx.for_name.clone(),
        operation_id: tx.operation_id,
        recorded_at: (tx.recorded_at_ms != 0)
            .then(|| jiff::Timestamp::from_millisecond(tx.recorded_at_ms).ok())
            .flatten(),
    }
}

/// "No such transaction" in this vault.
pub(super) fn not_found(id: TransactionId, m: &Membership) -> LedgerError {
    LedgerError::NotFound {
        what: Entity::Transaction,
        name: id.to_string(),
        within: Some(m.described()),
        candidates: vec![],
    }
}

/// Earlier versions as results show them, oldest first.
pub(super) fn versions(
    history: &[VersionRec],
    cat: Option<&Catalogue>,
    currency: Currency,
) -> Vec<TransactionVersion> {
    let mut out: Vec<TransactionVersion> = history
        .iter()
        .map(|h| {
            let t = view(&h.tx, cat, currency);
            TransactionVersion {
                version: h.tx.version,
                date: t.date,
                memo: t.memo,
                postings: t.postings,
                replaced_at: jiff::Timestamp::from_millisecond(h.replaced_at_ms)
                    .unwrap_or(jiff::Timestamp::UNIX_EPOCH),
            }
        })
        .collect();
    out.sort_by_key(|v| v.version);
    out
}

/// A transaction by id in this vault, with the vault's accounts (one read round).
pub(super) async fn transaction_in(
    ledger: &Ledger,
    m: &crate::stored::member::Membership,
    id: TransactionId,
) -> Result<(TxRec, super::resolve::Catalogue), LedgerError> {
    let (item, cat) = join2(
        ledger.store.get(&entry::transaction_by_id(m.vault_id, id)),
        catalogue(ledger, m),
    )
    .await;
    let cat = cat?;
    match item? {
        Some(item) => Ok((TxRec::from_item(&item)?, cat)),
        None => Err(not_found(id, m)),
    }
}
