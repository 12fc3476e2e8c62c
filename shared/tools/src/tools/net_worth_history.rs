//! `net_worth_history`: month-end assets, liabilities and net worth over a range of months.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::args::{MonthArg, NameArg};
use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{AmountOut, MonthOut, VaultOut};

/// Arguments of `net_worth_history`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// First month, YYYY-MM.
    from: MonthArg,
    /// Last month, YYYY-MM.
    to: MonthArg,
}

/// Result of `net_worth_history`.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// One point per month from `from` to `to`, in order, with the values at the end of the month's last day.
    points: Vec<Point>,
}

/// One month-end point.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Point {
    /// The month, YYYY-MM.
    month: MonthOut,
    /// Sum of asset balances at the month's end, decimal string in the vault currency.
    assets: AmountOut,
    /// Sum of liability balances (what is owed, positive) at the month's end.
    liabilities: AmountOut,
    /// Assets minus liabilities at the month's end (may be negative).
    net_worth: AmountOut,
}

/// The `net_worth_history` tool.
pub(crate) struct NetWorthHistory;

#[async_trait]
impl Operation for NetWorthHistory {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "net_worth_history";
    const TITLE: &'static str = "Net worth history";
    const DESCRIPTION: &'static str = "Month-end total assets, liabilities and net worth (자산 추이) for each month of a range.";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &[
                r#"{"from": "2026-01", "to": "2026-03"}"#,
                r#"{"from": "2026-01-01", "to": "2026-03-31"}"#,
            ],
            &[r#"{"from": "2026"}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        LedgerError::check_range(&args.from.0, &args.to.0)?;
        let h = ledger
            .net_worth_history(who, args.vault.as_deref(), args.from.0, args.to.0)
            .await?;
        Ok(Output {
            vault: h.vault.into(),
            currency: h.currency.code().to_owned(),
            points: h
                .points
                .into_iter()
                .map(|p| Point {
                    month: p.month.into(),
                    assets: p.assets.into(),
                    liabilities: p.liabilities.into(),
                    net_worth: p.net_worth.into(),
                })
                .collect(),
        })
    }
}
