//! Installment purchases (할부): which entries may be one, and the `IP#` item each
//! keeps beside its transaction so a bill reads the open purchases in one query.
//!
//! The whole amount is spent on the purchase date (the transaction's postings are
//! ordinary); only the card's bills see it in parts. The item is written, moved and
//! deleted by the same atomic write as the transaction (`writer.rs`), so editing or
//! voiding the purchase moves every part.

use std::collections::BTreeMap;

use super::resolve::Catalogue;
use crate::api::{Field, LedgerError, Reason};
use crate::stored::entry;
use crate::stored::entry::{InstallmentPlan, PostingRec, TxRec};
use crate::stored::table::{s, sv};
use dochiya_domain::{AccountId, AccountKind, Installments, LocalDate, Money, TransactionId, VaultId};
use dochiya_store::{Attrs, Item, Key, Value, WriteOp};

/// The argument every refusal here names.
const ARG: Field = Field::Card("installments");

/// The plan of an entry with `installments`: it must be a purchase paid by ONE card
/// (a liability with billing) and large enough for a minor unit per part. A refund
/// (money back onto a card) is always one-time.
pub(in crate::ledger) fn plan_for(
    cat: &Catalogue,
    postings: &[PostingRec],
    count: Installments,
    currency: dochiya_domain::Currency,
) -> Result<InstallmentPlan, LedgerError> {
    let kind = |p: &PostingRec| cat.by_id(p.account_id).map(|a| a.kind);
    let credits: Vec<&PostingRec> = postings.iter().filter(|p| p.amount < 0).collect();
    let card = match credits.as_slice() {
        [one] if kind(one) == Some(AccountKind::Liability) => *one,
        _ => {
            if let Some(card) = postings
                .iter()
                .find(|p| p.amount > 0 && kind(p) == Some(AccountKind::Liability))
            {
                return Err(LedgerError::invalid(
                    ARG,
                    Reason::RefundInInstallments {
                        card: card.name.clone(),
                    },
                ));
            }
            return Err(LedgerError::invalid(ARG, Reason::InstallmentsNotByCard));
        }
    };
    let Some(account) = cat.by_id(card.account_id) else {
        return Err(LedgerError::internal("a posting's account is missing"));
    };
    if account.billing.is_none() {
        return Err(LedgerError::invalid(
            ARG,
            Reason::InstallmentsWithoutBilling {
                card: account.name.clone(),
            },
        ));
    }
    let total = card.amount.checked_neg().unwrap_or(i64::MAX);
    if count.split(total).is_none() {
        return Err(LedgerError::invalid(
            ARG,
            Reason::TooManyParts {
                total: Money::from_minor(total, currency),
                count: count.count(),
                least: Money::from_minor(1, currency),
            },
        ));
    }
    Ok(InstallmentPlan {
        count,
        card: card.account_id,
    })
}

/// An installment purchase as its `IP#` item holds it: all a bill needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct OpenPurchase {
    pub transaction_id: TransactionId,
    pub date: LocalDate,
    pub memo: String,
    pub card: AccountId,
    /// What the card was charged (minor units, positive).
    pub amount: i64,
    pub count: Installments,
}

impl OpenPurchase {
    /// The purchase of `tx`, when it is a live installment purchase.
    fn of(tx: &TxRec) -> Option<OpenPurchase> {
        let plan = tx.installments.filter(|_| !tx.voided)?;
        let charged: i64 = tx
            .postings
            .iter()
            .filter(|p| p.account_id == plan.card)
            .map(|p| p.amount)
            .sum();
        Some(OpenPurchase {
            transaction_id: tx.id,
            date: tx.date,
            memo: tx.memo.clone(),
            card: plan.card,
            amount: charged.saturating_neg(),
            count: plan.count,
        })
    }

    fn key(&self, vault: VaultId) -> Key {
        entry::installment(
            vault,
            self.count.last_bill_bound(self.date),
            self.card,
            self.transaction_id,
        )
    }

    fn to_attrs(&self) -> Attrs {
        BTreeMap::from([
            ("transactionId".into(), sv(self.transaction_id.to_string())),
            ("date".into(), sv(self.date.to_string())),
            ("memo".into(), sv(&self.memo)),
            ("accountId".into(), sv(self.card.to_string())),
            ("amount".into(), Value::N(self.amount)),
            ("count".into(), Value::N(i64::from(self.count.count()))),
        ])
    }

    /// Read an `IP#` item.
    pub fn from_item(item: &Item) -> Result<OpenPurchase, LedgerError> {
        let a = &item.attrs;
        let corrupt =
            |what: &str| LedgerError::internal(format!("stored installment item has an unreadable {what}"));
        Ok(OpenPurchase {
            transaction_id: TransactionId::parse(s(a, "transactionId")?).map_err(|_| corrupt("id"))?,
            date: LocalDate::parse(s(a, "date")?).map_err(|_| corrupt("date"))?,
            memo: s(a, "memo")?.to_string(),
            card: AccountId::parse(s(a, "accountId")?).map_err(|_| corrupt("account id"))?,
            amount: crate::stored::table::n(a, "amount")?,
            count: Installments::new(crate::stored::table::n(a, "count")?).map_err(|_| corrupt("count"))?,
        })
    }
}

/// The `IP#` ops of a change from `old` to `new` (either absent: a create or a void):
/// the old item deleted, the new one put, or one put when the key stays.
pub(in crate::ledger) fn installment_ops(
    vault: VaultId,
    old: Option<&TxRec>,
    new: Option<&TxRec>,
) -> Vec<WriteOp> {
    let old = old.and_then(OpenPurchase::of);
    let new = new.and_then(OpenPurchase::of);
    let mut ops = Vec::new();
    if let Some(o) = &old {
        let key = o.key(vault);
        if new.as_ref().is_none_or(|n| n.key(vault) != key) {
            ops.push(WriteOp::Delete { key, guard: None });
        }
    }
    if let Some(n) = new {
        ops.push(WriteOp::Put {
            item: Item {
                key: n.key(vault),
                attrs: n.to_attrs(),
            },
            guard: None,
        });
    }
    ops
}
