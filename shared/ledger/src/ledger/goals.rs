//! Savings goals (decision 061): a target kept in an asset account (적금, 여행통장),
//! optionally by a date; how far it is comes from the account's balance today. The
//! operation that sets one is `goal_setting.rs`.

use super::resolve::Catalogue;
use super::today::Later;
use super::*;
use crate::api::{Field, Reason};
use crate::stored::account::{AccountRec, GoalRec};
use crate::stored::member::Membership;
use dochiya_domain::{AccountKind, Money, Name};

/// How far `goal` on `a` is, with the account's balance today (`saved`, natural sign).
pub(super) fn view(a: &AccountRec, goal: &GoalRec, saved: i64, today: LocalDate, m: &Membership) -> GoalView {
    let money = |v: i64| Money::from_minor(v, m.currency);
    let left = goal.target.saturating_sub(saved).max(0);
    let monthly_needed = goal.by.map(|by| {
        let months = i64::try_from(today.month().through(by.month()).len())
            .unwrap_or(1)
            .max(1);
        // Rounded up: paying this each month reaches the target.
        money((left + months - 1) / months)
    });
    let on_track = goal.by.map(|by| {
        let total = i128::from(by.days_since(goal.since).max(0));
        let elapsed = i128::from(today.days_since(goal.since).max(0)).min(total);
        // The straight line from 0 on `since` to the target on `by`.
        total == 0 && saved >= goal.target
            || total > 0 && i128::from(saved) * total >= i128::from(goal.target) * elapsed
    });
    GoalView {
        name: goal.name.clone(),
        account: a.name.clone(),
        target: money(goal.target),
        by: goal.by,
        saved: money(saved),
        left: money(left),
        monthly_needed,
        on_track,
    }
}

/// Every goal of the vault by name, as of today (balances from `later`).
pub(super) fn all(cat: &Catalogue, later: &Later, m: &Membership) -> Result<Vec<GoalView>, LedgerError> {
    let mut out = Vec::new();
    for a in cat.accounts.iter().filter(|a| !a.archived) {
        if let Some(g) = &a.goal {
            let b = later.balance(a, 0, 0)?;
            out.push(view(a, g, b.balance, later.today, m));
        }
    }
    out.sort_by(|x, y| x.name.cmp(&y.name));
    Ok(out)
}

fn refuse(reason: Reason) -> LedgerError {
    LedgerError::invalid(Field::Category("goal"), reason)
}

/// The goal as asked, checked against the account and the vault's other goals.
pub(super) fn asked(
    input: &GoalInput,
    a: &AccountRec,
    cat: &Catalogue,
    today: LocalDate,
    m: &Membership,
) -> Result<GoalRec, LedgerError> {
    let name = Name::parse(&input.name).map_err(|e| LedgerError::from_parse(Field::Name, e))?;
    if a.kind != AccountKind::Asset {
        return Err(refuse(Reason::GoalNotInAsset {
            account: a.name.clone(),
            kind: a.kind,
        }));
    }
    if let Some(other) = cat
        .accounts
        .iter()
        .filter(|o| o.account_id != a.account_id && !o.archived)
        .find(|o| {
            o.goal
                .as_ref()
                .is_some_and(|g| dochiya_domain::NameKey::of(&g.name) == *name.key())
        })
    {
        return Err(refuse(Reason::GoalNameTaken {
            goal: name.display().to_string(),
            account: other.name.clone(),
        }));
    }
    if let Some(g) = &a.goal
        && dochiya_domain::NameKey::of(&g.name) != *name.key()
    {
        return Err(refuse(Reason::AccountHasGoal {
            account: a.name.clone(),
            goal: g.name.clone(),
        }));
    }
    let Some(target) = input.target else {
        return Err(refuse(Reason::GoalWithoutTarget));
    };
    let target =
        Money::from_decimal(target, m.currency).map_err(|e| LedgerError::from_parse(Field::Amount, e))?;
    if target.minor() <= 0 {
        return Err(refuse(Reason::TargetNotPositive { got: target }));
    }
    if let Some(by) = input.by
        && by < today
    {
        return Err(refuse(Reason::GoalDatePassed { by, today }));
    }
    Ok(GoalRec {
        name: name.display().to_string(),
        target: target.minor(),
        by: input.by,
        since: a.goal.as_ref().map_or(today, |g| g.since),
    })
}
