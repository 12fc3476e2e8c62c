//! A card's bills (decision 040): which cards may have a billing cycle, and each bill
//! computed from its cycle, its installment purchases and its payments. The calendar
//! rules are pure (`domain::billing`); this module reads what they need. The tools'
//! operations on cards are in `cards`; `list_accounts` shows each card's next bill.

pub(super) mod bill;
mod performance;

pub(super) use performance::performance;

use std::collections::BTreeMap;

use super::resolve::Catalogue;
use super::*;
use crate::api::{Field, Reason, Total};
use crate::stored::member::Membership;
use dochiya_domain::{AccountId, AccountKind, Money};

/// Refuse billing on an account that is not a liability (only cards have bills).
pub(super) fn check_billable(name: &str, kind: AccountKind) -> Result<(), LedgerError> {
    if kind == AccountKind::Liability {
        return Ok(());
    }
    Err(LedgerError::invalid(
        Field::Card("billing"),
        Reason::BillingNotLiability {
            account: name.to_string(),
            kind,
        },
    ))
}

/// Each live card's next bill (paid on or after `today`), in one read round; empty,
/// and nothing read, when no live card has billing.
pub(super) async fn next_bills(
    ledger: &Ledger,
    m: &Membership,
    cat: &Catalogue,
    today: dochiya_domain::LocalDate,
) -> Result<BTreeMap<AccountId, NextBill>, LedgerError> {
    let wanted: Vec<bill::Wanted> = cat
        .accounts
        .iter()
        .filter(|a| !a.archived)
        .filter_map(|a| a.billing.map(|b| (a.account_id, b, b.next_bill(today))))
        .collect();
    if wanted.is_empty() {
        return Ok(BTreeMap::new());
    }
    let reads = bill::read(ledger, m, &wanted).await?;
    wanted
        .iter()
        .map(|w| {
            let b = bill::compute(&reads, cat, *w, m.currency)?;
            Ok((
                w.0,
                NextBill {
                    due_date: b.dates.due,
                    amount: Money::from_minor(b.total, m.currency),
                    remaining: Money::from_minor(remaining(&b)?, m.currency),
                    installments_left: installments_left(&b, m.currency),
                },
            ))
        })
        .collect()
}

/// What is left of a bill once payments settled it.
pub(super) fn remaining(b: &bill::Computed) -> Result<i64, LedgerError> {
    b.total
        .checked_sub(b.paid)
        .ok_or_else(|| LedgerError::out_of_range(Total::CardBill))
}

/// A bill's 할부 left after it, as results show it.
pub(super) fn installments_left(b: &bill::Computed, currency: dochiya_domain::Currency) -> InstallmentsLeft {
    InstallmentsLeft {
        amount: Money::from_minor(b.installments_left.0, currency),
        count: b.installments_left.1,
    }
}
