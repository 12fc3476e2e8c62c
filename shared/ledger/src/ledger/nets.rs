//! Every account's net from the rollups: as of a date, dated after today, and the live
//! entries dated after today within a period. The arithmetic the balances, reports,
//! budgets, snapshots and results all read; it reads rollups and, for the later
//! entries, transactions, never another ledger operation.

use std::collections::BTreeMap;

use super::resolve::{Catalogue, catalogue, join2, query_all};
use super::*;
use crate::api::Total;
use crate::stored::member::Membership;
use crate::stored::rollup::Rollup;
use crate::stored::{entry, rollup, table};
use dochiya_domain::{AccountId, AccountKind, Money};
use dochiya_store::Item;

/// Net change per account (debit-positive) summed over rollup items.
fn sum_rollups(
    items: &[Item],
    is_rollup: fn(&str) -> bool,
    into: &mut BTreeMap<AccountId, i64>,
) -> Result<(), LedgerError> {
    for item in items.iter().filter(|i| is_rollup(&i.key.sk)) {
        let r = Rollup::from_attrs(&item.attrs)?;
        let slot = into.entry(r.account_id).or_insert(0);
        *slot = slot.checked_add(r.net).ok_or_else(|| {
            LedgerError::out_of_range(Total::BalanceOf {
                account: r.account_id,
            })
        })?;
    }
    Ok(())
}

/// The catalogue and every account's debit-positive net at the end of `date`.
pub(super) async fn nets_at(
    ledger: &Ledger,
    m: &Membership,
    date: LocalDate,
) -> Result<(Catalogue, BTreeMap<AccountId, i64>), LedgerError> {
    let (cat, nets, _) = nets_and_later(ledger, m, date, false).await?;
    Ok((cat, nets))
}

/// As [`nets_at`]; with `later`, also each account's net of entries dated after
/// `date`.
///
/// Counted back from the running balance each account item keeps (every entry, dated
/// later included): the net at `date` is that balance less what moved after it, the
/// rest of its month by day and every later month by month. One round: two queries
/// for a date in this month or later, three before it; it reads what moved after
/// `date` only, so today's balances cost the same in a ten-year book as in a new one
/// (decision 062).
pub(super) async fn nets_and_later(
    ledger: &Ledger,
    m: &Membership,
    date: LocalDate,
    later: bool,
) -> Result<(Catalogue, BTreeMap<AccountId, i64>, BTreeMap<AccountId, i64>), LedgerError> {
    let pk = table::vault_pk(m.vault_id);
    let store = ledger.store.as_ref();
    let month = date.month();
    // From this month on, the days after `date` are all there is to read (entries dated
    // later are few); before it, the rest of its month by day and later months by month.
    let recent = month >= ledger.today_in(m).month();
    let days = async {
        if recent {
            query_all(store, pk.clone(), rollup::days_from(date.next_day()), true).await
        } else if date == month.last_day() {
            // No day of its month is left (and DynamoDB refuses a range ending before it starts).
            Ok(vec![])
        } else {
            query_all(
                store,
                pk.clone(),
                rollup::days_between(date.next_day(), month.last_day()),
                true,
            )
            .await
        }
    };
    let months = async {
        if recent {
            return Ok(vec![]);
        }
        query_all(store, pk.clone(), rollup::months_from(month.next()), true).await
    };
    let ((cat, days), months) = join2(join2(catalogue(ledger, m), days), months).await;
    let cat = cat?;
    let mut after = BTreeMap::new();
    sum_rollups(&days?, rollup::is_day_rollup, &mut after)?;
    sum_rollups(&months?, rollup::is_month_rollup, &mut after)?;
    let mut nets = BTreeMap::new();
    for a in &cat.accounts {
        let moved = after.get(&a.account_id).copied().unwrap_or(0);
        let net = a.net.checked_sub(moved).ok_or_else(|| {
            LedgerError::out_of_range(Total::BalanceOf {
                account: a.account_id,
            })
        })?;
        nets.insert(a.account_id, net);
    }
    if !later {
        after.clear();
    }
    Ok((cat, nets, after))
}

/// Each account's net of entries dated after `today` (one query of daily rollups).
pub(super) async fn later_than(
    ledger: &Ledger,
    m: &Membership,
    today: LocalDate,
) -> Result<BTreeMap<AccountId, i64>, LedgerError> {
    let days = query_all(
        ledger.store.as_ref(),
        table::vault_pk(m.vault_id),
        rollup::days_from(today.next_day()),
        true,
    )
    .await?;
    let mut later = BTreeMap::new();
    sum_rollups(&days, rollup::is_day_rollup, &mut later)?;
    Ok(later)
}

/// An account's net of later entries in natural sign, `None` when nothing is scheduled.
pub(super) fn scheduled(
    kind: AccountKind,
    later: &BTreeMap<AccountId, i64>,
    account: AccountId,
    m: &Membership,
) -> Result<Option<Money>, LedgerError> {
    match later.get(&account).copied() {
        None | Some(0) => Ok(None),
        Some(net) => Ok(Some(Money::from_minor(natural(kind, net)?, m.currency))),
    }
}

pub(super) fn natural(kind: AccountKind, net: i64) -> Result<i64, LedgerError> {
    kind.natural(net)
        .ok_or_else(|| LedgerError::out_of_range(Total::KindBalance { kind }))
}

/// Live entries dated after today through the end of a period (none when the period
/// ends by today): what a report keeps apart as scheduled. One query of transactions,
/// in the report's round; entries ahead of today are few (a month's auto-transfers).
pub(super) struct DatedLater(pub(super) Vec<entry::TxRec>);

/// Read [`DatedLater`] for the period `from..=to`.
pub(super) async fn dated_later(
    ledger: &Ledger,
    m: &Membership,
    today: LocalDate,
    (from, to): (LocalDate, LocalDate),
) -> Result<DatedLater, LedgerError> {
    if to <= today {
        return Ok(DatedLater(Vec::new()));
    }
    let items = query_all(
        ledger.store.as_ref(),
        table::vault_pk(m.vault_id),
        entry::transactions_between(Some(from.max(today.next_day())), Some(to)),
        true,
    )
    .await?;
    let mut txs = Vec::new();
    for item in items.iter().filter(|i| entry::is_transaction(&i.key.sk)) {
        let tx = entry::TxRec::from_item(item)?;
        if !tx.voided {
            txs.push(tx);
        }
    }
    Ok(DatedLater(txs))
}

impl DatedLater {
    /// Take the later entries' amounts on accounts of `kind` out of `cells` ((account,
    /// month) -> debit-positive net); their total in natural sign and how many entries
    /// touch such an account, `None` when there are none.
    pub(super) fn take_from(
        &self,
        cells: &mut BTreeMap<(AccountId, YearMonth), i64>,
        kinds: &BTreeMap<AccountId, AccountKind>,
        kind: AccountKind,
        m: &Membership,
    ) -> Result<Option<Scheduled>, LedgerError> {
        let (mut net, mut count) = (0i64, 0u32);
        let range = || {
            LedgerError::out_of_range(Total::Scheduled {
                vault: m.name.clone(),
            })
        };
        for tx in &self.0 {
            let mut touched = false;
            for p in tx
                .postings
                .iter()
                .filter(|p| kinds.get(&p.account_id) == Some(&kind))
            {
                touched = true;
                net = net.checked_add(p.amount).ok_or_else(range)?;
                if let Some(slot) = cells.get_mut(&(p.account_id, tx.date.month())) {
                    *slot = slot.checked_sub(p.amount).ok_or_else(range)?;
                }
            }
            count += u32::from(touched);
        }
        if count == 0 {
            return Ok(None);
        }
        Ok(Some(Scheduled {
            amount: Money::from_minor(natural(kind, net)?, m.currency),
            count,
        }))
    }
}
