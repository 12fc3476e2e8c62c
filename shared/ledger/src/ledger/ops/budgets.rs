//! Budgets: a monthly amount per expense account (`set_budget`), and how a
//! month is going against them (`budget_report`, and the budget column of
//! `list_accounts`). Reads budgets and the month's rollups, never postings.

use std::collections::BTreeMap;

use crate::api::{Field, Reason};
use crate::ledger::budget_settings::{in_force, in_force_with_rollover, settings_of, tail_from};
use crate::ledger::guards::BUDGET_HEAD;
use crate::ledger::resolve::{Catalogue, catalogue, join2, query_all, retrying};
use crate::ledger::roster::{InVault, in_vault};
use crate::ledger::*;
use crate::ledger::{goals, groups, nets, today};
use crate::stored::account::{account_item_live, account_live};
use crate::stored::budget::{BudgetHead, BudgetRec};
use crate::stored::member::Membership;
use crate::stored::rollup::Rollup;
use crate::stored::{account, budget, rollup, table};
use dochiya_domain::{AccountId, AccountKind, Money};
use dochiya_store::{Condition, Guard, Item, WriteOp};

/// Most budget settings (account × month items) one vault keeps: bounds every budget read.
pub(in crate::ledger) const MAX_BUDGET_SETTINGS: usize = 5_000;

/// The refusal of a budget for an archived account.
fn archived(name: &str) -> LedgerError {
    LedgerError::invalid(
        Field::BudgetAccount,
        Reason::BudgetOfArchived {
            account: name.to_string(),
        },
    )
}

/// A new setting needs room under [`MAX_BUDGET_SETTINGS`]; replacing one always fits.
fn room_for(settings: &[Item], key: &dochiya_store::Key) -> Result<(), LedgerError> {
    if settings.len() >= MAX_BUDGET_SETTINGS && !settings.iter().any(|i| &i.key == key) {
        return Err(LedgerError::invalid(
            Field::BudgetMonth,
            Reason::TooManyBudgets {
                max: MAX_BUDGET_SETTINGS,
            },
        ));
    }
    Ok(())
}

/// What a setting of `account` for `month` keeps when not sent (`set_budget` changes
/// only what it is sent): `repeat` that month's own setting's (else true), `rollover`
/// the setting in force that month's (its own, else the latest earlier repeating one;
/// else false). `settings` in month order.
fn kept_or_sent(
    settings: &[BudgetRec],
    account: AccountId,
    month: YearMonth,
    input: &BudgetInput,
) -> (bool, bool) {
    let mine = || settings.iter().filter(|s| s.account_id == account);
    let own = mine().find(|s| s.month == month);
    let in_force = own.or_else(|| mine().rfind(|s| s.month < month && s.repeat));
    (
        input.repeat.unwrap_or_else(|| own.is_none_or(|s| s.repeat)),
        input
            .rollover
            .unwrap_or_else(|| in_force.is_some_and(|s| s.rollover)),
    )
}

pub(in crate::ledger) async fn set_budget(
    ledger: &Ledger,
    who: &PersonId,
    input: BudgetInput,
) -> Result<BudgetSet, LedgerError> {
    if input.amount.is_negative() {
        return Err(LedgerError::invalid(Field::BudgetAmount, Reason::NegativeBudget));
    }
    let input = &input;
    retrying(|| {
        in_vault(ledger, who, input.vault.as_deref(), |v| {
            set_in(ledger, who, input, v)
        })
    })
    .await
}

async fn set_in(
    ledger: &Ledger,
    who: &PersonId,
    input: &BudgetInput,
    v: InVault,
) -> Result<BudgetSet, LedgerError> {
    let m = v.membership.clone();
    let amount = Money::from_decimal(input.amount, m.currency)
        .map_err(|e| LedgerError::from_parse(Field::BudgetAmount, e))?;
    let month = input.month.unwrap_or_else(|| ledger.today_in(&m).month());
    // One read round: the accounts (to resolve the name) and every setting (to bound their number).
    let (cat, all) = join2(
        catalogue(ledger, &m),
        query_all(
            ledger.store.as_ref(),
            table::vault_pk(m.vault_id),
            budget::budgets(),
            true,
        ),
    )
    .await;
    let (cat, all) = (cat?, all?);
    let a = cat.resolve(&input.account, true, &m)?.clone();
    if a.kind != AccountKind::Expense {
        return Err(LedgerError::invalid(
            Field::BudgetAccount,
            Reason::BudgetNotExpense {
                account: a.name.clone(),
                kind: a.kind,
            },
        ));
    }
    if a.archived {
        return Err(archived(&a.name));
    }
    let key = budget::budget(m.vault_id, month, a.account_id);
    room_for(&all, &key)?;
    let (repeat, rollover) = kept_or_sent(&settings_of(&all)?, a.account_id, month, input);
    let rec = BudgetRec {
        account_id: a.account_id,
        month,
        amount: amount.minor(),
        repeat,
        rollover,
    };
    // The account item's own copy of the settings that still matter (decision 030);
    // an item from before it is rebuilt from every setting read above.
    let mut mine = match &a.budgets {
        BudgetHead::Known { tail, .. } => tail.clone(),
        BudgetHead::Unknown => settings_of(&all)?
            .into_iter()
            .filter(|s| s.account_id == a.account_id)
            .collect(),
    };
    mine.retain(|s| s.month != month);
    mine.push(rec.clone());
    let tail = tail_from(mine, ledger.today_in(&m).month());
    let ops = vec![
        // One setting per account and month: writing again replaces it.
        WriteOp::Put {
            item: Item {
                key,
                attrs: rec.to_attrs(ledger.clock.now().as_second()),
            },
            guard: None,
        },
        // The account is live and its head unchanged since read; the head moves on.
        a.budgets.moved_on(
            account::account(m.vault_id, a.account_id),
            &tail,
            Guard::new(
                BUDGET_HEAD,
                Condition::All(vec![account_live(), a.budgets.unchanged()]),
            ),
        ),
    ];
    // The roster or the head moved (see `roster.rs`): decide again on a fresh one.
    v.write_with(ledger, who, ops, |guard, current| {
        (guard == BUDGET_HEAD && !account_item_live(current)).then(|| archived(&a.name))
    })
    .await?;
    Ok(BudgetSet {
        vault: m.vault_ref(),
        currency: m.currency,
        account_id: a.account_id,
        account: a.name,
        month,
        amount,
        repeat,
        rollover,
    })
}

pub(in crate::ledger) async fn budget_report(
    ledger: &Ledger,
    who: &PersonId,
    vault: Option<&str>,
    month: Option<YearMonth>,
) -> Result<BudgetReport, LedgerError> {
    in_vault(ledger, who, vault, |v| report_in(ledger, v.membership, month)).await
}

fn money(minor: i64, m: &Membership) -> Money {
    Money::from_minor(minor, m.currency)
}

fn add(a: i64, b: i64) -> Result<i64, LedgerError> {
    a.checked_add(b)
        .ok_or_else(|| LedgerError::internal("budget total out of range"))
}

/// Whole percent of `available` (budget + carried) that `spent` is, rounded toward the
/// budget line: down while within it (toward negative infinity, so refunds beyond
/// spending give a negative percent), up once over it, so `over` (spent > available)
/// holds exactly when the percent is above 100. `None` when nothing is available.
pub(in crate::ledger) fn percent_used(spent: i64, available: i64) -> Option<i64> {
    if available <= 0 {
        return None;
    }
    let (scaled, whole) = (i128::from(spent) * 100, i128::from(available));
    let mut p = scaled.div_euclid(whole);
    if spent > available && scaled.rem_euclid(whole) != 0 {
        p += 1;
    }
    Some(i64::try_from(p).unwrap_or(if p < 0 { i64::MIN } else { i64::MAX }))
}

async fn report_in(
    ledger: &Ledger,
    m: Membership,
    month: Option<YearMonth>,
) -> Result<BudgetReport, LedgerError> {
    let today = ledger.today_in(&m);
    let month = month.unwrap_or_else(|| today.month());
    let store = ledger.store.as_ref();
    let pk = table::vault_pk(m.vault_id);
    let start = (0..ROLLOVER_MONTHS).fold(month, |mo, _| mo.prev());
    // Two queries in one round: the accounts, and one span holding the rollups of
    // the month and the look-back before it, and every budget setting through the month.
    let ((accounts, span), later) = join2(
        join2(
            query_all(store, pk.clone(), account::accounts(), true),
            query_all(store, pk, budget::months_and_budgets_through(start, month), true),
        ),
        nets::dated_later(ledger, &m, today, (month.first_day(), month.last_day())),
    )
    .await;
    let cat = Catalogue::from_items(&accounts?)?;
    let span = span?;
    let settings = settings_of(&span)?;
    let mut own: BTreeMap<(AccountId, YearMonth), i64> = BTreeMap::new();
    for item in span.iter().filter(|i| rollup::is_month_rollup(&i.key.sk)) {
        let r = Rollup::from_attrs(&item.attrs)?;
        // The span also holds later months' rollups.
        if r.period.month() > month || r.period.month() < start {
            continue;
        }
        let slot = own.entry((r.account_id, r.period.month())).or_insert(0);
        *slot = add(*slot, r.net)?;
    }
    // Entries dated after today are not spent yet: out of `own`, shown apart.
    let kinds = cat.accounts.iter().map(|a| (a.account_id, a.kind)).collect();
    let scheduled = later?.take_from(&mut own, &kinds, AccountKind::Expense, &m)?;
    let book = Book {
        cat: &cat,
        own: &own,
        settings: &settings,
        before: (1..=ROLLOVER_MONTHS)
            .scan(month, |mo, _| {
                *mo = mo.prev();
                Some((*mo, in_force_with_rollover(&settings, *mo)))
            })
            .collect(),
        m: &m,
    };
    let (rows, unbudgeted) = book.rows(month)?;
    let counted: Vec<&BudgetRow> = rows
        .iter()
        .filter(|r| {
            !cat.by_id(r.account_id)
                .and_then(|a| a.parent)
                .is_some_and(|p| rows.iter().any(|x| x.account_id == p))
        })
        .collect();
    let (mut total_budget, mut total_spent, mut total_remaining, mut total_carried) =
        (0i64, 0i64, 0i64, 0i64);
    for r in &counted {
        total_budget = add(total_budget, r.budget.minor())?;
        total_spent = add(total_spent, r.spent.minor())?;
        total_remaining = add(total_remaining, r.remaining.minor())?;
        total_carried = add(total_carried, r.carried.map_or(0, Money::minor))?;
    }
    // Goals, as of today (one more read, only when the vault has one).
    let goals = if cat.accounts.iter().any(|a| a.goal.is_some()) {
        let later = today::Later::read(ledger, &m).await?;
        goals::all(&cat, &later, &m)?
    } else {
        Vec::new()
    };
    let (days_left, daily_allowance) = if month == today.month() {
        let days = i64::from(month.last_day().day()) - i64::from(today.day()) + 1;
        // Rounded down to the currency's minor unit; nothing to spend once over budget.
        let per_day = total_remaining.max(0) / days.max(1);
        (u32::try_from(days).ok(), Some(money(per_day, &m)))
    } else {
        (None, None)
    };
    Ok(BudgetReport {
        vault: m.vault_ref(),
        currency: m.currency,
        month,
        rows,
        totals: BudgetTotals {
            budget: money(total_budget, &m),
            spent: money(total_spent, &m),
            remaining: money(total_remaining, &m),
            percent_used: percent_used(total_spent, add(total_budget, total_carried)?),
            over: total_remaining < 0,
        },
        unbudgeted_spent: money(unbudgeted, &m),
        days_left,
        daily_allowance,
        scheduled,
        goals,
    })
}

/// How many months before a report's month a rollover chain reaches back at most
/// (decision 038): carried = what was left over those months, read in the same span.
pub(in crate::ledger) const ROLLOVER_MONTHS: usize = 12;

/// What a budget report computes its rows from.
struct Book<'a> {
    cat: &'a Catalogue,
    /// Each account's own net per month (debit-positive: spent, refunds subtracted).
    own: &'a BTreeMap<(AccountId, YearMonth), i64>,
    settings: &'a [BudgetRec],
    /// The budgets in force in each month of the look-back, with their rollover.
    before: BTreeMap<YearMonth, BTreeMap<AccountId, (i64, bool)>>,
    m: &'a Membership,
}

impl Book<'_> {
    /// What a budget on `a` covers in `month`: its own spending and its children's.
    fn spent(&self, a: AccountId, month: YearMonth) -> Result<i64, LedgerError> {
        let mut total = self.own.get(&(a, month)).copied().unwrap_or(0);
        for c in groups::children_of(self.cat, a) {
            total = add(total, self.own.get(&(c.account_id, month)).copied().unwrap_or(0))?;
        }
        Ok(total)
    }

    /// What carries into `month` for `a`: the leftover of each month before it, back
    /// through the run of months whose budget in force rolls over (at most
    /// [`ROLLOVER_MONTHS`]); `None` when the month before does not roll over.
    fn carried(&self, a: AccountId, month: YearMonth) -> Result<Option<i64>, LedgerError> {
        let mut total: Option<i64> = None;
        let mut k = month;
        for _ in 0..ROLLOVER_MONTHS {
            k = k.prev();
            match self.before.get(&k).and_then(|f| f.get(&a)) {
                Some(&(budget, true)) => {
                    let left = budget
                        .checked_sub(self.spent(a, k)?)
                        .ok_or_else(|| LedgerError::internal("budget carried out of range"))?;
                    total = Some(add(total.unwrap_or(0), left)?);
                }
                _ => break,
            }
        }
        Ok(total)
    }

    /// The rows of `month` (live expense accounts with a budget, by name) and the
    /// spending no budget covers (an account covered by its own or its parent's).
    fn rows(&self, month: YearMonth) -> Result<(Vec<BudgetRow>, i64), LedgerError> {
        let budgets = in_force(self.settings, month);
        let mut expense: Vec<_> = self
            .cat
            .accounts
            .iter()
            .filter(|a| a.kind == AccountKind::Expense)
            .collect();
        expense.sort_by(|a, b| a.name_key.cmp(&b.name_key));
        let has_row =
            |id: AccountId| self.cat.by_id(id).is_some_and(|a| !a.archived) && budgets.contains_key(&id);
        let (mut rows, mut unbudgeted) = (Vec::new(), 0i64);
        for a in expense {
            if !(has_row(a.account_id) || a.parent.is_some_and(has_row)) {
                unbudgeted = add(
                    unbudgeted,
                    self.own.get(&(a.account_id, month)).copied().unwrap_or(0),
                )?;
            }
            let Some(&budget) = budgets.get(&a.account_id).filter(|_| !a.archived) else {
                continue;
            };
            let s = self.spent(a.account_id, month)?;
            let carried = self.carried(a.account_id, month)?;
            let available = add(budget, carried.unwrap_or(0))?;
            let remaining = available
                .checked_sub(s)
                .ok_or_else(|| LedgerError::internal("budget remaining out of range"))?;
            rows.push(BudgetRow {
                account_id: a.account_id,
                account: a.name.clone(),
                budget: money(budget, self.m),
                spent: money(s, self.m),
                remaining: money(remaining, self.m),
                percent_used: percent_used(s, available),
                over: remaining < 0,
                carried: carried.map(|c| money(c, self.m)),
            });
        }
        Ok((rows, unbudgeted))
    }
}

impl Ledger {
    /// Set an expense account's budget for a month (default this month), for later
    /// months too when `repeat`; an amount of 0 clears it. Setting again replaces it.
    pub async fn set_budget(&self, who: &PersonId, input: BudgetInput) -> Result<BudgetSet, LedgerError> {
        set_budget(self, who, input).await
    }

    /// Each budgeted expense account's budget, spending and what is left in a month
    /// (default this month), with totals and what was spent without a budget.
    pub async fn budget_report(
        &self,
        who: &PersonId,
        vault: Option<&str>,
        month: Option<YearMonth>,
    ) -> Result<BudgetReport, LedgerError> {
        budget_report(self, who, vault, month).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dochiya_domain::VaultId;

    fn month(text: &str) -> YearMonth {
        YearMonth::parse(text).expect("a month")
    }

    fn set(account: AccountId, on: &str, amount: i64, repeat: bool) -> BudgetRec {
        BudgetRec {
            account_id: account,
            month: month(on),
            amount,
            repeat,
            rollover: false,
        }
    }

    #[test]
    fn the_setting_in_force_is_the_months_own_or_the_latest_repeating_one() {
        let a = AccountId::from_uuid(uuid::Uuid::from_u128(1));
        let b = AccountId::from_uuid(uuid::Uuid::from_u128(2));
        let settings = [
            set(a, "2026-01", 600, true),
            set(b, "2026-01", 100, false),
            set(a, "2026-02", 900, false),
            set(a, "2026-04", 0, true),
            set(a, "2026-06", 300, true),
        ];
        let at = |m: &str| in_force(&settings, month(m)).into_iter().collect::<Vec<_>>();
        assert_eq!(at("2025-12"), vec![]);
        assert_eq!(at("2026-01"), vec![(a, 600), (b, 100)]);
        assert_eq!(at("2026-02"), vec![(a, 900)]);
        assert_eq!(at("2026-03"), vec![(a, 600)]);
        assert_eq!(at("2026-04"), vec![]);
        assert_eq!(at("2026-05"), vec![]);
        assert_eq!(at("2026-07"), vec![(a, 300)]);
    }

    #[test]
    fn percent_used_rounds_toward_the_budget_line() {
        assert_eq!(percent_used(0, 600_000), Some(0));
        assert_eq!(percent_used(599_999, 600_000), Some(99));
        assert_eq!(percent_used(600_000, 600_000), Some(100));
        // Over by less than a percent is above 100, never "100 % used" while over.
        assert_eq!(percent_used(600_001, 600_000), Some(101));
        assert_eq!(percent_used(104_500, 100_000), Some(105));
        assert_eq!(percent_used(200_000, 100_000), Some(200));
        assert_eq!(percent_used(-1, 600_000), Some(-1));
        assert_eq!(percent_used(i64::MAX, 1), Some(i64::MAX));
        // Nothing available (overspending carried in ate the budget): no percent.
        assert_eq!(percent_used(5, 0), None);
        assert_eq!(percent_used(0, -10), None);
        // `over` and the percent agree wherever something is available.
        for (spent, available) in [
            (0, 1),
            (1, 1),
            (2, 1),
            (100, 99),
            (99, 100),
            (10_001, 10_000),
            (-5, 3),
        ] {
            assert_eq!(
                percent_used(spent, available).unwrap() > 100,
                spent > available,
                "{spent}/{available}"
            );
        }
    }

    #[test]
    fn settings_are_bounded_but_a_replacement_always_fits() {
        let v = VaultId::from_uuid(uuid::Uuid::nil());
        let a = AccountId::from_uuid(uuid::Uuid::from_u128(1));
        let mut m = month("1900-01");
        let mut full = Vec::new();
        while full.len() < MAX_BUDGET_SETTINGS {
            full.push(Item {
                key: budget::budget(v, m, a),
                attrs: Default::default(),
            });
            m = m.next();
        }
        assert!(room_for(&full[1..], &budget::budget(v, m, a)).is_ok());
        assert!(room_for(&full, &full[7].key).is_ok());
        match room_for(&full, &budget::budget(v, m, a)) {
            Err(LedgerError::InvalidInput { field, reason }) => {
                assert_eq!(field, Field::BudgetMonth);
                assert_eq!(reason, Reason::TooManyBudgets { max: 5000 });
            }
            other => panic!("expected InvalidInput, got {other:?}"),
        }
    }
}
