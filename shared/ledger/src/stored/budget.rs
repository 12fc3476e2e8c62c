//! Budget settings (`V#<id>` / `BG#<YYYY-MM>#<accountId>`) and the head an account item
//! keeps of them (decision 030).

use std::collections::BTreeMap;

use super::rollup::month_from;
use super::table::{corrupt, flag, n, optional_n, parse_or_corrupt, s, sv, upper, vault_pk};
use crate::api::LedgerError;
use dochiya_domain::{AccountId, VaultId, YearMonth};
use dochiya_store::{Attrs, Condition, Guard, Key, SkRange, Value, WriteOp};

/// Prefix of budget settings in a vault: after every `B#…` rollup, before `C#`.
pub const BUDGET_PREFIX: &str = "BG#";

/// A budget setting (`V#<id>` / `BG#<YYYY-MM>#<accountId>`): one per account and
/// month set; month first, so "every setting up to a month" is one range.
pub fn budget(vault: VaultId, month: YearMonth, account: AccountId) -> Key {
    Key::new(vault_pk(vault), format!("{BUDGET_PREFIX}{month}#{account}"))
}

/// Every budget setting of a vault.
pub fn budgets() -> SkRange {
    SkRange::Prefix(BUDGET_PREFIX.into())
}

/// Budget settings of every month through `through`: all a month's budgets can depend on.
pub fn budgets_through(through: YearMonth) -> SkRange {
    SkRange::Between(BUDGET_PREFIX.into(), upper(&format!("{BUDGET_PREFIX}{through}#")))
}

/// In one query, the monthly rollups of `month` and every budget setting through
/// it (a budget report). `B#` < `BG#` in byte order, so the range runs from the
/// month's rollups through the later months' (readers skip them) into the settings.
pub fn month_and_budgets_through(month: YearMonth) -> SkRange {
    SkRange::Between(month_from(month), upper(&format!("{BUDGET_PREFIX}{month}#")))
}

/// In one query, the monthly rollups of `from..=month` and every budget setting
/// through `month`: a budget report with its rollover look-back (decision 038).
/// The later months' rollups in between are skipped by readers, as above.
pub fn months_and_budgets_through(from: YearMonth, month: YearMonth) -> SkRange {
    SkRange::Between(month_from(from), upper(&format!("{BUDGET_PREFIX}{month}#")))
}

/// Whether a sort key (from a range above) is a budget setting's.
pub fn is_budget(sk: &str) -> bool {
    sk.starts_with(BUDGET_PREFIX)
}

/// A budget setting: an expense account's amount (minor units; 0 clears) for a
/// month, and whether later months keep it (`repeat`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetRec {
    pub account_id: AccountId,
    pub month: YearMonth,
    pub amount: i64,
    pub repeat: bool,
    /// What is left of the month (or overspent) carries into the next (decision 038).
    pub rollover: bool,
}

impl BudgetRec {
    /// This record as item attributes.
    pub fn to_attrs(&self, updated_at: i64) -> Attrs {
        let mut attrs = BTreeMap::from([
            ("accountId".into(), sv(self.account_id.to_string())),
            ("month".into(), sv(self.month.to_string())),
            ("amount".into(), Value::N(self.amount)),
            ("repeat".into(), Value::Bool(self.repeat)),
            ("updatedAt".into(), Value::N(updated_at)),
        ]);
        // Only when on, so settings without it stay as they were stored.
        if self.rollover {
            attrs.insert(ROLLOVER.into(), Value::Bool(true));
        }
        attrs
    }

    /// This record from an item's attributes (a missing or mistyped one is corrupt data).
    pub fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        Ok(BudgetRec {
            account_id: parse_or_corrupt(AccountId::parse(s(a, "accountId")?), "account id")?,
            month: parse_or_corrupt(YearMonth::parse(s(a, "month")?), "month")?,
            amount: n(a, "amount")?,
            repeat: flag(a, "repeat")?,
            rollover: flag(a, ROLLOVER)?,
        })
    }
}

/// Attribute of a budget setting (and its copy on the account item) turning rollover on.
const ROLLOVER: &str = "rollover";

/// An account item's count of budget-setting writes; its presence makes the tail exact.
pub(super) const BUDGET_SEQ: &str = "budgetSeq";
/// An account item's budget settings that decide its budget from the month of
/// the last setting write on (decision 030).
pub(super) const BUDGET_TAIL: &str = "budgets";

/// What an account item knows of its budget settings (decision 030): every
/// `set_budget` moves it on in the same atomic write as the setting item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BudgetHead {
    /// An item written before the head existed: only the setting items tell.
    Unknown,
    /// Exact: `seq` setting writes so far; `tail` every setting (ascending months)
    /// that can decide the budget of the month it was written in or any later one.
    Known { seq: i64, tail: Vec<BudgetRec> },
}

impl BudgetHead {
    /// A new account's head: known, no setting.
    pub fn for_new_account() -> Self {
        BudgetHead::Known { seq: 0, tail: vec![] }
    }

    /// The attributes of a head after `seq` writes, with `tail`.
    pub(super) fn attrs(seq: i64, tail: &[BudgetRec]) -> Attrs {
        let list = tail
            .iter()
            .map(|b| {
                let mut m = BTreeMap::from([
                    ("accountId".into(), sv(b.account_id.to_string())),
                    ("month".into(), sv(b.month.to_string())),
                    ("amount".into(), Value::N(b.amount)),
                    ("repeat".into(), Value::Bool(b.repeat)),
                ]);
                if b.rollover {
                    m.insert(ROLLOVER.into(), Value::Bool(true));
                }
                Value::M(m)
            })
            .collect();
        BTreeMap::from([
            (BUDGET_SEQ.to_string(), Value::N(seq)),
            (BUDGET_TAIL.to_string(), Value::L(list)),
        ])
    }

    /// The head an account item's attributes hold.
    pub(super) fn from_attrs(a: &Attrs) -> Result<Self, LedgerError> {
        let Some(seq) = optional_n(a, BUDGET_SEQ)? else {
            return Ok(BudgetHead::Unknown);
        };
        let tail = match a.get(BUDGET_TAIL) {
            Some(Value::L(list)) => list
                .iter()
                .map(|v| match v {
                    Value::M(m) => BudgetRec::from_attrs(m),
                    _ => Err(corrupt(BUDGET_TAIL)),
                })
                .collect::<Result<_, _>>()?,
            _ => return Err(corrupt(BUDGET_TAIL)),
        };
        Ok(BudgetHead::Known { seq, tail })
    }

    /// The condition "the head is still the one read" (no setting write since).
    pub fn unchanged(&self) -> Condition {
        match self {
            BudgetHead::Unknown => Condition::AttrAbsent(BUDGET_SEQ.into()),
            BudgetHead::Known { seq, .. } => Condition::AttrEquals(BUDGET_SEQ.into(), Value::N(*seq)),
        }
    }

    /// The update moving the head of account item `key` on by one write, to `tail`.
    pub fn moved_on(&self, key: Key, tail: &[BudgetRec], guard: Guard) -> WriteOp {
        let seq = match self {
            BudgetHead::Unknown => 1,
            BudgetHead::Known { seq, .. } => seq.saturating_add(1),
        };
        WriteOp::Update {
            key,
            set: BudgetHead::attrs(seq, tail),
            add: BTreeMap::new(),
            remove: vec![],
            guard: Some(guard),
        }
    }
}
