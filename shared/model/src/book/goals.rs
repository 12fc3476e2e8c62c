//! Savings goals: `set_goal`, and each goal as `set_goal`, `list_accounts` and
//! `budget_report` show it (docs/tools.md, "set_goal", "list_accounts",
//! "budget_report"; decision 061, "Goals").
//!
//! Progress is never kept: `saved` is the account's balance today, read when the goal
//! is shown, like every other figure of the model.
//!
//! Where the contract is silent the model follows the ledger, and says so: an archived
//! account's goal is shown nowhere and takes no name (it comes back with the account);
//! the straight line stops at the target on `by` (days elapsed counted up to `by`; a
//! goal set on its `by` is on track once saved reaches the target).

use serde_json::{Map, Value, json};

use super::{Book, Expect, Goal, Kind, fold};
use crate::calendar;

impl Book {
    /// The goal account `a` keeps, while it is live.
    fn goal_of(&self, a: usize) -> Option<&Goal> {
        self.accounts[a]
            .goal
            .as_ref()
            .filter(|_| self.accounts[a].handle.is_none())
    }

    /// Account `a`'s goal as shown: `name`, `account` (as the account is named now),
    /// `target`, `by`, `saved` (its balance today), `left` (target − saved, never below
    /// 0) and, with `by`, `monthlyNeeded` (`left` over the months from this month
    /// through by's, rounded up) and `onTrack` (saved × total days ≥ target × days
    /// elapsed, from the day it was first set to `by`). Null when it keeps none, or is
    /// archived.
    pub fn goal_view(&self, a: usize) -> Value {
        let Some(g) = self.goal_of(a) else {
            return Value::Null;
        };
        let today = self.today();
        let saved = self.balance(a, today).0;
        let left = (g.target - saved).max(0);
        let (monthly, on_track) = match g.by {
            Some(by) => {
                let months = i64::from(calendar::month_of(by) - self.this_month() + 1);
                // A `by` passed since (months of 0 or less): docs/tools.md divides over
                // "the months from this month through by's month", none; the model
                // takes the whole of what is left this month (see decision 054).
                let months = months.max(1);
                // The line from 0 on `since` to the target on `by` (decision 061: saved ×
                // total ≥ target × elapsed), and the target itself from `by` on: the
                // days elapsed stop at `by` (past `by` the formula's line would rise
                // above the target; on a goal set on its `by` it would hold whatever
                // was saved).
                let total = i128::from(calendar::days_between(g.since, by).max(0));
                let elapsed = i128::from(calendar::days_between(g.since, today).max(0)).min(total);
                let (saved, target) = (i128::from(saved), i128::from(g.target));
                let track = if total == 0 {
                    saved >= target
                } else {
                    saved * total >= target * elapsed
                };
                (json!((left + months - 1) / months), json!(track))
            }
            None => (Value::Null, Value::Null),
        };
        json!({
            "name": g.name,
            "account": self.accounts[a].reference(),
            "target": g.target,
            "by": g.by.map(calendar::date_text),
            "saved": saved,
            "left": left,
            "monthlyNeeded": monthly,
            "onTrack": on_track,
        })
    }

    /// `budget_report`'s `goals`: every goal of the vault as of today, by name (the
    /// contract gives no order); null when there is none.
    pub fn goals_view(&self) -> Value {
        let goals: Map<String, Value> = (0..self.accounts.len())
            .filter_map(|a| {
                let g = self.goal_of(a)?;
                Some((g.name.clone(), self.goal_view(a)))
            })
            .collect();
        if goals.is_empty() {
            Value::Null
        } else {
            Value::Object(goals)
        }
    }

    /// `set_goal`: a goal named `name` kept in asset account `a`, its `target`, `by`
    /// (days from today); or `remove`. Refused, nothing stored: not an asset, a target
    /// of 0 or less or none, a `by` already past, a name another account's goal has, a
    /// different name on an account that keeps a goal, removing a goal the account
    /// does not keep.
    pub fn set_goal(
        &mut self,
        who: usize,
        name: &str,
        a: usize,
        target: Option<i64>,
        by: Option<i64>,
        remove: bool,
    ) {
        let today = self.today();
        let by = by.map(|d| calendar::add_days(today, d));
        let mut args = json!({"name": name, "account": self.accounts[a].reference()});
        if let Some(t) = target {
            args["target"] = json!(self.amount(t));
        }
        if let Some(d) = by {
            args["by"] = json!(calendar::date_text(d));
        }
        if remove {
            args["remove"] = json!(true);
        }
        let account = &self.accounts[a];
        // An archived account takes no new setting (as its rename, parent, cycle and
        // owner are refused); the contract names no goal on one.
        let asset = account.kind == Kind::Asset && account.handle.is_none();
        let keeps = account.goal.as_ref().map(|g| fold(&g.name));
        let named = keeps.as_deref() == Some(fold(name).as_str());
        if !self.is_member(who) || !asset {
            self.call(who, "set_goal", args, Expect::Refused);
            return;
        }
        if remove {
            if !named {
                self.call(who, "set_goal", args, Expect::Refused);
                return;
            }
            let view = json!({"goal": self.goal_view(a), "created": false, "removed": true});
            self.accounts[a].goal = None;
            self.call(who, "set_goal", args, Expect::Ok(view));
            return;
        }
        let elsewhere = (0..self.accounts.len())
            .any(|b| b != a && self.goal_of(b).is_some_and(|g| fold(&g.name) == fold(name)));
        let refused = target.is_none_or(|t| t <= 0)
            || by.is_some_and(|d| d < today)
            || elsewhere
            || (keeps.is_some() && !named);
        let Some(target) = target.filter(|_| !refused) else {
            self.call(who, "set_goal", args, Expect::Refused);
            return;
        };
        // Sent again with another target or by, it changes: its first day stays. A
        // goal sent again is the whole goal: a `by` left out is no date.
        let since = self.accounts[a].goal.as_ref().map_or(today, |g| g.since);
        let created = self.accounts[a].goal.is_none();
        let name = self.accounts[a]
            .goal
            .as_ref()
            .map_or(name, |g| g.name.as_str())
            .to_owned();
        self.accounts[a].goal = Some(Goal {
            name,
            target,
            by,
            since,
        });
        let view = json!({"goal": self.goal_view(a), "created": created, "removed": false});
        self.call(who, "set_goal", args, Expect::Ok(view));
    }
}
