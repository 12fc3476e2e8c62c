//! One card bill from two reads whatever the card's history before it: the vault's
//! entries from the period's first day on (one `T#` range: the period, the payments
//! after it, and what is dated later), and the installment purchases still open in
//! the bill's month (one `IP#` range, decision 040). The card's balance (its account
//! item) stands for everything before the period, so payments settle bills in order
//! without reading the history (decision 047).

use super::super::installments::OpenPurchase;
use super::super::resolve::{Catalogue, join2, query_all};
use super::super::*;
use crate::api::Total;
use crate::stored::entry::TxRec;
use crate::stored::member::Membership;
use crate::stored::{entry, table};
use dochiya_domain::{AccountId, AccountKind, BillDates, Billing, Money, YearMonth};

/// A bill as computed, before it is named for a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::ledger) struct Computed {
    pub dates: BillDates,
    pub items: Vec<BillItem>,
    pub total: i64,
    /// What of `total` the card's payments settled, oldest bill first.
    pub paid: i64,
    /// The part of `paid` that came from payments dated after the due date.
    pub paid_late: i64,
    /// The card's 할부 parts on later bills: (amount, purchases).
    pub installments_left: (i64, u32),
}

/// One card's bill to compute: the card, its cycle, the month it is paid in.
pub(in crate::ledger) type Wanted = (AccountId, Billing, YearMonth);

/// What the two reads found, for any number of bills.
pub(in crate::ledger) struct Reads {
    pub(super) txs: Vec<TxRec>,
    open: Vec<OpenPurchase>,
}

/// The two reads covering every wanted bill, in one round: the entries from the
/// earliest period's first day on, and the purchases open from the earliest month.
pub(in crate::ledger) async fn read(
    ledger: &Ledger,
    m: &Membership,
    wanted: &[Wanted],
) -> Result<Reads, LedgerError> {
    let bills: Vec<BillDates> = wanted.iter().map(|(_, b, month)| b.bill(*month)).collect();
    let (Some(from), Some(month)) = (
        bills.iter().map(|b| b.from).min(),
        bills.iter().map(|b| b.month).min(),
    ) else {
        return Ok(Reads {
            txs: vec![],
            open: vec![],
        });
    };
    let store = ledger.store.as_ref();
    let pk = table::vault_pk(m.vault_id);
    let (txs, open) = join2(
        query_all(
            store,
            pk.clone(),
            entry::transactions_between(Some(from), None),
            true,
        ),
        query_all(store, pk, entry::installments_open_in(month), true),
    )
    .await;
    let txs = txs?
        .iter()
        .filter(|i| entry::is_transaction(&i.key.sk))
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

/// Sums of the card's entries after the period that settling needs (see [`settle`]).
#[derive(Default)]
struct After {
    /// What was charged to the card (less refunds) after the period closed, any date:
    /// not yet billed by this bill.
    charged: i64,
    /// Payments dated after the due date.
    paid_late: i64,
}

/// The bill of `card` paid in `month` from `reads`: each charge (positive) and refund
/// (negative) dated in the period, each installment part the bill carries, what the
/// card's payments settled of it, and the 할부 left after it.
pub(in crate::ledger) fn compute(
    reads: &Reads,
    cat: &Catalogue,
    (card, billing, month): Wanted,
    currency: dochiya_domain::Currency,
) -> Result<Computed, LedgerError> {
    let dates = billing.bill(month);
    let money = |v: i64| Money::from_minor(v, currency);
    let mut items = Vec::new();
    let mut after = After::default();
    for tx in reads.txs.iter().filter(|t| t.date >= dates.from) {
        // Debit-positive: a charge credits the card.
        let on_card: i64 = tx
            .postings
            .iter()
            .filter(|p| p.account_id == card)
            .map(|p| p.amount)
            .sum();
        if on_card == 0 {
            continue;
        }
        let payment = on_card > 0 && is_payment(tx, cat);
        // An installment purchase is billed in parts, below; it still counts whole
        // among what was charged after the period.
        let parts = tx.installments.is_some_and(|p| p.card == card);
        if tx.date > dates.to {
            if !payment {
                after.charged = after.charged.checked_sub(on_card).ok_or_else(overflow)?;
            } else if tx.date > dates.due {
                after.paid_late = after.paid_late.checked_add(on_card).ok_or_else(overflow)?;
            }
        } else if !payment && !parts {
            items.push(BillItem {
                transaction_id: tx.id,
                date: tx.date,
                memo: tx.memo.clone(),
                amount: money(on_card.checked_neg().ok_or_else(overflow)?),
                part: None,
            });
        }
    }
    let mut left_within: i64 = 0;
    let mut left = (0i64, 0u32);
    for p in reads.open.iter().filter(|p| p.card == card) {
        let first = billing.bill_of(p.date);
        let Some(parts) = p.count.split(p.amount) else {
            continue;
        };
        if let Some(k) = p.count.part_on(first, month) {
            items.push(BillItem {
                transaction_id: p.transaction_id,
                date: p.date,
                memo: p.memo.clone(),
                amount: money(parts[usize::from(k) - 1]),
                part: Some((k, p.count.count())),
            });
        }
        let later = usize::from(p.count.parts_after(first, month));
        if later == 0 {
            continue;
        }
        let owed = parts[parts.len() - later..]
            .iter()
            .try_fold(0i64, |acc, v| acc.checked_add(*v))
            .ok_or_else(overflow)?;
        left = (left.0.checked_add(owed).ok_or_else(overflow)?, left.1 + 1);
        if p.date <= dates.to {
            left_within = left_within.checked_add(owed).ok_or_else(overflow)?;
        }
    }
    items.sort_by_key(|i| (i.date, i.transaction_id));
    let total = items
        .iter()
        .try_fold(0i64, |acc, i| acc.checked_add(i.amount.minor()))
        .ok_or_else(overflow)?;
    let owed = cat
        .by_id(card)
        .ok_or_else(|| LedgerError::internal("a billed card is missing"))?
        .net
        .checked_neg()
        .ok_or_else(overflow)?;
    let (paid, paid_late) = settle(total, owed, &after, left_within)?;
    Ok(Computed {
        dates,
        items,
        total,
        paid,
        paid_late,
        installments_left: left,
    })
}

/// What the card's payments settled of a bill of `total`, paying the oldest unpaid
/// bill first whatever their dates, and how much of that came after the due date.
///
/// What the bills through this one still owe after every payment in the book is the
/// card's balance (`owed`: everything charged less everything paid) less what was
/// charged after the period (`after.charged`) less the 할부 parts of purchases made
/// by then that later bills carry (`left_within`). The bill is paid for what the
/// payments covered beyond the earlier bills: `total` less that, within 0…`total`.
/// The same with the payments dated after the due date taken back gives what was
/// paid by the due date; the rest was paid late. Nothing before the period is read.
fn settle(total: i64, owed: i64, after: &After, left_within: i64) -> Result<(i64, i64), LedgerError> {
    let unpaid = owed
        .checked_sub(after.charged)
        .and_then(|v| v.checked_sub(left_within))
        .ok_or_else(overflow)?;
    let covered = |unpaid: i64| total.saturating_sub(unpaid).clamp(0, total.max(0));
    let paid = covered(unpaid);
    let by_due = covered(unpaid.checked_add(after.paid_late).ok_or_else(overflow)?);
    Ok((paid, paid - by_due))
}

fn overflow() -> LedgerError {
    LedgerError::out_of_range(Total::CardBill)
}

#[cfg(test)]
mod tests {
    use super::{After, settle};

    fn after(charged: i64, paid_late: i64) -> After {
        After { charged, paid_late }
    }

    /// (total, what the card owes, charged after, 할부 left) → (paid, paid late).
    #[test]
    fn payments_cover_the_oldest_bill_first() {
        let cases = [
            // Nothing paid: the whole card balance is this bill.
            ((50_000, 50_000, after(0, 0), 0), (0, 0)),
            // Paid in full on time; later charges and parts are not this bill's.
            ((50_000, 30_000, after(10_000, 0), 20_000), (50_000, 0)),
            // 30,000 still owed on earlier bills and this one: 20,000 of it paid.
            ((50_000, 30_000, after(0, 0), 0), (20_000, 0)),
            // An earlier bill unpaid (the balance exceeds this bill): nothing left for it.
            ((50_000, 80_000, after(0, 0), 0), (0, 0)),
            // Overpaid: this bill is paid, not more.
            ((50_000, -30_000, after(0, 0), 0), (50_000, 0)),
            // Paid, 12,000 of it after the due date.
            ((50_000, 0, after(0, 12_000), 0), (50_000, 12_000)),
            // 12,000 paid after the due date: 2,000 of it to an older bill, 10,000 late to this one.
            ((50_000, 40_000, after(0, 12_000), 0), (10_000, 10_000)),
            // A bill of refunds only: nothing to pay.
            ((-5_000, -5_000, after(0, 0), 0), (0, 0)),
        ];
        for ((total, owed, a, left), expected) in cases {
            assert_eq!(
                settle(total, owed, &a, left).expect("in range"),
                expected,
                "{total} {owed} {left}"
            );
        }
    }
}
