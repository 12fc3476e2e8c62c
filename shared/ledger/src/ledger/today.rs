//! Balances as write results show them: as of today in the vault's time zone, with
//! the net of entries dated after today apart (`scheduled`), the same meaning as in
//! `list_accounts` and `get_balances`.
//!
//! Derived from what a write reads anyway: each account's running balance (all
//! dates, from the catalogue) less the daily rollups dated after today, which are
//! read beside the catalogue in the same round (one more query, no more rounds).

use std::collections::BTreeMap;

use super::resolve::{Catalogue, catalogue, join2};
use super::writer::TxChange;
use super::{AccountBalance, Ledger};
use crate::api::{Field, LedgerError, Reason};
use crate::stored::account::AccountRec;
use crate::stored::idempotency::StoredBalance;
use crate::stored::member::Membership;
use dochiya_domain::{AccountId, Currency, LocalDate, Money};

/// Each account's net (debit-positive) of entries dated after today, as read.
#[derive(Debug, Clone)]
pub(super) struct Later {
    /// Today in the vault's zone when it was read.
    pub today: LocalDate,
    nets: BTreeMap<AccountId, i64>,
}

impl Later {
    /// The daily rollups after today (one query).
    pub async fn read(ledger: &Ledger, m: &Membership) -> Result<Self, LedgerError> {
        let today = ledger.today_in(m);
        let nets = super::nets::later_than(ledger, m, today).await?;
        Ok(Later { today, nets })
    }

    /// The account's balance after this write moved it by `moved` (debit-positive,
    /// every date), of which `moved_later` is dated after today.
    pub fn balance(
        &self,
        a: &AccountRec,
        moved: i64,
        moved_later: i64,
    ) -> Result<StoredBalance, LedgerError> {
        let range = || {
            LedgerError::invalid(
                Field::Total,
                Reason::BalanceWouldOverflow {
                    account: Some(a.name.clone()),
                },
            )
        };
        let total = a.net.checked_add(moved).ok_or_else(range)?;
        let later = self
            .nets
            .get(&a.account_id)
            .copied()
            .unwrap_or(0)
            .checked_add(moved_later)
            .ok_or_else(range)?;
        let until_today = total.checked_sub(later).ok_or_else(range)?;
        Ok(StoredBalance {
            account_id: a.account_id,
            name: a.name.clone(),
            balance: a.kind.natural(until_today).ok_or_else(range)?,
            scheduled: a.kind.natural(later).ok_or_else(range)?,
        })
    }

    /// [`Later::balance`] named as results name accounts: an archived one by its handle
    /// (docs/tools.md, "Archived accounts have handles"), so two accounts never answer
    /// by one name.
    pub fn named(
        &self,
        cat: &Catalogue,
        a: &AccountRec,
        moved: i64,
        moved_later: i64,
    ) -> Result<StoredBalance, LedgerError> {
        let mut b = self.balance(a, moved, moved_later)?;
        cat.shown_name(a).clone_into(&mut b.name);
        Ok(b)
    }

    /// The balances of `accounts` (in that order) after `change`, if any.
    pub fn after(
        &self,
        cat: &Catalogue,
        accounts: &[AccountId],
        change: Option<&TxChange<'_>>,
    ) -> Result<Vec<StoredBalance>, LedgerError> {
        let (nets, later) = match change {
            Some(c) => (c.nets()?, c.nets_after(self.today)?),
            None => (BTreeMap::new(), BTreeMap::new()),
        };
        accounts
            .iter()
            .map(|id| {
                let a = cat
                    .by_id(*id)
                    .ok_or_else(|| LedgerError::internal("a posting's account is missing"))?;
                let get = |m: &BTreeMap<AccountId, i64>| m.get(id).copied().unwrap_or(0);
                self.named(cat, a, get(&nets), get(&later))
            })
            .collect()
    }
}

/// The catalogue and the entries after today, in one round.
pub(super) async fn catalogue_today(
    ledger: &Ledger,
    m: &Membership,
) -> Result<(Catalogue, Later), LedgerError> {
    // Boxed: inline, the second query would make every write's future (and its
    // stack use, unoptimized) about half again as large.
    let (cat, later) = Box::pin(join2(catalogue(ledger, m), Later::read(ledger, m))).await;
    Ok((cat?, later?))
}

/// Every account a transaction's postings touch, once each, in posting order.
pub(super) fn accounts_of<'a>(
    postings: impl IntoIterator<Item = &'a crate::stored::entry::PostingRec>,
) -> Vec<AccountId> {
    let mut ids: Vec<AccountId> = Vec::new();
    for p in postings {
        if !ids.contains(&p.account_id) {
            ids.push(p.account_id);
        }
    }
    ids
}

/// Stored balances as results show them.
pub(super) fn shown(balances: &[StoredBalance], currency: Currency) -> Vec<AccountBalance> {
    balances
        .iter()
        .map(|b| AccountBalance {
            account_id: b.account_id,
            account: b.name.clone(),
            balance: Money::from_minor(b.balance, currency),
            scheduled: (b.scheduled != 0).then(|| Money::from_minor(b.scheduled, currency)),
        })
        .collect()
}
