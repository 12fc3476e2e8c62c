//! `list_recurring`: the vault's recurring entries and what is still to come in a month.

use async_trait::async_trait;
use dochiya_domain::PersonId;
use dochiya_ledger::Ledger;
use dochiya_ledger::api::LedgerError;
use schemars::JsonSchema;
use serde::Serialize;

use crate::args::{NameArg, OnlyMonthArg};
use crate::operation::{Kind, Operation, READ};
use crate::text;
use crate::wire::{AmountOut, DateOut, MonthOut, RecurringOut, VaultOut};

/// Arguments of `list_recurring`.
#[derive(Debug, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Args {
    #[schemars(description = text::VAULT)]
    vault: Option<NameArg>,
    /// YYYY-MM; default this month.
    month: Option<OnlyMonthArg>,
}

/// One occurrence still to come.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct UpcomingOut {
    /// The schedule's name.
    name: String,
    /// Its date.
    date: DateOut,
    /// Its amount.
    amount: AmountOut,
}

/// A charge seen month after month that no schedule covers.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct DetectedOut {
    /// Memo of its latest entry.
    memo: String,
    /// Account it is paid from.
    from: String,
    /// Its category.
    to: String,
    /// Latest amount.
    amount: AmountOut,
    /// Day of the month of its latest entry.
    day: u8,
    /// Months in a row it came, through the latest.
    months: u32,
}

/// Result of `list_recurring`.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Output {
    #[schemars(description = text::VAULT_OUT)]
    vault: VaultOut,
    #[schemars(description = text::CURRENCY)]
    currency: String,
    /// The month, YYYY-MM.
    month: MonthOut,
    /// Every schedule, by name.
    recurring: Vec<RecurringOut>,
    /// Occurrences of the month after today not yet posted, by date.
    upcoming: Vec<UpcomingOut>,
    /// Their total.
    upcoming_total: AmountOut,
    /// Charges seen 3+ months in a row that no schedule covers; set_recurring with these values would.
    detected: Vec<DetectedOut>,
}

/// The `list_recurring` tool.
pub(crate) struct ListRecurring;

#[async_trait]
impl Operation for ListRecurring {
    type Args = Args;
    type Output = Output;
    const NAME: &'static str = "list_recurring";
    const TITLE: &'static str = "List recurring entries";
    const DESCRIPTION: &'static str = "The vault's recurring entries (set_recurring) with next and last posted dates, and what is still to come in the month with its total.";
    const KIND: Kind = READ;
    #[cfg(test)]
    const EXAMPLES: crate::operation::Examples = (
        &["{}", r#"{"vault": "우리집", "month": "2026-03"}"#],
        &[r#"{"month": "2026-03-01"}"#, r#"{"name": "월세"}"#],
    );

    async fn run(ledger: &Ledger, who: &PersonId, args: Args) -> Result<Output, LedgerError> {
        let list = ledger
            .list_recurring(who, args.vault.as_deref(), args.month.map(|m| m.0))
            .await?;
        Ok(Output {
            vault: list.vault.into(),
            currency: list.currency.code().to_owned(),
            month: list.month.into(),
            recurring: list.recurring.into_iter().map(RecurringOut::from).collect(),
            upcoming: list
                .upcoming
                .into_iter()
                .map(|u| UpcomingOut {
                    name: u.name,
                    date: u.date.into(),
                    amount: u.amount.into(),
                })
                .collect(),
            upcoming_total: list.upcoming_total.into(),
            detected: list
                .detected
                .into_iter()
                .map(|c| DetectedOut {
                    memo: c.memo,
                    from: c.from,
                    to: c.to,
                    amount: c.amount.into(),
                    day: c.day,
                    months: c.months,
                })
                .collect(),
        })
    }
}
