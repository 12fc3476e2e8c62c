//! `budget_report`: each budgeted account's budget, spending and what is left in a month.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{NameArg, OnlyMonthArg};
use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{AmountOut, MonthOut, ScheduledOut, UuidOut, VaultOut};

/// Arguments of `budget_report`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// YYYY-MM; default this month.
    month: Option<OnlyMonthArg>,
}

/// Result of `budget_report`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The month reported, YYYY-MM.
    month: MonthOut,
    /// One row per account with a budget this month, by name.
    rows: Vec<Row>,
    /// Sums over the rows.
    totals: Totals,
    /// Spent this month in expense accounts without a budget.
    unbudgeted_spent: AmountOut,
    /// Current month only: days left including today.
    #[serde(skip_serializing_if = "Option::is_none")]
    days_left: Option<u32>,
    /// Current month only: totals.remaining ÷ daysLeft, rounded down; "0" when over.
    #[serde(skip_serializing_if = "Option::is_none")]
    daily_allowance: Option<AmountOut>,
    /// Expense entries of the month dated after today: not in spent yet. Absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduled: Option<ScheduledOut>,
    /// Savings goals (set_goal), as of today; absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    goals: Vec<crate::wire::GoalOut>,
}

/// One budgeted account.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Row {
    #[schemars(description = text::ACCOUNT_ID)]
    account_id: UuidOut,
    #[schemars(description = text::ACCOUNT_NAME)]
    account: String,
    /// The month's budget.
    budget: AmountOut,
    /// Spent this month, refunds subtracted.
    spent: AmountOut,
    /// budget + carried − spent; negative when over.
    remaining: AmountOut,
    /// spent × 100 ÷ (budget + carried), a whole number rounded down, or up once over (so above 100 exactly when over). Absent when budget + carried is 0 or less.
    #[serde(skip_serializing_if = "Option::is_none")]
    percent_used: Option<i64>,
    /// True when spent exceeds budget + carried.
    over: bool,
    /// Left over (negative: overspent) from earlier months, with rollover on.
    #[serde(skip_serializing_if = "Option::is_none")]
    carried: Option<AmountOut>,
}

/// Sums over the budgeted accounts.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Totals {
    /// Sum of the budgets.
    budget: AmountOut,
    /// Sum of their spending.
    spent: AmountOut,
    /// Sum of the rows' remaining: budget + carried − spent.
    remaining: AmountOut,
    /// spent × 100 ÷ (budget + carried), rounded as the rows' are; absent when that is 0 or less (no budget).
    #[serde(skip_serializing_if = "Option::is_none")]
    percent_used: Option<i64>,
    /// True when remaining is negative.
    over: bool,
}

/// The `budget_report` tool.
pub(crate) struct BudgetReport;

#[async_trait]
impl Operation for BudgetReport {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "budget_report";
    const TITLE: &'static str = "Budget report";
    const DESCRIPTION: &'static str = "Budget vs spending (예산, 남은 돈) for a month: each budgeted account's budget, spent, remaining, percent used, over; this month also days left and a daily allowance. Budgets are set with set_budget.";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &["{}", r#"{"vault": "우리집", "month": "2026-03"}"#],
        &[r#"{"month": "March"}"#, r#"{"account": "식비"}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let r = ledger
            .budget_report(who, args.vault.as_deref(), args.month.map(|m| m.0))
            .await?;
        Ok(Output {
            vault: r.vault.into(),
            currency: r.currency.code().to_owned(),
            month: r.month.into(),
            rows: r
                .rows
                .into_iter()
                .map(|x| Row {
                    account_id: x.account_id.into(),
                    account: x.account,
                    budget: x.budget.into(),
                    spent: x.spent.into(),
                    remaining: x.remaining.into(),
                    percent_used: x.percent_used,
                    over: x.over,
                    carried: x.carried.map(Into::into),
                })
                .collect(),
            totals: Totals {
                budget: r.totals.budget.into(),
                spent: r.totals.spent.into(),
                remaining: r.totals.remaining.into(),
                percent_used: r.totals.percent_used,
                over: r.totals.over,
            },
            unbudgeted_spent: r.unbudgeted_spent.into(),
            days_left: r.days_left,
            daily_allowance: r.daily_allowance.map(Into::into),
            scheduled: r.scheduled.map(Into::into),
            goals: r.goals.into_iter().map(Into::into).collect(),
        })
    }
}
