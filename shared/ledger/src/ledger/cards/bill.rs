//! One card bill from two reads whatever the card's history: the vault's entries from
//! the period's first day through the due date (one `T#` range), and the installment
//! purchases still open in the bill's month (one `IP#` range, decision 040).

use super::super::codec::{Membership, TxRec};
use super::super::installments::OpenPurchase;
use super::super::resolve::{Catalogue, join2, query_all};
use super::super::*;
use crate::domain::{AccountId, AccountKind, BillDates, Billing, Money, YearMonth};
use crate::keys;

/// A bill as computed, before it is named for a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Computed {
    pub dates: BillDates,
    pub items: Vec<BillItem>,
    pub total: i64,
    pub paid: i64,
}

/// One card's bill to compute: the card, its cycle, the month it is paid in.
pub(super) type Wanted = (AccountId, Billing, YearMonth);

/// What the two reads found, for any number of bills.
pub(super) struct Reads {
    txs: Vec<TxRec>,
    open: Vec<OpenPurchase>,
}

/// The two reads covering every wanted bill, in one round: the union of their date
/// spans (period start through due date) and the purchases open from the earliest month.
pub(super) async fn read(ledger: &Ledger, m: &Membership, wanted: &[Wanted]) -> Result<Reads, LedgerError> {
    let bills: Vec<BillDates> = wanted.iter().map(|(_, b, month)| b.bill(*month)).collect();
    let (Some(from), Some(to), Some(month)) = (
        bills.iter().map(|b| b.from).min(),
        bills.iter().map(|b| b.due).max(),
        bills.iter().map(|b| b.month).min(),
    ) else {
        return Ok(Reads {
            txs: vec![],
            open: vec![],
        });
    };
    let store = ledger.store.as_ref();
    let pk = keys::vault_pk(m.vault_id);
    let (txs, open) = join2(
        query_all(
            store,
            pk.clone(),
            keys::transactions_between(Some(from), Some(to)),
            true,
        ),
        query_all(store, pk, keys::installments_open_in(month), true),
    )
    .await;
    let txs = txs?
        .iter()
        .filter(|i| keys::is_transaction(&i.key.sk))
        .map(TxRec::from_item)
        .filter(|t| !t.as_ref().is_ok_and(|t| t.voided))
        .collect::<Result<Vec<_>, _>>()?;
    let open = open?
        .iter()
        .map(OpenPurchase::from_item)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Reads { txs, open })
}

/// Whether `tx` pays a card: money onto it from an asset (a bank account, cash).
fn is_payment(tx: &TxRec, cat: &Catalogue) -> bool {
    tx.postings.iter().any(|p| {
        p.amount < 0
            && cat
                .by_id(p.account_id)
                .is_some_and(|a| a.kind == AccountKind::Asset)
    })
}

/// The bill of `card` paid in `month` from `reads`: each charge (positive) and refund
/// (negative) dated in the period, each installment part the bill carries, and the
/// payments dated after the period closed through the due date.
pub(super) fn compute(
    reads: &Reads,
    cat: &Catalogue,
    (card, billing, month): Wanted,
    currency: crate::domain::Currency,
) -> Result<Computed, LedgerError> {
    let dates = billing.bill(month);
    let money = |v: i64| Money::from_minor(v, currency);
    let mut items = Vec::new();
    let mut paid: i64 = 0;
    for tx in reads
        .txs
        .iter()
        .filter(|t| t.date >= dates.from && t.date <= dates.due)
    {
        // Debit-positive: a charge credits the card.
        let on_card: i64 = tx
            .postings
            .iter()
            .filter(|p| p.account_id == card)
            .map(|p| p.amount)
            .sum();
        if on_card == 0 || tx.installments.is_some_and(|p| p.card == card) {
            continue;
        }
        let payment = on_card > 0 && is_payment(tx, cat);
        if tx.date > dates.to {
            if payment {
                paid = paid.checked_add(on_card).ok_or_else(overflow)?;
            }
        } else if !payment {
            items.push(BillItem {
                transaction_id: tx.id,
                date: tx.date,
                memo: tx.memo.clone(),
                amount: money(on_card.checked_neg().ok_or_else(overflow)?),
                part: None,
            });
        }
    }
    for p in reads.open.iter().filter(|p| p.card == card) {
        let first = billing.bill_of(p.date);
        let (Some(k), Some(parts)) = (p.count.part_on(first, month), p.count.split(p.amount)) else {
            continue;
        };
        items.push(BillItem {
            transaction_id: p.transaction_id,
            date: p.date,
            memo: p.memo.clone(),
            amount: money(parts[usize::from(k) - 1]),
            part: Some((k, p.count.count())),
        });
    }
    items.sort_by_key(|i| (i.date, i.transaction_id));
    let total = items
        .iter()
        .try_fold(0i64, |acc, i| acc.checked_add(i.amount.minor()))
        .ok_or_else(overflow)?;
    Ok(Computed {
        dates,
        items,
        total,
        paid,
    })
}

fn overflow() -> LedgerError {
    LedgerError::out_of_range("the card bill")
}
