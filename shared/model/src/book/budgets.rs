//! Budgets: `set_budget` and `budget_report`, with parents and rollover
//! (docs/tools.md, "set_budget", "budget_report"; decision 038).

use serde_json::{Value, json};

use super::{Book, Budget, Expect, Kind};
use crate::calendar::{self, Month};

/// `percentUsed`: spent × 100 ÷ (budget + carried), down while within it, up once over
/// it; none when nothing is available.
fn percent_used(spent: i64, available: i64) -> Option<i64> {
    if available <= 0 {
        return None;
    }
    let (whole, rest) = (
        (spent * 100).div_euclid(available),
        (spent * 100).rem_euclid(available),
    );
    Some(if spent > available && rest != 0 {
        whole + 1
    } else {
        whole
    })
}

/// How many months back a rollover carries at most.
const CARRY_MONTHS: i32 = 12;

impl Book {
    /// The setting in force for account `a` in month `m`: the one for that month, else the
    /// latest repeating one before it; a zero amount is no budget.
    fn setting(&self, a: usize, m: Month) -> Option<&Budget> {
        self.setting_made(a, m).filter(|b| b.amount > 0)
    }

    /// The setting in force for `a` in `m`, a cleared one ("0") too: what an omitted
    /// `rollover` keeps.
    fn setting_made(&self, a: usize, m: Month) -> Option<&Budget> {
        let exact = self.budgets.iter().rev().find(|b| b.account == a && b.month == m);
        let earlier = || {
            self.budgets
                .iter()
                .filter(|b| b.account == a && b.month < m && b.repeat)
                .filter(|b| {
                    // Only the latest setting of its month counts (setting again replaces it).
                    self.budgets
                        .iter()
                        .rev()
                        .find(|x| x.account == a && x.month == b.month)
                        == Some(*b)
                })
                .max_by_key(|b| b.month)
        };
        exact.or_else(earlier)
    }

    /// Spending of `a` and its children in month `m`, dated up to today.
    fn spent(&self, a: usize, m: Month) -> i64 {
        let (from, to) = (calendar::first_day(m), calendar::last_day(m).min(self.today()));
        let mut accounts = self.children(a);
        accounts.push(a);
        accounts.iter().map(|&x| self.net(x, Some(from), Some(to))).sum()
    }

    /// `set_budget`.
    pub fn set_budget(
        &mut self,
        who: usize,
        a: usize,
        amount: i64,
        month: i32,
        repeat: Option<bool>,
        rollover: Option<bool>,
    ) {
        let m = self.this_month() + month;
        let mut args = json!({"account": self.accounts[a].reference(), "amount": self.amount(amount)});
        if month != 0 {
            args["month"] = json!(calendar::month_text(m));
        }
        if let Some(r) = repeat {
            args["repeat"] = json!(r);
        }
        if let Some(r) = rollover {
            args["rollover"] = json!(r);
        }
        let account = &self.accounts[a];
        if !self.is_member(who) || account.kind != Kind::Expense || account.handle.is_some() || amount < 0 {
            self.call(who, "set_budget", args, Expect::Refused);
            return;
        }
        // A call changes only what it is sent: a left-out rollover is the setting in
        // force's, a left-out repeat the month's own setting's (true when none).
        let rollover = rollover.unwrap_or_else(|| self.setting_made(a, m).is_some_and(|b| b.rollover));
        let own = self.budgets.iter().rev().find(|b| b.account == a && b.month == m);
        let repeat = repeat.unwrap_or_else(|| own.is_none_or(|b| b.repeat));
        self.budgets.push(Budget {
            account: a,
            month: m,
            amount,
            repeat,
            rollover,
        });
        let view = json!({
            "account": self.accounts[a].reference(),
            "month": calendar::month_text(m),
            "amount": amount,
            "repeat": repeat,
            "rollover": rollover,
        });
        self.call(who, "set_budget", args, Expect::Ok(view));
    }

    /// This month's budget of a live expense account, as `list_accounts` shows it.
    pub fn budget_now(&self, a: usize) -> Option<i64> {
        self.setting(a, self.this_month()).map(|b| b.amount)
    }

    /// What month `m` carries in for `a`: the leftovers of the run of rolling months before it.
    fn carried(&self, a: usize, m: Month) -> Option<i64> {
        self.setting(a, m - 1).filter(|b| b.rollover)?;
        let mut carried = 0;
        for k in 1..=CARRY_MONTHS {
            match self.setting(a, m - k) {
                Some(b) if b.rollover => carried += b.amount - self.spent(a, m - k),
                _ => break,
            }
        }
        Some(carried)
    }

    /// `budget_report` for month `m`.
    pub fn budget_report_view(&self, m: Month) -> Value {
        let today = self.today();
        let expense: Vec<usize> = (0..self.accounts.len())
            .filter(|&a| self.accounts[a].kind == Kind::Expense)
            .collect();
        let budgeted: Vec<usize> = expense
            .iter()
            .copied()
            .filter(|&a| self.accounts[a].handle.is_none() && self.setting(a, m).is_some())
            .collect();
        let mut rows = serde_json::Map::new();
        let (mut budget, mut spent, mut remaining, mut carried_in) = (0, 0, 0, 0);
        for &a in &budgeted {
            let b = self.setting(a, m).map_or(0, |b| b.amount);
            let s = self.spent(a, m);
            let carried = self.carried(a, m);
            let left = b + carried.unwrap_or(0) - s;
            rows.insert(
                self.accounts[a].reference().to_owned(),
                json!([
                    b,
                    s,
                    left,
                    percent_used(s, b + carried.unwrap_or(0)),
                    left < 0,
                    carried
                ]),
            );
            if self.accounts[a].parent.is_none_or(|p| !budgeted.contains(&p)) {
                budget += b;
                spent += s;
                remaining += left;
                carried_in += carried.unwrap_or(0);
            }
        }
        let covered = |a: usize| {
            budgeted.contains(&a) || self.accounts[a].parent.is_some_and(|p| budgeted.contains(&p))
        };
        let unbudgeted: i64 = expense
            .iter()
            .filter(|&&a| !covered(a))
            .map(|&a| {
                let (from, to) = (calendar::first_day(m), calendar::last_day(m).min(today));
                self.net(a, Some(from), Some(to))
            })
            .sum();
        let current = m == self.this_month();
        let days_left = calendar::days_between(today, calendar::last_day(m)) + 1;
        json!({
            "month": calendar::month_text(m),
            "rows": rows,
            "totals": [budget, spent, remaining, percent_used(spent, budget + carried_in), remaining < 0],
            "unbudgetedSpent": unbudgeted,
            "daysLeft": current.then_some(days_left),
            "dailyAllowance": current.then(|| remaining.max(0) / days_left),
            "scheduled": self.scheduled_in(Kind::Expense, calendar::first_day(m), calendar::last_day(m), None),
            "goals": self.goals_view(),
        })
    }
}
