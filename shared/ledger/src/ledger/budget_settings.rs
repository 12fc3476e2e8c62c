//! Which budget is in force: the settings kept on account items and as their own items
//! (decision 030), and the one that decides each month. Read by `budgets` (its tools) and
//! `list_accounts`.

use super::resolve::{Catalogue, query_all};
use super::*;
use crate::stored::budget::{BudgetHead, BudgetRec};
use crate::stored::member::Membership;
use crate::stored::{budget, table};
use dochiya_domain::{AccountId, AccountKind};
use dochiya_store::Item;
use std::collections::BTreeMap;

/// The budget in force in `month` for each account, in minor units (> 0 only).
///
/// A setting made for exactly that month wins; otherwise the latest earlier
/// setting made with `repeat`. An amount of 0 is a cleared budget.
pub(super) fn in_force(settings: &[BudgetRec], month: YearMonth) -> BTreeMap<AccountId, i64> {
    in_force_with_rollover(settings, month)
        .into_iter()
        .map(|(a, (amount, _))| (a, amount))
        .collect()
}

/// As [`in_force`], with whether the setting in force rolls over.
pub(super) fn in_force_with_rollover(
    settings: &[BudgetRec],
    month: YearMonth,
) -> BTreeMap<AccountId, (i64, bool)> {
    let mut carried: BTreeMap<AccountId, (i64, bool)> = BTreeMap::new();
    let mut exact: BTreeMap<AccountId, (i64, bool)> = BTreeMap::new();
    for s in settings {
        if s.month == month {
            exact.insert(s.account_id, (s.amount, s.rollover));
        } else if s.month < month && s.repeat {
            // Ascending months: a later repeating setting replaces an earlier one.
            carried.insert(s.account_id, (s.amount, s.rollover));
        }
    }
    carried.extend(exact);
    carried.retain(|_, (amount, _)| *amount > 0);
    carried
}

/// Of one account's settings, those that can decide its budget in `month` or any
/// later month: the latest repeating one before `month`, and every one from `month` on.
pub(super) fn tail_from(mut settings: Vec<BudgetRec>, month: YearMonth) -> Vec<BudgetRec> {
    settings.sort_by_key(|s| s.month);
    let carried = settings.iter().rfind(|s| s.month < month && s.repeat).cloned();
    carried
        .into_iter()
        .chain(settings.into_iter().filter(|s| s.month >= month))
        .collect()
}

/// Every account's settings as their account items keep them (decision 030), in
/// key order; `None` when a live expense account's item predates the heads.
pub(super) fn settings_from_heads(cat: &Catalogue) -> Option<Vec<BudgetRec>> {
    let mut out = Vec::new();
    for a in cat
        .accounts
        .iter()
        .filter(|a| a.kind == AccountKind::Expense && !a.archived)
    {
        match &a.budgets {
            BudgetHead::Known { tail, .. } => out.extend(tail.iter().cloned()),
            BudgetHead::Unknown => return None,
        }
    }
    out.sort_by_key(|s| (s.month, s.account_id));
    Some(out)
}

/// Budget settings among queried items, in key order (month, then account).
pub(super) fn settings_of(items: &[Item]) -> Result<Vec<BudgetRec>, LedgerError> {
    let mut out: Vec<BudgetRec> = items
        .iter()
        .filter(|i| budget::is_budget(&i.key.sk))
        .map(|i| BudgetRec::from_attrs(&i.attrs))
        .collect::<Result<_, _>>()?;
    out.sort_by_key(|s| (s.month, s.account_id));
    Ok(out)
}

/// Every budget setting of the vault up to `month` (one query).
pub(super) async fn settings_through(
    ledger: &Ledger,
    m: &Membership,
    month: YearMonth,
) -> Result<Vec<BudgetRec>, LedgerError> {
    let items = query_all(
        ledger.store.as_ref(),
        table::vault_pk(m.vault_id),
        budget::budgets_through(month),
        true,
    )
    .await?;
    settings_of(&items)
}
