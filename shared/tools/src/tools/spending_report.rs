//! `spending_report`: expense (or income) totals for a period, by account or by month.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::api::{FlowKind, ReportBy, ReportRequest};
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{DayOrMonthArg, NameArg, TagArg};
use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{AmountOut, DateOut, MonthOut, ScheduledOut, UuidOut, VaultOut};

/// How to group the report.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum By {
    Account,
    Month,
    Group,
    Tag,
    Member,
}

/// Which flow to sum.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Flow {
    Expense,
    Income,
}

/// Arguments of `spending_report`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// First day, YYYY-MM-DD (YYYY-MM: its first day).
    from: DayOrMonthArg,
    /// Last day, YYYY-MM-DD (YYYY-MM: its last day).
    to: DayOrMonthArg,
    /// account (default, largest first), month, group (children in their parent), tag, or member (each person's own plus their share of shared spending).
    by: Option<By>,
    /// expense (default) or income.
    kind: Option<Flow>,
    /// Only entries with this tag.
    tag: Option<TagArg>,
}

/// Result of `spending_report`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// First day of the period, YYYY-MM-DD.
    from: DateOut,
    /// Last day of the period, YYYY-MM-DD.
    to: DateOut,
    /// "expense" or "income": what was summed.
    kind: Flow,
    /// How the rows are grouped.
    by: By,
    /// Sum of all rows, decimal string in the vault currency.
    total: AmountOut,
    /// The rows. By account: accounts with a non-zero total, largest first (list_transactions with that account and the same dates shows the entries). By month: every month of the period in order.
    rows: Vec<Row>,
    /// Entries in the period dated after today: not in the total or rows yet. Absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduled: Option<ScheduledOut>,
}

/// One row: an account or a month.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Row {
    /// The account's id (by account only).
    #[serde(skip_serializing_if = "Option::is_none")]
    account_id: Option<UuidOut>,
    /// The account's name (by account only); pass it as `account` to list_transactions to see the entries.
    #[serde(skip_serializing_if = "Option::is_none")]
    account: Option<String>,
    /// The month, YYYY-MM (by month only).
    #[serde(skip_serializing_if = "Option::is_none")]
    month: Option<MonthOut>,
    /// Total spent (or earned) in this row, decimal string in the vault currency; refunds reduce it.
    amount: AmountOut,
    /// The account's parent category (by account).
    #[serde(skip_serializing_if = "Option::is_none")]
    parent: Option<String>,
    /// The tag (by tag).
    #[serde(skip_serializing_if = "Option::is_none")]
    tag: Option<String>,
    /// The member (by member).
    #[serde(skip_serializing_if = "Option::is_none")]
    member: Option<String>,
}

/// The `spending_report` tool.
pub(crate) struct SpendingReport;

#[async_trait]
impl Operation for SpendingReport {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "spending_report";
    const TITLE: &'static str = "Spending report";
    const DESCRIPTION: &'static str = "Spending (지출, 소비) or income (수입) between two dates, by account (category), month, group (대분류: children in their parent) or tag: \"how much on 식비 this month\". Refunds reduce it; voided entries do not count. Entries behind a row: list_transactions with that account and dates. Against a budget: budget_report.";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
            r#"{"from": "2026-03-01", "to": "2026-03-31", "by": "month", "kind": "income"}"#,
            r#"{"from": "2026-03", "to": "2026-03", "by": "group", "tag": "여행"}"#,
        ],
            &[
                r#"{"from": "2026-03-01"}"#,
                r#"{"from": "2026-03-01", "to": "2026-03-31", "by": "week"}"#,
            ],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        LedgerError::check_range(&args.from.first(), &args.to.last())?;
        let by = match args.by.unwrap_or(By::Account) {
            By::Account => ReportBy::Account,
            By::Month => ReportBy::Month,
            By::Group => ReportBy::Group,
            By::Tag => ReportBy::Tag,
            By::Member => ReportBy::Member,
        };
        let kind = match args.kind.unwrap_or(Flow::Expense) {
            Flow::Expense => FlowKind::Expense,
            Flow::Income => FlowKind::Income,
        };
        let report = ledger
            .spending_report(
                who,
                ReportRequest {
                    vault: args.vault.map(String::from),
                    from: args.from.first(),
                    to: args.to.last(),
                    by,
                    kind,
                    tag: args.tag.map(String::from),
                },
            )
            .await?;
        Ok(Output {
            vault: report.vault.into(),
            currency: report.currency.code().to_owned(),
            from: report.from.into(),
            to: report.to.into(),
            kind: match report.kind {
                FlowKind::Expense => Flow::Expense,
                FlowKind::Income => Flow::Income,
            },
            by: match report.by {
                ReportBy::Account => By::Account,
                ReportBy::Month => By::Month,
                ReportBy::Group => By::Group,
                ReportBy::Tag => By::Tag,
                ReportBy::Member => By::Member,
            },
            total: report.total.into(),
            rows: report
                .rows
                .into_iter()
                .map(|r| Row {
                    account_id: r.account_id.map(Into::into),
                    account: r.account,
                    month: r.month.map(Into::into),
                    amount: r.amount.into(),
                    parent: r.parent,
                    tag: r.tag,
                    member: r.member,
                })
                .collect(),
            scheduled: report.scheduled.map(Into::into),
        })
    }
}
