//! Balances as of a date, spending by account or month, month-end net worth.
//! All read rollups (per account and month, per account and day), never postings.

use std::collections::BTreeMap;

use crate::api::{Field, Reason, Total};
use crate::ledger::nets::{dated_later, natural, nets_and_later, scheduled};
use crate::ledger::resolve::{Catalogue, catalogue, join2, query_all};
use crate::ledger::roster::in_vault;
use crate::ledger::*;
use crate::ledger::{groups, household, tagged};
use crate::stored::member::Membership;
use crate::stored::rollup::Rollup;
use crate::stored::{account, member, rollup, table};
use dochiya_domain::{AccountId, AccountKind, Money};
use dochiya_store::Item;

/// Most months one history may span.
const MAX_MONTHS: usize = 240;

/// The checked sum of `values`; `what` names the total when it is out of range.
fn money_sum(
    mut values: impl Iterator<Item = i64>,
    m: &Membership,
    what: impl FnOnce() -> Total,
) -> Result<Money, LedgerError> {
    values
        .try_fold(0i64, |acc, v| acc.checked_add(v))
        .map(|v| Money::from_minor(v, m.currency))
        .ok_or_else(|| LedgerError::out_of_range(what()))
}

fn totals(rows: &[(AccountKind, i64)], m: &Membership) -> Result<Totals, LedgerError> {
    let assets = money_sum(
        rows.iter().filter(|r| r.0 == AccountKind::Asset).map(|r| r.1),
        m,
        || Total::KindTotal {
            kind: AccountKind::Asset,
            vault: m.name.clone(),
        },
    )?;
    let liabilities = money_sum(
        rows.iter().filter(|r| r.0 == AccountKind::Liability).map(|r| r.1),
        m,
        || Total::KindTotal {
            kind: AccountKind::Liability,
            vault: m.name.clone(),
        },
    )?;
    let net_worth = assets.checked_sub(liabilities).ok_or_else(|| {
        LedgerError::out_of_range(Total::NetWorth {
            vault: m.name.clone(),
        })
    })?;
    Ok(Totals {
        assets,
        liabilities,
        net_worth,
    })
}

pub(in crate::ledger) async fn get_balances(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    as_of: Option<LocalDate>,
) -> Result<Balances, LedgerError> {
    in_vault(ledger, who, vault, |v| balances_in(ledger, v.membership, as_of)).await
}

async fn balances_in(
    ledger: &Ledger,
    m: member::Membership,
    as_of: Option<LocalDate>,
) -> Result<Balances, LedgerError> {
    let today = ledger.today_in(&m);
    let as_of = as_of.unwrap_or(today);
    // Entries after the date are shown apart only when the date is not in the past.
    let (cat, nets, later) = nets_and_later(ledger, &m, as_of, as_of >= today).await?;
    let mut accounts = Vec::new();
    let mut archived = Vec::new();
    let mut by_kind = Vec::new();
    for a in &cat.accounts {
        let bal = natural(a.kind, nets.get(&a.account_id).copied().unwrap_or(0))?;
        let scheduled = scheduled(a.kind, &later, a.account_id, &m)?;
        by_kind.push((a.kind, bal));
        if a.archived && bal == 0 && scheduled.is_none() {
            continue;
        }
        let list = if a.archived { &mut archived } else { &mut accounts };
        list.push(BalanceRow {
            account_id: a.account_id,
            name: a.name.clone(),
            kind: a.kind,
            balance: Money::from_minor(bal, m.currency),
            scheduled,
        });
    }
    accounts.sort_by(|a, b| (a.kind, &a.name).cmp(&(b.kind, &b.name)));
    archived.sort_by(|a, b| (a.kind, &a.name).cmp(&(b.kind, &b.name)));
    let totals = totals(&by_kind, &m)?;
    Ok(Balances {
        vault: m.vault_ref(),
        currency: m.currency,
        as_of,
        accounts,
        archived,
        totals,
    })
}

pub(in crate::ledger) async fn spending_report(
    ledger: &Ledger,
    who: &PersonId,
    r: ReportRequest,
) -> Result<SpendingReport, LedgerError> {
    LedgerError::check_range(&r.from, &r.to)?;
    if r.from.month().through(r.to.month()).len() > MAX_MONTHS {
        return Err(LedgerError::invalid(
            Field::RangeEnd,
            Reason::ReportTooLong { max: MAX_MONTHS },
        ));
    }
    let r = &r;
    in_vault(ledger, who, r.vault.as_deref(), |v| async move {
        if r.by == ReportBy::Member {
            return household::report_by_member(ledger, who, r, v.membership).await;
        }
        report_in(ledger, r, v.membership).await
    })
    .await
}

async fn report_in(
    ledger: &Ledger,
    r: &ReportRequest,
    m: member::Membership,
) -> Result<SpendingReport, LedgerError> {
    let store = ledger.store.as_ref();
    let pk = table::vault_pk(m.vault_id);
    let (first_full, last_full, day_ranges) = report_months(r);
    // A tag's report reads its tag rollups instead of the accounts' (decision 038).
    let tag_key = tagged::filter_key(r.tag.as_deref())?;
    let tagged = tag_key.is_some() || r.by == ReportBy::Tag;
    // The accounts and the whole months' rollups, two queries of the one round: the
    // months of the period only, whatever the book holds before them.
    let head_query = async {
        if first_full > last_full || tagged {
            return query_all(store, pk.clone(), account::accounts(), true).await;
        }
        let (accounts, months) = join2(
            query_all(store, pk.clone(), account::accounts(), true),
            query_all(
                store,
                pk.clone(),
                rollup::months_between(first_full, last_full),
                true,
            ),
        )
        .await;
        let mut head = accounts?;
        head.extend(months?);
        Ok(head)
    };
    let day_query =
        |(a, b): (LocalDate, LocalDate)| query_all(store, pk.clone(), rollup::days_between(a, b), true);
    // At most two partial months (one range when no whole month lies between);
    // their ranges are known up front, so every query goes out in the one round.
    let days_query = async {
        match day_ranges.as_slice() {
            _ if tagged => Ok(vec![]),
            [] => Ok(vec![]),
            [one] => day_query(*one).await,
            [first, last, ..] => {
                let (a, b) = join2(day_query(*first), day_query(*last)).await;
                let mut a = a?;
                a.extend(b?);
                Ok(a)
            }
        }
    };
    let tag_query = async {
        if !tagged {
            return Ok(vec![]);
        }
        tagged::read(ledger, &m, (first_full, last_full), &day_ranges).await
    };
    let today = ledger.today_in(&m);
    let (((head, days), later), tag_items) = join2(
        join2(
            join2(head_query, days_query),
            dated_later(ledger, &m, today, (r.from, r.to)),
        ),
        tag_query,
    )
    .await;
    let head = head?;
    let cat = Catalogue::from_items(&head)?;
    let mut items = Vec::new();
    for item in head.iter().filter(|i| rollup::is_month_rollup(&i.key.sk)) {
        let r = Rollup::from_attrs(&item.attrs)?;
        if r.period.month() >= first_full {
            items.push(item.clone());
        }
    }
    items.extend(days?);
    let kind = r.kind.account_kind();
    let kinds = tagged::kinds_of(&cat);
    let mut per_tag = tagged::cells(&tag_items?, &kinds, kind, tag_key.as_ref())?;
    // (account, month) -> debit-positive net: the accounts' rollups, or one tag's.
    let mut cells: BTreeMap<(AccountId, YearMonth), i64> = match &tag_key {
        Some(k) => per_tag.remove(k).map(|t| t.cells).unwrap_or_default(),
        None => month_cells(&items, &kinds, kind)?,
    };
    // Entries dated after today are not spent yet: out of the cells, shown apart.
    let later = later?;
    let later = if tagged {
        later.tagged(tag_key.as_ref())
    } else {
        later
    };
    let scheduled = later.take_from(&mut cells, &kinds, kind, &m)?;
    let rows = match r.by {
        ReportBy::Account => rows_by_account(&cells, kind, &cat, &m)?,
        ReportBy::Group => groups::rows_by_group(&cells, kind, &cat, &m)?,
        ReportBy::Tag => tagged::rows_by_tag(&mut per_tag, &later, &kinds, kind, &m)?,
        ReportBy::Month => rows_by_month(r, &cells, kind, &m)?,
        // Answered by `household::report_by_member` (its own read: `flows.rs`), never here.
        ReportBy::Member => return Err(LedgerError::internal("a report by member reached the rollups")),
    };
    let total = money_sum(rows.iter().map(|x| x.amount.minor()), &m, || Total::ReportTotal {
        vault: m.name.clone(),
        month: None,
    })?;
    Ok(SpendingReport {
        vault: m.vault_ref(),
        currency: m.currency,
        from: r.from,
        to: r.to,
        kind: r.kind,
        by: r.by,
        total,
        rows,
        scheduled,
    })
}

/// (account, month) -> debit-positive net of the accounts of `kind`, from rollup items.
fn month_cells(
    items: &[Item],
    kinds: &BTreeMap<AccountId, AccountKind>,
    kind: AccountKind,
) -> Result<BTreeMap<(AccountId, YearMonth), i64>, LedgerError> {
    let mut cells: BTreeMap<(AccountId, YearMonth), i64> = BTreeMap::new();
    for item in items {
        let r = Rollup::from_attrs(&item.attrs)?;
        if kinds.get(&r.account_id) != Some(&kind) {
            continue;
        }
        let month = r.period.month();
        let slot = cells.entry((r.account_id, month)).or_insert(0);
        *slot = slot.checked_add(r.net).ok_or_else(|| {
            LedgerError::out_of_range(Total::AccountMonth {
                account: r.account_id,
                month,
            })
        })?;
    }
    Ok(cells)
}

/// One row per month of the period, in order.
fn rows_by_month(
    r: &ReportRequest,
    cells: &BTreeMap<(AccountId, YearMonth), i64>,
    kind: AccountKind,
    m: &Membership,
) -> Result<Vec<ReportRow>, LedgerError> {
    r.from
        .month()
        .through(r.to.month())
        .into_iter()
        .map(|month| {
            let net = money_sum(
                cells.iter().filter(|((_, mo), _)| *mo == month).map(|(_, v)| *v),
                m,
                || Total::ReportTotal {
                    vault: m.name.clone(),
                    month: Some(month),
                },
            )?;
            Ok(ReportRow {
                account_id: None,
                account: None,
                month: Some(month),
                amount: Money::from_minor(natural(kind, net.minor())?, m.currency),
                parent: None,
                tag: None,
                member: None,
            })
        })
        .collect()
}

/// The first and last whole months of a report's period (read from monthly rollups),
/// and the ranges of days of its partial months at either end (from daily ones).
fn report_months(r: &ReportRequest) -> (YearMonth, YearMonth, Vec<(LocalDate, LocalDate)>) {
    let first_full = if r.from.day() == 1 {
        r.from.month()
    } else {
        r.from.month().next()
    };
    let last_full = if r.to == r.to.last_of_month() {
        r.to.month()
    } else {
        r.to.month().prev()
    };
    let mut day_ranges = Vec::new();
    if first_full > last_full {
        // No whole month between: the days from..to are exactly the two partial months.
        day_ranges.push((r.from, r.to));
    } else {
        if r.from.day() != 1 {
            day_ranges.push((r.from, r.from.last_of_month()));
        }
        if r.to != r.to.last_of_month() {
            day_ranges.push((r.to.first_of_month(), r.to));
        }
    }
    (first_full, last_full, day_ranges)
}

/// One row per account with a non-zero total, largest first (then by name).
fn rows_by_account(
    cells: &BTreeMap<(AccountId, YearMonth), i64>,
    kind: AccountKind,
    cat: &Catalogue,
    m: &Membership,
) -> Result<Vec<ReportRow>, LedgerError> {
    let mut per: BTreeMap<AccountId, i64> = BTreeMap::new();
    for ((a, _), v) in cells {
        let slot = per.entry(*a).or_insert(0);
        *slot = slot
            .checked_add(*v)
            .ok_or_else(|| LedgerError::out_of_range(Total::ReportRow { account: *a }))?;
    }
    let mut rows = Vec::new();
    for (a, net) in per {
        let amount = natural(kind, net)?;
        if amount == 0 {
            continue;
        }
        // An archived account by its handle, as by group (its name may be a live one's).
        let name = cat
            .by_id(a)
            .map(|x| cat.handle(x).unwrap_or(&x.name).to_string())
            .unwrap_or_default();
        rows.push(ReportRow {
            account_id: Some(a),
            account: Some(name),
            month: None,
            amount: Money::from_minor(amount, m.currency),
            parent: cat.by_id(a).and_then(|x| groups::parent_name(cat, x)),
            tag: None,
            member: None,
        });
    }
    rows.sort_by(|x, y| {
        y.amount
            .minor()
            .cmp(&x.amount.minor())
            .then_with(|| x.account.cmp(&y.account))
    });
    Ok(rows)
}

pub(in crate::ledger) async fn net_worth_history(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    from: YearMonth,
    to: YearMonth,
) -> Result<NetWorthHistory, LedgerError> {
    LedgerError::check_range(&from, &to)?;
    let months = from.through(to);
    if months.len() > MAX_MONTHS {
        return Err(LedgerError::invalid(
            Field::RangeEnd,
            Reason::HistoryTooLong { max: MAX_MONTHS },
        ));
    }
    let months = &months;
    in_vault(ledger, who, vault, |v| {
        history_in(ledger, v.membership, months, from)
    })
    .await
}

async fn history_in(
    ledger: &Ledger,
    m: member::Membership,
    months: &[YearMonth],
    first: YearMonth,
) -> Result<NetWorthHistory, LedgerError> {
    // Counted back from the running balances the account items keep: the balance at
    // the end of a month is that less every later month's rollups. One round, reading
    // the months after the first point only (decision 062).
    let store = ledger.store.as_ref();
    let (cat, items) = join2(
        catalogue(ledger, &m),
        query_all(
            store,
            table::vault_pk(m.vault_id),
            rollup::months_from(first.next()),
            true,
        ),
    )
    .await;
    let (cat, items) = (cat?, items?);
    let mut per_month: BTreeMap<YearMonth, BTreeMap<AccountId, i64>> = BTreeMap::new();
    for item in items.iter().filter(|i| rollup::is_month_rollup(&i.key.sk)) {
        let r = Rollup::from_attrs(&item.attrs)?;
        let slot = per_month
            .entry(r.period.month())
            .or_default()
            .entry(r.account_id)
            .or_insert(0);
        *slot = slot.checked_add(r.net).ok_or_else(|| {
            LedgerError::out_of_range(Total::MonthChange {
                account: r.account_id,
            })
        })?;
    }
    let mut running: BTreeMap<AccountId, i64> = cat.accounts.iter().map(|a| (a.account_id, a.net)).collect();
    let mut pending = per_month.into_iter().rev().peekable();
    let mut points = Vec::with_capacity(months.len());
    for &month in months.iter().rev() {
        while let Some((mo, _)) = pending.peek() {
            if *mo <= month {
                break;
            }
            if let Some((_, nets)) = pending.next() {
                for (a, v) in nets {
                    let slot = running.entry(a).or_insert(0);
                    *slot = slot.checked_sub(v).ok_or_else(|| {
                        LedgerError::out_of_range(Total::BalanceAtEnd { account: a, month })
                    })?;
                }
            }
        }
        let rows = cat
            .accounts
            .iter()
            .map(|a| natural(a.kind, running.get(&a.account_id).copied().unwrap_or(0)).map(|n| (a.kind, n)))
            .collect::<Result<Vec<_>, _>>()?;
        let t = totals(&rows, &m)?;
        points.push(NetWorthPoint {
            month,
            assets: t.assets,
            liabilities: t.liabilities,
            net_worth: t.net_worth,
        });
    }
    points.reverse();
    Ok(NetWorthHistory {
        vault: m.vault_ref(),
        currency: m.currency,
        points,
    })
}

impl Ledger {
    /// Who put what into the household over a period, their shares of what it used,
    /// and the fewest transfers that settle it.
    pub async fn settle_up(&self, who: &PersonId, request: SettleRequest) -> Result<Settlement, LedgerError> {
        household::settle_up(self, who, request).await
    }

    /// Every account's balance at the end of `as_of` (default today in the vault's zone).
    pub async fn get_balances(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        as_of: Option<LocalDate>,
    ) -> Result<Balances, LedgerError> {
        get_balances(self, who, vault, as_of).await
    }

    /// Expense (or income) totals between two dates, by account or by month.
    pub async fn spending_report(
        &self,
        who: &PersonId,
        request: ReportRequest,
    ) -> Result<SpendingReport, LedgerError> {
        spending_report(self, who, request).await
    }

    /// Month-end assets, liabilities and net worth for each month from `from` to `to`.
    pub async fn net_worth_history(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        from: YearMonth,
        to: YearMonth,
    ) -> Result<NetWorthHistory, LedgerError> {
        net_worth_history(self, who, vault, from, to).await
    }
}
