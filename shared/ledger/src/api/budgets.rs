//! Budgets: setting one and the month's report.

use super::*;
use dochiya_domain::{AccountId, Currency, Decimal, Money, YearMonth};

/// Arguments of `set_budget`.
#[derive(Debug, Clone, PartialEq)]
pub struct BudgetInput {
    /// Vault name (optional when the caller has exactly one).
    pub vault: Option<String>,
    /// The expense account's name.
    pub account: String,
    /// The month's amount; zero clears the budget.
    pub amount: Decimal,
    /// The month it is set for (default this month in the vault's zone).
    pub month: Option<YearMonth>,
    /// Whether later months keep it until a later setting (`None`: that month's own
    /// setting's, else true).
    pub repeat: Option<bool>,
    /// What is left of the month, or overspent, carries into the next (`None`: as the
    /// setting in force that month says, else false).
    pub rollover: Option<bool>,
}

/// Result of `set_budget`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetSet {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The account's id.
    pub account_id: AccountId,
    /// The account's name.
    pub account: String,
    /// The month set.
    pub month: YearMonth,
    /// The amount set (zero: cleared).
    pub amount: Money,
    /// Whether later months keep it.
    pub repeat: bool,
    /// Whether what is left carries into the next month.
    pub rollover: bool,
}

/// One budgeted account in `budget_report`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetRow {
    /// The account's id.
    pub account_id: AccountId,
    /// The account's name.
    pub account: String,
    /// The month's budget.
    pub budget: Money,
    /// Spent in the month, refunds subtracted.
    pub spent: Money,
    /// `budget + carried - spent` (negative when over).
    pub remaining: Money,
    /// `spent * 100 / (budget + carried)`, rounded down while within it and up once
    /// over it; `None` when nothing is available (carried overspending ate the budget).
    pub percent_used: Option<i64>,
    /// `spent > budget + carried`; then `percent_used`, when present, is above 100.
    pub over: bool,
    /// Carried from the months before (rollover on in the month before; `None` when off).
    pub carried: Option<Money>,
}

/// Sums over the budgeted accounts of a `budget_report`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetTotals {
    /// Sum of the budgets.
    pub budget: Money,
    /// Sum of their spending.
    pub spent: Money,
    /// `budget + carried - spent`, over the rows.
    pub remaining: Money,
    /// Whole percent of budget + carried used, rounded as the rows' are; `None` when
    /// nothing is available (no budget set, or carried overspending ate it).
    pub percent_used: Option<i64>,
    /// `remaining < 0`; then `percent_used`, when present, is above 100.
    pub over: bool,
}

/// Result of `budget_report`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetReport {
    /// The vault.
    pub vault: VaultRef,
    /// The vault's currency.
    pub currency: Currency,
    /// The month reported.
    pub month: YearMonth,
    /// Budgeted live expense accounts, by name.
    pub rows: Vec<BudgetRow>,
    /// Sums over the rows.
    pub totals: BudgetTotals,
    /// Spent in expense accounts with no budget in force (or archived).
    pub unbudgeted_spent: Money,
    /// Current month only: days left, today included.
    pub days_left: Option<u32>,
    /// Current month only: `max(totals.remaining, 0) / days_left`, rounded down to the minor unit.
    pub daily_allowance: Option<Money>,
    /// Expense entries of the month dated after today: not in `spent` yet.
    pub scheduled: Option<Scheduled>,
    /// Every savings goal of the vault, by name, as of today.
    pub goals: Vec<super::GoalView>,
}
